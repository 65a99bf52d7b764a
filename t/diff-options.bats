#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The diff options as the user spells them to the tool, against the
# procedure's git diff spelled as the contract says they combine with the
# default "-C --stat --summary": an output format option replaces
# "--stat --summary" but keeps -C, a rename option comes after -C (git's
# last one wins), every other diff option passes through.

load test_helper

setup() {
	setup_world
	history_copies
}

# A history where -C, -M, --find-copies-harder and -B each see something
# different: topic copies a file it also changes (-C sees it), copies an
# unchanged one (only --find-copies-harder sees it), renames one with an
# edit, rewrites one whole (-B), makes a script executable, adds and
# deletes; main meanwhile changes other lines of the same files.  Built
# once per run and copied into each test (from_cache).
history_copies() { from_cache build_copies; }

build_copies() {
	git init -q "${1:-repo}" && cd "${1:-repo}" || return
	mkdir -p src lib docs tools
	seq 1 50 | sed 's/^/a /' >src/a.c
	seq 1 60 | sed 's/^/b /' >src/b.c
	seq 1 40 | sed 's/^/y /' >lib/y.c
	seq 1 30 | sed 's/^/guide /' >docs/old-guide.txt
	printf '#!/bin/sh\necho tool\n' >tools/run.sh
	seq 1 9 >lib/doomed.c
	commit_all base
	git checkout -q -b topic
	cp src/a.c src/a2.c
	sed -i '45s/.*/a topic/' src/a.c
	cp src/b.c lib/b2.c
	echo "b2 topic" >>lib/b2.c
	git mv docs/old-guide.txt docs/guide.txt
	sed -i '3s/.*/guide topic/' docs/guide.txt
	seq 1 40 | sed 's/^/rewritten /' >lib/y.c
	chmod +x tools/run.sh
	git rm -q lib/doomed.c
	seq 1 12 | sed 's/^/new /' >src/new.c
	commit_all "topic: copies, renames, a rewrite"
	git checkout -q main
	sed -i '5s/.*/a main/' src/a.c
	sed -i '25s/.*/guide main/' docs/old-guide.txt
	echo "main only" >README
	commit_all "main: edits"
}

@test "--numstat replaces --stat --summary and keeps -C" {
	expect_procedure main topic -C --numstat
	run_tool --numstat main topic
	matches_procedure
}

@test "--stat alone drops the default --summary" {
	expect_procedure main topic -C --stat
	run_tool --stat main topic
	matches_procedure
	differs_from_default main topic
}

@test "--summary alone drops the default --stat" {
	expect_procedure main topic -C --summary
	run_tool --summary main topic
	matches_procedure
}

@test "--stat=<width>[,<name-width>[,<count>]] is an output format" {
	for opt in --stat=40 --stat=50,10 --stat=60,20,2; do
		expect_procedure main topic -C "$opt"
		run_tool "$opt" main topic
		matches_procedure
	done
}

@test "--stat-width, --stat-name-width, --stat-graph-width and --stat-count are output formats" {
	for opt in --stat-width=40 --stat-name-width=10 --stat-graph-width=5 \
		--stat-count=2; do
		expect_procedure main topic -C "$opt"
		run_tool "$opt" main topic
		matches_procedure
	done
}

@test "--shortstat, --dirstat and -X are output formats" {
	for opt in --shortstat --dirstat --dirstat=files,0 -X -X10; do
		expect_procedure main topic -C "$opt"
		run_tool "$opt" main topic
		matches_procedure
	done
}

@test "--name-only, --name-status and --raw are output formats" {
	for opt in --name-only --name-status --raw; do
		expect_procedure main topic -C "$opt"
		run_tool "$opt" main topic
		matches_procedure
	done
}

@test "-p, -u, --patch, -U<n> and --unified=<n> are output formats" {
	for opt in -p -u --patch -U1 --unified=0; do
		expect_procedure main topic -C "$opt"
		run_tool "$opt" main topic
		matches_procedure
	done
}

@test "--patch-with-stat, --patch-with-raw and --compact-summary are output formats" {
	for opt in --patch-with-stat --patch-with-raw --compact-summary; do
		expect_procedure main topic -C "$opt"
		run_tool "$opt" main topic
		matches_procedure
	done
}

@test "-s and --no-patch print nothing, as git diff -C -s does" {
	for opt in -s --no-patch; do
		expect_procedure main topic -C "$opt"
		run_tool "$opt" main topic
		matches_procedure
		expect_stdout </dev/null
	done
}

@test "two output formats together are both kept" {
	expect_procedure main topic -C --numstat --summary
	run_tool --numstat --summary main topic
	matches_procedure
}

@test "-M replaces the default -C" {
	expect_procedure main topic -M --stat --summary
	run_tool -M main topic
	matches_procedure
	differs_from_default main topic
}

@test "-M with an output format replaces the default -C" {
	expect_procedure main topic -M --numstat
	run_tool -M --numstat main topic
	matches_procedure
	differs_from_default --numstat main topic
}

@test "--no-renames turns the default -C off" {
	expect_procedure main topic --no-renames --stat --summary
	run_tool --no-renames main topic
	matches_procedure
	differs_from_default main topic
}

@test "--find-copies-harder adds to the default -C" {
	expect_procedure main topic -C --find-copies-harder --stat --summary
	run_tool --find-copies-harder main topic
	matches_procedure
	differs_from_default main topic
}

@test "-B adds rewrite detection to the default -C" {
	expect_procedure main topic -C -B --stat --summary
	run_tool -B main topic
	matches_procedure
	differs_from_default main topic
}

