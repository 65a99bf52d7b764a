# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Pull requests as their sender makes them and their receiver gets
# them, for the tests of --request-pull, --verify and the mail parser:
#
#   publish <ref>...       push (forced) to the bare repository $PUB
#                          (default $BATS_TEST_TMPDIR/pub.git), made the
#                          first time (no templates, what is pushed kept
#                          as a pack); $url is file://$PUB unless set
#   request [-p] <start> <end> [<url>]
#                          git request-pull [-p] of <end> from <start>
#                          at <url> (default $url) into the file
#                          $BATS_TEST_TMPDIR/request, and the tip's id
#                          and subject into $tip and $subject; made once
#                          per run for a given state of both
#                          repositories (see below)
#   publish_and_request <refs> [-p] <start> <end>
#                          publish <refs> (a list of words), then
#                          request [-p] <start> <end>: the same bare
#                          repository and text, made once per run for
#                          a given state of the repository (see below)
#   receiver               a clone of the current repository's linus
#                          alone, without the topic's objects, and cd
#                          there
#   clone_linus <repository> <dir>
#                          git clone --no-local --single-branch -b
#                          linus --template=, made once per run for a
#                          given state of the repository (see below)
#   ssh_signing_key        sign from now on with a new ssh key (the test
#                          is skipped when there is no ssh-keygen)
#   verdicts               the message, verdict (its word alone), error
#                          and summary lines of the report in
#                          $BATS_TEST_TMPDIR/actual

