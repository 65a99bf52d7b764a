#!/usr/bin/env bats
# The repository stays as it was where a careless tool would write to
# it, and nothing is left in TMPDIR however the run ends: read-only even
# for root, hooks, a held index.lock, a partial clone that must fetch,
# a packed repository, ^C to the whole process group, SIGTERM to the
# tool alone while git still works for it, a reader that stops early.
# shellcheck disable=SC2030,SC2031 # each @test is a subshell: its exports are local

load test_helper
load lib/histories
load lib/tool

setup() {
	setup_world
	history_pulled_part repo
}

# A git that waits <seconds> before every merge-tree, writing its pid to
# $BATS_TEST_TMPDIR/merge-tree.pid first, so that a signal can land
# while the tool runs.
slow_git() {
	mkdir -p "$BATS_TEST_TMPDIR/slow"
	cat >"$BATS_TEST_TMPDIR/slow/git" <<-EOF
	#!/bin/sh
	for arg; do
		if [ "\$arg" = merge-tree ]; then
			echo \$\$ >"$BATS_TEST_TMPDIR/merge-tree.pid"
			sleep $1
			exec "$(command -v git)" "\$@"
		fi
	done
	exec "$(command -v git)" "\$@"
	EOF
	chmod +x "$BATS_TEST_TMPDIR/slow/git"
}

# Wait up to five seconds for the slow merge-tree to have started.
wait_for_merge_tree() {
	local i

	for i in $(seq 50); do
		[ ! -s "$BATS_TEST_TMPDIR/merge-tree.pid" ] || return 0
		sleep 0.1
	done
	echo "merge-tree never started (try $i)" >&2
	return 1
}

@test "a repository mounted read-only is untouched even for root" {
	unshare -m true 2>/dev/null || skip "no mount namespace here"
	expect_procedure main topic
	before=$(repo_checksum)
	cd ..
	status=0
	unshare -m sh -c '
		mount --bind repo repo && mount -o remount,bind,ro repo &&
		! touch repo/.git/probe 2>/dev/null &&
		cd repo && exec git clean-diffstat main topic' \
		>"$BATS_TEST_TMPDIR/actual" 2>"$BATS_TEST_TMPDIR/stderr" ||
		status=$?
	cd repo
	matches_procedure
	[ "$before" = "$(repo_checksum)" ]
}

@test "a full disk for the quarantine: git's own error, exit 128, nothing left" {
	unshare -m true 2>/dev/null || skip "no mount namespace here"
	if [ "$(head -c 4 "$BIN/git-clean-diffstat")" != "$(printf '\177ELF')" ]; then
		skip "the binary runs under a wrapper (valgrind) that needs TMPDIR itself"
	fi
	# the merge writes blobs far larger than the 64 KiB tmpfs
	git checkout -q topic
	seq 1 100000 >big-topic.txt
	git add big-topic.txt && test_tick && git commit -q -m big
	git checkout -q main
	seq 1 100000 >big-topic.txt
	echo main >>big-topic.txt
	git add big-topic.txt && test_tick && git commit -q -m "big on main"
	before=$(repo_checksum)
	mkdir "$BATS_TEST_TMPDIR/full"
	status=0
	# shellcheck disable=SC2016 # the inner shell expands $1
	unshare -m sh -c '
		mount -t tmpfs -o size=64k tmpfs "$1" &&
		TMPDIR=$1 git clean-diffstat main topic
		rc=$?
		left=$(ls -A "$1")
		[ -z "$left" ] || { echo "left: $left" >&2; exit 99; }
		exit $rc' sh "$BATS_TEST_TMPDIR/full" \
		>"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" || status=$?
	[ "$status" -eq 128 ]
	grep -q '^fatal: ' "$BATS_TEST_TMPDIR/err"
	[ ! -s "$BATS_TEST_TMPDIR/out" ]
	[ "$before" = "$(repo_checksum)" ]
}

@test "no hook runs: not reference-transaction, post-checkout, post-merge nor post-index-change" {
	for hook in reference-transaction post-checkout post-merge \
		pre-merge-commit post-index-change post-rewrite; do
		printf '#!/bin/sh\ntouch "%s/ran-%s"\n' "$BATS_TEST_TMPDIR" "$hook" \
			>".git/hooks/$hook"
		chmod +x ".git/hooks/$hook"
	done
	expect_procedure main topic
	rm -f "$BATS_TEST_TMPDIR"/ran-*
	before=$(repo_checksum)
	run_tool main topic
	matches_procedure
	[ "$before" = "$(repo_checksum)" ]
	ran=$(cd "$BATS_TEST_TMPDIR" && echo ran-*)
	[ "$ran" = "ran-*" ] || { echo "hooks ran: $ran" >&2; return 1; }
}

