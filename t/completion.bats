#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# The bash completion, contrib/completion/git-clean-diffstat.bash, driven the
# way bash drives it: in a bash subprocess with git's own completion
# loaded, COMP_WORDS/COMP_CWORD/COMP_LINE/COMP_POINT set for a command
# line, and the function `complete -p git` names called; the sorted
# COMPREPLY is compared with the expected list.  The zsh completion
# likewise, in zsh's line editor.
#
# It needs git's completion script (GIT_COMPLETION names it if it is not
# in a usual place); the tests of bash-completion's on-demand loading
# need bash-completion too, the zsh ones zsh.

load test_helper

setup() {
	setup_world
	ours=$TOP/contrib/completion/git-clean-diffstat.bash

	git_completion=${GIT_COMPLETION-}
	if [ -z "$git_completion" ]; then
		for f in /usr/share/bash-completion/completions/git \
			 /usr/share/git-core/contrib/completion/git-completion.bash \
			 /usr/share/git/completion/git-completion.bash \
			 /usr/local/share/bash-completion/completions/git; do
			if [ -f "$f" ]; then
				git_completion=$f
				break
			fi
		done
	fi
	[ -f "$git_completion" ] || skip "git's bash completion script is not installed"
	bash_completion=${BASH_COMPLETION:-/usr/share/bash-completion/bash_completion}
	export git_completion ours bash_completion
	unset XDG_DATA_HOME BASH_COMPLETION_USER_DIR BASH_COMPLETION_USER_FILE \
		BASH_COMPLETION_COMPAT_DIR

	from_cache build_completion_repo
}

# Branches main, maint and topic; remotes origin and upstream.  Built
# once per run and copied into each test (from_cache).
build_completion_repo() {
	git init -q "${1:-repo}" && cd "${1:-repo}" || return
	mkdir src
	echo a >src/a.c
	echo b >src/b.c
	echo r >README
	commit_all initial
	git branch maint
	git branch topic
	git remote add origin https://example.com/origin.git
	git remote add upstream https://example.com/upstream.git
}

