#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# --verify against what a stranger can send: a mail of many rows, a
# request of many files, a server that floods or says why it failed.
# What it costs is bounded, what reaches the user is one clear line.
# shellcheck disable=SC2030,SC2031 # each @test is a subshell: its variables are its own

load test_helper
load lib/mail

setup() {
	setup_world
	PUB=$BATS_TEST_TMPDIR/pub.git
	url=file://$PUB
	history_simple
}

teardown() {
	stop_servers
}

# many_files <n> <dir>: a commit on topic adding n one-line files under
# <dir>, written by git fast-import (no work tree, no index: git add of
# thousands of files was most of the file's time); a topic checked out
# is brought to it.  The blobs first, then <dir>'s tree by git mktree,
# then the commit: fast-import looks a path up in its directory one
# entry after the other, 15 s of CPU for 20,000 files in one directory.
many_files() {
	local i tree
	for ((i = 1; i <= $1; i++)); do
		printf 'blob\nmark :%d\ndata %d\n%d\n' "$i" $((${#i} + 1)) "$i"
	done | fast_import --quiet --export-marks="$BATS_TEST_TMPDIR/marks" &&
	tree=$(awk '{ printf "100644 blob %s\tf%d.c\n", $2, substr($1, 2) }' \
		"$BATS_TEST_TMPDIR/marks" | git mktree) &&
	test_tick &&
	{
		echo "commit refs/heads/topic"
		echo "author $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL> $GIT_AUTHOR_DATE"
		echo "committer $GIT_COMMITTER_NAME <$GIT_COMMITTER_EMAIL> $GIT_COMMITTER_DATE"
		printf 'data <<EOF\nmany files in %s\nEOF\n' "$2"
		echo "from refs/heads/topic^0"
		echo "M 040000 $tree $2"
	} | fast_import --quiet &&
	if [ "$(git symbolic-ref -q HEAD)" = refs/heads/topic ]; then
		git reset -q --hard topic
	fi
}

@test "a branch that moved, whose messy request of 3,000 files has a report larger than a pipe: its report, and the tool ends" {
	history_partly_pulled partly
	many_files 3000 big
	publish_and_request topic linus topic
	[ "$(git merge-base --all linus topic | wc -l)" = 2 ]
	asked=$(git rev-parse topic)
	test_commit moved big/f1.c again
	git push -q "$PUB" topic
	now=$(git rev-parse topic)
	receiver
	remember_repo
	capture timeout 120 "${TOOL[@]}" --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 1
	grep -q "^tip: $now " "$BATS_TEST_TMPDIR/actual"
	grep -qx "moved: the request asks for $asked" \
		"$BATS_TEST_TMPDIR/actual"
	grep -qx 'verdict: differs: the branch moved since the request' "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
	expect_no_quarantine
}

@test "20,000 rows of a mail against a 20,000-file tip cost a sort, not their product" {
	tool_is_wrapped && skip "the bound is for the tool itself, not a wrapper"
	git checkout -q linus
	many_files 20000 tree
	git init -q --bare "$PUB"

	{
		git request-pull linus "$url" topic | sed '/^ [0-9]* files\{0,1\} changed/,$d' |
			sed '/|/d'
		# one command: bats traces each command of a test's body
		# (about 0.2 ms each), and a loop here cost 7 s
		seq -f ' other/g%.0f.c | 1 +' 20000
		echo " 20000 files changed, 20000 insertions(+)"
	} >"$BATS_TEST_TMPDIR/request" 2>/dev/null
	remember_repo
	# 66 s of CPU when each row was tried against each file
	capture bash -c 'ulimit -t 20 && exec "$@"' - "${TOOL[@]}" \
		--verify="$BATS_TEST_TMPDIR/request" --allow-local --no-fetch linus
	expect_status 1
	grep -qx 'verdict: differs: .*' "$BATS_TEST_TMPDIR/actual"
	grep -c '^  1 other/g[0-9]*\.c$' "$BATS_TEST_TMPDIR/actual" | grep -qx 20000
	expect_unchanged
}

@test "a server that floods its 'remote:' lines: the tool's memory stays small, the request verified" {
	hwm_probe
	publish_and_request topic linus topic
	receiver
	# 12 MB of "remote:" lines before the pack (the server's hook):
	# half as much again as the peak allowed below, which a tool that
	# kept them could not stay under; the tool's own peak is some 2 MB
	# here, and each MB of flood some 0.15 s of CPU, four processes
	# passing it on (48 MB and a bound of 32 MB were 7.6 s of CPU, now
	# 2).  Lines of 1 kB, not 40 bytes:
	# git fetch writes each line of the sideband with a write() of its
	# own, and the tool bounds what it keeps in bytes, not lines
	cat >"$BATS_TEST_TMPDIR/flood" <<-\EOF
	#!/bin/sh
	yes "$(printf 'remote flood %.0s' $(seq 78))" | head -c 12000000 >&2
	exec "$@"
	EOF
	chmod +x "$BATS_TEST_TMPDIR/flood"
	git config --global uploadpack.packObjectsHook "$BATS_TEST_TMPDIR/flood"
	remember_repo
	capture_hwm --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 0
	grep -qx 'verdict: matches: .*' "$BATS_TEST_TMPDIR/actual"
	read -r _ _ kb <"$BATS_TEST_TMPDIR/hwm"
	[ "$kb" -lt 8192 ] || { echo "the tool's peak: $kb kB" >&2; return 1; }
	expect_unchanged
}

@test "a ref the server does not have: one fatal line with git's reason, no internal name" {
	publish_and_request topic linus topic
	sed -i "s| $url topic\$| $url nope|" "$BATS_TEST_TMPDIR/request"
	grep -q " $url nope\$" "$BATS_TEST_TMPDIR/request"
	receiver
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_failure 128 <<-EOF
	fatal: cannot fetch 'nope' from '$url': couldn't find remote ref nope
	EOF
	expect_unchanged
}

@test "--no-fetch: a file:// URL needs no --allow-local, nothing being fetched" {
	publish_and_request topic linus topic
	run_tool --verify="$BATS_TEST_TMPDIR/request" --no-fetch linus
	expect_status 0
	grep -qx 'the tip is in this repository' "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

# hwm_probe: the probe of the tool's peak memory (bench/vmhwm.c), built
# once for the file's tests (a compile is some 150 ms of CPU), in
# BATS_FILE_TMPDIR; skipped when the tool is wrapped or built with a
# sanitizer, whose runtime would be measured instead.
hwm_probe() {
	tool_is_wrapped && skip "the probe measures the tool itself, not a wrapper"
	ldd "$BIN/git-clean-diffstat" | grep -q 'lib[at]san' && skip "a sanitizer's runtime comes first"
	[ -f "$BATS_FILE_TMPDIR/vmhwm.so" ] ||
		{ cc -shared -fPIC -o "$BATS_FILE_TMPDIR/vmhwm.so.$BASHPID" "$TOP/bench/vmhwm.c" &&
		  mv -f "$BATS_FILE_TMPDIR/vmhwm.so.$BASHPID" "$BATS_FILE_TMPDIR/vmhwm.so"; } ||
		skip "no C compiler for the probe"
}

# capture_hwm <arg>...: capture the tool run with <arg>, its peak
# memory in kB in the third word of $BATS_TEST_TMPDIR/hwm.
capture_hwm() {
	capture env LD_PRELOAD="$BATS_FILE_TMPDIR/vmhwm.so" \
		BENCH_VMHWM_PROG=git-clean-diffstat BENCH_VMHWM_FILE="$BATS_TEST_TMPDIR/hwm" \
		"${TOOL[@]}" "$@"
}

# unreachable <name> <url>: the request for topic (publish_and_request's,
# in the file $BATS_TEST_TMPDIR/request), as if it were at <url>, in the
# file $BATS_TEST_TMPDIR/<name>.
unreachable() {
	sed "s|^  $url topic\$|  $2 topic|" "$BATS_TEST_TMPDIR/request" \
		>"$BATS_TEST_TMPDIR/$1" &&
	grep -q "^  $2 topic\$" "$BATS_TEST_TMPDIR/$1"
}

# unreachable_requests: in $BATS_TEST_TMPDIR, the request for topic at a
# closed port of the loopback (refused), at an ssh URL whose ssh prints
# three lines and fails (ssh; GIT_SSH_COMMAND is exported), at a host
# that cannot be looked up (dns), and at $url (file); then cd to a
# receiver.  $refused,
# $ssh_url: their URLs.
unreachable_requests() {
	publish_and_request topic linus topic &&
	refused=git://127.0.0.1:$(free_port)/pub.git &&
	ssh_url=ssh://git.example.org/pub.git &&
	unreachable refused "$refused" &&
	unreachable ssh "$ssh_url" &&
	unreachable dns git://no-such-host.invalid/pub.git &&
	cp "$BATS_TEST_TMPDIR/request" "$BATS_TEST_TMPDIR/file" &&
	cat >"$BATS_TEST_TMPDIR/fake-ssh" <<-\EOF &&
	#!/bin/sh
	echo 'ssh: connect to host git.example.org port 22: Connection refused' >&2
	echo 'kex_exchange_identification: read: Connection reset by peer' >&2
	echo 'Connection reset by 192.0.2.1 port 22' >&2
	exit 255
	EOF
	chmod +x "$BATS_TEST_TMPDIR/fake-ssh" &&
	export GIT_SSH_COMMAND="$BATS_TEST_TMPDIR/fake-ssh" &&
	receiver
}

# What the tool says of each of them, after "cannot fetch 'topic' from ".
refused_reason() {
	printf '%s\n' "'$refused': unable to connect to 127.0.0.1: 127.0.0.1[0: 127.0.0.1]: errno=Connection refused"
}
ssh_reason() {
	printf '%s' "'$ssh_url': ssh: connect to host git.example.org port 22: Connection refused; " \
		'kex_exchange_identification: read: Connection reset by peer; ' \
		'Connection reset by 192.0.2.1 port 22; ' \
		'Could not read from remote repository. ' \
		'Please make sure you have the correct access rights and the repository exists.'
	echo
}

@test "a connection refused: one fatal line with the whole reason, exit 128" {
	unreachable_requests
	run_tool --verify="$BATS_TEST_TMPDIR/refused"
	expect_failure 128 <<-EOF
	fatal: cannot fetch 'topic' from $(refused_reason)
	EOF
}

@test "an ssh that fails saying three lines: one fatal line with all they say, exit 128" {
	unreachable_requests
	run_tool --verify="$BATS_TEST_TMPDIR/ssh"
	expect_failure 128 <<-EOF
	fatal: cannot fetch 'topic' from $(ssh_reason)
	EOF
}

@test "a host that cannot be looked up: one fatal line with the reason, exit 128" {
	unreachable_requests
	run_tool --verify="$BATS_TEST_TMPDIR/dns"
	expect_status 128
	test_cmp /dev/null "$BATS_TEST_TMPDIR/actual"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/stderr")" -eq 1 ]
	grep -q "^fatal: cannot fetch 'topic' from 'git://no-such-host.invalid/pub.git': unable to look up no-such-host.invalid .*[^ ]\$" \
		"$BATS_TEST_TMPDIR/stderr"
	expect_unchanged
}

# unreachable_mbox: the mbox $BATS_TEST_TMPDIR/mbox of the refused, ssh
# and dns requests, and the request over file:// last.
unreachable_mbox() {
	local name
	for name in refused ssh dns; do
		mail_message 7bit "Subject: [GIT PULL] $name" \
			<"$BATS_TEST_TMPDIR/$name" >"$BATS_TEST_TMPDIR/$name.mail" || return
	done
	mail_message 7bit 'Subject: [GIT PULL] file' <"$BATS_TEST_TMPDIR/file" \
		>"$BATS_TEST_TMPDIR/file.mail" &&
	mail_mbox "$BATS_TEST_TMPDIR"/{refused,ssh,dns,file}.mail >"$BATS_TEST_TMPDIR/mbox"
}

@test "in an mbox, each request that cannot be reached is one error line with the whole reason, nothing on stderr" {
	unreachable_requests
	unreachable_mbox
	run_tool --verify="$BATS_TEST_TMPDIR/mbox" --allow-local
	expect_status 1
	expect_no_stderr
	grep '^error: ' "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/errors"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/errors")" -eq 3 ]
	sed -n 1p "$BATS_TEST_TMPDIR/errors" >"$BATS_TEST_TMPDIR/refused.error"
	echo "error: cannot fetch 'topic' from $(refused_reason)" |
		test_cmp - "$BATS_TEST_TMPDIR/refused.error"
	sed -n 2p "$BATS_TEST_TMPDIR/errors" >"$BATS_TEST_TMPDIR/ssh.error"
	echo "error: cannot fetch 'topic' from $(ssh_reason)" |
		test_cmp - "$BATS_TEST_TMPDIR/ssh.error"
	grep -q '^4 pull requests: matches 1, .*errors 3$' "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

@test "--porcelain, in an mbox: each request that cannot be reached has one error record with the whole reason" {
	unreachable_requests
	unreachable_mbox
	run_tool --verify="$BATS_TEST_TMPDIR/mbox" --allow-local --porcelain
	expect_status 1
	expect_no_stderr
	grep '^error ' "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/errors"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/errors")" -eq 3 ]
	{
		echo "error cannot fetch 'topic' from $(refused_reason)"
		echo "error cannot fetch 'topic' from $(ssh_reason)"
	} | test_cmp - <(sed -n 1,2p "$BATS_TEST_TMPDIR/errors")
	expect_unchanged
}

# drip_request <bytes> <seconds> [<limit>]: topic published, served by a
# git daemon behind start_drip_proxy <bytes> <seconds> [<limit>]; the
# request for it at the proxy's URL ($drip_url) in the file
# $BATS_TEST_TMPDIR/drip; then cd to a receiver.
drip_request() {
	publish_and_request topic linus topic &&
	start_git_daemon &&
	start_drip_proxy "${DAEMON_URL##*:}" "$@" &&
	drip_url=git://127.0.0.1:$DRIP_PORT/pub.git &&
	unreachable drip "$drip_url" &&
	receiver
}

# run_timed <args>...: run_tool, killed after 120 s so that a fetch that
# waits for ever fails the test; the seconds it took in $took.
run_timed() {
	local start=$SECONDS
	remember_repo &&
	capture timeout -k 5 120 "${TOOL[@]}" "$@"
	took=$((SECONDS - start))
}

@test "--fetch-stall=2: a server that sends 50 bytes every 0.5 s is slow, not stalled: its request is verified" {
	drip_request 50 0.5
	run_timed --verify="$BATS_TEST_TMPDIR/drip" --fetch-stall=2
	expect_status 0
	grep -qx 'verdict: matches: .*' "$BATS_TEST_TMPDIR/actual"
	expect_no_stderr
	# it did take longer than the stall
	[ "$took" -gt 2 ]
	expect_unchanged
}

@test "--fetch-stall=2: a server that sends part of its answer and goes silent is stopped once nothing came for 2 s" {
	drip_request 100 0.1 150
	run_timed --verify="$BATS_TEST_TMPDIR/drip" --fetch-stall=2
	expect_failure 128 <<-EOF
	fatal: cannot fetch 'topic' from '$drip_url': nothing came for 2 seconds
	EOF
	[ "$took" -lt 30 ]
}

@test "--fetch-stall=2: a server that accepts the connection and never answers is stopped once nothing came for 2 s" {
	publish_and_request topic linus topic
	start_silent_server
	unreachable silent "git://127.0.0.1:$SILENT_PORT/pub.git"
	receiver
	run_timed --verify="$BATS_TEST_TMPDIR/silent" --fetch-stall=2
	expect_failure 128 <<-EOF
	fatal: cannot fetch 'topic' from 'git://127.0.0.1:$SILENT_PORT/pub.git': nothing came for 2 seconds
	EOF
	[ "$took" -lt 30 ]
}

# big_then_good <bytes>: an mbox, $BATS_TEST_TMPDIR/big.mbox, of the
# request with <bytes> of padding after it, then the request alone; cd
# to a receiver that has the tip.
big_then_good() {
	publish_and_request topic linus topic &&
	{ cat "$BATS_TEST_TMPDIR/request"; yes 'padding padding padding' | head -c "$1"; } |
		mail_message 7bit 'Subject: [GIT PULL] big' >"$BATS_TEST_TMPDIR/m.1" &&
	mail_message 7bit 'Subject: [GIT PULL] good' <"$BATS_TEST_TMPDIR/request" \
		>"$BATS_TEST_TMPDIR/m.2" &&
	mail_mbox "$BATS_TEST_TMPDIR"/m.[12] >"$BATS_TEST_TMPDIR/big.mbox" &&
	receiver &&
	git fetch -q "$PUB" topic
}

@test "a message above clean-diffstat.maxMessageSize is reported too large, counted, and the next one is still verified" {
	big_then_good 20000
	git config clean-diffstat.maxMessageSize 10k
	run_tool --verify="$BATS_TEST_TMPDIR/big.mbox" --no-fetch
	expect_status 1
	verdicts >"$BATS_TEST_TMPDIR/summary"
	cat >"$BATS_TEST_TMPDIR/expect" <<-EOF
	message 1: [GIT PULL] big
	error: message 1 is too large (more than 10240 bytes)
	message 2: [GIT PULL] good
	verdict: matches
	2 pull requests: matches 1, messy 0, differs 0, conflicts 0, errors 1
	EOF
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/summary"
	expect_no_stderr
	expect_unchanged
}

@test "--porcelain: a message too large has its error record and verdict failed" {
	big_then_good 20000
	git config clean-diffstat.maxMessageSize 10k
	run_tool --verify="$BATS_TEST_TMPDIR/big.mbox" --no-fetch --porcelain
	expect_status 1
	grep -qx "error message 1 is too large (more than 10240 bytes)" "$BATS_TEST_TMPDIR/actual"
	grep -c "^verdict error$" "$BATS_TEST_TMPDIR/actual" | grep -qx 1
	grep -qx 'summary 2 1 0 0 0 1' "$BATS_TEST_TMPDIR/actual"
}

@test "a bad clean-diffstat.maxMessageSize: one fatal line with git's reason, exit 128" {
	git config clean-diffstat.maxMessageSize 12q
	git init -q --bare "$PUB"
	git request-pull linus "$url" topic >"$BATS_TEST_TMPDIR/request" 2>/dev/null || :
	run_tool --verify="$BATS_TEST_TMPDIR/request" --no-fetch
	expect_status 128
	[ "$(wc -l <"$BATS_TEST_TMPDIR/stderr")" = 1 ]
	grep -q "^fatal: .*bad numeric config value '12q' for 'clean-diffstat.maxmessagesize'" \
		"$BATS_TEST_TMPDIR/stderr"
	git config clean-diffstat.maxMessageSize 0
	run_tool --verify="$BATS_TEST_TMPDIR/request" --no-fetch
	expect_failure 128 <<-\EOF
	fatal: bad clean-diffstat.maxMessageSize: '0' (a size in bytes, such as 64m, is wanted)
	EOF
}

@test "--verify=/dev/zero stops at the bound of a message: one fatal line, exit 128" {
	# unbounded, the tool would pass this limit within seconds
	remember_repo
	capture bash -c 'ulimit -v 1000000; exec timeout 60 "$@"' - \
		"${TOOL[@]}" --verify=/dev/zero --no-fetch
	expect_failure 128 <<-\EOF
	fatal: the message is too large (more than 67108864 bytes)
	EOF
}

@test "one message on stdin above a lowered bound: one fatal line, exit 128" {
	git config clean-diffstat.maxMessageSize 1k
	remember_repo
	capture bash -c 'head -c 5000 /dev/zero | "$@"' - "${TOOL[@]}" --verify --no-fetch
	expect_failure 128 <<-\EOF
	fatal: the message is too large (more than 1024 bytes)
	EOF
}

@test "the bound of a message is read from every scope git reads: global, included, -c, from a subdirectory" {
	mkdir sub
	git config --global clean-diffstat.maxMessageSize 2k
	remember_repo
	capture bash -c 'head -c 5000 /dev/zero | "$@"' - "${TOOL[@]}" --verify --no-fetch
	expect_failure 128 <<-\EOF
	fatal: the message is too large (more than 2048 bytes)
	EOF
	git config --global --unset clean-diffstat.maxMessageSize
	printf '[clean-diffstat]\n\tmaxMessageSize = 3k\n' >"$HOME/bound"
	git config include.path "$HOME/bound"
	remember_repo
	capture bash -c 'cd sub && head -c 5000 /dev/zero | "$@"' - "${TOOL[@]}" --verify --no-fetch
	expect_failure 128 <<-\EOF
	fatal: the message is too large (more than 3072 bytes)
	EOF
	capture bash -c 'head -c 5000 /dev/zero | GIT_CONFIG_COUNT=1 \
		GIT_CONFIG_KEY_0=clean-diffstat.maxMessageSize GIT_CONFIG_VALUE_0=4k "$@"' \
		- "${TOOL[@]}" --verify --no-fetch
	expect_failure 128 <<-\EOF
	fatal: the message is too large (more than 4096 bytes)
	EOF
}

@test "a message of 30 MB in an mbox, above the bound: the tool's memory stays small" {
	hwm_probe
	big_then_good 30000000
	git config clean-diffstat.maxMessageSize 1m
	remember_repo
	capture_hwm --verify="$BATS_TEST_TMPDIR/big.mbox" --no-fetch
	expect_status 1
	grep -qx '2 pull requests: matches 1, messy 0, differs 0, conflicts 0, errors 1' \
		"$BATS_TEST_TMPDIR/actual"
	read -r _ _ kb <"$BATS_TEST_TMPDIR/hwm"
	[ "$kb" -lt 16384 ] || { echo "the tool's peak: $kb kB" >&2; return 1; }
	expect_unchanged
}
