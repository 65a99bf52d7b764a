# shellcheck shell=bash
# What every test of git clean-diffstat needs: a world of its own (HOME,
# TMPDIR, no system config, fixed dates), the freshly built binary first
# on PATH, test_cmp, small commit helpers, the document's procedure as
# the oracle, and a checksum of a repository to prove it untouched.

# TOP: the source tree; BIN: where the git-clean-diffstat to test is
# (make test: the one just built; make valgrind: a wrapper running it
# under valgrind).
TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
BIN=${CLEAN_DIFFSTAT_DIR:-$TOP}
bats_require_minimum_version 1.5.0

setup_world() {
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
		XDG_CONFIG_HOME COLUMNS
	mkdir -p "$HOME" "$TMPDIR"
	git config --global init.defaultBranch main
	git config --global advice.detachedHead false
	test_tick=1112911993
	test_tick
	cd "$BATS_TEST_TMPDIR" || return
}

# Like git's t/: every commit one minute after the last.
test_tick() {
	test_tick=$((test_tick + 60))
	export GIT_COMMITTER_DATE="$test_tick -0700"
	export GIT_AUTHOR_DATE="$test_tick -0700"
}

# test_commit <message> <file> [<line>...]: append the lines (default: the
# message) to the file, commit, and tag the commit <message> when it is
# one word.
test_commit() {
	local msg=$1 file=$2
	shift 2
	mkdir -p "$(dirname "$file")"
	if [ $# -eq 0 ]; then
		set -- "$msg"
	fi
	printf '%s\n' "$@" >>"$file"
	git add -- "$file"
	test_tick
	git commit -q -m "$msg"
	case $msg in
	*[!A-Za-z0-9._-]*) ;;
	*) git tag "$msg" ;;
	esac
}

# on <branch> <command>...: run <command> on <branch> and commit it all.
on() {
	local branch=$1
	shift
	git checkout -q "$branch" && "$@" && git add -A &&
	test_tick && git commit -q -m "$branch: $*"
}

# test_merge <branch> [<message>]: a real merge commit on the current branch.
test_merge() {
	test_tick
	git merge -q --no-ff --no-edit ${2:+-m "$2"} "$1"
}

# fake_git <dir> <shell code>: put in $BATS_TEST_TMPDIR/<dir> a git that
# runs the code (with git's arguments as "$@") and then the real git.  Put
# <dir> first on PATH and run git-clean-diffstat itself: through
# "git clean-diffstat", git would put its own exec-path first.
fake_git() {
	local dir=$BATS_TEST_TMPDIR/$1 real
	real=$(command -v git)
	mkdir -p "$dir"
	printf '#!/bin/sh\n%s\nexec "%s" "$@"\n' "$2" "$real" >"$dir/git"
	chmod +x "$dir/git"
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
test_cmp() {
	diff -u "$1" "$2"
}

# The kernel document's procedure, literally, in a throwaway copy of the
# repository the current directory is in (cp -a, so configuration, refs and
# all come along), from the same subdirectory:
#
#	git checkout -b TEMP <upstream> && git merge <head> &&
#	git diff <diff-args, default -C --stat --summary> <upstream>..TEMP [-- <pathspec>]
#
# procedure_diffstat <upstream> <head> [<diff-arg>...] [-- <pathspec>...]
procedure_diffstat() {
	local upstream=$1 head=$2 top prefix copy
	shift 2
	top=$(git rev-parse --show-toplevel) || return
	prefix=$(git rev-parse --show-prefix) || return
	copy=$(mktemp -d "$BATS_TEST_TMPDIR/procedure.XXXXXX")
	rm -rf "$copy" && cp -a "$top" "$copy" || return
	local args=() paths=() seen_dashdash=
	for a in "$@"; do
		if [ -n "$seen_dashdash" ]; then
			paths+=("$a")
		elif [ "$a" = -- ]; then
			seen_dashdash=1
		else
			args+=("$a")
		fi
	done
	[ ${#args[@]} -gt 0 ] || args=(-C --stat --summary)
	(
		cd "$copy/$prefix" &&
		git checkout -q -b TEMP "$upstream" &&
		test_tick &&
		git merge -q --no-edit "$head" >/dev/null &&
		git diff "${args[@]}" "$upstream..TEMP" -- "${paths[@]}"
	)
	local rc=$?
	rm -rf "$copy"
	return $rc
}

# A checksum of every file of a repository (its .git, or the bare
# repository itself) and of its working tree, with the list of names,
# and the count of loose objects: equal before and after means untouched.
repo_checksum() {
	local dir=${1:-.}
	(
		cd "$dir" &&
		find . -type f -print0 | LC_ALL=C sort -z |
			xargs -0 sha256sum &&
		find . -print | LC_ALL=C sort &&
		git count-objects
	)
}

# No quarantine left in TMPDIR.
assert_no_tempdir() {
	local left
	left=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 -name 'git-clean-diffstat.*')
	[ -z "$left" ] || { echo "left behind: $left" >&2; return 1; }
}
