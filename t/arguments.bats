#!/usr/bin/env bats
# Revisions and pathspecs as a user spells them: the default upstream
# from a real remote, HEAD and its friends, revision expressions, names
# that are also files, pathspec magic, from the top and from below.

load test_helper
load lib/histories
load lib/tool

setup() {
	setup_world
	history_pulled_part repo
}

@test "the default upstream is a remote-tracking branch as @{upstream}" {
	cd ..
	git clone -q repo clone
	cd clone
	git checkout -q -b work origin/topic
	git branch -q --set-upstream-to=origin/main
	expect_procedure origin/main work
	run_tool
	matches_procedure
	run_tool '@{upstream}'
	matches_procedure
	run_tool '@{u}' HEAD
	matches_procedure
}

@test "<head> defaults to HEAD, not to the branch <upstream> tracks" {
	git checkout -q -b other topic~1
	expect_procedure main other
	run_tool main
	matches_procedure
}

@test "an explicit <head> need not be checked out" {
	git checkout -q x
	expect_procedure main topic
	run_tool main topic
	matches_procedure
}

@test "tags, commit ids, ~ and ^{commit} name the same commits" {
	git tag -a -m "annotated" v-topic topic
	expect_procedure main topic
	for head in v-topic "$(git rev-parse topic)" "$(git rev-parse --short topic)" \
		'topic~0' 'topic^{commit}' 'v-topic^{}'; do
		run_tool main "$head"
		matches_procedure
	done
	run_tool "$(git rev-parse main)" topic
	matches_procedure
}

@test "a commit found by its message with :/ is a revision" {
	# ":/<regex>" takes the rest as the regex: "^{commit}" cannot be
	# appended to it
	expect_procedure main 'topic^'
	run_tool main ':/^c2: Merge'
	matches_procedure
}

@test "a revision that is also a file name is taken as the revision" {
	echo "not a branch" >topic
	echo "not a branch" >main
	expect_procedure main topic
	run_tool main topic
	matches_procedure
}

@test "--end-of-options before ordinary revisions changes nothing" {
	expect_procedure main topic -C --numstat
	run_tool --numstat --end-of-options main topic
	matches_procedure
}

@test "<upstream> equal to <head> is already merged" {
	run_tool topic topic
	expect_status 0
	expect_stdout </dev/null
	expect_stderr <<-\EOF
	note: 'topic' is already merged into 'topic'
	EOF
}

@test "<head> an ancestor of <upstream> is already merged, named as given" {
	run_tool main 'main~1'
	expect_status 0
	expect_stdout </dev/null
	expect_stderr <<-\EOF
	note: 'main~1' is already merged into 'main'
	EOF
}

@test "several pathspecs, and one that matches nothing" {
	expect_procedure main topic -- fs/ext4/super.c Makefile
	run_tool main topic -- fs/ext4/super.c Makefile
	matches_procedure
	expect_procedure main topic -- no/such/path
	run_tool main topic -- no/such/path
	matches_procedure
	expect_stdout </dev/null
}

@test "pathspec magic: exclude, glob, icase, top" {
	for spec in ':(exclude)fs/ext4/super.c' ':!fs/ext4' ':(glob)**/super.c' \
		':(icase)FS/EXT4' ':(top)fs'; do
		expect_procedure main topic -- "$spec"
		run_tool main topic -- "$spec"
		matches_procedure
	done
}

@test "pathspecs from a subdirectory are relative to it, magic included" {
	mkdir -p fs/ext4
	cd fs/ext4
	for spec in super.c . .. ':(top)Makefile' ':!extents.c'; do
		expect_procedure main topic -- "$spec"
		run_tool main topic -- "$spec"
		matches_procedure
	done
}

@test "from a subdirectory without pathspecs the whole tree counts" {
	mkdir -p fs
	cd fs
	expect_procedure main topic
	run_tool main topic
	matches_procedure
}

@test "diff options and pathspecs together" {
	expect_procedure main topic -C --numstat -- fs
	run_tool --numstat main topic -- fs
	matches_procedure
}
