#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Every kind of change, one at a time, each where the upstream side moved
# too so that the merge has something to carry, and all at once: the
# tool's diffstat is the procedure's byte for byte.

load test_helper

setup() {
	setup_world
	from_cache build_changes_base
}

# The base every test starts from: src/main.c, src/util.c,
# docs/guide.txt and run.sh on main, and topic there too.  Built once
# per run and copied into each test (from_cache).
build_changes_base() {
	git init -q "${1:-repo}" && cd "${1:-repo}" || return
	mkdir -p src docs
	seq 1 30 | sed 's/^/main /' >src/main.c
	seq 1 30 | sed 's/^/util /' >src/util.c
	seq 1 20 | sed 's/^/doc /' >docs/guide.txt
	printf '#!/bin/sh\necho run\n' >run.sh
	commit_all base
	git branch topic
}

# Upstream moves on in a way that touches none of topic's files.
upstream_moves() {
	on main sh -c 'echo upstream >UPSTREAM'
}

# same_as_procedure [<diff-option>...]: from main, the tool given the
# options prints for main and topic what the procedure prints.
same_as_procedure() {
	git checkout -q main &&
	expect_procedure main topic "$@" &&
	run_tool "$@" main topic &&
	matches_procedure
}

@test "a rename on topic takes upstream's edit of the old name along" {
	on topic sh -c 'git mv src/util.c src/helpers.c && sed -i 2s/.*/topic/ src/helpers.c'
	on main sed -i 28s/.*/upstream/ src/util.c
	git checkout -q main
	clean_diffstat_is main topic <<-\EOF
	 src/{util.c => helpers.c} | 2 +-
	 1 file changed, 1 insertion(+), 1 deletion(-)
	 rename src/{util.c => helpers.c} (96%)
	EOF
}

@test "a rename on upstream: topic's edit of the old name counts under the new" {
	on main git mv src/util.c src/helpers.c
	on topic sed -i 2s/.*/topic/ src/util.c
	git checkout -q main
	clean_diffstat_is main topic <<-\EOF
	 src/helpers.c | 2 +-
	 1 file changed, 1 insertion(+), 1 deletion(-)
	EOF
}

@test "a copy of a file topic also changes shows as a copy" {
	on topic sh -c 'cp src/main.c src/main2.c && sed -i 3s/.*/topic/ src/main.c'
	upstream_moves
	same_as_procedure
	same_as_procedure -C --numstat
}

@test "a mode change shows in the summary, next to upstream's edit" {
	on topic chmod +x src/util.c
	on main sed -i 1s/.*/upstream/ src/util.c
	git checkout -q main
	clean_diffstat_is main topic <<-\EOF
	 src/util.c | 0
	 1 file changed, 0 insertions(+), 0 deletions(-)
	 mode change 100644 => 100755 src/util.c
	EOF
}

@test "a symlink added, retargeted or replacing a file counts as in the procedure" {
	on topic sh -c 'ln -s src/main.c link && rm run.sh && ln -s src/util.c run.sh'
	upstream_moves
	same_as_procedure
	on topic sh -c 'ln -sfn docs/guide.txt link'
	same_as_procedure
	same_as_procedure -C -p
}

@test "a binary file added and changed counts bytes, as in the procedure" {
	on topic sh -c "printf 'bin\0ary\n' >image.bin"
	on main sh -c "printf 'blob\0\1\2' >data.bin"
	same_as_procedure
	on topic sh -c "printf 'bin\0ary\0more\n' >image.bin"
	same_as_procedure
	same_as_procedure -C --numstat
}

@test "a file made binary by the merged .gitattributes counts as binary, as in TEMP's checkout" {
	# the procedure's git diff reads the attributes of TEMP's work tree;
	# the tool has git read them from the merged tree, which git can do
	# from 2.41 on (GIT_ATTR_SOURCE): before, it reads the work tree's
	requires_git 2.41
	on topic sh -c 'echo "*.txt binary" >.gitattributes && sed -i 4s/.*/topic/ docs/guide.txt'
	upstream_moves
	same_as_procedure
}

