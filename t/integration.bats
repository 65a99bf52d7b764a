#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Where maintainers already work: each recipe of contrib/ and of the
# manual's INTEGRATION section run as its tool runs it, on the document's
# messy history.  Receiving: b4 reading a local mbox; the mutt and
# neomutt macro and aerc's :pipe, their command lines taken from the
# shipped files and run by sh -c on the raw message as the clients run
# them, and neomutt itself in a terminal running the macro; the procmail
# recipe and formail.  Sending: the sendemail-validate hook under git
# send-email, with a sendmail stand-in, and the aliases.  Forges:
# contrib/ci/clean-diffstat-pr.sh with the variables GitHub Actions and
# GitLab CI set.  Nothing leaves the loopback: a request is fetched from
# a git daemon there.
#
# b4, git send-email, neomutt, procmail and formail are Debian's b4,
# git-email, neomutt and procmail; a test of one that is missing skips,
# saying so (.ci/run installs them).
# shellcheck disable=SC2030,SC2031 # each @test is a subshell: its variables are its own

load test_helper
load lib/mail

setup() {
	setup_world
	PUB=$BATS_TEST_TMPDIR/pub.git
	CONTRIB=$TOP/contrib
	# where the shipped recipes look for the repository
	REPO=$HOME/src/linux
}

teardown() {
	stop_servers
}

# needs <command> <debian package>: skip unless <command> is installed.
needs() {
	command -v "$1" >/dev/null || skip "$1 is not installed (Debian: $2)"
}

# publish <ref>...: push to the bare repository $PUB.
publish() {
	[ -d "$PUB" ] || git init -q --bare "$PUB"
	git push -q -f "$PUB" "$@"
}

# sent_request: history_partly_pulled's topic published on a git daemon
# on the loopback and requested into linus by git request-pull; the
# request in the file "request", the clean diffstat in "clean", the
# request as a mail to the maintainer in "message" (Message-Id
# <pull@example.com>).  $url is the URL it names.  The request is
# publish_and_request's (made once per run) with the daemon's URL for
# the file:// one, which is all that tells them apart.
sent_request() {
	history_partly_pulled &&
	url=file://$PUB &&
	publish_and_request topic linus topic &&
	start_git_daemon &&
	url=$DAEMON_URL/pub.git &&
	sed -i "s|^  file://$PUB topic\$|  $url topic|" "$BATS_TEST_TMPDIR/request" &&
	grep -q "^  $url topic\$" "$BATS_TEST_TMPDIR/request" &&
	procedure_diffstat linus topic >"$BATS_TEST_TMPDIR/clean" &&
	as_mail '[GIT PULL] topic' '<pull@example.com>' \
		<"$BATS_TEST_TMPDIR/request" >"$BATS_TEST_TMPDIR/message"
}

# as_mail <subject> <message-id>: stdin as a message to the maintainer.
as_mail() {
	mail_message 8bit "Subject: $1" "Message-Id: $2"
}

# receiver: the maintainer's clone of linus alone (clone_linus's), at
# ~/src/linux where the recipes look for it, and cd there.
receiver() {
	clone_linus "$BATS_TEST_TMPDIR/repo" "$REPO" &&
	cd "$REPO" || return
}

# expect_report: the file "expect" is the report git clean-diffstat
# --verify gives in the current directory, stdin the request, and that
# is the messy verdict with the clean diffstat.
expect_report() {
	git clean-diffstat --verify >"$BATS_TEST_TMPDIR/expect" 2>&1 ||
		[ $? -eq 1 ] &&
	grep -q '^verdict: messy: ' "$BATS_TEST_TMPDIR/expect" &&
	contains "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/clean"
}

# reads_in_a_pager: stdout has no escape sequence, and no line of git's
# own output (the diffstat, its lines indented) is wider than 80
# columns.
reads_in_a_pager() {
	if grep -q $'\e' "$BATS_TEST_TMPDIR/actual"; then
		echo "an escape sequence in the report" >&2
		failed_at
		return
	fi
	if awk '/^ / && length > 80 { print; bad = 1 } END { exit !bad }' \
		"$BATS_TEST_TMPDIR/actual" >&2; then
		echo "lines wider than 80 columns, above" >&2
		failed_at
	fi
}

# contains <file> <block>: the lines of <block> are in <file>, one
# after the other.
contains() {
	[[ $(<"$1") == *"$(<"$2")"* ]] && return
	echo "$1 lacks the lines of $2" >&2
	failed_at
}

