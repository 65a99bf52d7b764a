#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Every bad input: one clear message, the exit status git would give,
# nothing written anywhere.
# shellcheck disable=SC2030,SC2031 # each @test is a subshell: PATH is local

load test_helper

setup() {
	setup_world
	history_partly_pulled
}

usage_text() {
	cat <<-\EOF
	usage: git clean-diffstat [<options>] [<diff-options>] [<upstream> [<head>]] [-- <pathspec>...]
	   or: git clean-diffstat --verify[=<file>] [--no-fetch] [--allow-local] [--fetch-timeout=<seconds>] [--fetch-stall=<seconds>] [--jobs=<n>] [--in-order] [--[no-]progress] [-q] [--porcelain] [<upstream>]
	
	    --check               say whether git request-pull's diffstat is messy
	    --explain             show how git request-pull's diffstat differs
	    --porcelain           --explain (or --verify) in a stable format for scripts
	    -z                    with --porcelain: end each record with NUL
	    --request-pull [-p] <start> <url> [<end>]
	                          run git request-pull with the clean diffstat
	    --verify[=<file>]     check the pull request in <file> (default: stdin)
	                          against what pulling it into <upstream> changes
	    --no-fetch            --verify: never fetch; the tip must be here
	    --allow-local         --verify: fetch from file:// and local paths too
	    --fetch-timeout=<seconds>
	                          --verify: give up a fetch after this long (600)
	    --fetch-stall=<seconds>
	                          --verify: give up a fetch that receives nothing
	                          for this long (60)
	    -j, --jobs=<n>        --verify: fetch <n> requests at a time (the cores)
	    --in-order            --verify: check each request as pulled after
	                          those before it in the mbox
	    --progress            --verify: show progress on stderr (default: when it
	                          is a terminal)
	    -q, --no-progress     --verify: show no progress
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

# usage_error <message>: what a usage error prints on stderr.
usage_error() {
	echo "error: $1"
	usage_text
}

@test "outside a repository: git's own message, exit 128" {
	cd "$BATS_TEST_TMPDIR"
	mkdir not-a-repo && cd not-a-repo
	export GIT_CEILING_DIRECTORIES=$BATS_TEST_TMPDIR
	run_tool linus topic
	expect_failure 128 <<-\EOF
	fatal: not a git repository (or any of the parent directories): .git
	EOF
}

@test "an unknown revision is named, exit 128" {
	run_tool nope topic
	expect_failure 128 <<<"fatal: not a valid revision: 'nope'"
	run_tool linus nope
	expect_failure 128 <<<"fatal: not a valid revision: 'nope'"
}

@test "a tag of a tree or of a blob says so, through any chain of tags, exit 128" {
	git tag -a -m tree tree-tag 'linus^{tree}'
	git tag -a -m blob blob-tag linus:Makefile
	git -c advice.nestedTag=false tag -a -m nested nested-tag blob-tag
	run_tool tree-tag topic
	expect_failure 128 <<<"fatal: 'tree-tag' is a tag of a tree, not a commit"
	run_tool linus nested-tag
	expect_failure 128 <<<"fatal: 'nested-tag' is a tag of a blob, not a commit"
}

@test "a revision that is no commit says what it is, exit 128" {
	run_tool 'linus^{tree}' topic
	expect_failure 128 <<<"fatal: 'linus^{tree}' is a tree, not a commit"
	run_tool linus linus:Makefile
	expect_failure 128 <<<"fatal: 'linus:Makefile' is a blob, not a commit"
}

@test "a range is no revision, exit 128" {
	run_tool linus..topic
	expect_failure 128 <<<"fatal: not a valid revision: 'linus..topic'"
}

@test "an empty revision is no valid revision, exit 128" {
	run_tool '' topic
	expect_failure 128 <<<"fatal: not a valid revision: ''"
}

@test "no upstream configured: say what to pass, exit 128" {
	git checkout -q topic
	run_tool
	expect_failure 128 <<-\EOF
	fatal: no upstream configured for branch 'topic'; name the branch to be pulled into: git clean-diffstat <upstream> [<head>]
	EOF
}

@test "a detached HEAD has no upstream: say what to pass, exit 128" {
	git checkout -q --detach topic
	run_tool
	expect_failure 128 <<-\EOF
	fatal: HEAD does not point to a branch; name the branch to be pulled into: git clean-diffstat <upstream> [<head>]
	EOF
}

@test "unrelated histories are refused with a hint, exit 128" {
	git checkout -q --orphan lonely
	git rm -q -rf .
	test_commit lonely lonely.txt
	run_tool linus lonely
	expect_failure 128 <<-\EOF
	fatal: refusing to merge unrelated histories
	hint: pass --allow-unrelated-histories to merge them all the same
	EOF
}

@test "--allow-unrelated-histories merges unrelated histories" {
	git checkout -q --orphan lonely
	git rm -q -rf .
	test_commit lonely lonely.txt
	run_tool --allow-unrelated-histories linus lonely
	expect_status 0
	expect_stdout <<-\EOF
	 lonely.txt | 1 +
	 1 file changed, 1 insertion(+)
	 create mode 100644 lonely.txt
	EOF
	expect_no_stderr
	expect_unchanged
}

@test "unrelated histories in the modes: one fatal line and no hint, exit 128" {
	git checkout -q --orphan lonely
	git rm -q -rf .
	test_commit lonely lonely.txt
	git checkout -q linus
	git init -q --bare "$BATS_TEST_TMPDIR/pub.git"
	git push -q "$BATS_TEST_TMPDIR/pub.git" refs/heads/lonely:refs/heads/alone
	local allow mode
	for allow in "" --allow-unrelated-histories; do
		for mode in --check --explain --porcelain; do
			run_tool $allow "$mode" linus lonely
			expect_failure 128 <<<"fatal: no commits in common between 'linus' and 'lonely', so git request-pull has no diffstat"
		done
		run_tool $allow --request-pull linus "file://$BATS_TEST_TMPDIR/pub.git" lonely:alone
		expect_failure 128 <<<"fatal: no commits in common between 'linus' and 'lonely', so git request-pull has no diffstat"
	done
}

@test "a shallow clone without the merge base says so with a hint, exit 128" {
	cd ..
	git clone -q --depth=1 --no-single-branch "file://$PWD/repo" shallow
	cd shallow
	git branch -q linus origin/linus
	run_tool linus topic
	expect_failure 128 <<-\EOF
	fatal: the merge base of 'linus' and 'topic' is missing from this shallow clone
	hint: deepen it with 'git fetch --deepen=<depth>'
	EOF
}

@test "a missing object: git's own message passed on, exit 128" {
	blob=$(git rev-parse topic:drivers/net/phy.c)
	rm ".git/objects/${blob:0:2}/${blob:2}"
	run_tool linus topic
	expect_failure 128 <<<"fatal: unable to read $blob"
}

@test "git older than 2.38 is named, exit 128" {
	# git 2.37 as far as the tool can tell: its version, and a merge-tree
	# without --write-tree
	# shellcheck disable=SC2016 # the code is for the fake git to expand
	fake_git 'case "$1" in
	version) echo "git version 2.37.1"; exit 0 ;;
	merge-tree) echo "usage: git merge-tree <base-tree> <branch1> <branch2>" >&2; exit 129 ;;
	esac'
	run_tool linus topic
	expect_failure 128 <<-\EOF
	fatal: git clean-diffstat needs git 2.38 or later for merge-tree --write-tree (found 2.37.1)
	EOF
}

