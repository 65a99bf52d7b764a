#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lib/pullreq.c, lib/stat.c and the mail path (git mailsplit, git
# mailinfo) through t/helper/test-pullreq: pull requests written by
# the real git request-pull on the document's histories, sent through
# what mail does to them (t/lib/mail.bash), parsed, and compared with
# what git itself says of the same commits (the merge base, the tip,
# git diff -M --numstat and --shortstat, the blob sizes).  Then the
# checks of the URL and ref, and the names git diff --stat prints.

load test_helper
load lib/mail

setup() {
	setup_world
	PULLMSG=$TOP/t/helper/test-pullreq
	[ -x "$PULLMSG" ] || {
		echo "build it first: make t/helper/test-pullreq" >&2
		return 1
	}
	PUB=$BATS_TEST_TMPDIR/pub.git
	url=file://$PUB
}

# parse <file>: test-pullmsg parse of the file, its result in
# $BATS_TEST_TMPDIR/actual.
parse() {
	capture "$PULLMSG" mail <"$1" &&
	expect_status 0 &&
	expect_no_stderr
}

# fields: what the last parse says of the request(s), headers aside.
# In bash, as parsed_has is: a grep and the subshell of a pipe were
# three processes of the four of same_request_as.  Fails, as grep -v
# did, when there is no such line.
fields() {
	local l rc=1
	local -a parsed
	mapfile -t parsed <"$BATS_TEST_TMPDIR/actual" || return
	for l in "${parsed[@]}"; do
		case $l in
		'subject '* | 'from '* | 'message-id '* | 'date '*) ;;
		*) printf '%s\n' "$l" && rc=0 ;;
		esac
	done
	return "$rc"
}

# same_request_as <file>: the last parse holds the request that the text
# in <file> holds, field by field.
same_request_as() {
	fields >"$BATS_TEST_TMPDIR/fields" &&
	parse "$1" &&
	fields >"$BATS_TEST_TMPDIR/fields-again" &&
	test_cmp "$BATS_TEST_TMPDIR/fields" "$BATS_TEST_TMPDIR/fields-again"
}

# parsed_has <line>...: the last parse has each line, whole.  In bash,
# as check_request, which runs it for every request, is.
parsed_has() {
	local line l
	local -a parsed
	mapfile -t parsed <"$BATS_TEST_TMPDIR/actual" || return
	for line; do
		for l in "${parsed[@]}"; do
			[ "$l" != "$line" ] || continue 2
		done
		echo "no '$line' in the parse" >&2
		return 1
	done
}

# parsed_lacks <regex>: the last parse has no line that matches.
parsed_lacks() {
	! grep -- "$1" "$BATS_TEST_TMPDIR/actual" ||
		{ echo "the parse has lines matching '$1'" >&2; return 1; }
}

# parsed_lacks_prefix <text>: the last parse has no line that starts
# with <text> (parsed_lacks '^<text>', in bash).
parsed_lacks_prefix() {
	local l rc=0
	local -a parsed
	mapfile -t parsed <"$BATS_TEST_TMPDIR/actual" || return
	for l in "${parsed[@]}"; do
		case $l in
		"$1"*) echo "$l" && rc=1 ;;
		esac
	done
	[ "$rc" -eq 0 ] ||
		echo "the parse has lines matching '^$1'" >&2
	return "$rc"
}

# check_rows <base> <tip>: the last parse's rows are git diff -M --numstat
# of base..tip, file by file, in order: a text row's N is added +
# deleted, a binary row's sizes are the blobs', and each printed name
# stands for its file (test-pullmsg match, asked of all the rows at
# once: a process a row was a tenth of the file's CPU); when the name is
# whole, the path (and a rename's source) are the file's.  The total is
# git's --shortstat, and there are as many summary lines as git's
# --summary.
check_rows() {
	local base=$1 tip=$2 i=0 rec added deleted path from row
	local name n old new shortstat line summaries=0 git_summaries facts k
	local -a rows=() lines matches=() verdicts
	git_facts "$base" "$tip" || return
	# the parse read once, in bash: this runs for every row of every
	# request the tests parse
	mapfile -t lines <"$BATS_TEST_TMPDIR/actual" || return
	for line in "${lines[@]}"; do
		case $line in
		'row '*) rows+=("$line") ;;
		'summary '*) summaries=$((summaries + 1)) ;;
		esac
	done
	while IFS= read -r -d '' rec; do
		added=${rec%%$'\t'*}
		rec=${rec#*$'\t'}
		deleted=${rec%%$'\t'*}
		path=${rec#*$'\t'}
		from=
		if [ -z "$path" ]; then
			IFS= read -r -d '' from
			IFS= read -r -d '' path
		fi
		row=${rows[i]-}
		i=$((i + 1))
		if [[ $row =~ ^row\ bin\ ([0-9]+)\ ([0-9]+)\ (.*)$ ]]; then
			if [ ! -f "$facts/bin.$i" ]; then
				old=$(git cat-file -s "$base:${from:-$path}" 2>/dev/null || echo 0)
				new=$(git cat-file -s "$tip:$path" 2>/dev/null || echo 0)
				echo "$old $new" >"$facts/bin.$i.$BASHPID" &&
				mv -f "$facts/bin.$i.$BASHPID" "$facts/bin.$i" || return
			fi
			read -r old new <"$facts/bin.$i" || return
			if [ "$added" != - ] || [ "${BASH_REMATCH[1]}" != "$old" ] ||
			   [ "${BASH_REMATCH[2]}" != "$new" ]; then
				echo "row $i: '$row', git: $added $deleted $old -> $new" >&2
				return 1
			fi
			name=${BASH_REMATCH[3]}
		elif [[ $row =~ ^row\ ([0-9]+)\ (.*)$ ]]; then
			n=${BASH_REMATCH[1]}
			name=${BASH_REMATCH[2]}
			if [ "$added" = - ] || [ "$n" -ne $((added + deleted)) ]; then
				echo "row $i: '$row', git: $added $deleted" >&2
				return 1
			fi
		else
			echo "row $i: '$row', git: $added $deleted $path" >&2
			return 1
		fi
		matches+=("$name" "$path" "$from")
		case $name in
		...*)	continue ;;
		esac
		if ! row_followed_by "$row" "  path $path" ||
		   { [ -n "$from" ] && ! row_followed_by "$row" "  from $from"; }; then
			echo "row $i: paths of '$name' are not $from -> $path" >&2
			return 1
		fi
	done <"$facts/numstat"
	[ "$i" -eq "${#rows[@]}" ] ||
		{ echo "$i files, ${#rows[@]} rows" >&2; return 1; }
	if [ "$i" -gt 0 ]; then
		printf '%s\0' "${matches[@]}" >"$BATS_TEST_TMPDIR/matches" &&
		{ "$PULLMSG" match --stdin <"$BATS_TEST_TMPDIR/matches" \
			>"$BATS_TEST_TMPDIR/matched" || :; } &&
		mapfile -t verdicts <"$BATS_TEST_TMPDIR/matched" || return
		[ "${#verdicts[@]}" -eq "$i" ] ||
			{ echo "$i rows, ${#verdicts[@]} verdicts of test-pullreq match" >&2; return 1; }
		for ((k = 0; k < i; k++)); do
			case ${verdicts[k]} in
			exact | abbreviated) ;;
			*)
				echo "row $((k + 1)): '${matches[3 * k]}' is not ${matches[3 * k + 2]} -> ${matches[3 * k + 1]}" >&2
				return 1 ;;
			esac
		done
	fi
	fact shortstat
	shortstat=$REPLY
	n=$shortstat added='' deleted=''
	if [[ $shortstat =~ ^\ ([0-9]+)\ files?\ changed(,\ ([0-9]+)\ insertions?\(\+\))?(,\ ([0-9]+)\ deletions?\(-\))?$ ]]; then
		n=${BASH_REMATCH[1]} added=${BASH_REMATCH[3]} deleted=${BASH_REMATCH[5]}
	fi
	parsed_has "total $n ${added:-0} ${deleted:-0}" ||
		{ echo "git: total $n ${added:-0} ${deleted:-0}" >&2; return 1; }
	# as many summary lines as git's (wc -l of them, in bash)
	fact summary
	git_summaries=$REPLY
	[ -z "$git_summaries" ] || git_summaries=${git_summaries//[!$'\n']/}x
	[ "$summaries" -eq "${#git_summaries}" ] ||
		{ echo "git: ${#git_summaries} summary lines, $summaries parsed" >&2; return 1; }
}

