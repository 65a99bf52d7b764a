#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Every way a run can be interrupted ends in a clean stop or a clear
# error, with nothing left in TMPDIR and the repository untouched:
# signals while merge-tree runs, readers that go away, a merge-tree that
# dies or fails, a full disk for the quarantine, an unusable TMPDIR.

load test_helper

setup() {
	setup_world
	history_partly_pulled
}

# hanging_gits [<command>...]: gits whose <command>s (default: merge-tree),
# once started, write their pids to the fifo $BATS_TEST_TMPDIR/hanging and
# wait to be killed.
hanging_gits() {
	mkfifo "$BATS_TEST_TMPDIR/hanging"
	# shellcheck disable=SC2016 # the code is for the fake git to expand
	fake_git 'case " '"${*:-merge-tree}"' " in *" $1 "*)
		echo $$ >"'"$BATS_TEST_TMPDIR"'/hanging"; exec sleep 600;; esac'
}

# start_tool_until_hanging <n> <args>...: start_tool, and wait until n of
# its gits hang (their pids in $hanging) and the quarantine the merge
# writes into is there.
start_tool_until_hanging() {
	local fifo n=$1 pid
	shift
	start_tool "$@"
	hanging=
	# read-write, so that opening it does not wait for the writer; the
	# timeout only keeps a tool that never merges from hanging the suite
	exec {fifo}<>"$BATS_TEST_TMPDIR/hanging"
	while [ "$n" -gt 0 ] && read -r -t 60 -u "$fifo" pid; do
		hanging="$hanging $pid"
		n=$((n - 1))
	done
	exec {fifo}<&-
	[ "$n" = 0 ] || { echo "$n of the gits never started" >&2; return 1; }
	[ -n "$(ls -A "$TMPDIR")" ] || { echo "no quarantine while merging" >&2; return 1; }
}

# expect_death_by <signal>: the tool died of <signal>, quietly, and the
# gits that hung with it; the repository is unchanged, nothing left.
expect_death_by() {
	local pid
	wait_tool
	expect_status $((128 + $(kill -l "$1"))) &&
	expect_stdout </dev/null &&
	expect_no_stderr &&
	for pid in $hanging; do
		if kill -0 "$pid" 2>/dev/null; then
			kill "$pid"
			echo "the tool's git $pid outlived it" >&2
			return 1
		fi
	done &&
	expect_unchanged
}

@test "SIGINT, SIGTERM or SIGHUP to the tool while merge-tree runs: it dies of it, merge-tree too, quietly, nothing left" {
	hanging_gits
	for sig in INT TERM HUP; do
		start_tool_until_hanging 1 linus topic
		kill -"$sig" "$TOOL_PID"
		expect_death_by "$sig"
	done
}

@test "SIGTERM while merge-tree and merge-base run side by side (--check): both die with the tool, nothing left" {
	hanging_gits merge-tree merge-base
	start_tool_until_hanging 2 --check linus topic
	kill -TERM "$TOOL_PID"
	expect_death_by TERM
}

@test "SIGTERM to --verify while merge-tree runs: it dies with the tool, nothing left" {
	git request-pull linus "$PWD" topic >"$BATS_TEST_TMPDIR/request"
	hanging_gits merge-tree
	start_tool_until_hanging 1 --verify="$BATS_TEST_TMPDIR/request" --allow-local linus
	kill -TERM "$TOOL_PID"
	expect_death_by TERM
}

# wait_for_read_of_stdin <pid>: wait (60 s at most) until the process
# has no child left and is blocked in read(2) of its standard input or
# in poll(2), as /proc/<pid>/syscall says on x86-64 (syscalls 0 and 7);
# elsewhere, return at once.
wait_for_read_of_stdin() {
	local i call kids
	[ "$(uname -m)" = x86_64 ] && [ -r "/proc/$1/task/$1/children" ] || return 0
	for ((i = 0; i < 600; i++)); do
		read -r call <"/proc/$1/syscall" || return 0
		kids=$(<"/proc/$1/task/$1/children")
		case $kids,$call in ,"0 0x0 "* | ,"7 "*) return 0 ;; esac
		sleep 0.1
	done
	echo "the tool never read its standard input" >&2
	return 1
}

# verify_request: topic published to $BATS_TEST_TMPDIR/pub.git and
# requested from linus, the request in $BATS_TEST_TMPDIR/request; cd to
# a receiver.  By t/lib/requests's helpers, which make the same request
# and clone once per run (git request-pull and a real clone were some
# 0.45 s of CPU; verify.bats asks for the same ones).
verify_request() {
	publish_and_request topic linus topic &&
	receiver
}

@test "^C to the whole process group while --verify fetches: exit 130, never a failed fetch" {
	verify_request
	mkfifo "$BATS_TEST_TMPDIR/hanging"
	# shellcheck disable=SC2016 # the code is for the fake git to expand
	fake_git 'case " $* " in *" fetch "*)
		echo $$ >"'"$BATS_TEST_TMPDIR"'/hanging"; exec sleep 600;; esac'
	for i in 1 2 3 4 5; do
		start_tool_until_hanging 1 --verify="$BATS_TEST_TMPDIR/request" --allow-local
		kill -INT -- "-$TOOL_PID"
		expect_death_by INT
	done
}

