#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The pull-request modes: --check, --explain, --porcelain, --request-pull,
# on the document's histories (messy and not), a conflicting merge and
# bad input, against the real git request-pull; none changes the
# repository.
# shellcheck disable=SC2030,SC2031 # each @test is a subshell: url is its own

load test_helper

setup() {
	setup_world
}

# A conflict: both sides add a different last line to drivers/net/eth.c.
history_conflict() {
	history_partly_pulled
	test_commit "topic: eth" drivers/net/eth.c topic-line
	git checkout -q linus
	test_commit "linus: eth" drivers/net/eth.c linus-line
	git checkout -q topic
}

# x changes x.c and a.c; the topic, from rc2, merges x, adds to x.c and
# takes x's line out of a.c again; upstream has pulled x.  git merge-base
# picks rc2, so request-pull counts x's x.c line too and misses a.c.
# Built once per run and copied into each test (from_cache).
history_counted_differently() { from_cache build_counted_differently; }

build_counted_differently() {
	git init -q "${1:-repo}" && cd "${1:-repo}" || return
	test_commit base a.c a
	test_commit b b.c b
	git checkout -q -b x
	test_commit x1 x.c x1
	test_commit x2 a.c x-a
	git checkout -q main
	test_commit rc2 b.c rc2
	git checkout -q -b topic
	test_merge x
	echo topic >>x.c
	sed -i '/x-a/d' a.c
	commit_all "topic: x.c, a.c"
	test_commit t t.c t
	git checkout -q main
	test_merge x
	test_commit m m.c m
	[ "$(git merge-base main topic)" = "$(git rev-parse rc2)" ]
}

@test "--check: one merge base, the same diffstats, exit 0" {
	history_simple
	run_tool --check linus topic
	expect_status 0
	expect_stdout <<-EOF
	'linus' and 'topic' have 1 merge base:
	  $(git rev-parse --short vN-rc2) vN-rc2
	git request-pull's diffstat names 3 files, the clean diffstat 3.
	The two are the same: git request-pull's diffstat is clean.
	EOF
	expect_no_stderr
	expect_unchanged
}

@test "--check: two merge bases and a messy diffstat, exit 1" {
	history_partly_pulled
	run_tool --check linus topic
	expect_status 1
	expect_stdout <<-EOF
	'linus' and 'topic' have 2 merge bases:
	  $(git rev-parse --short x2) x2 (the one git request-pull uses)
	  $(git rev-parse --short vN-rc2) vN-rc2
	git request-pull's diffstat names 8 files, the clean diffstat 5.
	They differ: git request-pull's diffstat is messy; use git clean-diffstat's.
	EOF
	expect_no_stderr
	expect_unchanged
}

@test "--check names the two revisions in the order given, <upstream> first" {
	history_partly_pulled
	git checkout -q -b both linus
	test_merge topic
	run_tool --check both^1 both^2
	expect_status 1
	head -n 1 "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/first"
	echo "'both^1' and 'both^2' have 2 merge bases:" |
	test_cmp - "$BATS_TEST_TMPDIR/first"
	expect_no_stderr
	expect_unchanged
}

@test "--check compares request-pull's diffstat with the clean one of the same options: they differ only when messy" {
	history_partly_pulled
	request_pull_diffstat linus topic >"$BATS_TEST_TMPDIR/request-pull"
	expect_procedure linus topic -M --stat --summary
	expect_differ "$BATS_TEST_TMPDIR/request-pull" "$BATS_TEST_TMPDIR/expect"
	cd ..
	history_simple other
	request_pull_diffstat linus topic >"$BATS_TEST_TMPDIR/request-pull"
	expect_procedure linus topic -M --stat --summary
	test_cmp "$BATS_TEST_TMPDIR/request-pull" "$BATS_TEST_TMPDIR/expect"
	run_tool --check linus topic
	expect_status 0
}

