#!/usr/bin/env bats
# The tool never changes a repository: refs, reflogs, index, working
# tree, config and objects are byte for byte as they were, in every kind
# of repository, and no quarantine is left behind whatever happens.
# shellcheck disable=SC2030,SC2031 # each @test is a subshell: its exports are local

load test_helper
load lib/histories

setup() {
	setup_world
	history_pulled_part repo
}

# untouched <dir> <command>...: the command (run in <dir>) succeeds and
# changes no file of the repository there, adds no loose object and
# leaves no quarantine.
untouched() {
	local dir=$1 before
	shift
	before=$(repo_checksum "$dir")
	(cd "$dir" && "$@") >"$BATS_TEST_TMPDIR/out"
	[ "$before" = "$(repo_checksum "$dir")" ]
	assert_no_tempdir
}

@test "a normal repository is untouched, and its merge makes objects it never sees" {
	untouched . git clean-diffstat main topic
	[ -s "$BATS_TEST_TMPDIR/out" ]
	untouched . git clean-diffstat -p main topic
}

@test "a bare repository works and is untouched" {
	git clone -q --bare . "$BATS_TEST_TMPDIR/bare.git"
	procedure_diffstat main topic >expect
	untouched "$BATS_TEST_TMPDIR/bare.git" git clean-diffstat main topic
	test_cmp expect "$BATS_TEST_TMPDIR/out"
}

@test "a linked worktree works and neither it nor the main repository changes" {
	git worktree add -q "$BATS_TEST_TMPDIR/linked" topic
	procedure_diffstat main topic >expect
	before=$(repo_checksum .)
	untouched "$BATS_TEST_TMPDIR/linked" git clean-diffstat main
	test_cmp expect "$BATS_TEST_TMPDIR/out"
	[ "$before" = "$(repo_checksum .)" ]
}

@test "a dirty working tree and index stay as they were" {
	git checkout -q topic
	echo dirty >>Makefile
	echo staged >fs/new.c
	git add fs/new.c
	echo untracked >junk
	untouched . git clean-diffstat main
	[ "$(git status --porcelain)" = "$(printf ' M Makefile\nA  fs/new.c\n?? junk')" ]
}

@test "a read-only repository works" {
	procedure_diffstat main topic >expect
	ro=$(mktemp -d /tmp/clean-diffstat-ro.XXXXXX)
	cp -a . "$ro/repo"
	chmod -R a-w "$ro/repo"
	chmod 755 "$ro"
	mkdir -m 1777 "$ro/tmp"
	export TMPDIR=$ro/tmp HOME=$ro
	before=$(repo_checksum "$ro/repo")
	if [ "$(id -u)" -eq 0 ]; then
		# root writes anywhere: run as nobody, for whom the files are
		# really read-only, trusting the repository from the command line
		(cd "$ro/repo" &&
		 GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0='*' \
		 setpriv --reuid=65534 --regid=65534 --clear-groups \
			git clean-diffstat main topic) >actual
		run setpriv --reuid=65534 --regid=65534 --clear-groups touch "$ro/repo/.git/probe"
		[ "$status" -ne 0 ]
	else
		(cd "$ro/repo" && git clean-diffstat main topic) >actual
	fi
	test_cmp expect actual
	[ "$before" = "$(repo_checksum "$ro/repo")" ]
	assert_no_tempdir
	chmod -R u+w "$ro" && rm -rf "$ro"
}

@test "a SHA-256 repository works and is untouched" {
	cd "$BATS_TEST_TMPDIR"
	git init -q --object-format=sha256 sha256
	cd sha256
	test_commit base a.c a
	git checkout -q -b x
	test_commit x1 x.c x
	git checkout -q main
	test_commit rc2 b.c b
	git checkout -q -b topic
	test_merge x
	test_commit t1 t.c t
	git checkout -q main
	test_merge x
	[ "$(git rev-parse --show-object-format)" = sha256 ]
	procedure_diffstat main topic >expect
	untouched . git clean-diffstat main topic
	test_cmp expect "$BATS_TEST_TMPDIR/out"
}

@test "objects the repository borrows from an alternate are found" {
	git clone -q --shared . "$BATS_TEST_TMPDIR/borrower"
	cd "$BATS_TEST_TMPDIR/borrower"
	git branch -q topic origin/topic
	procedure_diffstat origin/main topic >expect
	untouched . git clean-diffstat origin/main topic
	test_cmp expect "$BATS_TEST_TMPDIR/out"
}

@test "no ref is ever written, not even a textconv cache" {
	git config diff.cat.textconv cat
	git config diff.cat.cachetextconv true
	echo '* diff=cat' >.git/info/attributes
	untouched . git clean-diffstat -p main topic
	[ -z "$(git for-each-ref refs/notes)" ]
}

@test "SIGINT while merge-tree runs: clean stop, no quarantine, repository untouched" {
	# shellcheck disable=SC2016 # the code is for the fake git to expand
	fake_git slow '[ "$1" != merge-tree ] || exec sleep 30'
	before=$(repo_checksum)
	for sig in INT TERM HUP; do
		PATH="$BATS_TEST_TMPDIR/slow:$PATH" git-clean-diffstat main topic &
		pid=$!
		for _ in $(seq 300); do
			assert_no_tempdir 2>/dev/null || break
			sleep 0.1
		done
		if assert_no_tempdir 2>/dev/null; then
			echo "no quarantine: merge-tree never started" >&2
			false
		fi
		kill -"$sig" "$pid"
		status=0
		wait "$pid" || status=$?
		[ "$status" -eq $((128 + $(kill -l "$sig"))) ]
		assert_no_tempdir
	done
	[ "$before" = "$(repo_checksum)" ]
}

@test "a reader that goes away (| head -1) stops the tool quietly, no quarantine left" {
	for i in $(seq 200); do
		mkdir -p "big/d$i" && seq 1 200 >"big/d$i/f"
	done
	git checkout -q topic
	git add big && test_tick && git commit -q -m big
	git checkout -q main
	set +o pipefail
	line=$(git clean-diffstat -p main topic 2>"$BATS_TEST_TMPDIR/err" | head -n 1)
	[ "$line" = "diff --git a/big/d1/f b/big/d1/f" ]
	[ ! -s "$BATS_TEST_TMPDIR/err" ]
	assert_no_tempdir
}
