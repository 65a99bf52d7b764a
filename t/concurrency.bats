#!/usr/bin/env bats
# Many runs at once in one repository, while another process commits and
# runs git gc --auto: every run gives the right answer, and the repository
# stays whole.

load test_helper
load lib/histories

setup() {
	setup_world
	history_pulled_part repo
}

@test "16 runs at once beside commits and git gc --auto: all right, fsck clean" {
	procedure_diffstat main topic >expect
	git config gc.auto 1
	git config gc.autoPackLimit 1
	git config gc.autoDetach false
	[ -z "$(ls .git/objects/pack)" ]
	git branch busy main
	git worktree add -q ../busy busy
	(
		cd ../busy || exit 1
		for i in $(seq 30); do
			echo "$i" >>busy.txt
			git add busy.txt
			git commit -q -m "busy $i"
			git gc --auto --quiet
			# and a real repack and prune now and then, so that the
			# objects the runs read move from loose to packed under them
			[ $((i % 10)) -ne 0 ] || git gc --quiet --prune=now
		done
	) &
	busy=$!
	round=0
	while [ "$round" -lt 3 ] || kill -0 "$busy" 2>/dev/null; do
		round=$((round + 1))
		pids=()
		for i in $(seq 16); do
			git clean-diffstat main topic >"out.$round.$i" 2>"err.$round.$i" &
			pids+=($!)
		done
		for pid in "${pids[@]}"; do
			wait "$pid"
		done
	done
	wait "$busy"
	ls .git/objects/pack/*.pack >/dev/null
	echo "rounds of 16 runs: $round" >&3
	for f in out.*; do
		test_cmp expect "$f"
	done
	for f in err.*; do
		[ ! -s "$f" ] || { cat "$f" >&2; false; }
	done
	git fsck --no-progress --strict
	assert_no_tempdir
}