@test "--check with conflicts still gives its verdict and lists the conflicts" {
	history_conflict
	run_tool --check linus topic
	expect_status 1
	grep -Eq '^(They differ|The two are the same): ' "$BATS_TEST_TMPDIR/actual"
	expect_stderr <<-\EOF
	warning: merging 'topic' into 'linus' conflicts; the counts of conflicted files include conflict markers:
	  drivers/net/eth.c (content)
	EOF
	expect_unchanged
}

@test "--explain: the files only request-pull names, and the merge base that brought them" {
	history_partly_pulled
	# git merge-base picks x2; the mainline work up to vN-rc2 is the junk
	[ "$(git merge-base linus topic)" = "$(git rev-parse x2)" ]
	rc2="$(git rev-parse --short vN-rc2) vN-rc2"
	run_tool --explain linus topic
	expect_status 1
	expect_stdout <<-EOF
	git request-pull's diffstat: 8 files changed, 47 insertions(+), 7 deletions(-)
	the clean diffstat:          5 files changed, 20 insertions(+), 5 deletions(-)

	Only in git request-pull's diffstat, not part of this pull:
	  from merge base $rc2:
	    Makefile          +1 -1
	    fs/btrfs/ctree.c  +25 -0
	    fs/ext4/inode.c   +1 -1
	EOF
	expect_no_stderr
	expect_unchanged
}

@test "--explain on a clean request-pull diffstat says so, exit 0" {
	history_simple
	run_tool --explain linus topic
	expect_status 0
	expect_stdout <<-\EOF
	git request-pull's diffstat: 3 files changed, 17 insertions(+), 2 deletions(-)
	the clean diffstat:          3 files changed, 17 insertions(+), 2 deletions(-)

	They name the same files with the same counts.
	EOF
	expect_no_stderr
	expect_unchanged
}

@test "--explain shows files counted differently and files only in the clean diffstat" {
	history_counted_differently
	run_tool --explain main topic
	expect_status 1
	expect_stdout <<-\EOF
	git request-pull's diffstat: 2 files changed, 3 insertions(+)
	the clean diffstat:          3 files changed, 2 insertions(+), 1 deletion(-)

	Counted differently:
	  x.c  request-pull +2 -0, clean +1 -0

	Only in the clean diffstat:
	  a.c  +0 -1
	EOF
	expect_no_stderr
	expect_unchanged
	procedure_diffstat main topic -M --numstat | sort >"$BATS_TEST_TMPDIR/clean"
	printf '1\t0\tt.c\n1\t0\tx.c\n0\t1\ta.c\n' | sort |
		test_cmp - "$BATS_TEST_TMPDIR/clean"
}

@test "--porcelain lists files counted differently and only in the clean diffstat" {
	history_counted_differently
	run_tool --porcelain main topic
	expect_status 1
	expect_stdout <<-\EOF
	request-pull 2 3 0
	clean 3 2 1
	only-clean 0 1 a.c
	differ 2 0 1 0 x.c
	EOF
	expect_no_stderr
	expect_unchanged
}

@test "--porcelain: the files only request-pull names, in stable lines for scripts" {
	history_partly_pulled
	rc2=$(git rev-parse vN-rc2)
	run_tool --porcelain linus topic
	expect_status 1
	expect_stdout <<-EOF
	request-pull 8 47 7
	clean 5 20 5
	only-request-pull 1 1 $rc2 - Makefile
	only-request-pull 25 0 $rc2 - fs/btrfs/ctree.c
	only-request-pull 1 1 $rc2 - fs/ext4/inode.c
	EOF
	expect_no_stderr
	expect_unchanged
}

# An odd path (a tab in it) that only git request-pull's diffstat names.
# Built once per run and copied into each test (from_cache).
history_odd_path() { from_cache build_odd_path; }

build_odd_path() {
	git init -q "${1:-repo}" && cd "${1:-repo}" || return
	test_commit base README base
	git checkout -q -b x
	test_commit x-odd "$(printf 'tab\there')" one
	git checkout -q main
	test_commit rc2-odd "$(printf 'caf\303\251 "q"')" two
	git checkout -q -b topic
	test_merge x
	test_commit "topic: t" t.c t
	git checkout -q main
	test_merge x
	test_commit upstream README more
	[ "$(git merge-base main topic)" = "$(git rev-parse rc2-odd)" ]
}

