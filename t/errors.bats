#!/usr/bin/env bats
# Every bad input: one clear message, the exit status git would give,
# nothing written anywhere.
# shellcheck disable=SC2030,SC2031 # each @test is a subshell: PATH is local

load test_helper
load lib/histories
load lib/tool

setup() {
	setup_world
	history_pulled_part repo
}

# fails_with <status> <expected stderr> <command>...: exactly that
# message on stderr, nothing on stdout, that exit status, no quarantine
# left and the repository as it was.
fails_with() {
	local want=$1 message=$2 before status=0
	shift 2
	before=$(repo_checksum)
	"$@" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" || status=$?
	printf '%s\n' "$message" >"$BATS_TEST_TMPDIR/expect"
	test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/err"
	[ ! -s "$BATS_TEST_TMPDIR/out" ] || { cat "$BATS_TEST_TMPDIR/out" >&2; return 1; }
	[ "$status" -eq "$want" ] || { echo "exit $status, not $want" >&2; return 1; }
	assert_no_tempdir
	[ "$before" = "$(repo_checksum)" ]
}

usage_text() {
	cat <<-\EOF
	usage: git clean-diffstat [<options>] [<diff-options>] [<upstream> [<head>]] [-- <pathspec>...]

	    --check               say whether git request-pull's diffstat is messy
	    --explain             show how git request-pull's diffstat differs
	    --porcelain           --explain, in a stable format for scripts
	    -z                    with --porcelain: end each record with NUL
	    --request-pull [-p] <start> <url> [<end>]
	                          run git request-pull with the clean diffstat
	    --allow-unrelated-histories
	                          allow merging histories without a common ancestor
	    -h                    show this help and exit
	    --help                show the manual page
	    --version             show the version and exit
	    --end-of-options      take every later argument as a revision

	<diff-options> are those of git diff (default: -C --stat --summary);
	an output format option replaces --stat --summary.
	EOF
}

@test "outside a repository: git's own message, exit 128" {
	cd "$BATS_TEST_TMPDIR"
	mkdir not-a-repo && cd not-a-repo
	export GIT_CEILING_DIRECTORIES=$BATS_TEST_TMPDIR
	run --separate-stderr git clean-diffstat main topic
	[ "$status" -eq 128 ]
	[ "$stderr" = "fatal: not a git repository (or any of the parent directories): .git" ]
	[ -z "$output" ]
}

@test "an unknown revision is named, exit 128" {
	fails_with 128 "fatal: not a valid revision: 'nope'" git clean-diffstat nope topic
	fails_with 128 "fatal: not a valid revision: 'nope'" git clean-diffstat main nope
}

@test "a revision that is no commit says what it is, exit 128" {
	fails_with 128 "fatal: 'main^{tree}' is a tree, not a commit" \
		git clean-diffstat 'main^{tree}' topic
	fails_with 128 "fatal: 'main:Makefile' is a blob, not a commit" \
		git clean-diffstat main main:Makefile
}

@test "a range is no revision, exit 128" {
	fails_with 128 "fatal: not a valid revision: 'main..topic'" \
		git clean-diffstat main..topic
}

@test "no upstream configured: say what to pass, exit 128" {
	git checkout -q topic
	fails_with 128 "fatal: no upstream configured for branch 'topic'; name the branch to be pulled into: git clean-diffstat <upstream> [<head>]" \
		git clean-diffstat
}

@test "a detached HEAD has no upstream: say what to pass, exit 128" {
	git checkout -q --detach topic
	fails_with 128 "fatal: HEAD does not point to a branch; name the branch to be pulled into: git clean-diffstat <upstream> [<head>]" \
		git clean-diffstat
}

@test "unrelated histories are refused with a hint, exit 128" {
	git checkout -q --orphan lonely
	git rm -q -rf .
	test_commit lonely lonely.txt
	fails_with 128 "fatal: refusing to merge unrelated histories
hint: pass --allow-unrelated-histories to merge them all the same" \
		git clean-diffstat main lonely
}

@test "--allow-unrelated-histories merges unrelated histories" {
	git checkout -q --orphan lonely
	git rm -q -rf .
	test_commit lonely lonely.txt
	git clean-diffstat --allow-unrelated-histories main lonely >actual
	cat >expect <<-\EOF
	 lonely.txt | 1 +
	 1 file changed, 1 insertion(+)
	 create mode 100644 lonely.txt
	EOF
	test_cmp expect actual
}

