# shellcheck shell=bash
#
# The histories of "Handling messy pull-request diffstats" again, with
# files of many lines edited in place, a file the mainline deletes, and
# edits on both sides of several files, so that the merges have real
# work to do.  Each is built in a new repository "repo" under the
# current directory, which it enters.  The mainline branch is "linus" as
# in the document, the maintainer's branch "topic"; every named commit
# is tagged with its name.  Dates come from test_tick.

# Print <n> numbered lines for a file called <name>.
lines() {
	local i

	for ((i = 1; i <= $2; i++)); do
		printf '%s line %d\n' "$1" "$i"
	done
}

# Replace line <n> of <file> by <text>.
edit() {
	sed -i "$2s|.*|$3|" "$1"
}

# Write a new file of <n> (default 20) numbered lines.
new_file() {
	mkdir -p "$(dirname "$1")"
	lines "${1##*/}" "${2:-20}" >"$1"
}

set_version() {
	printf 'VERSION = %s\n' "$1" >Makefile
	lines make 5 >>Makefile
}

# Commit the whole work tree as it is.
commit() {
	git add -A
	test_tick
	git commit -q -m "$1"
}

# Commit the work tree as <name> and tag it <name>.
commit_tag() {
	commit "$1"
	git tag "$1"
}

# (a) The mainline: vM, then vN-rc1, vN-rc2, vN-rc3 (and vN when asked
# with "kernel_mainline vN"), touching files in several directories.
kernel_mainline() {
	git init -q -b linus repo && cd repo || return
	set_version M
	new_file README 10
	new_file drivers/net/eth.c 40
	new_file drivers/gpu/drm.c 30
	new_file fs/ext4/inode.c 30
	new_file kernel/sched/core.c 40
	new_file Documentation/process/pull-requests.rst 20
	commit_tag vM

	edit kernel/sched/core.c 5 'sched: fairer'
	commit "sched: be fairer"
	edit drivers/gpu/drm.c 10 'drm: fixed'
	new_file drivers/gpu/vram.c 12
	commit "drm: fix the vram leak"
	set_version N-rc1
	commit_tag vN-rc1

	edit fs/ext4/inode.c 20 'ext4: no more corruption'
	new_file fs/btrfs/ctree.c 25
	commit "ext4, btrfs: fixes"
	set_version N-rc2
	commit_tag vN-rc2

	edit kernel/sched/core.c 30 'sched: faster'
	git rm -q drivers/gpu/vram.c
	commit "sched: be faster; drm: drop vram.c"
	set_version N-rc3
	commit_tag vN-rc3

	if [ "${1-}" = vN ]; then
		mainline_to_vN
	fi
}

mainline_to_vN() {
	edit README 2 'README for vN'
	edit fs/ext4/inode.c 25 'ext4: last fix'
	commit "ext4: a last fix"
	set_version N
	commit_tag vN
}

# (b) The simple case: topic c1..c3 started at vN-rc2.
kernel_simple() {
	kernel_mainline
	git checkout -q -b topic vN-rc2
	edit drivers/net/eth.c 3 'eth: c1'
	commit_tag c1
	new_file drivers/net/phy.c 15
	commit_tag c2
	edit Documentation/process/pull-requests.rst 7 'docs: c3'
	commit_tag c3
}

# The x branch of the messy history: x1..x3 started at vN-rc1.
kernel_x_branch() {
	git checkout -q -b x vN-rc1
	edit drivers/net/eth.c 30 'eth: x1'
	commit_tag x1
	new_file drivers/net/x.c 18
	commit_tag x2
	edit drivers/net/eth.c 35 'eth: x3'
	edit drivers/gpu/drm.c 25 'drm: x3'
	commit_tag x3
}

# The rest of topic after x3 was merged into it as c2.
kernel_topic_after_merge() {
	new_file drivers/net/phy.c 15
	commit_tag c3
	edit Documentation/process/pull-requests.rst 7 'docs: c4'
	edit drivers/net/x.c 4 'x: c4'
	commit_tag c4
}

# The topic from vN-rc2: c1, c2 merging x3, then what follows the merge.
kernel_topic_with_x() {
	git checkout -q -b topic vN-rc2
	edit drivers/net/eth.c 3 'eth: c1'
	commit_tag c1
	test_tick
	git merge -q --no-edit -m c2 x3
	git tag c2
	kernel_topic_after_merge
}

# (c) The messy one: x1..x3 from vN-rc1, c1.. from vN-rc2, x3 merged
# into c2, and the mainline has moved on to vN.  topic is c4.
kernel_messy() {
	kernel_mainline vN
	kernel_x_branch
	kernel_topic_with_x
}

# The messy history, but the mainline pulled x2 already (after vN-rc3),
# so linus and topic have two merge bases: x2 and vN-rc2.
kernel_partly_pulled() {
	kernel_mainline
	kernel_x_branch
	git checkout -q linus
	test_tick
	git merge -q --no-edit -m "Merge x2" x2
	mainline_to_vN
	kernel_topic_with_x
}

# A criss-cross: linus and topic each merged the other's tip of the
# time, then went on, so they have two merge bases, l1 and t1.
kernel_criss_cross() {
	kernel_mainline
	git checkout -q -b topic vN-rc1
	edit drivers/net/eth.c 3 'eth: t1'
	commit_tag t1
	git checkout -q linus
	edit kernel/sched/core.c 12 'sched: l1'
	commit_tag l1
	test_tick
	git merge -q --no-edit -m "Merge t1 into linus" t1
	git checkout -q topic
	test_tick
	git merge -q --no-edit -m "Merge l1 into topic" l1
	edit drivers/net/eth.c 20 'eth: t2'
	new_file drivers/net/t2.c 9
	commit_tag t2
	git checkout -q linus
	edit kernel/sched/core.c 22 'sched: l2'
	commit_tag l2
	git checkout -q topic
}

# The same change on both sides: linus cherry-picked c1 from topic,
# topic cherry-picked the vN-rc3 fix from linus.
kernel_cherry_picks() {
	kernel_mainline
	git checkout -q -b topic vN-rc2
	edit drivers/net/eth.c 3 'eth: c1'
	edit fs/ext4/inode.c 3 'ext4: c1'
	commit_tag c1
	edit drivers/net/eth.c 10 'eth: c2'
	commit_tag c2
	git checkout -q linus
	test_tick
	git cherry-pick -x c1 >/dev/null
	edit README 5 'README: l1'
	commit_tag l1
	git checkout -q topic
	test_tick
	git cherry-pick -x vN-rc3^ >/dev/null
	edit drivers/net/eth.c 15 'eth: c3'
	commit_tag c3
}
