#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Real setups that once broke the tool: what they must give is the
# procedure's diffstat, or git's own error, whatever the merge drivers,
# the processes they leave behind, the signals, the alternates, the
# language, the submodules, the signed commits and the paths.
# shellcheck disable=SC2030,SC2031 # each @test is a subshell: its exports are local

load test_helper

setup() {
	setup_world
	history_partly_pulled
}

teardown() {
	local pid

	[ -z "${GNUPGHOME:-}" ] || gpgconf --kill gpg-agent

	# whatever a test's merge driver left running
	if [ -f "$BATS_TEST_TMPDIR/sleepers" ]; then
		while read -r pid; do
			kill "$pid" 2>/dev/null || :
		done <"$BATS_TEST_TMPDIR/sleepers"
	fi
}

# history_with_driver <driver>: a new repository where main and topic
# change either end of notes.txt, which .gitattributes on main (the
# upstream) gives to the merge driver <driver> (a shell command taking
# %O %A %B as $1 $2 $3, merging them with git merge-file).
history_with_driver() {
	git init -q "$BATS_TEST_TMPDIR/drivers" && cd "$BATS_TEST_TMPDIR/drivers" || return
	test_commit base notes.txt 1 2 3 4 5 6 7 8 9 10
	git branch topic
	on topic sed -i s/^10$/ten/ notes.txt
	on main sed -i s/^1$/one/ notes.txt
	echo 'notes.txt merge=custom' >.gitattributes
	commit_all attributes
	# shellcheck disable=SC2016 # the driver's $1 $2 $3, not ours
	printf '%s\n' '#!/bin/sh' "$1" 'exec git merge-file -q "$2" "$1" "$3"' \
		>"$BATS_TEST_TMPDIR/driver"
	chmod +x "$BATS_TEST_TMPDIR/driver"
	git config merge.custom.driver "'$BATS_TEST_TMPDIR/driver' %O %A %B"
}

# A signing key with no passphrase in the test's HOME, and every commit
# from now on signed with it.
sign_commits() {
	export GNUPGHOME="$HOME/.gnupg"
	mkdir -m 700 "$GNUPGHOME"
	gpg --batch --quiet --passphrase '' --quick-gen-key \
		"$GIT_COMMITTER_NAME <$GIT_COMMITTER_EMAIL>" ed25519 sign never \
		2>/dev/null
	git config --global user.signingKey "$GIT_COMMITTER_EMAIL"
	git config --global commit.gpgSign true
}

@test "log.showSignature with signed merge bases: --check and --explain say what they say without it" {
	command -v gpg >/dev/null || skip "no gpg"
	sign_commits
	cd .. && rm -rf repo && history_partly_pulled
	git log -1 --format=%G? x | grep -qx '[GU]'
	for mode in --check --explain; do
		git config --unset log.showSignature || :
		run_tool "$mode" linus topic
		mv "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/without"
		git config log.showSignature true
		run_tool "$mode" linus topic
		expect_status 1
		expect_stdout <"$BATS_TEST_TMPDIR/without"
		expect_no_stderr
		expect_unchanged
	done
}

@test "a merge driver leaving a process that holds the pipes: no wait for it" {
	history_with_driver "sleep 600 & echo \$! >>'$BATS_TEST_TMPDIR/sleepers'"
	expect_procedure main topic
	# the timeout only keeps a tool that waits from hanging the suite
	TOOL=(timeout 60 "${TOOL[@]}")
	run_tool main topic
	matches_procedure
	# the tool's own sleeper, the last, outlived it: it did not wait
	kill -0 "$(tail -n 1 "$BATS_TEST_TMPDIR/sleepers")"
}

@test "a merge driver that prints on stdout: the procedure's diffstat, its words on stderr" {
	# ending with hex digits, just before merge-tree's tree id
	history_with_driver "printf 'custom: merging\\nchecksum cafe'"
	expect_procedure main topic
	run_tool main topic
	expect_status 0
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
	printf 'custom: merging\nchecksum cafe' | expect_stderr
	expect_unchanged
}

