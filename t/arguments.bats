#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Revisions and pathspecs as a user spells them: the default upstream
# from a real remote, HEAD and its friends, revision expressions, names
# that are also files, pathspec magic, from the top and from below.

load test_helper

setup() {
	setup_world
	history_partly_pulled
}

@test "the default upstream is a remote-tracking branch, as @{upstream} and @{u} name it" {
	cd ..
	git clone -q repo clone
	cd clone
	git checkout -q -b work origin/topic
	git branch -q --set-upstream-to=origin/linus
	expect_procedure origin/linus work
	run_tool
	matches_procedure
	run_tool '@{upstream}'
	matches_procedure
	run_tool '@{u}' HEAD
	matches_procedure
}

@test "<head> defaults to HEAD, not to the branch <upstream> tracks" {
	git checkout -q -b other topic~1
	expect_procedure linus other
	run_tool linus
	matches_procedure
}

@test "an explicit <head> need not be checked out" {
	git checkout -q x
	expect_procedure linus topic
	run_tool linus topic
	matches_procedure
}

@test "tags, commit ids, ~ and ^{commit} name the same commits" {
	git tag -a -m "annotated" v-topic topic
	expect_procedure linus topic
	for head in v-topic "$(git rev-parse topic)" "$(git rev-parse --short topic)" \
		'topic~0' 'topic^{commit}' 'v-topic^{}'; do
		run_tool linus "$head"
		matches_procedure
	done
	run_tool "$(git rev-parse linus)" topic
	matches_procedure
}

@test "a commit found by its message with :/ is a revision" {
	# ":/<regex>" takes the rest as the regex: "^{commit}" cannot be
	# appended to it
	expect_procedure linus c2
	run_tool linus ':/^c2: Merge'
	matches_procedure
}

@test "a revision that is also a file name is taken as the revision" {
	echo "not a branch" >topic
	echo "not a branch" >linus
	expect_procedure linus topic
	run_tool linus topic
	matches_procedure
}

@test "--end-of-options before ordinary revisions changes nothing" {
	expect_procedure linus topic -C --numstat
	run_tool --numstat --end-of-options linus topic
	matches_procedure
}

@test "<upstream> equal to <head> is already merged: a note, exit 0" {
	run_tool topic topic
	expect_status 0
	expect_stdout </dev/null
	expect_stderr <<-\EOF
	note: 'topic' is already merged into 'topic'
	EOF
	expect_unchanged
}

@test "<head> an ancestor of <upstream> is already merged, named as given" {
	run_tool linus 'linus~1'
	expect_status 0
	expect_stdout </dev/null
	expect_stderr <<-\EOF
	note: 'linus~1' is already merged into 'linus'
	EOF
	expect_unchanged
}

@test "several pathspecs limit the diffstat, and one that matches nothing empties it" {
	expect_procedure linus topic -- drivers/net/phy.c Documentation
	run_tool linus topic -- drivers/net/phy.c Documentation
	matches_procedure
	expect_procedure linus topic -- no/such/path
	run_tool linus topic -- no/such/path
	matches_procedure
	expect_stdout </dev/null
}

@test "pathspecs glob, and their magic works: exclude, glob, icase, top" {
	for spec in 'drivers/*/phy.c' ':(exclude)drivers/net/phy.c' \
		':!drivers/net' ':(glob)**/phy.c' ':(icase)DRIVERS/NET' \
		':(top)drivers'; do
		expect_procedure linus topic -- "$spec"
		run_tool linus topic -- "$spec"
		matches_procedure
	done
}

@test "pathspecs from a subdirectory are relative to it, magic included" {
	cd drivers/net
	for spec in phy.c . .. ':(top)Documentation' ':!x.c'; do
		expect_procedure linus topic -- "$spec"
		run_tool linus topic -- "$spec"
		matches_procedure
	done
}

@test "from a subdirectory without pathspecs the whole tree counts" {
	cd drivers
	expect_procedure linus topic
	run_tool linus topic
	matches_procedure
}

@test "diff options and pathspecs together: the procedure's diff of those paths in that format" {
	expect_procedure linus topic -C --numstat -- drivers
	run_tool --numstat linus topic -- drivers
	matches_procedure
}
