# shellcheck shell=bash
# Running the tool and judging the run, for the suites that compare the
# tool as the user spells it with the procedure as the document spells
# it.  Outputs live in $BATS_TEST_TMPDIR, outside every repository, so
# that they never show up in a work tree the oracle copies.
#
#   expect_procedure <procedure_diffstat args>...
#                          the oracle's output becomes the expected stdout
#   run_tool <args>...     git clean-diffstat <args>, with stdout, stderr
#                          and $status kept
#   matches_procedure      exit 0, stdout what the oracle printed, nothing
#                          on stderr, no quarantine left
#   expect_stdout, expect_stderr
#                          the last run's stdout/stderr is stdin exactly
#   expect_status <n>      the last run's exit status is <n>

expect_procedure() {
	procedure_diffstat "$@" >"$BATS_TEST_TMPDIR/expect"
}

run_tool() {
	status=0
	git clean-diffstat "$@" >"$BATS_TEST_TMPDIR/actual" \
		2>"$BATS_TEST_TMPDIR/stderr" || status=$?
}

expect_status() {
	[ "$status" -eq "$1" ] && return
	echo "exit status $status, not $1; stderr:" >&2
	cat "$BATS_TEST_TMPDIR/stderr" >&2
	return 1
}

expect_stdout() {
	cat >"$BATS_TEST_TMPDIR/expect"
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
}

expect_stderr() {
	cat >"$BATS_TEST_TMPDIR/expect-stderr"
	test_cmp "$BATS_TEST_TMPDIR/expect-stderr" "$BATS_TEST_TMPDIR/stderr"
}

matches_procedure() {
	expect_status 0
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
	expect_stderr </dev/null
	assert_no_tempdir
}

# The two outputs differ: a check that a test can tell options apart.
differs_from_default() {
	local default=$BATS_TEST_TMPDIR/default

	git clean-diffstat "$@" >"$default"
	if cmp -s "$default" "$BATS_TEST_TMPDIR/actual"; then
		echo "the option changed nothing here: a useless test" >&2
		return 1
	fi
}
