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

LIB_OBJS = lib/compare.o lib/merge.o lib/mtree.o lib/numstat.o lib/options.o \
	lib/pullreq.o lib/quarantine.o lib/quote.o lib/report.o lib/run.o \
	lib/signals.o lib/strbuf.o lib/strvec.o lib/usage.o
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

# The suite with the tool under valgrind: any error or leak is exit 126.
VALGRIND = valgrind -q --vgdb=no --error-exitcode=126 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect \
	--show-leak-kinds=definite,indirect
valgrind: $(PROGRAM)
	rm -rf t/valgrind && mkdir t/valgrind
	printf '#!/bin/sh\nexec %s "%s" "$$@"\n' '$(VALGRIND)' \
		'$(CURDIR)/$(PROGRAM)' >t/valgrind/$(PROGRAM)
	chmod +x t/valgrind/$(PROGRAM)
	CLEAN_DIFFSTAT_DIR='$(CURDIR)/t/valgrind' bats $(TEST_FLAGS) t

demo: $(PROGRAM)
	@sh t/demo.sh '$(CURDIR)'

clean:
	rm -rf $(PROGRAM) $(OBJS) GIT-CFLAGS t/valgrind

.PHONY: all install test valgrind demo clean FORCE
