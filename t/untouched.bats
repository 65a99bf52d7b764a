#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The repository is never changed: in every kind of repository and
# setup where a careless tool would write to it (bare, linked worktree,
# dirty, read-only even for root, SHA-256, borrowing objects, packed,
# a partial clone that must fetch, hooks, a held index.lock, a textconv
# cache, a pre-receive hook), the tool gives the procedure's diffstat
# and refs, reflogs, index, working tree, config and objects stay byte
# for byte as they were (run_tool notes them, matches_procedure checks).
# shellcheck disable=SC2030,SC2031 # each @test is a subshell: its exports are local

load test_helper

setup() {
	setup_world
	history_partly_pulled
}

teardown() {
	stop_servers
}

# The default diffstat and the patch (which reads every blob) are the
# procedure's, and the repository stays as it was.
diffstat_and_patch_match_procedure() {
	expect_procedure linus topic &&
	run_tool linus topic &&
	matches_procedure &&
	expect_procedure linus topic -C -p &&
	run_tool -p linus topic &&
	matches_procedure
}

@test "a repository gets none of the objects of the merge the tool makes, for the diffstat or the patch" {
	tree=$(merged_tree linus topic)
	diffstat_and_patch_match_procedure
	[ -s "$BATS_TEST_TMPDIR/actual" ]
	run ! git cat-file -e "$tree"
}

@test "a bare repository works and is untouched" {
	expect_procedure linus topic
	git clone -q --bare . ../bare.git
	cd ../bare.git
	run_tool linus topic
	matches_procedure
}

@test "a linked worktree works, and neither it nor the main worktree changes" {
	main=$PWD
	git checkout -q linus
	expect_procedure linus topic
	git worktree add -q ../linked topic
	repo_state "$main" >"$BATS_TEST_TMPDIR/main-before"
	cd ../linked
	run_tool linus
	matches_procedure
	repo_state "$main" | test_cmp "$BATS_TEST_TMPDIR/main-before" -
}

@test "a dirty working tree and index stay as they were" {
	expect_procedure linus topic
	echo dirty >>Makefile
	echo staged >fs/new.c
	git add fs/new.c
	echo untracked >junk
	run_tool linus
	matches_procedure
	git status --porcelain >"$BATS_TEST_TMPDIR/status"
	test_cmp - "$BATS_TEST_TMPDIR/status" <<-\EOF
	 M Makefile
	A  fs/new.c
	?? junk
	EOF
}

@test "a repository whose files are read-only works, for root too" {
	expect_procedure linus topic
	ro=$(mktemp -d /tmp/clean-diffstat-ro.XXXXXX)
	cp -a . "$ro/repo"
	chmod -R a-w "$ro/repo"
	chmod 755 "$ro"
	mkdir -m 1777 "$ro/tmp"
	export TMPDIR=$ro/tmp HOME=$ro
	cd "$ro/repo"
	if [ "$(id -u)" -eq 0 ]; then
		# root writes anywhere: run as nobody, for whom the files are
		# really read-only, trusting the repository from the command
		# line; nobody may read and search everything (the git under
		# test may be under /root), never write
		nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups
			--inh-caps=+dac_read_search --ambient-caps=+dac_read_search)
		[ "$("${nobody[@]}" git version)" = "$(git version)" ]
		run ! "${nobody[@]}" touch .git/probe
		remember_repo
		GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0='*' \
			capture "${nobody[@]}" "${TOOL[@]}" linus topic
	else
		run_tool linus topic
	fi
	matches_procedure
	chmod -R u+w "$ro" && rm -rf "$ro"
}

@test "a repository on a read-only mount works even for root" {
	unshare -m true 2>/dev/null || skip "no mount namespace here"
	expect_procedure linus topic
	remember_repo
	cd ..
	capture unshare -m sh -c '
		mount --bind repo repo && mount -o remount,bind,ro repo &&
		! touch repo/.git/probe 2>/dev/null &&
		cd repo && exec "$@"' sh "${TOOL[@]}" linus topic
	matches_procedure
}

@test "a SHA-256 repository works and is untouched" {
	cd ..
	GIT_DEFAULT_HASH=sha256 history_partly_pulled sha256
	[ "$(git rev-parse --show-object-format)" = sha256 ]
	expect_procedure linus topic
	run_tool linus topic
	matches_procedure
}

@test "objects the repository borrows from an alternate are found" {
	git clone -q --shared . ../borrower
	cd ../borrower
	expect_procedure origin/linus topic
	run_tool origin/linus topic
	matches_procedure
}

