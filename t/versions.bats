#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Where git itself changed between 2.38 and the newest release, the tool
# follows the procedure as the same git runs it: the test pins what the
# procedure does on each version (run for real, never assumed) and that
# the tool does the same.  make test-matrix runs this on every git.

load test_helper

setup() {
	setup_world
}

# follows_procedure <since> <conflict> [all|none]: the procedure's git
# merge, run for real, merges cleanly before git <since> and conflicts
# from it on, or the other way round when <since> starts with "!"; and
# the tool, run last, does what it does: the procedure's diffstat, or
# when it conflicts the diffstat of the work tree git merge leaves, with
# <conflict> listed and said to hold conflict markers (all) or not.
follows_procedure() {
	local since=${1#!} conflicts=1
	git_at_least "${since%%.*}" "${since#*.}" || conflicts=0
	[ "$1" = "$since" ] || conflicts=$((1 - conflicts))
	if [ "$conflicts" -eq 1 ]; then
		expect_conflicted_procedure main topic
		matches_merge_tree main topic "${3-all}" <<<"  $2"
	else
		expect_procedure main topic
		matches_procedure
	fi
}

# f.c as three versions: base on main, then topic and main each change
# it.  Whether the content merge is clean depends on the diff algorithm.
three_versions() {
	git init -q repo && cd repo || return
	printf '%s\n' "$1" >f.c
	commit_all base
	git checkout -q -b topic
	printf '%s\n' "$2" >f.c
	commit_all "topic: f.c"
	git checkout -q main
	printf '%s\n' "$3" >f.c
	commit_all "main: f.c"
}

# main moves g() up and turns f() into h(); topic changes g()'s loop.
# Histogram (merge-ort's own algorithm) merges it, myers conflicts.
clean_under_histogram() {
	three_versions \
		"int f(int x, int y)
{
	if (x == 0)
	{
		return y;
	}
	return x;
}

int g(size_t u)
{
	while (u < 30)
	{
		u++;
	}
	return u;
}" \
		"int f(int x, int y)
{
	if (x == 0)
	{
		return y;
	}
	return x;
}

int g(size_t u)
{
	while (u > 34)
	{
		u--;
	}
	return u;
}" \
		"int g(size_t u)
{
	while (u < 30)
	{
		u++;
	}
	return u;
}

int h(int x, int y, int z)
{
	if (z == 0)
	{
		return x;
	}
	return y;
}"
}

# And one that myers merges where histogram conflicts.
clean_under_myers() {
	three_versions "$(printf '%s\n' b c return return '{' x b a)" \
		"$(printf '%s\n' b c return return return '{' x b a)" \
		"$(printf '%s\n' x b a return return '{' b a)"
}

@test "diff.algorithm=myers: the merge conflicts where the procedure's git merge does (2.50 on)" {
	clean_under_histogram
	git config diff.algorithm myers
	run_tool main topic
	# git merge reads diff.algorithm from 2.47 on, but merge-ort keeps
	# to histogram until 2.50
	follows_procedure 2.50 "f.c (content)"
}

@test "diff.algorithm=myers: the merge is clean where the procedure's git merge is (2.50 on)" {
	clean_under_myers
	git config diff.algorithm myers
	run_tool main topic
	follows_procedure '!2.50' "f.c (content)"
}

@test "diff.algorithm from git -c reaches the merge as it reaches the procedure's" {
	clean_under_myers
	export GIT_CONFIG_PARAMETERS="'diff.algorithm'='myers'"
	run_tool main topic
	follows_procedure '!2.50' "f.c (content)"
}

@test "diff.algorithm=histogram is the merge's own algorithm on every git" {
	clean_under_histogram
	git config diff.algorithm histogram
	expect_procedure main topic
	run_tool main topic
	matches_procedure
}

# A rename on topic, an edit of the old name on main: with rename
# detection the edit follows the file, without it the merge conflicts
# (modify/delete).
rename_and_edit() {
	git init -q repo && cd repo || return
	seq 1 20 >old.c
	commit_all base
	git checkout -q -b topic
	git mv old.c new.c
	commit_all "topic: rename"
	git checkout -q main
	sed -i 5s/.*/five/ old.c
	commit_all "main: edit"
}

@test "merge.renames=false turns rename detection off in the merge from 2.50 on, as in the procedure" {
	rename_and_edit
	git config merge.renames false
	run_tool main topic
	follows_procedure 2.50 "old.c (modify/delete)" none
}

@test "merge.renames=true wins over diff.renames=false in the merge, as in the procedure" {
	rename_and_edit
	git config diff.renames false
	git config merge.renames true
	expect_procedure main topic
	run_tool main topic
	matches_procedure
}

@test "the upstream of the branch is gone: say so, exit 128" {
	history_simple
	git remote add origin "$BATS_TEST_TMPDIR/elsewhere.git"
	git update-ref refs/remotes/origin/topic topic
	git checkout -q topic
	git branch -q --set-upstream-to origin/topic
	# as after "git fetch --prune" once the branch was deleted there
	git update-ref -d refs/remotes/origin/topic
	git status -sb | grep -q '^## topic\.\.\.origin/topic \[gone\]$'
	run_tool
	expect_failure 128 <<-'EOF'
	fatal: the upstream 'origin/topic' of branch 'topic' is gone; name the branch to be pulled into: git clean-diffstat <upstream> [<head>]
	EOF
}
