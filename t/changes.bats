#!/usr/bin/env bats
# One kind of change at a time, each where the upstream side moved too,
# so that the merge has something to carry: the tool's diffstat is the
# procedure's byte for byte.

load test_helper
load lib/tool

setup() {
	setup_world
	git init -q repo && cd repo || return
	mkdir -p src docs
	seq 1 30 | sed 's/^/main /' >src/main.c
	seq 1 30 | sed 's/^/util /' >src/util.c
	seq 1 20 | sed 's/^/doc /' >docs/guide.txt
	printf '#!/bin/sh\necho run\n' >run.sh
	git add . && test_tick && git commit -q -m base
	git branch topic
}

# Upstream moves on in a way that touches none of topic's files.
upstream_moves() {
	on main sh -c 'echo upstream >UPSTREAM'
}

check() {
	git checkout -q main
	expect_procedure main topic "$@"
	run_tool "$@" main topic
	matches_procedure
}

@test "a rename on topic takes upstream's edit of the old name along" {
	on topic sh -c 'git mv src/util.c src/helpers.c && sed -i 2s/.*/topic/ src/helpers.c'
	on main sed -i 28s/.*/upstream/ src/util.c
	check
	expect_stdout <<-\EOF
	 src/{util.c => helpers.c} | 2 +-
	 1 file changed, 1 insertion(+), 1 deletion(-)
	 rename src/{util.c => helpers.c} (96%)
	EOF
}

@test "a rename on upstream: topic's edit of the old name counts under the new" {
	on main git mv src/util.c src/helpers.c
	on topic sed -i 2s/.*/topic/ src/util.c
	check
	expect_stdout <<-\EOF
	 src/helpers.c | 2 +-
	 1 file changed, 1 insertion(+), 1 deletion(-)
	EOF
}

@test "a copy of a file topic also changes shows as a copy" {
	on topic sh -c 'cp src/main.c src/main2.c && sed -i 3s/.*/topic/ src/main.c'
	upstream_moves
	check
	check -C --numstat
}

@test "a mode change shows in the summary, next to upstream's edit" {
	on topic chmod +x src/util.c
	on main sed -i 1s/.*/upstream/ src/util.c
	check
	expect_stdout <<-\EOF
	 src/util.c | 0
	 1 file changed, 0 insertions(+), 0 deletions(-)
	 mode change 100644 => 100755 src/util.c
	EOF
}

@test "a symlink added, retargeted and replacing a file" {
	on topic sh -c 'ln -s src/main.c link && rm run.sh && ln -s src/util.c run.sh'
	upstream_moves
	check
	on topic sh -c 'ln -sfn docs/guide.txt link'
	check
	check -C -p
}

@test "a binary file added and changed counts bytes" {
	on topic sh -c "printf 'bin\0ary\n' >image.bin"
	on main sh -c "printf 'blob\0\1\2' >data.bin"
	check
	on topic sh -c "printf 'bin\0ary\0more\n' >image.bin"
	check
	check -C --numstat
}

@test "a file made binary by the merged .gitattributes counts as binary, as in TEMP's checkout" {
	# the procedure's git diff reads the attributes of TEMP's work tree;
	# the tool has git read them from the merged tree, which git can do
	# from 2.41 on (GIT_ATTR_SOURCE): before, it reads the work tree's
	requires_git 2.41
	on topic sh -c 'echo "*.txt binary" >.gitattributes && sed -i 4s/.*/topic/ docs/guide.txt'
	upstream_moves
	check
}

@test "git reads attributes from <upstream> for the merge and from the merged tree for the diff" {
	on topic sh -c 'echo "*.txt binary" >.gitattributes'
	upstream_moves
	git checkout -q main
	# shellcheck disable=SC2016 # the code is for the fake git to expand
	fake_git attr-log 'case "$1" in merge-tree|--no-pager) echo "$1 ${GIT_ATTR_SOURCE-unset}" >>"$BATS_TEST_TMPDIR/attr.log" ;; esac'
	export BATS_TEST_TMPDIR
	PATH="$BATS_TEST_TMPDIR/attr-log:$PATH" git-clean-diffstat main topic >/dev/null
	tree=$(git merge-tree --write-tree main topic)
	printf '%s\n' "merge-tree $(git rev-parse main)" "--no-pager $tree" >expect
	test_cmp expect "$BATS_TEST_TMPDIR/attr.log"
}

@test "a submodule gitlink added, moved and removed" {
	one=$(git rev-parse main)
	git checkout -q topic
	git update-index --add --cacheinfo "160000,$one,vendor/lib"
	test_tick && git commit -q -m "topic: add vendor/lib"
	upstream_moves
	check
	two=$(git rev-parse main)
	git checkout -q topic
	git update-index --cacheinfo "160000,$two,vendor/lib"
	test_tick && git commit -q -m "topic: move vendor/lib"
	check
	check -C -p
	git checkout -q main
	git update-index --add --cacheinfo "160000,$one,vendor/old"
	test_tick && git commit -q -m "main: add vendor/old"
	git checkout -q topic
	test_tick && git merge -q --no-edit main
	git rm -q --cached vendor/old
	test_tick && git commit -q -m "topic: drop vendor/old"
	check
}

@test "deleted files and a deleted directory" {
	on topic git rm -q -r docs src/util.c
	on main sed -i 1s/.*/upstream/ src/main.c
	check
	expect_stdout <<-\EOF
	 docs/guide.txt | 20 --------------------
	 src/util.c     | 30 ------------------------------
	 2 files changed, 50 deletions(-)
	 delete mode 100644 docs/guide.txt
	 delete mode 100644 src/util.c
	EOF
}

@test "a file replaced by a directory, and an empty file" {
	on topic sh -c 'git rm -q run.sh && mkdir run.sh && echo inner >run.sh/inner && : >empty'
	upstream_moves
	check
}

@test "the same change on both sides counts for nothing" {
	on topic sh -c 'sed -i 7s/.*/same/ src/main.c && echo mine >src/topic.c'
	on main sed -i 7s/.*/same/ src/main.c
	check
	expect_stdout <<-\EOF
	 src/topic.c | 1 +
	 1 file changed, 1 insertion(+)
	 create mode 100644 src/topic.c
	EOF
}

@test "a change topic made and reverted counts for nothing" {
	on topic sed -i 9s/.*/oops/ src/main.c
	test_tick && git revert --no-edit HEAD >/dev/null
	on topic sh -c 'echo kept >src/kept.c'
	upstream_moves
	check
	expect_stdout <<-\EOF
	 src/kept.c | 1 +
	 1 file changed, 1 insertion(+)
	 create mode 100644 src/kept.c
	EOF
}