@test "a packed repository gets no loose object and no new pack" {
	git gc -q --prune=now
	[ "$(find .git/objects -type f -path '*/objects/??/*' | wc -l)" -eq 0 ]
	diffstat_and_patch_match_procedure
}

@test "a blobless partial clone fetches what the merge needs into the quarantine only" {
	git config uploadpack.allowFilter true
	expect_procedure linus topic
	cd ..
	git clone -q --filter=blob:none --no-checkout "file://$PWD/repo" partial
	cd partial
	run_tool origin/linus topic
	matches_procedure
}

@test "no ref is ever written, not even a textconv cache" {
	git config diff.cat.textconv cat
	git config diff.cat.cachetextconv true
	echo '* diff=cat' >.git/info/attributes
	expect_procedure linus topic -C -p
	run_tool -p linus topic
	matches_procedure
	[ -z "$(git for-each-ref refs/notes)" ]
}

@test "no hook runs: not reference-transaction, post-checkout, post-merge nor post-index-change" {
	for hook in reference-transaction post-checkout post-merge \
		pre-merge-commit post-index-change post-rewrite; do
		printf '#!/bin/sh\ntouch "%s/ran-%s"\n' "$BATS_TEST_TMPDIR" "$hook" \
			>".git/hooks/$hook"
		chmod +x ".git/hooks/$hook"
	done
	expect_procedure linus topic
	rm -f "$BATS_TEST_TMPDIR"/ran-*
	run_tool linus topic
	matches_procedure
	ran=$(cd "$BATS_TEST_TMPDIR" && echo ran-*)
	[ "$ran" = "ran-*" ] || { echo "hooks ran: $ran" >&2; return 1; }
}

@test "an index.lock held by another git does not stop the tool, and stays" {
	expect_procedure linus topic
	echo "held by another git" >.git/index.lock
	run_tool linus topic
	matches_procedure
	[ "$(cat .git/index.lock)" = "held by another git" ]
}

@test "in a pre-receive hook the pushed objects, still in git's quarantine, are found" {
	git clone -q --bare . ../server.git
	cat >../server.git/hooks/pre-receive <<-EOF
	#!/bin/sh
	read -r old new ref
	git clean-diffstat linus "\$new" >"$BATS_TEST_TMPDIR/actual" 2>"$BATS_TEST_TMPDIR/stderr"
	echo \$? >"$BATS_TEST_TMPDIR/status"
	EOF
	chmod +x ../server.git/hooks/pre-receive
	git checkout -q -b feature topic
	test_commit "feature: new" drivers/net/feature.c new
	expect_procedure linus feature
	git push -q ../server.git feature
	status=$(cat "$BATS_TEST_TMPDIR/status")
	expect_status 0
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
	expect_no_stderr
	expect_no_quarantine
}

# objects_state: every file of the object directory with its mtime, to
# the nanosecond: equal before and after means that no object, pack or
# index was added, removed or even touched.
objects_state() {
	(cd "$(git rev-parse --path-format=absolute --git-path objects)" &&
	find . -type f -printf '%p %T@\n' | LC_ALL=C sort)
}

# serve: the repository, and its topic published in pub.git, served by
# git daemon on the loopback with filters allowed; $url is where the
# topic is published.
serve() {
	git config uploadpack.allowFilter true &&
	publish topic &&
	git -C "$PUB" config uploadpack.allowFilter true &&
	start_git_daemon "$BATS_TEST_TMPDIR" &&
	url=$DAEMON_URL/pub.git
}

# partial_clone: the served repository cloned with --filter=blob:none
# and no checkout into ../partial, with branches linus and topic (its HEAD), cd
# there: every blob the tool reads must be fetched from the server.
# The clone of a state of the served repository (its refs and
# configuration, as clone_linus reads them; the GIT_* variables and
# PATH) is made by the first test to ask and kept (memo_find), the
# server's URL in it written @URL@; the others copy it and put their own
# server's URL back: the clone and the server's side of it (git daemon,
# upload-pack, pack-objects) are not what these tests test.
partial_clone() {
	local key memo top dst=$BATS_TEST_TMPDIR/partial
	key="partial clone"
	memo_env
	if plain_top . && repo_files "$top/.git/HEAD" "$top/.git/packed-refs" \
		"$top/.git/refs" "$top/.git/config" "$HOME/.gitconfig" &&
	   memo_find partial-clones "$key"; then
		cp -a "$memo/clone" "$dst" &&
		replace_in "$dst" "$memo/paths" @URL@ "$DAEMON_URL" || return
	else
		git clone -q --filter=blob:none --no-checkout "$DAEMON_URL/repo" "$dst" ||
			return
		[ -z "${memo-}" ] || memo_keep_copy "$dst" "$DAEMON_URL" @URL@ "$key"
	fi
	cd "$dst" &&
	git branch -q linus origin/linus &&
	[ "$(git rev-parse topic)" = "$(git rev-parse origin/topic)" ] &&
	[ "$(git config remote.origin.promisor)" = true ] &&
	git rev-list --objects --missing=print linus topic | grep -q '^?'

}

