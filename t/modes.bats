#!/usr/bin/env bats
# The pull-request modes: --check, --explain, --porcelain, --request-pull,
# on the document's histories (messy and not), a conflicting merge and
# bad input, against the real git request-pull.

load test_helper
load lib/histories

setup() {
	setup_world
}

# A publishing repository with the work pushed, as request-pull wants.
publish() {
	git init -q --bare "$BATS_TEST_TMPDIR/pub.git"
	git push -q "$BATS_TEST_TMPDIR/pub.git" "$@"
}

# A conflict: both sides add a different last line to net/socket.c.
make_conflict() {
	history_pulled_part repo
	git checkout -q topic
	test_commit "topic: socket" net/socket.c topic-line
	git checkout -q main
	test_commit "main: socket" net/socket.c main-line
}

@test "--check: one merge base, the same diffstats, exit 0" {
	history_simple_topic repo
	run --separate-stderr git clean-diffstat --check main topic
	[ "$status" -eq 0 ]
	base=$(git rev-parse --short vN-rc2)
	cat >expect <<-EOF
	'topic' and 'main' have 1 merge base:
	  $base vN-rc2
	git request-pull's diffstat names 3 files, the clean diffstat 3.
	The two are the same: git request-pull's diffstat is clean.
	EOF
	printf '%s\n' "$output" >actual
	test_cmp expect actual
	[ -z "$stderr" ]
}

@test "--check: two merge bases and a messy diffstat, exit 1" {
	history_pulled_part repo
	run --separate-stderr git clean-diffstat --check main topic
	[ "$status" -eq 1 ]
	first=$(git merge-base main topic)
	other=$(git merge-base --all main topic | grep -v "$first")
	cat >expect <<-EOF
	'topic' and 'main' have 2 merge bases:
	  $(git log -1 --format='%h %s' "$first") (the one git request-pull uses)
	  $(git log -1 --format='%h %s' "$other")
	git request-pull's diffstat names $(git diff --name-only "$first" topic | wc -l) files, the clean diffstat 2.
	They differ: git request-pull's diffstat is messy; use git clean-diffstat's.
	EOF
	printf '%s\n' "$output" >actual
	test_cmp expect actual
	[ -z "$stderr" ]
	git clean-diffstat --check main topic >/dev/null || echo "fix the diffstat" >said
	[ "$(cat said)" = "fix the diffstat" ]
}

@test "--check compares what request-pull prints with the clean diffstat of the same options" {
	history_pulled_part repo
	base=$(git merge-base main topic)
	git diff -M --stat --summary "$base" topic >messy
	procedure_diffstat main topic -M --stat --summary >clean
	run ! test_cmp messy clean
	history_simple_topic other
	base=$(git merge-base main topic)
	git diff -M --stat --summary "$base" topic >messy
	procedure_diffstat main topic -M --stat --summary >clean
	test_cmp messy clean
	git clean-diffstat --check main topic >/dev/null
}

@test "--check with conflicts still gives its verdict and lists the conflicts" {
	make_conflict
	run --separate-stderr git clean-diffstat --check main topic
	[ "$status" -eq 1 ]
	cat >expect <<-\EOF
	warning: merging 'topic' into 'main' conflicts; the counts of conflicted files include conflict markers:
	  net/socket.c (content)
	EOF
	printf '%s\n' "$stderr" >actual
	test_cmp expect actual
}

@test "--explain: the files only request-pull names, and the merge base that brought them" {
	history_pulled_part repo
	run --separate-stderr git clean-diffstat --explain main topic
	[ "$status" -eq 1 ]
	# git merge-base picks x3; the mainline work up to vN-rc2 is the junk
	[ "$(git merge-base main topic)" = "$(git rev-parse x)" ]
	cat >expect <<-EOF
	git request-pull's diffstat: 4 files changed, 4 insertions(+)
	the clean diffstat:          2 files changed, 2 insertions(+)

	Only in git request-pull's diffstat, not part of this pull:
	  from merge base $(git rev-parse --short vN-rc2) vN-rc2:
	    Makefile      +1 -0
	    net/socket.c  +1 -0
	EOF
	printf '%s\n' "$output" >actual
	test_cmp expect actual
	[ -z "$stderr" ]
}

