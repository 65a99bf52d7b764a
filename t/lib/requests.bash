# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Pull requests as their sender makes them and their receiver gets
# them, for the tests of --request-pull, --verify and the mail parser:
#
#   publish <ref>...       push (forced) to the bare repository $PUB
#                          (default $BATS_TEST_TMPDIR/pub.git), made the
#                          first time; $url is file://$PUB unless set
#   request [-p] <start> <end> [<url>]
#                          git request-pull [-p] of <end> from <start>
#                          at <url> (default $url) into the file
#                          $BATS_TEST_TMPDIR/request, and the tip's id
#                          and subject into $tip and $subject
#   publish_and_request <refs> [-p] <start> <end>
#                          publish <refs> (a list of words), then
#                          request [-p] <start> <end>: the same bare
#                          repository and text, made once per run for
#                          a given state of the repository (see below)
#   receiver               a clone of the current repository's linus
#                          alone, without the topic's objects, and cd
#                          there
#   ssh_signing_key        sign from now on with a new ssh key (the test
#                          is skipped when there is no ssh-keygen)
#   verdicts               the message, verdict (its word alone), error
#                          and summary lines of the report in
#                          $BATS_TEST_TMPDIR/actual

publish() {
	PUB=${PUB:-$BATS_TEST_TMPDIR/pub.git}
	url=${url:-file://$PUB}
	[ -d "$PUB" ] || git init -q --bare "$PUB"
	git push -q -f "$PUB" "$@"
}

# shellcheck disable=SC2034 # tip and subject are for the caller
request() {
	local p=()
	if [ "$1" = -p ]; then
		p=(-p)
		shift
	fi
	git request-pull "${p[@]}" "$1" "${3:-$url}" "$2" >"$BATS_TEST_TMPDIR/request" &&
	tip=$(git rev-parse "$2^{commit}") &&
	subject=$(git log -1 --format=%s "$tip")
}

# publish_and_request: the first test of the run to ask for a state of
# the repository (its refs, its configuration, the GIT_* variables and
# PATH, the refs and arguments asked for) publishes and requests for
# real, and keeps the bare repository and the text in CLEAN_DIFFSTAT_TEST_CACHE
# (t/run-suite's, or else BATS_RUN_TMPDIR); the others get a copy of
# the bare repository as $PUB and the text with their own test
# directory in its URL: some thirty processes less (git request-pull is
# a shell script of some twenty), for three.  Done for real when $PUB
# exists already or $url is not file://$PUB.
# shellcheck disable=SC2034 # tip and subject are for the caller
publish_and_request() {
	local refs=$1 key name memo tmp text
	shift
	PUB=${PUB:-$BATS_TEST_TMPDIR/pub.git}
	url=${url:-file://$PUB}
	if [ -e "$PUB" ] || [ "$url" != "file://$PUB" ]; then
		# shellcheck disable=SC2086 # a list of refs
		publish $refs && request "$@"
		return
	fi
	key=$(git for-each-ref --format='%(objectname) %(refname)' &&
		git config --list) || return
	key+=$'\n'"$refs -- $*"$'\n'PATH=$PATH
	for name in $(compgen -e); do
		[[ $name != GIT_* ]] || key+=$'\n'$name=${!name}
	done
	key=$(cksum <<<"${key//"$BATS_TEST_TMPDIR"/@TEST@}") || return
	memo=${CLEAN_DIFFSTAT_TEST_CACHE:-$BATS_RUN_TMPDIR}/requests/${key// /-}
	if [ -d "$memo" ]; then
		text=
		IFS= read -r -d '' text <"$memo/request" || :
		printf '%s' "${text//@TEST@/$BATS_TEST_TMPDIR}" \
			>"$BATS_TEST_TMPDIR/request" &&
		IFS= read -r tip <"$memo/tip" &&
		IFS= read -r subject <"$memo/subject" &&
		cp -a "$memo/pub.git" "$PUB"
		return
	fi
	# shellcheck disable=SC2086 # a list of refs
	publish $refs && request "$@" || return
	text=
	IFS= read -r -d '' text <"$BATS_TEST_TMPDIR/request" || :
	mkdir -p "${memo%/*}" &&
	tmp=$(mktemp -d "$memo.XXXXXX") || return
	{
		printf '%s' "${text//"$BATS_TEST_TMPDIR"/@TEST@}" >"$tmp/request" &&
		printf '%s\n' "$tip" >"$tmp/tip" &&
		printf '%s\n' "$subject" >"$tmp/subject" &&
		cp -a "$PUB" "$tmp/pub.git" &&
		mv -T "$tmp" "$memo" 2>/dev/null
	} || rm -rf "$tmp"
}

receiver() {
	local top
	top=$(git rev-parse --show-toplevel) &&
	git clone -q --no-local --single-branch -b linus \
		"$top" "$BATS_TEST_TMPDIR/receiver" &&
	cd "$BATS_TEST_TMPDIR/receiver" || return
}

ssh_signing_key() {
	command -v ssh-keygen >/dev/null || skip "no ssh-keygen"
	ssh-keygen -q -t ed25519 -N '' -C tester -f "$HOME/key" &&
	git config gpg.format ssh &&
	git config user.signingKey "$HOME/key.pub"
}

# verdicts: the message, verdict, error and summary lines of the report.
verdicts() {
	grep '^message \|^verdict: \|^error: \|pull requests:' "$BATS_TEST_TMPDIR/actual" |
		sed 's/^\(verdict: [a-z]*\):.*/\1/'
}