# in_partial_clone <args>...: the tool given <args> in a partial clone of
# the served repository prints and exits as in the repository, and
# leaves the clone as it was: the same files, none touched.
in_partial_clone() {
	local expected=0
	"${TOOL[@]}" "$@" >"$BATS_TEST_TMPDIR/expect" \
		2>"$BATS_TEST_TMPDIR/expect-stderr" || expected=$?
	partial_clone &&
	objects_state >"$BATS_TEST_TMPDIR/objects-before" &&
	run_tool "$@" &&
	expect_status "$expected" &&
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual" &&
	expect_stderr <"$BATS_TEST_TMPDIR/expect-stderr" &&
	expect_unchanged &&
	objects_state | test_cmp "$BATS_TEST_TMPDIR/objects-before" -
}

@test "a served partial clone: the diffstat fetches blobs into the quarantine only" {
	serve
	in_partial_clone linus topic
}

@test "a served partial clone: --check fetches blobs into the quarantine only" {
	serve
	in_partial_clone --check linus topic
}

@test "a served partial clone: --explain fetches blobs into the quarantine only" {
	serve
	in_partial_clone --explain linus topic
}

@test "a served partial clone: --porcelain fetches blobs into the quarantine only" {
	serve
	in_partial_clone --porcelain linus topic
}

@test "a served partial clone: --request-pull fetches blobs into the quarantine only" {
	serve
	in_partial_clone --request-pull linus "$url" topic
}

@test "a served partial clone: --verify of a request that differs fetches blobs into the quarantine only" {
	serve
	request linus topic
	in_partial_clone --verify="$BATS_TEST_TMPDIR/request" linus
	grep -q '^verdict: messy' "$BATS_TEST_TMPDIR/actual"
}

@test "a served partial clone: --verify --no-fetch of a request that differs fetches blobs into the quarantine only" {
	serve
	request linus topic
	in_partial_clone --verify="$BATS_TEST_TMPDIR/request" --no-fetch linus
	grep -q '^verdict: messy' "$BATS_TEST_TMPDIR/actual"
}

@test "a served partial clone: a revision naming a blob it lacks is refused, the blob not fetched into it" {
	serve
	partial_clone
	objects_state >"$BATS_TEST_TMPDIR/objects-before"
	run_tool linus topic:drivers/net/phy.c
	expect_failure 128 <<<"fatal: 'topic:drivers/net/phy.c' names an object missing from this repository"
	objects_state | test_cmp "$BATS_TEST_TMPDIR/objects-before" -
}

@test "a merge that makes objects the repository has adds none, changes no byte, and only git's refresh of their files' mtime is seen" {
	git init -q ../fresh && cd ../fresh
	test_commit base notes.txt 1 2 3 4 5 6 7 8 9 10
	git branch topic
	on topic sed -i s/^10$/ten/ notes.txt
	on main sed -i s/^1$/one/ notes.txt
	# the same merge, made before by someone else: its blob and tree
	# are what the tool's merge makes
	git checkout -q -b merged main
	test_merge topic
	git checkout -q main
	blob=$(git rev-parse merged:notes.txt) tree=$(git rev-parse "merged^{tree}")
	[ "$(merged_tree main topic)" = "$tree" ]
	expect_procedure main topic
	find .git/objects -type f -exec touch -d @1000000000 {} +
	objects_state >"$BATS_TEST_TMPDIR/objects-before"
	run_tool main topic
	matches_procedure
	objects_state >"$BATS_TEST_TMPDIR/objects-after"
	# the files whose mtime changed: those of the merged blob and tree
	diff "$BATS_TEST_TMPDIR/objects-before" "$BATS_TEST_TMPDIR/objects-after" |
	sed -n 's/^> \.\/\([^ ]*\) .*/\1/p' | sort >"$BATS_TEST_TMPDIR/touched"
	printf '%s\n' "${blob:0:2}/${blob:2}" "${tree:0:2}/${tree:2}" | sort |
	test_cmp - "$BATS_TEST_TMPDIR/touched"
}