# The server's repository is copied into most tests (publish_and_request)
# and removed after each: made with no templates (13 sample hooks and
# two files of no use to a server) and keeping what is pushed as one
# pack (receive.unpackLimit), it is some 15 files rather than 75, a
# copy and a removal some 30 ms of CPU less.
publish() {
	PUB=${PUB:-$BATS_TEST_TMPDIR/pub.git}
	url=${url:-file://$PUB}
	if [ ! -d "$PUB" ]; then
		git init -q --bare --template= "$PUB" &&
		printf '[receive]\n\tunpackLimit = 1\n' >>"$PUB/config" || return
	fi
	git push -q -f "$PUB" "$@"
}

# request: as publish_and_request does, the first test of the run to
# ask for a state (the repository's refs and configuration, and those
# of $PUB, which git request-pull asks for its refs; the GIT_*
# variables and PATH; the arguments) runs git request-pull and keeps
# the text, tip and subject in CLEAN_DIFFSTAT_TEST_CACHE (or else
# BATS_RUN_TMPDIR), its test directory's path written @TEST@; the
# others read them: git request-pull is a shell script of some twenty
# processes, and the tests that make a second request after
# publish_and_request's make the same one.  Done for real when $url is
# not file://$PUB, or either repository is not a plain one.
# shellcheck disable=SC2034 # tip and subject are for the caller
request() {
	local p=() key='' memo top
	if [ "$1" = -p ]; then
		p=(-p)
		shift
	fi
	if [ "${3:-$url}" = "file://${PUB-}" ] && [ -d "$PUB/refs" ] &&
	   [ ! -e "$PUB/reftable" ] && plain_top . &&
	   repo_files "$top/.git/HEAD" "$top/.git/packed-refs" \
		"$top/.git/refs" "$top/.git/config" "$HOME/.gitconfig" \
		"${XDG_CONFIG_HOME:-$HOME/.config}/git/config" \
		"$PUB/HEAD" "$PUB/packed-refs" "$PUB/refs" "$PUB/config"; then
		key+=$'\n'"${p[*]} $* -- ${3:-$url}"
		memo_env
		if memo_find request-texts "$key"; then
			request_restore
			return
		fi
	fi
	git request-pull "${p[@]}" "$1" "${3:-$url}" "$2" >"$BATS_TEST_TMPDIR/request" &&
	tip=$(git rev-parse "$2^{commit}") &&
	subject=$(git log -1 --format=%s "$tip") || return
	[ -z "$key" ] || request_keep "$key"
}

# request_restore: the request kept in memo_find's $memo, with this
# test's directory in its URL, into $BATS_TEST_TMPDIR/request, $tip and
# $subject.
request_restore() {
	local text=
	IFS= read -r -d '' text <"$memo/request" || :
	printf '%s' "${text//@TEST@/"$BATS_TEST_TMPDIR"}" \
		>"$BATS_TEST_TMPDIR/request" &&
	IFS= read -r tip <"$memo/tip" &&
	IFS= read -r subject <"$memo/subject"
}

# request_keep <key> [<repository>]: keep $BATS_TEST_TMPDIR/request,
# its test directory written @TEST@, $tip and $subject (and a copy of
# <repository> as pub.git) for <key>, in memo_find's $memo.
request_keep() {
	local text='' tmp
	IFS= read -r -d '' text <"$BATS_TEST_TMPDIR/request" || :
	memo_new || return 0
	{
		printf '%s' "${text//"$BATS_TEST_TMPDIR"/@TEST@}" >"$tmp/request" &&
		printf '%s\n' "$tip" >"$tmp/tip" &&
		printf '%s\n' "$subject" >"$tmp/subject" &&
		{ [ -z "${2-}" ] || cp -a "$2" "$tmp/pub.git"; } &&
		memo_keep "$tmp" "$1"
	} || rm -rf "$tmp"
}

# publish_and_request: the first test of the run to ask for a state of
# the repository (its refs, its configuration, the GIT_* variables and
# PATH, the refs and arguments asked for) publishes and requests for
# real, and keeps the bare repository and the text in CLEAN_DIFFSTAT_TEST_CACHE
# (t/run-suite's, or else BATS_RUN_TMPDIR); the others get a copy of
# the bare repository as $PUB and the text with their own test
# directory in its URL: some thirty processes less (git request-pull is
# a shell script of some twenty), for one, cp.  The state is read in
# bash (repo_files) where the repository is a plain one (plain_top),
# else from git for-each-ref and git config --list.  Done for real when
# $PUB exists already or $url is not file://$PUB.
# shellcheck disable=SC2034 # tip and subject are for the caller
publish_and_request() {
	local refs=$1 key memo top
	shift
	PUB=${PUB:-$BATS_TEST_TMPDIR/pub.git}
	url=${url:-file://$PUB}
	if [ -e "$PUB" ] || [ "$url" != "file://$PUB" ]; then
		# shellcheck disable=SC2086 # a list of refs
		publish $refs && request "$@"
		return
	fi
	key=
	if ! plain_top . || ! repo_files "$top/.git/HEAD" "$top/.git/packed-refs" \
		"$top/.git/refs" "$top/.git/config" "$HOME/.gitconfig" \
		"${XDG_CONFIG_HOME:-$HOME/.config}/git/config"; then
		key=$(git for-each-ref --format='%(objectname) %(refname)' &&
			git config --list) || return
	fi
	key+=$'\n'"$refs -- $*"
	memo_env
	if memo_find requests "$key"; then
		request_restore && cp -a "$memo/pub.git" "$PUB"
		return
	fi
	# shellcheck disable=SC2086 # a list of refs
	publish $refs && request "$@" || return
	request_keep "$key" "$PUB"
}

# memo_env: what a kept state depends on beside its files, at the end
# of $key: PATH and the GIT_* variables.
memo_env() {
	local name
	key+=$'\n'PATH=$PATH
	for name in "${!GIT_@}"; do
		key+=$'\n'$name=${!name}
	done
}

# memo_find <kind> <key>: the directory of CLEAN_DIFFSTAT_TEST_CACHE/<kind>
# (or BATS_RUN_TMPDIR's) kept for <key> (the path of the test's
# directory in it written @TEST@), in $memo; else fail, $memo that
# directory of <kind>.  The key is compared with the kept ones, a file
# each: no process started for a checksum, and as many of them as
# states asked for, a few dozen a run.
memo_find() {
	local kept
	key=${2//"$BATS_TEST_TMPDIR"/@TEST@}
	for memo in "${CLEAN_DIFFSTAT_TEST_CACHE:-$BATS_RUN_TMPDIR}/$1"/kept.*; do
		[ -f "$memo/key" ] || continue
		kept=
		IFS= read -r -d '' kept <"$memo/key" || :
		[ "$kept" != "$key" ] || return 0
	done
	memo=${memo%/*}
	return 1
}

# memo_new: a new directory in memo_find's $memo, made for memo_keep,
# in $tmp.  One mkdir, no $(mktemp -d): a fork of the test's shell and
# two processes were some 20 ms of CPU for every state not kept yet.
memo_new() {
	tmp=$memo/new.${BASHPID}x$RANDOM
	[ -d "$memo" ] || mkdir -p "$memo" || return
	mkdir "$tmp"
}

# memo_keep <dir> <key>: keep <dir> (made in memo_find's $memo) for
# memo_find's <key>; <dir> is moved, whole, to a name of its own.
memo_keep() {
	printf '%s' "$2" >"$1/key" &&
	mv -T "$1" "${1%/*}/kept.${1##*.}"
}

receiver() {
	local top
	plain_top . || top=$(git rev-parse --show-toplevel) || return
	clone_linus "$top" "$BATS_TEST_TMPDIR/receiver" &&
	cd "$BATS_TEST_TMPDIR/receiver" || return
}

# clone_linus <repository> <dir>: git clone -q --no-local --single-branch
# -b linus --template= <repository> <dir> (no sample hooks: a third of a
# clone's files, none of them ever run, copied and removed in every
# test).  As publish_and_request does, the first
# test of the run to clone a state (what the clone takes of the
# repository: linus, the tags, where HEAD points, its configuration
# files; the GIT_* variables and PATH; the arguments) clones for real
# and keeps the clone in CLEAN_DIFFSTAT_TEST_CACHE (or else
# BATS_RUN_TMPDIR), its test directory's path written @TEST@ in the
# files that name it (remote.origin.url, the reflogs); the others copy
# it, put their own path back in those files and refresh the index (a
# copy's files have new inodes).  A clone is some 150 ms of CPU here,
# the copy 40: the state is read in bash (the ref files themselves,
# loose and packed), nothing but cp and git update-index started.  A
# repository that is not a plain one (see plain_top) or whose
# configuration includes other files, or a <dir> that exists already,
# is cloned for real.
clone_linus() {
	local src=$1 dst=$2 top key name memo
	if [ -e "$dst" ] || ! plain_top "$src"; then
		git clone -q --no-local --single-branch -b linus --template= "$src" "$dst"
		return
	fi
	key="$PWD: $src -> $dst"
	memo_env
	if ! repo_files "$top/.git/HEAD" "$top/.git/packed-refs" \
		"$top/.git/refs/heads/linus" "$top/.git/refs/tags" \
		"$top/.git/config" "$HOME/.gitconfig" \
		"${XDG_CONFIG_HOME:-$HOME/.config}/git/config"; then
		git clone -q --no-local --single-branch -b linus --template= "$src" "$dst"
		return
	fi
	# and the branch HEAD points to, which the clone may take for the
	# remote's HEAD when it is linus's commit
	name=${key#*$'\n'"$top/.git/HEAD:ref: "}
	name=${name%%$'\n'*}
	if [ "$name" != "$key" ]; then
		repo_files "$top/.git/$name" || return
	fi
	if memo_find clones "$key"; then
		{ [[ $dst != */* ]] || [ -d "${dst%/*}" ] || mkdir -p "${dst%/*}"; } &&
		cp -a "$memo/clone" "$dst" &&
		replace_in "$dst" "$memo/paths" @TEST@ "$BATS_TEST_TMPDIR" &&
		git -C "$dst" update-index -q --refresh >/dev/null
		return
	fi
	git clone -q --no-local --single-branch -b linus --template= "$src" "$dst" &&
	memo_keep_copy "$dst" "$BATS_TEST_TMPDIR" @TEST@ "$key"
}

# memo_keep_copy <dir> <text> <placeholder> <key>: keep a copy of <dir>
# as clone for <key>, in memo_find's $memo, <text> written <placeholder>
# in the files that name it (each a text file), listed in paths.
memo_keep_copy() {
	local tmp
	memo_new || return 0
	{
		(cd "$1" && grep -rlF -- "$2" . >"$tmp/paths" &&
		 grep -rlIF -- "$2" . | cmp -s - "$tmp/paths") &&
		cp -a "$1" "$tmp/clone" &&
		replace_in "$tmp/clone" "$tmp/paths" "$2" "$3" &&
		memo_keep "$tmp" "$4"
	} || rm -rf "$tmp"
}

# repo_files <path>...: the name and contents of each file, and of
# each file under each directory, of the paths, at the end of $key, a
# path that is not there as empty; fails for a configuration that
# includes other files (their contents would be missing).  In bash:
# refs as files, loose and packed, where git for-each-ref would cost a
# process.
repo_files() {
	local path text
	for path; do
		if [ -d "$path" ]; then
			repo_files "$path"/* "$path"/.[!.]* || return
			continue
		fi
		text=
		[ ! -f "$path" ] || IFS= read -r -d '' text <"$path" || :
		case $path:$text in
		*config:*'[include'*) return 1 ;;
		esac
		[ ! -f "$path" ] && [[ $path == *'*' ]] ||
			key+=$'\n'"$path:$text"
	done
}

# plain_top <dir>: the top of the work tree <dir> is in, in $top, found
# in bash as git finds it, when that is a plain repository: a .git
# directory up from <dir> (no GIT_DIR, no git directory met on the way
# up), its refs files (no reftable), not shallow, without grafts; else
# fail.  The path is the physical one, as git rev-parse --show-toplevel
# says it.
plain_top() {
	local here=$PWD there=$OLDPWD
	[ -z "${GIT_DIR-}" ] && CDPATH='' cd -P -- "$1" 2>/dev/null || return
	top=$PWD
	cd -- "$here" && OLDPWD=$there || return
	while [ ! -e "$top/.git" ]; do
		[ -n "$top" ] && ! { [ -f "$top/HEAD" ] && [ -d "$top/objects" ]; } ||
			return
		top=${top%/*}
	done
	[ -d "$top/.git" ] && [ ! -e "$top/.git/reftable" ] &&
	[ ! -e "$top/.git/shallow" ] && [ ! -e "$top/.git/info/grafts" ]
}

# replace_in <dir> <list> <from> <to>: in each file of <dir> that <list>
# names (a path a line), every <from> replaced by <to>.
replace_in() {
	local file text
	while IFS= read -r file; do
		text=
		IFS= read -r -d '' text <"$1/$file" || :
		printf '%s' "${text//"$3"/"$4"}" >"$1/$file" || return
	done <"$2"
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