@test "--porcelain quotes odd paths as git does" {
	history_odd_path
	run_tool --porcelain main topic
	expect_status 1
	expect_stdout <<-EOF
	request-pull 2 2 0
	clean 1 1 0
	only-request-pull 1 0 $(git rev-parse x-odd) - "tab\\there"
	EOF
	expect_unchanged
}

# expected_request_pull <start> <url> <end> [-p]: the request-pull
# message, with its own diffstat replaced by the procedure's.
expected_request_pull() {
	local start=$1 url=$2 end=$3 local=${3%:*} patch=()
	[ -z "${4-}" ] || patch=("$4")
	git request-pull "${patch[@]}" "$start" "$url" "$end" >"$BATS_TEST_TMPDIR/rp"
	request_pull_diffstat "$start" "$local" -M --stat --summary "${patch[@]}" \
		>"$BATS_TEST_TMPDIR/rp-diffstat"
	head -c "$(($(wc -c <"$BATS_TEST_TMPDIR/rp") - $(wc -c <"$BATS_TEST_TMPDIR/rp-diffstat")))" \
		"$BATS_TEST_TMPDIR/rp" >"$BATS_TEST_TMPDIR/expect"
	procedure_diffstat "$start" "$local" -C --stat --summary "${patch[@]}" \
		>>"$BATS_TEST_TMPDIR/expect"
}

@test "--request-pull: git request-pull's message with the clean diffstat" {
	history_partly_pulled
	publish topic
	expected_request_pull linus "$url" topic
	run_tool --request-pull linus "$url" topic
	matches_procedure
	expect_differ "$BATS_TEST_TMPDIR/rp" "$BATS_TEST_TMPDIR/actual"
}

@test "--request-pull -p: the clean diffstat and patch" {
	history_partly_pulled
	publish topic
	expected_request_pull linus "$url" topic -p
	run_tool --request-pull -p linus "$url" topic
	matches_procedure
}

@test "--request-pull with <end> as local:remote, as request-pull takes it" {
	history_partly_pulled
	publish topic:refs/heads/for-linus
	expected_request_pull linus "$url" topic:for-linus
	run_tool --request-pull linus "$url" topic:for-linus
	matches_procedure
	grep -q "$url for-linus" "$BATS_TEST_TMPDIR/actual"
}

@test "--request-pull -- <start> <url> <end>: \"--\" ends the options, as request-pull's does" {
	history_partly_pulled
	publish topic:refs/heads/for-linus
	expected_request_pull linus "$url" topic:for-linus
	run_tool --request-pull -- linus "$url" topic:for-linus
	matches_procedure
	run_tool --request-pull linus -- "$url" topic:for-linus
	matches_procedure
}

@test "--request-pull of an SSH-signed tag shows its message as this git's request-pull does" {
	command -v ssh-keygen >/dev/null || skip "ssh-keygen is not installed"
	history_partly_pulled
	ssh-keygen -q -t ed25519 -N '' -C tagger -f "$BATS_TEST_TMPDIR/key"
	git -c gpg.format=ssh -c user.signingKey="$BATS_TEST_TMPDIR/key" \
		tag -s -m "The topic, for linus" for-linus topic
	publish for-linus
	expected_request_pull linus "$url" for-linus
	run_tool --request-pull linus "$url" for-linus
	matches_procedure
	grep -q '^The topic, for linus$' "$BATS_TEST_TMPDIR/actual"
	# git request-pull cuts an SSH signature from the message since 2.40
	if git_at_least 2 40; then
		! grep -q 'BEGIN SSH SIGNATURE' "$BATS_TEST_TMPDIR/actual"
	else
		grep -q 'BEGIN SSH SIGNATURE' "$BATS_TEST_TMPDIR/actual"
	fi
}

