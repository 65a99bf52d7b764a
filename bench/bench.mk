# The benchmarks; the top-level Makefile includes this after its all: target.
#   make bench                  time the default pairs (makes the repo first)
#   make bench BENCH_ARGS='--repo ~/linux v6.1 my-topic'
#   make bench-repo BENCH_REPO_ARGS='--files 20000 --force'
BENCH_ARGS =
BENCH_REPO_ARGS =

bench: $(PROGRAM)
	bench/run $(BENCH_ARGS)

bench-repo:
	bench/make-repo $(BENCH_REPO_ARGS)

.PHONY: bench bench-repo
