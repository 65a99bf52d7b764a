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
#   receiver               a clone of the current repository's linus
#                          alone, without the topic's objects, and cd
#                          there
#   ssh_signing_key        sign from now on with a new ssh key (the test
#                          is skipped when there is no ssh-keygen)

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
