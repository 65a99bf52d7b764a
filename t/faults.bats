#!/usr/bin/env bats
# Faults around the tool: a git that dies in the middle of merge-tree's
# output, signals while merge-tree runs, a reader that goes away, an
# unusable TMPDIR.  Each must end in a clear error or a clean stop,
# within 20 seconds, leave no temporary directory behind and change
# nothing in the repository.

load lib/random-env

setup() {
	world=$(mktemp -d "${BATS_TMPDIR:-/tmp}/faults.XXXXXX")
	random_env "$world"
	real_git=$(command -v git)
	export real_git
	PATH=${CLEAN_DIFFSTAT_DIR:-$BATS_TEST_DIRNAME/..}:$PATH
	mkdir "$world/tmp" "$world/fake"
	export TMPDIR=$world/tmp
	repo=$world/repo
	git init -q -b main "$repo"
	cd "$repo" || return
	seq 1 50 >file
	git add file && git commit -q -m base
	git checkout -q -b topic
	seq 1 50 | sed 's/^5$/five/' >file
	echo new >other
	git add -A && git commit -q -m topic
	git checkout -q main
	seq 1 50 | sed 's/^45$/forty-five/' >file
	git commit -q -am upstream
	snapshot >"$world/before"
}

teardown() {
	cd /
	rm -rf "$world"
}

# Everything in the repository that the tool must not change.
snapshot() {
	git for-each-ref --format='%(refname) %(objectname)'
	git rev-parse HEAD
	git status --porcelain=v1 --untracked-files=all
	find .git -type f ! -name index -print0 | sort -z | xargs -0 md5sum
}

# fake_git <shell code run instead of merge-tree>: put a git on PATH
# that runs the code for merge-tree and the real git for the rest.  The
# tool is then run as git-clean-diffstat: `git clean-diffstat` would put
# git's exec-path, and so the real git, first on PATH.
fake_git() {
	cat >"$world/fake/git" <<EOF
#!/bin/bash
for a; do
	if [ "\$a" = merge-tree ]; then
		$1
	fi
done
exec "\$real_git" "\$@"
EOF
	chmod +x "$world/fake/git"
	PATH=$world/fake:$PATH
}

assert_clean() {
	local left

	left=$(ls -A "$TMPDIR")
	[ -z "$left" ] || { echo "left in TMPDIR: $left"; return 1; }
	snapshot >"$world/after"
	cmp "$world/before" "$world/after" ||
		{ diff "$world/before" "$world/after"; return 1; }
}

@test "merge-tree killed after a few bytes of output is a fatal error" {
	# shellcheck disable=SC2016 # expanded by the fake git
	fake_git '"$real_git" "$@" | head -c 20; kill -9 $$'
	run timeout 20 git-clean-diffstat main topic
	echo "exit $status: $output"
	[ "$status" -eq 128 ]
	[[ "$output" == *fatal:* ]]
	assert_clean
}

@test "merge-tree exiting after part of its output is a fatal error" {
	# shellcheck disable=SC2016 # expanded by the fake git
	fake_git '"$real_git" "$@" | head -c 45; exit 0'
	run timeout 20 git-clean-diffstat main topic
	echo "exit $status: $output"
	[ "$status" -eq 128 ]
	[[ "$output" == *fatal:* ]]
	assert_clean
}

@test "merge-tree failing with a message passes git's message on" {
	# shellcheck disable=SC2016 # expanded by the fake git
	fake_git 'echo "fatal: simulated failure" >&2; exit 128'
	run timeout 20 git-clean-diffstat main topic
	echo "exit $status: $output"
	[ "$status" -eq 128 ]
	[[ "$output" == *"simulated failure"* ]]
	assert_clean
}

# signal_during_merge <signal>: the tool is sent <signal> while its
# merge-tree sleeps; it must stop at once with no temporary dir left.
signal_during_merge() {
	local pid rc=0 i

	# shellcheck disable=SC2016 # expanded by the fake git
	fake_git 'touch "$TMPDIR/../started"; sleep 30; exit 1'
	# Background jobs of a script ignore SIGINT; give the tool the
	# default disposition back as an interactive shell would.
	timeout 20 python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' git-clean-diffstat main topic \
		>"$world/out" 2>"$world/err" &
	pid=$!
	for ((i = 0; i < 200; i++)); do
		[ -e "$world/started" ] && break
		sleep 0.05
	done
	[ -e "$world/started" ]
	kill -s "$1" "$pid"
	wait "$pid" || rc=$?
	echo "exit $rc"
	[ "$rc" -ne 124 ]		# not the timeout
	[ "$rc" -ne 0 ]
	[ ! -s "$world/out" ]
	assert_clean
}

@test "SIGTERM while merge-tree runs stops the tool and removes its temp dir" {
	signal_during_merge TERM
}

@test "SIGINT while merge-tree runs stops the tool and removes its temp dir" {
	signal_during_merge INT
}

@test "a reader that stops after one line ends the run cleanly" {
	local rc

	for ((i = 0; i < 300; i++)); do
		echo "line $i" >"f$i"
	done
	git add . && git commit -q -m many && git branch -f topic
	git checkout -q -b base HEAD~1 && git checkout -q main
	git reset -q --hard HEAD~1
	snapshot >"$world/before"
	timeout 20 git clean-diffstat main topic 2>"$world/err" | head -1 \
		>"$world/out"
	rc=${PIPESTATUS[0]}
	echo "exit $rc, stderr: $(cat "$world/err")"
	[ "$rc" -ne 124 ]
	[ "$(wc -l <"$world/out")" -eq 1 ]
	assert_clean
}

@test "a TMPDIR below a regular file is a fatal error with nothing written" {
	bin=${CLEAN_DIFFSTAT_DIR:-$BATS_TEST_DIRNAME/..}/git-clean-diffstat
	if [ "$(head -c 4 "$bin")" != "$(printf '\177ELF')" ]; then
		skip "the binary runs under a wrapper (valgrind) that needs TMPDIR itself"
	fi
	echo x >"$world/plain"
	TMPDIR=$world/plain/sub run timeout 20 git-clean-diffstat main topic
	[ "$status" -eq 128 ]
	[ "${#lines[@]}" -ge 1 ]
	[[ "${lines[0]}" == fatal:* ]]
	assert_clean
}
