# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Running the tool and judging the run: the one way every test does it.
# What a run printed lives in $BATS_TEST_TMPDIR, outside every
# repository, so that it never shows up in a work tree the oracle copies.
#
#   run_tool <args>...     git clean-diffstat <args>: stdout in
#                          $BATS_TEST_TMPDIR/actual, stderr in
#                          $BATS_TEST_TMPDIR/stderr, the exit status in
#                          $status, and the repository's state before
#   capture <command>...   the same for any command (a tool run in a
#                          special way: call remember_repo first)
#   fake_git <shell code>  git is a fake from now on, see below
#   start_tool <args>...   run_tool in the background, its own process
#                          group, SIGINT and SIGQUIT at their defaults;
#                          wait_tool waits
#   expect_procedure <procedure_diffstat args>...
#                          the oracle's output is the expected stdout
#   expect_merge_tree_diff <merge_tree_diff args>...
#                          the same, for a merge that conflicts
#   matches_procedure      exit 0, stdout what the oracle printed,
#                          nothing on stderr, the repository unchanged
#   clean_diffstat_is <upstream> <head>
#                          the tool prints for them what the procedure
#                          prints (matches_procedure), and that is the
#                          diffstat on stdin
#   matches_merge_tree <upstream> <head> [all|some|none]
#                          exit 1, stdout what merge_tree_diff printed,
#                          stderr the warning that merging conflicts and
#                          the conflicted paths on stdin, the repository
#                          unchanged; the warning says that the counts
#                          include conflict markers for all conflicted
#                          files (default), for some (those listed "with
#                          conflict markers") or for none (no file has
#                          them: a symlink, binary, modify/delete ...)
#   expect_failure <n>     exit <n>, nothing on stdout, stderr exactly
#                          stdin, the repository unchanged
#   expect_status <n>      the last run's exit status is <n>
#   expect_stdout, expect_stderr
#                          the last run's stdout/stderr is stdin exactly
#   expect_no_stderr       the last run printed nothing on stderr
#   expect_unchanged       the repository as it was before the run, and
#                          nothing left in TMPDIR
#   differs_from_default <args>...
#                          the tool given <args> prints something else
#                          than the last run: an option made a difference
#   tool_options           the option names -h lists, one a line
#
# Each judge is an && chain, so that it fails as a whole even where bash
# ignores errexit (in a function called before ||, && or after !).

# How the tool is run (an array); fake_git changes it to the binary
# itself.
TOOL=(git clean-diffstat)

# fake_git <shell code>: from now on git is a script that runs the code
# (git's arguments in "$@", the real git in $real_git) and then the real
# git, and the tool is run as git-clean-diffstat: through "git
# clean-diffstat", git would put its exec-path, and so the real git,
# first on PATH.
fake_git() {
	local dir=$BATS_TEST_TMPDIR/fake-git
	mkdir -p "$dir"
	# shellcheck disable=SC2016 # $real_git and $@ are the fake's
	printf '#!/bin/sh\nreal_git='\''%s'\''\n%s\nexec "$real_git" "$@"\n' \
		"$(command -v git)" "$1" >"$dir/git"
	chmod +x "$dir/git"
	PATH=$dir:$PATH
	TOOL=(git-clean-diffstat)
}

capture() {
	status=0
	"$@" >"$BATS_TEST_TMPDIR/actual" 2>"$BATS_TEST_TMPDIR/stderr" ||
		status=$?
}

run_tool() {
	remember_repo &&
	capture "${TOOL[@]}" "$@"
}

start_tool() {
	remember_repo || return
	# A background job of a script starts with SIGINT and SIGQUIT
	# ignored; perl puts the defaults back, as an interactive shell
	# would have them, and no core is dumped for SIGQUIT.  setsid makes
	# the tool's pid its process group, as a terminal's job is.  Its
	# standard input is ours: without <&0, an asynchronous list's
	# would be /dev/null.
	# shellcheck disable=SC2016 # perl's $SIG, not the shell's
	(
		ulimit -c 0
		exec setsid perl -e '$SIG{INT} = $SIG{QUIT} = "DEFAULT"; exec @ARGV or die' \
			"${TOOL[@]}" "$@"
	) <&0 >"$BATS_TEST_TMPDIR/actual" 2>"$BATS_TEST_TMPDIR/stderr" &
	TOOL_PID=$!
}

wait_tool() {
	status=0
	wait "$TOOL_PID" || status=$?
}

expect_procedure() {
	procedure_diffstat "$@" >"$BATS_TEST_TMPDIR/expect"
}

expect_merge_tree_diff() {
	merge_tree_diff "$@" >"$BATS_TEST_TMPDIR/expect"
}

expect_conflicted_procedure() {
	conflicted_procedure_diffstat "$@" >"$BATS_TEST_TMPDIR/expect"
}

expect_status() {
	[ "$status" -eq "$1" ] && return
	echo "exit status $status, not $1; stderr:" >&2
	cat "$BATS_TEST_TMPDIR/stderr" >&2
	failed_at
}

# (stdin saved and compared in bash: no cat, no diff unless they differ)
expect_stdout() {
	save_stdin "$BATS_TEST_TMPDIR/expect" &&
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
}

expect_stderr() {
	save_stdin "$BATS_TEST_TMPDIR/expect-stderr" &&
	test_cmp "$BATS_TEST_TMPDIR/expect-stderr" "$BATS_TEST_TMPDIR/stderr"
}

matches_procedure() {
	expect_status 0 &&
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual" &&
	expect_no_stderr &&
	expect_unchanged
}

clean_diffstat_is() {
	expect_procedure "$1" "$2" &&
	run_tool "$1" "$2" &&
	matches_procedure &&
	expect_stdout
}

