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
#   clone_linus <repository> <dir>
#                          git clone --no-local --single-branch -b
#                          linus, made once per run for a given state
#                          of the repository (see below)
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
	plain_top . || top=$(git rev-parse --show-toplevel) || return
	clone_linus "$top" "$BATS_TEST_TMPDIR/receiver" &&
	cd "$BATS_TEST_TMPDIR/receiver" || return
}

# clone_linus <repository> <dir>: git clone -q --no-local --single-branch
# -b linus <repository> <dir>.  As publish_and_request does, the first
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
	local src=$1 dst=$2 top key file text name cache memo tmp
	if [ -e "$dst" ] || ! plain_top "$src"; then
		git clone -q --no-local --single-branch -b linus "$src" "$dst"
		return
	fi
	key="$PWD: $src -> $dst"$'\n'PATH=$PATH
	for name in "${!GIT_@}"; do
		key+=$'\n'$name=${!name}
	done
	for file in "$top/.git/HEAD" "$top/.git/packed-refs" \
		"$top/.git/refs/heads/linus" "$top/.git/config" "$HOME/.gitconfig" \
		"${XDG_CONFIG_HOME:-$HOME/.config}/git/config"; do
		text=
		[ ! -f "$file" ] || IFS= read -r -d '' text <"$file" || :
		case $text in
		*'[include'*) git clone -q --no-local --single-branch -b linus "$src" "$dst"
			return ;;
		esac
		key+=$'\n'"$file:$text"
	done
	# and the branch HEAD points to, which the clone may take for the
	# remote's HEAD when it is linus's commit
	text=${key#*$'\n'"$top/.git/HEAD:ref: "}
	text=${text%%$'\n'*}
	if [ "$text" != "$key" ] && [ -f "$top/.git/$text" ]; then
		file=$top/.git/$text
		text=
		IFS= read -r -d '' text <"$file" || :
		key+=$'\n'"$file:$text"
	fi
	ref_files "$top/.git/refs/tags"
	key=${key//"$BATS_TEST_TMPDIR"/@TEST@}
	cache=${CLEAN_DIFFSTAT_TEST_CACHE:-$BATS_RUN_TMPDIR}/clones
	for memo in "$cache"/clone.*; do
		[ -f "$memo/key" ] || continue
		text=
		IFS= read -r -d '' text <"$memo/key" || :
		[ "$text" = "$key" ] || continue
		{ [[ $dst != */* ]] || [ -d "${dst%/*}" ] || mkdir -p "${dst%/*}"; } &&
		cp -a "$memo/clone" "$dst" &&
		replace_in "$dst" "$memo/paths" @TEST@ "$BATS_TEST_TMPDIR" &&
		git -C "$dst" update-index -q --refresh >/dev/null
		return
	done
	git clone -q --no-local --single-branch -b linus "$src" "$dst" || return
	mkdir -p "$cache" &&
	tmp=$(mktemp -d "$cache/new.XXXXXX") || return
	# the files that name the test's directory, each a text file
	{
		printf '%s' "$key" >"$tmp/key" &&
		(cd "$dst" && grep -rlF -- "$BATS_TEST_TMPDIR" . >"$tmp/paths" &&
		 grep -rlIF -- "$BATS_TEST_TMPDIR" . | cmp -s - "$tmp/paths") &&
		cp -a "$dst" "$tmp/clone" &&
		replace_in "$tmp/clone" "$tmp/paths" "$BATS_TEST_TMPDIR" @TEST@ &&
		mv -T "$tmp" "$cache/clone.${tmp##*.}"
	} || rm -rf "$tmp"
}

# ref_files <dir>: the name and contents of each file under <dir>, at
# the end of $key.
ref_files() {
	local f text
	for f in "$1"/* "$1"/.[!.]*; do
		if [ -d "$f" ]; then
			ref_files "$f"
		elif [ -f "$f" ]; then
			text=
			IFS= read -r -d '' text <"$f" || :
			key+=$'\n'"$f:$text"
		fi
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
