#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# clean-diffstat-pr.sh: in the CI job of a pull request (GitHub Actions)
# or merge request (GitLab CI), say whether the forge's diff of it is
# messy, and show the clean diffstat: what merging it really changes.
#
# A forge shows a pull request as the three-dot diff, from the one merge
# base git merge-base picks to the head: git request-pull's diffstat,
# messy in exactly the kernel document's case.  This runs
# git clean-diffstat --check, then the clean diffstat and --explain, on
# the branch the request goes into and its head; prints them in the job
# log; and writes them as Markdown to the job summary.  It fails nothing
# by default: a messy diffstat is news, not an error.
#
# What it reads from the environment:
#
#   GitHub Actions  GITHUB_EVENT_NAME (pull_request, pull_request_target;
#                   anything else: nothing to check), GITHUB_BASE_REF
#                   (the branch pulled into), GITHUB_STEP_SUMMARY (the
#                   summary file); a HEAD that is GitHub's test merge of
#                   the request (actions/checkout's default) is taken
#                   back to the request's head, its second parent
#   GitLab CI       CI_MERGE_REQUEST_TARGET_BRANCH_NAME (unset outside a
#                   merge request pipeline: nothing to check),
#                   CI_MERGE_REQUEST_SOURCE_BRANCH_SHA (the head, in a
#                   merged results pipeline), CI_COMMIT_SHA (else the
#                   head), CI_MERGE_REQUEST_DIFF_BASE_SHA (where GitLab's
#                   diff starts, named in the summary)
#   either          CLEAN_DIFFSTAT_REMOTE (default origin), the remote
#                   the branch pulled into comes from;
#                   CLEAN_DIFFSTAT_BASE and CLEAN_DIFFSTAT_HEAD, to name
#                   the two revisions instead;
#                   CLEAN_DIFFSTAT_SUMMARY, the summary file (default
#                   GITHUB_STEP_SUMMARY, else clean-diffstat.md);
#                   CLEAN_DIFFSTAT_STRICT=1: exit 1 when messy
#
# A shallow clone is deepened to the whole history and a branch pulled
# into that is not here is fetched from the remote: the merge bases may
# be far back.
#
# Exit status: 0, messy or not (1 when messy with CLEAN_DIFFSTAT_STRICT=1);
# 2 when it cannot check (git clean-diffstat's error is in the log).

me=clean-diffstat-pr
remote=${CLEAN_DIFFSTAT_REMOTE:-origin}

say() {
	printf '%s: %s\n' "$me" "$*" >&2
}

# The forge, the branch pulled into and the head.
target='' head=${CLEAN_DIFFSTAT_HEAD:-} diff_base=''
if [ -n "${GITHUB_EVENT_NAME:-}" ]; then
	forge=GitHub
	case $GITHUB_EVENT_NAME in
	pull_request | pull_request_target) target=${GITHUB_BASE_REF:-} ;;
	*)
		say "a $GITHUB_EVENT_NAME event, not a pull request: nothing to check"
		exit 0 ;;
	esac
elif [ -n "${GITLAB_CI:-}${CI_MERGE_REQUEST_TARGET_BRANCH_NAME:-}" ]; then
	forge=GitLab
	target=${CI_MERGE_REQUEST_TARGET_BRANCH_NAME:-}
	if [ -z "$target" ] && [ -z "${CLEAN_DIFFSTAT_BASE:-}" ]; then
		say "not a merge request pipeline: nothing to check"
		exit 0
	fi
	[ -n "$head" ] || head=${CI_MERGE_REQUEST_SOURCE_BRANCH_SHA:-${CI_COMMIT_SHA:-}}
	diff_base=${CI_MERGE_REQUEST_DIFF_BASE_SHA:-}
else
	forge=
fi
base=${CLEAN_DIFFSTAT_BASE:-}
if [ -z "$base" ]; then
	if [ -z "$target" ]; then
		say "no branch to pull into: set CLEAN_DIFFSTAT_BASE (or run in a pull request's job)"
		exit 2
	fi
	base=$remote/$target
