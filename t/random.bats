#!/usr/bin/env bats
# Differential test: for random histories (t/lib/random-history), the
# tool prints byte for byte what the document's procedure prints when it
# is run for real in a copy of the repository.
#
# SEEDS=<n> runs seeds 1..n instead of the fixed list (long campaigns:
# make test-random SEEDS=500); SEED_LIST="3 17" runs just those.  A
# failure names its seed; `t/lib/random-history /tmp/r <seed>` rebuilds
# that history.

load lib/random-env

FIXED_SEEDS="1 2 3 5 7 11 13 17 19 23 29 31 37 41 43 47 53 58 59 61
	67 71 73 79 83 89 97 101 1009 4242 31337 65535"

setup() {
	world=$(mktemp -d "${BATS_TMPDIR:-/tmp}/random.XXXXXX")
	random_env "$world"
	PATH=${CLEAN_DIFFSTAT_DIR:-$BATS_TEST_DIRNAME/..}:$PATH
}

teardown() {
	rm -rf "$world"
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

# check_seed <seed>: 0 when tool and procedure agree, 2 when the seed
# was skipped, else 1 with the difference on stdout
check_seed() {
	local s=$1 repo=$world/r$1 rc=0

	"$BATS_TEST_DIRNAME/lib/random-history" "$repo" "$s" 2>/dev/null ||
		rc=$?
	if [ "$rc" -eq 3 ]; then
		return 2
	elif [ "$rc" -ne 0 ]; then
		echo "seed $s: random-history failed ($rc)"
		return 1
	fi
	cp -a "$repo" "$repo.proc"
	(cd "$repo.proc" &&
	 git checkout -q -b TEMP upstream &&
	 git merge -q --no-edit topic &&
	 git diff -C --stat --summary upstream..TEMP) >"$world/expect" ||
		{ echo "seed $s: procedure failed"; return 1; }
	rc=0
	(cd "$repo" && git clean-diffstat upstream topic) >"$world/actual" \
		2>"$world/err" || rc=$?
	if [ "$rc" -ne 0 ] || ! cmp -s "$world/expect" "$world/actual"; then
		echo "seed $s: exit $rc, stderr: $(cat "$world/err")"
		diff -u "$world/expect" "$world/actual" | head -40
		return 1
	fi
	rm -rf "$repo" "$repo.proc"
}

@test "for every seeded random history the tool prints the procedure's diffstat" {
	local s failed=() skipped=() ran=0 rc

	for s in $(seeds); do
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
}