# bash_complete_line <load> <command line>: print the sorted completions
# bash would offer at the end of <command line>, one a line, each in
# double quotes (so a trailing space shows).  <load> says how the
# completion is loaded:
#   after     source git's completion, then ours
#   before    source ours, then git's
#   autoload  source bash-completion, which loads git's completion and
#             ours on demand from the completions directories of
#             $XDG_DATA_DIRS (the caller sets them up)
bash_complete_line() {
	bash --norc --noprofile -s -- "$@" <<-'EOF' 2>&1
	load=$1 line=$2
	case "$load" in
	after)	. "$git_completion" && . "$ours" ;;
	before)	. "$ours" && . "$git_completion" ;;
	autoload)
		. "$bash_completion"
		if declare -F _git_clean_diffstat >/dev/null; then
			echo "_git_clean_diffstat defined before it was needed"
		fi
		# What bash does on the first <TAB> after "git": git has no
		# completion yet, so the "complete -D" loader is called.
		_completion_loader git
		;;
	esac
	COMP_LINE=$line
	COMP_POINT=${#line}
	read -ra COMP_WORDS <<<"$line"
	case "$line" in
	*" ")	COMP_WORDS+=("") ;;
	esac
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	if ! [[ $(complete -p git) =~ -F\ ([^ ]+) ]]; then
		echo "no completion function for git"
		exit 1
	fi
	"${BASH_REMATCH[1]}" git "${COMP_WORDS[COMP_CWORD]}" \
		"${COMP_WORDS[COMP_CWORD - 1]}"
	if [ ${#COMPREPLY[@]} -gt 0 ]; then
		printf '"%s"\n' "${COMPREPLY[@]}" | sort
	fi
	EOF
}

# complete_line <load> <command line>: the completions offered at the
# end of <command line>, by zsh when <load> is zsh, else by bash.
complete_line() {
	if [ "$1" = zsh ]; then
		zsh_complete_line "$2"
	else
		bash_complete_line "$@"
	fi
}

# offers <load> <command line>: exactly the lines on stdin are offered.
offers() {
	[ "$1" != zsh ] || need_zsh
	capture complete_line "$@" &&
	expect_status 0 &&
	expect_stdout &&
	expect_no_stderr
}

@test "a tool option completes: --ch gives --check, once" {
	offers after "git clean-diffstat --ch" <<-'EOF'
	"--check "
	EOF
}

@test "--allow-un completes to --allow-unrelated-histories" {
	offers after "git clean-diffstat --allow-un" <<-'EOF'
	"--allow-unrelated-histories "
	EOF
}

@test "the other tool options complete" {
	offers after "git clean-diffstat --e" <<-'EOF'
	"--end-of-options "
	"--explain "
	"--ext-diff "
	EOF
	offers after "git clean-diffstat --p" <<-'EOF'
	"--patch "
	"--patch-with-raw "
	"--patch-with-stat "
	"--patience "
	"--pickaxe-all "
	"--pickaxe-regex "
	"--porcelain "
	"--progress "
	EOF
	offers after "git clean-diffstat --re" <<-'EOF'
	"--relative "
	"--relative="
	"--rename-empty "
	"--request-pull "
	EOF
	offers after "git clean-diffstat --h" <<-'EOF'
	"--help "
	"--histogram "
	EOF
}

@test "once a mode is given, the modes it excludes are not offered" {
	offers after "git clean-diffstat --check --re" <<-'EOF'
	"--relative "
	"--relative="
	"--rename-empty "
	EOF
	offers after "git clean-diffstat --porcelain --ex" <<-'EOF'
	"--explain "
	"--ext-diff "
	EOF
}

@test "diff options come from git's list and the tool's own additions" {
	offers after "git clean-diffstat --stat" <<-'EOF'
	"--stat "
	"--stat-count="
	"--stat-graph-width="
	"--stat-name-width="
	"--stat-width="
	"--stat="
	EOF
	offers after "git clean-diffstat --find-copies" <<-'EOF'
	"--find-copies "
	"--find-copies-harder "
	"--find-copies="
	EOF
	offers after "git clean-diffstat --no-ren" <<-'EOF'
	"--no-rename-empty "
	"--no-renames "
	EOF
}

@test "diff options the tool refuses are not offered" {
	offers after "git clean-diffstat --exit" </dev/null
	offers after "git clean-diffstat --qu" </dev/null
}

@test "the values of --diff-algorithm complete, with = or as the next word" {
	offers after "git clean-diffstat --diff-algorithm=p" <<-'EOF'
	"patience "
	EOF
	offers after "git clean-diffstat --diff-algorithm " <<-'EOF'
	"histogram "
	"minimal "
	"myers "
	"patience "
	EOF
}

@test "<upstream> completes refs" {
	offers after "git clean-diffstat ma" <<-'EOF'
	"main "
	"maint "
	EOF
}

@test "<head> completes refs, and nothing comes after it" {
	offers after "git clean-diffstat --stat main t" <<-'EOF'
	"topic "
	EOF
	offers after "git clean-diffstat main topic " </dev/null
}

@test "the value of an option in the next word is not a revision" {
	offers after "git clean-diffstat -S ma" </dev/null
	offers after "git clean-diffstat -S main ma" <<-'EOF'
	"main "
	"maint "
	EOF
}

@test "after --end-of-options every word is a revision" {
	offers after "git clean-diffstat --end-of-options --ch" </dev/null
}

@test "after -- paths complete" {
	offers after "git clean-diffstat main -- sr" <<-'EOF'
	"src"
	EOF
	offers after "git clean-diffstat main topic -- src/" <<-'EOF'
	"src/a.c"
	"src/b.c"
	EOF
}

@test "--request-pull: <url> completes remote names" {
	offers after "git clean-diffstat --request-pull main or" <<-'EOF'
	"origin "
	EOF
	offers after "git clean-diffstat main --request-pull -p " <<-'EOF'
	"origin "
	"upstream "
	EOF
}

@test "--request-pull: <start> and <end> complete refs" {
	offers after "git clean-diffstat --request-pull ma" <<-'EOF'
	"main "
	"maint "
	EOF
	offers after "git clean-diffstat --request-pull main origin t" <<-'EOF'
	"topic "
	EOF
	offers after "git clean-diffstat --request-pull main origin topic " </dev/null
}

@test "an alias for clean-diffstat completes the same" {
	git config alias.cds clean-diffstat
	offers after "git cds --allow-un" <<-'EOF'
	"--allow-unrelated-histories "
	EOF
}

@test "the completion works sourced before git's" {
	offers before "git clean-diffstat --allow-un" <<-'EOF'
	"--allow-unrelated-histories "
	EOF
	offers before "git clean-diffstat ma" <<-'EOF'
	"main "
	"maint "
	EOF
}

@test "bash-completion loads it from \$(bashcompdir)/git-clean-diffstat" {
	[ -f "$bash_completion" ] || skip "bash-completion is not installed"
	# the layout `make install prefix=$prefix` gives, with git's own
	# completion beside it so that only this prefix is searched
	prefix=$BATS_TEST_TMPDIR/prefix
	dir=$prefix/share/bash-completion/completions
	mkdir -p "$dir"
	cp "$ours" "$dir/git-clean-diffstat"
	ln -s "$git_completion" "$dir/git"
	XDG_DATA_DIRS=$prefix/share offers autoload "git clean-diffstat --allow-un" <<-'EOF'
	"--allow-unrelated-histories "
	EOF
	XDG_DATA_DIRS=$prefix/share offers autoload "git clean-diffstat --request-pull main or" <<-'EOF'
	"origin "
	EOF
}

@test "bash-completion loads it from ~/.local/share/bash-completion/completions" {
	[ -f "$bash_completion" ] || skip "bash-completion is not installed"
	prefix=$BATS_TEST_TMPDIR/prefix
	mkdir -p "$prefix/share/bash-completion/completions" \
		"$HOME/.local/share/bash-completion/completions"
	ln -s "$git_completion" "$prefix/share/bash-completion/completions/git"
	cp "$ours" "$HOME/.local/share/bash-completion/completions/git-clean-diffstat"
	XDG_DATA_DIRS=$prefix/share offers autoload "git clean-diffstat ma" <<-'EOF'
	"main "
	"maint "
	EOF
}

@test "--verify: its own options alone, then <upstream> and nothing after it" {
	offers after "git clean-diffstat --verif" <<-'EOF'
	"--verify "
	"--verify="
	EOF
	offers after "git clean-diffstat --verify --" <<-'EOF'
	"--allow-local "
	"--end-of-options "
	"--fetch-stall="
	"--fetch-timeout="
	"--help "
	"--in-order "
	"--jobs="
	"--no-fetch "
	"--no-progress "
	"--porcelain "
	"--progress "
	"--verify "
	"--version "
	EOF
	offers after "git clean-diffstat --verify --porcelain ma" <<-'EOF'
	"main "
	"maint "
	EOF
	offers after "git clean-diffstat --verify main " </dev/null
}

@test "--verify=: the file of the request completes" {
	echo request >pull-request.txt
	offers after "git clean-diffstat --verify=pull" <<-'EOF'
	"pull-request.txt"
	EOF
}

@test "every option git clean-diffstat -h lists is offered" {
	tool_options | sed 's/.*/"& "/' | sort >"$BATS_TEST_TMPDIR/listed"
	[ -s "$BATS_TEST_TMPDIR/listed" ]
	capture complete_line after "git clean-diffstat -"
	expect_status 0
	# an option that needs its value is offered as "--option="
	sed 's/="$/ "/' "$BATS_TEST_TMPDIR/actual" | sort >"$BATS_TEST_TMPDIR/offered"
	comm -23 "$BATS_TEST_TMPDIR/listed" "$BATS_TEST_TMPDIR/offered" >"$BATS_TEST_TMPDIR/missing"
	test_cmp /dev/null "$BATS_TEST_TMPDIR/missing"
}

# need_zsh: skip unless zsh can run the completion; the first time in
# a test file, make the completion dump every zsh of the file starts
# compinit from (without one, compinit scans all of $fpath: about 0.7 s
# for each line completed).
need_zsh() {
	local dump=$BATS_FILE_TMPDIR/zcompdump tmp

	[ ! -s "$dump" ] || return 0
	command -v zsh >/dev/null || skip "zsh is not installed"
	zsh -fc 'zmodload zsh/zpty' 2>/dev/null || skip "zsh has no zsh/zpty"
	# shellcheck disable=SC2016
	[ -n "$(zsh -fc 'print -l ${^fpath}/_git(N)')" ] ||
		skip "zsh's _git completion is not installed"
	# made aside and renamed, as tests of this file may run at once;
	# shellcheck disable=SC2016 # zsh's $fpath, $1 and $2
	tmp=$(mktemp -d "$BATS_FILE_TMPDIR/zcompdump.XXXXXX") &&
	zsh -fc 'fpath=($1 $fpath); autoload -Uz compinit && compinit -u -d $2' \
		zsh "$TOP/contrib/completion" "$tmp/dump" &&
	mv "$tmp/dump" "$dump" && rmdir "$tmp"
}

# zsh_complete_line <command line>: zsh's completions for <command line>,
# with zsh's _git and contrib/completion/_git-clean-diffstat (found
# through $fpath, as compinit finds it installed in $(zshcompdir)),
# sorted, one a line.  zsh completes only in its line editor, so an
# interactive zsh -f runs on a pseudo-terminal (zsh/zpty), gets the line
# and a <TAB>, and a compadd wrapper writes every match it is given to a
# file.
zsh_complete_line() {
	zsh -f -s -- "$TOP/contrib/completion" "$BATS_TEST_TMPDIR/matches" "$1" \
		"$BATS_FILE_TMPDIR/zcompdump" <<-'EOF' 2>&1
	dir=$1 out=$2 line=$3 dump=$4
	zmodload zsh/zpty zsh/zselect || exit 1
	: >$out
	zpty z TERM=dumb zsh -f -i
	zpty -w z "PS1='' RPS1=''; unsetopt beep; fpath=(${(q)dir} \$fpath)"
	zpty -w z "autoload -Uz compinit && compinit -u -C -d ${(q)dump}"
	# a compadd that first writes down what it adds (unless a caller
	# only asks it to filter with -O, -A or -D)
	zpty -w z "compadd () { local -a m; if (( \${@[(I)-[OAD]]} )); then builtin compadd \"\$@\"; return; fi; builtin compadd -O m \"\$@\"; (( \$#m )) && print -rl -- \$m >>${(q)out}; builtin compadd \"\$@\"; }"
	zpty -w z "comppostfuncs=( __done ); __done () { print -r -- ::done:: >>${(q)out}; }"
	zpty -w -n z "$line"$'\t'
	for i in {1..1000}; do
		[[ $'\n'$(<$out) == *$'\n'::done::* ]] && break
		zselect -t 1
	done
	zpty -d z
	grep -qx ::done:: $out || print "the completion did not finish"
	grep -vx ::done:: $out | sort -u
	EOF
}

@test "zsh: tool options complete" {
	offers zsh "git clean-diffstat --ch" <<-'EOF'
	--check
	EOF
	offers zsh "git clean-diffstat --allow-un" <<-'EOF'
	--allow-unrelated-histories
	EOF
	offers zsh "git clean-diffstat main --allow-un" <<-'EOF'
	--allow-unrelated-histories
	EOF
}

@test "zsh: --verify and its options complete, <upstream> after it" {
	offers zsh "git clean-diffstat --verif" <<-'EOF'
	--verify
	EOF
	offers zsh "git clean-diffstat --verify --no-f" <<-'EOF'
	--no-fetch
	EOF
	offers zsh "git clean-diffstat --verify --allow-l" <<-'EOF'
	--allow-local
	EOF
	offers zsh "git clean-diffstat --verify --che" </dev/null
	offers zsh "git clean-diffstat --verify ma" <<-'EOF'
	main
	maint
	EOF
}

@test "zsh: modes exclude one another, refused diff options are not offered" {
	offers zsh "git clean-diffstat --check --ex" <<-'EOF'
	--ext-diff
	EOF
	offers zsh "git clean-diffstat --exit" </dev/null
	offers zsh "git clean-diffstat --end-of-options --ch" </dev/null
}

@test "zsh: <upstream> and <head> complete refs, nothing after them" {
	offers zsh "git clean-diffstat ma" <<-'EOF'
	main
	maint
	EOF
	offers zsh "git clean-diffstat --stat main t" <<-'EOF'
	topic
	EOF
	offers zsh "git clean-diffstat main topic " </dev/null
}

@test "zsh: after -- paths complete" {
	offers zsh "git clean-diffstat main -- sr" <<-'EOF'
	src
	EOF
}

@test "zsh: --request-pull completes <start>, remote names, <end>" {
	offers zsh "git clean-diffstat --request-pull main or" <<-'EOF'
	origin
	EOF
	offers zsh "git clean-diffstat main --request-pull up" <<-'EOF'
	upstream
	EOF
	offers zsh "git clean-diffstat --request-pull main origin t" <<-'EOF'
	topic
	EOF
}

@test "zsh: clean-diffstat is listed among git's commands" {
	mkdir "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\n' >"$BATS_TEST_TMPDIR/bin/git-clean-diffstat"
	chmod +x "$BATS_TEST_TMPDIR/bin/git-clean-diffstat"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH offers zsh "git clean-d" <<-'EOF'
	clean-diffstat
	EOF
}

@test "the diff options a mode refuses are not offered in that mode" {
	offers after "git clean-diffstat --line-pre" <<-'EOF'
	"--line-prefix="
	EOF
	offers after "git clean-diffstat --check --line-pre" </dev/null
	offers after "git clean-diffstat --porcelain --skip-t" </dev/null
	offers after "git clean-diffstat --request-pull --output=" </dev/null
	offers after "git clean-diffstat --request-pull --line-pre" <<-'EOF'
	"--line-prefix="
	EOF
	offers after "git clean-diffstat --explain -z" </dev/null
	offers after "git clean-diffstat --porcelain -z" <<-'EOF'
	"-z "
	EOF
}

@test "zsh: the diff options a mode refuses are not offered in that mode" {
	offers zsh "git clean-diffstat --line-pre" <<-'EOF'
	--line-prefix
	EOF
	offers zsh "git clean-diffstat --check --line-pre" </dev/null
	offers zsh "git clean-diffstat --porcelain --skip-t" </dev/null
	offers zsh "git clean-diffstat --request-pull --outp" <<-'EOF'
	--output-indicator-context
	--output-indicator-new
	--output-indicator-old
	EOF
	offers zsh "git clean-diffstat --request-pull --line-pre" <<-'EOF'
	--line-prefix
	EOF
}