@test "--explain on a clean request-pull diffstat says so, exit 0" {
	history_simple_topic repo
	run --separate-stderr git clean-diffstat --explain main topic
	[ "$status" -eq 0 ]
	cat >expect <<-\EOF
	git request-pull's diffstat: 3 files changed, 3 insertions(+)
	the clean diffstat:          3 files changed, 3 insertions(+)

	They name the same files with the same counts.
	EOF
	printf '%s\n' "$output" >actual
	test_cmp expect actual
}

# x changes x.c and a.c; the topic, from rc2, merges x, adds to x.c and
# takes x's line out of a.c again; upstream has pulled x.  git merge-base
# picks rc2, so request-pull counts x's x.c line too and misses a.c.
history_counted_differently() {
	git init -q repo && cd repo || return
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
	git add -A && test_tick && git commit -q -m "topic: x.c, a.c"
	test_commit t t.c t
	git checkout -q main
	test_merge x
	test_commit m m.c m
	[ "$(git merge-base main topic)" = "$(git rev-parse rc2)" ]
}

@test "--explain shows files counted differently and files only in the clean diffstat" {
	history_counted_differently
	run --separate-stderr git clean-diffstat --explain main topic
	[ "$status" -eq 1 ]
	cat >expect <<-\EOF
	git request-pull's diffstat: 2 files changed, 3 insertions(+)
	the clean diffstat:          3 files changed, 2 insertions(+), 1 deletion(-)

	Counted differently:
	  x.c  request-pull +2 -0, clean +1 -0

	Only in the clean diffstat:
	  a.c  +0 -1
	EOF
	printf '%s\n' "$output" >actual
	test_cmp expect actual
	procedure_diffstat main topic -M --numstat >clean
	printf '1\t0\tt.c\n1\t0\tx.c\n0\t1\ta.c\n' | sort >expect
	sort clean >actual
	test_cmp expect actual
}

@test "--porcelain lists files counted differently and only in the clean diffstat" {
	history_counted_differently
	run --separate-stderr git clean-diffstat --porcelain main topic
	[ "$status" -eq 1 ]
	cat >expect <<-\EOF
	request-pull 2 3 0
	clean 3 2 1
	only-clean 0 1 a.c
	differ 2 0 1 0 x.c
	EOF
	printf '%s\n' "$output" >actual
	test_cmp expect actual
}

@test "--porcelain: stable lines for scripts" {
	history_pulled_part repo
	run --separate-stderr git clean-diffstat --porcelain main topic
	[ "$status" -eq 1 ]
	rc2=$(git rev-parse vN-rc2)
	cat >expect <<-EOF
	request-pull 4 4 0
	clean 2 2 0
	only-request-pull 1 0 $rc2 - Makefile
	only-request-pull 1 0 $rc2 - net/socket.c
	EOF
	printf '%s\n' "$output" >actual
	test_cmp expect actual
}

@test "--porcelain quotes odd paths as git does" {
	git init -q repo && cd repo
	test_commit base README base
	git checkout -q -b x
	test_commit x-odd "$(printf 'tab\there')" one
	git checkout -q main
	test_commit rc2-odd "$(printf 'caf\303\251 "q"')" two
	git checkout -q -b topic
	test_merge x
	test_commit topic t.c t
	git checkout -q main
	test_merge x
	test_commit upstream README more
	[ "$(git merge-base main topic)" = "$(git rev-parse rc2-odd)" ]
	run git clean-diffstat --porcelain main topic
	[ "$status" -eq 1 ]
	cat >expect <<-EOF
	request-pull 2 2 0
	clean 1 1 0
	only-request-pull 1 0 $(git rev-parse x-odd) - "tab\\there"
	EOF
	printf '%s\n' "$output" >actual
	test_cmp expect actual
}

