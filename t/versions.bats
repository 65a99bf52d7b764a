#!/usr/bin/env bats
# Where git itself changed between 2.38 and the newest release, the tool
# follows the procedure as the same git runs it: the test pins what the
# procedure does on each version (run for real, never assumed) and that
# the tool does the same.  make test-matrix runs this on every git.

load test_helper
load lib/histories
load lib/tool

setup() {
	setup_world
}

@test "the upstream of the branch is gone: say so, exit 128" {
	history_simple_topic repo
	git remote add origin "$BATS_TEST_TMPDIR/elsewhere.git"
	git update-ref refs/remotes/origin/topic topic
	git checkout -q topic
	git branch -q --set-upstream-to origin/topic
	# as after "git fetch --prune" once the branch was deleted there
	git update-ref -d refs/remotes/origin/topic
	git status -sb | grep -q '^## topic\.\.\.origin/topic \[gone\]$'
	before=$(repo_checksum)
	run_tool
	expect_status 128
	expect_stdout </dev/null
	expect_stderr <<-'EOF'
	fatal: the upstream 'origin/topic' of branch 'topic' is gone; name the branch to be pulled into: git clean-diffstat <upstream> [<head>]
	EOF
	[ "$before" = "$(repo_checksum)" ]
}
