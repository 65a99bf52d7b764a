#!/usr/bin/env bats
# A conflicted merge: the diffstat of the tree merge-tree wrote (what the
# upstream maintainer starts from) on stdout, a warning listing every
# conflicted path with its kind on stderr, exit 1.

load test_helper

setup() {
	setup_world
	git init -q repo
	cd repo || return
	seq 1 9 >common.c
	seq 11 19 >gone.c
	seq 21 29 >moved.c
	seq 31 39 >doomed.c
	printf 'bin\0base' >image.bin
	echo file >path
	git add . && test_tick && git commit -q -m base
	git branch topic
}

# conflicts_as_expected: stdout is git diff -C --stat --summary of main
# against the tree git merge-tree writes (computed in a copy, so that the
# repository gets no object), stderr is exactly ./expect-stderr, exit 1,
# and the repository is untouched.
conflicts_as_expected() {
	local before status=0 tree
	git checkout -q main
	before=$(repo_checksum)
	rm -rf ../copy && cp -a . ../copy
	# by commit id, as the tool merges: a file moved aside by a
	# file/directory conflict is named after it (path~<id>)
	tree=$(git -C ../copy merge-tree --write-tree \
		"$(git rev-parse main)" "$(git rev-parse topic)" | head -n 1)
	git -C ../copy diff -C --stat --summary main "$tree" >../expect-stdout
	git clean-diffstat main topic >../stdout 2>../stderr || status=$?
	[ "$status" -eq 1 ] || { echo "exit $status" >&2; return 1; }
	test_cmp ../expect-stdout ../stdout
	test_cmp ../expect-stderr ../stderr
	[ "$before" = "$(repo_checksum)" ]
	assert_no_tempdir
}

# warning [none|some]: the first line of the warning, which says that the
# counts include conflict markers when all conflicted files (or some:
# those listed "with conflict markers") have them
warning() {
	case ${1-all} in
	all) echo "warning: merging 'topic' into 'main' conflicts; the counts of conflicted files include conflict markers:" ;;
	some) echo "warning: merging 'topic' into 'main' conflicts; the counts of files listed with conflict markers include them:" ;;
	none) echo "warning: merging 'topic' into 'main' conflicts:" ;;
	esac
}

@test "a content conflict is listed as content" {
	on main sed -i 5s/.*/main/ common.c
	on topic sed -i 5s/.*/topic/ common.c
	{ warning; echo "  common.c (content)"; } >../expect-stderr
	conflicts_as_expected
	grep -q '^ common.c | 4 ++++$' ../stdout
}

@test "an add/add conflict is listed as add/add" {
	on main sh -c 'echo main >new.c'
	on topic sh -c 'echo topic >new.c'
	{ warning; echo "  new.c (add/add)"; } >../expect-stderr
	conflicts_as_expected
}

@test "a modify/delete conflict is listed as modify/delete" {
	on main git rm -q gone.c
	on topic sed -i 3s/.*/topic/ gone.c
	{ warning none; echo "  gone.c (modify/delete)"; } >../expect-stderr
	conflicts_as_expected
}

@test "a rename/rename conflict lists both names" {
	on main git mv moved.c main-name.c
	on topic git mv moved.c topic-name.c
	{ warning none
	  echo "  main-name.c (rename/rename)"
	  echo "  moved.c (rename/rename)"
	  echo "  topic-name.c (rename/rename)"
	} >../expect-stderr
	conflicts_as_expected
}

@test "a rename/delete conflict is listed as rename/delete" {
	on main git rm -q doomed.c
	on topic git mv doomed.c saved.c
	{ warning none; echo "  saved.c (rename/delete)"; } >../expect-stderr
	conflicts_as_expected
}

@test "a file/directory conflict is listed as file/directory" {
	on main sh -c 'echo more >>path'
	on topic sh -c 'git rm -q path && mkdir path && echo f >path/file'
	conflicts=path~$(git rev-parse main)
	{ warning none; echo "  $conflicts (file/directory, modify/delete)"; } >../expect-stderr
	conflicts_as_expected
}

@test "a binary conflict is listed as binary" {
	on main sh -c "printf 'bin\0main' >image.bin"
	on topic sh -c "printf 'bin\0topic' >image.bin"
	{ warning none; echo "  image.bin (binary, content)"; } >../expect-stderr
	conflicts_as_expected
	# git keeps main's side of a binary file: nothing to count
	[ ! -s ../stdout ]
}

@test "a submodule conflict is listed as submodule" {
	one=$(git rev-parse main)
	git commit -q --allow-empty -m "a second commit"
	two=$(git rev-parse main)
	git update-index --add --cacheinfo "160000,$one,sub"
	test_tick && git commit -q -m "main: sub at one"
	git branch -f topic main
	git update-index --cacheinfo "160000,$two,sub"
	test_tick && git commit -q -m "main: sub at two"
	git checkout -q topic
	git update-index --cacheinfo "160000,$(git rev-parse HEAD),sub"
	test_tick && git commit -q -m "topic: sub elsewhere"
	{ warning none; echo "  sub (submodule not initialized, submodule)"; } >../expect-stderr
	conflicts_as_expected
}

@test "many conflicts are all listed, in path order" {
	on main sh -c 'sed -i 5s/.*/main/ common.c && git rm -q gone.c && echo main >new.c'
	on topic sh -c 'sed -i 5s/.*/topic/ common.c && sed -i 3s/.*/t/ gone.c && echo topic >new.c'
	{ warning some
	  echo "  common.c (content, with conflict markers)"
	  echo "  gone.c (modify/delete)"
	  echo "  new.c (add/add, with conflict markers)"
	} >../expect-stderr
	conflicts_as_expected
}