expect_no_stderr() {
	[ ! -s "$BATS_TEST_TMPDIR/stderr" ] || expect_stderr </dev/null
}

matches_merge_tree() {
	expect_status 1 &&
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual" &&
	{
		conflict_warning "$1" "$2" "${3-all}"
		cat
	} | expect_stderr &&
	expect_unchanged
}

# conflict_warning <upstream> <head> all|some|none: the first line of the
# warning that merging <head> into <upstream> conflicts.
conflict_warning() {
	case $3 in
	all) echo "warning: merging '$2' into '$1' conflicts; the counts of conflicted files include conflict markers:" ;;
	some) echo "warning: merging '$2' into '$1' conflicts; the counts of files listed with conflict markers include them:" ;;
	none) echo "warning: merging '$2' into '$1' conflicts:" ;;
	esac
}

expect_failure() {
	expect_status "$1" &&
	expect_stderr &&
	test_cmp /dev/null "$BATS_TEST_TMPDIR/actual" &&
	expect_unchanged
}

differs_from_default() {
	local default=$BATS_TEST_TMPDIR/default

	"${TOOL[@]}" "$@" >"$default" &&
	expect_differ "$default" "$BATS_TEST_TMPDIR/actual"
}

# The option column of a usage line is what comes before the first run
# of two blanks (git's parse-options layout); "-x, --long=<arg>" gives
# both "-x" and "--long", "--[no-]x" gives "--x".
tool_options() {
	local out
	out=$("${TOOL[@]}" -h 2>&1) || :	# -h exits 129
	printf '%s\n' "$out" |
	sed -n 's/^[[:space:]]\{1,\}\(-[^[:space:]].*\)$/\1/p' |
	sed 's/  .*//' |
	tr ',' '\n' |
	sed 's/^\([[:space:]]*\)--\[no-\]/\1--/' |
	sed -n 's/^[[:space:]]*\(--\{0,1\}[[:alnum:]][-[:alnum:]]*\).*/\1/p' |
	sort -u
}

# remember_repo: note the state of the repository the current directory
# is in, for expect_unchanged.
remember_repo() {
	repo_before=$PWD &&
	repo_state . >"$BATS_TEST_TMPDIR/repo-before"
}

# The two states are text (names, modes, checksums: no NUL), compared
# in bash; diff -u only to show how they differ.
expect_unchanged() {
	local before='' after=''
	repo_state "$repo_before" >"$BATS_TEST_TMPDIR/repo-after" || return
	IFS= read -r -d '' before <"$BATS_TEST_TMPDIR/repo-before" || :
	IFS= read -r -d '' after <"$BATS_TEST_TMPDIR/repo-after" || :
	{
		[ "$before" = "$after" ] ||
		test_cmp "$BATS_TEST_TMPDIR/repo-before" "$BATS_TEST_TMPDIR/repo-after"
	} &&
	expect_no_quarantine
}

# repo_state <dir>: every name in the repository <dir> is in (its work
# tree, and its git directory wherever that is; loose objects included)
# with its type, mode and symlink target, and the checksum of every
# file: equal before and after means untouched.  Outside a repository:
# a line that says so.  The suite runs this twice a run: it is
# t/helper/test-repo-state, one process and one git; none when <dir> is
# a plain work tree's top (is_plain_top): all that git would list is
# then under <dir>, and --tree lists it all (and no less: were git to
# see something else there, it would be under <dir> too).
repo_state() {
	local dir=$1
	if [ ! -x "$TOP/t/helper/test-repo-state" ]; then
		echo "build it first: make t/helper/test-repo-state" >&2
		return 1
	fi
	case $dir in
	.) dir=$PWD ;;
	/*) ;;
	*) dir=$PWD/$dir ;;
	esac
	if is_plain_top "$dir"; then
		"$TOP/t/helper/test-repo-state" --tree "$dir"
	else
		"$TOP/t/helper/test-repo-state" "$1"
	fi
}

# is_plain_top <dir>: is <dir> the top of a work tree whose git
# directory is <dir>/.git, as git run in <dir> sees it?  Yes when
# <dir>/.git is a directory git takes for a git directory (HEAD,
# objects, refs), no variable points git elsewhere and its config has
# no core.worktree (nor anything else of a worktree); no process
# started.  Anything else (a bare repository, a linked worktree, a
# separate git directory) is a no.
is_plain_top() {
	local config=
	[ -d "$1/.git" ] && [ -f "$1/.git/HEAD" ] &&
	[ -d "$1/.git/objects" ] && [ -d "$1/.git/refs" ] &&
	[ -z "${GIT_DIR+x}${GIT_WORK_TREE+x}${GIT_COMMON_DIR+x}" ] &&
	[ -z "${GIT_OBJECT_DIRECTORY+x}${GIT_INDEX_FILE+x}" ] &&
	[ -z "${GIT_CONFIG_PARAMETERS+x}${GIT_CONFIG_COUNT+x}" ] || return
	[ ! -f "$1/.git/config" ] ||
		IFS= read -r -d '' config <"$1/.git/config" || :
	[[ ${config,,} != *worktree* ]]
}

# Nothing left in TMPDIR: no quarantine, no file of any kind.  The
# names are globbed in this shell (a $(...) would fork it), nullglob and
# dotglob put back as they were.
expect_no_quarantine() {
	local -a left
	local opts=
	shopt -q nullglob || opts+=n
	shopt -q dotglob || opts+=d
	shopt -s nullglob dotglob
	left=("$TMPDIR"/*)
	[[ $opts != *n* ]] || shopt -u nullglob
	[[ $opts != *d* ]] || shopt -u dotglob
	[ ${#left[@]} -eq 0 ] || { echo "left in TMPDIR: ${left[*]}" >&2; failed_at; }
}