# git_facts <base> <tip>: what git says of <base>..<tip> that
# check_request compares a parse with, in the directory $facts: git diff
# -M --numstat -z, --shortstat and --summary, the subjects and dates of
# both, and (check_rows) the sizes of the blobs of binary rows.  Asked
# once per file for the same two commits (their ids name the
# directory), as the tests parse the same requests in many ways.
git_facts() {
	local tmp
	facts=$BATS_FILE_TMPDIR/facts/$1-$2
	[ ! -d "$facts" ] || return 0
	mkdir -p "${facts%/*}" && tmp=$(mktemp -d "$facts.XXXXXX") || return
	if git diff -M --numstat -z "$1" "$2" >"$tmp/numstat" &&
	   git diff -M --shortstat "$1" "$2" >"$tmp/shortstat" &&
	   git diff -M --summary "$1" "$2" >"$tmp/summary" &&
	   git log -1 --format='%s (%ci)' "$1" >"$tmp/base-subject" &&
	   git log -1 --format='%s (%ci)' "$2" >"$tmp/tip-subject"; then
		mv -T "$tmp" "$facts" 2>/dev/null || rm -rf "$tmp"
	else
		rm -rf "$tmp"
		return 1
	fi
}

# fact <name>: the file <name> of $facts in $REPLY, as $(...) of the
# git that wrote it would give it (trailing newlines dropped), in bash.
fact() {
	REPLY=
	IFS= read -r -d '' REPLY <"$facts/$1" || :
	while [ "${REPLY%$'\n'}" != "$REPLY" ]; do
		REPLY=${REPLY%$'\n'}
	done
}

