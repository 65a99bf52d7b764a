# SPDX-License-Identifier: GPL-2.0-only
# The benchmarks; the top-level Makefile includes this after its all: target.
#   make bench                  time the default pairs (makes the repo first)
#   make bench BENCH_ARGS='--repo ~/linux v6.1 my-topic'
#   make bench-repo BENCH_REPO_ARGS='--files 20000 --force'
#   make bench-verify           --verify against a receiver by hand
#   make bench-verify BENCH_VERIFY_ARGS='--runs 40 --transport git'
#   make bench-merge-window     an mbox of requests, --jobs=1 against --jobs=8
#   make bench-realpr-cpu       --verify's CPU over by hand, on real mail
#   make bench-stream           --verify of an mbox of N requests: memory, time
#   make bench-stream BENCH_STREAM_ARGS='100 1000 3000'
BENCH_ARGS =
BENCH_REPO_ARGS =
BENCH_VERIFY_ARGS =
BENCH_MERGE_WINDOW_ARGS =
BENCH_REALPR_ARGS =
BENCH_STREAM_ARGS =

bench: $(PROGRAM)
	bench/run $(BENCH_ARGS)

bench-repo:
	bench/make-repo $(BENCH_REPO_ARGS)

bench-verify: $(PROGRAM)
	@[ -n "$$BENCH_REPO" ] || [ -e "$${TMPDIR:-/tmp}/git-clean-diffstat-bench/repo.git" ] || \
		bench/make-repo
	perl bench/verify.perl $(BENCH_VERIFY_ARGS)

bench-merge-window: $(PROGRAM)
	@[ -n "$$BENCH_REPO" ] || [ -e "$${TMPDIR:-/tmp}/git-clean-diffstat-bench/repo.git" ] || \
		bench/make-repo
	bench/merge-window $(BENCH_MERGE_WINDOW_ARGS)

# the CPU of --verify over by hand on the shared real mails (UBOOT_REPO)
bench-realpr-cpu: $(PROGRAM)
	perl bench/realpr-cpu.perl $(BENCH_REALPR_ARGS)

# an mbox of 100, 1,000 and 10,000 generated requests, --no-fetch
bench-stream: $(PROGRAM)
	perl bench/stream.perl $(BENCH_STREAM_ARGS)

.PHONY: bench bench-repo bench-verify bench-merge-window bench-realpr-cpu \
	bench-stream
