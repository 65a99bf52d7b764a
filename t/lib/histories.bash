# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# The histories of the kernel's "Handling messy pull-request diffstats"
# and their messier relatives, with files of many lines edited in place,
# a file the mainline deletes and edits on both sides of several files,
# so that the merges have real work to do.  Each is built in a new
# repository <dir> (default: repo) under the current directory, which it
# enters.  As in the document, the mainline branch is "linus" and the
# maintainer's branch "topic"; every named commit (vM, vN-rc1, c1, x1,
# ...) is tagged with its name, and topic is left checked out.  Dates
# come from test_tick.
#
# Each is built once per run of the suite (and per git, hash and global
# configuration), then copied: building one takes some sixty gits,
# copying it one cp.
#
#   history_simple          topic c1..c3 from vN-rc2
#   history_messy           x1..x3 from vN-rc1 merged into c2 of a topic
#                           from vN-rc2; linus at vN
#   history_partly_pulled   history_messy, but linus pulled x2 already:
#                           two merge bases, x2 and vN-rc2
#   history_criss_cross     linus and topic merged each other's tip
#   history_cherry_picks    the same change on both sides
#   history_three_bases     x1, y1 and z1 from vN-rc2 merged into both
#                           linus and topic: three merge bases
#   history_three_bases_long  the same, with a subject and a path too
#                           long for a line of a mail
#   history_nine_bases      m1..m9 from vN-rc2, each a new file, merged
#                           into both linus and topic: nine merge bases

# lines <name> <n>: <n> numbered lines for a file called <name>.
lines() {
	local i

	for ((i = 1; i <= $2; i++)); do
		printf '%s line %d\n' "$1" "$i"
	done
}

# edit <file> <n> <text>: replace line <n> of <file> by <text>.
edit() {
	sed -i "$2s|.*|$3|" "$1"
}

# new_file <file> [<n>]: a new file of <n> (default 20) numbered lines.
new_file() {
	make_parent "$1"
	lines "${1##*/}" "${2:-20}" >"$1"
}

set_version() {
	printf 'VERSION = %s\n' "$1" >Makefile
	lines make 5 >>Makefile
}

# history_mainline [<dir>]: vM, then vN-rc1, vN-rc2, vN-rc3, touching
# files in several directories.  Every history but the smallest starts
# with it: built once per run too (from_cache) and copied, some thirty
# gits less for each of the others.
history_mainline() { from_cache build_mainline "$@"; }

build_mainline() {
	git init -q -b linus "${1:-repo}" && cd "${1:-repo}" || return
	set_version M
	new_file README 10
	new_file drivers/net/eth.c 40
	new_file drivers/gpu/drm.c 30
	new_file fs/ext4/inode.c 30
	new_file kernel/sched/core.c 40
	new_file Documentation/process/pull-requests.rst 20
	commit_all vM

	edit kernel/sched/core.c 5 'sched: fairer'
	commit_all "sched: be fairer"
	edit drivers/gpu/drm.c 10 'drm: fixed'
	new_file drivers/gpu/vram.c 12
	commit_all "drm: fix the vram leak"
	set_version N-rc1
	commit_all vN-rc1

	edit fs/ext4/inode.c 20 'ext4: no more corruption'
	new_file fs/btrfs/ctree.c 25
	commit_all "ext4, btrfs: fixes"
	set_version N-rc2
	commit_all vN-rc2

	edit kernel/sched/core.c 30 'sched: faster'
	git rm -q drivers/gpu/vram.c
	commit_all "sched: be faster; drm: drop vram.c"
	set_version N-rc3
	commit_all vN-rc3
}

# The mainline goes on from where it is to vN, editing a file the topic
# edits too (so that merging it is real work).
mainline_to_vN() {
	edit README 2 'README for vN'
	edit drivers/net/eth.c 38 'eth: vN'
	edit fs/ext4/inode.c 25 'ext4: last fix'
	commit_all "ext4: a last fix"
	set_version N
	commit_all vN
}

