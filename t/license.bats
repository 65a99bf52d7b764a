#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The license: GPL-2.0-only, as git's.  COPYING holds its text, every
# source, script and build file names it in an SPDX line at its top, and
# the packages say the same.
#
# The rule, for a new file: its first line is
#
#	// SPDX-License-Identifier: GPL-2.0-only		(.c)
#	/* SPDX-License-Identifier: GPL-2.0-only */	(.h)
#	.\" SPDX-License-Identifier: GPL-2.0-only		(a man page)
#	# SPDX-License-Identifier: GPL-2.0-only		(anything else)
#
# or its second, after a "#!" line (or zsh's "#compdef" or "#autoload",
# which must come first).  Only the files exempt() names carry none.

load test_helper

setup() {
	setup_world
}

# The files without an SPDX line: the license itself, the documents, and
# data whose format has no comment (fuzz inputs, Debian's changelog,
# copyright and source format, the mails of git format-patch that
# contrib/git sends to git); debian/copyright states their license.
exempt() {
	case $1 in
	COPYING | README | NEWS | */README | *.md | .gitignore) ;;
	contrib/git/*.patch) ;;
	t/fuzz/corpus/* | t/fuzz/*-corpus/* | t/fuzz/*.dict) ;;
	contrib/debian/changelog | contrib/debian/copyright) ;;
	contrib/debian/source/format) ;;
	*) return 1 ;;
	esac
}

spdx_line() {
	case $1 in
	*.c) echo '// SPDX-License-Identifier: GPL-2.0-only' ;;
	*.h) echo '/* SPDX-License-Identifier: GPL-2.0-only */' ;;
	*.[1-8] | *.[1-8].in) echo '.\" SPDX-License-Identifier: GPL-2.0-only' ;;
	*) echo '# SPDX-License-Identifier: GPL-2.0-only' ;;
	esac
}

@test "COPYING is the GNU General Public License, version 2" {
	sed -n '1,2p' "$TOP/COPYING" >"$BATS_TEST_TMPDIR/head"
	test_cmp - "$BATS_TEST_TMPDIR/head" <<-'EOF'
	                    GNU GENERAL PUBLIC LICENSE
	                       Version 2, June 1991
	EOF
	grep -q '^ *END OF TERMS AND CONDITIONS$' "$TOP/COPYING"
}

@test "every tracked file but the documents and data starts with its SPDX line" {
	git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1 ||
		skip "not a git checkout: a tarball is git archive of one"
	local file line first second missing=()
	while IFS= read -r -d '' file; do
		! exempt "$file" || continue
		[ -f "$TOP/$file" ] || continue		# deleted, not committed yet
		line=$(spdx_line "$file")
		first='' second=''
		{ IFS= read -r first; IFS= read -r second; } <"$TOP/$file" || :
		case $first in
		'#!'* | '#compdef'* | '#autoload'*) first=$second ;;
		esac
		[ "$first" = "$line" ] || missing+=("$file")
	done < <(git -C "$TOP" ls-files -z)
	[ ${#missing[@]} -eq 0 ] || {
		printf 'no SPDX line where t/license.bats says: %s\n' "${missing[@]}" >&2
		return 1
	}
}

@test "the Debian and RPM packages name the same license and ship COPYING" {
	grep -q '^License: *GPL-2\.0-only$' "$TOP/contrib/rpm/git-clean-diffstat.spec"
	grep -q '^%license COPYING$' "$TOP/contrib/rpm/git-clean-diffstat.spec"
	# DEP-5's name for the GPL version 2 only, on every file
	sed -n '/^Files: \*$/,/^$/p' "$TOP/contrib/debian/copyright" >"$BATS_TEST_TMPDIR/files"
	grep -q '^License: GPL-2$' "$BATS_TEST_TMPDIR/files"
	grep -q '/usr/share/common-licenses/GPL-2' "$TOP/contrib/debian/copyright"
}