# row_followed_by <row> <line>: <line> is a line of the parse $lines
# (check_rows's) that is <row> or one of the two after it (grep -A2).
row_followed_by() {
	local j
	for ((j = 0; j < ${#lines[@]}; j++)); do
		[ "${lines[j]}" = "$1" ] || continue
		[ "${lines[j]}" != "$2" ] && [ "${lines[j + 1]-}" != "$2" ] &&
			[ "${lines[j + 2]-}" != "$2" ] || return 0
	done
	return 1
}

# base_and_tip <start> <end>: git merge-base <start> <end> in $base, git
# rev-parse <end>^{commit} in $tip.  Asked of git once per run for a
# state of the repository (its refs, read in bash as
# publish_and_request reads them; the GIT_* variables and PATH; the
# arguments), then read from CLEAN_DIFFSTAT_TEST_CACHE: most tests
# check the same request of the same history, and the two $(git ...)
# were some 30 ms of CPU each time.
base_and_tip() {
	local key='' memo tmp top
	if plain_top . && repo_files "$top/.git/HEAD" "$top/.git/packed-refs" \
		"$top/.git/refs"; then
		key+=$'\n'"$1 $2"
		memo_env
		if memo_find bases "$key"; then
			{ IFS= read -r base && IFS= read -r tip; } <"$memo/ids"
			return
		fi
	fi
	{ IFS= read -r base && IFS= read -r tip; } < <(
		git merge-base "$1" "$2" && git rev-parse "$2^{commit}") &&
	[ -n "$base" ] && [ -n "$tip" ] || return
	[ -n "$key" ] || return 0
	memo_new || return 0
	{
		printf '%s\n' "$base" "$tip" >"$tmp/ids" &&
		memo_keep "$tmp" "$key"
	} || rm -rf "$tmp"
}

# check_request <start> <end> [<ref>]: the last parse holds the request
# of <end> from <start> over $url: request-pull's merge base, the tip,
# the URL, the ref (default <end>), git's subjects, the rows.
check_request() {
	local base tip ref=${3-$2} facts base_subject tip_subject
	base_and_tip "$1" "$2" &&
	git_facts "$base" "$tip" &&
	fact base-subject && base_subject=$REPLY &&
	fact tip-subject && tip_subject=$REPLY &&
	parsed_lacks_prefix 'error ' &&
	parsed_has "base $base" "tip $tip" "url $url" \
		"base-subject $base_subject" "tip-subject $tip_subject" &&
	if [ -n "$ref" ]; then
		parsed_has "ref $ref"
	else
		parsed_lacks_prefix 'ref '
	fi &&
	check_rows "$base" "$tip"
}

# A topic with what --stat prints in each of its ways: a path longer
# than the 80 columns (abbreviated), renames ({a => b}, a => b, with a
# mode change), binary files added, changed and deleted.
# Built once per run, as the document's histories are (from_cache).
history_stat_shapes() { from_cache build_stat_shapes; }

build_stat_shapes() {
	build_simple "$@" || return
	local deep=drivers/gpu/drm/amd/display/dc/dml/dcn32/display_mode_vba_util_32_and_a_long_tail
	git checkout -q linus
	mkdir -p "$deep" doc
	printf 'one\ntwo\n' >"$deep/calc.c"
	printf 'x\0binary\n' >old.bin
	printf 'y\0binary\n' >changed.bin
	seq 1 40 >doc/moved.txt
	seq 1 20 >doc/deeper.txt
	seq 1 30 >script
	commit_all "mainline files"
	git checkout -q topic
	test_merge linus
	printf 'one\ntwo\nthree\n' >"$deep/calc.c"
	seq 100 130 >"$deep/a_second_file_with_a_name_long_enough.c"
	git mv doc/moved.txt doc/renamed.txt
	mkdir doc/sub tools
	git mv doc/deeper.txt doc/sub/deeper.txt
	git mv script tools/script
	chmod +x tools/script
	git rm -q old.bin
	printf 'y\0binary, longer\n' >changed.bin
	printf 'z\0new\n' >new.bin
	commit_all "stat shapes"
}

# request_of_topic: topic published, its request from linus as git
# request-pull writes it (in $BATS_TEST_TMPDIR/request) and parsed.
request_of_topic() {
	publish_and_request 'linus topic' linus topic &&
	parse "$BATS_TEST_TMPDIR/request"
}

@test "a request-pull text: base, URL, ref, tip and every row as git counts them" {
	history_simple
	request_of_topic
	check_request linus topic
	parsed_has 'message 1'
	[ "$(grep -c '^message ' "$BATS_TEST_TMPDIR/actual")" -eq 1 ]
}

@test "the document's messy request: request-pull's own merge base and rows" {
	history_partly_pulled
	request_of_topic
	check_request linus topic
	# the rows are the messy ones: more files than pulling changes
	[ "$(grep -c '^row ' "$BATS_TEST_TMPDIR/actual")" -gt \
	  "$(procedure_diffstat linus topic --numstat | wc -l)" ]
}

@test "a greeting before and a signature after do not change the request" {
	history_simple
	request_of_topic
	{
		printf 'Hi Linus,\n\nplease pull; the fix is described below:\n\n'
		cat "$BATS_TEST_TMPDIR/request"
		printf '\nThanks,\n-- \nA U Thor\n 1 file changed, 1 insertion(+)\n'
	} >"$BATS_TEST_TMPDIR/mail"
	cp "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/plain"
	parse "$BATS_TEST_TMPDIR/mail"
	test_cmp "$BATS_TEST_TMPDIR/plain" "$BATS_TEST_TMPDIR/actual"
}

@test "an RFC 822 message: Subject decoded (RFC 2047, folded), From, Date" {
	history_simple
	request_of_topic
	mail_message 7bit \
		'Subject: =?UTF-8?B?W0dJVCBQVUxMXQ==?=' \
		' =?utf-8?q?_ext4_f=C3=BCr_vN?= (=?iso-8859-1?q?gr=FC=DFe?=)' \
		'Message-Id: <pull-1@example.com>' \
		<"$BATS_TEST_TMPDIR/request" >"$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_has 'subject [GIT PULL] ext4 für vN (grüße)' \
		'from A U Thor <author@example.com>' \
		'date Thu, 7 Apr 2005 15:14:13 -0700'
}

@test "quoted-printable: the same request as the text it encodes" {
	history_stat_shapes
	request_of_topic
	mail_message quoted-printable 'Subject: [GIT PULL] qp' \
		<"$BATS_TEST_TMPDIR/request" >"$BATS_TEST_TMPDIR/mail"
	grep -q '=$' "$BATS_TEST_TMPDIR/mail"	# long rows got soft line breaks
	same_request_as "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
}

@test "base64: the same request as the text it encodes" {
	history_stat_shapes
	request_of_topic
	mail_message base64 'Subject: [GIT PULL] base64' \
		<"$BATS_TEST_TMPDIR/request" >"$BATS_TEST_TMPDIR/mail"
	run ! grep -q 'following changes' "$BATS_TEST_TMPDIR/mail"
	same_request_as "$BATS_TEST_TMPDIR/mail"
}

@test "CRLF line ends, in the message and inside a base64 body" {
	history_stat_shapes
	request_of_topic
	mail_message 7bit 'Subject: [GIT PULL] crlf' \
		<"$BATS_TEST_TMPDIR/request" | mail_crlf >"$BATS_TEST_TMPDIR/mail"
	same_request_as "$BATS_TEST_TMPDIR/mail"
	parsed_has 'subject [GIT PULL] crlf'
	mail_crlf <"$BATS_TEST_TMPDIR/request" |
		mail_message base64 'Subject: [GIT PULL] crlf' | mail_crlf \
		>"$BATS_TEST_TMPDIR/mail64"
	same_request_as "$BATS_TEST_TMPDIR/mail64"
}

@test "format=flowed: stuffed and soft-broken lines are joined again" {
	history_stat_shapes
	request_of_topic
	{
		mail_headers 'Subject: [GIT PULL] flowed' \
			'Content-Type: text/plain; charset=utf-8; format=flowed'
		echo
		mail_flowed <"$BATS_TEST_TMPDIR/request"
	} >"$BATS_TEST_TMPDIR/mail"
	grep -q '^  ' "$BATS_TEST_TMPDIR/mail"	# rows are space-stuffed
	grep -q ' $' "$BATS_TEST_TMPDIR/mail"	# long rows are soft-broken
	same_request_as "$BATS_TEST_TMPDIR/mail"
}

# other_request: the request of another branch, "other", from linus, in
# $BATS_TEST_TMPDIR/other-request; the last request (request_of_topic's)
# stays in $BATS_TEST_TMPDIR/request.  By request, which makes the same
# one once per run.
other_request() {
	git checkout -q -b other vN-rc3 &&
	test_commit "other: work" lib/other.c other &&
	git checkout -q topic &&
	publish other &&
	mv "$BATS_TEST_TMPDIR/request" "$BATS_TEST_TMPDIR/topic-request" &&
	request linus other &&
	mv "$BATS_TEST_TMPDIR/request" "$BATS_TEST_TMPDIR/other-request" &&
	mv "$BATS_TEST_TMPDIR/topic-request" "$BATS_TEST_TMPDIR/request"
}

@test "multipart/mixed: the first text/plain part that holds a request, not the attachments" {
	history_simple
	request_of_topic
	other_request
	echo 'Hi, the request follows.' |
		mail_part 'text/plain; charset=us-ascii' 7bit >"$BATS_TEST_TMPDIR/p1"
	mail_part 'text/plain; charset=utf-8' quoted-printable \
		<"$BATS_TEST_TMPDIR/request" >"$BATS_TEST_TMPDIR/p2"
	mail_part 'text/plain; name="old-request.txt"' base64 \
		<"$BATS_TEST_TMPDIR/other-request" >"$BATS_TEST_TMPDIR/p3"
	printf '\0\1\2' | mail_part application/octet-stream base64 >"$BATS_TEST_TMPDIR/p4"
	{
		mail_headers 'Subject: [GIT PULL] mixed'
		mail_multipart mixed 'b-1=_x' "$BATS_TEST_TMPDIR"/p[1-4]
	} >"$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	parsed_has "request 2 of 2" &&
	first_request
	check_request linus topic
}

@test "multipart/alternative, text/plain then text/html: the text/plain part's request" {
	history_simple
	request_of_topic
	other_request
	{ echo '<html><pre>'; cat "$BATS_TEST_TMPDIR/other-request"; echo '</pre></html>'; } |
		mail_part 'text/html; charset=utf-8' quoted-printable >"$BATS_TEST_TMPDIR/html"
	mail_part 'text/plain; charset=utf-8' 8bit <"$BATS_TEST_TMPDIR/request" \
		>"$BATS_TEST_TMPDIR/text"
	{
		mail_headers 'Subject: [GIT PULL] alternative'
		mail_multipart alternative alt-boundary "$BATS_TEST_TMPDIR/text" \
			"$BATS_TEST_TMPDIR/html"
	} >"$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	parsed_has "request 2 of 2" &&
	first_request
	check_request linus topic
}

@test "nested multipart, a boundary unquoted, CRLF, base64 inside" {
	history_simple
	request_of_topic
	other_request
	{
		echo 'Content-Type: multipart/alternative; boundary=inner.42'
		echo
		printf -- '--inner.42\n'
		echo '<p>html</p>' | mail_part text/html 7bit
		printf -- '\n--inner.42\n'
		mail_part 'text/plain; charset=utf-8' base64 <"$BATS_TEST_TMPDIR/request"
		printf -- '\n--inner.42--\n'
	} >"$BATS_TEST_TMPDIR/alternative"
	mail_part text/plain base64 <"$BATS_TEST_TMPDIR/other-request" \
		>"$BATS_TEST_TMPDIR/attachment"
	{
		mail_headers 'Subject: [GIT PULL] nested'
		mail_multipart mixed outer "$BATS_TEST_TMPDIR/alternative" \
			"$BATS_TEST_TMPDIR/attachment"
	} | mail_crlf >"$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	parsed_has "request 2 of 2" &&
	first_request
	check_request linus topic
}

@test "Outlook through Mailman: a nested multipart's first part, right after its headers, decoded" {
	history_stat_shapes
	request_of_topic
	{
		# no preamble: the first boundary right after the headers
		echo 'Content-Type: multipart/alternative;'
		echo '	boundary="_000_outlook_"'
		echo
		echo '--_000_outlook_'
		mail_part 'text/plain; charset="iso-8859-1"' quoted-printable \
			<"$BATS_TEST_TMPDIR/request"
		printf -- '\n--_000_outlook_\n'
		echo '<p>html</p>' | mail_part text/html quoted-printable
		printf -- '\n--_000_outlook_--\n'
	} >"$BATS_TEST_TMPDIR/alternative"
	echo 'the list footer' | mail_part text/plain 7bit >"$BATS_TEST_TMPDIR/footer"
	{
		mail_headers 'Subject: [GIT PULL] outlook'
		mail_multipart mixed '===============0886890368==' \
			"$BATS_TEST_TMPDIR/alternative" "$BATS_TEST_TMPDIR/footer"
	} >"$BATS_TEST_TMPDIR/mail"
	grep -q '=$' "$BATS_TEST_TMPDIR/mail"	# long rows got soft line breaks
	parse "$BATS_TEST_TMPDIR/mail"
	parsed_lacks_prefix 'damage '
	check_request linus topic
}

@test "a charset iconv does not know (charset=y, typed at git send-email's question): the text read as it is" {
	history_simple
	request_of_topic
	{
		mail_headers 'Subject: [GIT PULL] y' \
			'Content-Type: text/plain; charset=y' \
			'Content-Transfer-Encoding: 8bit'
		echo
		cat "$BATS_TEST_TMPDIR/request"
	} >"$BATS_TEST_TMPDIR/mail"
	run ! git mailinfo -u /dev/null /dev/null <"$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_has 'subject [GIT PULL] y'
}

@test "a forwarded request (message/rfc822) is looked into" {
	history_simple
	request_of_topic
	echo 'FYI, see the attached request.' | mail_part text/plain 7bit >"$BATS_TEST_TMPDIR/note"
	{
		echo 'Content-Type: message/rfc822'
		echo
		mail_message quoted-printable 'Subject: [GIT PULL] inner' \
			<"$BATS_TEST_TMPDIR/request"
	} >"$BATS_TEST_TMPDIR/forward"
	{
		mail_headers 'Subject: Fwd: [GIT PULL] inner'
		mail_multipart mixed fwd "$BATS_TEST_TMPDIR/note" "$BATS_TEST_TMPDIR/forward"
	} >"$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_has 'subject Fwd: [GIT PULL] inner'
}

# message_of_parse <n>: message <n> of the parse in
# $BATS_TEST_TMPDIR/all becomes the last parse.
# first_request: keep the first request of a message of the last parse.
first_request() {
	sed -i '/^request 2 of /,$d' "$BATS_TEST_TMPDIR/actual"
}

message_of_parse() {
	sed -n "/^message $1\$/,/^message $(($1 + 1))\$/p" "$BATS_TEST_TMPDIR/all" \
		>"$BATS_TEST_TMPDIR/actual"
}

@test "an mbox: one result per message, '>From ' unquoted, a reply quoting the request read too" {
	history_simple
	request_of_topic
	git tag -a -m 'ext4 for vN

From the desk of A U Thor: all of ext4.' for-linus topic
	publish for-linus
	other_request
	mail_message quoted-printable 'Subject: [GIT PULL] one' \
		'Message-Id: <one@example.com>' <"$BATS_TEST_TMPDIR/request" >"$BATS_TEST_TMPDIR/m1"
	sed 's/^/> /' "$BATS_TEST_TMPDIR/request" |
		mail_message 7bit 'Subject: Re: [GIT PULL] one' >"$BATS_TEST_TMPDIR/m2"
	request linus for-linus
	mail_message 8bit 'Subject: [GIT PULL] two' <"$BATS_TEST_TMPDIR/request" \
		>"$BATS_TEST_TMPDIR/m3"
	mail_mbox "$BATS_TEST_TMPDIR"/m[1-3] >"$BATS_TEST_TMPDIR/mbox"
	grep -q '^>From the desk' "$BATS_TEST_TMPDIR/mbox"
	parse "$BATS_TEST_TMPDIR/mbox"
	mv "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/all"
	[ "$(grep -c '^message ' "$BATS_TEST_TMPDIR/all")" -eq 3 ]
	message_of_parse 1
	check_request linus topic
	parsed_has 'subject [GIT PULL] one'
	message_of_parse 2
	check_request linus topic
	parsed_has 'damage quoted'
	message_of_parse 3
	check_request linus for-linus tags/for-linus
	parsed_has 'tag-message ext4 for vN\n\nFrom the desk of A U Thor: all of ext4.'
}

@test "an mbox: a body line 'From the maintainer: ...' after an empty line does not start a message" {
	history_simple
	request_of_topic
	{
		echo 'Hello,'
		echo
		echo 'From the maintainer: please pull.'
		echo
		cat "$BATS_TEST_TMPDIR/request"
	} | mail_message 8bit 'Subject: [GIT PULL] one' >"$BATS_TEST_TMPDIR/m1"
	{
		echo 'From author@example.com Thu Apr  7 15:14:13 2005'
		cat "$BATS_TEST_TMPDIR/m1"
	} >"$BATS_TEST_TMPDIR/mbox"
	grep -q '^From the maintainer' "$BATS_TEST_TMPDIR/mbox"
	parse "$BATS_TEST_TMPDIR/mbox"
	mv "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/all"
	[ "$(grep -c '^message ' "$BATS_TEST_TMPDIR/all")" -eq 1 ]
	message_of_parse 1
	check_request linus topic
}

@test "an ISO-8859-1 body is converted to UTF-8" {
	history_simple
	request_of_topic
	{
		printf 'Gr\374\337e,\n\n'
		cat "$BATS_TEST_TMPDIR/request"
	} >"$BATS_TEST_TMPDIR/body"
	{
		mail_headers 'Subject: [GIT PULL] latin1' \
			'Content-Type: text/plain; charset=iso-8859-1' \
			'Content-Transfer-Encoding: 8bit'
		echo
		cat "$BATS_TEST_TMPDIR/body"
	} >"$BATS_TEST_TMPDIR/mail"
	capture "$PULLMSG" text "$BATS_TEST_TMPDIR/mail"
	grep -q '^Grüße,$' "$BATS_TEST_TMPDIR/actual"
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
}

@test "a Maildir: one result per message, numbered as a mailbox" {
	history_simple
	request_of_topic
	mkdir -p "$BATS_TEST_TMPDIR/md/cur" "$BATS_TEST_TMPDIR/md/new" \
		"$BATS_TEST_TMPDIR/md/tmp"
	mail_message 7bit 'Subject: [GIT PULL] one' <"$BATS_TEST_TMPDIR/request" \
		>"$BATS_TEST_TMPDIR/md/cur/1000.1.host:2,S"
	echo 'no request here' | mail_message 7bit 'Subject: chatter' \
		>"$BATS_TEST_TMPDIR/md/new/1001.2.host"
	capture "$PULLMSG" mail "$BATS_TEST_TMPDIR/md"
	mv "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/all"
	[ "$(grep -c '^message ' "$BATS_TEST_TMPDIR/all")" -eq 2 ]
	grep -q "^error no 'The following changes since commit' line$" \
		"$BATS_TEST_TMPDIR/all"
	grep -q '^base ' "$BATS_TEST_TMPDIR/all"
}

@test "paths longer than the stat's width: '.../tail' rows still stand for their files" {
	history_stat_shapes
	request_of_topic
	grep -q '^ \.\.\./.* | ' "$BATS_TEST_TMPDIR/request"
	grep -q '^row [0-9]* \.\.\./' "$BATS_TEST_TMPDIR/actual"
	check_request linus topic
}

@test "a sender's core.quotePath=false: UTF-8 names, abbreviated, still match" {
	history_simple
	deep=$(printf 'dokumentation/übersetzungen/%.0s' 1 2 3)
	mkdir -p "$deep"
	echo text >"$deep/größenänderung.txt"
	echo text >"$(printf 'caf\303\251').txt"
	commit_all "utf-8 names"
	publish linus topic
	git -c core.quotePath=false request-pull linus "$url" topic \
		>"$BATS_TEST_TMPDIR/request"
	grep -q 'café.txt' "$BATS_TEST_TMPDIR/request"
	grep -q '^ \.\.\./' "$BATS_TEST_TMPDIR/request"
	parse "$BATS_TEST_TMPDIR/request"
	check_request linus topic
}

@test "renames: {a => b} and a => b give both paths, a mode change after a rename has no name" {
	history_stat_shapes
	request_of_topic
	check_request linus topic
	parsed_has 'row 0 doc/{moved.txt => renamed.txt}' 'row 0 script => tools/script'
	grep -A2 -Fx 'row 0 doc/{ => sub}/deeper.txt' "$BATS_TEST_TMPDIR/actual" |
		grep -Fqx '  from doc/deeper.txt'
	grep -A2 -Fx 'summary rename 100% script => tools/script' "$BATS_TEST_TMPDIR/actual" \
		>"$BATS_TEST_TMPDIR/renamed"
	test_cmp - "$BATS_TEST_TMPDIR/renamed" <<-'EOF'
	summary rename 100% script => tools/script
	  path tools/script
	  from script
	EOF
	grep -A1 -Fx '  from script' "$BATS_TEST_TMPDIR/actual" |
		grep -Fqx 'summary mode-change 100644 100755'
}

@test "binary files: 'Bin <old> -> <new> bytes' with git's blob sizes" {
	history_stat_shapes
	request_of_topic
	[ "$(grep -c '^row bin ' "$BATS_TEST_TMPDIR/actual")" -eq 3 ]
	check_request linus topic
}

# tag_request <tag> [<git tag option>...]: the request of the tag <tag>
# of topic, made with the options and a message on stdin, from linus.
tag_request() {
	local tag=$1
	shift
	git tag "$@" -F - "$tag" topic &&
	publish linus "$tag" &&
	request linus "$tag" &&
	parse "$BATS_TEST_TMPDIR/request" &&
	check_request linus "$tag" "tags/$tag"
}

@test "an annotated tag: the tag message section and the tags/ ref" {
	history_simple
	tag_request for-linus -a <<-\EOF
	ext4 for vN

	The extents work, and the directory fix.
	EOF
	msg=$(git cat-file tag for-linus | sed '1,/^$/d' | sed -e ':a' -e 'N;$!ba' -e 's/\n/\\n/g')
	parsed_has "tag-message $msg" \
		"shortlog $(git shortlog linus..topic | sed -e ':a' -e 'N;$!ba' -e 's/\n$//' -e 's/\n/\\n/g')"
}

@test "a signed tag: the request and its tag message, the signature aside or not" {
	history_simple
	ssh_signing_key
	tag_request for-linus -s <<<'signed ext4 for vN'
	git cat-file tag for-linus | grep -q 'BEGIN SSH SIGNATURE'
	grep -q '^tag-message signed ext4 for vN' "$BATS_TEST_TMPDIR/actual"
}

@test "a diffstat quoted in the tag message is passed over" {
	history_simple
	tag_request for-linus -a <<-'EOF'
	ext4 for vN

	Last time's diffstat was:

	 fs/ext4/old.c | 2 +-
	 1 file changed, 1 insertion(+), 1 deletion(-)
	EOF
	parsed_lacks 'row 2 fs/ext4/old.c'
}

@test "a branch description section" {
	history_simple
	git config branch.topic.description 'The ext4 topic.'
	request_of_topic
	grep -q '^(from the branch description for topic' "$BATS_TEST_TMPDIR/request"
	check_request linus topic
	parsed_has 'description The ext4 topic.'
	parsed_lacks '^tag-message '
}

@test "request-pull -p: the patch after the diffstat, even one that looks like a diffstat, is not it" {
	history_simple
	git checkout -q -b base vN-rc2
	mkdir -p fs/ext4
	{
		seq 1 5
		echo '----------------------------------------------------------------'
		echo 'x | 1 +'
		echo '1 file changed, 1 insertion(+)'
	} >fs/ext4/notes
	commit_all notes
	git checkout -q topic
	test_merge base
	echo changed >>fs/ext4/notes
	commit_all "notes: more"
	git checkout -q linus
	test_merge base
	git checkout -q topic
	publish linus topic
	request -p linus topic
	grep -qx ' 1 file changed, 1 insertion(+)' "$BATS_TEST_TMPDIR/request"
	parse "$BATS_TEST_TMPDIR/request"
	check_request linus topic
	parsed_has patch
	grep -vx patch "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/with-patch"
	request linus topic
	parse "$BATS_TEST_TMPDIR/request"
	test_cmp "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/with-patch"
}

# patches_after <shape>: the request, and after it the topic's patches
# in $BATS_TEST_TMPDIR/patches (git format-patch --stdout) as senders
# paste them, into $BATS_TEST_TMPDIR/mail:
#   format-patch  as git format-patch wrote them
#   separated     each after a line of dashes and an empty line
#   dashes        without their headers: message, "---", diffstat, diff
#   subjects      each under its "[PATCH n/m] <subject>" line alone
#   stat-first    the request's diffstat before its shortlog, then them
patches_after() {
	local r=$BATS_TEST_TMPDIR/request p=$BATS_TEST_TMPDIR/patches
	local dashes=----------------------------------------------------------------
	case $1 in
	format-patch)
		cat "$r"; echo; cat "$p" ;;
	separated)
		cat "$r"; echo
		sed "/^From [0-9a-f]\{40\} Mon Sep 17 00:00:00 2001\$/{x;s/.*/$dashes\n/p;x}" "$p" ;;
	dashes)
		cat "$r"; echo
		sed '/^From [0-9a-f]\{40\} /,/^$/d' "$p" ;;
	subjects)
		cat "$r"; echo
		sed -e '/^From [0-9a-f]\{40\} /d' -e '/^From: /d' -e '/^Date: /d' \
			-e 's/^Subject: //' "$p" ;;
	stat-first)
		sed "/^$dashes\$/,\$d" "$r"
		sed -n '/^ [^ ].* | /,$p' "$r"
		printf '\n%s\n' "$dashes"
		sed -n '/^A U Thor (/,/^$/p' "$r"
		cat "$p" ;;
	esac >"$BATS_TEST_TMPDIR/mail"
}

