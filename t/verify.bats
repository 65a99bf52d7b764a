#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# --verify: pull requests written by the real git request-pull (and by
# --request-pull) on the document's histories, sent over file:// (and
# git:// and http:// from servers on the loopback), checked in a
# receiver's clone that has only the upstream:
# the tip fetched, the request's diffstat compared with the clean one
# and with request-pull's own, and the receiver's repository untouched.
# Then a server that never answers, what an untrusted URL or ref tries,
# and the mail encodings.
# shellcheck disable=SC2030,SC2031 # each @test is a subshell: its variables are its own

load test_helper
load lib/mail

setup() {
	setup_world
	PUB=$BATS_TEST_TMPDIR/pub.git
	url=file://$PUB
}

teardown() {
	stop_servers
}

# simple_request: history_simple's topic published and requested, the
# request in the file $r.
simple_request() {
	history_simple &&
	publish_and_request topic linus topic &&
	r=$BATS_TEST_TMPDIR/request
}

# The lines of the report before the verdict, for a tip fetched as asked.
# shellcheck disable=SC2154 # tip and subject are request's (t/lib/requests.bash)
fetched_header() {
	printf '%s\n' "pull request: $url topic" "tip: $tip $subject" \
		"fetched: the tip is the request's"
}

# run_tool_again <args>...: run_tool, the state of the repository not
# taken again: expect_unchanged compares with the one taken before the
# first run (run_tool's or remember_repo's), which no run since may
# have changed either.  For the runs after the first on a repository
# the test has not changed: taking its state is three processes.
run_tool_again() {
	capture "${TOOL[@]}" "$@"
}

@test "a clean request over file://: fetched, matches, exit 0, the receiver untouched" {
	simple_request
	receiver
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 0
	{
		fetched_header
		cat <<-EOF
		request's diffstat: 3 files changed, 17 insertions(+), 2 deletions(-)
		clean diffstat:     3 files changed, 17 insertions(+), 2 deletions(-)
		verdict: matches: the request's diffstat is what pulling it changes
		EOF
	} | expect_stdout
	expect_no_stderr
	expect_unchanged
	run ! git cat-file -e "$tip"
}

