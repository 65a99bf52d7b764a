#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# A conflicted merge: the diffstat of the tree merge-tree wrote (what the
# upstream maintainer starts from) on stdout, a warning listing every
# conflicted path with its kind on stderr, exit 1.

load test_helper

setup() {
	setup_world
	from_cache build_conflicts_base
}

# The base every test starts from, on main, and topic there too.  Built
# once per run and copied into each test (from_cache).
build_conflicts_base() {
	git init -q "${1:-repo}" && cd "${1:-repo}" || return
	seq 1 9 >common.c
	seq 11 19 >gone.c
	seq 21 29 >moved.c
	seq 31 39 >doomed.c
	printf 'bin\0base' >image.bin
	echo file >path
	commit_all base
	git branch topic
}

# conflicts_as_expected [all|some|none]: the tool, from main, gives for
# main and topic merge-tree's diffstat and lists the conflicts on stdin,
# saying that the counts include conflict markers for all, some or none
# of the conflicted files (default: all).
conflicts_as_expected() {
	git checkout -q main
	expect_merge_tree_diff main topic
	run_tool main topic
	matches_merge_tree main topic "${1-all}"
}

@test "a content conflict is listed as content" {
	on main sed -i 5s/.*/main/ common.c
	on topic sed -i 5s/.*/topic/ common.c
	conflicts_as_expected <<-EOF
	  common.c (content)
	EOF
	grep -q '^ common.c | 4 ++++$' "$BATS_TEST_TMPDIR/actual"
}

@test "an add/add conflict is listed as add/add" {
	on main sh -c 'echo main >new.c'
	on topic sh -c 'echo topic >new.c'
	conflicts_as_expected <<-EOF
	  new.c (add/add)
	EOF
}

@test "a modify/delete conflict is listed as modify/delete" {
	on main git rm -q gone.c
	on topic sed -i 3s/.*/topic/ gone.c
	conflicts_as_expected none <<-EOF
	  gone.c (modify/delete)
	EOF
}

@test "a rename/rename conflict lists both names" {
	on main git mv moved.c main-name.c
	on topic git mv moved.c topic-name.c
	conflicts_as_expected none <<-EOF
	  main-name.c (rename/rename)
	  moved.c (rename/rename)
	  topic-name.c (rename/rename)
	EOF
}

@test "a rename/delete conflict is listed as rename/delete" {
	on main git rm -q doomed.c
	on topic git mv doomed.c saved.c
	conflicts_as_expected none <<-EOF
	  saved.c (rename/delete)
	EOF
}

@test "a file/directory conflict is listed as file/directory" {
	on main sh -c 'echo more >>path'
	on topic sh -c 'git rm -q path && mkdir path && echo f >path/file'
	conflicts=path~$(git rev-parse main)
	conflicts_as_expected none <<-EOF
	  $conflicts (file/directory, modify/delete)
	EOF
}

@test "a binary conflict is listed as binary" {
	on main sh -c "printf 'bin\0main' >image.bin"
	on topic sh -c "printf 'bin\0topic' >image.bin"
	conflicts_as_expected none <<-EOF
	  image.bin (binary, content)
	EOF
	# git keeps main's side of a binary file: nothing to count
	[ ! -s "$BATS_TEST_TMPDIR/actual" ]
}

@test "a submodule conflict is listed as submodule" {
	one=$(git rev-parse main)
	git commit -q --allow-empty -m "a second commit"
	two=$(git rev-parse main)
	git update-index --add --cacheinfo "160000,$one,sub"
	test_tick && git commit -q -m "main: sub at one"
	git branch -f topic main
	git update-index --cacheinfo "160000,$two,sub"
	test_tick && git commit -q -m "main: sub at two"
	git checkout -q topic
	git update-index --cacheinfo "160000,$(git rev-parse HEAD),sub"
	test_tick && git commit -q -m "topic: sub elsewhere"
	conflicts_as_expected none <<-EOF
	  sub (submodule not initialized, submodule)
	EOF
}

@test "many conflicts are all listed, in path order" {
	on main sh -c 'sed -i 5s/.*/main/ common.c && git rm -q gone.c && echo main >new.c'
	on topic sh -c 'sed -i 5s/.*/topic/ common.c && sed -i 3s/.*/t/ gone.c && echo topic >new.c'
	conflicts_as_expected some <<-EOF
	  common.c (content, with conflict markers)
	  gone.c (modify/delete)
	  new.c (add/add, with conflict markers)
	EOF
}