@test "a shallow clone without the merge base says so with a hint, exit 128" {
	cd "$BATS_TEST_TMPDIR"
	git clone -q --depth=1 --no-single-branch "file://$BATS_TEST_TMPDIR/repo" shallow
	cd shallow
	git branch -q topic origin/topic
	fails_with 128 "fatal: the merge base of 'main' and 'topic' is missing from this shallow clone
hint: deepen it with 'git fetch --deepen=<depth>'" \
		git clean-diffstat main topic
}

@test "git older than 2.38 is named, exit 128" {
	# git 2.37 as far as the tool can tell: its version, and a merge-tree
	# without --write-tree
	# shellcheck disable=SC2016 # the code is for the fake git to expand
	fake_git old-git 'case "$1" in
	version) echo "git version 2.37.1"; exit 0 ;;
	merge-tree) echo "usage: git merge-tree <base-tree> <branch1> <branch2>" >&2; exit 129 ;;
	esac'
	PATH="$BATS_TEST_TMPDIR/old-git:$PATH"
	fails_with 128 \
		"fatal: git clean-diffstat needs git 2.38 or later for merge-tree --write-tree (found 2.37.1)" \
		git-clean-diffstat main topic
}

@test "merge-tree failing otherwise passes git's message on, exit 128" {
	# shellcheck disable=SC2016 # the code is for the fake git to expand
	fake_git bad-git '[ "$1" != merge-tree ] || { echo "fatal: failure to merge" >&2; exit 128; }'
	PATH="$BATS_TEST_TMPDIR/bad-git:$PATH"
	fails_with 128 "fatal: failure to merge" git-clean-diffstat main topic
}

@test "an unknown option: the error and the usage on stderr, exit 129" {
	fails_with 129 "error: unknown option '--bogus'
$(usage_text)" git clean-diffstat --bogus main topic
	fails_with 129 "error: unknown option '-'
$(usage_text)" git clean-diffstat - main
}

@test "diff options that change the exit status are refused with the reason, exit 129" {
	for opt in --exit-code --quiet; do
		fails_with 129 "error: $opt is not supported: the exit status tells of conflicts
$(usage_text)" git clean-diffstat "$opt" main topic
	done
	fails_with 129 "error: --follow is not supported: it follows one file through a log
$(usage_text)" git clean-diffstat --follow main topic
	fails_with 129 "error: --cached is not supported: <upstream> is compared with the merge
$(usage_text)" git clean-diffstat --cached main topic
}

@test "a diff option without its value, exit 129" {
	fails_with 129 "error: option '--diff-filter' needs a value
$(usage_text)" git clean-diffstat main topic --diff-filter
}

@test "three revisions are too many, exit 129" {
	fails_with 129 "error: too many revisions
$(usage_text)" git clean-diffstat main topic x
}

@test "-h prints the usage on stdout and exits 129, as git's builtins do" {
	run --separate-stderr git clean-diffstat -h
	[ "$status" -eq 129 ]
	usage_text >expect
	printf '%s\n' "$output" >actual
	test_cmp expect actual
	[ -z "$stderr" ]
}

@test "--version prints the version GIT-VERSION-GEN gave the build, exit 0" {
	run --separate-stderr git clean-diffstat --version
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	version=$(sed -n 's/^GIT_CLEAN_DIFFSTAT_VERSION = //p' "$TOP/GIT-VERSION-FILE")
	[[ "$version" =~ ^[0-9]+\.[0-9]+ ]]
	[ "$output" = "git-clean-diffstat version $version" ]
}

@test "--help shows the manual page through git help" {
	make -s -C "$TOP" install-man DESTDIR="$BATS_TEST_TMPDIR/inst" prefix=/usr >/dev/null
	export MANPATH="$BATS_TEST_TMPDIR/inst/usr/share/man" MANPAGER=cat PAGER=cat MANWIDTH=80
	command -v man >/dev/null || skip "no man on this machine"
	git clean-diffstat --help >actual 2>&1
	grep -q '^NAME' actual
	grep -q 'git-clean-diffstat - ' actual
	"$BIN/git-clean-diffstat" --help >actual2 2>&1
	test_cmp actual actual2
}

