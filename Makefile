# SPDX-License-Identifier: GPL-2.0-only
# git-clean-diffstat: make, make test, make install, make demo, make dist

prefix = /usr/local
bindir = $(prefix)/bin
mandir = $(prefix)/share/man
man1dir = $(mandir)/man1
bashcompdir = $(prefix)/share/bash-completion/completions
zshcompdir = $(prefix)/share/zsh/site-functions

# The language, for the compilers and the checkers alike: C11 and
# POSIX.1-2008.
C_STD = c11
C_FEATURES = -D_POSIX_C_SOURCE=200809L
BASIC_CFLAGS = -std=$(C_STD) $(C_FEATURES)

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
ALL_CFLAGS = $(BASIC_CFLAGS) $(CPPFLAGS) $(WARNINGS) $(CFLAGS)

LIB_OBJS = lib/compare.o lib/conflicts.o lib/diff.o lib/gitmodules.o \
	lib/merge.o lib/mtree.o lib/numstat.o lib/options.o lib/quarantine.o \
	lib/quote.o lib/request-pull.o lib/resolve.o lib/run.o lib/signals.o \
	lib/strbuf.o lib/strvec.o lib/usage.o lib/version.o \
	lib/fetch.o lib/fetchgate.o lib/mail.o lib/match.o lib/progress.o \
	lib/pullmsg.o lib/pullreq.o lib/relay.o lib/stat.o lib/str.o lib/verify.o \
	lib/judge.o lib/verdict-print.o
OBJS = git-clean-diffstat.o $(LIB_OBJS)
PROGRAM = git-clean-diffstat
MANPAGE = Documentation/git-clean-diffstat.1

all: $(PROGRAM) $(MANPAGE)

# The version, from GIT-VERSION-GEN (git describe, or a tarball's version
# file): GIT_CLEAN_DIFFSTAT_VERSION and GIT_CLEAN_DIFFSTAT_DATE.  The file
# changes only when they do, and only what shows them is rebuilt.
GIT-VERSION-FILE: FORCE
	@./GIT-VERSION-GEN . GIT-VERSION-FILE.in $@
-include GIT-VERSION-FILE
VERSION = $(GIT_CLEAN_DIFFSTAT_VERSION)
VERSION_CFLAGS = -DVERSION='"$(VERSION)"'

include bench/bench.mk

$(PROGRAM): $(OBJS)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(OBJS)

# Test drivers of single modules, like git's t/helper/test-tool.
TEST_HELPERS = t/helper/test-pullreq t/helper/test-repo-state
t/helper/test-pullreq: t/helper/test-pullreq.o $(LIB_OBJS)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ t/helper/test-pullreq.o $(LIB_OBJS)
t/helper/test-repo-state: t/helper/test-repo-state.o
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ t/helper/test-repo-state.o

