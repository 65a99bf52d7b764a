#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# A change of 50,000 files and a 100 MB binary file comes through with
# the diff going straight to stdout: the tool's own memory stays small,
# whatever the size of the output.

load test_helper

# The repository is built once for the file (by fast_import, see
# test_helper.bash: some 3 s of CPU, against 36 s for a plain git
# fast-import) and copied into each test's world.
setup_file() {
	(
		BATS_TEST_TMPDIR=$BATS_FILE_TMPDIR setup_world
		git init -q repo
		cd repo || exit
		test_commit base README base
		git branch topic
		test_commit upstream README upstream
		huge_topic | fast_import --quiet
	)
}

setup() {
	setup_world
	cp -a "$BATS_FILE_TMPDIR/repo" repo && cd repo &&
	git update-index -q --refresh >/dev/null
}

# The topic: 50,000 new files in 500 directories and a 100 MB binary.
huge_topic() {
	echo "commit refs/heads/topic"
	echo "committer C O Mitter <committer@example.com> 1112912053 -0700"
	echo "data 5"
	echo "huge"
	echo "from $(git rev-parse topic)"
	awk 'BEGIN {
		for (i = 0; i < 50000; i++) {
			c = sprintf("line %d\n", i)
			printf "M 100644 inline dir%03d/file%05d.c\ndata %d\n%s\n",
				i % 500, i, length(c), c
		}
	}'
	echo "M 100644 inline big.bin"
	echo "data 104857600"
	head -c 104857600 /dev/zero
	echo
}

# The figures are the plain binary's: a sanitizer's runtime (which must
# come first) or valgrind has a memory of its own.
skip_if_sanitized() {
	! tool_is_wrapped || skip "the binary runs under a wrapper"
	if ldd "$BIN/git-clean-diffstat" | grep -q 'lib[atu]san'; then
		skip "the binary is built with a sanitizer"
	fi
}

# run_tool_own_peak <args>...: run_tool, and its own peak resident set
# in kB in $kb, read by the tool at exit through the LD_PRELOAD probe
# the benchmarks use (bench/vmhwm.c): /usr/bin/time would report the
# largest git child instead.
run_tool_own_peak() {
	cc -O2 -shared -fPIC -o "$BATS_TEST_TMPDIR/vmhwm.so" "$TOP/bench/vmhwm.c" ||
		skip "no C compiler for the probe"
	BENCH_VMHWM_FILE=$BATS_TEST_TMPDIR/hwm BENCH_VMHWM_PROG=git-clean-diffstat \
	LD_PRELOAD=$BATS_TEST_TMPDIR/vmhwm.so run_tool "$@"
	kb=$(awk '{ print $3 }' "$BATS_TEST_TMPDIR/hwm")
}

@test "50,000 files and a 100 MB binary: the procedure's diffstat, the tool under 4 MiB" {
	skip_if_sanitized
	expect_procedure main topic
	run_tool_own_peak main topic
	matches_procedure
	[ "$(grep -c '^ dir' "$BATS_TEST_TMPDIR/actual")" -eq 50000 ]
	grep -q '^ big.bin  *| Bin 0 -> 104857600 bytes$' "$BATS_TEST_TMPDIR/actual"
	echo "tool's own peak RSS: $kb kB" >&3
	[ "$kb" -lt 4096 ]
}

@test "the patch of 50,000 files and a 100 MB binary goes straight through, the tool under 4 MiB" {
	skip_if_sanitized
	run_tool_own_peak -p --binary main topic
	expect_status 0
	[ "$(grep -c '^diff --git ' "$BATS_TEST_TMPDIR/actual")" -eq 50001 ]
	grep -q '^GIT binary patch$' "$BATS_TEST_TMPDIR/actual"
	echo "tool's own peak RSS with the patch: $kb kB" >&3
	[ "$kb" -lt 4096 ]
	expect_unchanged
}