@test "conflicted paths are quoted as git quotes them, after core.quotePath" {
	name=$(printf 'caf\303\251 "x".c')
	on main sh -c "echo main >'$name'"
	on topic sh -c "echo topic >'$name'"
	conflicts_as_expected <<-\EOF
	  "caf\303\251 \"x\".c" (add/add)
	EOF
	git config core.quotePath false
	printf '  "caf\303\251 \\"x\\".c" (add/add)\n' | conflicts_as_expected
}

@test "core.quotePath is read as git reads a boolean: no, off, 0, 0k and an empty value are false, a key alone and 1 are true" {
	name=$(printf 'caf\303\251.c')
	on main sh -c "echo main >'$name'"
	on topic sh -c "echo topic >'$name'"
	for value in no OFF 0 0k ''; do
		git config core.quotePath "$value"
		printf '  caf\303\251.c (add/add)\n' | conflicts_as_expected ||
			return 1
	done
	# "[core] quotePath" with no value; 1 on the command line (as git -c)
	printf '[core]\n\tquotePath\n' >>.git/config
	conflicts_as_expected <<-\EOF
	  "caf\303\251.c" (add/add)
	EOF
	git config --unset-all core.quotePath
	git config core.quotePath false
	export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.quotePath \
		GIT_CONFIG_VALUE_0=1
	conflicts_as_expected <<-\EOF
	  "caf\303\251.c" (add/add)
	EOF
}

@test "a conflict on a path topic renamed is listed under its new name" {
	on main sed -i 5s/.*/main/ moved.c
	on topic sh -c 'git mv moved.c renamed.c && sed -i 5s/.*/topic/ renamed.c'
	conflicts_as_expected <<-EOF
	  renamed.c (content)
	EOF
}

@test "a file added where upstream renamed its directory is listed as file location" {
	mkdir src && seq 1 5 >src/a.c
	on main true
	git branch -f topic main
	on main git mv src lib
	on topic sh -c 'echo new >src/new.c'
	conflicts_as_expected none <<-EOF
	  lib/new.c (file location)
	EOF
}

@test "a criss-cross whose merge bases conflict with each other: the conflict listed as content" {
	on main sed -i 5s/.*/main/ common.c
	git branch m1 main
	on topic sed -i 5s/.*/topic/ common.c
	git branch t1 topic
	# each side merges the other's first commit, resolving differently
	on main sh -c 'git merge -q t1 >/dev/null; seq 1 9 | sed 5s/.*/main+topic/ >common.c'
	on topic sh -c 'git merge -q m1 >/dev/null; seq 1 9 | sed 5s/.*/topic+main/ >common.c'
	[ "$(git merge-base --all main topic | wc -l)" -eq 2 ]
	conflicts_as_expected <<-EOF
	  common.c (content)
	EOF
}

@test "a conflict with an output format option: that format of merge-tree's tree" {
	on main sh -c 'sed -i 5s/.*/main/ common.c && echo main >main-only.c'
	on topic sh -c 'sed -i 5s/.*/topic/ common.c && git mv moved.c topic-name.c'
	for format in --numstat --name-status -p; do
		expect_merge_tree_diff main topic -C "$format"
		run_tool "$format" main topic
		matches_merge_tree main topic <<-EOF
		  common.c (content)
		EOF
	done
}

@test "a conflict seen from a subdirectory lists each path once, from the top" {
	# git merge-tree names conflicted file info relative to the current
	# directory but its messages from the top: one line per path still
	mkdir -p dir && seq 1 9 >dir/inner.c
	on main true
	git branch -f topic main
	on main sed -i 5s/.*/main/ dir/inner.c common.c
	on topic sed -i 5s/.*/topic/ dir/inner.c common.c
	cd dir
	expect_merge_tree_diff main topic -- .
	run_tool main topic -- .
	matches_merge_tree main topic <<-EOF
	  common.c (content)
	  dir/inner.c (content)
	EOF
}


@test "a symlink conflict is listed as symlink, with no word of conflict markers" {
	ln -s base-target link && commit_all link
	git branch -f topic main
	on main ln -sfn main-target link
	on topic ln -sfn topic-target link
	# merge-tree says "content", and the merged tree keeps main's link
	[ "$(git merge-tree --write-tree --name-only main topic | sed -n 2p)" = link ]
	conflicts_as_expected none <<-EOF
	  link (symlink)
	EOF
	[ ! -s "$BATS_TEST_TMPDIR/actual" ]
}

@test "conflict markers are claimed for the text files that have them only" {
	ln -s base-target link && commit_all link
	git branch -f topic main
	on main sh -c 'ln -sfn main-target link && sed -i 5s/.*/main/ common.c'
	on topic sh -c 'ln -sfn topic-target link && sed -i 5s/.*/topic/ common.c'
	conflicts_as_expected some <<-EOF
	  common.c (content, with conflict markers)
	  link (symlink)
	EOF
}