@test "an index.lock held by another git does not stop the tool, and stays" {
	expect_procedure main topic
	echo "held by another git" >.git/index.lock
	before=$(repo_checksum)
	run_tool main topic
	matches_procedure
	[ "$before" = "$(repo_checksum)" ]
}

@test "a packed repository gets no loose object and no new pack" {
	git gc -q --prune=now
	[ "$(find .git/objects -type f -path '*/objects/??/*' | wc -l)" -eq 0 ]
	expect_procedure main topic
	before=$(repo_checksum)
	run_tool -p main topic
	expect_status 0
	run_tool main topic
	matches_procedure
	[ "$before" = "$(repo_checksum)" ]
}

@test "a blobless partial clone fetches what the merge needs into the quarantine only" {
	git config uploadpack.allowFilter true
	expect_procedure main topic
	cd ..
	git clone -q --filter=blob:none --no-checkout "file://$PWD/repo" partial
	cd partial
	git branch -q topic origin/topic
	before=$(repo_checksum)
	run_tool origin/main topic
	matches_procedure
	[ "$before" = "$(repo_checksum)" ]
}

@test "^C to the whole process group while merge-tree runs: exit 130, nothing left" {
	slow_git 3
	before=$(repo_checksum)
	# A background job of a script starts with SIGINT ignored; perl puts
	# the default back, as an interactive shell would have it.  setsid
	# makes the tool's pid its process group, as a terminal's job is.
	# shellcheck disable=SC2016 # perl's $SIG, not the shell's
	PATH="$BATS_TEST_TMPDIR/slow:$PATH" setsid perl -e \
		'$SIG{INT} = "DEFAULT"; exec @ARGV or die' \
		git-clean-diffstat main topic \
		>"$BATS_TEST_TMPDIR/actual" 2>"$BATS_TEST_TMPDIR/stderr" &
	pid=$!
	wait_for_merge_tree
	kill -INT -- "-$pid"
	status=0
	wait "$pid" || status=$?
	expect_status 130
	expect_stdout </dev/null
	assert_no_tempdir
	[ "$before" = "$(repo_checksum)" ]
}

@test "SIGTERM to the tool alone: no quarantine left once its merge-tree is done" {
	slow_git 1
	before=$(repo_checksum)
	PATH="$BATS_TEST_TMPDIR/slow:$PATH" git-clean-diffstat main topic \
		>"$BATS_TEST_TMPDIR/actual" 2>"$BATS_TEST_TMPDIR/stderr" &
	pid=$!
	wait_for_merge_tree
	kill -TERM "$pid"
	status=0
	wait "$pid" || status=$?
	expect_status 143
	# the merge-tree the tool started must not go on writing a
	# quarantine back into TMPDIR after the tool removed it
	child=$(cat "$BATS_TEST_TMPDIR/merge-tree.pid")
	for _ in $(seq 50); do
		kill -0 "$child" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$child" 2>/dev/null; then
		echo "the tool's merge-tree outlived it" >&2
		return 1
	fi
	assert_no_tempdir
	[ "$before" = "$(repo_checksum)" ]
}

@test "| head -1 on the default diffstat: the first line, no quarantine left" {
	git clean-diffstat main topic >"$BATS_TEST_TMPDIR/all"
	set +o pipefail
	git clean-diffstat main topic 2>"$BATS_TEST_TMPDIR/stderr" |
		head -n 1 >"$BATS_TEST_TMPDIR/actual"
	head -n 1 "$BATS_TEST_TMPDIR/all" | expect_stdout
	expect_stderr </dev/null
	assert_no_tempdir
}

@test "a reader gone before the tool starts writing: quiet, no quarantine left" {
	slow_git 1
	set +o pipefail
	PATH="$BATS_TEST_TMPDIR/slow:$PATH" git-clean-diffstat -p main topic \
		2>"$BATS_TEST_TMPDIR/stderr" | true
	expect_stderr </dev/null
	assert_no_tempdir
}

@test "in a pre-receive hook the pushed objects, still in git's quarantine, are found" {
	git clone -q --bare . "$BATS_TEST_TMPDIR/server.git"
	cat >"$BATS_TEST_TMPDIR/server.git/hooks/pre-receive" <<-EOF
	#!/bin/sh
	read -r old new ref
	git clean-diffstat main "\$new" >"$BATS_TEST_TMPDIR/actual" 2>"$BATS_TEST_TMPDIR/stderr"
	echo \$? >"$BATS_TEST_TMPDIR/status"
	EOF
	chmod +x "$BATS_TEST_TMPDIR/server.git/hooks/pre-receive"
	git checkout -q -b feature topic
	test_commit "feature: new" fs/ext4/feature.c new
	expect_procedure main feature
	git push -q "$BATS_TEST_TMPDIR/server.git" feature
	status=$(cat "$BATS_TEST_TMPDIR/status")
	matches_procedure
}