@test "--request-pull with a conflict names the conflicts and exits 1" {
	history_conflict
	publish topic
	run_tool --request-pull linus "$url" topic
	expect_status 1
	tail -n 6 "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/tail"
	test_cmp - "$BATS_TEST_TMPDIR/tail" <<-\EOF

	Merging this into linus conflicts in:

	  drivers/net/eth.c (content)

	The diffstat counts these files with their conflict markers.
	EOF
	expect_unchanged
}

@test "--request-pull with a conflict warns on stderr as the default mode does" {
	history_conflict
	publish topic
	run_tool --request-pull linus "$url" topic
	expect_status 1
	expect_stderr <<-EOF
	$(conflict_warning linus topic all)
	  drivers/net/eth.c (content)
	EOF
	expect_unchanged
}

@test "--request-pull with a symlink conflict says nothing of conflict markers" {
	history_partly_pulled
	ln -s topic-target link && commit_all "topic: link"
	git checkout -q linus
	ln -s linus-target link && commit_all "linus: link"
	git checkout -q topic
	publish topic
	run_tool --request-pull linus "$url" topic
	expect_status 1
	tail -n 4 "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/tail"
	test_cmp - "$BATS_TEST_TMPDIR/tail" <<-\EOF

	Merging this into linus conflicts in:

	  link (add/add)
	EOF
	expect_stderr <<-EOF
	$(conflict_warning linus topic none)
	  link (add/add)
	EOF
	expect_unchanged
}

@test "--request-pull when the work is not pushed: request-pull's warnings and status pass through" {
	history_partly_pulled
	git init -q --bare "$BATS_TEST_TMPDIR/pub.git"
	url="file://$BATS_TEST_TMPDIR/pub.git"
	run_tool --request-pull linus "$url" topic
	expect_status 1
	grep -qF "warn: No match for commit $(git rev-parse topic) found at $url" "$BATS_TEST_TMPDIR/stderr"
	grep -qF "warn: Are you sure you pushed 'topic' there?" "$BATS_TEST_TMPDIR/stderr"
	expect_unchanged
}

@test "--request-pull to an unknown remote passes git's failure on" {
	history_partly_pulled
	run_tool --request-pull linus nowhere topic
	[ "$status" -ne 0 ]
	grep -qF "'nowhere' does not appear to be a git repository" "$BATS_TEST_TMPDIR/stderr"
	expect_unchanged
}

@test "--request-pull without <url> is a usage error, exit 129" {
	history_partly_pulled
	run_tool --request-pull linus
	expect_status 129
	head -n 2 "$BATS_TEST_TMPDIR/stderr" | sed '2s/ .*//' >"$BATS_TEST_TMPDIR/head"
	test_cmp - "$BATS_TEST_TMPDIR/head" <<-\EOF
	error: --request-pull needs <start> and <url>
	usage:
	EOF
	expect_stdout </dev/null
	expect_unchanged
}

@test "--request-pull with a <start> that is no commit, exit 128" {
	history_partly_pulled
	publish topic
	run_tool --request-pull 'linus^{tree}' "$url" topic
	expect_failure 128 <<<"fatal: 'linus^{tree}' is a tree, not a commit"
}

@test "--porcelain -z: the same records, each ended by NUL, but for the value of an option" {
	history_counted_differently
	run_tool --porcelain main topic
	expect_status 1
	mv "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/lines"
	run_tool --porcelain -z main topic
	expect_status 1
	expect_no_stderr
	expect_unchanged
	tr '\0\n' '\n\0' <"$BATS_TEST_TMPDIR/actual" | test_cmp "$BATS_TEST_TMPDIR/lines" -
	# a -z that is the value of a diff option is that value
	run_tool --porcelain -S -z main topic
	expect_status 0
	expect_stdout <<-\EOF
	request-pull 0 0 0
	clean 0 0 0
	EOF
}