@test "an unknown option: the error and the usage on stderr, exit 129" {
	run_tool --bogus linus topic
	usage_error "unknown option '--bogus'" | expect_failure 129
	run_tool - linus
	usage_error "unknown option '-'" | expect_failure 129
}

@test "diff options that change the exit status are refused with the reason, exit 129" {
	for opt in --exit-code --quiet; do
		run_tool "$opt" linus topic
		usage_error "$opt is not supported: the exit status tells of conflicts" |
			expect_failure 129
	done
	run_tool --follow linus topic
	usage_error "--follow is not supported: it follows one file through a log" |
		expect_failure 129
	run_tool --cached linus topic
	usage_error "--cached is not supported: <upstream> is compared with the merge" |
		expect_failure 129
}

@test "a diff option without its value, exit 129" {
	run_tool linus topic --diff-filter
	usage_error "option '--diff-filter' needs a value" | expect_failure 129
}

@test "three revisions are too many, exit 129" {
	run_tool linus topic x
	usage_error "too many revisions" | expect_failure 129
}

@test "two modes at once: usage error, exit 129" {
	run_tool --check --explain linus
	usage_error "options '--check' and '--explain' cannot be used together" |
		expect_failure 129
	run_tool --porcelain --request-pull linus url
	usage_error "options '--porcelain' and '--request-pull' cannot be used together" |
		expect_failure 129
}

@test "--check and --explain take no output format option, exit 129" {
	run_tool --check --numstat linus
	usage_error "--check and --explain compare git request-pull's -M --stat --summary; drop the output format option" |
		expect_failure 129
}

@test "-h prints the usage on stdout and exits 129, as git's builtins do" {
	run_tool -h
	expect_status 129
	usage_text | expect_stdout
	expect_no_stderr
}

@test "--version prints the version GIT-VERSION-GEN gave the build, exit 0" {
	version=$(sed -n 's/^GIT_CLEAN_DIFFSTAT_VERSION = //p' "$TOP/GIT-VERSION-FILE")
	[[ "$version" =~ ^[0-9]+\.[0-9]+ ]]
	run_tool --version
	expect_status 0
	expect_stdout <<<"git-clean-diffstat version $version"
	expect_no_stderr
}

