#!/usr/bin/env bats
# The document's own story, on histories whose merges have real work to
# do (t/lib/kernel.bash): the diffstat a naive git diff gives, and the
# clean one, which the tool prints byte for byte as the procedure does.

load test_helper
load lib/tool
load lib/kernel

setup() {
	setup_world
}

@test "the simple topic: the procedure's diffstat, which is the plain one" {
	kernel_simple
	expect_procedure linus topic
	run_tool linus topic
	matches_procedure
	expect_stdout <<-\EOF
	 Documentation/process/pull-requests.rst |  2 +-
	 drivers/net/eth.c                       |  2 +-
	 drivers/net/phy.c                       | 15 +++++++++++++++
	 3 files changed, 17 insertions(+), 2 deletions(-)
	 create mode 100644 drivers/net/phy.c
	EOF
}

@test "the simple topic against vN-rc2, a fast-forward: the plain diff" {
	kernel_simple
	git diff -C --stat --summary vN-rc2 topic >"$BATS_TEST_TMPDIR/expect"
	run_tool vN-rc2 topic
	matches_procedure
}

@test "the messy history: only the branch's work, not vN-rc1..vN-rc2" {
	kernel_messy
	expect_procedure linus topic
	run_tool linus topic
	matches_procedure
	expect_stdout <<-\EOF
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
	run ! cmp -s "$BATS_TEST_TMPDIR/from-rc1" "$BATS_TEST_TMPDIR/actual"
}

@test "upstream pulled part of the branch: two merge bases, the procedure's diffstat" {
	kernel_partly_pulled
	[ "$(git merge-base --all linus topic | wc -l)" -eq 2 ]
	expect_procedure linus topic
	run_tool linus topic
	matches_procedure
	# what git request-pull would print starts from one merge base
	git diff -M --stat --summary "$(git merge-base linus topic)" topic \
		>"$BATS_TEST_TMPDIR/request-pull"
	run ! cmp -s "$BATS_TEST_TMPDIR/request-pull" "$BATS_TEST_TMPDIR/actual"
}

@test "a criss-cross: two merge bases, the procedure's diffstat without what linus merged" {
	kernel_criss_cross
	[ "$(git merge-base --all linus topic | wc -l)" -eq 2 ]
	expect_procedure linus topic
	run_tool linus topic
	matches_procedure
	expect_stdout <<-\EOF
	 drivers/net/eth.c | 2 +-
	 drivers/net/t2.c  | 9 +++++++++
	 2 files changed, 10 insertions(+), 1 deletion(-)
	 create mode 100644 drivers/net/t2.c
	EOF
}

@test "cherry-picks on both sides count once, as in the procedure" {
	kernel_cherry_picks
	expect_procedure linus topic
	run_tool linus topic
	matches_procedure
	expect_stdout <<-\EOF
	 drivers/net/eth.c | 4 ++--
	 1 file changed, 2 insertions(+), 2 deletions(-)
	EOF
}

@test "once linus has pulled topic: nothing to show, a note, exit 0" {
	kernel_messy
	git checkout -q linus
	test_tick
	git merge -q --no-edit topic
	run_tool linus topic
	expect_status 0
	expect_stdout </dev/null
	expect_stderr <<-\EOF
	note: 'topic' is already merged into 'linus'
	EOF
}

@test "from the topic branch with linus as its upstream, no argument is needed" {
	kernel_messy
	git checkout -q topic
	git branch -q --set-upstream-to=linus
	expect_procedure linus topic
	run_tool
	matches_procedure
}