@test "patches pasted after the request, in every way senders paste them: the request's diffstat, none of theirs" {
	history_simple
	request_of_topic
	git format-patch -q --stdout "$(git merge-base linus topic)..topic" \
		>"$BATS_TEST_TMPDIR/patches"
	[ "$(grep -c ' files\? changed' "$BATS_TEST_TMPDIR/patches")" -eq 3 ]
	for shape in format-patch separated dashes subjects stat-first; do
		patches_after $shape
		parse "$BATS_TEST_TMPDIR/mail"
		check_request linus topic ||
			{ echo "shape $shape" >&2; return 1; }
		parsed_lacks '^extra ' || { echo "shape $shape" >&2; return 1; }
		parsed_has patch || { echo "shape $shape" >&2; return 1; }
	done
}

@test "a conflict's fix, a diff before the shortlog: the request's diffstat still read" {
	history_simple
	request_of_topic
	{
		printf 'It conflicts with your tree; the fix:\n\n---8<---\n'
		git show --format= topic
		printf '\n'
	} >"$BATS_TEST_TMPDIR/fix"
	grep -q '^diff --git ' "$BATS_TEST_TMPDIR/fix"
	# before the separator line that opens the shortlog
	# shellcheck disable=SC2016 # perl's $, not the shell's
	FIX=$BATS_TEST_TMPDIR/fix perl -pe 'BEGIN { local $/; open my $f, "<",
		$ENV{FIX} or die; $fix = <$f> } /^-{64}$/ && !$n++ and $_ = $fix . $_' \
		"$BATS_TEST_TMPDIR/request" >"$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_lacks '^extra '
}