@test "--help shows the manual page through git help, as the binary itself does" {
	make -s -C "$TOP" install-man DESTDIR="$BATS_TEST_TMPDIR/inst" prefix=/usr >/dev/null
	export MANPATH="$BATS_TEST_TMPDIR/inst/usr/share/man" MANPAGER=cat PAGER=cat MANWIDTH=80
	command -v man >/dev/null || skip "no man on this machine"
	run_tool --help
	expect_status 0
	grep -q '^NAME' "$BATS_TEST_TMPDIR/actual"
	grep -q 'git-clean-diffstat - ' "$BATS_TEST_TMPDIR/actual"
	"$BIN/git-clean-diffstat" --help | expect_stdout
}

@test "a revision spelled like an option runs nothing and writes nothing" {
	run_tool --end-of-options "--output=$BATS_TEST_TMPDIR/pwned" topic
	expect_failure 128 <<<"fatal: not a valid revision: '--output=$BATS_TEST_TMPDIR/pwned'"
	[ ! -e "$BATS_TEST_TMPDIR/pwned" ]
	run_tool --end-of-options linus "--upload-pack=touch $BATS_TEST_TMPDIR/pwned"
	expect_failure 128 <<<"fatal: not a valid revision: '--upload-pack=touch $BATS_TEST_TMPDIR/pwned'"
	[ ! -e "$BATS_TEST_TMPDIR/pwned" ]
}

@test "a pathspec spelled like an option is a pathspec" {
	run_tool linus topic -- "--output=$BATS_TEST_TMPDIR/pwned"
	expect_status 0
	expect_stdout </dev/null
	[ ! -e "$BATS_TEST_TMPDIR/pwned" ]
	[ ! -e "--output=$BATS_TEST_TMPDIR/pwned" ]
	expect_unchanged
}

# git_says <diff option>: git diff's own error for it, less its prefix
git_says() {
	git diff "$1" linus topic 2>&1 >/dev/null | sed -n '1s/^[a-z]*: //p;2p' |
		grep -v '^usage:' || :
}

@test "a bad value of a diff option is a usage error in git diff's words, before anything runs" {
	# shellcheck disable=SC2054 # the commas are in the values
	local opts=(--stat=abc --stat=10,20,x --stat-width=x --stat-count=1x
		-Uabc --unified=x -Mabc --find-renames=1.2.3 -Cx -B50/x
		--break-rewrites=x --dirstat=x -X5x --dirstat=files,bogus
		--dirstat-by-file=zz) says=() i
	for i in "${!opts[@]}"; do
		says[i]=$(git_says "${opts[i]}")
		[ -n "${says[i]}" ]
	done
	# a git that notes every run: none may happen while the tool runs
	fake_git 'echo "$*" >>"'"$BATS_TEST_TMPDIR"'/ran"'
	git checkout -q topic
	for i in "${!opts[@]}"; do
		remember_repo
		rm -f "$BATS_TEST_TMPDIR/ran"
		# no revision: the usage error comes before the missing upstream
		capture "${TOOL[@]}" "${opts[i]}"
		[ ! -e "$BATS_TEST_TMPDIR/ran" ]
		usage_error "${says[i]}" | expect_failure 129
	done
}

@test "a value any git since 2.38 takes passes, and only a bad one is refused" {
	local opt
	run_tool -lx linus topic
	usage_error "switch \`l' expects an integer value with an optional k/m/g suffix" |
		expect_failure 129
	run_tool --inter-hunk-context= linus topic
	usage_error "option \`inter-hunk-context' expects a numerical value" |
		expect_failure 129
	expect_procedure linus topic -C --stat --summary -l 010
	run_tool -l 010 linus topic
	matches_procedure
	# output formats: they replace --stat --summary
	for opt in --stat=-5 "--stat= 5" "--stat=10," -X5.5 --dirstat=10,files -U; do
		expect_procedure linus topic -C "$opt"
		run_tool "$opt" linus topic
		matches_procedure
	done
	for opt in -M50% -M.5 -B/ -B50/70%; do
		expect_procedure linus topic -C --stat --summary "$opt"
		run_tool "$opt" linus topic
		matches_procedure
	done
}

@test "the modes refuse the diff options that change what they read back, exit 129" {
	local mode opt
	for mode in --check --explain --porcelain --request-pull; do
		run_tool "$mode" "--output=$BATS_TEST_TMPDIR/written" linus url
		usage_error "options '$mode' and '--output' cannot be used together" |
			expect_failure 129
		[ ! -e "$BATS_TEST_TMPDIR/written" ]
	done
	for mode in --check --explain --porcelain; do
		for opt in --line-prefix=X --rotate-to=Makefile --skip-to=Makefile; do
			run_tool "$mode" "$opt" linus topic
			usage_error "options '$mode' and '${opt%%=*}' cannot be used together" |
				expect_failure 129
		done
	done
	for mode in --check --explain --request-pull; do
		run_tool "$mode" -z linus url
		usage_error "options '$mode' and '-z' cannot be used together" |
			expect_failure 129
	done
}
