#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# --verify against what a stranger can send: a mail of many rows, a
# request of many files, a server that floods or says why it failed.
# What it costs is bounded, what reaches the user is one clear line.
# shellcheck disable=SC2030,SC2031 # each @test is a subshell: its variables are its own

load test_helper

setup() {
	setup_world
	PUB=$BATS_TEST_TMPDIR/pub.git
	url=file://$PUB
	history_simple
	git init -q --bare "$PUB"
}

# many_files <n> <dir>: a commit on topic adding n one-line files under
# <dir>, written by git fast-import (no work tree, no index: git add of
# thousands of files was most of the file's time); a topic checked out
# is brought to it.
many_files() {
	local i
	test_tick
	{
		echo "commit refs/heads/topic"
		echo "author $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL> $GIT_AUTHOR_DATE"
		echo "committer $GIT_COMMITTER_NAME <$GIT_COMMITTER_EMAIL> $GIT_COMMITTER_DATE"
		printf 'data <<EOF\nmany files in %s\nEOF\n' "$2"
		echo "from refs/heads/topic^0"
		for ((i = 1; i <= $1; i++)); do
			printf 'M 100644 inline %s/f%d.c\ndata %d\n%d\n' "$2" "$i" $((${#i} + 1)) "$i"
		done
	} | git fast-import --quiet &&
	if [ "$(git symbolic-ref -q HEAD)" = refs/heads/topic ]; then
		git reset -q --hard topic
	fi
}

@test "a branch that moved, whose messy request of 3,000 files has a report larger than a pipe: its report, and the tool ends" {
	history_partly_pulled partly
	many_files 3000 big
	git push -q "$PUB" topic
	git request-pull linus "$url" topic >"$BATS_TEST_TMPDIR/request"
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

	{
		git request-pull linus "$url" topic | sed '/^ [0-9]* files\{0,1\} changed/,$d' |
			sed '/|/d'
		for ((i = 1; i <= 20000; i++)); do
			echo " other/g$i.c | 1 +"
		done
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
	tool_is_wrapped && skip "the probe measures the tool itself, not a wrapper"
	ldd "$BIN/git-clean-diffstat" | grep -q 'lib[at]san' && skip "a sanitizer's runtime comes first"
	cc -shared -fPIC -o "$BATS_TEST_TMPDIR/vmhwm.so" "$TOP/bench/vmhwm.c" ||
		skip "no C compiler for the probe"
	git push -q "$PUB" topic
	git request-pull linus "$url" topic >"$BATS_TEST_TMPDIR/request"
	receiver
	# 100 MB of "remote:" lines before the pack (the server's hook)
	cat >"$BATS_TEST_TMPDIR/flood" <<-\EOF
	#!/bin/sh
	yes 'remote flood remote flood remote flood' | head -c 100000000 >&2
	exec "$@"
	EOF
	chmod +x "$BATS_TEST_TMPDIR/flood"
	git config --global uploadpack.packObjectsHook "$BATS_TEST_TMPDIR/flood"
	remember_repo
	capture env LD_PRELOAD="$BATS_TEST_TMPDIR/vmhwm.so" \
		BENCH_VMHWM_PROG=git-clean-diffstat BENCH_VMHWM_FILE="$BATS_TEST_TMPDIR/hwm" \
		"${TOOL[@]}" --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 0
	grep -qx 'verdict: matches: .*' "$BATS_TEST_TMPDIR/actual"
	read -r _ _ kb <"$BATS_TEST_TMPDIR/hwm"
	[ "$kb" -lt 32768 ] || { echo "the tool's peak: $kb kB" >&2; return 1; }
	expect_unchanged
}

@test "a ref the server does not have: one fatal line with git's reason, no internal name" {
	git push -q "$PUB" topic
	git request-pull linus "$url" topic | sed "s| $url topic\$| $url nope|" \
		>"$BATS_TEST_TMPDIR/request"
	grep -q " $url nope\$" "$BATS_TEST_TMPDIR/request"
	receiver
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_failure 128 <<-EOF
	fatal: cannot fetch 'nope' from '$url': couldn't find remote ref nope
	EOF
	expect_unchanged
}

@test "--no-fetch: a file:// URL needs no --allow-local, nothing being fetched" {
	git push -q "$PUB" topic
	git request-pull linus "$url" topic >"$BATS_TEST_TMPDIR/request"
	run_tool --verify="$BATS_TEST_TMPDIR/request" --no-fetch linus
	expect_status 0
	grep -qx 'the tip is in this repository' "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}
