# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# What every test of git clean-diffstat loads: a world of its own (HOME,
# TMPDIR, no system config, fixed dates), the git-clean-diffstat to test
# first on PATH, the commit helpers, and, from t/lib, the way to run and
# judge the tool, fake git included (tool.bash), the oracles it is judged
# by (procedure.bash), the document's histories (histories.bash), the
# servers on the loopback that tests fetch from (servers.bash) and pull
# requests sent and received (requests.bash).
#
# A test file starts with
#
#	load test_helper
#	setup() { setup_world; history_messy; }
#
# and each @test runs in $BATS_TEST_TMPDIR, which bats removes after it.

# TOP: the source tree; BIN: where the git-clean-diffstat to test is
# (make test: the one just built; make valgrind: t/valgrind, a wrapper
# running it under valgrind).  TOP is the parent of the test's directory
# in bash: bats made that directory absolute already (cd, $PWD), and a
# $(cd ... && pwd) here was a fork of a shell full of functions, some
# 18 ms of CPU for every test of the suite.
TOP=${BATS_TEST_DIRNAME%/*}
BIN=${CLEAN_DIFFSTAT_DIR:-$TOP}
bats_require_minimum_version 1.5.0

load lib/tool
load lib/procedure
load lib/histories
load lib/servers
load lib/requests

setup_world() {
	# bats traces every command of every function for its stack
	# traces, at a cost of about a quarter of the suite's time: off, and
	# the judges name the line of the test that failed (failed_at)
	set +T
	export PATH="$BIN:$PATH"
	export HOME="$BATS_TEST_TMPDIR/home"
	export TMPDIR="$BATS_TEST_TMPDIR/tmp"
	export GIT_CONFIG_NOSYSTEM=1 LC_ALL=C TZ=UTC
	export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL=author@example.com
	export GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL=committer@example.com
	unset GIT_DIR GIT_WORK_TREE GIT_COMMON_DIR GIT_INDEX_FILE \
		GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES \
		GIT_CEILING_DIRECTORIES GIT_PAGER PAGER GIT_EXTERNAL_DIFF \
		GIT_CONFIG_GLOBAL GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT \
		GIT_DEFAULT_HASH XDG_CONFIG_HOME COLUMNS
	mkdir -p "$HOME" "$TMPDIR"
	# no git maintenance run --auto after every commit and merge, nor
	# git gc --auto in a repository pushed to
	printf '%s\n' '[init]' '	defaultBranch = main' \
		'[advice]' '	detachedHead = false' \
		'[maintenance]' '	auto = false' \
		'[receive]' '	autogc = false' >"$HOME/.gitconfig"
	test_tick=1112911993
	test_tick
	cd "$BATS_TEST_TMPDIR" || return
}

# fast_import [<option>...]: git fast-import of stdin, for a history
# of many objects.  After each object git frees what zlib took (some
# 256 kB), glibc's malloc gives it back to the system and takes it again
# for the next: some 22,000 brk calls for 5,000 blobs, nine tenths of
# fast-import's CPU in the kernel.  A trim threshold above that keeps
# it (other C libraries ignore the variable).
fast_import() {
	GLIBC_TUNABLES=glibc.malloc.trim_threshold=268435456 git fast-import "$@"
}

# Like git's t/: every commit one minute after the last.
test_tick() {
	test_tick=$((test_tick + 60))
	export GIT_COMMITTER_DATE="$test_tick -0700"
	export GIT_AUTHOR_DATE="$test_tick -0700"
}

# commit_all <message>: commit the whole work tree as it is, and tag the
# commit <message> when that is one word.
commit_all() {
	git add -A &&
	test_tick &&
	git commit -q -m "$1" &&
	tag_one_word "$1"
}

tag_one_word() {
	case $1 in
	'' | *[!A-Za-z0-9._-]*) ;;
	*) git tag "$1" ;;
	esac
}

# test_commit <message> <file> [<line>...]: append the lines (default: the
# message) to the file and commit_all.
test_commit() {
	local msg=$1 file=$2
	shift 2
	make_parent "$file"
	if [ $# -eq 0 ]; then
		set -- "$msg"
	fi
	printf '%s\n' "$@" >>"$file" &&
	commit_all "$msg"
}

# make_parent <path>: the directory <path> is in, made if need be; in
# bash as far as it goes (no dirname), as histories are made of these.
make_parent() {
	case $1 in
	*/*) mkdir -p "${1%/*}/" ;;
	esac
}

# on <branch> <command>...: run <command> on <branch> and commit it all.
on() {
	local branch=$1
	shift
	git checkout -q "$branch" && "$@" && commit_all "$branch: $*"
}

# test_merge <branch> [<message>]: a real merge commit on the current
# branch, tagged <message> when that is one word.
test_merge() {
	test_tick
	git merge -q --no-ff --no-edit ${2:+-m "$2"} "$1" >/dev/null &&
	tag_one_word "${2-}"
}

# Does the git-clean-diffstat to test run under a wrapper (valgrind)?
tool_is_wrapped() {
	[ "$(head -c 4 "$BIN/git-clean-diffstat")" != "$(printf '\177ELF')" ]
}

# git_at_least <major> <minor>: is the git on PATH that new?
git_at_least() {
	local v major minor
	v=$(git version | sed -n 's/^git version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
	read -r major minor <<<"$v"
	[ "$major" -gt "$1" ] || { [ "$major" -eq "$1" ] && [ "$minor" -ge "$2" ]; }
}

# requires_git <major>.<minor>: a test of a git feature that came with
# that release skips on an older git, saying so.
requires_git() {
	git_at_least "${1%%.*}" "${1#*.}" || skip "needs git $1 or later"
}

# test_cmp <expect> <actual>: the same bytes, or fail showing the diff.
# Two files of text (no NUL), as nearly all are, are compared in bash:
# diff only shows how they differ.  Stdin ("-") and a file with a NUL
# in it are diff's to compare.
test_cmp() {
	local expect
	if [ "$1" != - ] && [ "$2" != - ] && read_text "$1"; then
		expect=$REPLY
		read_text "$2" && [ "$expect" = "$REPLY" ] && return
	fi
	diff -u "$1" "$2" || failed_at
}

# read_text <file>: the bytes of <file> in $REPLY; fails when it has a
# NUL (which bash cannot hold) or cannot be read.
read_text() {
	local rc=0
	REPLY=
	{ IFS= read -r -d '' REPLY || rc=$?; } 2>/dev/null <"$1" || return
	[ "$rc" -eq 1 ]
}

# save_stdin <file>: stdin, byte for byte, into <file>; in bash, but
# for what follows a NUL (cat's).
save_stdin() {
	local text='' rc=0
	IFS= read -r -d '' text || rc=$?
	if [ "$rc" -eq 0 ]; then
		{ printf '%s\0' "$text" && cat; } >"$1"
	else
		printf '%s' "$text" >"$1"
	fi
}

# failed_at: say which line of the test called the judge that fails,
# and fail; bats's own trace cannot, setup_world having turned it off.
failed_at() {
	local i
	for ((i = 1; i < ${#FUNCNAME[@]}; i++)); do
		if [ "${FUNCNAME[i]}" = "$BATS_TEST_NAME" ]; then
			echo "failed at ${BATS_TEST_FILENAME#"$TOP/"}, line ${BASH_LINENO[i - 1]}" >&2
			break
		fi
	done
	return 1
}

# expect_differ <file> <file>: not the same bytes (a test that a case
# really tells two things apart).
expect_differ() {
	if cmp -s "$1" "$2"; then
		echo "$1 and $2 are the same: the test tells nothing apart" >&2
		failed_at
	fi
}
