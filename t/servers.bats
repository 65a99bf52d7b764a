#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The servers of t/lib/servers.bash that the tests fetch from: each
# answers as soon as it is started, holds nothing of bats's, and is gone,
# children and all, once stop_servers has run; a process the test leaves
# behind fails the test instead of hanging the run.

load test_helper

setup() {
	setup_world
	git init -q --bare pub.git
	git init -q src
	git -C src commit -q --allow-empty -m one
	git -C src push -q ../pub.git HEAD:refs/heads/main
	tip=$(git -C src rev-parse HEAD)
}

teardown() {
	stop_servers
}

# expect_main_at <url>: git ls-remote of <url> has main at the tip.
expect_main_at() {
	git ls-remote "$1" refs/heads/main >"$BATS_TEST_TMPDIR/actual" &&
	printf '%s\trefs/heads/main\n' "$tip" | test_cmp - "$BATS_TEST_TMPDIR/actual"
}

@test "a git daemon answers git ls-remote as soon as it is started" {
	start_git_daemon
	expect_main_at "$DAEMON_URL/pub.git"
}

@test "smart HTTP from lighttpd answers git ls-remote and git clone as soon as it is started" {
	start_http_server
	expect_main_at "$HTTP_URL/pub.git"
	git clone -q "$HTTP_URL/pub.git" clone
	[ "$(git -C clone rev-parse HEAD)" = "$tip" ]
	grep -qx -- '- GET /pub.git/info/refs?service=git-upload-pack' "$HTTP_LOG"
}

@test "smart HTTP with --auth: refused without credentials, served with them, the user logged" {
	start_http_server --auth=puller:secret
	GIT_TERMINAL_PROMPT=0 run -128 git ls-remote "$HTTP_URL/pub.git"
	expect_main_at "http://puller:secret@${HTTP_URL#http://}/pub.git"
	grep -qx 'puller GET /pub.git/info/refs?service=git-upload-pack' "$HTTP_LOG"
	! grep -v '^puller ' "$HTTP_LOG" || return 1
}

@test "the silent server accepts a connection and never sends a byte" {
	start_silent_server
	exec {conn}<>"/dev/tcp/127.0.0.1/$SILENT_PORT"
	echo hello >&"$conn"
	run -142 read -r -t 1 -u "$conn" line
	exec {conn}<&-
}

# group_of <pid>: the live processes of the process group <pid>.
group_of() {
	live_processes | awk -v g="$1" '$2 == g'
}

# start_every_server: each server this machine can run, their pids in
# $leaders; where there is no lighttpd, no HTTP server ($HTTP_URL empty).
start_every_server() {
	leaders=
	HTTP_URL=
	start_git_daemon && leaders+=" $SERVER_PID" &&
	if command -v lighttpd >/dev/null; then
		start_http_server && leaders+=" $SERVER_PID"
	fi &&
	start_silent_server && leaders+=" $SERVER_PID"
}

@test "no server holds bats's fd 3, so that none can keep the run waiting" {
	[ -e "/proc/$BASHPID/fd/3" ] || skip "no /proc/<pid>/fd here"
	local bats_fd3 pid fd
	bats_fd3=$(readlink "/proc/$BASHPID/fd/3")
	start_every_server
	for pid in $(for l in $leaders; do group_of "$l"; done | awk '{ print $1 }'); do
		for fd in /proc/"$pid"/fd/*; do
			if [ "$(readlink "$fd")" = "$bats_fd3" ]; then
				echo "server process $pid holds bats's $bats_fd3 as $fd" >&2
				return 1
			fi
		done
	done
}

@test "stop_servers stops every server with its children: no process of theirs is left" {
	local l
	start_every_server
	# a connection held open by each: a child of the daemon, a request
	# half sent to lighttpd, a socket of the silent server
	exec {d}<>"/dev/tcp/127.0.0.1/${DAEMON_URL##*:}"
	if [ -n "$HTTP_URL" ]; then
		exec {h}<>"/dev/tcp/127.0.0.1/${HTTP_URL##*:}"
		printf 'GET /pub.git/info/refs?service=git-upload-pack HTTP/1.0\r\n' >&"$h"
	fi
	exec {s}<>"/dev/tcp/127.0.0.1/$SILENT_PORT"
	stop_servers
	exec {d}<&- {s}<&-
	[ -z "$HTTP_URL" ] || exec {h}<&-
	for l in $leaders; do
		[ -z "$(group_of "$l")" ] || { group_of "$l" >&2; return 1; }
	done
}

@test "stop_servers fails, and kills it, when a process naming the test's directory outlives the test" {
	# the old way: a daemon of its own, whose pid only a file says
	git daemon --listen=127.0.0.1 --port="$(free_port)" --export-all \
		--base-path="$BATS_TEST_TMPDIR" --detach "$BATS_TEST_TMPDIR" 3>&-
	run -1 stop_servers
	[[ $output == "processes of this test outlive it:"*"--base-path=$BATS_TEST_TMPDIR"* ]]
	stop_servers
}

@test "the drip proxy passes a git daemon's answers on, a few bytes at a time" {
	start_git_daemon
	start_drip_proxy "${DAEMON_URL##*:}" 20 0.05
	expect_main_at "git://127.0.0.1:$DRIP_PORT/pub.git"
}

@test "the drip proxy with a limit sends that much of an answer, then holds the connection silent" {
	start_git_daemon
	start_drip_proxy "${DAEMON_URL##*:}" 20 0.05 30
	exec {conn}<>"/dev/tcp/127.0.0.1/$DRIP_PORT"
	printf '002cgit-upload-pack /pub.git\0host=127.0.0.1\0' >&"$conn"
	run -0 read -r -N 30 -t 5 -u "$conn" got
	run -142 read -r -N 1 -t 2 -u "$conn" more
	exec {conn}<&-
}
