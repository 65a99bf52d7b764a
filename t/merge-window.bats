#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# --verify on an mbox of many pull requests, as a maintainer holds them
# in a merge window: fetched side by side (--jobs), reported in the
# mbox's order, the same bytes whatever the number of jobs; and
# --in-order, each request checked against the upstream as it will be
# once the requests before it are pulled.
# shellcheck disable=SC2030,SC2031 # each @test is a subshell: its variables are its own

load test_helper

setup() {
	setup_world
	git init -q repo
	cd repo || return
	seq 1 20 >core.c
	commit_all base
	git branch -q linus
}

teardown() { stop_servers; }

# subsystem <name> [<from>]: a branch <name> from linus (or <from>) with a
# file of its own, published as the repository <name>.git, requested
# from linus into the mbox; cd back to repo.
subsystem() {
	local name=$1 pub=$BATS_TEST_TMPDIR/$1.git
	git checkout -q -b "$name" "${2:-linus}" &&
	mkdir -p "$name" && seq 1 5 >"$name/$name.c" &&
	commit_all "$name: work" &&
	git init -q --bare "$pub" &&
	git push -q "$pub" "$name" &&
	add_request "$name" "file://$pub" &&
	git checkout -q linus
}

# subsystems <name>...: subsystem <name> for each, one after the other.
# The first test of the run to ask for them builds them and keeps the
# repository, the published repositories, the mbox and the tick
# (memo_find, as publish_and_request keeps a request); the others copy
# them, some forty processes less a subsystem (git request-pull is a
# script of some thirty).  The mbox's URLs name the test's directory,
# kept as @TEST@.
subsystems() {
	local key name memo tmp text
	key="subsystems $* at $test_tick"
	memo_env
	if memo_find subsystems "$key"; then
		text=
		IFS= read -r -d '' text <"$memo/mbox" || :
		cd "$BATS_TEST_TMPDIR" && rm -rf repo &&
		cp -a "$memo/repo" "$memo"/*.git "$BATS_TEST_TMPDIR/" &&
		printf '%s' "${text//@TEST@/"$BATS_TEST_TMPDIR"}" >>"$BATS_TEST_TMPDIR/mbox" &&
		read -r test_tick <"$memo/tick" &&
		export GIT_COMMITTER_DATE="$test_tick -0700" \
			GIT_AUTHOR_DATE="$test_tick -0700" &&
		cd repo && git update-index -q --refresh >/dev/null
		return
	fi
	for name; do
		subsystem "$name" || return
	done
	text=
	IFS= read -r -d '' text <"$BATS_TEST_TMPDIR/mbox" || :
	memo_new || return 0
	{
		cp -a "$BATS_TEST_TMPDIR/repo" "$BATS_TEST_TMPDIR"/*.git "$tmp/" &&
		printf '%s' "${text//"$BATS_TEST_TMPDIR"/@TEST@}" >"$tmp/mbox" &&
		echo "$test_tick" >"$tmp/tick" &&
		memo_keep "$tmp" "$key"
	} || rm -rf "$tmp"
}

# add_request <branch> <url>: git request-pull of <branch> from linus,
# as one more message of the mbox.
add_request() {
	{
		printf 'From sender@example.com Thu Apr  7 15:13:13 2005\n'
		printf 'Subject: [GIT PULL] %s\n\n' "$1"
		git request-pull linus "$2" "$1"
		echo
	} >>"$BATS_TEST_TMPDIR/mbox"
}

# receiver: a clone of linus alone (clone_linus's), and cd there.
receiver() {
	clone_linus . "$BATS_TEST_TMPDIR/receiver" &&
	cd "$BATS_TEST_TMPDIR/receiver" || return
}

@test "an mbox fetched side by side: the same bytes and status for every --jobs, in the mbox's order" {
	subsystems net fs mm
	for s in sound drm usb; do
		subsystem "$s"
	done
	# one that cannot be fetched, among them
	subsystem gone
	rm -rf "$BATS_TEST_TMPDIR/gone.git"
	receiver
	remember_repo
	for j in 1 2 4 8; do
		capture "${TOOL[@]}" --verify="$BATS_TEST_TMPDIR/mbox" --allow-local --jobs="$j"
		expect_status 1
		mv "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/out.$j"
		capture "${TOOL[@]}" --verify="$BATS_TEST_TMPDIR/mbox" --allow-local --jobs="$j" --porcelain
		expect_status 1
		mv "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/porcelain.$j"
	done
	for j in 2 4 8; do
		test_cmp "$BATS_TEST_TMPDIR/out.1" "$BATS_TEST_TMPDIR/out.$j"
		test_cmp "$BATS_TEST_TMPDIR/porcelain.1" "$BATS_TEST_TMPDIR/porcelain.$j"
	done
	grep '^message ' "$BATS_TEST_TMPDIR/out.1" | cut -d: -f1 >"$BATS_TEST_TMPDIR/order"
	printf 'message %s\n' 1 2 3 4 5 6 7 | test_cmp - "$BATS_TEST_TMPDIR/order"
	tail -n 1 "$BATS_TEST_TMPDIR/out.1" |
		grep -qx '7 pull requests: matches 6, messy 0, differs 0, conflicts 0, errors 1'
	expect_unchanged
}

@test "git daemons on the loopback: a request per repository, fetched side by side, each verified" {
	subsystems net fs mm
	start_git_daemon "$BATS_TEST_TMPDIR"
	sed -i "s|file://$BATS_TEST_TMPDIR/|$DAEMON_URL/|" "$BATS_TEST_TMPDIR/mbox"
	receiver
	run_tool --verify="$BATS_TEST_TMPDIR/mbox" --jobs=3
	expect_status 0
	grep -qx '3 pull requests: matches 3, messy 0, differs 0, conflicts 0, errors 0' \
		"$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

# shared_topic: a topic branch (an immutable branch) that two subsystems
# both merged and both request.
shared_topic() {
	git checkout -q -b shared linus &&
	seq 1 7 >shared.c && commit_all "shared: the topic" &&
	git checkout -q -b net linus && git merge -q --no-edit shared &&
	seq 1 5 >net.c && commit_all "net: work" &&
	git checkout -q -b fs linus && git merge -q --no-edit shared &&
	seq 1 3 >fs.c && commit_all "fs: work" &&
	git checkout -q linus &&
	for s in net fs; do
		git init -q --bare "$BATS_TEST_TMPDIR/$s.git" &&
		git push -q "$BATS_TEST_TMPDIR/$s.git" "$s" &&
		add_request "$s" "file://$BATS_TEST_TMPDIR/$s.git" || return
	done
}

@test "--in-order: a shared topic branch that an earlier request brings is named; without it, both match" {
	shared_topic
	receiver
	run_tool --verify="$BATS_TEST_TMPDIR/mbox" --allow-local
	expect_status 0
	grep -qx '2 pull requests: matches 2, messy 0, differs 0, conflicts 0, errors 0' \
		"$BATS_TEST_TMPDIR/actual"
	run_tool --verify="$BATS_TEST_TMPDIR/mbox" --allow-local --in-order
	expect_status 1
	grep -qx "checked against 'HEAD' with message 1 pulled first" "$BATS_TEST_TMPDIR/actual"
	grep -qx 'verdict: differs: it carries work that message 1 already brings' \
		"$BATS_TEST_TMPDIR/actual"
	grep -qx '2 pull requests: matches 1, messy 0, differs 1, conflicts 0, errors 0' \
		"$BATS_TEST_TMPDIR/actual"
	run_tool --verify="$BATS_TEST_TMPDIR/mbox" --allow-local --in-order --porcelain
	expect_status 1
	grep -qx 'earlier 1' "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

@test "--in-order: a request that conflicts with an earlier one says with which" {
	git checkout -q -b net linus && sed -i 's/^5$/net/' core.c && commit_all "net: core"
	git checkout -q -b fs linus && sed -i 's/^5$/fs/' core.c && commit_all "fs: core"
	git checkout -q linus
	for s in net fs; do
		git init -q --bare "$BATS_TEST_TMPDIR/$s.git"
		git push -q "$BATS_TEST_TMPDIR/$s.git" "$s"
		add_request "$s" "file://$BATS_TEST_TMPDIR/$s.git"
	done
	receiver
	run_tool --verify="$BATS_TEST_TMPDIR/mbox" --allow-local
	expect_status 0
	run_tool --verify="$BATS_TEST_TMPDIR/mbox" --allow-local --in-order
	expect_status 1
	grep -qx 'it conflicts with message 1, pulled before it' "$BATS_TEST_TMPDIR/actual"
	grep -qx '2 pull requests: matches 1, messy 0, differs 0, conflicts 1, errors 0' \
		"$BATS_TEST_TMPDIR/actual"
	run_tool --verify="$BATS_TEST_TMPDIR/mbox" --allow-local --in-order --porcelain
	grep -qx 'conflict-with 1' "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

@test "^C while fetches run side by side: every fetch stops with the tool, exit 130, nothing left" {
	subsystems net fs mm
	receiver
	mkfifo "$BATS_TEST_TMPDIR/hanging"
	# shellcheck disable=SC2016 # the code is for the fake git to expand
	fake_git 'case " $* " in *" fetch "*)
		echo $$ >"'"$BATS_TEST_TMPDIR"'/hanging"; exec sleep 600;; esac'
	start_tool --verify="$BATS_TEST_TMPDIR/mbox" --allow-local --jobs=3
	exec {fifo}<>"$BATS_TEST_TMPDIR/hanging"
	hanging=
	for i in 1 2 3; do
		read -r -t 60 -u "$fifo" pid || { echo "fetch $i never started" >&2; return 1; }
		hanging="$hanging $pid"
	done
	exec {fifo}<&-
	kill -INT -- "-$TOOL_PID"
	wait_tool
	expect_status 130
	for pid in $hanging; do
		! kill -0 "$pid" 2>/dev/null || { kill "$pid"; echo "fetch $pid outlived the tool" >&2; return 1; }
	done
	expect_no_quarantine
	expect_unchanged
}

@test "--jobs and --in-order are --verify's; --jobs takes a number from 1" {
	for args in '--jobs=2 linus' '--in-order linus' '--verify --jobs=0' '--verify --jobs=x'; do
		# shellcheck disable=SC2086 # the words of args
		run_tool $args
		expect_status 129
	done
}
