#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# The documentation stays in step with the binary: the man page is
# lint-clean, its header and footer carry the version --version prints,
# and every option `git clean-diffstat -h` lists is described in both the
# man page and the README.
#
# It needs groff and the man page made from
# Documentation/git-clean-diffstat.1.in (`make`).

load test_helper

setup() {
	setup_world
	manpage=$TOP/Documentation/git-clean-diffstat.1
	readme=$TOP/README
}

# Does the text on stdin mention option $1 as a word of its own?
mentions() {
	grep -Eq -- "(^|[^-[:alnum:]])$1([^-[:alnum:]]|\$)"
}

# every_option_in <what>: every option -h lists is mentioned in the text
# on stdin, or fail naming those that are not.
every_option_in() {
	local opt opts missing='' text
	text=$(cat)
	opts=$(tool_options)
	[ -n "$opts" ] || { echo "-h lists no option" >&2; return 1; }
	for opt in $opts; do
		printf '%s\n' "$text" | mentions "$opt" || missing="$missing $opt"
	done
	[ -z "$missing" ] || { echo "not in $1:$missing" >&2; return 1; }
}

@test "the man page is clean under groff -ww -z -man" {
	command -v groff >/dev/null || skip "groff is not installed"
	capture groff -ww -z -man "$manpage"
	expect_status 0
	expect_stdout </dev/null
	expect_no_stderr
}

@test "the man page's header and footer are its own: name, version, date" {
	version=$(sed -n 's/^GIT_CLEAN_DIFFSTAT_VERSION = //p' "$TOP/GIT-VERSION-FILE")
	date=$(sed -n 's/^GIT_CLEAN_DIFFSTAT_DATE = //p' "$TOP/GIT-VERSION-FILE")
	[[ "$date" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]]
	grep '^\.TH ' "$manpage" >"$BATS_TEST_TMPDIR/th"
	test_cmp - "$BATS_TEST_TMPDIR/th" <<-EOF
	.TH GIT\-CLEAN\-DIFFSTAT 1 $date "$version" "git\-clean\-diffstat Manual"
	EOF
	run_tool --version
	expect_status 0
	expect_stdout <<<"git-clean-diffstat version $version"
}

@test "the man page's footer keeps the version apart from the date, even a long one between releases" {
	command -v groff >/dev/null || skip "groff is not installed"
	date=$(sed -n 's/^GIT_CLEAN_DIFFSTAT_DATE = //p' "$TOP/GIT-VERSION-FILE")
	for version in 1.1 1.10.12345.g0123456789.dirty; do
		sed "s/^\\.TH \\(.*\\) \"[^\"]*\" \\(\"[^\"]*\"\\)\$/.TH \\1 \"$version\" \\2/" \
			"$manpage" >"$BATS_TEST_TMPDIR/page.1"
		groff -Tascii -man -rLL=80n -P-cbou "$BATS_TEST_TMPDIR/page.1" |
			sed -n '$p' >"$BATS_TEST_TMPDIR/footer"
		grep -Eq "^$version {2,}$date {2,}GIT-CLEAN-DIFFSTAT\(1\)\$" \
			"$BATS_TEST_TMPDIR/footer" || {
			cat "$BATS_TEST_TMPDIR/footer" >&2
			return 1
		}
	done
}

@test "the man page names itself in a NAME section man-db can index" {
	sed -n '/^\.SH NAME$/{n;p;}' "$manpage" >"$BATS_TEST_TMPDIR/name"
	grep -q '^git\\-clean\\-diffstat \\- ' "$BATS_TEST_TMPDIR/name"
}

@test "-h lists the tool's options and exits with 129" {
	run_tool -h
	expect_status 129
	tool_options >"$BATS_TEST_TMPDIR/options"
	mentions --allow-unrelated-histories <"$BATS_TEST_TMPDIR/options"
	mentions --version <"$BATS_TEST_TMPDIR/options"
}

@test "every option -h lists is in the man page" {
	# the man page's source with roff escapes reduced to plain text:
	# "\-" to "-", font changes and zero-width characters dropped
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' \
	    -e 's/\\&//g' -e 's/\\(aq/'"'"'/g' "$manpage" |
		every_option_in "the man page"
}

@test "every option -h lists is in the README" {
	every_option_in "the README" <"$readme"
}