# The document's second picture: topic c1..c3 from vN-rc2.
build_simple() {
	history_mainline "$@" || return
	git checkout -q -b topic vN-rc2
	edit drivers/net/eth.c 3 'eth: c1'
	commit_all c1
	new_file drivers/net/phy.c 15
	commit_all c2
	edit Documentation/process/pull-requests.rst 7 'docs: c3'
	commit_all c3
}

# The x branch of the messy history: x1..x3 from vN-rc1.
x_branch() {
	git checkout -q -b x vN-rc1
	edit drivers/net/eth.c 30 'eth: x1'
	commit_all x1
	new_file drivers/net/x.c 18
	commit_all x2
	edit drivers/net/eth.c 35 'eth: x3'
	edit drivers/gpu/drm.c 25 'drm: x3'
	commit_all x3
}

# The topic from vN-rc2: c1, then c2 merging x3, c3 and c4.
topic_with_x() {
	git checkout -q -b topic vN-rc2
	edit drivers/net/eth.c 3 'eth: c1'
	commit_all c1
	test_merge x3 "c2: Merge branch 'x' into topic"
	git tag c2
	new_file drivers/net/phy.c 15
	commit_all c3
	edit Documentation/process/pull-requests.rst 7 'docs: c4'
	edit drivers/net/x.c 4 'x: c4'
	commit_all c4
}

# The document's third picture: x1..x3 from vN-rc1 merged into c2 of a
# topic from vN-rc2, and the mainline has moved on to vN.  topic is c4.
build_messy() {
	history_mainline "$@" || return
	mainline_to_vN
	x_branch
	topic_with_x
}

# The messy history, but the mainline pulled x2 already (after vN-rc3),
# so linus and topic have two merge bases: x2 and vN-rc2.
build_partly_pulled() {
	history_mainline "$@" || return
	x_branch
	git checkout -q linus
	test_merge x2 "Merge x2"
	mainline_to_vN
	topic_with_x
}

# A criss-cross: linus and topic each merged the other's tip of the
# time, then went on, so they have two merge bases, l1 and t1.
build_criss_cross() {
	history_mainline "$@" || return
	git checkout -q -b topic vN-rc1
	edit drivers/net/eth.c 3 'eth: t1'
	commit_all t1
	git checkout -q linus
	edit kernel/sched/core.c 12 'sched: l1'
	commit_all l1
	test_merge t1 "Merge t1 into linus"
	git checkout -q topic
	test_merge l1 "Merge l1 into topic"
	edit drivers/net/eth.c 20 'eth: t2'
	new_file drivers/net/t2.c 9
	commit_all t2
	git checkout -q linus
	edit kernel/sched/core.c 22 'sched: l2'
	commit_all l2
	git checkout -q topic
}

# The same change on both sides: linus cherry-picked c1 from topic,
# topic cherry-picked the vN-rc3 fix from linus.
build_cherry_picks() {
	history_mainline "$@" || return
	git checkout -q -b topic vN-rc2
	edit drivers/net/eth.c 3 'eth: c1'
	edit fs/ext4/inode.c 3 'ext4: c1'
	commit_all c1
	edit drivers/net/eth.c 10 'eth: c2'
	commit_all c2
	git checkout -q linus
	test_tick
	git cherry-pick -x c1 >/dev/null
	edit README 5 'README: l1'
	commit_all l1
	git checkout -q topic
	test_tick
	git cherry-pick -x vN-rc3^ >/dev/null
	edit drivers/net/eth.c 15 'eth: c3'
	commit_all c3
}