# shipped_command <file> <before> <after>: the one command line of a
# shipped recipe, between <before> and <after> (fixed strings).
shipped_command() {
	local line
	line=$(grep -F -- "$2" "$1" | head -n 1)
	[ -n "$line" ] || { echo "no '$2' in $1" >&2; return 1; }
	line=${line#*"$2"}
	printf '%s\n' "${line%%"$3"*}"
}

# mbox_of <file>...: the messages as an mbox on stdout.
mbox_of() {
	mail_mbox "$@"
}

@test "b4 mbox reading a local mbox, piped to --verify: the thread's request checked, the reply that quotes it whole said to quote it" {
	needs b4 b4
	sent_request
	sed 's/^/> /' "$BATS_TEST_TMPDIR/request" |
		as_mail 'Re: [GIT PULL] topic' '<reply@example.com>' |
		sed '/^Subject:/a In-Reply-To: <pull@example.com>' >"$BATS_TEST_TMPDIR/reply"
	mbox_of "$BATS_TEST_TMPDIR/message" "$BATS_TEST_TMPDIR/reply" >"$BATS_TEST_TMPDIR/inbox"
	receiver
	remember_repo
	# shellcheck disable=SC2016 # sh -c's $1 and $2
	capture sh -c 'b4 mbox -m "$1" -o - pull@example.com 2>/dev/null |
		tee "$2" | git clean-diffstat --verify' sh \
		"$BATS_TEST_TMPDIR/inbox" "$BATS_TEST_TMPDIR/thread"
	expect_status 1
	# what b4 gave is the thread, as an mbox (tee kept it, a second b4
	# costing a second of CPU): a report of the request, a line that
	# says the reply quotes it, and the summary
	[ "$(grep -c '^Message-Id: ' "$BATS_TEST_TMPDIR/thread")" -eq 2 ]
	expect_report <"$BATS_TEST_TMPDIR/thread"
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
	sed -n '1p;$p' "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/ends"
	test_cmp - "$BATS_TEST_TMPDIR/ends" <<-EOF
	message 1: [GIT PULL] topic
	1 pull request: matches 0, messy 1, differs 0, conflicts 0, errors 0
	EOF
	grep -qx 'quotes the request of message 1, checked there' "$BATS_TEST_TMPDIR/actual"
	reads_in_a_pager
	expect_unchanged
}

@test "the mutt and neomutt macro's command, run by sh -c on the raw message: the report in \$PAGER" {
	sent_request
	receiver
	cmd=$(shipped_command "$CONTRIB/mail/muttrc" '<pipe-message>' '<enter>')
	[[ $cmd == *'git clean-diffstat --verify'* ]]
	expect_report <"$BATS_TEST_TMPDIR/message"
	remember_repo
	# mutt runs it in the directory it was started in, stdin the raw
	# message and no From_ line; PAGER=cat shows what less would
	cd "$BATS_TEST_TMPDIR"
	export PAGER='cat'
	capture sh -c "$cmd" <"$BATS_TEST_TMPDIR/message"
	expect_status 0
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
	expect_no_stderr
	reads_in_a_pager
	expect_unchanged
}

@test "neomutt itself, in a terminal, runs the shipped macro on the message: the report in \$PAGER" {
	needs neomutt neomutt
	needs script bsdutils
	sent_request
	mbox_of "$BATS_TEST_TMPDIR/message" >"$BATS_TEST_TMPDIR/inbox"
	receiver
	# neomutt pipes a message of an mbox with its From_ line
	git clean-diffstat --verify <"$BATS_TEST_TMPDIR/inbox" >"$BATS_TEST_TMPDIR/expect" || :
	grep -q '^verdict: messy: ' "$BATS_TEST_TMPDIR/expect"
	remember_repo
	cd "$BATS_TEST_TMPDIR"
	printf '#!/bin/sh\ncat >"%s"\n' "$BATS_TEST_TMPDIR/actual" >pager
	chmod +x pager
	printf '%s\n' "set folder=$BATS_TEST_TMPDIR spoolfile=$BATS_TEST_TMPDIR/inbox" \
		'set wait_key=no quit=yes' "source $CONTRIB/mail/muttrc" \
		'push "\cv<quit>"' >neomuttrc
	PAGER=$BATS_TEST_TMPDIR/pager TERM=xterm timeout 60 \
		script -qec "neomutt -n -F neomuttrc -f inbox" /dev/null </dev/null >/dev/null 2>&1
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
	reads_in_a_pager
	expect_unchanged
}

@test "aerc's :pipe -m command, the same in the message list and the viewer, run by sh -c on the raw message" {
	sent_request
	receiver
	binds=$CONTRIB/mail/aerc-binds.conf
	cmd=$(shipped_command "$binds" '<C-v> = :pipe -m ' '<Enter>')
	[ "$(grep -c -F -x "<C-v> = :pipe -m $cmd<Enter>" "$binds")" -eq 2 ]
	sed -n 's/^\[\(.*\)\]$/\1/p' "$binds" | test_cmp - <(printf '%s\n' messages view)
	# aerc splits it into words and joins them with spaces: no quotes
	[[ $cmd != *[\'\"\\]* ]]
	expect_report <"$BATS_TEST_TMPDIR/message"
	remember_repo
	cd "$BATS_TEST_TMPDIR"
	export PAGER='cat'
	capture sh -c "$cmd" <"$BATS_TEST_TMPDIR/message"
	expect_status 0
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
	reads_in_a_pager
	expect_unchanged
}

# procmail_rc: a ~/.procmailrc as the recipe says to write it: the
# tool's directory first on PATH, the repository named, the recipe
# included; then everything delivered to the mbox "delivered".  procmail
# sets HOME from the password file: the test's is given back.
# shellcheck disable=SC2016 # procmail's $HOME and $PATH
procmail_rc() {
	mkdir -p "$HOME/.local/bin" &&
	ln -s "$BIN/git-clean-diffstat" "$HOME/.local/bin/" &&
	printf '%s\n' "HOME=$HOME" 'PATH=$HOME/.local/bin:$PATH' \
		'CLEAN_DIFFSTAT_REPO=$HOME/src/linux' \
		"INCLUDERC=$CONTRIB/mail/procmailrc" '' ':0:' \
		"$BATS_TEST_TMPDIR/delivered" >"$HOME/.procmailrc"
}

@test "procmail, through formail -s on a saved mbox: each request's verdict in X-Clean-Diffstat, a patch untouched" {
	needs procmail procmail
	needs formail procmail
	sent_request
	git clean-diffstat --request-pull linus "$url" topic |
		as_mail '[GIT PULL] topic, clean' '<clean@example.com>' >"$BATS_TEST_TMPDIR/clean-message"
	git format-patch -1 --stdout c3 >"$BATS_TEST_TMPDIR/patch"
	mbox_of "$BATS_TEST_TMPDIR/message" "$BATS_TEST_TMPDIR/patch" \
		"$BATS_TEST_TMPDIR/clean-message" >"$BATS_TEST_TMPDIR/saved"
	receiver
	remember_repo
	procmail_rc
	cd "$BATS_TEST_TMPDIR"
	# -p: the test's world (GIT_CONFIG_NOSYSTEM, ...) kept; procmail's
	# own PATH, on which the tool is not
	capture formail -s procmail -p "$HOME/.procmailrc" <"$BATS_TEST_TMPDIR/saved"
	expect_status 0
	expect_no_stderr
	grep -e '^Subject: ' -e '^X-Clean-Diffstat: ' "$BATS_TEST_TMPDIR/delivered" |
		test_cmp - <(printf '%s\n' 'Subject: [GIT PULL] topic' \
			'X-Clean-Diffstat: messy' \
			'Subject: [PATCH] c3' \
			'Subject: [GIT PULL] topic, clean' \
			'X-Clean-Diffstat: matches')
	# the messages themselves are delivered whole
	[ "$(grep -c '^From ' "$BATS_TEST_TMPDIR/delivered")" -eq 3 ]
	contains "$BATS_TEST_TMPDIR/delivered" "$BATS_TEST_TMPDIR/request"
	expect_unchanged
}

@test "formail -s git clean-diffstat --verify: one run per message of an mbox, each an mbox of one" {
	needs formail procmail
	sent_request
	cp "$BATS_TEST_TMPDIR/message" "$BATS_TEST_TMPDIR/message2"
	mbox_of "$BATS_TEST_TMPDIR/message" "$BATS_TEST_TMPDIR/message2" >"$BATS_TEST_TMPDIR/saved"
	receiver
	remember_repo
	capture formail -s git clean-diffstat --verify <"$BATS_TEST_TMPDIR/saved"
	# formail gives each message with its From_ line: an mbox of one
	mbox_of "$BATS_TEST_TMPDIR/message" |
		git clean-diffstat --verify >"$BATS_TEST_TMPDIR/one" || :
	cat "$BATS_TEST_TMPDIR/one" "$BATS_TEST_TMPDIR/one" >"$BATS_TEST_TMPDIR/expect"
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
	grep -q '^verdict: messy: ' "$BATS_TEST_TMPDIR/one"
	expect_unchanged
}

# send_email <file>...: git send-email the files, with a sendmail
# stand-in that appends what it is given to the file "sent".
send_email() {
	local sendmail=$BATS_TEST_TMPDIR/sendmail
	# shellcheck disable=SC2016 # the stand-in's $1
	printf '#!/bin/sh\ncat >>"%s"\n' "$BATS_TEST_TMPDIR/sent" >"$sendmail"
	chmod +x "$sendmail"
	capture git send-email --confirm=never --quiet \
		--from='A U Thor <author@example.com>' \
		--to='Main Tainer <maintainer@example.com>' \
		--smtp-server="$sendmail" "$@" </dev/null
}

# sender: the sender's repository (history_partly_pulled, the messy
# request made), with the hook installed; cd there.
sender() {
	[ -x "$(git --exec-path)/git-send-email" ] ||
		skip "git send-email is not installed (Debian: git-email)"
	sent_request &&
	cp "$CONTRIB/hooks/sendemail-validate" "$(git rev-parse --git-path hooks)/"
}

@test "sendemail-validate refuses a messy request, showing the clean diffstat; nothing is sent" {
	sender
	git config clean-diffstat.upstream linus
	send_email "$BATS_TEST_TMPDIR/message"
	[ "$status" -ne 0 ]
	[ ! -e "$BATS_TEST_TMPDIR/sent" ]
	grep -qx "sendemail-validate: the pull request's diffstat is not what pulling it into 'linus' changes:" \
		"$BATS_TEST_TMPDIR/stderr"
	grep -q '^verdict: messy: ' "$BATS_TEST_TMPDIR/stderr"
	contains "$BATS_TEST_TMPDIR/stderr" "$BATS_TEST_TMPDIR/clean"
	grep -q 'rejected by sendemail-validate hook' "$BATS_TEST_TMPDIR/stderr"
	grep -qx 'hint: git clean-diffstat --request-pull linus <url> \[<branch>\] writes the' \
		"$BATS_TEST_TMPDIR/stderr"
	# --dry-run is refused the same way
	send_email --dry-run "$BATS_TEST_TMPDIR/message"
	[ "$status" -ne 0 ]
	grep -q '^verdict: messy: ' "$BATS_TEST_TMPDIR/stderr"
}

@test "sendemail-validate lets --request-pull's clean request and a patch go" {
	sender
	git config clean-diffstat.upstream linus
	git clean-diffstat --request-pull linus "$url" topic |
		as_mail '[GIT PULL] topic' '<clean@example.com>' >"$BATS_TEST_TMPDIR/clean-message"
	git format-patch -q -1 -o "$BATS_TEST_TMPDIR/patches" c3
	send_email "$BATS_TEST_TMPDIR/clean-message" "$BATS_TEST_TMPDIR"/patches/*.patch
	expect_status 0
	expect_no_stderr
	grep -e '^Subject: ' "$BATS_TEST_TMPDIR/sent" |
		test_cmp - <(printf '%s\n' 'Subject: [GIT PULL] topic' 'Subject: [PATCH] c3')
}

@test "sendemail-validate: clean-diffstat.remote's default branch, else the branch's upstream, else a clear refusal" {
	sender
	git update-ref refs/remotes/mainline/linus linus
	git symbolic-ref refs/remotes/mainline/HEAD refs/remotes/mainline/linus
	git config clean-diffstat.remote mainline
	send_email --dry-run "$BATS_TEST_TMPDIR/message"
	[ "$status" -ne 0 ]
	grep -q "pulling it into 'mainline/HEAD' changes:\$" "$BATS_TEST_TMPDIR/stderr"
	grep -q '^verdict: messy: ' "$BATS_TEST_TMPDIR/stderr"

	git config --unset clean-diffstat.remote
	git branch -q --set-upstream-to=linus topic
	send_email --dry-run "$BATS_TEST_TMPDIR/message"
	[ "$status" -ne 0 ]
	grep -q "pulling it into 'linus' changes:\$" "$BATS_TEST_TMPDIR/stderr"

	git branch -q --unset-upstream topic
	send_email --dry-run "$BATS_TEST_TMPDIR/message"
	[ "$status" -ne 0 ]
	grep -qx 'sendemail-validate: no branch to check the pull request against: set clean-diffstat.upstream (git config clean-diffstat.upstream linus/master)' \
		"$BATS_TEST_TMPDIR/stderr"
}

@test "the aliases read clean-diffstat.upstream, else clean-diffstat.remote's default branch" {
	history_partly_pulled
	git config include.path "$CONTRIB/aliases.gitconfig"
	git config clean-diffstat.upstream linus
	remember_repo
	[ "$(git cds-upstream)" = linus ]
	capture git pr-check
	expect_status 1
	git clean-diffstat --check linus >"$BATS_TEST_TMPDIR/expect" || :
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
	# paths are the directory's, as for git's own commands
	procedure_diffstat linus topic -- drivers/net >"$BATS_TEST_TMPDIR/net"
	cd drivers
	capture git pr-stat -- net
	expect_status 0
	test_cmp "$BATS_TEST_TMPDIR/net" "$BATS_TEST_TMPDIR/actual"
	capture git pr-explain
	expect_status 1
	git clean-diffstat --explain linus >"$BATS_TEST_TMPDIR/expect" || :
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
	git config --unset clean-diffstat.upstream
	git config clean-diffstat.remote mainline
	[ "$(git cds-upstream)" = mainline/HEAD ]
	git config --unset clean-diffstat.remote
	[ "$(git cds-upstream)" = '@{upstream}' ]
}

# forge_clone [<clone options>...]: the forge's repository (pub.git:
# linus and topic of history_partly_pulled) cloned as a CI job clones
# it, into "ci", at topic's tip, detached; cd there.
forge_clone() {
	history_partly_pulled &&
	publish linus topic &&
	tip=$(git rev-parse topic) &&
	procedure_diffstat linus topic >"$BATS_TEST_TMPDIR/clean" &&
	{ git clean-diffstat --explain linus topic >"$BATS_TEST_TMPDIR/explain" ||
		[ $? -eq 1 ]; } &&
	git clone -q "$@" "file://$PUB" "$BATS_TEST_TMPDIR/ci" &&
	cd "$BATS_TEST_TMPDIR/ci" &&
	git checkout -q --detach "$tip"
}

# github <event>: the variables GitHub Actions sets for a pull request
# of topic into linus.
github() {
	export GITHUB_ACTIONS=true GITHUB_EVENT_NAME=$1 \
		GITHUB_BASE_REF=linus GITHUB_HEAD_REF=topic \
		GITHUB_REF=refs/pull/1/merge \
		GITHUB_STEP_SUMMARY=$BATS_TEST_TMPDIR/step-summary
	: >"$GITHUB_STEP_SUMMARY"
}

# expect_messy_job <summary file>: the job log and the summary of the
# messy pull request.
expect_messy_job() {
	expect_status 0 &&
	grep -qx 'messy: the diff .* shows is not what merging changes' "$BATS_TEST_TMPDIR/actual" &&
	contains "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/clean" &&
	contains "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/explain" &&
	reads_in_a_pager &&
	# the summary: the clean diffstat and the explanation, fenced
	sed -n '/^### What merging it changes$/,/^### /p' "$1" >"$BATS_TEST_TMPDIR/section" &&
	{
		printf '### What merging it changes\n\n```\n'
		cat "$BATS_TEST_TMPDIR/clean"
		printf '```\n\n'
		echo "### How the forge's diff differs"
	} | test_cmp - "$BATS_TEST_TMPDIR/section" &&
	contains "$1" "$BATS_TEST_TMPDIR/explain"
}

@test "the CI script on GitHub: the head checked out, the clean diffstat and --explain in the job summary, nothing failed" {
	forge_clone
	github pull_request
	run_tool_script() { capture sh "$CONTRIB/ci/clean-diffstat-pr.sh"; }
	run_tool_script
	expect_messy_job "$GITHUB_STEP_SUMMARY"
	head -n 1 "$GITHUB_STEP_SUMMARY" |
		test_cmp - <(echo "## Clean diffstat: $(git rev-parse --short "$tip") into origin/linus")
	# CLEAN_DIFFSTAT_STRICT=1: the same, and exit 1
	CLEAN_DIFFSTAT_STRICT=1 run_tool_script
	expect_status 1
}

@test "the CI script on GitHub's test merge (actions/checkout's default) checks the request's head" {
	forge_clone
	git checkout -q --detach origin/linus
	test_tick
	git merge -q --no-ff --no-edit "$tip"
	github pull_request_target
	capture sh "$CONTRIB/ci/clean-diffstat-pr.sh"
	expect_messy_job "$GITHUB_STEP_SUMMARY"
	grep -qx "clean-diffstat-pr: HEAD is GitHub's test merge into origin/linus: checking its second parent" \
		"$BATS_TEST_TMPDIR/stderr"
}

@test "the CI script on GitHub outside a pull request checks nothing and fails nothing" {
	forge_clone
	github push
	capture sh "$CONTRIB/ci/clean-diffstat-pr.sh"
	expect_status 0
	expect_stdout </dev/null
	expect_stderr <<<'clean-diffstat-pr: a push event, not a pull request: nothing to check'
	[ ! -s "$GITHUB_STEP_SUMMARY" ]
}

@test "the CI script on GitLab: a shallow clone without the target deepened and fetched, the summary an artifact" {
	forge_clone --depth=1 --single-branch --branch=topic
	[ "$(git rev-parse --is-shallow-repository)" = true ]
	run ! git rev-parse --verify -q origin/linus
	base=$(git -C "$PUB" merge-base linus topic)
	export GITLAB_CI=true CI_PIPELINE_SOURCE=merge_request_event \
		CI_MERGE_REQUEST_TARGET_BRANCH_NAME=linus \
		CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=topic \
		CI_MERGE_REQUEST_DIFF_BASE_SHA=$base \
		CI_COMMIT_SHA=$tip
	capture sh "$CONTRIB/ci/clean-diffstat-pr.sh"
	expect_messy_job clean-diffstat.md
	grep -qx "GitLab diffs it from $CI_MERGE_REQUEST_DIFF_BASE_SHA." clean-diffstat.md
	[ "$(git rev-parse --is-shallow-repository)" = false ]

	# a branch pipeline: nothing to check
	unset CI_MERGE_REQUEST_TARGET_BRANCH_NAME
	capture sh "$CONTRIB/ci/clean-diffstat-pr.sh"
	expect_status 0
	expect_stderr <<<'clean-diffstat-pr: not a merge request pipeline: nothing to check'
}

@test "the CI script on a clean pull request says so, and shows no explanation" {
	history_simple
	publish linus topic
	procedure_diffstat linus topic >"$BATS_TEST_TMPDIR/clean"
	git clone -q "file://$PUB" "$BATS_TEST_TMPDIR/ci"
	cd "$BATS_TEST_TMPDIR/ci"
	git checkout -q --detach origin/topic
	github pull_request
	capture sh "$CONTRIB/ci/clean-diffstat-pr.sh"
	expect_status 0
	head -n 1 "$BATS_TEST_TMPDIR/actual" |
		test_cmp - <(echo 'clean: the diff GitHub shows is what merging changes')
	contains "$GITHUB_STEP_SUMMARY" "$BATS_TEST_TMPDIR/clean"
	run ! grep -q "^### How the forge's diff differs" "$GITHUB_STEP_SUMMARY"
}

@test "the manual's INTEGRATION section names every recipe of contrib/, and the README the three most common" {
	manpage=$TOP/Documentation/git-clean-diffstat.1.in
	sed -n '/^\.SH INTEGRATION$/,/^\.SH /p' "$manpage" | sed 's/\\-/-/g' >"$BATS_TEST_TMPDIR/section"
	[ -s "$BATS_TEST_TMPDIR/section" ]
	for f in mail/muttrc mail/aerc-binds.conf mail/procmailrc hooks/sendemail-validate \
		ci/clean-diffstat-pr.sh ci/github/clean-diffstat.yml ci/gitlab-ci.yml aliases.gitconfig; do
		[ -f "$CONTRIB/$f" ]
		grep -qF "contrib/$f" "$BATS_TEST_TMPDIR/section" || {
			echo "contrib/$f is not in INTEGRATION" >&2
			false
		}
	done
	for key in clean-diffstat.upstream clean-diffstat.remote; do
		sed -n '/^\.SH CONFIGURATION$/,/^\.SH /p' "$manpage" | sed 's/\\-/-/g' |
			grep -qx "\.B $key"
	done
	for recipe in 'b4 mbox' 'pipe-message' 'contrib/hooks/sendemail-validate'; do
		grep -qF "$recipe" "$TOP/README"
	done
}