@test "conflicted paths are quoted as git quotes them, after core.quotePath" {
	name=$(printf 'caf\303\251 "x".c')
	on main sh -c "echo main >'$name'"
	on topic sh -c "echo topic >'$name'"
	{ warning; printf '%s\n' '  "caf\303\251 \"x\".c" (add/add)'; } >../expect-stderr
	conflicts_as_expected
	git config core.quotePath false
	{ warning; printf '  "caf\303\251 \\"x\\".c" (add/add)\n'; } >../expect-stderr
	conflicts_as_expected
}

@test "a conflict on a path topic renamed is listed under its new name" {
	on main sed -i 5s/.*/main/ moved.c
	on topic sh -c 'git mv moved.c renamed.c && sed -i 5s/.*/topic/ renamed.c'
	{ warning; echo "  renamed.c (content)"; } >../expect-stderr
	conflicts_as_expected
}

@test "a file added where upstream renamed its directory is listed as file location" {
	mkdir src && seq 1 5 >src/a.c
	on main true
	git branch -f topic main
	on main git mv src lib
	on topic sh -c 'echo new >src/new.c'
	{ warning none; echo "  lib/new.c (file location)"; } >../expect-stderr
	conflicts_as_expected
}

@test "a criss-cross whose merge bases conflict with each other" {
	on main sed -i 5s/.*/main/ common.c
	git branch m1 main
	on topic sed -i 5s/.*/topic/ common.c
	git branch t1 topic
	# each side merges the other's first commit, resolving differently
	on main sh -c 'git merge -q t1 >/dev/null; seq 1 9 | sed 5s/.*/main+topic/ >common.c'
	on topic sh -c 'git merge -q m1 >/dev/null; seq 1 9 | sed 5s/.*/topic+main/ >common.c'
	[ "$(git merge-base --all main topic | wc -l)" -eq 2 ]
	{ warning; echo "  common.c (content)"; } >../expect-stderr
	conflicts_as_expected
}

@test "a conflict with an output format option: that format of merge-tree's tree" {
	on main sh -c 'sed -i 5s/.*/main/ common.c && echo main >main-only.c'
	on topic sh -c 'sed -i 5s/.*/topic/ common.c && git mv moved.c topic-name.c'
	git checkout -q main
	for format in --numstat --name-status -p; do
		merge_tree_diff main topic -C "$format" >../expect-stdout
		status=0
		git clean-diffstat "$format" main topic >../stdout 2>../stderr ||
			status=$?
		[ "$status" -eq 1 ]
		test_cmp ../expect-stdout ../stdout
		{ warning; echo "  common.c (content)"; } | test_cmp - ../stderr
	done
	assert_no_tempdir
}

@test "a conflict seen from a subdirectory lists each path once, from the top" {
	# git merge-tree names conflicted file info relative to the current
	# directory but its messages from the top: one line per path still
	mkdir -p dir && seq 1 9 >dir/inner.c
	on main true
	git branch -f topic main
	on main sed -i 5s/.*/main/ dir/inner.c common.c
	on topic sed -i 5s/.*/topic/ dir/inner.c common.c
	git checkout -q main
	cd dir
	merge_tree_diff main topic -C --stat --summary -- . >../../expect-stdout
	status=0
	git clean-diffstat main topic -- . >../../stdout 2>../../stderr || status=$?
	[ "$status" -eq 1 ]
	test_cmp ../../expect-stdout ../../stdout
	{ warning; echo "  common.c (content)"; echo "  dir/inner.c (content)"; } |
		test_cmp - ../../stderr
}

# merge_tree_diff <up> <head> <diff-args>... [-- <pathspec>...]: git diff
# of <up> against the tree git merge-tree writes for the merge, both run
# in a copy of the repository (so that it gets no object), from the
# same subdirectory.
merge_tree_diff() {
	local up=$1 head=$2 top prefix copy=$BATS_TEST_TMPDIR/merge-tree-copy
	local diff_args=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		diff_args+=("$1")
		shift
	done
	top=$(git rev-parse --show-toplevel) || return
	prefix=$(git rev-parse --show-prefix) || return
	rm -rf "$copy" && cp -a "$top" "$copy" || return
	(
		cd "$copy/$prefix" || exit
		tree=$(git -C "$copy" merge-tree --write-tree \
			"$(git rev-parse "$up")" "$(git rev-parse "$head")" |
			head -n 1)
		git diff "${diff_args[@]}" "$up" "$tree" "$@"
	)
}

@test "a symlink conflict is listed as symlink, with no word of conflict markers" {
	ln -s base-target link && git add link && test_tick && git commit -q -m link
	git branch -f topic main
	on main sh -c 'ln -sfn main-target link'
	on topic sh -c 'ln -sfn topic-target link'
	# merge-tree says "content", and the merged tree keeps main's link
	[ "$(git merge-tree --write-tree --name-only main topic | sed -n 2p)" = link ]
	{ warning none; echo "  link (symlink)"; } >../expect-stderr
	conflicts_as_expected
	[ ! -s ../stdout ]
}

@test "conflict markers are claimed for the text files that have them only" {
	ln -s base-target link && git add link && test_tick && git commit -q -m link
	git branch -f topic main
	on main sh -c 'ln -sfn main-target link && sed -i 5s/.*/main/ common.c'
	on topic sh -c 'ln -sfn topic-target link && sed -i 5s/.*/topic/ common.c'
	{ warning some
	  echo "  common.c (content, with conflict markers)"
	  echo "  link (symlink)"
	} >../expect-stderr
	conflicts_as_expected
}
