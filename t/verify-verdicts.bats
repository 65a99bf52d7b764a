#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# --verify says the true reason: what a person concludes after running
# the procedure, each case on a made-up history of the shape real pull
# requests have (copies, another diff algorithm, a merged or unrelated
# tip, conflicts, a hostile server's objects, the receiver's settings).
# shellcheck disable=SC2030,SC2031 # each @test is a subshell: its variables are its own

load test_helper

setup() {
	setup_world
	PUB=$BATS_TEST_TMPDIR/pub.git
	url=file://$PUB
	from_cache build_verdicts_base
}

# a.c on linus, and topic checked out there.  Built once per run and
# copied into each test (from_cache).
build_verdicts_base() {
	git init -q "${1:-repo}" && cd "${1:-repo}" || return
	seq 1 40 >a.c
	commit_all base
	git branch -q linus
	git checkout -q -b topic
}

# publish_request [<git -c options>...]: topic pushed (publish) and
# requested from linus (git request-pull run with the options), into $r;
# cd to a clone of linus alone (clone_linus's).  Without options, by
# request, which makes it once per run for the same history: five of
# these tests request the same topic of one commit, t1.
publish_request() {
	publish topic &&
	if [ $# -eq 0 ]; then
		request linus topic
	else
		git "$@" request-pull linus "$url" topic >"$BATS_TEST_TMPDIR/request" &&
		tip=$(git rev-parse topic)
	fi &&
	r=$BATS_TEST_TMPDIR/request &&
	clone_linus . "$BATS_TEST_TMPDIR/receiver" &&
	cd "$BATS_TEST_TMPDIR/receiver" || return
}

@test "a copy the clean diffstat's -C finds and git request-pull's -M does not: matches, saying so" {
	seq 1 40 >b.c
	echo 41 >>a.c
	commit_all "copy a.c to b.c"
	publish_request
	grep -q ' b.c | 40 ++' "$r"
	run_tool --verify="$r" --allow-local
	expect_status 0
	grep -qx "verdict: matches: with git request-pull's renames (-M); -C finds copies" \
		"$BATS_TEST_TMPDIR/actual"
	git clean-diffstat --porcelain --verify="$r" --allow-local >"$BATS_TEST_TMPDIR/porcelain"
	grep -qx 'note copies' "$BATS_TEST_TMPDIR/porcelain"
	grep -qx 'verdict matches' "$BATS_TEST_TMPDIR/porcelain"
	expect_unchanged
}

@test "a copy, a rename, a deletion and files changed in place at once: matches with -M's pairs and counts" {
	seq 100 160 >c.c
	seq 200 230 >gone.c
	seq 300 330 >kept.c
	commit_all "more files"
	git checkout -q linus && git merge -q --ff-only topic && git checkout -q topic
	seq 1 40 >b.c
	echo 41 >>a.c
	git mv c.c d.c && echo 161 >>d.c
	git rm -q gone.c
	echo 331 >>kept.c
	commit_all "copy, rename, delete, change"
	publish_request
	grep -q ' b.c *| 40 ++' "$r"
	grep -q 'c.c => d.c' "$r"
	grep -q ' gone.c *| 31 --' "$r"
	run_tool --verify="$r" --allow-local
	expect_status 0
	grep -qx "verdict: matches: with git request-pull's renames (-M); -C finds copies" \
		"$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

@test "a sender whose diff.algorithm counts other lines: matches, the algorithm named" {
	printf '%s\n' c '}' c b '}' b '{' '{' c '{' a '}' >alg.c
	git add alg.c && commit_all "alg before"
	git checkout -q linus && git merge -q --ff-only topic && git checkout -q topic
	printf '%s\n' c a '}' c b '}' b c '{' '}' '}' >alg.c
	commit_all "alg after"
	publish_request -c diff.algorithm=patience
	grep -q ' alg.c | 17 ' "$r"
	run_tool --verify="$r" --allow-local
	expect_status 0
	grep -qx "verdict: matches: its lines counted as diff.algorithm=patience counts them" \
		"$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

# request_merged_upstream: a request of one commit, which upstream has
# since merged and the receiver pulled.
request_merged_upstream() {
	test_commit t1 a.c t1 &&
	publish_request &&
	cd "$BATS_TEST_TMPDIR/repo" &&
	git checkout -q linus && git merge -q --no-ff --no-edit topic &&
	cd "$BATS_TEST_TMPDIR/receiver" &&
	git pull -q --no-rebase "$BATS_TEST_TMPDIR/repo" linus
}

@test "a tip upstream has merged in full: differs, the tip is merged, not 'some of these changes'" {
	request_merged_upstream
	run_tool --verify="$r" --allow-local
	expect_status 1
	grep -qx "verdict: differs: 'HEAD' already has all of it: the tip is merged" "$BATS_TEST_TMPDIR/actual"
}

# run_traced <args>...: run_tool, GIT_TRACE naming each git the tool
# starts; gits_run: their subcommands, into the file gits, one a line,
# sorted.
run_traced() {
	remember_repo &&
	capture env GIT_TRACE="$BATS_TEST_TMPDIR/trace" "${TOOL[@]}" "$@"
}

gits_run() {
	sed -n 's/.* trace: built-in: git \(-c [^ ]* \)*\([a-z-]*\).*/\2/p' \
		"$BATS_TEST_TMPDIR/trace" | sort >"$BATS_TEST_TMPDIR/gits"
}

@test "a tip upstream has merged in full is found in one walk: no merge, no diff" {
	request_merged_upstream
	run_traced --verify="$r" --no-fetch
	expect_status 1
	grep -qx "verdict: differs: 'HEAD' already has all of it: the tip is merged" "$BATS_TEST_TMPDIR/actual"
	# the walk (rev-list --boundary) finds it merged; a second one, from
	# the request's "since" commit, names the tip and meets "since";
	# core.quotePath, for the paths shown, comes with rev-parse's ids
	gits_run
	printf '%s\n' mailinfo rev-list rev-list rev-parse |
		test_cmp - "$BATS_TEST_TMPDIR/gits"
}

@test "--no-fetch, a merged tip and a 'since' commit here but not its ancestor: the second walk names the tip, merge-base says so" {
	request_merged_upstream
	other=$(git commit-tree -p linus~ -m other "linus~^{tree}")
	sed -i "s/^The following changes since commit [0-9a-f]*:/The following changes since commit $other:/" "$r"
	run_traced --verify="$r" --no-fetch
	expect_status 1
	grep -qx "note: the request's 'since' commit ${other:0:12} is not an ancestor of the tip" \
		"$BATS_TEST_TMPDIR/actual"
	grep -qx "tip: $(git rev-parse HEAD^2) t1" "$BATS_TEST_TMPDIR/actual"
	grep -qx "verdict: differs: 'HEAD' already has all of it: the tip is merged" "$BATS_TEST_TMPDIR/actual"
	gits_run
	printf '%s\n' mailinfo merge-base rev-list rev-list rev-parse |
		test_cmp - "$BATS_TEST_TMPDIR/gits"
	expect_unchanged
}

@test "--no-fetch, a merged tip and a 'since' given as an annotated tag's id: an ancestor all the same, no note" {
	request_merged_upstream
	git tag -a -m base base-tag linus~
	since=$(git rev-parse base-tag)
	sed -i "s/^The following changes since commit [0-9a-f]*:/The following changes since commit $since:/" "$r"
	run_tool --verify="$r" --no-fetch
	expect_status 1
	! grep -q "^note: the request's 'since' commit" "$BATS_TEST_TMPDIR/actual" || return 1
	grep -qx "tip: $(git rev-parse HEAD^2) t1" "$BATS_TEST_TMPDIR/actual"
	grep -qx "verdict: differs: 'HEAD' already has all of it: the tip is merged" "$BATS_TEST_TMPDIR/actual"
}

@test "--no-fetch, a merged tip and a 'since' commit unknown here: git log names the tip, the note says so" {
	request_merged_upstream
	sed -i "s/^The following changes since commit [0-9a-f]*:/The following changes since commit $(printf '%040d' 1 | tr 0 e):/" "$r"
	run_traced --verify="$r" --no-fetch
	expect_status 1
	grep -qx "note: the request's 'since' commit eeeeeeeeeeee is not in this repository" \
		"$BATS_TEST_TMPDIR/actual"
	grep -qx "tip: $(git rev-parse HEAD^2) t1" "$BATS_TEST_TMPDIR/actual"
	grep -qx "verdict: differs: 'HEAD' already has all of it: the tip is merged" "$BATS_TEST_TMPDIR/actual"
	# the second walk fails on "since": git log -1 and merge-base
	gits_run
	printf '%s\n' log mailinfo merge-base rev-list rev-list rev-parse |
		test_cmp - "$BATS_TEST_TMPDIR/gits"
	expect_unchanged
}

# matches_with_gits <git>...: topic fetched, --verify --no-fetch of its
# request matches, its repository untouched, and the gits it started
# are those subcommands, in sorted order.
matches_with_gits() {
	publish_request &&
	git fetch -q "$PUB" topic &&
	run_traced --verify="$r" --no-fetch &&
	expect_status 0 &&
	grep -qx "verdict: matches: the request's diffstat is what pulling it changes" \
		"$BATS_TEST_TMPDIR/actual" &&
	gits_run &&
	printf '%s\n' "$@" | test_cmp - "$BATS_TEST_TMPDIR/gits" &&
	expect_unchanged
}

# dated <seconds> <command>...: the command, its commits dated then.
dated() {
	local d=$1
	shift
	GIT_AUTHOR_DATE="@$d +0000" GIT_COMMITTER_DATE="@$d +0000" "$@"
}

# history_skewed [<command>...]: c, on topic, adds a line to a.c (its id
# in $c); linus has c, reverted by commits dated decades before it (the
# command's change one of them, when given), and base merged again.
# Ordered by date, git rev-list linus..topic gives up before it reaches
# c from linus: it shows c as pulled, with one boundary commit, base.
# The merge base is c.  topic is checked out.
history_skewed() {
	echo c >>a.c && git add a.c && dated 1500000000 git commit -q -m c &&
	c=$(git rev-parse HEAD) &&
	git checkout -q -b side &&
	git checkout -q linus -- a.c &&
	dated 100000000 git commit -q -m revert &&
	if [ $# -gt 0 ]; then
		"$@" && git add -A && dated 100000000 git commit -q -m "$*"
	fi &&
	for i in 1 2 3 4 5 6 7 8; do
		echo "$i" >h.c && git add h.c &&
		dated $((100000000 + i)) git commit -q -m "h$i" || return
	done &&
	git update-ref refs/heads/linus "$(dated 2000000000 git commit-tree \
		-p HEAD -p linus -m "base again" "HEAD^{tree}")" &&
	git checkout -q topic
}

@test "a merge base that clock skew hides from git rev-list's walk: the clean diffstat is still the procedure's" {
	# git merge takes the revert from linus
	history_skewed &&
	echo t >t.c && git add t.c && dated 1600000000 git commit -q -m t &&
	[ "$(git merge-base --all linus topic)" = "$c" ] &&
	procedure_diffstat linus topic >"$BATS_TEST_TMPDIR/clean" &&
	publish_request &&
	run_tool --verify="$r" --allow-local
	expect_status 0
	grep -qx 'verdict: matches: the request.s diffstat is what pulling it changes' \
		"$BATS_TEST_TMPDIR/actual"
	sed -n 's/^clean diffstat: *//p' "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/totals"
	sed -n 's/^ *\([0-9]* files* changed\)/\1/p' "$BATS_TEST_TMPDIR/clean" |
		test_cmp - "$BATS_TEST_TMPDIR/totals"
	expect_unchanged
}

@test "--no-fetch, messy from a merge base that clock skew shows among the pulled commits: its subject from the walk, no git log" {
	# d, on topic after c, is on linus's side branch too, so the clean
	# diffstat lacks it and git request-pull's from c has it
	history_skewed sed -i 1s/1/one/ a.c &&
	sed -i 1s/1/one/ a.c && git add a.c && dated 1550000000 git commit -q -m d &&
	echo t >t.c && git add t.c && dated 1600000000 git commit -q -m t &&
	[ "$(git merge-base --all linus topic)" = "$c" ] &&
	git rev-list --boundary linus..topic | grep -qx "$c" &&
	publish_request &&
	git fetch -q "$PUB" topic &&
	run_traced --verify="$r" --no-fetch
	expect_status 1
	grep -A1 -x "verdict: messy: it is git request-pull's diffstat, from the merge base" \
		"$BATS_TEST_TMPDIR/actual" | tail -n 1 | grep -qx "  ${c:0:12} c"
	# no git log for the base's subject: the walk printed it
	gits_run
	printf '%s\n' diff diff mailinfo merge-base merge-tree rev-list rev-parse |
		test_cmp - "$BATS_TEST_TMPDIR/gits"
	expect_unchanged
}

@test "upstream applied one of the request's patches itself: messy from the one merge base, why said" {
	sed -i 5s/5/five/ a.c && commit_all t1 &&
	t1=$(git rev-parse HEAD) &&
	seq 1 9 >b.c && commit_all t2 &&
	git checkout -q linus && git cherry-pick "$t1" >/dev/null && git checkout -q topic &&
	[ "$(git merge-base --all linus topic | wc -l)" -eq 1 ] &&
	base=$(git merge-base linus topic) &&
	procedure_diffstat linus topic >"$BATS_TEST_TMPDIR/clean" &&
	publish_request &&
	run_tool --verify="$r" --allow-local
	expect_status 1
	sed -n '/^verdict:/,$p' "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/verdict"
	{
		cat <<-EOF
		verdict: messy: it is git request-pull's diffstat, from the merge base
		  ${base:0:12} base
		which 'HEAD' has gone on from, changing some of the same files;
		what pulling it changes is:
		EOF
		cat "$BATS_TEST_TMPDIR/clean"
	} | test_cmp - "$BATS_TEST_TMPDIR/verdict"
	expect_unchanged
}

@test "--no-fetch, a request that matches: the gits its answer needs and no other" {
	test_commit t1 a.c t1
	git checkout -q linus && test_commit l1 l.c l1 && git checkout -q topic
	# mailinfo reads the mail, rev-parse <upstream> (its trace tells
	# whether the bound of a message is set), rev-list --boundary the one
	# walk, which finds the tip too, merge-tree and diff the answer
	matches_with_gits diff mailinfo merge-tree rev-list rev-parse
}

@test "--no-fetch, a tip that has upstream in its history: git merge fast-forwards, no merge-tree" {
	test_commit t1 a.c t1
	test_commit t2 b.c t2
	# the walk meets <upstream> itself: the merged tree is the tip's
	matches_with_gits diff mailinfo rev-list rev-parse
}

@test "a tip with no commit in common with upstream: the request's error says unrelated" {
	test_commit t1 a.c t1
	git checkout -q --orphan other
	git rm -q -rf .
	test_commit o1 o.c o1
	git checkout -q topic
	orphan=$(git rev-parse other)
	publish_request
	git -C "$BATS_TEST_TMPDIR/repo" push -q -f "$PUB" "$orphan:refs/heads/topic"
	sed -i "s/^for you to fetch changes up to [0-9a-f]*:/for you to fetch changes up to $orphan:/" "$r"
	run_tool --verify="$r" --allow-local
	expect_failure 128 <<-EOF
	fatal: unrelated: the tip has no commit in common with 'HEAD'
	EOF
	expect_unchanged
}

@test "--porcelain: a conflicted path is one record, whatever its index stages" {
	test_commit t1 a.c topic-side
	git checkout -q linus && test_commit l1 a.c linus-side && git checkout -q topic
	publish_request
	run_tool --verify="$r" --allow-local --porcelain
	expect_status 1
	grep '^conflict ' "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/conflicts"
	echo 'conflict a.c' | test_cmp - "$BATS_TEST_TMPDIR/conflicts"
}

@test "objects that fail git fsck (a tree with .git): the fetch refuses them, that request's error" {
	blob=$(echo evil | git hash-object -w --stdin)
	tree=$( { git ls-tree HEAD; printf '100644 blob %s\t.git\n' "$blob"; } | git mktree --missing)
	commit=$(git commit-tree -p HEAD -m evil "$tree")
	git init -q --bare "$PUB"
	git -c transfer.fsckObjects=false push -q -f "$PUB" "$commit:refs/heads/topic" 2>/dev/null ||
		skip "this git refuses to push the tree"
	git request-pull linus "$url" "$commit:topic" >"$BATS_TEST_TMPDIR/request" 2>/dev/null
	clone_linus . "$BATS_TEST_TMPDIR/receiver"
	cd "$BATS_TEST_TMPDIR/receiver"
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 128
	grep -q "^fatal: cannot fetch 'topic' from '$url': " "$BATS_TEST_TMPDIR/stderr"
	grep -qi 'dotgit\|\.git' "$BATS_TEST_TMPDIR/stderr"
	run ! git cat-file -e "$commit"
	expect_unchanged
}

@test "-c diff.relative=true from a subdirectory: the receiver's diff settings change no verdict" {
	mkdir -p sub && seq 1 5 >sub/s.c && echo 41 >>a.c
	commit_all "two files"
	publish_request
	mkdir -p sub && cd sub
	capture git -c diff.relative=true clean-diffstat --verify="$r" --allow-local
	expect_status 0
	grep -qx "verdict: matches: the request's diffstat is what pulling it changes" "$BATS_TEST_TMPDIR/actual"
}

@test "a 'since' commit unknown here: a note, the verdict from the tip" {
	test_commit t1 a.c t1
	publish_request
	sed -i "s/^The following changes since commit [0-9a-f]*:/The following changes since commit $(printf '%040d' 1 | tr 0 e):/" "$r"
	run_tool --verify="$r" --allow-local
	expect_status 0
	grep -qx "note: the request's 'since' commit eeeeeeeeeeee is not in this repository" \
		"$BATS_TEST_TMPDIR/actual"
	git clean-diffstat --porcelain --verify="$r" --allow-local >"$BATS_TEST_TMPDIR/porcelain"
	grep -qx "note since-unknown $(printf '%040d' 1 | tr 0 e)" "$BATS_TEST_TMPDIR/porcelain"
}

@test "a 'since' commit here but not in the branch: a note, the verdict from the tip" {
	test_commit t1 a.c t1
	git checkout -q linus
	test_commit elsewhere b.c elsewhere
	other=$(git rev-parse HEAD)
	git checkout -q topic
	publish_request
	sed -i "s/^The following changes since commit [0-9a-f]*:/The following changes since commit $other:/" "$r"
	run_tool --verify="$r" --allow-local
	expect_status 0
	grep -qx "note: the request's 'since' commit ${other:0:12} is not an ancestor of the tip" \
		"$BATS_TEST_TMPDIR/actual"
	grep -qx "verdict: matches: the request's diffstat is what pulling it changes" \
		"$BATS_TEST_TMPDIR/actual"
	git clean-diffstat --porcelain --verify="$r" --allow-local >"$BATS_TEST_TMPDIR/porcelain"
	grep -qx "note since-not-ancestor $other" "$BATS_TEST_TMPDIR/porcelain"
	expect_unchanged
}

@test "a branch that moved while its old tip is here: the remote is asked, the move reported" {
	test_commit t1 a.c t1
	publish_request
	git fetch -q "$url" topic
	cd "$BATS_TEST_TMPDIR/repo" && test_commit t2 a.c t2 && git push -q "$PUB" topic
	now=$(git rev-parse topic)
	cd "$BATS_TEST_TMPDIR/receiver"
	run_tool --verify="$r" --allow-local
	expect_status 1
	grep -q "^tip: $now " "$BATS_TEST_TMPDIR/actual" &&
	grep -qx "moved: the request asks for $tip" \
		"$BATS_TEST_TMPDIR/actual"
}

@test "in an mbox, a request whose git fails (an object missing here): its error line, the next verified" {
	test_commit t1 a.c t1
	publish_request
	git fetch -q "$url" topic
	first=$(cat "$r")
	blob=$(git rev-parse "$tip:a.c")
	# the request's tip is here, but not its blob: a git of the report fails
	rm -f ".git/objects/${blob:0:2}/${blob:2}"
	git cat-file -e "$blob" 2>/dev/null && skip "the blob is packed"
	{
		printf 'From a@b Thu Jan  1 00:00:00 1970\nSubject: [GIT PULL] broken\n\n%s\n\n' "$first"
		printf 'From a@b Thu Jan  1 00:00:00 1970\nSubject: [GIT PULL] broken again\n\n%s\n' "$first"
	} >"$BATS_TEST_TMPDIR/mbox"
	run_tool --verify="$BATS_TEST_TMPDIR/mbox" --no-fetch
	expect_status 1
	grep -c '^error: git [a-z-]*: .*unable to read ' "$BATS_TEST_TMPDIR/actual" | grep -qx 2
	grep -qx '2 pull requests: matches 0, messy 0, differs 0, conflicts 0, errors 2' \
		"$BATS_TEST_TMPDIR/actual"
}

@test "a request without its 'since' line (git send-email dropped it): verified from its tip, no note of it" {
	test_commit t1 a.c t1
	publish_request
	sed -i '/^The following changes since commit/d' "$r"
	run_tool --verify="$r" --allow-local
	expect_status 0
	grep -qx 'verdict: matches: the request'"'"'s diffstat is what pulling it changes' \
		"$BATS_TEST_TMPDIR/actual"
	run ! grep -q since "$BATS_TEST_TMPDIR/actual"
	git clean-diffstat --porcelain --verify="$r" --allow-local >"$BATS_TEST_TMPDIR/porcelain"
	grep -qx 'damage header' "$BATS_TEST_TMPDIR/porcelain"
	expect_unchanged
}

@test "t/procedure-check: a mail named from where it is run, held against the procedure" {
	test_commit t1 a.c t1
	publish_request
	git fetch -q "$url" topic
	cp "$r" request.eml
	"$TOP/t/procedure-check" --repo . request.eml >"$BATS_TEST_TMPDIR/actual"
	up=$(git rev-parse linus)
	grep -qx "request.eml *${up:0:12} *since *matches *0 of 2" "$BATS_TEST_TMPDIR/actual"
}