# The request-pull message, with its own diffstat replaced by the procedure's.
expected_request_pull() {	# <start> <url> <end> [-p]
	local start=$1 url=$2 end=$3 base local=${3%:*} patch=()
	[ -z "${4-}" ] || patch=("$4")
	git request-pull "${patch[@]}" "$start" "$url" "$end" >rp
	base=$(git merge-base "$start" "$local")
	git diff -M --stat --summary "${patch[@]}" "$base..$local" >rp-diffstat
	head -c "$(($(wc -c <rp) - $(wc -c <rp-diffstat)))" rp
	if [ ${#patch[@]} -gt 0 ]; then
		procedure_diffstat "$start" "$local" -C --stat --summary -p
	else
		procedure_diffstat "$start" "$local"
	fi
}

@test "--request-pull: git request-pull's message with the clean diffstat" {
	history_pulled_part repo
	publish topic
	url="file://$BATS_TEST_TMPDIR/pub.git"
	expected_request_pull main "$url" topic >expect
	git clean-diffstat --request-pull main "$url" topic >actual
	test_cmp expect actual
	run ! test_cmp rp actual
}

@test "--request-pull -p: the clean diffstat and patch" {
	history_pulled_part repo
	publish topic
	url="file://$BATS_TEST_TMPDIR/pub.git"
	expected_request_pull main "$url" topic -p >expect
	git clean-diffstat --request-pull -p main "$url" topic >actual
	test_cmp expect actual
}

@test "--request-pull with <end> as local:remote, as request-pull takes it" {
	history_pulled_part repo
	publish topic:refs/heads/for-linus
	url="file://$BATS_TEST_TMPDIR/pub.git"
	expected_request_pull main "$url" topic:for-linus >expect
	git clean-diffstat --request-pull main "$url" topic:for-linus >actual
	test_cmp expect actual
	grep -q "$url for-linus" actual
}

@test "--request-pull with a conflict names the conflicts and exits 1" {
	make_conflict
	publish topic
	url="file://$BATS_TEST_TMPDIR/pub.git"
	run --separate-stderr git clean-diffstat --request-pull main "$url" topic
	[ "$status" -eq 1 ]
	cat >tail-expect <<-\EOF

	Merging this into main conflicts in:

	  net/socket.c (content)

	The diffstat counts these files with their conflict markers.
	EOF
	printf '%s\n' "$output" | tail -n 6 >tail-actual
	test_cmp tail-expect tail-actual
}

@test "--request-pull when the work is not pushed: request-pull's warnings and status pass through" {
	history_pulled_part repo
	git init -q --bare "$BATS_TEST_TMPDIR/pub.git"
	url="file://$BATS_TEST_TMPDIR/pub.git"
	run --separate-stderr git clean-diffstat --request-pull main "$url" topic
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"warn: No match for commit $(git rev-parse topic) found at $url"* ]]
	[[ "$stderr" == *"warn: Are you sure you pushed 'topic' there?"* ]]
}

@test "--request-pull to an unknown remote passes git's failure on" {
	history_pulled_part repo
	run --separate-stderr git clean-diffstat --request-pull main nowhere topic
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"'nowhere' does not appear to be a git repository"* ]]
}

@test "--request-pull without <url> is a usage error, exit 129" {
	history_pulled_part repo
	run --separate-stderr git clean-diffstat --request-pull main
	[ "$status" -eq 129 ]
	[[ "$stderr" == "error: --request-pull needs <start> and <url>"$'\n'"usage: "* ]]
}

@test "--request-pull with a <start> that is no commit, exit 128" {
	history_pulled_part repo
	publish topic
	run --separate-stderr git clean-diffstat --request-pull 'main^{tree}' "file://$BATS_TEST_TMPDIR/pub.git" topic
	[ "$status" -eq 128 ]
	[ "$stderr" = "fatal: 'main^{tree}' is a tree, not a commit" ]
	[ -z "$output" ]
}

@test "the modes leave the repository untouched and no quarantine behind" {
	history_pulled_part repo
	publish topic
	before=$(repo_checksum)
	git clean-diffstat --check main topic >/dev/null || true
	git clean-diffstat --explain main topic >/dev/null || true
	git clean-diffstat --porcelain main topic >/dev/null || true
	git clean-diffstat --request-pull main "file://$BATS_TEST_TMPDIR/pub.git" topic >/dev/null
	[ "$before" = "$(repo_checksum)" ]
	assert_no_tempdir
}

@test "--request-pull with a conflict warns on stderr as the default mode does" {
	make_conflict
	publish topic
	git clean-diffstat main topic >/dev/null 2>expect-stderr || :
	[ -s expect-stderr ]
	run --separate-stderr git clean-diffstat --request-pull main \
		"file://$BATS_TEST_TMPDIR/pub.git" topic
	[ "$status" -eq 1 ]
	printf '%s\n' "$stderr" >actual-stderr
	test_cmp expect-stderr actual-stderr
}