@test "the request on stdin, and from '-', is the same as from a file" {
	simple_request
	receiver
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	mv "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/from-file"
	run_tool_again --verify --allow-local <"$BATS_TEST_TMPDIR/request"
	expect_status 0
	test_cmp "$BATS_TEST_TMPDIR/from-file" "$BATS_TEST_TMPDIR/actual"
	run_tool_again --verify=- --allow-local <"$BATS_TEST_TMPDIR/request"
	expect_status 0
	test_cmp "$BATS_TEST_TMPDIR/from-file" "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

@test "one mail, one report: from a message file, on stdin and as an mbox of that message alone" {
	simple_request
	mail_message 7bit 'Subject: [GIT PULL] topic' <"$r" >"$r.eml"
	mail_mbox "$r.eml" >"$r.mbox"
	receiver
	remember_repo
	for how in '' --porcelain; do
		run_tool_again $how --verify="$r.eml" --allow-local
		expect_status 0
		mv "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/from-file"
		run_tool_again $how --verify --allow-local <"$r.eml"
		expect_status 0
		test_cmp "$BATS_TEST_TMPDIR/from-file" "$BATS_TEST_TMPDIR/actual"
		run_tool_again $how --verify="$r.mbox" --allow-local
		expect_status 0
		test_cmp "$BATS_TEST_TMPDIR/from-file" "$BATS_TEST_TMPDIR/actual"
	done
	expect_unchanged
}

@test "one mail that cannot be verified: the same fatal error from a message file and from an mbox of it alone" {
	simple_request
	mail_message 7bit 'Subject: [GIT PULL] topic' <"$r" >"$r.eml"
	mail_mbox "$r.eml" >"$r.mbox"
	receiver
	remember_repo
	for input in "$r.eml" "$r.mbox"; do
		run_tool_again --verify="$input" --allow-local --no-fetch
		expect_failure 128 <<-EOF
		fatal: the tip $tip is not in this repository, and --no-fetch forbids fetching 'topic' from '$url'
		EOF
	done
}

# on_terminal <args>...: git clean-diffstat <args> with its stderr on a
# pseudo-terminal (script(1)), what it wrote there in the file tty, its
# stdout in the file actual, its exit status in $status.  As
# run_tool_again, it does not take the state of the repository: a test
# that expects it unchanged takes it first (remember_repo).
on_terminal() {
	command -v script >/dev/null || skip "no script(1)"
	status=0
	script -qefc "git clean-diffstat $* >$BATS_TEST_TMPDIR/actual" /dev/null \
		>"$BATS_TEST_TMPDIR/tty" </dev/null || status=$?
}

# twice_in_mbox: history_simple's request twice in an mbox, $r.mbox;
# cd to a receiver that has the tip.
twice_in_mbox() {
	simple_request &&
	mail_message 7bit 'Subject: [GIT PULL] one' <"$r" >"$r.1" &&
	mail_message 7bit 'Subject: [GIT PULL] two' <"$r" >"$r.2" &&
	mail_mbox "$r".[12] >"$r.mbox" &&
	receiver &&
	git fetch -q "$PUB" topic
}

@test "on a terminal, stderr shows how many requests are done, as git's progress does; stdout is the report" {
	twice_in_mbox
	remember_repo
	on_terminal --verify="$r.mbox" --no-fetch
	expect_status 0
	tr '\r' '\n' <"$BATS_TEST_TMPDIR/tty" | sed 's/ *$//' | grep . >"$BATS_TEST_TMPDIR/lines"
	# a stream: how many are done, the total being unknown until the end
	grep -qx 'Verifying pull requests: 0' "$BATS_TEST_TMPDIR/lines"
	grep -qx 'Verifying pull requests: 1' "$BATS_TEST_TMPDIR/lines"
	tail -n 1 "$BATS_TEST_TMPDIR/lines" | grep -qx 'Verifying pull requests: 2, done.'
	run_tool_again --verify="$r.mbox" --no-fetch
	expect_no_stderr
	mv "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/not-on-terminal"
	on_terminal --verify="$r.mbox" --no-fetch
	test_cmp "$BATS_TEST_TMPDIR/not-on-terminal" "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

@test "an mbox on a pipe: the first report is on stdout before the last message is written, and every message is reported" {
	twice_in_mbox
	run_tool --verify="$r.mbox" --no-fetch
	expect_status 0
	mv "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/from-file"
	mkfifo "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/out"
	"${TOOL[@]}" --verify --no-fetch <"$BATS_TEST_TMPDIR/in" \
		>"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/stderr" &
	pid=$!
	exec {w}>"$BATS_TEST_TMPDIR/in" {rd}<"$BATS_TEST_TMPDIR/out"
	# the first message, and the From_ line that ends it
	awk '/^From author@example.com /{n++} {print} n == 2 {exit}' "$r.mbox" >&"$w"
	: >"$BATS_TEST_TMPDIR/actual"
	while read -r -t 30 -u "$rd" line; do
		printf '%s\n' "$line" >>"$BATS_TEST_TMPDIR/actual"
		case $line in verdict:*) break;; esac
	done
	grep -q '^verdict: matches' "$BATS_TEST_TMPDIR/actual" ||
		{ echo "no report before the last message came" >&2; exec {w}>&-; return 1; }
	# the rest of the mbox, after that From_ line
	awk '/^From author@example.com /{n++; if (n == 2) next} n >= 2 {print}' "$r.mbox" >&"$w"
	exec {w}>&-
	cat <&"$rd" >>"$BATS_TEST_TMPDIR/actual"
	exec {rd}<&-
	status=0
	wait "$pid" || status=$?
	expect_status 0
	test_cmp "$BATS_TEST_TMPDIR/from-file" "$BATS_TEST_TMPDIR/actual"
	expect_no_stderr
}

@test "the fetches running are in the progress line" {
	twice_in_mbox
	on_terminal --verify="$r.mbox" --allow-local --jobs=1
	expect_status 0
	tr '\r' '\n' <"$BATS_TEST_TMPDIR/tty" | grep -q ': 0, 1 fetching'
}

@test "no progress on a terminal with --no-progress or -q; --progress shows it where stderr is no terminal" {
	twice_in_mbox
	remember_repo
	for quiet in --no-progress -q; do
		on_terminal --verify="$r.mbox" --no-fetch "$quiet"
		expect_status 0
		[ ! -s "$BATS_TEST_TMPDIR/tty" ]
	done
	run_tool_again --verify="$r.mbox" --no-fetch --progress
	expect_status 0
	tr '\r' '\n' <"$BATS_TEST_TMPDIR/stderr" |
		grep -qx 'Verifying pull requests: 2, done.'
	run_tool_again --verify="$r.mbox" --no-fetch --progress --no-progress
	expect_no_stderr
	expect_unchanged
}

# messy_request: the document's messy history requested; its merge
# base in $base, the procedure's clean diffstat in the file clean; cd to
# the receiver.
messy_request() {
	history_partly_pulled &&
	publish_and_request topic linus topic &&
	base=$(git merge-base linus topic) &&
	procedure_diffstat linus topic >"$BATS_TEST_TMPDIR/clean" &&
	receiver
}

# expect_messy_report: the report of messy_request's request.
expect_messy_report() {
	{
		fetched_header
		cat <<-EOF
		request's diffstat: 8 files changed, 47 insertions(+), 7 deletions(-)
		clean diffstat:     5 files changed, 20 insertions(+), 5 deletions(-)
		verdict: messy: it is git request-pull's diffstat, from one merge base alone:
		  ${base:0:12} x2
		what pulling it changes is:
		EOF
		cat "$BATS_TEST_TMPDIR/clean"
	} | expect_stdout
}

@test "the document's messy request: messy, request-pull's merge base named, the clean diffstat printed" {
	messy_request
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 1
	expect_messy_report
	expect_no_stderr
	expect_unchanged
}

# verifies_messy_porcelain: topic published and requested into linus,
# then the receiver's --porcelain records of that messy request, every
# one, and the receiver untouched.
verifies_messy_porcelain() {
	publish_and_request topic linus topic
	base=$(git merge-base linus topic)
	receiver
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local --porcelain
	expect_status 1
	expect_stdout <<-EOF
	message 1
	url $url
	ref topic
	tip $tip $tip fetched
	request 8 47 7
	clean 5 20 5
	base $base
	only-request 2 Makefile
	only-request 25 fs/btrfs/ctree.c
	only-request 2 fs/ext4/inode.c
	verdict messy
	summary 1 0 1 0 0 0
	EOF
	expect_unchanged
}

@test "--porcelain: the records of a messy request" {
	history_partly_pulled
	verifies_messy_porcelain
}

@test "SHA-256 repositories on both sides: fetched, the same verdict, 64-digit ids" {
	GIT_DEFAULT_HASH=sha256 history_partly_pulled
	[ "$(git rev-parse --show-object-format)" = sha256 ]
	git init -q --bare --object-format=sha256 "$PUB"
	verifies_messy_porcelain
	[ ${#base} -eq 64 ]
	[ "$(git rev-parse --show-object-format)" = sha256 ]
	run ! git cat-file -e "$tip"
}

@test "--porcelain before --verify is --verify's, not --explain's" {
	simple_request
	receiver
	run_tool --porcelain --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 0
	grep -qx 'verdict matches' "$BATS_TEST_TMPDIR/actual"
}

@test "--request-pull's message on the messy history matches" {
	history_partly_pulled
	publish topic
	git clean-diffstat --request-pull linus "$url" topic >"$BATS_TEST_TMPDIR/request"
	receiver
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 0
	grep -qx 'verdict: matches: .*' "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

@test "--no-fetch, the tip already in the repository: nothing fetched, the URL never used" {
	simple_request
	rm -rf "$PUB"
	run_tool --verify="$BATS_TEST_TMPDIR/request" --no-fetch linus
	expect_status 0
	{
		printf '%s\n' "pull request: $url topic" "tip: $tip $subject" \
			"the tip is in this repository"
		cat <<-EOF
		request's diffstat: 3 files changed, 17 insertions(+), 2 deletions(-)
		clean diffstat:     3 files changed, 17 insertions(+), 2 deletions(-)
		verdict: matches: the request's diffstat is what pulling it changes
		EOF
	} | expect_stdout
	expect_unchanged
}

@test "the tip already here and its server gone: verified at once, one note says the branch could not be re-read, exit 0" {
	simple_request
	receiver
	git fetch -q "$PUB" topic
	rm -rf "$PUB"
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 0
	{
		printf '%s\n' "pull request: $url topic" "tip: $tip $subject" \
			"the tip is in this repository"
		cat <<-EOF
		note: the branch could not be re-read: cannot fetch 'topic' from '$url': '$PUB' does not appear to be a git repository
		request's diffstat: 3 files changed, 17 insertions(+), 2 deletions(-)
		clean diffstat:     3 files changed, 17 insertions(+), 2 deletions(-)
		verdict: matches: the request's diffstat is what pulling it changes
		EOF
	} | expect_stdout
	expect_no_stderr
	expect_unchanged
	run_tool_again --verify="$BATS_TEST_TMPDIR/request" --allow-local --porcelain
	expect_status 0
	grep -qx "tip $tip $tip local" "$BATS_TEST_TMPDIR/actual"
	grep -qx "note refetch-failed cannot fetch 'topic' from '$url': '$PUB' does not appear to be a git repository" \
		"$BATS_TEST_TMPDIR/actual"
	grep -qx 'verdict matches' "$BATS_TEST_TMPDIR/actual"
}

@test "the tip already here and the branch since moved: the fetch's tip is verified, as without it" {
	moved_request
	git fetch -q "$PUB" "$asked"
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 1
	expect_moved_report
}

# moved_request: history_simple's topic requested, then moved on by a
# commit and published; the ids asked for and now there in $asked and
# $now; cd to the receiver.
moved_request() {
	simple_request &&
	asked=$tip &&
	test_commit c5 drivers/net/phy.c c5 &&
	publish topic &&
	now=$(git rev-parse topic) &&
	receiver
}

# expect_moved_report: the report of moved_request's request.
expect_moved_report() {
	expect_stdout <<-EOF
	pull request: $url topic
	tip: $now c5
	moved: the request asks for $asked
	request's diffstat: 3 files changed, 17 insertions(+), 2 deletions(-)
	clean diffstat:     3 files changed, 18 insertions(+), 2 deletions(-)
	verdict: differs: the branch moved since the request
	counted differently:
	  request 15, clean +16 -0 drivers/net/phy.c
	EOF
}

@test "a branch that moved since the request: both ids, differs" {
	moved_request
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 1
	expect_moved_report
	expect_unchanged
}

@test "upstream merged part of the branch from elsewhere: differs, upstream has those changes" {
	simple_request
	git checkout -q linus
	test_merge c2 "Merge c2 from elsewhere"
	receiver
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 1
	{
		fetched_header
		cat <<-EOF
		request's diffstat: 3 files changed, 17 insertions(+), 2 deletions(-)
		note: the shortlog lists 2 commits that pulling it does not bring
		clean diffstat:     1 file changed, 1 insertion(+), 1 deletion(-)
		verdict: differs: 'HEAD' already has 2 of its 3 commits
		only in the request:
		  2 drivers/net/eth.c
		  15 drivers/net/phy.c
		EOF
	} | expect_stdout
	expect_unchanged
}

@test "a request whose merge conflicts: the conflicted paths, exit 1" {
	history_simple
	test_commit "topic: eth" drivers/net/eth.c topic-line
	publish_and_request topic linus topic
	git checkout -q linus
	test_commit "linus: eth" drivers/net/eth.c linus-line
	receiver
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 1
	{
		printf '%s\n' "pull request: $url topic" "tip: $tip $subject" \
			"fetched: the tip is the request's"
		cat <<-EOF
		request's diffstat: 3 files changed, 18 insertions(+), 2 deletions(-)
		verdict: conflicts: merging it into 'HEAD' conflicts:
		  drivers/net/eth.c (content)
		EOF
	} | expect_stdout
	expect_unchanged
}

@test "an annotated tag: tags/<name> fetched and peeled to the tip" {
	history_simple
	git tag -a -m 'for vN' for-linus topic
	publish topic tag for-linus
	request linus for-linus
	receiver
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 0
	head -n 3 "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/head"
	printf '%s\n' "pull request: $url tags/for-linus" "tip: $tip $subject" \
		"fetched: the tip is the request's" | test_cmp - "$BATS_TEST_TMPDIR/head"
	expect_unchanged
}

@test "a signed tag: verified as its commit" {
	command -v ssh-keygen >/dev/null || skip "no ssh-keygen"
	history_simple
	ssh-keygen -q -t ed25519 -N '' -C tester -f "$HOME/key"
	git config gpg.format ssh
	git config user.signingKey "$HOME/key.pub"
	git tag -s -m 'signed for vN' for-linus topic
	publish topic tag for-linus
	request linus for-linus
	receiver
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 0
	grep -qx "tip: $tip $subject" "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

@test "mail encodings: quoted-printable, base64, CRLF and multipart give the plain text's report" {
	history_partly_pulled
	publish_and_request topic linus topic
	r=$BATS_TEST_TMPDIR/request
	mail_message quoted-printable 'Subject: [GIT PULL] qp' <"$r" >"$r.qp"
	mail_message base64 'Subject: [GIT PULL] b64' <"$r" >"$r.b64"
	mail_crlf <"$r" | mail_message base64 'Subject: [GIT PULL] crlf' |
		mail_crlf >"$r.crlf"
	echo '<p>html</p>' | mail_part text/html 7bit >"$r.html"
	mail_part 'text/plain; charset=utf-8' quoted-printable <"$r" >"$r.text"
	{
		mail_headers 'Subject: [GIT PULL] alternative'
		mail_multipart alternative b0undary "$r.html" "$r.text"
	} >"$r.multipart"
	receiver
	run_tool --verify="$r" --allow-local
	expect_status 1
	mv "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/plain"
	for enc in qp b64 crlf multipart; do
		run_tool_again --verify="$r.$enc" --allow-local
		expect_status 1
		test_cmp "$BATS_TEST_TMPDIR/plain" "$BATS_TEST_TMPDIR/actual"
		expect_unchanged
	done
}

@test "an mbox of several requests: a report each, a reply skipped, one summary line" {
	history_partly_pulled
	publish_and_request topic linus topic
	r=$BATS_TEST_TMPDIR/request
	mail_message quoted-printable 'Subject: [GIT PULL] messy' <"$r" >"$r.1"
	echo 'Thanks, pulled.' | mail_message 7bit 'Subject: Re: [GIT PULL] messy' >"$r.2"
	git clean-diffstat --request-pull linus "$url" topic |
		mail_message base64 'Subject: [GIT PULL] clean' >"$r.3"
	mail_mbox "$r".[1-3] >"$r.mbox"
	receiver
	run_tool --verify="$r.mbox" --allow-local
	expect_status 1
	verdicts >"$BATS_TEST_TMPDIR/summary"
	cat >"$BATS_TEST_TMPDIR/expect" <<-EOF
	message 1: [GIT PULL] messy
	verdict: messy
	message 3: [GIT PULL] clean
	verdict: matches
	2 pull requests: matches 1, messy 1, differs 0, conflicts 0, errors 0
	EOF
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/summary"
	expect_unchanged
}

@test "a tip an earlier request of the mbox fetched is fetched again, not taken for the receiver's own" {
	simple_request
	mail_message 7bit 'Subject: [GIT PULL] first' <"$r" >"$r.1"
	mail_message 7bit 'Subject: [GIT PULL] again' <"$r" >"$r.2"
	mail_mbox "$r".[12] >"$r.mbox"
	receiver
	run_tool --verify="$r.mbox" --allow-local
	expect_status 0
	printf '%s\n' "message 1: [GIT PULL] first" \
		"fetched: the tip is the request's" \
		"message 2: [GIT PULL] again" \
		"fetched: the tip is the request's" |
		test_cmp - <(grep '^message \|^fetched\|in this repository' \
			"$BATS_TEST_TMPDIR/actual")
	expect_no_stderr
	expect_unchanged
}

@test "control characters from the mail (subjects, a URL) and of the tip's subject are shown escaped, never raw" {
	history_simple
	git commit -q --allow-empty -m "$(printf 'c4 \033[2J')"
	publish_and_request topic linus topic
	r=$BATS_TEST_TMPDIR/request
	L="https://example.org/$(printf '\033')[2Jpub.git topic" \
		perl -pe 's/^  file:.*$/  $ENV{L}/' "$r" |
		mail_message 7bit 'Subject: =?utf-8?q?=1B=5B2J_clear?=' >"$r.1"
	mail_message 7bit 'Subject: [GIT PULL] fine' <"$r" >"$r.2"
	mail_mbox "$r".[12] >"$r.mbox"
	receiver
	run_tool --verify="$r.mbox" --allow-local
	expect_status 1
	printf '%s\n' 'message 1: "\033[2J clear"' \
		'error: refusing to fetch from "https://example.org/\033[2Jpub.git": control character in URL' |
		test_cmp - <(head -n 2 "$BATS_TEST_TMPDIR/actual")
	grep -qxF "tip: $tip \"c4 \\033[2J\"" "$BATS_TEST_TMPDIR/actual"
	! grep -q "$(printf '\033')" "$BATS_TEST_TMPDIR/actual" || return 1
	run_tool_again --verify="$r.1" --allow-local
	expect_status 128
	expect_stderr <<-'EOF'
	fatal: refusing to fetch from "https://example.org/\033[2Jpub.git": control character in URL
	EOF
	expect_unchanged
}

@test "bidi and zero-width characters from the mail and the tip (a ref, a row name, subjects) are shown escaped, never raw" {
	history_simple
	rlo=$(printf '\342\200\256') zwsp=$(printf '\342\200\213')
	mkdir -p doc
	echo one >"doc/a${rlo}b.txt"
	commit_all "c4 ${rlo}txt.exe"
	git branch "to${zwsp}pic" topic
	publish "to${zwsp}pic"
	request linus "to${zwsp}pic"
	r=$BATS_TEST_TMPDIR/request
	grep -q "pub.git to${zwsp}pic\$" "$r"
	# a row the merge has no file for, its name turned around, and
	# none for a file of the merge
	perl -ne 's/^( \d+ files changed)/ evil\xe2\x80\xaecod.sh | 1 +\n$1/;
		print unless /^ "doc/' "$r" |
		mail_message 8bit 'Subject: =?utf-8?q?=E2=80=AE=E2=80=8Bpull?=' >"$r.1"
	# a reply after it: the subject line is an mbox's (one mail alone
	# is reported as from a file)
	echo 'Thanks, pulled.' | mail_message 7bit 'Subject: Re: pull' >"$r.2"
	mail_mbox "$r.1" "$r.2" >"$r.mbox"
	receiver
	run_tool --verify="$r.mbox" --allow-local
	expect_status 1
	grep -qxF 'message 1: "\342\200\256\342\200\213pull"' "$BATS_TEST_TMPDIR/actual"
	grep -qxF "pull request: $url \"to\\342\\200\\213pic\"" "$BATS_TEST_TMPDIR/actual"
	grep -qxF "tip: $tip \"c4 \\342\\200\\256txt.exe\"" "$BATS_TEST_TMPDIR/actual"
	grep -qxF '  1 "evil\342\200\256cod.sh"' "$BATS_TEST_TMPDIR/actual"
	grep -qxF '  +1 -0 "doc/a\342\200\256b.txt"' "$BATS_TEST_TMPDIR/actual"
	! grep -q -e "$rlo" -e "$zwsp" "$BATS_TEST_TMPDIR/actual" || return 1
	# the receiver's core.quotePath=false shows UTF-8, never these
	git config core.quotePath false
	run_tool --verify="$r.mbox" --allow-local
	expect_status 1
	grep -qxF '  +1 -0 "doc/a\342\200\256b.txt"' "$BATS_TEST_TMPDIR/actual"
	! grep -q -e "$rlo" -e "$zwsp" "$BATS_TEST_TMPDIR/actual" || return 1
	run_tool_again --verify="$r.mbox" --allow-local --porcelain
	expect_status 1
	grep -qxF 'ref "to\342\200\213pic"' "$BATS_TEST_TMPDIR/actual"
	grep -qxF 'only-request 1 "evil\342\200\256cod.sh"' "$BATS_TEST_TMPDIR/actual"
	! grep -q -e "$rlo" -e "$zwsp" "$BATS_TEST_TMPDIR/actual" || return 1
	expect_unchanged
}

@test "a messy report's clean diffstat, with core.quotePath=false, shows bidi and zero-width characters in names escaped, the rest of each line as git prints it" {
	history_partly_pulled
	rlo=$(printf '\342\200\256') zwsp=$(printf '\342\200\213')
	mkdir -p doc
	echo one >"doc/a${rlo}b.txt"
	echo two >"doc/c${zwsp}d.txt"
	commit_all x4
	publish topic
	request linus topic
	# git's own lines of the names, each name as quote_shown() quotes it
	git config core.quotePath false
	procedure_diffstat linus topic | grep -e "$rlo" -e "$zwsp" |
		while IFS= read -r line; do
			line=${line//"doc/a${rlo}b.txt"/'"doc/a\342\200\256b.txt"'}
			printf '%s\n' "${line//"doc/c${zwsp}d.txt"/'"doc/c\342\200\213d.txt"'}"
		done >"$BATS_TEST_TMPDIR/expect"
	[ "$(grep -c '^ create mode 100644 "doc/' "$BATS_TEST_TMPDIR/expect")" -eq 2 ]
	[ "$(grep -c '^ "doc/.*" *| *1 +$' "$BATS_TEST_TMPDIR/expect")" -eq 2 ]
	receiver
	git config core.quotePath false
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 1
	grep -q '^verdict: messy: ' "$BATS_TEST_TMPDIR/actual"
	while IFS= read -r line; do
		grep -qxF -- "$line" "$BATS_TEST_TMPDIR/actual"
	done <"$BATS_TEST_TMPDIR/expect"
	! grep -q -e "$rlo" -e "$zwsp" "$BATS_TEST_TMPDIR/actual" || return 1
	expect_unchanged
}

# bad_mbox: an mbox of the messy request and of three that cannot be
# verified (a refused URL, a refused ref, a repository that is not
# there), in a receiver.
bad_mbox() {
	history_partly_pulled
	publish_and_request topic linus topic
	r=$BATS_TEST_TMPDIR/request
	L="file://$BATS_TEST_TMPDIR/gone.git topic" \
		perl -pe 's/^  file:.*$/  $ENV{L}/' "$r" |
		mail_message 7bit 'Subject: [GIT PULL] gone' >"$r.1"
	L="ext::$BATS_TEST_TMPDIR/pwned topic" \
		perl -pe 's/^  file:.*$/  $ENV{L}/' "$r" |
		mail_message 7bit 'Subject: [GIT PULL] ext' >"$r.2"
	L="$url topic..x" perl -pe 's/^  file:.*$/  $ENV{L}/' "$r" |
		mail_message 7bit 'Subject: [GIT PULL] bad ref' >"$r.3"
	mail_message 7bit 'Subject: [GIT PULL] messy' <"$r" >"$r.4"
	mail_mbox "$r".[1-4] >"$r.mbox"
	receiver
}

@test "an mbox with requests that cannot be verified: an error line each, the others verified, exit 1" {
	bad_mbox
	run_tool --verify="$r.mbox" --allow-local
	expect_status 1
	verdicts >"$BATS_TEST_TMPDIR/summary"
	cat >"$BATS_TEST_TMPDIR/expect" <<-EOF
	message 1: [GIT PULL] gone
	error: cannot fetch 'topic' from 'file://$BATS_TEST_TMPDIR/gone.git': '$BATS_TEST_TMPDIR/gone.git' does not appear to be a git repository
	message 2: [GIT PULL] ext
	error: refusing to fetch from 'ext::$BATS_TEST_TMPDIR/pwned': remote-helper URL (<transport>::<address>) refused
	message 3: [GIT PULL] bad ref
	error: refusing to fetch 'topic..x': '..' in ref
	message 4: [GIT PULL] messy
	verdict: messy
	4 pull requests: matches 0, messy 1, differs 0, conflicts 0, errors 3
	EOF
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/summary"
	[ ! -e "$BATS_TEST_TMPDIR/pwned" ]
	expect_unchanged
}

@test "--porcelain: a request that cannot be verified is an error record, counted in the summary" {
	bad_mbox
	run_tool --verify="$r.mbox" --allow-local --porcelain
	expect_status 1
	sed '/^message 4$/,/^verdict /d' "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/errors"
	cat >"$BATS_TEST_TMPDIR/expect" <<-EOF
	message 1
	url file://$BATS_TEST_TMPDIR/gone.git
	ref topic
	error cannot fetch 'topic' from 'file://$BATS_TEST_TMPDIR/gone.git': '$BATS_TEST_TMPDIR/gone.git' does not appear to be a git repository
	verdict error
	message 2
	url ext::$BATS_TEST_TMPDIR/pwned
	ref topic
	error refusing to fetch from 'ext::$BATS_TEST_TMPDIR/pwned': remote-helper URL (<transport>::<address>) refused
	verdict error
	message 3
	url $url
	ref topic..x
	error refusing to fetch 'topic..x': '..' in ref
	verdict error
	summary 4 0 1 0 0 3
	EOF
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/errors"
	grep -qx "verdict messy" "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

@test "--no-fetch in an mbox: a missing tip is that request's error, a tip here is verified" {
	simple_request
	mail_message 7bit 'Subject: [GIT PULL] here' <"$r" >"$r.1"
	missing=0123456789012345678901234567890123456789
	M=$missing perl -pe 's/^(for you to fetch changes up to )[0-9a-f]+/$1$ENV{M}/' "$r" |
		mail_message 7bit 'Subject: [GIT PULL] missing' >"$r.2"
	mail_mbox "$r".[1-2] >"$r.mbox"
	run_tool --verify="$r.mbox" --allow-local --no-fetch linus
	expect_status 1
	verdicts >"$BATS_TEST_TMPDIR/summary"
	cat >"$BATS_TEST_TMPDIR/expect" <<-EOF
	message 1: [GIT PULL] here
	verdict: matches
	message 2: [GIT PULL] missing
	error: the tip $missing is not in this repository, and --no-fetch forbids fetching 'topic' from '$url'
	2 pull requests: matches 1, messy 0, differs 0, conflicts 0, errors 1
	EOF
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/summary"
	expect_unchanged
}

@test "an mbox: a message that looks like a request but has none is an error line, counted; a plain reply is skipped" {
	simple_request
	mail_message 7bit 'Subject: [GIT PULL] topic' <"$r" >"$r.1"
	# cut before its diffstat, not quoted: no reply's quote of message 1
	sed -e '/^----/,$d' "$r" |
		mail_message 7bit 'Subject: Re: [GIT PULL] topic' >"$r.2"
	echo 'Thanks, pulled.' | mail_message 7bit 'Subject: Re: [GIT PULL] topic' >"$r.3"
	mail_mbox "$r".[1-3] >"$r.mbox"
	receiver
	run_tool --verify="$r.mbox" --allow-local
	expect_status 1
	verdicts >"$BATS_TEST_TMPDIR/summary"
	cat >"$BATS_TEST_TMPDIR/expect" <<-EOF
	message 1: [GIT PULL] topic
	verdict: matches
	message 2: Re: [GIT PULL] topic
	error: no pull request in message 2: no diffstat (no ' N files changed' line)
	2 pull requests: matches 1, messy 0, differs 0, conflicts 0, errors 1
	EOF
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/summary"
	run_tool_again --verify="$r.mbox" --allow-local --porcelain
	expect_status 1
	grep -qx 'summary 2 1 0 0 0 1' "$BATS_TEST_TMPDIR/actual"
	# its records: the URL and ref its header names
	sed -n '/^message 2$/,/^verdict /p' "$BATS_TEST_TMPDIR/actual" |
		grep -x 'url .*\|ref .*' | test_cmp - <(printf '%s\n' "url $url" 'ref topic')
	expect_unchanged
}

# two_requests: topic and other published, both requested from linus in
# one message, $r.mail; cd to the receiver.
two_requests() {
	history_simple &&
	git checkout -q -b other linus &&
	test_commit "other: work" lib/other.c other &&
	git checkout -q topic &&
	publish topic other &&
	request linus other &&
	mv "$BATS_TEST_TMPDIR/request" "$BATS_TEST_TMPDIR/other-request" &&
	request linus topic &&
	r=$BATS_TEST_TMPDIR/request &&
	cat "$r" "$BATS_TEST_TMPDIR/other-request" |
		mail_message 8bit 'Subject: [GIT PULL] two' >"$r.mail" &&
	receiver
}

# both_match: the report of two_requests' message says both match.
both_match() {
	expect_status 0 &&
	verdicts >"$BATS_TEST_TMPDIR/summary" &&
	cat >"$BATS_TEST_TMPDIR/expect" <<-EOF &&
	message 1: [GIT PULL] two (request 1 of 2)
	verdict: matches
	message 1: [GIT PULL] two (request 2 of 2)
	verdict: matches
	2 pull requests: matches 2, messy 0, differs 0, conflicts 0, errors 0
	EOF
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/summary" &&
	expect_unchanged
}

@test "a message with two requests: a report for each, each with its own diffstat" {
	two_requests
	run_tool --verify="$r.mail" --allow-local
	both_match
}

@test "two requests of one message fetched side by side, the second done first: each report has its own tip" {
	two_requests
	# the fetch of topic starts once that of other has ended (or after
	# a minute, for a tool that fetches one at a time)
	mkfifo "$BATS_TEST_TMPDIR/other-fetched"
	# shellcheck disable=SC2016 # the code is for the fake git to expand
	fake_git 'done_fifo="'"$BATS_TEST_TMPDIR"'/other-fetched"
	case " $* " in
	*" fetch "*" topic:"*)
		exec 3<>"$done_fifo"
		timeout 60 head -n 1 <&3 >/dev/null
		exec 3<&-;;
	*" fetch "*" other:"*)
		"$real_git" "$@"
		rc=$?
		exec 3<>"$done_fifo"
		echo done >&3
		exit $rc;;
	esac'
	run_tool --verify="$r.mail" --allow-local --jobs=2
	both_match
}

@test "--porcelain, a message with two requests: each report says which part of the message it is" {
	two_requests
	run_tool --verify="$r.mail" --allow-local --porcelain
	expect_status 0 &&
	grep -E '^(message|part|ref|verdict) ' "$BATS_TEST_TMPDIR/actual" \
		>"$BATS_TEST_TMPDIR/records" &&
	cat >"$BATS_TEST_TMPDIR/expect" <<-EOF &&
	message 1
	part 1 2
	ref topic
	verdict matches
	message 1
	part 2 2
	ref other
	verdict matches
	EOF
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/records" &&
	expect_unchanged
}

@test "a request quoted in a reply: verified, the quoting noted" {
	simple_request
	sed 's/^/> /' "$r" >"$r.quoted"
	receiver
	run_tool --verify="$r.quoted" --allow-local
	expect_status 0
	grep -qx 'note: the request is quoted or indented' "$BATS_TEST_TMPDIR/actual"
	grep -q '^verdict: matches' "$BATS_TEST_TMPDIR/actual"
	run_tool_again --verify="$r.quoted" --allow-local --porcelain
	expect_status 0
	grep -qx 'damage quoted' "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

@test "an mbox of a request and a reply that quotes it whole: the reply says it quotes it, not checked again nor counted" {
	simple_request
	mail_message 7bit 'Subject: [GIT PULL] topic' <"$r" >"$r.1"
	{ echo 'Pulled, thanks.'; echo; sed 's/^/> /' "$r"; } |
		mail_message 7bit 'Subject: Re: [GIT PULL] topic' >"$r.2"
	echo 'Pulled, thanks.' |
		mail_message 7bit 'Subject: Re: [GIT PULL] topic' >"$r.plain"
	mail_mbox "$r.1" "$r.2" >"$r.thread"
	mail_mbox "$r.1" "$r.plain" >"$r.plain-thread"
	receiver
	run_tool --verify="$r.plain-thread" --allow-local
	expect_status 0
	# the report of message 1 as beside a plain reply, then a line for
	# the reply that quotes it; the summary is the same
	head -n -2 "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/expect"
	cat >>"$BATS_TEST_TMPDIR/expect" <<-EOF

	message 2: Re: [GIT PULL] topic
	quotes the request of message 1, checked there

	1 pull request: matches 1, messy 0, differs 0, conflicts 0, errors 0
	EOF
	run_tool_again --verify="$r.thread" --allow-local
	expect_status 0
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
	grep -c '^fetched: ' "$BATS_TEST_TMPDIR/actual" | test_cmp - <(echo 1)
	run_tool_again --verify="$r.thread" --allow-local --porcelain
	expect_status 0
	sed -n '/^message 2$/,$p' "$BATS_TEST_TMPDIR/actual" | test_cmp - <(
		printf '%s\n' 'message 2' 'quotes 1' 'summary 1 1 0 0 0 0')
	expect_unchanged
}

@test "an mbox of a request and a reply that quotes it down to its tip: the reply says it quotes it, no error" {
	simple_request
	mail_message 7bit 'Subject: [GIT PULL] topic' <"$r" >"$r.1"
	{ sed -n '/^The following changes/,/^for you to fetch/p' "$r" |
		sed 's/^/> /'; echo; echo 'Pulled, thanks.'; } |
		mail_message 7bit 'Subject: Re: [GIT PULL] topic' >"$r.2"
	cp "$r.2" "$r.2-alone"
	mail_mbox "$r.1" "$r.2" >"$r.thread"
	receiver
	run_tool --verify="$r.thread" --allow-local
	expect_status 0
	sed -n '/^message 2: /,$p' "$BATS_TEST_TMPDIR/actual" | test_cmp - <(
		printf '%s\n' "message 2: Re: [GIT PULL] topic" \
		"quotes the request of message 1, checked there" "" \
		"1 pull request: matches 1, messy 0, differs 0, conflicts 0, errors 0")
	# alone, that reply holds no request to verify
	run_tool_again --verify="$r.2-alone" --allow-local
	expect_status 128
	expect_stderr <<<"fatal: no pull request in the message: no diffstat (no ' N files changed' line)"
	expect_unchanged
}

@test "a request quoted before the message that holds it: both checked; only a quote of an earlier request is not" {
	simple_request
	sed 's/^/> /' "$r" | mail_message 7bit 'Subject: Fwd: [GIT PULL] topic' >"$r.1"
	mail_message 7bit 'Subject: [GIT PULL] topic' <"$r" >"$r.2"
	mail_mbox "$r.1" "$r.2" >"$r.mbox"
	receiver
	run_tool --verify="$r.mbox" --allow-local
	expect_status 0
	verdicts | test_cmp - <(printf '%s\n' \
		"message 1: Fwd: [GIT PULL] topic" "verdict: matches" \
		"message 2: [GIT PULL] topic" "verdict: matches" \
		"2 pull requests: matches 2, messy 0, differs 0, conflicts 0, errors 0")
	[ "$(grep -cx 'note: the request is quoted or indented' "$BATS_TEST_TMPDIR/actual")" -eq 1 ]
	expect_unchanged
}

@test "a diffstat cut short by a ' ...' row: the report says it is cut" {
	simple_request
	perl -pe 'if (/^ \S.* \| / && ++$n > 1) { $_ = $n == 2 ? " ...\n" : "" }' "$r" >"$r.cut"
	receiver
	run_tool --verify="$r.cut" --allow-local
	grep -q "^note: the diffstat is cut short" "$BATS_TEST_TMPDIR/actual"
	run_tool_again --verify="$r.cut" --allow-local --porcelain
	grep -qx 'damage cut' "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

@test "a diffstat without its 'files changed' line: the totals counted from its rows, noted" {
	simple_request
	grep -v '^ [0-9]* files\? changed' "$r" >"$r.untotalled"
	receiver
	run_tool --verify="$r.untotalled" --allow-local
	expect_status 0
	grep -qx "note: no 'files changed' line: the totals are counted from the rows" \
		"$BATS_TEST_TMPDIR/actual"
	grep -qx "request's diffstat: 3 files changed, 17 insertions(+), 2 deletions(-)" \
		"$BATS_TEST_TMPDIR/actual"
	grep -q '^verdict: matches' "$BATS_TEST_TMPDIR/actual"
	run_tool_again --verify="$r.untotalled" --allow-local --porcelain
	grep -qx 'damage totals-missing' "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

@test "a diffstat of its 'files changed' line alone: the totals compared with the merge's, said so" {
	simple_request
	grep -v -e '^ [^ ].* | ' -e '^ create mode ' "$r" >"$r.totals"
	grep -qx ' 3 files changed, 17 insertions(+), 2 deletions(-)' "$r.totals"
	receiver
	run_tool --verify="$r.totals" --allow-local
	expect_status 0
	grep -qx "note: the diffstat is its 'files changed' line alone: only the totals are compared" \
		"$BATS_TEST_TMPDIR/actual"
	grep -qx "request's diffstat: 3 files changed, 17 insertions(+), 2 deletions(-)" \
		"$BATS_TEST_TMPDIR/actual"
	grep -qx "verdict: matches: the request's totals are what pulling it changes" \
		"$BATS_TEST_TMPDIR/actual"
	run_tool_again --verify="$r.totals" --allow-local --porcelain
	expect_status 0
	grep -qx 'damage totals-only' "$BATS_TEST_TMPDIR/actual"
	grep -qx 'verdict matches' "$BATS_TEST_TMPDIR/actual"
	# totals that are not the merge's: differs, and no file is blamed
	sed 's/ 17 insertions/ 18 insertions/' "$r.totals" >"$r.wrong"
	run_tool_again --verify="$r.wrong" --allow-local
	expect_status 1
	grep -q '^verdict: differs: ' "$BATS_TEST_TMPDIR/actual"
	! grep -q '^only in' "$BATS_TEST_TMPDIR/actual" || return 1
	run_tool_again --verify="$r.wrong" --allow-local --porcelain
	expect_status 1
	grep -qx 'verdict differs' "$BATS_TEST_TMPDIR/actual"
	! grep -q '^only-' "$BATS_TEST_TMPDIR/actual" || return 1
	expect_unchanged
}

@test "another request's shortlog and diffstat pasted after the request's: noted, and its commits make it differ" {
	simple_request
	cat - >>"$r" <<-EOF

	Some One (1):
	      other: a commit this branch does not have

	 lib/other.c | 2 +-
	 1 file changed, 1 insertion(+), 1 deletion(-)
	EOF
	receiver
	run_tool --verify="$r" --allow-local
	expect_status 1
	grep -qx "note: 1 more shortlog and diffstat after the request's, not what it brings" \
		"$BATS_TEST_TMPDIR/actual"
	grep -qx 'verdict: differs: the mail also lists 1 commit that pulling it does not bring' \
		"$BATS_TEST_TMPDIR/actual"
	run_tool_again --verify="$r" --allow-local --porcelain
	grep -qx 'damage extra-blocks 1' "$BATS_TEST_TMPDIR/actual"
	grep -qx 'note foreign 1' "$BATS_TEST_TMPDIR/actual"
	expect_unchanged
}

@test "the patches pasted after the request, a line of dashes before each: verified against the request's diffstat" {
	simple_request
	git format-patch -q --stdout "$(git merge-base linus topic)..topic" \
		>"$BATS_TEST_TMPDIR/patches"
	{
		cat "$r"
		echo
		sed '/^From [0-9a-f]\{40\} Mon Sep 17/{x;s/.*/----------------------------------------------------------------\n/p;x}' \
			"$BATS_TEST_TMPDIR/patches"
	} >"$r.patches"
	[ "$(grep -c ' files\? changed' "$r.patches")" -eq 4 ]
	receiver
	run_tool --verify="$r.patches" --allow-local
	expect_status 0
	grep -qx "request's diffstat: 3 files changed, 17 insertions(+), 2 deletions(-)" \
		"$BATS_TEST_TMPDIR/actual"
	grep -q '^verdict: matches: ' "$BATS_TEST_TMPDIR/actual"
	! grep -q '^note: ' "$BATS_TEST_TMPDIR/actual" || return 1
	expect_unchanged
}

# start_daemon: a git daemon serving the test's directory (see
# t/lib/servers.bash), and $url the URL of pub.git there.
start_daemon() {
	start_git_daemon &&
	url=$DAEMON_URL/pub.git
}

@test "over git:// from a git daemon: fetched without --allow-local, matches" {
	history_simple
	publish topic
	start_daemon
	request linus topic
	receiver
	run_tool --verify="$BATS_TEST_TMPDIR/request"
	expect_status 0
	fetched_header | test_cmp - <(head -n 3 "$BATS_TEST_TMPDIR/actual")
	expect_no_stderr
	expect_unchanged
}

@test "an insteadOf to a git daemon's git:// URL: fetched without --allow-local" {
	history_simple
	publish topic
	start_daemon
	request linus topic
	receiver
	git config url."$url".insteadOf https://git.example.org/pub.git
	sed -i "s|^  $url topic\$|  https://git.example.org/pub.git topic|" \
		"$BATS_TEST_TMPDIR/request"
	url=https://git.example.org/pub.git
	run_tool --verify="$BATS_TEST_TMPDIR/request"
	expect_status 0
	fetched_header | test_cmp - <(head -n 3 "$BATS_TEST_TMPDIR/actual")
	expect_no_stderr
	expect_unchanged
}

# start_http [--auth=<user>:<password>]: git http-backend behind
# lighttpd serving the test's directory (see t/lib/servers.bash), and
# $url the URL of pub.git there.
start_http() {
	start_http_server "$@" &&
	url=$HTTP_URL/pub.git
}

@test "over http:// from git http-backend: fetched without --allow-local, matches" {
	start_http
	simple_request
	receiver
	: >"$HTTP_LOG"
	run_tool --verify="$r"
	expect_status 0
	fetched_header | test_cmp - <(head -n 3 "$BATS_TEST_TMPDIR/actual")
	expect_no_stderr
	expect_unchanged
	grep -qx -- "- POST /pub.git/git-upload-pack" "$HTTP_LOG"
}

@test "the receiver's own http.extraHeader goes with the fetch: a server that requires it serves the tip" {
	start_http --auth=puller:secret
	# the sender's git request-pull asks the server too
	history_simple
	git config http.extraHeader "Authorization: Basic $(printf puller:secret | base64)"
	publish_and_request topic linus topic
	receiver
	git config http.extraHeader "Authorization: Basic $(printf puller:secret | base64)"
	unset GIT_ASKPASS SSH_ASKPASS
	export GIT_TERMINAL_PROMPT=0
	: >"$HTTP_LOG"
	run_tool --verify="$BATS_TEST_TMPDIR/request"
	expect_status 0
	fetched_header | test_cmp - <(head -n 3 "$BATS_TEST_TMPDIR/actual")
	expect_no_stderr
	expect_unchanged
	grep -qx "puller POST /pub.git/git-upload-pack" "$HTTP_LOG"
}

# silent_requests: simple_request's request in a receiver, and in the
# files $r.git and $r.http the same request for git:// and http:// URLs
# of a server that accepts connections and never answers.
silent_requests() {
	local scheme
	start_silent_server &&
	simple_request &&
	for scheme in git http; do
		L="$scheme://127.0.0.1:$SILENT_PORT/pub.git topic" \
			perl -pe 's/^  file:.*$/  $ENV{L}/' "$r" >"$r.$scheme" || return
	done
	receiver
}

# run_bounded <args>...: run_tool, killed after 60 s, so that a fetch
# that waits for ever fails the test instead of hanging the run; the
# seconds it took in $took.
run_bounded() {
	local start=$SECONDS
	remember_repo &&
	capture timeout -k 5 60 "${TOOL[@]}" "$@"
	took=$((SECONDS - start))
	case $status in
	124 | 137) echo "still running after 60 s: killed" >&2 && failed_at ;;
	esac
}

# expect_silent_fatal <scheme>: the run of a single request to the silent
# server by <scheme> ended when its time was up: exit 128, the fetch's
# error, nothing on stdout, nothing left.
expect_silent_fatal() {
	expect_status 128 &&
	grep -q "^fatal: cannot fetch 'topic' from '$1://127.0.0.1:$SILENT_PORT/pub.git'" \
		"$BATS_TEST_TMPDIR/stderr" &&
	test_cmp /dev/null "$BATS_TEST_TMPDIR/actual" &&
	[ "$took" -lt 30 ] &&
	expect_unchanged
}

@test "--fetch-timeout: a git:// server that never answers is the request's fatal error once the time is up" {
	silent_requests
	run_bounded --verify="$r.git" --fetch-timeout=2
	expect_silent_fatal git
}

@test "--fetch-timeout: an http:// server that never answers is the request's fatal error once the time is up" {
	silent_requests
	run_bounded --verify="$r.http" --fetch-timeout=2
	expect_silent_fatal http
}

@test "--fetch-timeout in an mbox: requests to servers that never answer are errors, the next one is verified" {
	silent_requests
	mail_message 7bit 'Subject: [GIT PULL] git' <"$r.git" >"$r.1"
	mail_message 7bit 'Subject: [GIT PULL] http' <"$r.http" >"$r.2"
	mail_message 7bit 'Subject: [GIT PULL] file' <"$r" >"$r.3"
	mail_mbox "$r".[1-3] >"$r.mbox"
	run_bounded --verify="$r.mbox" --allow-local --fetch-timeout=2
	expect_status 1
	grep '^message \|^verdict: \|^error: \|pull requests:' "$BATS_TEST_TMPDIR/actual" |
		sed 's/^\(verdict: [a-z]*\):.*/\1/; s/^\(error: cannot fetch .*\)'"'"': .*/\1'"'"'/' \
		>"$BATS_TEST_TMPDIR/summary"
	cat >"$BATS_TEST_TMPDIR/expect" <<-EOF
	message 1: [GIT PULL] git
	error: cannot fetch 'topic' from 'git://127.0.0.1:$SILENT_PORT/pub.git'
	message 2: [GIT PULL] http
	error: cannot fetch 'topic' from 'http://127.0.0.1:$SILENT_PORT/pub.git'
	message 3: [GIT PULL] file
	verdict: matches
	3 pull requests: matches 1, messy 0, differs 0, conflicts 0, errors 2
	EOF
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/summary"
	[ "$took" -lt 40 ]
	expect_unchanged
}

# made_up: the request written for a made-up https URL, which only the
# receiver's url.<base>.insteadOf can turn into one that fetches.
made_up() {
	simple_request
	sed -i 's|^  file://.* topic$|  https://git.example.org/pub.git topic|' \
		"$BATS_TEST_TMPDIR/request"
	receiver
}

@test "the receiver's url.<base>.insteadOf rewrites the request's URL for the fetch" {
	made_up
	git config url."file://$PUB".insteadOf https://git.example.org/pub.git
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local
	expect_status 0
	{
		url=https://git.example.org/pub.git fetched_header
		echo "request's diffstat: 3 files changed, 17 insertions(+), 2 deletions(-)"
	} | test_cmp - <(head -n 4 "$BATS_TEST_TMPDIR/actual")
	expect_no_stderr
	expect_unchanged
}

@test "an insteadOf to a transport refused (global: ext::, the repository's: file:// without --allow-local) runs no fetch" {
	made_up
	fake_git "echo \"\$*\" >>'$BATS_TEST_TMPDIR/git.log'"
	for where in --global --local; do
		case $where in
		--global) base="ext::sh -c touch% $BATS_TEST_TMPDIR/pwned% >&2" ;;
		*) base=file://$PUB ;;
		esac
		git config "$where" url."$base".insteadOf https://git.example.org/
		run_logged --verify="$BATS_TEST_TMPDIR/request"
		expect_status 128
		grep -q "^fatal: refusing to fetch from '${base:0:5}.*pub.git' (url\..*\.insteadOf of 'https://git.example.org/pub.git'): " \
			"$BATS_TEST_TMPDIR/stderr"
		! grep -w fetch "$BATS_TEST_TMPDIR/git.log" || return 1
		[ ! -e "$BATS_TEST_TMPDIR/pwned" ]
		test_cmp /dev/null "$BATS_TEST_TMPDIR/actual"
		expect_unchanged
		git config "$where" --remove-section url."$base"
	done
}

# attack <url> <ref>: the messy request with the repository line
# replaced, verified in a receiver where every git run is logged.
attack() {
	simple_request
	receiver
	L="$1 $2" perl -i -pe 's/^  file:.*$/  $ENV{L}/' "$BATS_TEST_TMPDIR/request"
	grep -qxF "  $1 $2" "$BATS_TEST_TMPDIR/request"
	fake_git "echo \"\$*\" >>'$BATS_TEST_TMPDIR/git.log'"
	run_logged --verify="$BATS_TEST_TMPDIR/request" --allow-local
}

# run_logged <args>: run_tool, with the log of the gits run by the tool
# alone (remember_repo runs git too).
run_logged() {
	remember_repo &&
	rm -f "$BATS_TEST_TMPDIR/git.log" &&
	capture "${TOOL[@]}" "$@"
}

# nothing_ran: no git ran but those that read the mail (git mailinfo)
# and those that know nothing of it: the rev-parse of <upstream>, git
# config of the bound of a message and --list, git init of the fetches'
# repository; no git was given the mail's URL or ref, nothing was
# written.
nothing_ran() {
	{ [ ! -e "$BATS_TEST_TMPDIR/git.log" ] ||
	  ! grep -v -e '^mailsplit ' -e '^-c i18n.commitEncoding=UTF-8 mailinfo ' \
		-e '^-c core.commitGraph=false rev-parse --path-format=absolute --git-path objects --show-prefix --end-of-options HEAD^{commit} HEAD^{tree} HEAD^{commit} --$' \
		-e '^config -z --show-scope --includes --list$' \
		-e '^config --type=int --get clean-diffstat.maxMessageSize$' \
		-e '^-c init.defaultRefFormat=files init -q --bare --template= --initial-branch=main --object-format=sha1$' \
		"$BATS_TEST_TMPDIR/git.log" >&2; } &&
	[ ! -e "$BATS_TEST_TMPDIR/pwned" ] &&
	test_cmp /dev/null "$BATS_TEST_TMPDIR/actual" &&
	expect_unchanged
}

@test "a URL that is an option (--upload-pack=...) runs nothing" {
	attack "--upload-pack=touch $BATS_TEST_TMPDIR/pwned" topic
	expect_status 128
	grep -q "^fatal: refusing to fetch from '--upload-pack=" "$BATS_TEST_TMPDIR/stderr"
	nothing_ran
}

@test "an ext:: URL runs nothing" {
	attack "ext::sh -c touch% $BATS_TEST_TMPDIR/pwned" topic
	expect_status 128
	grep -q "^fatal: refusing to fetch from 'ext::sh" "$BATS_TEST_TMPDIR/stderr"
	nothing_ran
}

@test "a ref that is an option runs nothing" {
	attack "$url" --upload-pack=touch
	expect_status 128
	grep -q "^fatal: refusing to fetch '--upload-pack=touch'" "$BATS_TEST_TMPDIR/stderr"
	nothing_ran
}

@test "a local path or file:// without --allow-local runs nothing" {
	simple_request
	receiver
	fake_git "echo \"\$*\" >>'$BATS_TEST_TMPDIR/git.log'"
	run_logged --verify="$BATS_TEST_TMPDIR/request"
	expect_status 128
	grep -q "^fatal: refusing to fetch from '$url'" "$BATS_TEST_TMPDIR/stderr"
	nothing_ran
	sed -i "s|$url|$PUB|" "$BATS_TEST_TMPDIR/request"
	run_logged --verify="$BATS_TEST_TMPDIR/request"
	expect_status 128
	grep -q "^fatal: refusing to fetch from '$PUB'" "$BATS_TEST_TMPDIR/stderr"
	nothing_ran
}

@test "--no-fetch with the tip missing fails clearly, fetching nothing" {
	simple_request
	receiver
	run_tool --verify="$BATS_TEST_TMPDIR/request" --allow-local --no-fetch
	expect_failure 128 <<-EOF
	fatal: the tip $tip is not in this repository, and --no-fetch forbids fetching 'topic' from '$url'
	EOF
}

@test "--verify of a file that is not there: one fatal line that says why, exit 128" {
	history_simple
	run_tool --verify="$BATS_TEST_TMPDIR/nowhere" --no-fetch
	expect_failure 128 <<-EOF
	fatal: cannot read the mail: cannot stat $BATS_TEST_TMPDIR/nowhere: No such file or directory
	EOF
}

@test "--verify of an empty file: one fatal line that says why, exit 128" {
	history_simple
	: >"$BATS_TEST_TMPDIR/empty"
	run_tool --verify="$BATS_TEST_TMPDIR/empty" --no-fetch
	expect_failure 128 <<-EOF
	fatal: cannot read the mail: empty mbox: '$BATS_TEST_TMPDIR/empty'
	EOF
}

@test "a message without a pull request: fatal, naming what is missing" {
	history_simple
	echo 'Hi, please pull.' >"$BATS_TEST_TMPDIR/request"
	run_tool --verify="$BATS_TEST_TMPDIR/request"
	expect_status 128
	grep -q "^fatal: no pull request in the message: no 'The following changes since commit' line" \
		"$BATS_TEST_TMPDIR/stderr"
	expect_unchanged
}

@test "usage errors: other modes, diff options, --no-fetch or --allow-local alone" {
	history_simple
	remember_repo
	for args in '--verify --check' '--explain --verify' '--verify --request-pull a b' \
		'--verify --stat' '--verify linus topic' '--no-fetch' '--allow-local linus' \
		'--verify= linus' '--progress' '--no-progress linus' '-q'; do
		# shellcheck disable=SC2086 # the words of args
		run_tool_again $args
		expect_status 129
		grep -q '^usage: git clean-diffstat' "$BATS_TEST_TMPDIR/stderr"
		test_cmp /dev/null "$BATS_TEST_TMPDIR/actual"
	done
	expect_unchanged
}