# history_three_bases [<dir>]: x1, y1 and z1, each on a branch of its own
# from vN-rc2 and each editing a line of drivers/net/eth.c (y1 adds
# drivers/net/y.c too), merged into both linus (after vN-rc3) and topic
# (from vN-rc2: c1, the merges, c2), so that the two have three merge
# bases, of which git merge-base picks z1, the newest: git request-pull's
# diffstat counts the eth.c lines of x1 and y1, and y.c.
# history_three_bases_long [<dir>]: the same, but y1's subject and the
# path of one more file of y1 are too long for a line of a mail.
# history_three_bases_cjk [<dir>]: the same, but y1's subject is of 40
# CJK characters, two columns each: narrow enough for a mail when
# characters are counted, not when columns are.
# history_three_bases_odd [<dir>]: the same, but the subjects hold what
# must not reach a terminal raw: y1's an ESC, x1's a C1 control (CSI,
# U+009B), and z1's a TAB.
build_three_bases() {
	three_bases short "$@"
}

build_three_bases_long() {
	three_bases long "$@"
}

build_three_bases_cjk() {
	three_bases cjk "$@"
}

build_three_bases_odd() {
	three_bases odd "$@"
}

three_bases() {
	local b subject kind=$1
	shift
	history_mainline "$@" || return
	for b in x y z; do
		git checkout -q -b "$b" vN-rc2
		case $b in
		x) edit drivers/net/eth.c 10 'eth: x1' ;;
		y) edit drivers/net/eth.c 20 'eth: y1' && new_file drivers/net/y.c 5 ;;
		z) edit drivers/net/eth.c 30 'eth: z1' ;;
		esac
		subject=${b}1
		case $kind,$b in
		long,y)
			subject="y1: a subject far too long to be shown whole in a line of a mail"
			new_file "drivers/$(printf 'very-long-directory-name-%02d/' 1 2 3)$(printf 'a%.0s' {1..10}).c" 3
			;;
		cjk,y) subject="y1: $(printf '網路驅動程式修正%.0s' 1 2 3 4 5)" ;;
		odd,x) subject=$'x1: CSI \xc2\x9b31m in it' ;;
		odd,y) subject=$'y1: ESC \e[31m red' ;;
		odd,z) subject=$'z1:\ttab' ;;
		esac
		commit_all "$subject" && git tag -f "${b}1" >/dev/null
	done
	git checkout -q -b topic vN-rc2
	new_file drivers/net/phy.c 15
	commit_all c1
	for b in x1 y1 z1; do test_merge "$b"; done
	edit Documentation/process/pull-requests.rst 7 'docs: c2'
	commit_all c2
	git checkout -q linus
	for b in x1 y1 z1; do test_merge "$b"; done
	git checkout -q topic
}

build_nine_bases() {
	local m
	history_mainline "$@" || return
	for m in m1 m2 m3 m4 m5 m6 m7 m8 m9; do
		git checkout -q --detach vN-rc2 &&
		new_file "drivers/net/$m.c" 5 &&
		commit_all "$m" || return
	done
	git checkout -q -b topic vN-rc2
	new_file drivers/net/phy.c 15
	commit_all c1
	for m in m1 m2 m3 m4 m5 m6 m7 m8 m9; do test_merge "$m"; done
	git checkout -q linus
	for m in m1 m2 m3 m4 m5 m6 m7 m8 m9; do test_merge "$m"; done
	git checkout -q topic
}

history_simple() { from_cache build_simple "$@"; }
history_messy() { from_cache build_messy "$@"; }
history_partly_pulled() { from_cache build_partly_pulled "$@"; }
history_criss_cross() { from_cache build_criss_cross "$@"; }
history_cherry_picks() { from_cache build_cherry_picks "$@"; }
history_three_bases() { from_cache build_three_bases "$@"; }
history_three_bases_long() { from_cache build_three_bases_long "$@"; }
history_three_bases_cjk() { from_cache build_three_bases_cjk "$@"; }
history_three_bases_odd() { from_cache build_three_bases_odd "$@"; }
history_nine_bases() { from_cache build_nine_bases "$@"; }