@test "-C<n> and -M<n> give their threshold, as in the procedure's git diff" {
	for opt in -C90% -M10%; do
		expect_procedure main topic "$opt" --stat --summary
		run_tool "$opt" main topic
		matches_procedure
	done
}

@test "-C given again is the procedure's -C, not a second -C" {
	# "git diff -C -C" means --find-copies-harder: the user's -C must
	# not become one because the default -C is there too
	expect_procedure main topic -C --stat --summary
	run_tool -C main topic
	matches_procedure
	expect_procedure main topic -C --numstat
	run_tool -C --numstat main topic
	matches_procedure
	expect_procedure main topic --find-copies --stat --summary
	run_tool --find-copies main topic
	matches_procedure
}

@test "-l<n> limits rename detection after the default -C, with git's warning" {
	expect_procedure main topic -C -l1 --stat --summary
	run_tool -l1 main topic
	expect_status 0
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
	expect_stderr <<-\EOF
	warning: exhaustive rename detection was skipped due to too many files.
	warning: you may want to set your diff.renameLimit variable to at least 5 and retry the command.
	EOF
}

@test "--diff-algorithm, --histogram and -w pass through" {
	for opt in --diff-algorithm=patience --histogram -w \
		--ignore-blank-lines; do
		expect_procedure main topic -C --stat --summary "$opt"
		run_tool "$opt" main topic
		matches_procedure
	done
}

@test "-R shows the merge the other way round" {
	expect_procedure main topic -C --stat --summary -R
	run_tool -R main topic
	matches_procedure
	differs_from_default main topic
}

@test "--diff-filter limits the files counted" {
	for opt in --diff-filter=A --diff-filter=d --diff-filter=CR; do
		expect_procedure main topic -C --stat --summary "$opt"
		run_tool "$opt" main topic
		matches_procedure
	done
}

@test "-S<string> and -G<regex> pass through" {
	expect_procedure main topic -C --stat --summary "-Sb2 topic"
	run_tool "-Sb2 topic" main topic
	matches_procedure
	expect_procedure main topic -C --stat --summary "-G^rewritten 1$"
	run_tool "-G^rewritten 1$" main topic
	matches_procedure
	differs_from_default main topic
}

@test "-O<orderfile> orders the files" {
	printf 'tools/*\nsrc/new.c\n' >"$BATS_TEST_TMPDIR/order"
	expect_procedure main topic -C -p "-O$BATS_TEST_TMPDIR/order"
	run_tool -p "-O$BATS_TEST_TMPDIR/order" main topic
	matches_procedure
}

@test "-z, --abbrev and --full-index pass through" {
	expect_procedure main topic -C --numstat -z
	run_tool --numstat -z main topic
	matches_procedure
	expect_procedure main topic -C --raw --abbrev=12
	run_tool --raw --abbrev=12 main topic
	matches_procedure
	expect_procedure main topic -C -p --full-index --binary
	run_tool -p --full-index --binary main topic
	matches_procedure
}

@test "--relative from a subdirectory shows paths from there" {
	cd src
	expect_procedure main topic -C --stat --summary --relative
	run_tool --relative main topic
	matches_procedure
	expect_procedure main topic -C --stat --summary --relative=lib
	run_tool --relative=lib main topic
	matches_procedure
}

@test "--color and --color=always colour as the procedure does, --no-color wins over color.ui" {
	for opt in --color --color=always; do
		expect_procedure main topic -C --stat --summary "$opt"
		run_tool "$opt" main topic
		matches_procedure
		grep -q "$(printf '\033')" "$BATS_TEST_TMPDIR/actual"
	done
	git config color.ui always
	expect_procedure main topic -C --stat --summary --no-color
	run_tool --no-color main topic
	matches_procedure
}

@test "diff.relative from a subdirectory applies as in the procedure" {
	git config diff.relative true
	cd src
	expect_procedure main topic
	run_tool main topic
	matches_procedure
}

@test "diff.renames=false does not undo the default -C" {
	expect_procedure main topic
	git config diff.renames false
	if git_at_least 2 50; then
		# git merge takes it too from 2.50 on: topic's rename meets
		# main's edit of the old name as modify/delete, in both
		run ! procedure_diffstat main topic
		run_tool main topic
		expect_status 1
		grep -q '^ copy src/{a.c => a2.c} (97%)$' "$BATS_TEST_TMPDIR/actual"
		expect_unchanged
		return
	fi
	run_tool main topic
	matches_procedure
	expect_procedure main topic
	matches_procedure
}

@test "diff.statGraphWidth, diff.orderFile and color.diff apply as in the procedure" {
	git config diff.statGraphWidth 5
	git config diff.orderFile "$BATS_TEST_TMPDIR/order"
	printf 'src/new.c\n' >"$BATS_TEST_TMPDIR/order"
	expect_procedure main topic
	run_tool main topic
	matches_procedure
	git config color.diff always
	expect_procedure main topic
	run_tool main topic
	matches_procedure
	expect_procedure main topic -C --stat --summary --no-color
	run_tool --no-color main topic
	matches_procedure
}

@test "diff.noprefix, diff.algorithm and color.diff.* apply as in the procedure" {
	git config diff.noprefix true
	git config diff.algorithm histogram
	git config color.diff.new "blue bold"
	expect_procedure main topic -C -p --color
	run_tool -p --color main topic
	matches_procedure
}

@test "diff.dirstat applies to --dirstat as in the procedure" {
	git config diff.dirstat files,0,cumulative
	expect_procedure main topic -C --dirstat
	run_tool --dirstat main topic
	matches_procedure
}
