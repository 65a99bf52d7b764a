#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# GIT-VERSION-GEN, the one source of the version: git describe in a
# checkout, the version file in a release tarball, DEF_VER otherwise; and
# make dist, whose tarball carries the version in its name, its top
# directory and its version file.
#
# Each test runs the script in a source tree of its own: a repository
# holding a copy of GIT-VERSION-GEN, or a plain directory.

load test_helper

setup() {
	setup_world
	def_ver=$(sed -n 's/^DEF_VER=//p' "$TOP/GIT-VERSION-GEN")
	[ -n "$def_ver" ]
	printf 'version @VERSION@ of @DATE@\n' >"$BATS_TEST_TMPDIR/template"
}

# new_source <dir>: a repository in <dir> with GIT-VERSION-GEN committed
new_source() {
	git init -q "$1"
	cp "$TOP/GIT-VERSION-GEN" "$1/"
	git -C "$1" add GIT-VERSION-GEN
	git -C "$1" commit -q -m "add GIT-VERSION-GEN"
}

# version_of <dir>: GIT-VERSION-GEN of the source tree <dir>, run as
# capture runs a command: what it says in $BATS_TEST_TMPDIR/actual.
version_of() {
	capture "$1/GIT-VERSION-GEN" "$1" "$BATS_TEST_TMPDIR/template" &&
	expect_status 0 &&
	expect_no_stderr
}

# version_is <dir> <line>: GIT-VERSION-GEN says <line> of <dir>.
version_is() {
	version_of "$1" &&
	expect_stdout <<<"$2"
}

@test "a checkout without a release tag: DEF_VER, the commit count and id" {
	new_source src
	(cd src && test_commit second file)
	git -C src commit -q --allow-empty -m third
	id=$(git -C src rev-parse --short HEAD)
	version_is src "version $def_ver.3.g$id of 2005-04-07"
}

@test "on a release tag v1.7: 1.7" {
	new_source src
	git -C src tag -a -m "git-clean-diffstat 1.7" v1.7
	version_is src "version 1.7 of 2005-04-07"
}

@test "two commits after v1.7: 1.7.2.g<id>, as git names its own builds" {
	new_source src
	git -C src tag -a -m "git-clean-diffstat 1.7" v1.7
	(cd src && test_commit one file)
	(cd src && test_commit two file)
	id=$(git -C src rev-parse --short HEAD)
	version_is src "version 1.7.2.g$id of 2005-04-07"
}

@test "a tag that is not a release (not v<digit>...) is not a version" {
	new_source src
	git -C src tag -a -m "a test" try-this
	id=$(git -C src rev-parse --short HEAD)
	version_is src "version $def_ver.1.g$id of 2005-04-07"
}

@test "changes to tracked files add .dirty" {
	new_source src
	git -C src tag -a -m "git-clean-diffstat 1.7" v1.7
	echo "# changed" >>src/GIT-VERSION-GEN
	version_is src "version 1.7.dirty of 2005-04-07"
}

@test "the date is that of the commit, not of today" {
	new_source src
	test_tick
	GIT_COMMITTER_DATE='2031-02-03 04:05:06 +0000' git -C src commit -q --allow-empty -m later
	version_of src
	grep -q ' of 2031-02-03$' "$BATS_TEST_TMPDIR/actual"
}

@test "a release tarball's version file wins over git describe" {
	new_source src
	git -C src tag -a -m "git-clean-diffstat 1.7" v1.7
	printf '2.0\n2030-01-02\n' >src/version
	version_is src "version 2.0 of 2030-01-02"
}

@test "a tree unpacked inside another repository does not take its version" {
	new_source outer
	git -C outer tag -a -m "git-clean-diffstat 1.7" v1.7
	mkdir outer/unpacked
	cp "$TOP/GIT-VERSION-GEN" outer/unpacked/
	version_of outer/unpacked
	grep -q "^version $def_ver of " "$BATS_TEST_TMPDIR/actual"
}

@test "the output file is rewritten only when the version changes" {
	new_source src
	src/GIT-VERSION-GEN src "$BATS_TEST_TMPDIR/template" out
	before=$(ls -i out)
	src/GIT-VERSION-GEN src "$BATS_TEST_TMPDIR/template" out
	[ "$(ls -i out)" = "$before" ]
	git -C src tag -a -m "git-clean-diffstat 1.7" v1.7
	src/GIT-VERSION-GEN src "$BATS_TEST_TMPDIR/template" out
	test_cmp - out <<<"version 1.7 of 2005-04-07"
}

@test "make dist: git-clean-diffstat-<version>.tar.gz, in a directory of that name, with a version file" {
	git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1 ||
		skip "the source is not a git checkout (a tarball is made from one)"
	git clone -q "$TOP" src
	make -s -C src dist >/dev/null
	version=$(sed -n 's/^GIT_CLEAN_DIFFSTAT_VERSION = //p' src/GIT-VERSION-FILE)
	[[ "$version" =~ ^[0-9]+\.[0-9]+ ]]
	tarball=src/git-clean-diffstat-$version.tar.gz
	[ -f "$tarball" ]
	tar -tzf "$tarball" >list
	run ! grep -v "^git-clean-diffstat-$version/" list
	grep -qx "git-clean-diffstat-$version/version" list
	grep -qx "git-clean-diffstat-$version/GIT-VERSION-GEN" list
	tar -xzf "$tarball" "git-clean-diffstat-$version/version"
	[ "$(sed -n 1p "git-clean-diffstat-$version/version")" = "$version" ]
	[ "$(sed -n 2p "git-clean-diffstat-$version/version")" = \
	  "$(git -C src log -1 --format=%cs)" ]
}