@test "a revision spelled like an option runs nothing and writes nothing" {
	fails_with 128 "fatal: not a valid revision: '--output=$BATS_TEST_TMPDIR/pwned'" \
		git clean-diffstat --end-of-options "--output=$BATS_TEST_TMPDIR/pwned" topic
	[ ! -e "$BATS_TEST_TMPDIR/pwned" ]
	fails_with 128 "fatal: not a valid revision: '--upload-pack=touch $BATS_TEST_TMPDIR/pwned'" \
		git clean-diffstat --end-of-options main "--upload-pack=touch $BATS_TEST_TMPDIR/pwned"
	[ ! -e "$BATS_TEST_TMPDIR/pwned" ]
}

@test "a pathspec spelled like an option is a pathspec" {
	git clean-diffstat main topic -- "--output=$BATS_TEST_TMPDIR/pwned" >actual
	[ ! -s actual ]
	[ ! -e "$BATS_TEST_TMPDIR/pwned" ]
	[ ! -e "--output=$BATS_TEST_TMPDIR/pwned" ]
}

@test "two modes at once: usage error, exit 129" {
	fails_with 129 "error: options '--check' and '--explain' cannot be used together
$(usage_text)" git clean-diffstat --check --explain main
	fails_with 129 "error: options '--porcelain' and '--request-pull' cannot be used together
$(usage_text)" git clean-diffstat --porcelain --request-pull main url
}

@test "--check and --explain take no output format option, exit 129" {
	fails_with 129 "error: --check and --explain compare git request-pull's -M --stat --summary; drop the output format option
$(usage_text)" git clean-diffstat --check --numstat main
}

@test "an empty revision is no valid revision, exit 128" {
	fails_with 128 "fatal: not a valid revision: ''" git clean-diffstat '' topic
}

@test "a missing object: git's own message passed on, exit 128" {
	blob=$(git rev-parse topic:fs/ext4/super.c)
	rm ".git/objects/${blob:0:2}/${blob:2}"
	fails_with 128 "fatal: unable to read $blob" git clean-diffstat main topic
}

# A full disk: /dev/full takes no byte.
@test "a failed write of the output is fatal in every mode, exit 128" {
	git init -q --bare "$BATS_TEST_TMPDIR/pub.git"
	git push -q "$BATS_TEST_TMPDIR/pub.git" topic
	local url="file://$BATS_TEST_TMPDIR/pub.git" args status
	for args in --version -h "--check main topic" "--explain main topic" \
		"--porcelain main topic" "--request-pull main $url topic" \
		"main topic"; do
		status=0
		# shellcheck disable=SC2086 # the words of args are the arguments
		git clean-diffstat $args >/dev/full 2>"$BATS_TEST_TMPDIR/err" ||
			status=$?
		[ "$status" -eq 128 ] || { echo "$args: exit $status" >&2; return 1; }
		if [ "$args" = "main topic" ]; then
			# git diff writes there itself: its own words, in its
			# version's wording, passed on
			grep -q '^fatal: .*write failure on standard output' \
				"$BATS_TEST_TMPDIR/err"
			[ "$(wc -l <"$BATS_TEST_TMPDIR/err")" -eq 1 ]
		else
			echo "fatal: write failure on standard output: No space left on device" |
				test_cmp - "$BATS_TEST_TMPDIR/err"
		fi
	done
	assert_no_tempdir
}

@test "a reader that has gone away: a quiet death by SIGPIPE, exit 141" {
	local args status
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	# fd 5: the write end of a pipe whose reader is gone
	# shellcheck disable=SC2094 # both ends of the fifo, on purpose
	exec 4<>"$BATS_TEST_TMPDIR/fifo" 5>"$BATS_TEST_TMPDIR/fifo" 4<&-
	for args in --version "--check main topic" "--porcelain main topic"; do
		status=0
		# shellcheck disable=SC2086 # the words of args are the arguments
		git clean-diffstat $args >&5 2>"$BATS_TEST_TMPDIR/err" || status=$?
		[ "$status" -eq 141 ] || { echo "$args: exit $status" >&2; return 1; }
		[ ! -s "$BATS_TEST_TMPDIR/err" ]
	done
	exec 5>&-
	assert_no_tempdir
}

