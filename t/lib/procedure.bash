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
	in_copy procedure_in_copy "$@"
}

procedure_in_copy() {
	local upstream=$1 head=$2
	shift 2
	procedure_merge "$upstream" "$head" &&
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
	in_copy conflicted_procedure_in_copy "$@"
}

# Fails unless git merge conflicts.
conflicted_procedure_in_copy() {
	local upstream=$1 head=$2 rc=0
	shift 2
	procedure_merge "$upstream" "$head" 2>/dev/null || rc=$?
	[ "$rc" -eq 1 ] &&
	git add -A &&
	git diff --cached "${diff_args[@]}" "$upstream" -- "$@"
}

merge_tree_diff() {
	in_copy merge_tree_diff_in_copy "$@"
}

merge_tree_diff_in_copy() {
	local upstream=$1 head=$2
	shift 2
	git diff "${diff_args[@]}" "$upstream" \
		"$(merged_tree_in_copy "$upstream" "$head")" -- "$@"
}

# merged_tree <upstream> <head>: the id of the tree git merge-tree
# writes, which the repository itself never gets.
merged_tree() {
	in_copy merged_tree_in_copy "$@"
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

# in_copy <function> <upstream> <head> [<diff-arg>...] [-- <pathspec>...]:
# run <function> <upstream> <head> <pathspec>... in the copy, with the
# diff arguments in diff_args.
in_copy() {
	local fn=$1 upstream=$2 head=$3 top prefix copy rc=0 diff_args paths
	shift 3
	split_diff_args "$@"
	[ ${#diff_args[@]} -gt 0 ] || diff_args=(-C --stat --summary)
	# the top of the work tree: where we are, less the prefix
	prefix=$(git rev-parse --show-prefix) || return
	top=${PWD%/"${prefix%/}"}
	copy=$BATS_TEST_TMPDIR/copy.$BASHPID.$((++copies))
	cp -a "$top" "$copy" || return
	(cd "$copy/$prefix" && "$fn" "$upstream" "$head" "${paths[@]}") || rc=$?
	rm -rf "$copy"
	return $rc
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