# from_cache <builder> [<dir>]: a copy of what <builder> builds, in <dir>
# (default repo), entered, with test_tick where the builder left it.  The
# first test of the run to ask builds it in CLEAN_DIFFSTAT_TEST_CACHE
# (t/run-suite's, shared by the files it runs side by side) or else
# BATS_RUN_TMPDIR, keyed by what can change the objects (git, GIT_*
# variables, the tick, the global configuration).  A test that asks for
# one being built waits for it (flock), rather than build it too; without
# flock, tests running at once may each build it, the first to finish
# keeps it.  The index is refreshed, as a copy's files have new inodes
# and change times.
from_cache() {
	local builder=$1 dir=${2:-repo} key cache tmp name lock config=

	# in bash alone (no $(...), no cksum): this runs for nearly every
	# test, and each process costs some 15 ms of CPU here
	git_version || return
	key=$REPLY$'\n'$test_tick
	for name in "${!GIT_@}"; do
		# the exported ones, as the builder's gits see them
		[[ ${!name@a} != *x* ]] || key+=$'\n'$name=${!name}
	done
	[ ! -f "$HOME/.gitconfig" ] || IFS= read -r -d '' config <"$HOME/.gitconfig" || :
	string_hash "$key$config"
	key=$builder-$REPLY-${#key}-${#config}
	cache=${CLEAN_DIFFSTAT_TEST_CACHE:-$BATS_RUN_TMPDIR}/histories
	if [ ! -d "$cache/$key" ]; then
		mkdir -p "$cache" || return
		if command -v flock >/dev/null; then
			exec {lock}>"$cache/$key.lock" && flock "$lock" || return
		fi
		[ -d "$cache/$key" ] || {
			tmp=$(mktemp -d "$cache/new.XXXXXX") &&
			(cd "$tmp" && "$builder" repo && echo "$test_tick" >"$tmp/tick") &&
			{ mv -T "$tmp" "$cache/$key" 2>/dev/null || rm -rf "$tmp"; }
		} || { [ -z "${lock-}" ] || exec {lock}>&-; return 1; }
		[ -z "${lock-}" ] || exec {lock}>&-
	fi
	cache=$cache/$key
	cp -a "$cache/repo" "$dir" && cd "$dir" &&
	read -r test_tick <"$cache/tick" &&
	export GIT_COMMITTER_DATE="$test_tick -0700" \
		GIT_AUTHOR_DATE="$test_tick -0700" &&
	git update-index -q --refresh >/dev/null
}

# git_version: what git version says of the git on PATH, in $REPLY; asked
# once per run of bats for each git (by its path), then read from
# BATS_RUN_TMPDIR.
git_version() {
	local path memo tmp
	git_path
	path=$REPLY
	memo=$BATS_RUN_TMPDIR/git-version${path//\//%}
	REPLY=
	if [ ! -f "$memo" ]; then
		tmp=$memo.$BASHPID	# expanded here, not in git's child
		git version >"$tmp" && mv -f "$tmp" "$memo" || return
	fi
	IFS= read -r REPLY <"$memo"
}

# git_path: the absolute path of the git on PATH, in
# $REPLY, found as the shell finds it, with no process started.
git_path() {
	local dir path=''
	local -a dirs
	IFS=: read -r -a dirs <<<"$PATH"
	for dir in "${dirs[@]}"; do
		if [ -f "${dir:-.}/git" ] && [ -x "${dir:-.}/git" ]; then
			path=${dir:-.}/git
			break
		fi
	done
	[[ $path == /* ]] || path=$PWD/$path
	REPLY=$path
}

# string_hash <string>: a 32-bit FNV-1a hash of the bytes of <string>,
# in $REPLY; a name for a cache entry, with no process started.
string_hash() {
	local LC_ALL=C s=$1 h=2166136261 i c
	for ((i = 0; i < ${#s}; i++)); do
		printf -v c %d "'${s:i:1}"
		h=$(((h ^ (c & 255)) * 16777619 & 0xffffffff))
	done
	REPLY=$h
}
