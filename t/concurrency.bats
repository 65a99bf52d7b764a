#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Many runs at once in one repository, while another process commits and
# runs git gc --auto: every run gives the right answer, and the repository
# stays whole.

load test_helper

setup() {
	setup_world
	history_partly_pulled
}

@test "16 runs at once beside commits, git gc --auto and repacks: each the procedure's diffstat, fsck clean" {
	expect_procedure linus topic
	git config gc.auto 1
	git config gc.autoPackLimit 1
	git config gc.autoDetach false
	[ -z "$(ls .git/objects/pack)" ]
	git branch busy linus
	git worktree add -q ../busy busy
	# Rounds of runs go on as long as the commits do, which get about a
	# seventeenth of the CPU beside 16 runs: what the commits cost, the
	# runs cost some seventeen times over.  So busy.txt is added once
	# and each commit is a git commit -a, not a git add and a git
	# commit: the same commits (the same ids), a process less each.
	(
		cd ../busy || exit 1
		: >busy.txt && git add busy.txt || exit 1
		for i in $(seq 30); do
			echo "$i" >>busy.txt
			test_tick
			git commit -q -a -m "busy $i"
			git gc --auto --quiet
			# and a real repack and prune now and then, so that the
			# objects the runs read move from loose to packed under them
			[ $((i % 10)) -ne 0 ] || git gc --quiet --prune=now
		done
	) &
	busy=$!
	runs=$BATS_TEST_TMPDIR/runs
	mkdir "$runs"
	round=0
	while [ "$round" -lt 3 ] || kill -0 "$busy" 2>/dev/null; do
		round=$((round + 1))
		pids=()
		for i in $(seq 16); do
			"${TOOL[@]}" linus topic >"$runs/out.$round.$i" 2>"$runs/err.$round.$i" &
			pids+=($!)
		done
		for pid in "${pids[@]}"; do
			wait "$pid"
		done
	done
	wait "$busy"
	ls .git/objects/pack/*.pack >/dev/null
	echo "rounds of 16 runs: $round" >&3
	# hundreds of files: their checksums first, then the diff of the
	# first one that is not what it should be
	expected=$(sha256sum <"$BATS_TEST_TMPDIR/expect")
	bad=$(sha256sum "$runs"/out.* | grep -v "^${expected%% *} " | head -n 1)
	[ -z "$bad" ] || test_cmp "$BATS_TEST_TMPDIR/expect" "${bad#*  }"
	bad=$(find "$runs" -name 'err.*' -size +0 | head -n 1)
	[ -z "$bad" ] || test_cmp /dev/null "$bad"
	git fsck --no-progress --strict
	expect_no_quarantine
}