@test "no ref on the URL line: the URL alone (the remote's HEAD)" {
	history_simple
	publish linus topic
	capture git request-pull linus "$url"
	grep -qx "  $url " "$BATS_TEST_TMPDIR/actual"
	mv "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/request"
	parse "$BATS_TEST_TMPDIR/request"
	parsed_has "url $url"
	parsed_lacks '^ref '
}

@test "a SHA-256 repository: 64-digit ids" {
	GIT_DEFAULT_HASH=sha256 history_simple
	git init -q --bare --object-format=sha256 "$PUB"
	request_of_topic
	check_request linus topic
	[ "$(grep '^tip ' "$BATS_TEST_TMPDIR/actual" | wc -c)" -eq $((4 + 64 + 1)) ]
}

@test "an empty input: one message without a request" {
	parse /dev/null
	expect_stdout <<-\EOF
	message 1
	error no 'The following changes since commit' line
	EOF
}

@test "no request at all: names the first line missing" {
	printf 'Hi,\n\nplease pull my tree.\n' >"$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	parsed_has "error no 'The following changes since commit' line"
}

# no_request_without <sed script> <error>: the request with the sed
# script applied to it holds no request any more, for that reason.
no_request_without() {
	sed "$1" "$BATS_TEST_TMPDIR/request" >"$BATS_TEST_TMPDIR/mail" &&
	parse "$BATS_TEST_TMPDIR/mail" &&
	parsed_has "error $2"
}

@test "no 'since' line (git send-email took it for a header): read without a base, the damage named" {
	history_simple
	request_of_topic
	sed '/^The following changes since commit/d' "$BATS_TEST_TMPDIR/request" \
		>"$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	parsed_lacks_prefix 'error '
	parsed_lacks_prefix 'base '
	parsed_has "url $url" 'ref topic' "tip $(git rev-parse topic)" 'damage header'
	# neither a "since" line nor a repository line: no request
	no_request_without '/changes since commit\|are available in/d' \
		"no 'The following changes since commit' line"
}

@test "no repository line: named" {
	history_simple
	request_of_topic
	no_request_without '/are available in the Git repository at:/d' \
		"no 'are available in the Git repository at:' line"
}

@test "no URL after the repository line: named" {
	history_simple
	request_of_topic
	no_request_without "\\|^  $url|d" \
		"no repository URL after 'are available in the Git repository at:'"
}

@test "no 'up to' line: named" {
	history_simple
	request_of_topic
	no_request_without '/^for you to fetch/d' \
		"no 'for you to fetch changes up to' line"
}

@test "a malformed commit id: named" {
	history_simple
	request_of_topic
	no_request_without 's/^\(The following changes since commit \)[0-9a-f]*/\1xyz/' \
		"no commit id after 'The following changes since commit'"
}

