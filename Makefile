# git-clean-diffstat: make, make test, make install, make demo
VERSION = 1.0

prefix = /usr/local
bindir = $(prefix)/bin
mandir = $(prefix)/share/man
man1dir = $(mandir)/man1
bashcompdir = $(prefix)/share/bash-completion/completions
zshcompdir = $(prefix)/share/zsh/site-functions

CC = cc
CFLAGS = -O2 -g
WARNINGS = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ifdef DEVELOPER
WARNINGS += -Werror -Wpedantic -Wformat=2 -Wcast-align -Wwrite-strings \
	-Wold-style-definition -Wvla -Wdeclaration-after-statement \
	-Wno-format-nonliteral
endif
ifdef SANITIZE
CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SANITIZE)
endif
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARNINGS) $(CFLAGS) \
	-DVERSION='"$(VERSION)"'

LIB_OBJS = lib/compare.o lib/conflicts.o lib/diff.o lib/merge.o lib/mtree.o \
	lib/numstat.o lib/options.o lib/quarantine.o lib/quote.o \
	lib/request-pull.o lib/resolve.o lib/run.o lib/signals.o lib/strbuf.o \
	lib/strvec.o lib/usage.o
OBJS = git-clean-diffstat.o $(LIB_OBJS)
PROGRAM = git-clean-diffstat
MANPAGE = Documentation/git-clean-diffstat.1

all: $(PROGRAM)

include bench/bench.mk

$(PROGRAM): $(OBJS)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(OBJS)

%.o: %.c $(wildcard lib/*.h) GIT-CFLAGS
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Rebuild everything when the flags change (DEVELOPER=1, SANITIZE=...).
GIT-CFLAGS: FORCE
	@echo '$(CC) $(ALL_CFLAGS) $(LDFLAGS)' | cmp -s - $@ || \
		echo '$(CC) $(ALL_CFLAGS) $(LDFLAGS)' >$@

install: $(PROGRAM)
	install -d '$(DESTDIR)$(bindir)' '$(DESTDIR)$(man1dir)' \
		'$(DESTDIR)$(bashcompdir)' '$(DESTDIR)$(zshcompdir)'
	install -m 755 $(PROGRAM) '$(DESTDIR)$(bindir)'
	install -m 644 $(MANPAGE) '$(DESTDIR)$(man1dir)'
	install -m 644 lib/completion/git-clean-diffstat.bash \
		'$(DESTDIR)$(bashcompdir)/git-clean-diffstat'
	install -m 644 lib/completion/_git-clean-diffstat \
		'$(DESTDIR)$(zshcompdir)/_git-clean-diffstat'

TEST_FLAGS =
test: $(PROGRAM)
	CLEAN_DIFFSTAT_DIR='$(CURDIR)' bats $(TEST_FLAGS) t

# The random-history differential test on seeds 1..SEEDS (by default the
# fixed list make test runs), for long campaigns.
SEEDS =
test-random: $(PROGRAM)
	CLEAN_DIFFSTAT_DIR='$(CURDIR)' SEEDS='$(SEEDS)' bats $(TEST_FLAGS) t/random.bats

# The suite with the tool under valgrind (t/valgrind/git-clean-diffstat):
# any error or leak is exit 126.
valgrind: $(PROGRAM)
	CLEAN_DIFFSTAT_DIR='$(CURDIR)/t/valgrind' bats $(TEST_FLAGS) t

# Static analysis: cppcheck, clang-tidy (.clang-tidy) and shellcheck,
# all of which must be silent.
C_SOURCES = git-clean-diffstat.c $(LIB_OBJS:.o=.c) t/fuzz/mtree-fuzzer.c \
	t/fuzz/numstat-fuzzer.c
SHELL_SCRIPTS = .ci/run t/demo.sh t/fuzz/make-corpus t/lib/random-history \
	t/valgrind/git-clean-diffstat bench/run bench/make-repo
BASH_SOURCES = t/*.bats t/*.bash t/lib/*.bash lib/completion/git-clean-diffstat.bash
lint:
	# varFuncNullUB: strvec_pushl() ends its list with NULL, as git's;
	# POSIX makes NULL a null pointer constant of type void *.
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability \
		--suppress=varFuncNullUB \
		--std=c11 -D_POSIX_C_SOURCE=200809L $(C_SOURCES)
	clang-tidy --quiet $(C_SOURCES) -- -std=c11 -D_POSIX_C_SOURCE=200809L
	shellcheck $(SHELL_SCRIPTS)
	shellcheck -s bash $(BASH_SOURCES)

# Fuzzing the parsers of git's output with libFuzzer (clang).  fuzz-run
# runs each for FUZZ_SECONDS on its corpus; a crash lands in the corpus
# as crash-*, to be kept there as a regression input.  fuzz-regress runs
# every kept input once.
FUZZ_CC = clang
FUZZ_CFLAGS = -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SECONDS = 60
FUZZERS = t/fuzz/mtree-fuzzer t/fuzz/numstat-fuzzer

fuzz: $(FUZZERS)

t/fuzz/mtree-fuzzer: t/fuzz/mtree-fuzzer.c lib/mtree.c lib/mtree.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ t/fuzz/mtree-fuzzer.c lib/mtree.c

t/fuzz/numstat-fuzzer: t/fuzz/numstat-fuzzer.c lib/numstat.c lib/numstat.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ t/fuzz/numstat-fuzzer.c lib/numstat.c

fuzz-run: fuzz
	mkdir -p t/fuzz/work/mtree t/fuzz/work/numstat
	t/fuzz/mtree-fuzzer -max_total_time=$(FUZZ_SECONDS) \
		-dict=t/fuzz/mtree.dict -artifact_prefix=t/fuzz/corpus/ \
		t/fuzz/work/mtree t/fuzz/corpus
	t/fuzz/numstat-fuzzer -max_total_time=$(FUZZ_SECONDS) \
		-artifact_prefix=t/fuzz/numstat-corpus/ \
		t/fuzz/work/numstat t/fuzz/numstat-corpus

fuzz-regress: fuzz
	t/fuzz/mtree-fuzzer -runs=0 t/fuzz/corpus
	t/fuzz/numstat-fuzzer -runs=0 t/fuzz/numstat-corpus

demo: $(PROGRAM)
	@sh t/demo.sh '$(CURDIR)'

clean:
	rm -rf $(PROGRAM) $(OBJS) GIT-CFLAGS $(FUZZERS) t/fuzz/work

.PHONY: all install test test-random lint valgrind fuzz fuzz-run fuzz-regress demo clean FORCE
