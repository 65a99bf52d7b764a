#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Differential test: for random histories (t/lib/random-history), the
# tool prints byte for byte what the document's procedure prints when it
# is run for real in a copy of the repository.
#
# SEEDS=<n> runs seeds 1..n instead of the fixed list (long campaigns:
# make test-random SEEDS=500); SEED_LIST="3 17" runs just those.  A
# failure names its seed; `t/lib/random-history /tmp/r <seed>` rebuilds
# that history.

load test_helper

# The fixed list: each quarter has a seed whose upstream and topic have
# two merge bases (4, 42, 43, 64, 68); among them, the pulls rename, copy,
# create, delete and change the mode of files, binary ones too.
FIXED_SEEDS="4 42 43 64 7 68 4242 31337"

setup() {
	setup_world
}

seeds() {
	if [ -n "${SEED_LIST:-}" ]; then
		echo "$SEED_LIST"
	elif [ -n "${SEEDS:-}" ]; then
		seq 1 "$SEEDS"
	else
		echo "$FIXED_SEEDS"
	fi
}

# check_seed <seed>: 0 when tool and procedure agree on the history of
# <seed>, 2 when the seed's merge conflicts (skipped), else 1 with the
# difference on stderr.
check_seed() (
	rc=0
	"$BATS_TEST_DIRNAME/lib/random-history" "r$1" "$1" 2>/dev/null || rc=$?
	[ "$rc" -ne 3 ] || exit 2
	[ "$rc" -eq 0 ] || { echo "seed $1: random-history failed ($rc)" >&2; exit 1; }
	cd "r$1" &&
	expect_procedure upstream topic &&
	run_tool upstream topic &&
	matches_procedure &&
	cd .. && rm -rf "r$1"
)

# check_part <k>: the seeds of the list in places k, k + 4, k + 8...:
# make test runs the list as four tests, so that a failure names its
# quarter.
check_part() {
	local s i=0 failed=() skipped=() ran=0 rc

	for s in $(seeds); do
		i=$((i + 1))
		[ $((i % 4)) -eq $(($1 % 4)) ] || continue
		rc=0
		check_seed "$s" || rc=$?
		case $rc in
		0) ran=$((ran + 1)) ;;
		2) skipped+=("$s") ;;
		*) failed+=("$s") ;;
		esac
	done
	echo "# $ran seeds matched; skipped (conflicting): ${skipped[*]:-none}" >&3
	if [ ${#failed[@]} -gt 0 ]; then
		echo "mismatching seeds: ${failed[*]}"
		return 1
	fi
	[ "$ran" -gt 0 ] || skip "no seed of this quarter merges cleanly"
}

@test "seeded random histories, first quarter: the tool prints the procedure's diffstat" {
	check_part 1
}

@test "seeded random histories, second quarter: the tool prints the procedure's diffstat" {
	check_part 2
}

@test "seeded random histories, third quarter: the tool prints the procedure's diffstat" {
	check_part 3
}

@test "seeded random histories, fourth quarter: the tool prints the procedure's diffstat" {
	check_part 4
}