@test "git reads attributes from <upstream> for the merge and from the merged tree for the diff" {
	on topic sh -c 'echo "*.txt binary" >.gitattributes'
	upstream_moves
	git checkout -q main
	tree=$(merged_tree main topic)
	# shellcheck disable=SC2016 # the code is for the fake git to expand
	fake_git 'case "$1" in merge-tree|--no-pager) echo "$1 ${GIT_ATTR_SOURCE-unset}" >>"'"$BATS_TEST_TMPDIR"'/attr.log" ;; esac'
	run_tool main topic
	expect_status 0
	test_cmp - "$BATS_TEST_TMPDIR/attr.log" <<-EOF
	merge-tree $(git rev-parse main)
	--no-pager $tree
	EOF
}

@test "a submodule gitlink added, moved or removed counts as in the procedure" {
	one=$(git rev-parse main)
	git checkout -q topic
	git update-index --add --cacheinfo "160000,$one,vendor/lib"
	test_tick && git commit -q -m "topic: add vendor/lib"
	upstream_moves
	same_as_procedure
	two=$(git rev-parse main)
	git checkout -q topic
	git update-index --cacheinfo "160000,$two,vendor/lib"
	test_tick && git commit -q -m "topic: move vendor/lib"
	same_as_procedure
	same_as_procedure -C -p
	git checkout -q main
	git update-index --add --cacheinfo "160000,$one,vendor/old"
	test_tick && git commit -q -m "main: add vendor/old"
	git checkout -q topic
	test_merge main
	git rm -q --cached vendor/old
	test_tick && git commit -q -m "topic: drop vendor/old"
	same_as_procedure
}

@test "deleted files and a deleted directory show as deletions" {
	on topic git rm -q -r docs src/util.c
	on main sed -i 1s/.*/upstream/ src/main.c
	git checkout -q main
	clean_diffstat_is main topic <<-\EOF
	 docs/guide.txt | 20 --------------------
	 src/util.c     | 30 ------------------------------
	 2 files changed, 50 deletions(-)
	 delete mode 100644 docs/guide.txt
	 delete mode 100644 src/util.c
	EOF
}

@test "a file replaced by a directory, and an empty file, count as in the procedure" {
	on topic sh -c 'git rm -q run.sh && mkdir run.sh && echo inner >run.sh/inner && : >empty'
	upstream_moves
	same_as_procedure
}

@test "the same change on both sides counts for nothing" {
	on topic sh -c 'sed -i 7s/.*/same/ src/main.c && echo mine >src/topic.c'
	on main sed -i 7s/.*/same/ src/main.c
	git checkout -q main
	clean_diffstat_is main topic <<-\EOF
	 src/topic.c | 1 +
	 1 file changed, 1 insertion(+)
	 create mode 100644 src/topic.c
	EOF
}

@test "a change topic made and reverted counts for nothing" {
	on topic sed -i 9s/.*/oops/ src/main.c
	test_tick
	git revert --no-edit HEAD >/dev/null
	on topic sed -i 2s/.*/kept/ src/util.c
	upstream_moves
	git checkout -q main
	clean_diffstat_is main topic <<-\EOF
	 src/util.c | 2 +-
	 1 file changed, 1 insertion(+), 1 deletion(-)
	EOF
}

@test "every kind of change at once: the procedure's diffstat, with and without --find-copies-harder" {
	cd ..
	git init -q all && cd all
	seq 1 50 >moved.c
	seq 100 150 >copied.c
	printf 'x\n' >script.sh
	printf 'bin\0ary' >blob.bin
	seq 1 5 >gone.c
	commit_all base
	git checkout -q -b topic
	git mv moved.c renamed.c
	cp copied.c copy-of-copied.c && echo more >>copied.c
	chmod +x script.sh
	ln -s renamed.c link
	printf 'bin\0ary\1more' >blob.bin
	git rm -q gone.c
	git add -A
	git update-index --add --cacheinfo "160000,$(git rev-parse HEAD),vendor/sub"
	test_tick && git commit -q -m topic
	git checkout -q main
	test_commit "upstream moves" other.c upstream
	same_as_procedure
	same_as_procedure -C --stat --summary --find-copies-harder
}

@test "paths with spaces, UTF-8, quotes and a newline come out as git quotes them" {
	git checkout -q topic
	test_commit "odd names" "dir with space/file name" one
	test_commit "utf8" "$(printf 'caf\303\251.c')" two
	test_commit "quote" 'say "hi".c' three
	test_commit "newline" "$(printf 'new\nline')" four
	upstream_moves
	same_as_procedure
	same_as_procedure -C --numstat -z
	git config core.quotePath false
	same_as_procedure
}
