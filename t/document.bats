#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The document's own story: on each of its histories (t/lib/histories.bash)
# the tool prints byte for byte the diffstat of the TEMP-branch procedure,
# not the messy one git diff or git request-pull would give.

load test_helper

setup() {
	setup_world
}

@test "the simple topic: the procedure's diffstat, which is the plain one from vN-rc2" {
	history_simple
	clean_diffstat_is linus topic <<-\EOF
	 Documentation/process/pull-requests.rst |  2 +-
	 drivers/net/eth.c                       |  2 +-
	 drivers/net/phy.c                       | 15 +++++++++++++++
	 3 files changed, 17 insertions(+), 2 deletions(-)
	 create mode 100644 drivers/net/phy.c
	EOF
	git diff -C --stat --summary vN-rc2 topic | expect_stdout
}

@test "the simple topic against vN-rc2, a fast-forward: the plain diff" {
	history_simple
	expect_procedure vN-rc2 topic
	run_tool vN-rc2 topic
	matches_procedure
	git diff -C --stat --summary vN-rc2 topic | expect_stdout
}

@test "the messy history: only the branch's work, not vN-rc1..vN-rc2" {
	history_messy
	clean_diffstat_is linus topic <<-\EOF
	 Documentation/process/pull-requests.rst |  2 +-
	 drivers/gpu/drm.c                       |  2 +-
	 drivers/net/eth.c                       |  6 +++---
	 drivers/net/phy.c                       | 15 +++++++++++++++
	 drivers/net/x.c                         | 18 ++++++++++++++++++
	 5 files changed, 38 insertions(+), 5 deletions(-)
	 create mode 100644 drivers/net/phy.c
	 create mode 100644 drivers/net/x.c
	EOF
	# the diffstat from the other starting point, vN-rc1, drags in the
	# mainline's vN-rc1..vN-rc2 work, as the document warns
	git diff -C --stat --summary vN-rc1 topic >"$BATS_TEST_TMPDIR/from-rc1"
	expect_differ "$BATS_TEST_TMPDIR/from-rc1" "$BATS_TEST_TMPDIR/actual"
}

@test "linus pulled part of the branch: two merge bases, the procedure's diffstat, not request-pull's" {
	history_partly_pulled
	[ "$(git merge-base --all linus topic | wc -l)" -eq 2 ]
	clean_diffstat_is linus topic <<-\EOF
	 Documentation/process/pull-requests.rst |  2 +-
	 drivers/gpu/drm.c                       |  2 +-
	 drivers/net/eth.c                       |  4 ++--
	 drivers/net/phy.c                       | 15 +++++++++++++++
	 drivers/net/x.c                         |  2 +-
	 5 files changed, 20 insertions(+), 5 deletions(-)
	 create mode 100644 drivers/net/phy.c
	EOF
	request_pull_diffstat linus topic >"$BATS_TEST_TMPDIR/request-pull"
	expect_differ "$BATS_TEST_TMPDIR/request-pull" "$BATS_TEST_TMPDIR/actual"
}

@test "a criss-cross: two merge bases, the procedure's diffstat without what linus merged" {
	history_criss_cross
	[ "$(git merge-base --all linus topic | wc -l)" -eq 2 ]
	clean_diffstat_is linus topic <<-\EOF
	 drivers/net/eth.c | 2 +-
	 drivers/net/t2.c  | 9 +++++++++
	 2 files changed, 10 insertions(+), 1 deletion(-)
	 create mode 100644 drivers/net/t2.c
	EOF
}

@test "cherry-picks on both sides count once, as in the procedure" {
	history_cherry_picks
	clean_diffstat_is linus topic <<-\EOF
	 drivers/net/eth.c | 4 ++--
	 1 file changed, 2 insertions(+), 2 deletions(-)
	EOF
}

@test "once linus has pulled topic: nothing to show, a note, exit 0" {
	history_messy
	git checkout -q linus
	test_merge topic
	run_tool linus topic
	expect_status 0
	expect_stdout </dev/null
	expect_stderr <<-\EOF
	note: 'topic' is already merged into 'linus'
	EOF
	expect_unchanged
}

@test "once linus has every change by cherry-pick: an empty diffstat and no note" {
	history_simple
	git checkout -q -b picked linus
	test_tick
	git cherry-pick vN-rc2..topic >/dev/null
	git checkout -q linus
	test_merge picked
	expect_procedure linus topic
	run_tool linus topic
	matches_procedure
	expect_stdout </dev/null
}

@test "from the topic branch with linus as its upstream, <head> and <upstream> can go" {
	history_messy
	git checkout -q topic
	git branch -q --set-upstream-to=linus
	expect_procedure linus topic
	run_tool
	matches_procedure
	run_tool linus
	matches_procedure
}