@test "--request-pull with a symlink conflict says nothing of conflict markers" {
	history_pulled_part repo
	git checkout -q topic
	ln -s topic-target link && git add link && test_tick && git commit -q -m "topic: link"
	git checkout -q main
	ln -s main-target link && git add link && test_tick && git commit -q -m "main: link"
	publish topic
	run --separate-stderr git clean-diffstat --request-pull main \
		"file://$BATS_TEST_TMPDIR/pub.git" topic
	[ "$status" -eq 1 ]
	cat >tail-expect <<-\EOF

	Merging this into main conflicts in:

	  link (add/add)
	EOF
	printf '%s\n' "$output" | tail -n 4 >tail-actual
	test_cmp tail-expect tail-actual
	[ "$stderr" = "warning: merging 'topic' into 'main' conflicts:
  link (add/add)" ]
}

@test "--porcelain -z: the same records, each ended by NUL, paths as they are" {
	history_counted_differently
	git clean-diffstat --porcelain main topic >lines || [ $? -eq 1 ]
	run_status=0
	git clean-diffstat --porcelain -z main topic >records || run_status=$?
	[ "$run_status" -eq 1 ]
	tr '\0' '\n' <records >actual
	test_cmp lines actual
	[ "$(tr -cd '\0' <records | wc -c)" -eq "$(wc -l <lines)" ]
	[ "$(tr -cd '\n' <records | wc -c)" -eq 0 ]
	# a -z that is the value of an option is that value
	git clean-diffstat --porcelain -S -z main topic >actual
	printf 'request-pull 0 0 0\nclean 0 0 0\n' >expect
	test_cmp expect actual
}

@test "--porcelain -z writes an odd path as it is, never quoted" {
	git init -q repo && cd repo
	test_commit base README base
	git checkout -q -b x
	test_commit x-odd "$(printf 'tab\there')" one
	git checkout -q main
	test_commit rc2-odd README two
	git checkout -q -b topic
	test_merge x
	test_commit topic t.c t
	git checkout -q main
	test_merge x
	test_commit upstream README more
	git clean-diffstat --porcelain -z main topic >records || [ $? -eq 1 ]
	printf 'only-request-pull 1 0 %s - tab\there\0' "$(git rev-parse x-odd)" >expect
	tail -c "$(wc -c <expect)" records >actual
	cmp expect actual
}

@test "--check with a pathspec that matches no file says so, exit 0" {
	history_pulled_part repo
	run --separate-stderr git clean-diffstat --check main topic -- no/such/file
	[ "$status" -eq 0 ]
	[ "$(git diff --name-only "$(git merge-base main topic)" topic -- no/such/file)" = "" ]
	[ "${lines[3]}" = "git request-pull's diffstat names 0 files, the clean diffstat 0." ]
	[ "${lines[4]}" = "The pathspec matches no file in either diffstat: nothing to compare." ]
}

@test "--explain with a pathspec that matches no file says so, exit 0" {
	history_pulled_part repo
	run --separate-stderr git clean-diffstat --explain main topic -- no/such/file
	[ "$status" -eq 0 ]
	cat >expect <<-\EOF
	git request-pull's diffstat: 0 files changed
	the clean diffstat:          0 files changed

	The pathspec matches no file in either diffstat.
	EOF
	printf '%s\n' "$output" >actual
	test_cmp expect actual
}

# Three topics x, y and z from the base, each changing a line of f.c (y
# also adds y.c), merged into both main and topic: three merge bases, of
# which git merge-base picks z, the newest.  git request-pull's diffstat
# then counts f.c's lines from x and y, and y.c from y.  With "long", y's
# subject and the path of one more file of y are too long for a mail.
history_three_bases() {
	git init -q repo && cd repo || return
	test_commit base f.c 1 2 3 4 5 6 7 8 9 10
	local b subject=y long=
	if [ "${1-}" = long ]; then
		subject="y: a subject far too long to be shown whole in a line of a mail"
		long=dir/$(printf 'very-long-directory-name-%02d/' 1 2 3)$(printf 'a%.0s' {1..10}).c
	fi
	for b in x y z; do
		git checkout -q -b "$b" main
		case $b in
		x) sed -i 's/^1$/x/' f.c ;;
		y) sed -i 's/^10$/y/' f.c && echo y >y.c &&
		   if [ -n "$long" ]; then mkdir -p "${long%/*}" && echo long >"$long"; fi ;;
		z) sed -i 's/^5$/z/' f.c ;;
		esac
		git add -A && test_tick && git commit -q -m "${subject/#y/$b}"
	done
	git checkout -q -b topic main
	test_commit t1 t.c t1
	for b in x y z; do test_merge "$b"; done
	test_commit t2 t.c t2
	git checkout -q main
	test_commit m1 m.c m1
	for b in x y z; do test_merge "$b"; done
	[ "$(git merge-base --all main topic | wc -l)" -eq 3 ]
	[ "$(git merge-base main topic)" = "$(git rev-parse z)" ]
}

