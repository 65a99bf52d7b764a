# shellcheck shell=bash
# The histories of the kernel's "Handling messy pull-request diffstats"
# and their messier relatives, each in a new repository in the current
# directory, built with test_commit and test_merge from test_helper.bash.
# Each leaves "main" as upstream ("linus") and names the work's branch.

# The mainline: vM, vN-rc1, vN-rc2, vN-rc3 with files in several places.
history_mainline() {
	git init -q "${1:-repo}" && cd "${1:-repo}" || return
	test_commit vM Makefile "VERSION = M"
	test_commit "mm: tidy" mm/page_alloc.c one two three
	test_commit vN-rc1 Makefile "VERSION = N-rc1"
	test_commit "net: fix a leak" net/socket.c fix
	test_commit vN-rc2 Makefile "VERSION = N-rc2"
	test_commit "sched: balance" kernel/sched/fair.c balance
	test_commit vN-rc3 Makefile "VERSION = N-rc3"
}

# The document's second picture: a topic c1..cN from vN-rc2.
history_simple_topic() {
	history_mainline "$@" || return
	git checkout -q -b topic vN-rc2
	test_commit "c1: ext4 extents" fs/ext4/extents.c c1
	test_commit "c2: ext4 dir" fs/ext4/dir.c c2
	test_commit "cN: ext4 super" fs/ext4/super.c cN
	git checkout -q main
}

# The document's third picture: x1..x3 from vN-rc1 merged into c2 of a
# topic from vN-rc2; mainline has moved on to vN.
history_messy() {
	history_mainline "$@" || return
	git checkout -q -b x vN-rc1
	test_commit "x1: drm core" drivers/gpu/drm/core.c x1
	test_commit "x2: drm kms" drivers/gpu/drm/kms.c x2
	test_commit "x3: drm doc" Documentation/drm.txt x3
	git checkout -q -b topic vN-rc2
	test_commit "c1: ext4 extents" fs/ext4/extents.c c1
	test_merge x "c2: Merge branch 'x' into topic"
	test_commit "cN: ext4 super" fs/ext4/super.c cN
	git checkout -q main
	test_commit vN Makefile "VERSION = N"
}

# history_messy, with upstream having pulled x already: two merge bases
# (x3 and vN-rc2), and request-pull's diffstat fills with mainline work.
history_pulled_part() {
	history_messy "$@" || return
	test_merge x "Merge branch 'x' of drm into main"
	test_commit "vN+1-rc1" Makefile "VERSION = N+1-rc1"
}

# A criss-cross: main and topic each merged the other's earlier tip.
history_criss_cross() {
	history_mainline "$@" || return
	git checkout -q -b topic vN-rc1
	test_commit "t1" fs/t.c t1
	git branch -q m1 vN-rc2
	git checkout -q topic
	test_merge m1 "topic: merge main's rc2"
	git checkout -q main
	test_merge "topic~1" "main: merge topic's t1"
	git checkout -q topic
	test_commit "t2" fs/t.c t2
	git checkout -q main
	test_commit "m2" mm/page_alloc.c m2
	git branch -q -D m1
}

# Cherry-picks on both sides: a fix picked from the topic into main and
# one picked from main into the topic.
history_cherry_picks() {
	history_simple_topic "$@" || return
	git checkout -q topic
	test_commit "fix: in both" lib/fix.c fix
	git checkout -q main
	test_tick
	git cherry-pick topic >/dev/null
	test_commit "main only" net/socket.c more
	git checkout -q topic
	test_tick
	git cherry-pick main >/dev/null
	test_commit "topic only" fs/ext4/dir.c more
	git checkout -q main
}