@test "no diffstat: named" {
	history_simple
	request_of_topic
	# shellcheck disable=SC2016 # sed's $, the last line
	no_request_without '/^ .* | /,$d' "no diffstat (no ' N files changed' line)"
}

@test "a stat row broken by a mail client: joined again, the damage named" {
	history_stat_shapes
	request_of_topic
	sed '/^ \.\.\.\/calc\.c /s/ *|/\n&/' "$BATS_TEST_TMPDIR/request" \
		>"$BATS_TEST_TMPDIR/mail"
	grep -q '^ *|  *1 +$' "$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	parsed_lacks '^error ' &&
	parsed_lacks '^rows-uneven' &&
	parsed_has 'damage wrapped'
}

# What real mail clients do to a request: made-up mails of the shapes
# real ones have.

# client <perl> <file>: the request with the perl filter applied, as
# the file.
client() {
	perl -pe "$1" "$BATS_TEST_TMPDIR/request" >"$BATS_TEST_TMPDIR/$2"
}

# no-break spaces (U+00A0) for the indent and for runs of spaces, one
# then a space, as Thunderbird writes them
# shellcheck disable=SC2016 # perl's $, not the shell's
NBSP='s{^( +)|(?<=\S)( {2,})}{join "", map { $_ % 2 ? " " : "\xc2\xa0" } 0 .. length($1 . $2) - 1}ge'

@test "no-break spaces for the indent and the padding (Thunderbird): read as git's spaces" {
	history_stat_shapes
	request_of_topic
	client "$NBSP" body
	grep -q "$(printf '^\302\240 *file:')" "$BATS_TEST_TMPDIR/body"
	grep -q "$(printf '^\302\240doc/.*\302\240|')" "$BATS_TEST_TMPDIR/body"
	mail_message base64 'Subject: [GIT PULL] nbsp' <"$BATS_TEST_TMPDIR/body" \
		>"$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_has 'damage spaces'
}

@test "a no-break space between the URL and the ref: the ref read, the damage named" {
	history_simple
	request_of_topic
	client "s{^  (\\Q$url\\E) (\\S+)\$}{  \$1\xc2\xa0\$2}" mail
	grep -q "$(printf '\302\240topic$')" "$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_has 'damage spaces'
}

@test "the ref written twice after the URL: the URL and the ref read, the damage named" {
	history_simple
	request_of_topic
	client "s{^  (\\Q$url\\E) (\\S+)\$}{  \$1 \$2 \$2}" mail
	grep -q " topic topic$" "$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_has 'damage header'
}

@test "a no-break space inside a name is the name's" {
	history_simple
	request_of_topic
	perl -pe 's/^ \S.* \|.*$/ caf\xc2\xa0menu.txt | 2 +-/ and $done++ or
		s/^ \d+ files? changed.*$/ 1 file changed, 1 insertion(+), 1 deletion(-)/ or
		$done && /^ \S.* \|/ && ($_ = "")' \
		"$BATS_TEST_TMPDIR/request" >"$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	parsed_has "$(printf 'row 2 caf\302\240menu.txt')"
	parsed_lacks '^damage spaces'
}

@test "a request quoted in a reply or indented as a whole: read, the quoting named" {
	history_stat_shapes
	request_of_topic
	for prefix in '> ' '>' '> > ' '    '; do
		{
			printf 'On Thu, A U Thor wrote:\n'
			sed "s/^/$prefix/" "$BATS_TEST_TMPDIR/request"
			printf '\nPulled, thanks.\n'
		} >"$BATS_TEST_TMPDIR/mail"
		parse "$BATS_TEST_TMPDIR/mail"
		check_request linus topic
		parsed_has 'damage quoted'
	done
}

@test "a +/- graph wrapped onto a line of its own: the row joined again" {
	history_stat_shapes
	request_of_topic
	# shellcheck disable=SC2016 # perl's $, not the shell's
	client '$d or s/^( \S.* \| +\d+) ([-+]+)$/$1\n$2/ and $d = 1' mail
	grep -qx ' *[-+][-+]*' "$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_has 'damage wrapped'
}

@test "a +/- graph wrapped part way, once or twice: the rest joined to its row" {
	history_stat_shapes
	request_of_topic
	# the first row with a graph of 8 or more: wrapped after 3 signs,
	# the next such row after 3 and after 4 more
	# shellcheck disable=SC2016 # perl's $, not the shell's
	client 's/^( \S.* \| +\d+ [-+]{3})([-+]{4})([-+]+)$/
		$1 . ($n++ ? "\n$2\n$3" : "\n$2$3")/e if $n < 2' mail
	[ "$(grep -cx '[-+]*+[-+]*' "$BATS_TEST_TMPDIR/mail")" -eq 3 ]
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_lacks '^rows-uneven' &&
	parsed_has 'damage wrapped'
}

# Files of one-letter names, so that git's graph takes most of the
# line: a's deletions fill it with some 70 "-".
build_long_graph() {
	git init -q -b linus "${1:-repo}" && cd "${1:-repo}" || return
	seq 1 300 >a
	seq 1 10 >b
	commit_all base
	git checkout -q -b topic
	seq 1 10 >a
	seq 1 12 >b
	commit_all "a long graph"
	git checkout -q linus
}

@test "a graph's wrapped rest of exactly 64 dashes, between two rows: joined to its row, not a separator" {
	from_cache build_long_graph
	request_of_topic
	# shellcheck disable=SC2016 # perl's $, not the shell's
	client 's/^( a \| +\d+ -+)(-{64})$/$1\n$2/' mail
	# one line of 64 dashes more than git's separators
	[ "$(grep -cx -- '-\{64\}' "$BATS_TEST_TMPDIR/mail")" -eq \
	  "$(($(grep -cx -- '-\{64\}' "$BATS_TEST_TMPDIR/request") + 1))" ]
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_lacks '^rows-uneven' &&
	parsed_has 'damage wrapped'
}

@test "rows whose +/- graph a sender lost, a count alone: read as their counts" {
	history_stat_shapes
	request_of_topic
	# every other text row, its graph dropped and a space left
	# shellcheck disable=SC2016 # perl's $, not the shell's
	client 's/^( \S.* \| +\d+) [-+]+$/$1 / if / \| +\d+ [-+]/ && $n++ % 2' mail
	grep -q '| *[0-9][0-9]* $' "$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_lacks '^rows-uneven'
}

@test "summary lines appended to the totals line: split off it" {
	history_stat_shapes
	request_of_topic
	perl -0pe 's/\n( (?:create mode|delete mode|rename|mode change))/ $1/g' \
		"$BATS_TEST_TMPDIR/request" >"$BATS_TEST_TMPDIR/mail"
	grep -q 'deletions\?(-)  rename .*  create mode' "$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_has 'damage wrapped'
}

@test "a create or delete mode line wrapped before its path: joined again" {
	local summary
	history_stat_shapes
	request_of_topic
	summary=$(grep -c '^ \(create\|delete\) mode [0-7]* ' "$BATS_TEST_TMPDIR/request")
	[ "$summary" -ge 2 ]
	grep '^summary ' "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/summary"
	# shellcheck disable=SC2016 # perl's $, not the shell's
	client 's/^( (?:create|delete) mode [0-7]+) /$1\n/' mail
	[ "$(grep -c '^ \(create\|delete\) mode [0-7]*$' "$BATS_TEST_TMPDIR/mail")" -eq "$summary" ]
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_has 'damage wrapped'
	grep '^summary ' "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/summary-again"
	test_cmp "$BATS_TEST_TMPDIR/summary" "$BATS_TEST_TMPDIR/summary-again"
}

@test "a blank line a mail client left between rows, or after every stat line: taken out" {
	local rows
	history_stat_shapes
	request_of_topic
	grep '^summary ' "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/summary"
	rows=$(grep -c '^ .* | ' "$BATS_TEST_TMPDIR/request")
	[ "$rows" -ge 4 ]
	# a line of one space before the third row (Thunderbird's
	# format=flowed, wrapping a long row), then every line of the
	# diffstat double-spaced (Outlook), the request quoted in a reply
	# shellcheck disable=SC2016 # perl's $, not the shell's
	client '$n++ if / \| /; $_ = " \n$_" if / \| / && $n == 3' mail
	# shellcheck disable=SC2016
	client '$_ .= "\n" if / \| | changed, |^ (create|delete) mode |^ rename |^ mode change /; $_ = "> $_"' spaced
	for mail in mail spaced; do
		parse "$BATS_TEST_TMPDIR/$mail"
		check_request linus topic || { echo "$mail" >&2; return 1; }
		# one diffstat, not two: check_request counts extra's rows too
		parsed_lacks_prefix 'extra ' || { echo "$mail" >&2; return 1; }
		parsed_has 'damage wrapped' || { echo "$mail" >&2; return 1; }
		grep '^summary ' "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/summary-again"
		test_cmp "$BATS_TEST_TMPDIR/summary" "$BATS_TEST_TMPDIR/summary-again"
	done
}