@test "^C while --verify waits for the mail on its standard input: exit 130, nothing left" {
	verify_request
	mkfifo "$BATS_TEST_TMPDIR/hanging" "$BATS_TEST_TMPDIR/stdin"
	# the last git before the tool reads the mail itself (git init of
	# the fetches' repository) notes that it ran; nothing is written
	# to the mail
	# shellcheck disable=SC2016 # the code is for the fake git to expand
	fake_git 'case "$*" in *" init "*)
		echo $$ >"'"$BATS_TEST_TMPDIR"'/hanging";; esac'
	# the fifo held open for writing, by us and not by the tool: its
	# standard input waits for a mail that never comes, and would end
	# when we close it
	exec {keep}<>"$BATS_TEST_TMPDIR/stdin"
	start_tool --verify --allow-local <"$BATS_TEST_TMPDIR/stdin" {keep}<&-
	exec {fifo}<>"$BATS_TEST_TMPDIR/hanging"
	read -r -t 60 -u "$fifo" hanging || { echo "the mail was never read" >&2; exec {keep}<&-; return 1; }
	exec {fifo}<&-
	# ^C when the tool itself waits for its standard input, not while
	# git init still runs
	wait_for_read_of_stdin "$TOOL_PID"
	kill -INT -- "-$TOOL_PID"
	# the tool ends before its input does (60 s at most); then an end
	# of file, for a tool that did not stop at ^C
	for ((i = 0; i < 600; i++)); do
		kill -0 "$TOOL_PID" 2>/dev/null || break
		sleep 0.1
	done
	exec {keep}<&-
	expect_death_by INT
}

@test "^C or ^\\ to the whole process group while merge-tree runs: exit 130 or 131, quietly, nothing left" {
	hanging_gits
	for sig in INT QUIT; do
		start_tool_until_hanging 1 linus topic
		kill -"$sig" -- "-$TOOL_PID"
		expect_death_by "$sig"
	done
}

# run_tool_into_head <args>...: run_tool with stdout read by head -n 1,
# which goes away after the first line.
run_tool_into_head() {
	remember_repo
	{
		status=0
		"${TOOL[@]}" "$@" 2>"$BATS_TEST_TMPDIR/stderr" || status=$?
		echo "$status" >"$BATS_TEST_TMPDIR/status"
	} | head -n 1 >"$BATS_TEST_TMPDIR/actual"
	status=$(cat "$BATS_TEST_TMPDIR/status")
}

@test "a reader that goes away after the first line: that line, SIGPIPE's status, quietly, nothing left" {
	# a patch far larger than a pipe holds, so that the tool is still
	# writing when the reader goes
	local i text
	text=$(seq 1 200)
	mkdir -p big/d{1..200}
	for ((i = 1; i <= 200; i++)); do
		printf '%s\n' "$text" >"big/d$i/f"
	done
	commit_all big
	for format in --stat -p; do
		run_tool "$format" linus topic
		head -n 1 "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/first-line"
		run_tool_into_head "$format" linus topic
		test_cmp "$BATS_TEST_TMPDIR/first-line" "$BATS_TEST_TMPDIR/actual"
		expect_no_stderr
		expect_unchanged
		# the short diffstat may have been written whole before the
		# reader went
		[ "$format" = --stat ] && [ "$status" -eq 0 ] || expect_status 141
	done
	grep -q '^diff --git a/' "$BATS_TEST_TMPDIR/first-line"
}

# capture_into_closed_pipe <args>...: capture the tool given <args>,
# its stdout a pipe whose reader has gone.
capture_into_closed_pipe() {
	remember_repo
	# shellcheck disable=SC2016 # perl's variables
	capture perl -e 'pipe my $r, my $w or die; close $r;
		open STDOUT, ">&", $w or die; exec @ARGV or die' \
		"${TOOL[@]}" "$@"
}

@test "a reader gone before the tool starts writing: SIGPIPE's status, quietly, nothing left" {
	capture_into_closed_pipe -p linus topic
	expect_status 141
	expect_no_stderr
	expect_unchanged
}

@test "a reader gone in every mode: SIGPIPE's status, quietly, as git" {
	local args
	# --verify of a request whose tip is here: nothing to fetch
	git request-pull linus "$PWD" topic >"$BATS_TEST_TMPDIR/request"
	for args in --version "--check linus topic" "--explain linus topic" \
		"--porcelain linus topic" \
		"--verify=$BATS_TEST_TMPDIR/request --allow-local --no-fetch linus" \
		"--verify=$BATS_TEST_TMPDIR/request --allow-local --no-fetch --porcelain linus"; do
		# shellcheck disable=SC2086 # the words of args are the arguments
		capture_into_closed_pipe $args
		expect_status 141
		expect_no_stderr
		expect_unchanged
	done
}