@test "alternates one level too deep once the quarantine adds its own: git's error in one fatal line, exit 128" {
	# repo -> a1 -> ... -> a6, which has all the objects: the deepest
	# chain git follows, one level too deep once the quarantine puts
	# repo's objects behind its own
	mv .git/objects ../a6 && mkdir -p .git/objects/info
	for i in 1 2 3 4 5; do
		mkdir -p "../a$i/info"
		echo "$BATS_TEST_TMPDIR/a$((i + 1))" >"../a$i/info/alternates"
	done
	echo "$BATS_TEST_TMPDIR/a1" >.git/objects/info/alternates
	git merge-tree --write-tree linus topic >/dev/null
	linus=$(git rev-parse linus) topic=$(git rev-parse topic)
	# what merge-tree itself says with the quarantine's alternate
	mkdir "$BATS_TEST_TMPDIR/q"
	status=0
	GIT_OBJECT_DIRECTORY=$BATS_TEST_TMPDIR/q \
	GIT_ALTERNATE_OBJECT_DIRECTORIES=$PWD/.git/objects \
		git merge-tree --write-tree "$linus" "$topic" \
		>"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/git-says" || status=$?
	[ "$status" -eq 1 ] && [ ! -s "$BATS_TEST_TMPDIR/out" ]
	run_tool linus topic
	# all git said, its prefix left out, in the one line of a fatal
	{ printf 'fatal: ' && sed 's/^error: //' "$BATS_TEST_TMPDIR/git-says" |
		paste -sd ' ' -; } | expect_failure 128
}

# in_german <command>...: run it as a user whose git speaks German.
in_german() {
	env -u LC_ALL LANG=C.UTF-8 LANGUAGE=de "$@"
}

requires_german_git() {
	in_german git rev-parse --verify nope 2>&1 |
		grep -q '^Schwerwiegend: ' || skip "this git speaks no German"
}

# in_both_languages <args>...: the tool in English, then in German; the
# German run's output and status must be the English one's, and the
# repository unchanged.
in_both_languages() {
	local english
	run_tool "$@" &&
	english=$status &&
	mv "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/english" &&
	mv "$BATS_TEST_TMPDIR/stderr" "$BATS_TEST_TMPDIR/english-stderr" &&
	remember_repo &&
	capture in_german "${TOOL[@]}" "$@" &&
	expect_status "$english" &&
	expect_stdout <"$BATS_TEST_TMPDIR/english" &&
	expect_stderr <"$BATS_TEST_TMPDIR/english-stderr" &&
	expect_unchanged
}

@test "git speaking German: the same conflict kinds as in English" {
	requires_german_git
	git init -q "$BATS_TEST_TMPDIR/kinds" && cd "$BATS_TEST_TMPDIR/kinds"
	seq 1 9 >common.c && seq 11 19 >gone.c && seq 21 29 >kind.c
	mkdir src && seq 1 5 >src/a.c
	commit_all base
	git branch topic
	on main sh -c 'sed -i 5s/.*/main/ common.c && git rm -q gone.c &&
		echo main >new.c && git mv src lib &&
		rm kind.c && ln -s elsewhere kind.c'
	on topic sh -c 'sed -i 5s/.*/topic/ common.c && sed -i 3s/.*/t/ gone.c &&
		echo topic >new.c && echo new >src/new.c && echo t >>kind.c'
	in_both_languages main topic
	expect_status 1
	for kind in content add/add modify/delete 'file location' 'distinct types'; do
		grep -qF "($kind" "$BATS_TEST_TMPDIR/stderr"
	done
}

@test "git speaking German: unrelated histories get the same hint as in English" {
	requires_german_git
	git checkout -q --orphan other
	git rm -q -r -f .
	test_commit other other.c
	in_both_languages linus other
	expect_status 128
	grep -q allow-unrelated-histories "$BATS_TEST_TMPDIR/stderr"
}

@test "git speaking German: no upstream configured, said as in English" {
	requires_german_git
	git checkout -q topic
	in_both_languages
	expect_status 128
}

@test "a repository path and a current directory with newlines in them: the procedure's diffstat" {
	nl='
'
	cd .. && mv repo "re${nl}po" && cd "re${nl}po"
	mkdir -p "fs/ext${nl}4" && cd "fs/ext${nl}4"
	expect_procedure linus topic
	run_tool linus topic
	matches_procedure
}