@test "the header after a line of prose, or damaged at its start: the request found by its ids" {
	history_simple
	request_of_topic
	client 's/^The following/Please pull: git request-pull linus topic The following/' mail
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_has 'damage header'
	client 's/^The following/he following/' mail
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_has 'damage header'
}

@test "a header a sender's template words otherwise (KVM/s390's, pwm's): read, the damage named" {
	local to
	history_simple
	request_of_topic
	# KVM/s390's "from the Git repository at:"; pwm's "the following
	# change since commit", "is available", "for you to fetch up to"
	# or "as commit", and prose before the line
	for to in 's/^The following changes since/please pull the following changes since/; s/^are available in the Git repository at:/from the Git repository at:/' \
		's/^The following changes since/the following change since/; s/^are available/is available/; s/^for you to fetch changes up to/for you to fetch up to/' \
		's/^are available/is available/; s/^for you to fetch changes up to/for you to fetch as commit/' \
		's/^are available in/(that you pulled for v6.9-rc2) are available in/'; do
		client "$to" mail
		run ! grep -qx 'are available in the Git repository at:' "$BATS_TEST_TMPDIR/mail"
		parse "$BATS_TEST_TMPDIR/mail"
		check_request linus topic || { echo "shape $to" >&2; return 1; }
		parsed_has 'damage header' || { echo "shape $to" >&2; return 1; }
	done
	# a line of prose that names a repository, or one quoted deeper
	# than the request, is not the repository line
	for to in 'are in my repository at: (see below)' '> from the Git repository at:'; do
		client "s/^are available in the Git repository at:/$to/" mail
		capture "$PULLMSG" mail <"$BATS_TEST_TMPDIR/mail"
		parsed_has "error no 'are available in the Git repository at:' line" ||
			{ echo "shape $to" >&2; return 1; }
	done
}

@test "a repository line wrapped by a mail client: the ref on the line after it, the damage named" {
	local to
	history_simple
	request_of_topic
	grep -qx "  $url topic" "$BATS_TEST_TMPDIR/request"
	# the ref at the start of the next line (patchwork keeps such a
	# mail from the kernel's lists), after a space left at the end, or
	# indented
	# shellcheck disable=SC2016 # perl's $, not the shell's
	for to in '$1\n$2' '$1 \n$2' '$1\n    $2'; do
		client "s{^  (\\Q$url\\E) (\\S+)\$}{  $to}" mail
		! grep -q "^  $url topic" "$BATS_TEST_TMPDIR/mail"
		parse "$BATS_TEST_TMPDIR/mail"
		check_request linus topic || { echo "shape $to" >&2; return 1; }
		parsed_has 'damage header' || { echo "shape $to" >&2; return 1; }
	done
}

@test "a 'since' or 'up to' line wrapped by a mail client: the id on the line after it, the damage named" {
	local to
	history_simple
	request_of_topic
	# as Gmail wraps a line a greeting or a quote made long, and the
	# line alone
	# shellcheck disable=SC2016 # perl's $, not the shell's
	for to in 's{^The (following changes since commit) ([0-9a-f]+:)$}{Please pull the $1\n$2}' \
		's{^(The following changes since commit) ([0-9a-f]+:)$}{$1\n$2}' \
		's{^(The following changes since commit) ([0-9a-f]+:)$}{Hi,\n\n$1 \n$2}' \
		's{^(for you to fetch changes up to) ([0-9a-f]+:)$}{$1\n$2}' \
		's{^(for you to fetch changes up to) ([0-9a-f]+:)$}{> $1\n> $2}; $_ = "> $_" if !/^> /'; do
		client "$to" mail
		[ "$(grep -c 'since commit [0-9a-f]\|up to [0-9a-f]' "$BATS_TEST_TMPDIR/mail")" -eq 1 ]
		parse "$BATS_TEST_TMPDIR/mail"
		check_request linus topic || { echo "shape $to" >&2; return 1; }
		parsed_has 'damage header' || { echo "shape $to" >&2; return 1; }
	done
}

@test "the line after the repository line is the ref only when it is one word" {
	history_simple
	request_of_topic
	# shellcheck disable=SC2016 # perl's $, not the shell's
	client "s{^  (\\Q$url\\E) (\\S+)\$}{  \$1\\nplease pull \$2}" mail
	parse "$BATS_TEST_TMPDIR/mail"
	parsed_has "url $url"
	parsed_lacks_prefix 'ref '
}

@test "the totals line cut off: the rows read, the totals counted from them, said so" {
	history_simple
	request_of_topic
	# shellcheck disable=SC2016 # perl's $, not the shell's
	client '$_ = "" if / files? changed/' mail
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_has 'totals-missing'
}

@test "a diffstat of its totals line alone: the totals read, said to be all it has" {
	history_simple
	request_of_topic
	# shellcheck disable=SC2016 # perl's $, not the shell's
	client '$_ = "" if /^ \S.* \| / || /^ create mode /' mail
	grep -qx ' 3 files changed, 17 insertions(+), 2 deletions(-)' "$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	parsed_lacks '^error '
	parsed_lacks '^row '
	parsed_lacks '^rows-uneven'
	parsed_has 'total 3 17 2' totals-only
}

@test "a diffstat cut short by a ' ...' row: read, said to be cut" {
	history_stat_shapes
	request_of_topic
	# shellcheck disable=SC2016 # perl's $, not the shell's
	client 'if (/^ \S.* \| / && ++$n > 3) { $_ = $n == 4 ? " ...\n" : "" }' mail
	grep -qx ' \.\.\.' "$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	parsed_lacks '^error '
	parsed_has cut
}

@test "the diffstat's rows do not add up to its totals: still read, said so" {
	history_simple
	request_of_topic
	# shellcheck disable=SC2016 # perl's $, not the shell's
	client 's/\| +\d+ /| 99 / if /^ \S.* \| +\d+ / && !$n++' mail
	parse "$BATS_TEST_TMPDIR/mail"
	parsed_lacks '^error '
	parsed_has rows-uneven
}

@test "two shortlogs and diffstats: the first after the shortlog is the request's, the other kept aside" {
	history_simple
	request_of_topic
	other_request
	{
		cat "$BATS_TEST_TMPDIR/request"
		printf '\n'
		sed -n '/^A U Thor/,/changed/p' "$BATS_TEST_TMPDIR/other-request"
	} >"$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	sed -n '/^extra 1$/,$p' "$BATS_TEST_TMPDIR/actual" >"$BATS_TEST_TMPDIR/extra"
	sed -i '/^extra 1$/,$d' "$BATS_TEST_TMPDIR/actual"
	check_request linus topic
	grep -qx 'row [0-9]* lib/other.c' "$BATS_TEST_TMPDIR/extra"
	grep -qx '  subject other: work' "$BATS_TEST_TMPDIR/extra"
}

@test "the request's shortlog and diffstat written twice: the repeat is not another's" {
	history_simple
	request_of_topic
	{
		cat "$BATS_TEST_TMPDIR/request"
		printf '\n'
		sed -n '/^A U Thor (/,/ files\? changed/p' "$BATS_TEST_TMPDIR/request"
	} >"$BATS_TEST_TMPDIR/mail"
	[ "$(grep -c ' files\? changed' "$BATS_TEST_TMPDIR/mail")" -eq 2 ]
	parse "$BATS_TEST_TMPDIR/mail"
	check_request linus topic
	parsed_lacks '^extra '
}