# A full disk for the output: /dev/full takes no byte.
@test "a failed write of the output is fatal in every mode, as in git, exit 128" {
	git init -q --bare "$BATS_TEST_TMPDIR/pub.git"
	git push -q "$BATS_TEST_TMPDIR/pub.git" topic
	local args url="file://$BATS_TEST_TMPDIR/pub.git"
	git request-pull linus "$url" topic >"$BATS_TEST_TMPDIR/request"
	for args in --version -h "--check linus topic" "--explain linus topic" \
		"--porcelain linus topic" "--porcelain -z linus topic" \
		"--request-pull linus $url topic" \
		"--request-pull -p linus $url topic" \
		"--verify=$BATS_TEST_TMPDIR/request --allow-local --no-fetch linus" \
		"--verify=$BATS_TEST_TMPDIR/request --allow-local --no-fetch --porcelain linus"; do
		remember_repo
		# shellcheck disable=SC2016,SC2086 # the inner shell's "$@"; the words of args are the arguments
		capture sh -c '"$@" >/dev/full' sh "${TOOL[@]}" $args
		expect_failure 128 <<<"fatal: write failure on standard output: No space left on device"
	done
	# the default mode: git diff writes there itself, and its own words,
	# in its version's wording, are passed on
	remember_repo
	# shellcheck disable=SC2016 # the inner shell's "$@"
	capture sh -c '"$@" >/dev/full' sh "${TOOL[@]}" linus topic
	expect_status 128
	grep -q '^fatal: .*write failure on standard output' "$BATS_TEST_TMPDIR/stderr"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/stderr")" -eq 1 ]
	expect_stdout </dev/null
	expect_unchanged
}

# dying_merge_tree <bytes> <how it ends>: a merge-tree that passes on the
# first <bytes> of the real one's output (kept whole in
# $BATS_TEST_TMPDIR/merge-tree.out) and then ends that way.
dying_merge_tree() {
	# shellcheck disable=SC2016 # the code is for the fake git to expand
	fake_git '[ "$1" != merge-tree ] || {
		"$real_git" "$@" >"'"$BATS_TEST_TMPDIR"'/merge-tree.out"
		head -c '"$1"' "'"$BATS_TEST_TMPDIR"'/merge-tree.out"; '"$2"'; }'
}

@test "merge-tree killed in the middle of its tree id is a fatal error, exit 128" {
	# shellcheck disable=SC2016 # expanded by the fake git
	dying_merge_tree 20 'kill -9 $$'
	run_tool linus topic
	expect_failure 128 <<<"fatal: git merge-tree failed (signal 9)"
	[ "$(wc -c <"$BATS_TEST_TMPDIR/merge-tree.out")" -gt 20 ]
}

@test "merge-tree exiting 0 in the middle of its messages is a fatal error, exit 128" {
	dying_merge_tree 45 'exit 0'
	run_tool linus topic
	expect_status 128
	grep -q '^fatal: ' "$BATS_TEST_TMPDIR/stderr"
	expect_stdout </dev/null
	expect_unchanged
	[ "$(wc -c <"$BATS_TEST_TMPDIR/merge-tree.out")" -gt 45 ]
}

@test "merge-tree failing with a message: git's message passed on, exit 128" {
	# shellcheck disable=SC2016 # the code is for the fake git to expand
	fake_git '[ "$1" != merge-tree ] || { echo "fatal: failure to merge" >&2; exit 128; }'
	run_tool linus topic
	expect_failure 128 <<<"fatal: failure to merge"
}

@test "a full disk for the quarantine: git's own error, exit 128, nothing left" {
	unshare -m true 2>/dev/null || skip "no mount namespace here"
	! tool_is_wrapped || skip "the tool runs under a wrapper (valgrind) that needs TMPDIR itself"
	# the merge writes blobs far larger than the 64 KiB tmpfs
	seq 1 100000 >big.txt
	commit_all "big on topic"
	git checkout -q linus
	seq 1 100000 >big.txt
	echo linus >>big.txt
	commit_all "big on linus"
	mkdir "$BATS_TEST_TMPDIR/full"
	remember_repo
	# shellcheck disable=SC2016 # the inner shell expands $1
	capture unshare -m sh -c '
		dir=$1 && shift &&
		mount -t tmpfs -o size=64k tmpfs "$dir" &&
		TMPDIR=$dir "$@"
		rc=$?
		left=$(ls -A "$dir")
		[ -z "$left" ] || { echo "left: $left" >&2; exit 99; }
		exit $rc' sh "$BATS_TEST_TMPDIR/full" "${TOOL[@]}" linus topic
	expect_status 128
	grep -q '^fatal: ' "$BATS_TEST_TMPDIR/stderr"
	expect_stdout </dev/null
	expect_unchanged
}

@test "a TMPDIR below a regular file is a fatal error, exit 128, nothing written" {
	! tool_is_wrapped || skip "the tool runs under a wrapper (valgrind) that needs TMPDIR itself"
	echo x >"$BATS_TEST_TMPDIR/plain"
	TMPDIR=$BATS_TEST_TMPDIR/plain/sub run_tool linus topic
	expect_failure 128 <<-EOF
	fatal: cannot create a temporary object directory in '$BATS_TEST_TMPDIR/plain/sub': Not a directory
	EOF
}
