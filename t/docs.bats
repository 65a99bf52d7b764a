#!/usr/bin/env bats
#
# The documentation stays in step with the binary: the man page is
# lint-clean, its header and footer carry the version --version prints,
# and every option `git-clean-diffstat -h` lists is described in both the
# man page and the README.
#
# It needs groff, the built ./git-clean-diffstat and the man page made
# from Documentation/git-clean-diffstat.1.in (`make`).

load test_helper

setup() {
	setup_world
	bin=$BIN/git-clean-diffstat
	manpage=$TOP/Documentation/git-clean-diffstat.1
	readme=$TOP/README
}

# Print the option names `-h` lists, one a line: "-h", "--version", ...
# The option column of a usage line is what comes before the first run of
# two blanks (git's parse-options layout); "-x, --long=<arg>" gives both
# "-x" and "--long".
usage_options() {
	local out
	out=$("$bin" -h 2>&1) || :	# -h exits 129
	printf '%s\n' "$out" |
	sed -n 's/^[[:space:]]\{1,\}\(-[^[:space:]].*\)$/\1/p' |
	sed 's/  .*//' |
	tr ',' '\n' |
	sed 's/^\([[:space:]]*\)--\[no-\]/\1--/' |
	sed -n 's/^[[:space:]]*\(--\{0,1\}[[:alnum:]][-[:alnum:]]*\).*/\1/p' |
	sort -u
}

# Does the text on stdin mention option $1 as a word of its own?
mentions() {
	grep -Eq -- "(^|[^-[:alnum:]])$1([^-[:alnum:]]|\$)"
}

# The man page's source with roff escapes reduced to plain text:
# "\-" to "-", font changes and zero-width characters dropped.
man_text() {
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' \
	    -e 's/\\&//g' -e 's/\\(aq/'"'"'/g' "$manpage"
}

@test "the man page is clean under groff -ww -z -man" {
	command -v groff >/dev/null || skip "groff is not installed"
	run groff -ww -z -man "$manpage"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "the man page's header and footer are its own: name, version, date" {
	local version date
	version=$(sed -n 's/^GIT_CLEAN_DIFFSTAT_VERSION = //p' "$TOP/GIT-VERSION-FILE")
	date=$(sed -n 's/^GIT_CLEAN_DIFFSTAT_DATE = //p' "$TOP/GIT-VERSION-FILE")
	[[ "$date" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]]
	run grep '^\.TH ' "$manpage"
	[ "$output" = ".TH GIT\\-CLEAN\\-DIFFSTAT 1 $date \"git\\-clean\\-diffstat $version\" \"git\\-clean\\-diffstat Manual\"" ]
	"$bin" --version >"$BATS_TEST_TMPDIR/version"
	[ "$(cat "$BATS_TEST_TMPDIR/version")" = "git-clean-diffstat version $version" ]
}

@test "the man page names itself in a NAME section man-db can index" {
	run sed -n '/^\.SH NAME$/{n;p;}' "$manpage"
	[ "$status" -eq 0 ]
	[[ "$output" == 'git\-clean\-diffstat \- '* ]]
}

@test "-h lists the tool's options and exits with 129" {
	[ -x "$bin" ] || { echo "no $bin: run make first" >&2; false; }
	run "$bin" -h
	[ "$status" -eq 129 ]
	run usage_options
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | mentions --allow-unrelated-histories
	printf '%s\n' "$output" | mentions --version
}

@test "every option -h lists is in the man page" {
	[ -x "$bin" ] || { echo "no $bin: run make first" >&2; false; }
	local opt missing='' text
	text=$(man_text)
	for opt in $(usage_options); do
		printf '%s\n' "$text" | mentions "$opt" || missing="$missing $opt"
	done
	[ -z "$missing" ] || { echo "not in the man page:$missing" >&2; false; }
}

@test "every option -h lists is in the README" {
	[ -x "$bin" ] || { echo "no $bin: run make first" >&2; false; }
	local opt missing=''
	for opt in $(usage_options); do
		mentions "$opt" <"$readme" || missing="$missing $opt"
	done
	[ -z "$missing" ] || { echo "not in the README:$missing" >&2; false; }
}
