# SPDX-License-Identifier: GPL-2.0-only
# bash completion for git clean-diffstat                 -*- shell-script -*-
# shellcheck shell=bash
#
# git's own completion (git-completion.bash) completes "git clean-diffstat
# ..." by calling _git_clean_diffstat, the function this file defines.  It
# finds it in one of two ways (__git_complete_command in git's script):
#
#  - the function is already defined: this file was sourced, before or
#    after git's completion, e.g. from ~/.bashrc;
#  - otherwise git's completion asks bash-completion's loader for
#    "git-clean-diffstat" (_completion_loader git-clean-diffstat), which
#    sources this file from .../bash-completion/completions/git-clean-diffstat
#    and then finds the function.
#
# So the file only defines functions: sourcing it needs nothing else, and
# it ends with status 0, which bash-completion's loader takes as success.
#
# The words of the command line (cur, words, cword, prev, __git_cmd_idx)
# and the helpers (__gitcomp, __git_complete_refs, ...) are git's.
# shellcheck disable=SC2154

# Options of git diff that git clean-diffstat takes but that are not in
# git's $__git_diff_common_options (lib/options.c has the full table).
__git_clean_diffstat_diff_options ()
{
	echo "--stat= --compact-summary --no-compact-summary
		--stat-width= --stat-name-width= --stat-graph-width=
		--stat-count= --unified= --patch-with-raw
		--function-context --no-function-context --no-full-index
		--ws-error-highlight= --line-prefix= --output=
		--output-indicator-new= --output-indicator-old=
		--output-indicator-context=
		--find-renames --find-renames= --find-copies --find-copies=
		--break-rewrites --break-rewrites= --irreversible-delete
		--no-find-copies-harder --rename-empty --no-rename-empty
		--ignore-matching-lines= --color-words=
		--relative --relative= --no-relative
		--pickaxe-all --pickaxe-regex
		--rotate-to= --skip-to= --find-object=
		-C -M -B -D -l -p -u -s -U -X -W -z -a -R -S -G -O -I -w -b"
}

# The diff options that take the next word as their value when given
# without "=<value>" (REQARG in lib/options.c).  Succeeds if $1 is one.
__git_clean_diffstat_takes_value ()
{
	case "$1" in
	-[lISGO]|--stat-width|--stat-name-width|--stat-graph-width|\
	--stat-count|--ws-error-highlight|--src-prefix|--dst-prefix|\
	--line-prefix|--inter-hunk-context|--output-indicator-new|\
	--output-indicator-old|--output-indicator-context|--output|\
	--ignore-matching-lines|--diff-algorithm|--anchored|\
	--word-diff-regex|--color-moved-ws|--rotate-to|--skip-to|\
	--find-object|--diff-filter)
		return 0
		;;
	esac
	return 1
}

_git_clean_diffstat ()
{
	local i word mode="" only_revs="" value_of="" nr_revs=0
	local -A seen
	local opt opts=""

	# Read the words before the one being completed as lib/options.c's
	# parse_options() does: the tool's options, diff options (some
	# taking the next word), the revisions, and "--" before pathspecs.
	for ((i = ${__git_cmd_idx:-1} + 1; i < cword; i++)); do
		word="${words[i]}"
		if [ -n "$value_of" ]; then
			value_of=""
			continue
		fi
		if [ "$word" = "--" ]; then
			__git_complete_index_file "--cached"
			return
		fi
		if [ -n "$only_revs" ] || [[ "$word" != -?* ]]; then
			((nr_revs++))
			continue
		fi
		case "$word" in
		--end-of-options)	only_revs=yes ;;
		--check)		mode=check ;;
		--explain)		mode=explain ;;
		--porcelain)		[ "$mode" = verify ] || mode=porcelain ;;
		--request-pull)		mode=request-pull ;;
		--verify|--verify=*)	mode=verify ;;
		*)
			__git_clean_diffstat_takes_value "$word" &&
				value_of="$word"
			;;
		esac
	done

	# The value of a diff option given as the next word.
	case "$value_of" in
	"")
		;;
	--diff-algorithm)
		__gitcomp "$__git_diff_algorithms"
		return
		;;
	--color-moved-ws)
		__gitcomp "$__git_color_moved_ws_opts"
		return
		;;
	*)
		# A file (-O, --output) or a free-form value: leave it to
		# bash's default completion.
		return
		;;
	esac

	if [ -z "$only_revs" ]; then
		case "$cur" in
		--diff-algorithm=*)
			__gitcomp "$__git_diff_algorithms" "" "${cur##--diff-algorithm=}"
			return
			;;
		--submodule=*)
			__gitcomp "$__git_diff_submodule_formats" "" "${cur##--submodule=}"
			return
			;;
		--color-moved=*)
			__gitcomp "$__git_color_moved_opts" "" "${cur##--color-moved=}"
			return
			;;
		--color-moved-ws=*)
			__gitcomp "$__git_color_moved_ws_opts" "" "${cur##--color-moved-ws=}"
			return
			;;
		--verify=*)
			# the file holding the request
			cur=${cur#--verify=}
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			compopt -o filenames 2>/dev/null
			return
			;;
		-*)
			# --verify takes no diff options: its own, and --porcelain
			if [ "$mode" = verify ]; then
				__gitcomp "--verify --no-fetch --allow-local --porcelain
					--fetch-timeout= --fetch-stall= -j --jobs= --in-order
					--progress --no-progress -q -h --help --version --end-of-options"
				return
			fi
			# The modes exclude one another (--porcelain is
			# --explain's); offer only the mode given, if any.
			case "$mode" in
			"")		opts="--check --explain --porcelain --request-pull
					      --verify --verify= --no-fetch --allow-local
					      --fetch-timeout= --fetch-stall= -j --jobs=
					      --in-order --progress --no-progress -q" ;;
			explain|porcelain) opts="--explain --porcelain" ;;
			*)		opts="--$mode" ;;
			esac
			opts="$opts --allow-unrelated-histories -h --help --version
				--end-of-options"
			# git's diff options; --exit-code and --quiet are
			# refused (the exit status tells of conflicts), and
			# git diff's --check is taken by the tool's.
			for opt in $__git_diff_common_options \
				   $(__git_clean_diffstat_diff_options); do
				case "$opt" in
				--exit-code|--quiet|--check)
					continue ;;
				esac
				# nor those the mode refuses (lib/options.c)
				case "$mode,$opt" in
				?*,--output=|\
				check,-z|explain,-z|request-pull,-z|\
				[ce]*,--line-prefix=|[ce]*,--rotate-to=|\
				[ce]*,--skip-to=|porcelain,--line-prefix=|\
				porcelain,--rotate-to=|porcelain,--skip-to=)
					continue ;;
				esac
				opts="$opts $opt"
			done
			# Each option once, in the order given.
			word=""
			for opt in $opts; do
				[ -n "${seen[$opt]-}" ] && continue
				seen[$opt]=1
				word="$word $opt"
			done
			__gitcomp "$word"
			return
			;;
		esac
	fi

	# The arguments: <upstream> [<head>], or with --request-pull
	# <start> <url> [<end>], where <url> is most often a remote's name.
	if [ "$mode" = request-pull ]; then
		case "$nr_revs" in
		0|2)	__git_complete_refs ;;
		1)	__gitcomp_nl "$(__git_remotes)" ;;
		esac
	elif [ "$mode" = verify ]; then
		[ "$nr_revs" -lt 1 ] && __git_complete_refs
	elif [ "$nr_revs" -lt 2 ]; then
		__git_complete_refs
	fi
}
