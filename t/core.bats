#!/usr/bin/env bats
# The clean diffstat, compared byte for byte with the kernel document's
# TEMP-branch procedure run for real (procedure_diffstat).

load test_helper
load lib/histories

setup() {
	setup_world
}

# same_as_procedure <upstream> <head> [<diff-args>...] [-- <pathspec>...]:
# given the same arguments (the procedure's whole git diff options, when
# any), the tool prints exactly what the procedure prints, exits 0, leaves
# no quarantine behind and says nothing on stderr.
same_as_procedure() {
	local upstream=$1 head=$2 opts=() paths=()
	shift 2
	local out=$BATS_TEST_TMPDIR
	procedure_diffstat "$upstream" "$head" "$@" >"$out/expect"
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	paths=("$@")
	local status=0
	git clean-diffstat "${opts[@]}" "$upstream" "$head" "${paths[@]}" \
		>"$out/actual" 2>"$out/stderr" || status=$?
	[ "$status" -eq 0 ] || { echo "exit $status: $(cat "$out/stderr")" >&2; return 1; }
	test_cmp "$out/expect" "$out/actual"
	[ ! -s "$out/stderr" ] || { echo "stderr: $(cat "$out/stderr")" >&2; return 1; }
	assert_no_tempdir
}

@test "the document's simple topic gives the procedure's diffstat" {
	history_simple_topic
	same_as_procedure main topic
}

@test "the document's messy history gives the procedure's diffstat" {
	history_messy
	same_as_procedure main topic
}

@test "upstream having pulled part of the branch: the procedure's diffstat, not request-pull's" {
	history_pulled_part
	[ "$(git merge-base --all main topic | wc -l)" -eq 2 ]
	same_as_procedure main topic
	base=$(git merge-base main topic)
	git diff -M --stat --summary "$base" topic >messy
	run ! test_cmp messy "$BATS_TEST_TMPDIR/expect"
}

@test "a criss-cross merge gives the procedure's diffstat" {
	history_criss_cross
	[ "$(git merge-base --all main topic | wc -l)" -eq 2 ]
	same_as_procedure main topic
}

@test "cherry-picks on both sides give the procedure's diffstat" {
	history_cherry_picks
	same_as_procedure main topic
}

@test "the exact diffstat of the messy history is pinned" {
	history_pulled_part
	git clean-diffstat main topic >actual
	cat >expect <<-\EOF
	 fs/ext4/extents.c | 1 +
	 fs/ext4/super.c   | 1 +
	 2 files changed, 2 insertions(+)
	 create mode 100644 fs/ext4/extents.c
	 create mode 100644 fs/ext4/super.c
	EOF
	test_cmp expect actual
}

@test "<head> defaults to HEAD and <upstream> to @{upstream}" {
	history_pulled_part
	git checkout -q topic
	git branch -q --set-upstream-to=main
	procedure_diffstat main topic >expect
	git clean-diffstat >actual
	test_cmp expect actual
	git clean-diffstat main >actual
	test_cmp expect actual
}

@test "a fast-forward gives the plain diff, as the procedure does" {
	history_simple_topic
	same_as_procedure vN-rc2 topic
}

@test "already merged: empty diffstat, a note on stderr, exit 0" {
	history_simple_topic
	test_merge topic
	run --separate-stderr git clean-diffstat main topic
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$stderr" = "note: 'topic' is already merged into 'main'" ]
}

@test "changes already in upstream by cherry-pick give an empty diffstat and no note" {
	history_simple_topic
	git checkout -q -b picked main
	test_tick
	git cherry-pick vN-rc2..topic >/dev/null
	git checkout -q main
	test_merge picked
	run --separate-stderr git clean-diffstat main topic
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ -z "$stderr" ]
}

@test "renames, copies, mode changes, symlinks, binaries, a gitlink and deletions match the procedure" {
	git init -q repo && cd repo
	seq 1 50 >moved.c
	seq 100 150 >copied.c
	printf 'x\n' >script.sh
	printf 'bin\0ary' >blob.bin
	seq 1 5 >gone.c
	git add . && test_tick && git commit -q -m base
	git checkout -q -b topic
	git mv moved.c renamed.c
	cp copied.c copy-of-copied.c && echo more >>copied.c
	chmod +x script.sh
	ln -s renamed.c link
	printf 'bin\0ary\1more' >blob.bin
	git rm -q gone.c
	git add -A
	sub=$(git rev-parse HEAD)
	git update-index --add --cacheinfo "160000,$sub,vendor/sub"
	test_tick && git commit -q -m topic
	git checkout -q main
	test_commit "upstream moves" other.c upstream
	same_as_procedure main topic
	same_as_procedure main topic -C --stat --summary --find-copies-harder
}

@test "paths with spaces, UTF-8, quotes and a newline match the procedure" {
	git init -q repo && cd repo
	test_commit base README base
	git checkout -q -b topic
	test_commit "odd names" "dir with space/file name" one
	test_commit "utf8" "$(printf 'caf\303\251.c')" two
	test_commit "quote" 'say "hi".c' three
	test_commit "newline" "$(printf 'new\nline')" four
	git checkout -q main
	test_commit "upstream" README more
	same_as_procedure main topic
	same_as_procedure main topic -C --numstat -z
	git config core.quotePath false
	same_as_procedure main topic
}

@test "pathspecs after -- limit the diffstat, relative to the current directory" {
	history_pulled_part
	same_as_procedure main topic -- 'fs/*/extents.c'
	mkdir -p fs
	cd fs
	same_as_procedure main topic -- ext4/super.c
	same_as_procedure main topic -- .
}

@test "an output format option replaces --stat --summary" {
	history_pulled_part
	for format in --numstat --shortstat --dirstat --name-only --name-status \
		--compact-summary --stat=40 -p -U1 --raw --patch-with-stat; do
		same_as_procedure main topic -C "$format"
	done
}

@test "rename options replace or refine -C, others pass through" {
	history_pulled_part
	git checkout -q topic
	git mv fs/ext4/super.c fs/ext4/super-block.c
	test_tick && git commit -q -m rename
	git checkout -q main
	same_as_procedure main topic -M --stat --summary
	same_as_procedure main topic --no-renames --stat --summary
	run git clean-diffstat --no-renames main topic
	printf '%s\n' "$output" >actual
	procedure_diffstat main topic --no-renames --stat --summary >expect
	test_cmp expect actual
	run git clean-diffstat -M main topic
	printf '%s\n' "$output" >actual
	procedure_diffstat main topic -M --stat --summary >expect
	test_cmp expect actual
	same_as_procedure main topic -C --stat --summary --diff-algorithm=histogram -w
}

@test "diff configuration applies as in the procedure" {
	history_pulled_part
	git config diff.statGraphWidth 5
	git config diff.orderFile "$BATS_TEST_TMPDIR/order"
	printf 'fs/ext4/super.c\n' >"$BATS_TEST_TMPDIR/order"
	same_as_procedure main topic
	git config color.diff always
	same_as_procedure main topic
	same_as_procedure main topic -C --stat --summary --no-color
}

@test "--color forces colour as git diff does" {
	history_pulled_part
	same_as_procedure main topic -C --stat --summary --color
	git clean-diffstat --color main topic >actual
	grep -q "$(printf '\033')" actual
}