@test "unrelated histories in the modes: one fatal line and no hint, exit 128" {
	git checkout -q --orphan lonely
	git rm -q -rf .
	test_commit lonely lonely.txt
	git checkout -q main
	git init -q --bare "$BATS_TEST_TMPDIR/pub.git"
	git push -q "$BATS_TEST_TMPDIR/pub.git" refs/heads/lonely:refs/heads/alone
	local mode allow
	for allow in "" --allow-unrelated-histories; do
		for mode in --check --explain --porcelain; do
			fails_with 128 "fatal: no commits in common between 'main' and 'refs/heads/lonely', so git request-pull has no diffstat" \
				git clean-diffstat $allow "$mode" main refs/heads/lonely
		done
		fails_with 128 "fatal: no commits in common between 'main' and 'refs/heads/lonely', so git request-pull has no diffstat" \
			git clean-diffstat $allow --request-pull main \
			"file://$BATS_TEST_TMPDIR/pub.git" refs/heads/lonely:alone
	done
}

# git_says <diff option>: git diff's own error for it, less its prefix
git_says() {
	git diff "$1" main topic 2>&1 >/dev/null | sed -n '1s/^[a-z]*: //p;2p' |
		grep -v '^usage:' || :
}

@test "a bad value of a diff option is a usage error in git diff's words, before anything runs" {
	# a git that notes every run: none may happen
	# shellcheck disable=SC2016 # the code is for the fake git to expand
	fake_git noting-git 'echo "$*" >>"$BATS_TEST_TMPDIR/ran"'
	local opt status
	for opt in --stat=abc --stat=10,20,x --stat-width=x --stat-count=1x \
		-Uabc --unified=x -Mabc --find-renames=1.2.3 -Cx -B50/x \
		--break-rewrites=x --dirstat=x -X5x --dirstat=files,bogus \
		--dirstat-by-file=zz; do
		{ echo "error: $(git_says "$opt")"; usage_text; } >"$BATS_TEST_TMPDIR/expect"
		# no revision: the usage error comes before the missing upstream
		status=0
		PATH="$BATS_TEST_TMPDIR/noting-git:$PATH" git-clean-diffstat "$opt" \
			>"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" || status=$?
		[ "$status" -eq 129 ] || { echo "$opt: exit $status" >&2; return 1; }
		test_cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/err"
		[ ! -s "$BATS_TEST_TMPDIR/out" ]
	done
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "a value any git since 2.38 takes passes, and only a bad one is refused" {
	local opt
	fails_with 129 "error: switch \`l' expects an integer value with an optional k/m/g suffix
$(usage_text)" git clean-diffstat -lx main topic
	fails_with 129 "error: option \`inter-hunk-context' expects a numerical value
$(usage_text)" git clean-diffstat --inter-hunk-context= main topic
	expect_procedure main topic -C --stat --summary -l 010 --inter-hunk-context=-1
	run_tool -l 010 --inter-hunk-context=-1 main topic
	matches_procedure
	# output formats: they replace --stat --summary
	for opt in --stat=-5 "--stat= 5" "--stat=10," -X5.5 --dirstat=10,files -U; do
		expect_procedure main topic -C "$opt"
		run_tool "$opt" main topic
		matches_procedure
	done
	for opt in -M50% -M.5 -B/ -B50/70%; do
		expect_procedure main topic -C --stat --summary "$opt"
		run_tool "$opt" main topic
		matches_procedure
	done
}

@test "a tag of a tree or of a blob says so, through any chain of tags, exit 128" {
	git tag -a -m tree tree-tag 'main^{tree}'
	git tag -a -m blob blob-tag main:Makefile
	git -c advice.nestedTag=false tag -a -m nested nested-tag blob-tag
	fails_with 128 "fatal: 'tree-tag' is a tag of a tree, not a commit" \
		git clean-diffstat tree-tag topic
	fails_with 128 "fatal: 'nested-tag' is a tag of a blob, not a commit" \
		git clean-diffstat main nested-tag
}

@test "the modes refuse the diff options that change what they read back, exit 129" {
	local mode opt
	for mode in --check --explain --porcelain --request-pull; do
		fails_with 129 "error: options '$mode' and '--output' cannot be used together
$(usage_text)" git clean-diffstat "$mode" "--output=$BATS_TEST_TMPDIR/written" main url
		[ ! -e "$BATS_TEST_TMPDIR/written" ]
	done
	for mode in --check --explain --porcelain; do
		for opt in --line-prefix=X --rotate-to=Makefile --skip-to=Makefile; do
			fails_with 129 "error: options '$mode' and '${opt%%=*}' cannot be used together
$(usage_text)" git clean-diffstat "$mode" "$opt" main topic
		done
	done
	for mode in --check --explain --request-pull; do
		fails_with 129 "error: options '$mode' and '-z' cannot be used together
$(usage_text)" git clean-diffstat "$mode" -z main url
	done
}
