# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# The oracles the tool is judged by, each run for real by git in a
# throwaway copy of the repository the current directory is in (cp -a,
# so configuration, refs and all come along), from the same
# subdirectory, so that the repository itself never gets an object.
# Each takes <upstream> <head> [<diff-arg>...] [-- <pathspec>...].
#
#   procedure_diffstat     the kernel document's procedure, literally:
#	git checkout -b TEMP <upstream> && git merge <head> &&
#	git diff <diff-args, default -C --stat --summary> <upstream>..TEMP
#   conflicted_procedure_diffstat
#                          the procedure when its git merge conflicts:
#                          git diff of <upstream> against the work tree
#                          git merge leaves, conflict markers and all
#   merge_tree_diff        for a merge that conflicts: git diff of
#                          <upstream> against the tree git merge-tree
#                          writes, conflict markers and all
#   merged_tree            the id of the tree git merge-tree writes
#   request_pull_diffstat  what git request-pull shows: git diff
#                          <diff-args, default -M --stat --summary> from
#                          the one merge base git merge-base picks

procedure_diffstat() {
	in_copy procedure "$@"
}

# Each oracle run in a copy is two functions: <name>_prepare
# <upstream> <head>, the merge, run once in a new copy (failing, it
# fails the oracle), and <name>_show <upstream> <head> [<pathspec>...],
# what the oracle prints, run in that copy for each call (see in_copy).
procedure_prepare() {
	procedure_merge "$1" "$2"
}

procedure_show() {
	local upstream=$1
	shift 2
	git diff "${diff_args[@]}" "$upstream..TEMP" -- "$@"
}

# procedure_merge <upstream> <head>: git merge <head> on TEMP, a new
# branch at <upstream>; 0 when it merges, 1 when it conflicts.
procedure_merge() {
	git checkout -q -b TEMP "$1" || return 2
	test_tick
	git merge -q --no-edit "$2" >/dev/null
}

conflicted_procedure_diffstat() {
	in_copy conflicted_procedure "$@"
}

# Fails unless git merge conflicts.
conflicted_procedure_prepare() {
	local rc=0
	procedure_merge "$1" "$2" 2>/dev/null || rc=$?
	[ "$rc" -eq 1 ] &&
	git add -A
}

conflicted_procedure_show() {
	local upstream=$1
	shift 2
	git diff --cached "${diff_args[@]}" "$upstream" -- "$@"
}

merge_tree_diff() {
	in_copy merge_tree "$@"
}

# The tree is kept beside the copy (in $copy.tree), for the next calls.
merge_tree_prepare() {
	local tree
	tree=$(merged_tree_in_copy "$1" "$2") &&
	echo "$tree" >"$copy.tree"
}

merge_tree_show() {
	local upstream=$1 tree
	shift 2
	IFS= read -r tree <"$copy.tree" &&
	git diff "${diff_args[@]}" "$upstream" "$tree" -- "$@"
}

# merged_tree <upstream> <head>: the id of the tree git merge-tree
# writes, which the repository itself never gets.
merged_tree() {
	in_copy merged_tree_only "$@"
}

merged_tree_only_prepare() {
	merge_tree_prepare "$@"
}

merged_tree_only_show() {
	cat "$copy.tree"
}

# By commit id, as the tool merges: a file moved aside by a
# file/directory conflict is named after it (path~<id>).
merged_tree_in_copy() {
	git merge-tree --write-tree \
		"$(git rev-parse "$1")" "$(git rev-parse "$2")" | head -n 1
}