@test "--porcelain -z writes an odd path as it is, never quoted" {
	history_odd_path
	run_tool --porcelain -z main topic
	expect_status 1
	expect_unchanged
	printf 'only-request-pull 1 0 %s - tab\there\0' "$(git rev-parse x-odd)" >"$BATS_TEST_TMPDIR/record"
	tail -c "$(wc -c <"$BATS_TEST_TMPDIR/record")" "$BATS_TEST_TMPDIR/actual" |
		cmp "$BATS_TEST_TMPDIR/record" -
}

@test "--check with a pathspec that matches no file says so, exit 0" {
	history_partly_pulled
	[ -z "$(git diff --name-only "$(git merge-base linus topic)" topic -- no/such/file)" ]
	run_tool --check linus topic -- no/such/file
	expect_status 0
	tail -n 2 "$BATS_TEST_TMPDIR/actual" | test_cmp - <(cat <<-\EOF
	git request-pull's diffstat names 0 files, the clean diffstat 0.
	The pathspec matches no file in either diffstat: nothing to compare.
	EOF
	)
	expect_no_stderr
	expect_unchanged
}

@test "--explain with a pathspec that matches no file says so, exit 0" {
	history_partly_pulled
	run_tool --explain linus topic -- no/such/file
	expect_status 0
	expect_stdout <<-\EOF
	git request-pull's diffstat: 0 files changed
	the clean diffstat:          0 files changed

	The pathspec matches no file in either diffstat.
	EOF
	expect_no_stderr
	expect_unchanged
}

# The counts of a file in git request-pull's diffstat, as --explain
# shows them: "+<added> -<deleted>".
request_pull_counts() {
	request_pull_diffstat linus topic --numstat -- "$1" |
		awk '{ printf "+%s -%s\n", $1, $2 }'
}

@test "--explain groups the files under the merge bases that brought them" {
	history_three_bases
	[ "$(git merge-base linus topic)" = "$(git rev-parse z1)" ]
	[ "$(request_pull_counts drivers/net/eth.c)" = "+2 -2" ]
	run_tool --explain linus topic
	expect_status 1
	expect_stdout <<-EOF
	git request-pull's diffstat: $(request_pull_diffstat linus topic --shortstat | sed 's/^ //')
	the clean diffstat:          $(procedure_diffstat linus topic --shortstat | sed 's/^ //')

	Only in git request-pull's diffstat, not part of this pull:
	  from merge base $(git rev-parse --short y1) y1:
	    drivers/net/y.c    $(request_pull_counts drivers/net/y.c)
	  from merge bases $(git rev-parse --short y1) y1,
	                   $(git rev-parse --short x1) x1:
	    drivers/net/eth.c  $(request_pull_counts drivers/net/eth.c)
	EOF
	expect_no_stderr
	expect_unchanged
}

@test "--porcelain names every merge base that brought a file in" {
	history_three_bases
	run_tool --porcelain linus topic
	expect_status 1
	x1=$(git rev-parse x1) y1=$(git rev-parse y1)
	expect_stdout <<-EOF
	request-pull 4 23 3
	clean 2 16 1
	only-request-pull 2 2 $y1 $x1 drivers/net/eth.c
	only-request-pull 5 0 $y1 - drivers/net/y.c
	EOF
	expect_no_stderr
	expect_unchanged
}

# numstat_totals <word>: "<word> <files> <added> <deleted>" of the
# git diff --numstat on stdin.
numstat_totals() {
	awk -v w="$1" '{ f++; a += $1; d += $2 } END { print w, f, a, d }'
}

@test "--porcelain with nine merge bases, more gits than run at once: each file under the merge base that brought it" {
	history_nine_bases
	first=$(git merge-base linus topic)
	[ "$(git merge-base --all linus topic | wc -l)" = 9 ]
	run_tool --porcelain linus topic
	expect_status 1
	expect_stdout <<-EOF
	$(request_pull_diffstat linus topic --numstat | numstat_totals request-pull)
	$(procedure_diffstat linus topic --numstat | numstat_totals clean)
	$(for m in m1 m2 m3 m4 m5 m6 m7 m8 m9; do
		[ "$(git rev-parse $m)" = "$first" ] ||
		echo "only-request-pull 5 0 $(git rev-parse $m) - drivers/net/$m.c"
	done)
	EOF
	expect_no_stderr
	expect_unchanged
}