%.o: %.c $(wildcard lib/*.h) GIT-CFLAGS
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

lib/version.o: lib/version.c lib/version.h GIT-CFLAGS GIT-VERSION-FILE
	$(CC) $(ALL_CFLAGS) $(VERSION_CFLAGS) -c -o $@ $<

# The man page with its header and footer filled in: name, version, date.
$(MANPAGE): $(MANPAGE).in GIT-VERSION-FILE
	./GIT-VERSION-GEN . $(MANPAGE).in $@+ && mv $@+ $@

# Rebuild everything when the flags change (DEVELOPER=1, SANITIZE=...).
GIT-CFLAGS: FORCE
	@echo '$(CC) $(ALL_CFLAGS) $(LDFLAGS)' | cmp -s - $@ || \
		echo '$(CC) $(ALL_CFLAGS) $(LDFLAGS)' >$@

install: $(PROGRAM) install-man
	install -d '$(DESTDIR)$(bindir)' \
		'$(DESTDIR)$(bashcompdir)' '$(DESTDIR)$(zshcompdir)'
	install -m 755 $(PROGRAM) '$(DESTDIR)$(bindir)'
	install -m 644 contrib/completion/git-clean-diffstat.bash \
		'$(DESTDIR)$(bashcompdir)/git-clean-diffstat'
	install -m 644 contrib/completion/_git-clean-diffstat \
		'$(DESTDIR)$(zshcompdir)/_git-clean-diffstat'

# The manual page alone, building nothing (a test installs it so while
# other tests run the binary).
install-man: $(MANPAGE)
	install -d '$(DESTDIR)$(man1dir)'
	install -m 644 $(MANPAGE) '$(DESTDIR)$(man1dir)'

# The suite, its test files side by side (t/run-suite: JOBS at once,
# default twice the cores; JOBS=1, one after the other; GNU parallel not
# needed), with the git on PATH; progress as it runs, then one line of
# counts and the time it took.  TESTS: the test files (default: all).
TEST_FLAGS =
TESTS = t
# It builds first with a compiler per core, unless make was given -j:
# on a fresh clone of a 2-core machine, 3.7 s rather than 6.5 s.
BUILD_JOBS = $(shell nproc 2>/dev/null || echo 1)
test:
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(BUILD_JOBS)) \
		test-prereqs
	CLEAN_DIFFSTAT_DIR='$(CURDIR)' t/run-suite $(TEST_FLAGS) $(TESTS)
test-prereqs: all $(TEST_HELPERS)
	@:

# The suite once per git: each of GIT_VERSIONS built once from
# $(GIT_TARBALLS)/git-<version>.tar.gz into ~/.cache/git-clean-diffstat
# (GIT_CACHE) and put first on PATH, "system" the git on PATH as it is;
# then a table of the results (t/matrix).  GIT_TARBALLS defaults to
# shared/git beside the source tree.
GIT_VERSIONS = 2.38.5 2.43.7 2.47.3 2.50.1 2.55.0 system
GIT_TARBALLS =
test-matrix: all $(TEST_HELPERS)
	CLEAN_DIFFSTAT_DIR='$(CURDIR)' GIT_TARBALLS='$(GIT_TARBALLS)' \
		t/matrix $(GIT_VERSIONS)

# git's own tests of git request-pull (t5150-request-pull.sh of each
# release's tarball) with "git clean-diffstat --request-pull" in its
# place, on each git of GIT_VERSIONS but the system's (t/git-t5150): a
# drop-in passes them.
test-t5150: $(PROGRAM)
	CLEAN_DIFFSTAT_DIR='$(CURDIR)' GIT_TARBALLS='$(GIT_TARBALLS)' \
		t/git-t5150 $(filter-out system,$(GIT_VERSIONS))

# The patch series for git's own git request-pull (contrib/git) on a
# source of git (GIT_SOURCE, a tarball or a checkout; default git 2.55.0
# of GIT_TARBALLS): applied, built with DEVELOPER=1, t5150 run, and the
# series' tests seen failing without its last patch, then git mailinfo's
# fix (contrib/git/mailinfo) on top, t5100 run with and without it
# (contrib/git/test-series).
GIT_SOURCE =
test-git-series:
	GIT_TARBALLS='$(GIT_TARBALLS)' contrib/git/test-series $(GIT_SOURCE)

# The random-history differential test on seeds 1..SEEDS (by default the
# fixed list make test runs), for long campaigns.
SEEDS =
test-random: $(PROGRAM) $(TEST_HELPERS)
	CLEAN_DIFFSTAT_DIR='$(CURDIR)' SEEDS='$(SEEDS)' t/run-suite $(TEST_FLAGS) t/random.bats

# The files that run the tool in its modes, every way it can fail and
# --verify's parser and fetch, with the tool and its test drivers built
# with ASan and UBSan (a first error stops the run: exit 1 and the
# report on stderr).  The build flags change, so the next make rebuilds
# without them.  SANITIZE_TESTS: the test files to run so.
SANITIZE_TESTS = t/arguments.bats t/conflicts.bats t/document.bats \
	t/errors.bats t/interrupted.bats t/modes.bats t/pullmsg.bats \
	t/untouched.bats t/verify.bats
test-sanitize:
	$(MAKE) SANITIZE=address,undefined test TESTS='$(SANITIZE_TESTS)'

# The suite with the tool under valgrind (t/valgrind/git-clean-diffstat):
# any error or leak is exit 126.
# VALGRIND_TESTS: the test files to run so (default: all of t/).
VALGRIND_TESTS = t
valgrind: all $(TEST_HELPERS)
	CLEAN_DIFFSTAT_DIR='$(CURDIR)/t/valgrind' t/run-suite $(TEST_FLAGS) $(VALGRIND_TESTS)

# Static analysis: cppcheck, clang-tidy (.clang-tidy) and shellcheck,
# all of which must be silent.
C_SOURCES = git-clean-diffstat.c $(LIB_OBJS:.o=.c) t/fuzz/mtree-fuzzer.c \
	t/fuzz/numstat-fuzzer.c
C_SOURCES += t/helper/test-pullreq.c t/helper/test-repo-state.c \
	t/fuzz/pullreq-fuzzer.c
SHELL_SCRIPTS = .ci/run GIT-VERSION-GEN contrib/make-deb contrib/make-rpm t/demo.sh \
	t/fuzz/make-corpus t/fuzz/make-pullreq-corpus t/lib/random-history \
	t/build-git t/run-suite t/matrix t/git-t5150 t/procedure-check \
	t/valgrind/git-clean-diffstat \
	bench/run bench/make-repo bench/merge-window \
	contrib/git/test-series contrib/git/measure-merge-bases \
	contrib/ci/clean-diffstat-pr.sh contrib/hooks/sendemail-validate
BASH_SOURCES = t/*.bats t/*.bash t/lib/*.bash contrib/completion/git-clean-diffstat.bash
lint:
	# varFuncNullUB: strvec_pushl() ends its list with NULL, as git's;
	# POSIX makes NULL a null pointer constant of type void *.
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability \
		--suppress=varFuncNullUB \
		--std=$(C_STD) $(C_FEATURES) $(VERSION_CFLAGS) $(C_SOURCES)
	clang-tidy --quiet $(C_SOURCES) -- $(BASIC_CFLAGS) $(VERSION_CFLAGS)
	shellcheck $(SHELL_SCRIPTS)
	shellcheck -s bash $(BASH_SOURCES)

# Fuzzing the parsers of git's output with libFuzzer (clang).  fuzz-run
# runs each for FUZZ_SECONDS on its corpus; a crash lands in the corpus
# as crash-*, to be kept there as a regression input.  fuzz-regress runs
# every kept input once.
FUZZ_CC = clang
FUZZ_CFLAGS = -g -O1 $(BASIC_CFLAGS) \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SECONDS = 60
FUZZERS = t/fuzz/mtree-fuzzer t/fuzz/numstat-fuzzer
FUZZERS += t/fuzz/pullreq-fuzzer

fuzz: $(FUZZERS)

t/fuzz/mtree-fuzzer: t/fuzz/fuzz.h t/fuzz/mtree-fuzzer.c lib/mtree.c lib/mtree.h \
		lib/str.c lib/str.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ t/fuzz/mtree-fuzzer.c lib/mtree.c lib/str.c

t/fuzz/numstat-fuzzer: t/fuzz/fuzz.h t/fuzz/numstat-fuzzer.c lib/numstat.c lib/numstat.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ t/fuzz/numstat-fuzzer.c lib/numstat.c

PULLREQ_SOURCES = lib/pullreq.c lib/stat.c lib/str.c lib/fetchgate.c lib/quote.c \
	lib/strbuf.c lib/usage.c lib/match.c
t/fuzz/pullreq-fuzzer: t/fuzz/fuzz.h t/fuzz/pullreq-fuzzer.c $(PULLREQ_SOURCES) \
		lib/pullreq.h lib/stat.h lib/str.h lib/fetchgate.h lib/quote.h \
		lib/match.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ t/fuzz/pullreq-fuzzer.c $(PULLREQ_SOURCES)

# Each fuzzer is a target of its own, so that make -j2 fuzz-run runs two
# at once (each one process: FUZZ_SECONDS of a core each, in less time).
fuzz-run: fuzz-run-mtree fuzz-run-numstat fuzz-run-pullreq

fuzz-run-mtree: t/fuzz/mtree-fuzzer
	mkdir -p t/fuzz/work/mtree
	t/fuzz/mtree-fuzzer -max_total_time=$(FUZZ_SECONDS) \
		-dict=t/fuzz/mtree.dict -artifact_prefix=t/fuzz/corpus/ \
		t/fuzz/work/mtree t/fuzz/corpus

fuzz-run-numstat: t/fuzz/numstat-fuzzer
	mkdir -p t/fuzz/work/numstat
	t/fuzz/numstat-fuzzer -max_total_time=$(FUZZ_SECONDS) \
		-artifact_prefix=t/fuzz/numstat-corpus/ \
		t/fuzz/work/numstat t/fuzz/numstat-corpus

fuzz-run-pullreq: t/fuzz/pullreq-fuzzer
	mkdir -p t/fuzz/work/pullreq
	t/fuzz/pullreq-fuzzer -max_total_time=$(FUZZ_SECONDS) \
		-dict=t/fuzz/pullreq.dict -artifact_prefix=t/fuzz/pullreq-corpus/ \
		t/fuzz/work/pullreq t/fuzz/pullreq-corpus

fuzz-regress: fuzz
	t/fuzz/mtree-fuzzer -runs=0 t/fuzz/corpus
	t/fuzz/numstat-fuzzer -runs=0 t/fuzz/numstat-corpus
	t/fuzz/pullreq-fuzzer -runs=0 t/fuzz/pullreq-corpus

# A release tarball of HEAD, git-clean-diffstat-<version>.tar.gz, with
# the version file that GIT-VERSION-GEN reads where git describe cannot
# run.  distcheck proves it: unpacked in a temporary directory, outside
# any checkout, it builds, installs and passes make test.  The directory
# is world-readable, as a source tree is: run as root, t/untouched.bats runs
# the tool as nobody.
DIST = git-clean-diffstat-$(VERSION)
dist: GIT-VERSION-FILE
	@case '$(VERSION)' in *.dirty) \
		echo >&2 'make dist: tracked files have changes; commit them first'; \
		exit 1 ;; \
	esac
	rm -rf .dist-tmp && mkdir .dist-tmp
	printf '%s\n' '$(VERSION)' '$(GIT_CLEAN_DIFFSTAT_DATE)' >.dist-tmp/version
	git archive --format=tar.gz --prefix=$(DIST)/ \
		--add-file=.dist-tmp/version -o $(DIST).tar.gz HEAD
	rm -rf .dist-tmp

DISTCHECK_INSTALLED = bin/git-clean-diffstat \
	share/man/man1/git-clean-diffstat.1 \
	share/bash-completion/completions/git-clean-diffstat \
	share/zsh/site-functions/_git-clean-diffstat
distcheck: dist
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	chmod 755 "$$tmp" && \
	tar -C "$$tmp" -xzf $(DIST).tar.gz && \
	cd "$$tmp/$(DIST)" && \
	if git rev-parse --git-dir >/dev/null 2>&1; then \
		echo >&2 "distcheck: $$tmp is inside a git checkout"; exit 1; \
	fi && \
	$(MAKE) -s && \
	$(MAKE) -s install DESTDIR="$$tmp/inst" prefix=/usr && \
	for f in $(DISTCHECK_INSTALLED); do \
		test -f "$$tmp/inst/usr/$$f" || { echo >&2 "distcheck: no /usr/$$f"; exit 1; }; \
	done && \
	test "$$("$$tmp/inst/usr/bin/git-clean-diffstat" --version)" = \
		'git-clean-diffstat version $(VERSION)' && \
	grep -q '^\.TH .* "$(VERSION)" ' \
		"$$tmp/inst/usr/share/man/man1/git-clean-diffstat.1" && \
	$(MAKE) test TEST_FLAGS='$(TEST_FLAGS)' && \
	echo "distcheck: $(DIST).tar.gz builds, installs and passes make test"

# The Debian package, built from the tarball with contrib/debian
# (contrib/make-deb): packages/*.deb, .buildinfo and .changes, the
# packager DEBFULLNAME <DEBEMAIL>.
deb: dist
	rm -f packages/*.deb packages/*.buildinfo packages/*.changes
	contrib/make-deb $(DIST).tar.gz packages

# The RPM, built from the tarball with contrib/rpm/git-clean-diffstat.spec
# (contrib/make-rpm): packages/*.rpm, the packager rpmbuild's %packager.
# RPMBUILD_FLAGS='--without check' builds it without make test.  Where
# rpm is not the system's package manager (Debian), make-rpm adds
# --nodeps itself.
RPMBUILD_FLAGS =
rpm: dist
	rm -f packages/*.rpm
	contrib/make-rpm $(DIST).tar.gz packages $(RPMBUILD_FLAGS)

demo: $(PROGRAM)
	@sh t/demo.sh '$(CURDIR)'

clean:
	rm -rf $(PROGRAM) $(OBJS) GIT-CFLAGS GIT-VERSION-FILE $(MANPAGE) \
		$(FUZZERS) t/fuzz/work \
		git-clean-diffstat-*.tar.gz packages .dist-tmp
	rm -f $(TEST_HELPERS) t/helper/*.o

.PHONY: all install install-man dist distcheck deb rpm test test-prereqs test-sanitize test-matrix test-t5150 test-git-series test-random lint valgrind fuzz fuzz-run fuzz-run-mtree fuzz-run-numstat fuzz-run-pullreq fuzz-regress demo clean FORCE