@test "two requests in one mail: each header with its own diffstat" {
	history_simple
	request_of_topic
	other_request
	cat "$BATS_TEST_TMPDIR/request" "$BATS_TEST_TMPDIR/other-request" |
		mail_message 8bit 'Subject: [GIT PULL] two' >"$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	cp "$BATS_TEST_TMPDIR/actual" "$BATS_TEST_TMPDIR/all"
	parsed_has 'request 1 of 2' 'request 2 of 2'
	first_request
	check_request linus topic
	sed -n '/^request 2 of 2$/,$p' "$BATS_TEST_TMPDIR/all" >"$BATS_TEST_TMPDIR/actual"
	check_request linus other
}

@test "the shortlog is read into authors and their subjects" {
	history_simple
	request_of_topic
	base=$(git merge-base linus topic)
	{
		git shortlog "$base..topic" | sed -n 's/^\(.*\) (\([0-9]*\)):$/author \2 \1/p'
		git log --reverse --format='  subject %s' "$base..topic"
	} | sort >"$BATS_TEST_TMPDIR/expect"
	grep -e '^author ' -e '^  subject ' "$BATS_TEST_TMPDIR/actual" | sort |
		test_cmp "$BATS_TEST_TMPDIR/expect" -
}

@test "a reply that quotes a request down to its tip: no diffstat, but it looks like a request" {
	history_simple
	request_of_topic
	sed -e '/^----/,$d' -e 's/^/> /' "$BATS_TEST_TMPDIR/request" >"$BATS_TEST_TMPDIR/mail"
	parse "$BATS_TEST_TMPDIR/mail"
	parsed_has "error no diffstat (no ' N files changed' line)" telltale
}

# pullmsg_says <status> <line> <subcommand> <arg>...: test-pullmsg exits
# <status> and prints <line>.
pullmsg_says() {
	local want=$1 line=$2
	shift 2
	capture "$PULLMSG" "$@" &&
	expect_status "$want" &&
	expect_stdout <<<"$line"
}

@test "URLs of the transports a maintainer pulls over are accepted" {
	for url in https://git.kernel.org/pub/scm/linux/kernel/git/tip/tip.git \
		http://example.com/repo.git git://git.kernel.org/pub/scm/git/git.git \
		ssh://git@example.com:2222/srv/repo.git git@example.com:srv/repo.git \
		'example.com:~user/repo' 'ssh://[::1]/repo'; do
		capture "$PULLMSG" url "$url"
		expect_status 0
	done
	pullmsg_says 0 "ok scp" url git@example.com:repo
}

@test "URLs that could run something or be an option are refused" {
	for url in 'ext::sh -c touch% /tmp/pwned' 'ext::sh' 'fd::17' \
		'example.com::path' 'transport::x' '-oProxyCommand=touch /tmp/x' \
		'--upload-pack=touch /tmp/x' 'ssh://-oProxyCommand=x/repo' \
		'ssh://user@-oProxyCommand=x/repo' 'ssh://host:-oProxyCommand=x/r' \
		'git://host:-p/r' 'git@-host:repo' 'host:-path' \
		'HTTPS://example.com/r' 'ftp://example.com/r' 'rsync://e.com/r' \
		'git+ssh://example.com/r' 'https://exa mple.com/r' \
		"$(printf 'https://example.com/r\nx')" "$(printf 'https://e.com/\033[1m')" \
		'https://' 'ssh:///path' 'file:///srv/repo.git' '/srv/repo.git' \
		'../repo' 'repo'; do
		capture "$PULLMSG" url "$url"
		expect_status 1 || { echo "accepted: $url" >&2; return 1; }
		grep -q '^refused: ' "$BATS_TEST_TMPDIR/actual"
	done
	pullmsg_says 1 "refused: empty URL" url ''
}

@test "a host that is an option inside [...] or behind a %-escape is refused, whatever git and ssh would do" {
	for url in 'ssh://[-oProxyCommand=touch]/r' 'ssh://git@[-oProxyCommand=x]:22/r' \
		'ssh://%2doProxyCommand=x/r' 'ssh://git@%2dhost/r' 'https://ho%73t/r' \
		'[-oProxyCommand=x]:r'; do
		capture "$PULLMSG" url "$url"
		expect_status 1 || { echo "accepted: $url" >&2; return 1; }
		grep -q '^refused: ' "$BATS_TEST_TMPDIR/actual"
	done
	pullmsg_says 0 "ok git" url 'git://[::1]:9418/r'
	pullmsg_says 0 "ok ssh" url 'ssh://git@[::1]:22/r'
}

@test "file:// and local paths only with allow-local" {
	pullmsg_says 1 "refused: local repository (file://) refused without allow-local" \
		url file:///srv/repo.git
	pullmsg_says 1 "refused: local repository path refused without allow-local" \
		url ../repo
	pullmsg_says 0 "ok file" url --allow-local file:///srv/repo.git
	pullmsg_says 0 "ok local" url --allow-local ../repo
	pullmsg_says 0 "ok local" url --allow-local ./-repo
	capture "$PULLMSG" url --allow-local -repo
	expect_status 1
	capture "$PULLMSG" url --allow-local 'ext::sh'
	expect_status 1
}

@test "refs: the verdict of git check-ref-format --allow-onelevel, and never '-' or '+' first" {
	for ref in master tags/v1.0 for-linus HEAD a/b/c 'a b' 'a..b' 'a.' \
		'.a' 'a/.b' a.lock a/b.lock/c '@' '@{u}' 'a@b' 'x@{' 'a//b' '/a' \
		'a/' 'a:b' 'a?b' 'a*' 'a[b' 'a\b' 'a^b' 'a~1' "$(printf 'a\tb')" \
		"$(printf 'a\177b')" 'ü/ref' 'a.b.' 'x..' 'v1.0' 'a/.' '.' ..; do
		if git check-ref-format --allow-onelevel "$ref"; then want=0; else want=1; fi
		capture "$PULLMSG" ref "$ref"
		expect_status "$want" || { echo "'$ref': git says $want" >&2; return 1; }
	done
	pullmsg_says 1 "refused: ref starts with '-'" ref -x
	pullmsg_says 1 "refused: ref starts with '+'" ref +master
	pullmsg_says 1 "refused: empty ref" ref ''
}

@test "stat names are git's own: pprint_rename's braces and quote_c_style" {
	git init -q repo && cd repo
	mkdir -p a/b/c x d1 same/deep/er
	for f in a/b/c/f x/f top d1/keep same/deep/er/g 'tab	name' 'dq"name' \
		"$(printf 'caf\303\251')" 'sp ace'; do
		seq 1 50 | sed "s|^|$f |" >"$f"
	done
	commit_all base
	mkdir -p a/z/c x/y d2 other
	git mv a/b/c/f a/z/c/f
	git mv x/f x/y/f
	git mv top d2/top
	git mv d1/keep other/kept
	git mv same/deep/er/g same/g
	git mv 'tab	name' 'tab	renamed'
	git mv 'dq"name' plain
	git mv "$(printf 'caf\303\251')" cafe
	git mv 'sp ace' 'sp ace2'
	commit_all renames
	for quotepath in true false; do
		opt=
		[ $quotepath = true ] || opt=--no-quotepath
		git diff -M --numstat -z HEAD~ HEAD |
		while IFS= read -r -d '' rec; do
			IFS= read -r -d '' from
			IFS= read -r -d '' to
			"$PULLMSG" stat-name $opt "$to" "$from"
		done | sort >"$BATS_TEST_TMPDIR/actual"
		git -c core.quotePath=$quotepath diff -M --stat=1000,1000 HEAD~ HEAD |
			sed -n 's/^ \(.*[^ ]\) *| .*/\1/p' | sort | expect_stdout
	done
}

@test "an abbreviated name matches by its tail, from a '/' on" {
	pullmsg_says 0 abbreviated match '.../c/file.c' a/b/c/file.c
	pullmsg_says 0 abbreviated match '...file.c' longfile.c
	pullmsg_says 1 no match '.../c/file.c' a/b/x/file.c
	pullmsg_says 1 no match '...c/file.c' a/b/c/file.c
	pullmsg_says 0 abbreviated match '.../{f.c => g.c}' dir/g.c dir/f.c
	pullmsg_says 0 exact match 'dir/{f.c => g.c}' dir/g.c dir/f.c
	pullmsg_says 1 no match 'dir/g.c' dir/g.c dir/f.c
}