fi
summary=${CLEAN_DIFFSTAT_SUMMARY:-${GITHUB_STEP_SUMMARY:-clean-diffstat.md}}

# The whole history, and the branch pulled into.
if [ "$(git rev-parse --is-shallow-repository)" = true ]; then
	say "deepening the shallow clone: git fetch --unshallow $remote"
	git fetch --quiet --unshallow "$remote" || exit 2
fi
if [ -n "$target" ] && [ -z "${CLEAN_DIFFSTAT_BASE:-}" ] &&
   ! git rev-parse --quiet --verify "$base^{commit}" >/dev/null; then
	say "fetching $target from $remote"
	git fetch --quiet "$remote" \
		"+refs/heads/$target:refs/remotes/$remote/$target" || exit 2
fi

# actions/checkout checks out GitHub's test merge of the request into
# the branch by default: its second parent is the request's head.
if [ -z "$head" ]; then
	head=HEAD
	if [ "$forge" = GitHub ] &&
	   git rev-parse --quiet --verify HEAD^2 >/dev/null &&
	   [ "$(git rev-parse HEAD^1)" = "$(git rev-parse "$base^{commit}" 2>/dev/null)" ]; then
		say "HEAD is GitHub's test merge into $base: checking its second parent"
		head=HEAD^2
	fi
fi
# the head by its short id: the tool's lines that name it fit in a line
head=$(git rev-parse --short --verify --end-of-options "$head^{commit}") || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/$me.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

# run <file> <git clean-diffstat arguments>...: stdout and stderr in
# <file>, the exit status in $status.
run() {
	out=$1
	shift
	status=0
	git clean-diffstat "$@" --end-of-options "$base" "$head" \
		>"$tmp/$out" 2>&1 || status=$?
}

# fenced <file>: the file in a Markdown code block whose fence is
# longer than any run of backquotes in it.
fenced() {
	fence=$(awk '{ while (match($0, /`+/)) { if (RLENGTH > n) n = RLENGTH;
		$0 = substr($0, RSTART + RLENGTH) } }
		END { n = n < 3 ? 3 : n + 1; while (n--) printf "`" }' "$1")
	printf '%s\n' "$fence"
	cat "$1"
	printf '%s\n\n' "$fence"
}

run check --check
case $status in
0) verdict="clean: the diff ${forge:-the forge} shows is what merging changes" ;;
1) verdict="messy: the diff ${forge:-the forge} shows is not what merging changes" ;;
*)
	cat "$tmp/check" >&2
	say "git clean-diffstat --check $base $head failed (exit $status)"
	{
		printf '## Clean diffstat: %s into %s\n\n' "$head" "$base"
		printf 'git clean-diffstat could not check it:\n\n'
		fenced "$tmp/check"
	} >>"$summary"
	exit 2 ;;
esac
messy=$status
run clean
run explain --explain

# The job log.
printf '%s\n\n' "$verdict"
cat "$tmp/check"
printf '\nWhat merging %s into %s changes:\n' "$head" "$base"
cat "$tmp/clean"
if [ "$messy" -eq 1 ]; then
	echo
	cat "$tmp/explain"
fi

# The summary.
{
	printf '## Clean diffstat: %s into %s\n\n' "$head" "$base"
	printf '%s.\n' "$verdict"
	[ -z "$diff_base" ] ||
		printf 'GitLab diffs it from %s.\n' "$diff_base"
	printf '\n### What merging it changes\n\n'
	fenced "$tmp/clean"
	if [ "$messy" -eq 1 ]; then
		printf '### How the forge'\''s diff differs\n\n'
		fenced "$tmp/explain"
	fi
	printf '<details><summary>git clean-diffstat --check</summary>\n\n'
	fenced "$tmp/check"
	printf '</details>\n\n'
} >>"$summary"

if [ "$messy" -eq 1 ] && [ "${CLEAN_DIFFSTAT_STRICT:-}" = 1 ]; then
	exit 1
fi
exit 0
