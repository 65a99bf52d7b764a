#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make demo: build the history of the kernel's "Handling messy pull-request
# diffstats" in a temporary directory, with upstream having pulled part of
# the work already, and show what git request-pull and git clean-diffstat
# say of it.  Usage: t/demo.sh <directory holding git-clean-diffstat>
set -eu

bindir=$(cd "${1:-.}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/clean-diffstat-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM HUP

# a world of its own: no user or system configuration, fixed dates
HOME=$work/home
GIT_CONFIG_NOSYSTEM=1
GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL=author@example.com
GIT_COMMITTER_NAME='A U Thor' GIT_COMMITTER_EMAIL=author@example.com
PATH=$bindir:$PATH
export HOME GIT_CONFIG_NOSYSTEM PATH GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL \
	GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
unset GIT_DIR GIT_WORK_TREE GIT_OBJECT_DIRECTORY \
	GIT_ALTERNATE_OBJECT_DIRECTORIES 2>/dev/null || true
mkdir "$HOME"

tick=1650000000
commit() {	# commit <message> <file> <line>...: append lines, commit
	msg=$1 file=$2
	shift 2
	mkdir -p "$(dirname "$file")"
	for line in "$@"; do
		echo "$line" >>"$file"
	done
	git add "$file"
	tick=$((tick + 3600))
	GIT_AUTHOR_DATE="@$tick +0000" GIT_COMMITTER_DATE="@$tick +0000" \
		git commit -q -m "$msg"
}
merge() {	# merge <branch> <message>
	tick=$((tick + 3600))
	GIT_AUTHOR_DATE="@$tick +0000" GIT_COMMITTER_DATE="@$tick +0000" \
		git merge -q --no-ff -m "$2" "$1"
}

git init -q -b linus "$work/linux"
cd "$work/linux"
commit "Linux vM" Makefile "VERSION = M"
commit "mm: tidy the page allocator" mm/page_alloc.c "tidy"
git tag vM
commit "Linux vN-rc1" Makefile "VERSION = N-rc1"
git tag vN-rc1
commit "net: fix a leak in the socket code" net/socket.c "fix leak"
commit "sched: better load balancing" kernel/sched/fair.c "balance" "harder"
commit "Linux vN-rc2" Makefile "VERSION = N-rc2"
git tag vN-rc2

# the maintainer's two topic branches, started at vN-rc1 and vN-rc2
git checkout -q -b x vN-rc1
commit "ext4: x1: new extent cache" fs/ext4/extents.c "x1" "x1b"
commit "ext4: x2: use the cache in readdir" fs/ext4/dir.c "x2"
commit "ext4: x3: document the cache" Documentation/ext4.txt "x3"
git checkout -q -b for-linus vN-rc2
commit "ext4: c1: faster fsync" fs/ext4/fsync.c "c1" "c1b" "c1c"
merge x "Merge branch 'x' into for-linus"
commit "ext4: c3: fix a race in fsync" fs/ext4/fsync.c "c3"
commit "ext4: cN: new mount option" fs/ext4/super.c "cN" "cNb"

# upstream moves on, and has already pulled the x branch
git checkout -q linus
commit "Linux vN-rc3" Makefile "VERSION = N-rc3"
merge x "Merge tag 'ext4-x' into linus"
commit "drm: a new driver" drivers/gpu/drm/new.c "drm" "more" "lines"
commit "Linux vN-rc4" Makefile "VERSION = N-rc4"
git checkout -q for-linus

git init -q --bare "$work/pub.git"
git push -q "$work/pub.git" for-linus

say() { printf '\n== %s\n' "$*"; }
say "The history: x from vN-rc1, for-linus from vN-rc2, x merged into both"
git log --graph --oneline --format='%h %s' linus for-linus
say "Merge bases of linus and for-linus"
git merge-base --all linus for-linus | xargs git log --no-walk=unsorted --format='%h %s'
say "git request-pull linus file://$work/pub.git for-linus  (its diffstat is messy)"
git request-pull linus "file://$work/pub.git" for-linus | sed -n '/^---*$/,$p'
say "git clean-diffstat linus  (what linus will see when pulling)"
git clean-diffstat linus
say "git clean-diffstat --check linus"
git clean-diffstat --check linus || true
say "git clean-diffstat --explain linus"
git clean-diffstat --explain linus || true
say "git status: nothing was touched"
git status --short --branch