# The counts of a file in git request-pull's diffstat, as --explain
# shows them: "+<added> -<deleted>".
request_pull_counts() {
	git diff --numstat "$(git merge-base main topic)" topic -- "$1" |
		awk '{ printf "+%s -%s\n", $1, $2 }'
}

@test "--explain groups the files under the merge bases that brought them" {
	history_three_bases
	run --separate-stderr git clean-diffstat --explain main topic
	[ "$status" -eq 1 ]
	base=$(git merge-base main topic)
	cat >expect <<-EOF
	git request-pull's diffstat: $(git diff --shortstat "$base" topic | sed 's/^ //')
	the clean diffstat:          $(procedure_diffstat main topic --shortstat | sed 's/^ //')

	Only in git request-pull's diffstat, not part of this pull:
	  from merge base $(git log -1 --format='%h %s' y):
	    y.c  $(request_pull_counts y.c)
	  from merge bases $(git log -1 --format='%h %s' y),
	                   $(git log -1 --format='%h %s' x):
	    f.c  $(request_pull_counts f.c)
	EOF
	printf '%s\n' "$output" >actual
	test_cmp expect actual
	# f.c: one line from x and one from y
	[ "$(request_pull_counts f.c)" = "+2 -2" ]
}

@test "--porcelain names every merge base that brought a file in" {
	history_three_bases
	run --separate-stderr git clean-diffstat --porcelain main topic
	[ "$status" -eq 1 ]
	x=$(git rev-parse x) y=$(git rev-parse y)
	cat >expect <<-EOF
	request-pull 3 5 2
	clean 1 2 0
	only-request-pull 2 2 $y $x f.c
	only-request-pull 1 0 $y - y.c
	EOF
	printf '%s\n' "$output" >actual
	test_cmp expect actual
}

@test "--explain fits in 80 columns: long paths and subjects are cut as git's --stat cuts" {
	history_three_bases long
	run --separate-stderr git clean-diffstat --explain main topic
	[ "$status" -eq 1 ]
	long=$(git diff --name-only y~ y -- dir)
	[ "${#long}" -eq 100 ]
	printf '%s\n' "$output" >actual
	# no line wider than 80 columns (all of it is ASCII)
	awk 'length($0) > 80 { print; bad = 1 } END { exit bad }' actual
	# the path: "..." and the end of it from a slash, then its counts
	line=$(grep '^    \.\.\./' actual)
	shown=${line#    ...}
	shown=${shown%%  *}
	[[ "$long" == *"$shown" ]]
	[[ "$line" == *"  $(request_pull_counts "$long")" ]]
	# the subject: cut with "..."
	grep -q "^  from merge base $(git rev-parse --short y) y: a subject far .*\.\.\.:$" actual
	# nothing else is cut
	grep -q '^    y.c  ' actual
}

@test "--explain puts totals too wide for a mail on lines of their own" {
	git init -q repo && cd repo
	for i in 0 1 2 3 4 5 6 7 8 9; do seq 1 10 >"f$i.c"; done
	git add . && test_tick && git commit -q -m base
	git checkout -q -b topic
	for i in 0 1 2 3 4 5 6 7 8 9; do seq 11 20 >"f$i.c"; done
	git commit -q -am topic
	git checkout -q main
	run --separate-stderr git clean-diffstat --explain main topic
	[ "$status" -eq 0 ]
	totals=$(git diff --shortstat main topic | sed 's/^ //')
	[ "$totals" = "10 files changed, 100 insertions(+), 100 deletions(-)" ]
	cat >expect <<-EOF
	git request-pull's diffstat:
	  $totals
	the clean diffstat:
	  $(procedure_diffstat main topic --shortstat | sed 's/^ //')

	They name the same files with the same counts.
	EOF
	printf '%s\n' "$output" >actual
	test_cmp expect actual
}