request_pull_diffstat() {
	local upstream=$1 head=$2 diff_args paths
	shift 2
	split_diff_args "$@"
	[ ${#diff_args[@]} -gt 0 ] || diff_args=(-M --stat --summary)
	git diff "${diff_args[@]}" \
		"$(git merge-base "$upstream" "$head")" "$head" -- "${paths[@]}"
}

# in_copy <oracle> <upstream> <head> [<diff-arg>...] [-- <pathspec>...]:
# with the diff arguments in diff_args, <oracle>_prepare <upstream>
# <head> then <oracle>_show <upstream> <head> <pathspec>... in a copy of
# the repository, from the same subdirectory (both may use $copy, the
# copy's path, for files of their own beside it).  The copy is kept for the
# rest of the test (its shell): the next call of the same oracle for the
# same <upstream> and <head> from the same directory, with other diff
# arguments or paths, runs only <oracle>_show in it (git diff in the
# merged copy), when nothing that could change what the merge makes has
# changed since the copy was made (oracle_key).
declare -gA oracle_copies=() oracle_keys=()
in_copy() {
	local oracle=$1 upstream=$2 head=$3 top prefix copy rc=0 diff_args paths
	local slot key=
	shift 3
	split_diff_args "$@"
	[ ${#diff_args[@]} -gt 0 ] || diff_args=(-C --stat --summary)
	# the top of the work tree: where we are, less the prefix (none
	# at a plain top, is_plain_top; else git says, into a file: no
	# subshell to fork)
	prefix=
	if ! is_plain_top "$PWD"; then
		git rev-parse --show-prefix >"$BATS_TEST_TMPDIR/oracle-prefix" ||
			return
		IFS= read -r -d '' prefix <"$BATS_TEST_TMPDIR/oracle-prefix" || :
		prefix=${prefix%$'\n'}
	fi
	top=${PWD%/"${prefix%/}"}
	slot=$oracle$'\n'$upstream$'\n'$head$'\n'$PWD
	! oracle_key "$top" || key=$REPLY
	copy=${oracle_copies[$slot]-}
	if [ -n "$copy" ] && [ -n "$key" ] && [ -d "$copy" ] &&
	   [ "${oracle_keys[$slot]}" = "$key" ]; then
		(cd "$copy/$prefix" && "${oracle}_show" "$upstream" "$head" "${paths[@]}")
		return
	fi
	if [ -n "$copy" ]; then
		rm -rf "$copy" "$copy.tree"
		unset 'oracle_copies[$slot]' 'oracle_keys[$slot]'
	fi
	copy=$BATS_TEST_TMPDIR/copy.$BASHPID.$((++copies))
	cp -a "$top" "$copy" || return
	(
		cd "$copy/$prefix" && "${oracle}_prepare" "$upstream" "$head" &&
		"${oracle}_show" "$upstream" "$head" "${paths[@]}"
	) || rc=$?
	if [ "$rc" -eq 0 ] && [ -n "$key" ]; then
		oracle_copies[$slot]=$copy oracle_keys[$slot]=$key
	else
		rm -rf "$copy" "$copy.tree"
	fi
	return $rc
}

# oracle_key <top>: in $REPLY, all that a merge in a copy of the
# repository whose work tree is <top> can depend on: the repository's
# state (t/helper/test-repo-state --tree: every file of the work tree
# and of the git directory in it, byte for byte: refs, configuration,
# index, objects),
# the global configuration and attributes, the GIT_* variables, the
# git on PATH; fails when the copy may depend on more: its git directory
# is not <top>/.git (a worktree, a separate git directory: the copy
# would share it), it borrows objects (alternates) or fetches them
# (a partial clone), git is a fake (fake_git).
oracle_key() {
	local top=$1 git name config file
	git_path || return
	git=$REPLY
	REPLY=
	case $git in "$BATS_TEST_TMPDIR"/*) return 1 ;; esac
	is_plain_top "$top" &&
	[ ! -e "$top/.git/objects/info/alternates" ] || return
	IFS= read -r -d '' config <"$top/.git/config" || :
	case $config in *[Pp]romisor* | *[Pp]artial[Cc]lone*) return 1 ;; esac
	"$TOP/t/helper/test-repo-state" --tree "$top" >"$BATS_TEST_TMPDIR/oracle-key" ||
		return
	IFS= read -r -d '' REPLY <"$BATS_TEST_TMPDIR/oracle-key" || :
	REPLY+=$'\n'$git$'\n'$PATH
	for name in "${!GIT_@}"; do
		[[ ${!name@a} != *x* ]] || REPLY+=$'\n'$name=${!name}
	done
	for file in "$HOME/.gitconfig" "$HOME/.config/git/config" \
		"$HOME/.config/git/attributes"; do
		config=
		[ ! -f "$file" ] || IFS= read -r -d '' config <"$file" || :
		REPLY+=$'\n'$file:${#config}:$config
	done
}

# split_diff_args [<diff-arg>...] [-- <pathspec>...]: diff_args and paths.
split_diff_args() {
	diff_args=() paths=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		diff_args+=("$1")
		shift
	done
	[ $# -eq 0 ] || shift
	paths=("$@")
}