@test "a setting the tool reads written as a key alone (remote.<name>.promisor, core.quotePath): the procedure's diffstat on every git" {
	# gits 2.43 to 2.47 die of such a key in the trace2 that tells the
	# tool its settings
	printf '[remote "origin"]\n\tpromisor\n[core]\n\tquotePath\n' >>.git/config
	expect_procedure linus topic
	run_tool linus topic
	matches_procedure
}

# history_with_submodule <base> <topic>: a new repository with a
# submodule "sub" (a gitlink only) whose commit topic moves; its
# submodule.sub.ignore in .gitmodules is <base> at first and <topic> on
# topic ("" for none); main is checked out.
history_with_submodule() {
	git init -q "$BATS_TEST_TMPDIR/sub-repo" && cd "$BATS_TEST_TMPDIR/sub-repo" ||
		return
	test_commit one file.c
	test_commit two file.c
	git update-index --add --cacheinfo "160000,$(git rev-parse one),sub"
	git config -f .gitmodules submodule.sub.path sub
	git config -f .gitmodules submodule.sub.url ./sub
	[ -z "$1" ] || git config -f .gitmodules submodule.sub.ignore "$1"
	git add .gitmodules && test_tick && git commit -q -m "add sub"
	git checkout -q -b topic
	git update-index --cacheinfo "160000,$(git rev-parse two),sub"
	git config -f .gitmodules --unset-all submodule.sub.ignore || :
	[ -z "$2" ] || git config -f .gitmodules submodule.sub.ignore "$2"
	git add .gitmodules && test_tick && git commit -q -m "topic: move sub"
	on main sh -c 'echo more >>file.c'
}

@test "submodule.<name>.ignore=all from the merged .gitmodules, not the work tree's: the procedure's diffstat" {
	history_with_submodule "" all
	expect_procedure main topic
	run_tool main topic
	matches_procedure
}

@test "submodule.<name>.ignore=all that the merge drops from .gitmodules: the procedure's diffstat" {
	history_with_submodule all ""
	expect_procedure main topic
	run_tool main topic
	matches_procedure
}

@test "diff.ignoreSubmodules=all where the merged .gitmodules sets nothing: the procedure's diffstat" {
	history_with_submodule none ""
	git config diff.ignoreSubmodules all
	expect_procedure main topic
	run_tool main topic
	matches_procedure
}

@test "the merged .gitmodules seen from a subdirectory: the procedure's diffstat" {
	history_with_submodule "" all
	mkdir -p fs/ext4 && cd fs/ext4
	expect_procedure main topic
	run_tool main topic
	matches_procedure
}

# shallow_receiver: topic published and requested from the repository,
# and a --depth=1 clone of its linus to receive the request, cd there:
# the merge base of linus and topic is cut off.
shallow_receiver() {
	url=file://$BATS_TEST_TMPDIR/pub.git &&
	publish topic &&
	request linus topic &&
	git clone -q --depth=1 --single-branch -b linus "file://$PWD" \
		"$BATS_TEST_TMPDIR/shallow" &&
	cd "$BATS_TEST_TMPDIR/shallow" &&
	[ "$(git rev-parse --is-shallow-repository)" = true ]
}

@test "a shallow clone, sender side: the merge base is missing from it, and how to deepen it" {
	shallow_receiver
	git fetch -q --depth=1 "$url" topic:topic
	run_tool linus topic
	expect_failure 128 <<-\EOF
	fatal: the merge base of 'linus' and 'topic' is missing from this shallow clone
	hint: deepen it with 'git fetch --deepen=<depth>'
	EOF
}

@test "a shallow clone, receiver side: --verify says the merge base is missing from it, not that the histories are unrelated" {
	shallow_receiver
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local linus
	expect_failure 128 <<-\EOF
	fatal: the merge base of the tip and 'linus' is missing from this shallow clone; deepen it with 'git fetch --deepen=<depth>'
	EOF
}

@test "a shallow clone, receiver side, with --no-fetch: the same true reason" {
	shallow_receiver
	git fetch -q --depth=1 "$url" topic
	# shellcheck disable=SC2154 # request() sets tip
	git cat-file -e "$tip"
	run_tool --verify="$BATS_TEST_TMPDIR/request" --no-fetch linus
	expect_failure 128 <<-\EOF
	fatal: the merge base of the tip and 'linus' is missing from this shallow clone; deepen it with 'git fetch --deepen=<depth>'
	EOF
}