@test "--explain fits in 80 columns: long paths and subjects are cut as git's --stat cuts" {
	history_three_bases_long
	long=$(git diff --name-only y1~ y1 -- drivers/very-long-*)
	[ "${#long}" -eq 104 ]
	run_tool --explain linus topic
	expect_status 1
	# no line wider than 80 columns (all of it is ASCII)
	awk 'length($0) > 80 { print; bad = 1 } END { exit bad }' "$BATS_TEST_TMPDIR/actual"
	# the path: "..." and the end of it from a slash, then its counts
	line=$(grep '^    \.\.\./' "$BATS_TEST_TMPDIR/actual")
	shown=${line#    ...}
	shown=${shown%% *}
	[[ "$long" == *"$shown" ]]
	[[ "$line" == *"  $(request_pull_counts "$long")" ]]
	# the subject: cut with "..."
	grep -q "^  from merge base $(git rev-parse --short y1) y1: a subject far .*\.\.\.:$" "$BATS_TEST_TMPDIR/actual"
	# nothing else is cut
	grep -q '^    drivers/net/y.c  ' "$BATS_TEST_TMPDIR/actual"
}

@test "--explain puts totals too wide for a mail on lines of their own" {
	history_simple
	for i in 0 1 2 3 4 5 6 7 8 9; do new_file "drivers/net/many$i.c" 1000; done
	commit_all many
	totals=$(request_pull_diffstat linus topic --shortstat | sed 's/^ //')
	[ "${#totals}" -gt 50 ]
	run_tool --explain linus topic
	expect_status 0
	expect_stdout <<-EOF
	git request-pull's diffstat:
	  $totals
	the clean diffstat:
	  $(procedure_diffstat linus topic --shortstat | sed 's/^ //')

	They name the same files with the same counts.
	EOF
	expect_no_stderr
	expect_unchanged
}

@test "--explain fits in 80 columns with a CJK subject: its characters are two columns wide" {
	history_three_bases_cjk
	subject=$(git log -1 --format=%s y1)
	[ "${#subject}" -eq 124 ]	# bytes: 4 + 40 characters of 3
	run_tool --explain linus topic
	expect_status 1
	# 26 columns before it, ":" after it: "y1: " and 22 characters (48
	# columns) and "..." fit in 80, 23 would not
	grep -qx "  from merge base $(git rev-parse --short y1) y1: $(printf '網路驅動程式修正%.0s' 1 2)網路驅動程式\.\.\.:" \
		"$BATS_TEST_TMPDIR/actual"
	expect_no_stderr
	expect_unchanged
}

@test "--check and --explain show a merge base's subject with control characters escaped, a TAB as a space" {
	history_three_bases_odd
	x1=$(git rev-parse --short x1) y1=$(git rev-parse --short y1)
	z1=$(git rev-parse --short z1)
	run_tool --check linus topic
	expect_status 1
	head -n 4 "$BATS_TEST_TMPDIR/actual" | sort >"$BATS_TEST_TMPDIR/bases"
	sort <<-EOF | test_cmp - "$BATS_TEST_TMPDIR/bases"
	'linus' and 'topic' have 3 merge bases:
	  $z1 z1: tab (the one git request-pull uses)
	  $y1 "y1: ESC \\033[31m red"
	  $x1 "x1: CSI \\302\\23331m in it"
	EOF
	run_tool --explain linus topic
	expect_status 1
	grep -qxF "  from merge base $y1 \"y1: ESC \\033[31m red\":" "$BATS_TEST_TMPDIR/actual"
	grep -qxF "                   $x1 \"x1: CSI \\302\\23331m in it\":" "$BATS_TEST_TMPDIR/actual"
	run ! grep -q $'\e\\|\xc2\x9b\\|\t' "$BATS_TEST_TMPDIR/actual"
	expect_no_stderr
	expect_unchanged
}
