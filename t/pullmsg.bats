#!/usr/bin/env bats
# lib/pullmsg.c through t/helper/test-pullmsg: pull requests written by
# the real git request-pull on the document's histories, sent through
# what mail does to them (t/lib/mail.bash), parsed, and compared with
# what git itself says of the same commits (the merge base, the tip,
# git diff -M --numstat and --shortstat, the blob sizes).  Then the
# checks of the URL and ref, and the names git diff --stat prints.

load test_helper
load lib/histories
load lib/mail

setup() {
	setup_world
	PULLMSG=$TOP/t/helper/test-pullmsg
	[ -x "$PULLMSG" ] || {
		echo "build it first: make t/helper/test-pullmsg" >&2
		return 1
	}
	PUB=$BATS_TEST_TMPDIR/pub.git
	URL=file://$PUB
}

# publish <ref>...: push to the bare repository at $URL.
publish() {
	[ -d "$PUB" ] || git init -q --bare "$PUB"
	git push -q "$PUB" "$@"
}

# request_pull [-p] <start> <end>: git request-pull into the file "request".
request_pull() {
	local p=
	if [ "$1" = -p ]; then
		p=-p
		shift
	fi
	git request-pull $p "$1" "$URL" "$2" >"$BATS_TEST_TMPDIR/request"
}

# parse <file> <out>: test-pullmsg parse of the file.
parse() {
	"$PULLMSG" parse <"$1" >"$2"
}

# fields <parsed>: what the parse says of the request(s), headers aside.
fields() {
	grep -v -e '^subject ' -e '^from ' -e '^message-id ' -e '^date ' "$1"
}

# check_rows <parsed> <base> <tip>: the rows are git diff -M --numstat
# of base..tip, file by file, in order: a text row's N is added +
# deleted, a binary row's sizes are the blobs', and each printed name
# stands for its file (test-pullmsg match); when the name is whole,
# the path (and a rename's source) are the file's.  The total is git's
# --shortstat, and there are as many summary lines as git's --summary.
check_rows() {
	local parsed=$1 base=$2 tip=$3 i=0 rec added deleted path from row
	local name n old new shortstat
	local -a rows=()
	mapfile -t rows < <(grep '^row ' "$parsed")
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
			old=$(git cat-file -s "$base:${from:-$path}" 2>/dev/null || echo 0)
			new=$(git cat-file -s "$tip:$path" 2>/dev/null || echo 0)
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
		"$PULLMSG" match "$name" "$path" "$from" >/dev/null ||
			{ echo "row $i: '$name' is not $from -> $path" >&2; return 1; }
		case $name in
		...*)	continue ;;
		esac
		grep -A2 -Fx "$row" "$parsed" >"$BATS_TEST_TMPDIR/paths"
		if ! grep -Fqx "  path $path" "$BATS_TEST_TMPDIR/paths" ||
		   { [ -n "$from" ] && ! grep -Fqx "  from $from" "$BATS_TEST_TMPDIR/paths"; }; then
			echo "row $i: paths of '$name' are not $from -> $path" >&2
			return 1
		fi
	done < <(git diff -M --numstat -z "$base" "$tip")
	[ "$i" -eq "${#rows[@]}" ] ||
		{ echo "$i files, ${#rows[@]} rows" >&2; return 1; }
	shortstat=$(git diff -M --shortstat "$base" "$tip" |
		sed -E 's/^ ([0-9]+) files? changed(, ([0-9]+) insertions?\(\+\))?(, ([0-9]+) deletions?\(-\))?$/\1 \3 \5/')
	read -r n added deleted <<<"$shortstat"
	grep -Fqx "total $n ${added:-0} ${deleted:-0}" "$parsed" ||
		{ echo "git: total $n ${added:-0} ${deleted:-0}" >&2; return 1; }
	[ "$(grep -c '^summary ' "$parsed")" -eq \
	  "$(git diff -M --summary "$base" "$tip" | wc -l)" ]
}

# check_request <parsed> <start> <end> [<ref>]: the parse holds the
# request of <end> from <start> over $URL: request-pull's merge base,
# the tip, the URL, the ref (default <end>), git's subjects, the rows.
check_request() {
	local parsed=$1 base tip ref=${4-$3} want
	base=$(git merge-base "$2" "$3") && tip=$(git rev-parse "$3^{commit}") ||
		return
	! grep '^error ' "$parsed" || return
	for want in "base $base" "tip $tip" "url $URL" \
		"base-subject $(git log -1 --format='%s (%ci)' "$base")" \
		"tip-subject $(git log -1 --format='%s (%ci)' "$tip")"; do
		grep -Fqx "$want" "$parsed" || { echo "no '$want'" >&2; return 1; }
	done
	if [ -n "$ref" ]; then
		grep -Fqx "ref $ref" "$parsed" || { echo "no 'ref $ref'" >&2; return 1; }
	else
		! grep '^ref ' "$parsed" || return
	fi
	check_rows "$parsed" "$base" "$tip"
}

# A topic with what --stat prints in each of its ways: a path longer
# than the 80 columns (abbreviated), renames ({a => b}, a => b, with a
# mode change), binary files added, changed and deleted.
history_stat_shapes() {
	history_simple_topic "$@" || return
	local deep=drivers/gpu/drm/amd/display/dc/dml/dcn32/display_mode_vba_util_32_and_a_long_tail
	mkdir -p "$deep" doc
	printf 'one\ntwo\n' >"$deep/calc.c"
	printf 'x\0binary\n' >old.bin
	printf 'y\0binary\n' >changed.bin
	seq 1 40 >doc/moved.txt
	seq 1 20 >doc/deeper.txt
	seq 1 30 >script
	git add -A && test_tick && git commit -q -m "mainline files"
	git checkout -q topic && git merge -q --no-edit main && git checkout -q main
	git checkout -q topic
	printf 'one\ntwo\nthree\n' >"$deep/calc.c"
	seq 100 130 >"$deep/a_second_file_with_a_name_long_enough.c"
	git mv doc/moved.txt doc/renamed.txt
	mkdir doc/sub && git mv doc/deeper.txt doc/sub/deeper.txt
	git mv script tools/script 2>/dev/null || { mkdir tools && git mv script tools/script; }
	chmod +x tools/script
	git rm -q old.bin
	printf 'y\0binary, longer\n' >changed.bin
	printf 'z\0new\n' >new.bin
	git add -A && test_tick && git commit -q -m "stat shapes"
	git checkout -q main
}

@test "a request-pull text: base, URL, ref, tip and every row as git counts them" {
	history_simple_topic repo
	publish main topic
	request_pull main topic
	parse "$BATS_TEST_TMPDIR/request" parsed
	check_request parsed main topic
	grep -Fqx 'message 1' parsed
	[ "$(grep -c '^message ' parsed)" -eq 1 ]
}

@test "the document's messy request: request-pull's own merge base and rows" {
	history_pulled_part repo
	publish main topic
	request_pull main topic
	parse "$BATS_TEST_TMPDIR/request" parsed
	check_request parsed main topic
	# the rows are the messy ones: more files than pulling changes
	[ "$(grep -c '^row ' parsed)" -gt \
	  "$(procedure_diffstat main topic --numstat | wc -l)" ]
}

@test "a greeting before and a signature after do not change the request" {
	history_simple_topic repo
	publish main topic
	request_pull main topic
	parse "$BATS_TEST_TMPDIR/request" plain
	{
		printf 'Hi Linus,\n\nplease pull; the fix is described below:\n\n'
		cat "$BATS_TEST_TMPDIR/request"
		printf '\nThanks,\n-- \nA U Thor\n 1 file changed, 1 insertion(+)\n'
	} >mail
	parse mail parsed
	test_cmp plain parsed
}

@test "an RFC 822 message: Subject decoded (RFC 2047, folded), From, Message-Id" {
	history_simple_topic repo
	publish main topic
	request_pull main topic
	mail_message 7bit \
		'Subject: =?UTF-8?B?W0dJVCBQVUxMXQ==?=' \
		' =?utf-8?q?_ext4_f=C3=BCr_vN?= (=?iso-8859-1?q?gr=FC=DFe?=)' \
		'Message-Id: <pull-1@example.com>' \
		<"$BATS_TEST_TMPDIR/request" >mail
	parse mail parsed
	check_request parsed main topic
	grep -Fqx 'subject [GIT PULL] ext4 für vN (grüße)' parsed
	grep -Fqx 'from A U Thor <author@example.com>' parsed
	grep -Fqx 'message-id <pull-1@example.com>' parsed
	grep -Fqx 'date Thu, 7 Apr 2005 15:14:13 -0700' parsed
}

@test "quoted-printable: the same request as the text it encodes" {
	history_stat_shapes repo
	publish main topic
	request_pull main topic
	parse "$BATS_TEST_TMPDIR/request" plain
	mail_message quoted-printable 'Subject: [GIT PULL] qp' \
		<"$BATS_TEST_TMPDIR/request" >mail
	grep -q '=$' mail		# long rows got soft line breaks
	parse mail parsed
	fields plain >expect
	fields parsed >actual
	test_cmp expect actual
	check_request parsed main topic
}

@test "base64: the same request as the text it encodes" {
	history_stat_shapes repo
	publish main topic
	request_pull main topic
	parse "$BATS_TEST_TMPDIR/request" plain
	mail_message base64 'Subject: [GIT PULL] base64' \
		<"$BATS_TEST_TMPDIR/request" >mail
	run ! grep -q 'following changes' mail
	parse mail parsed
	fields plain >expect
	fields parsed >actual
	test_cmp expect actual
}

@test "CRLF line ends, in the message and inside a base64 body" {
	history_stat_shapes repo
	publish main topic
	request_pull main topic
	parse "$BATS_TEST_TMPDIR/request" plain
	fields plain >expect
	mail_message 7bit 'Subject: [GIT PULL] crlf' \
		<"$BATS_TEST_TMPDIR/request" | mail_crlf >mail
	parse mail parsed
	fields parsed >actual
	test_cmp expect actual
	grep -Fqx 'subject [GIT PULL] crlf' parsed
	mail_crlf <"$BATS_TEST_TMPDIR/request" |
		mail_message base64 'Subject: [GIT PULL] crlf' | mail_crlf >mail64
	parse mail64 parsed64
	fields parsed64 >actual
	test_cmp expect actual
}

@test "format=flowed: stuffed and soft-broken lines are joined again" {
	history_stat_shapes repo
	publish main topic
	request_pull main topic
	parse "$BATS_TEST_TMPDIR/request" plain
	{
		mail_headers 'Subject: [GIT PULL] flowed' \
			'Content-Type: text/plain; charset=utf-8; format=flowed'
		echo
		mail_flowed <"$BATS_TEST_TMPDIR/request"
	} >mail
	grep -q '^  ' mail		# rows are space-stuffed
	grep -q ' $' mail		# long rows are soft-broken
	parse mail parsed
	fields plain >expect
	fields parsed >actual
	test_cmp expect actual
}

# other_request: the request of another branch, "other", from main.
other_request() {
	git checkout -q -b other vN-rc3
	test_commit "other: work" lib/other.c other
	git checkout -q main
	publish other
	request_pull main other
	mv "$BATS_TEST_TMPDIR/request" "$BATS_TEST_TMPDIR/other-request"
}

@test "multipart/mixed: the first text/plain part that holds a request, not the attachments" {
	history_simple_topic repo
	publish main topic
	other_request
	request_pull main topic
	echo 'Hi, the request follows.' | mail_part 'text/plain; charset=us-ascii' 7bit >p1
	mail_part 'text/plain; charset=utf-8' quoted-printable \
		<"$BATS_TEST_TMPDIR/request" >p2
	mail_part 'text/plain; name="old-request.txt"' base64 \
		<"$BATS_TEST_TMPDIR/other-request" >p3
	printf '\0\1\2' | mail_part application/octet-stream base64 >p4
	{
		mail_headers 'Subject: [GIT PULL] mixed'
		mail_multipart mixed 'b-1=_x' p1 p2 p3 p4
	} >mail
	parse mail parsed
	check_request parsed main topic
}

@test "multipart/alternative with text/html first: the text/plain part" {
	history_simple_topic repo
	publish main topic
	other_request
	request_pull main topic
	{ echo '<html><pre>'; cat "$BATS_TEST_TMPDIR/other-request"; echo '</pre></html>'; } |
		mail_part 'text/html; charset=utf-8' quoted-printable >html
	mail_part 'text/plain; charset=utf-8' 8bit <"$BATS_TEST_TMPDIR/request" >text
	{
		mail_headers 'Subject: [GIT PULL] alternative'
		mail_multipart alternative alt-boundary html text
	} >mail
	parse mail parsed
	check_request parsed main topic
}

@test "nested multipart, a boundary unquoted, CRLF, base64 inside" {
	history_simple_topic repo
	publish main topic
	other_request
	request_pull main topic
	echo '<p>html</p>' | mail_part text/html 7bit >html
	mail_part 'text/plain; charset=utf-8' base64 <"$BATS_TEST_TMPDIR/request" >text
	{
		echo 'Content-Type: multipart/alternative; boundary=inner.42'
		echo
		printf -- '--inner.42\n'
		cat html
		printf -- '\n--inner.42\n'
		cat text
		printf -- '\n--inner.42--\n'
	} >alternative
	mail_part text/plain base64 <"$BATS_TEST_TMPDIR/other-request" >attachment
	{
		mail_headers 'Subject: [GIT PULL] nested'
		mail_multipart mixed outer alternative attachment
	} | mail_crlf >mail
	parse mail parsed
	check_request parsed main topic
}

@test "a forwarded request (message/rfc822) is looked into" {
	history_simple_topic repo
	publish main topic
	request_pull main topic
	echo 'FYI, see the attached request.' | mail_part text/plain 7bit >note
	mail_message quoted-printable 'Subject: [GIT PULL] inner' \
		<"$BATS_TEST_TMPDIR/request" >inner
	{ echo 'Content-Type: message/rfc822'; echo; cat inner; } >forward
	{
		mail_headers 'Subject: Fwd: [GIT PULL] inner'
		mail_multipart mixed fwd note forward
	} >mail
	parse mail parsed
	check_request parsed main topic
	grep -Fqx 'subject Fwd: [GIT PULL] inner' parsed
}

@test "an mbox: one result per message, '>From ' unquoted, a reply without a request named" {
	history_simple_topic repo
	git tag -a -m 'ext4 for vN

From the desk of A U Thor: all of ext4.' for-linus topic
	publish main topic for-linus
	other_request
	request_pull main topic
	mail_message quoted-printable 'Subject: [GIT PULL] one' \
		'Message-Id: <one@example.com>' <"$BATS_TEST_TMPDIR/request" >m1
	sed 's/^/> /' "$BATS_TEST_TMPDIR/request" |
		mail_message 7bit 'Subject: Re: [GIT PULL] one' >m2
	request_pull main for-linus
	mail_message 8bit 'Subject: [GIT PULL] two' <"$BATS_TEST_TMPDIR/request" >m3
	mail_mbox m1 m2 m3 >mbox
	grep -q '^>From the desk' mbox
	parse mbox parsed
	[ "$(sed -n 1p parsed)" = mbox ]
	[ "$(grep -c '^message ' parsed)" -eq 3 ]
	sed -n '/^message 1$/,/^message 2$/p' parsed >one
	check_request one main topic
	grep -Fqx 'message-id <one@example.com>' one
	sed -n '/^message 2$/,/^message 3$/p' parsed >two
	grep -Fqx "error no 'The following changes since commit' line" two
	sed -n '/^message 3$/,$p' parsed >three
	check_request three main for-linus tags/for-linus
	grep -Fqx 'tag-message ext4 for vN\n\nFrom the desk of A U Thor: all of ext4.' three
}

@test "paths longer than the stat's width: '.../tail' rows still stand for their files" {
	history_stat_shapes repo
	publish main topic
	request_pull main topic
	grep -q '^ \.\.\./.* | ' "$BATS_TEST_TMPDIR/request"
	parse "$BATS_TEST_TMPDIR/request" parsed
	grep -q '^row [0-9]* \.\.\./' parsed
	check_request parsed main topic
}

@test "a sender's core.quotePath=false: UTF-8 names, abbreviated, still match" {
	history_simple_topic repo
	git checkout -q topic
	deep=$(printf 'dokumentation/übersetzungen/%.0s' 1 2 3)
	mkdir -p "$deep"
	echo text >"$deep/größenänderung.txt"
	echo text >"$(printf 'caf\303\251').txt"
	git add -A && test_tick && git commit -q -m "utf-8 names"
	git checkout -q main
	publish main topic
	git -c core.quotePath=false request-pull main "$URL" topic \
		>"$BATS_TEST_TMPDIR/request"
	grep -q 'café.txt' "$BATS_TEST_TMPDIR/request"
	grep -q '^ \.\.\./' "$BATS_TEST_TMPDIR/request"
	parse "$BATS_TEST_TMPDIR/request" parsed
	check_request parsed main topic
}

@test "renames: {a => b} and a => b give both paths, a mode change after a rename has no name" {
	history_stat_shapes repo
	publish main topic
	request_pull main topic
	parse "$BATS_TEST_TMPDIR/request" parsed
	check_request parsed main topic
	grep -Fqx 'row 0 doc/{moved.txt => renamed.txt}' parsed
	grep -A2 -Fx 'row 0 doc/{ => sub}/deeper.txt' parsed |
		grep -Fqx '  from doc/deeper.txt'
	grep -Fqx 'row 0 script => tools/script' parsed
	grep -A2 -Fx 'summary rename 100% script => tools/script' parsed >renamed
	cat >expect <<-'EOF'
	summary rename 100% script => tools/script
	  path tools/script
	  from script
	EOF
	test_cmp expect renamed
	grep -A1 -Fx '  from script' parsed | grep -Fqx 'summary mode-change 100644 100755'
}

@test "binary files: 'Bin <old> -> <new> bytes' with git's blob sizes" {
	history_stat_shapes repo
	publish main topic
	request_pull main topic
	parse "$BATS_TEST_TMPDIR/request" parsed
	[ "$(grep -c '^row bin ' parsed)" -eq 3 ]
	check_request parsed main topic
}

@test "an annotated tag: the tag message section and the tags/ ref" {
	history_simple_topic repo
	git tag -a -m 'ext4 for vN

The extents work, and the directory fix.' for-linus topic
	publish main for-linus
	request_pull main for-linus
	parse "$BATS_TEST_TMPDIR/request" parsed
	check_request parsed main for-linus tags/for-linus
	msg=$(git cat-file tag for-linus | sed '1,/^$/d' | sed -e ':a' -e 'N;$!ba' -e 's/\n/\\n/g')
	grep -Fqx "tag-message $msg" parsed
	grep -Fqx "shortlog $(git shortlog main..topic | sed -e ':a' -e 'N;$!ba' -e 's/\n$//' -e 's/\n/\\n/g')" parsed
}

@test "a signed tag: the request and its tag message, the signature aside or not" {
	command -v ssh-keygen >/dev/null || skip "no ssh-keygen"
	history_simple_topic repo
	ssh-keygen -q -t ed25519 -N '' -C tester -f "$HOME/key"
	git config gpg.format ssh
	git config user.signingKey "$HOME/key.pub"
	git tag -s -m 'signed ext4 for vN' for-linus topic
	git cat-file tag for-linus | grep -q 'BEGIN SSH SIGNATURE'
	publish main for-linus
	request_pull main for-linus
	parse "$BATS_TEST_TMPDIR/request" parsed
	check_request parsed main for-linus tags/for-linus
	grep -q '^tag-message signed ext4 for vN' parsed
}

@test "a branch description section" {
	history_simple_topic repo
	git config branch.topic.description 'The ext4 topic.'
	publish main topic
	request_pull main topic
	grep -q '^(from the branch description for topic' "$BATS_TEST_TMPDIR/request"
	parse "$BATS_TEST_TMPDIR/request" parsed
	check_request parsed main topic
	grep -Fqx 'description The ext4 topic.' parsed
	run ! grep -q '^tag-message ' parsed
}

@test "request-pull -p: the patch after the diffstat, even one that looks like a diffstat, is not it" {
	history_simple_topic repo
	git checkout -q -b base vN-rc2
	mkdir -p fs/ext4
	{
		seq 1 5
		echo '----------------------------------------------------------------'
		echo 'x | 1 +'
		echo '1 file changed, 1 insertion(+)'
	} >fs/ext4/notes
	git add -A && test_tick && git commit -q -m notes
	git checkout -q topic && git merge -q --no-edit base
	echo changed >>fs/ext4/notes
	git commit -q -am "notes: more"
	git checkout -q main && git merge -q --no-edit base
	publish main topic
	request_pull -p main topic
	grep -qx ' 1 file changed, 1 insertion(+)' "$BATS_TEST_TMPDIR/request"
	parse "$BATS_TEST_TMPDIR/request" parsed
	check_request parsed main topic
	grep -qx patch parsed
	request_pull main topic
	parse "$BATS_TEST_TMPDIR/request" without
	grep -vx patch parsed >actual
	test_cmp without actual
}

@test "a diffstat quoted in the tag message is passed over" {
	history_simple_topic repo
	git tag -a -F - for-linus topic <<-'EOF'
	ext4 for vN

	Last time's diffstat was:

	 fs/ext4/old.c | 2 +-
	 1 file changed, 1 insertion(+), 1 deletion(-)
	EOF
	publish main for-linus
	request_pull main for-linus
	parse "$BATS_TEST_TMPDIR/request" parsed
	check_request parsed main for-linus tags/for-linus
	run ! grep -q 'row 2 fs/ext4/old.c' parsed
}

@test "no ref on the URL line: the URL alone (the remote's HEAD)" {
	history_simple_topic repo
	publish main topic
	git checkout -q topic
	run git request-pull main "$URL"
	printf '%s\n' "$output" >request
	grep -qx "  $URL " request
	parse request parsed
	grep -Fqx "url $URL" parsed
	run ! grep -q '^ref ' parsed
}

@test "a SHA-256 repository: 64-digit ids" {
	git init -q --object-format=sha256 repo
	cd repo
	test_commit base file one
	git checkout -q -b topic
	test_commit work file two
	git checkout -q main
	test_commit upstream other three
	git init -q --bare --object-format=sha256 "$PUB"
	publish main topic
	request_pull main topic
	parse "$BATS_TEST_TMPDIR/request" parsed
	check_request parsed main topic
	[ "$(grep '^tip ' parsed | wc -c)" -eq $((4 + 64 + 1)) ]
}

# no_request <file> <error>: the file holds no request, for that reason.
no_request() {
	parse "$1" parsed
	grep -Fx "error $2" parsed
}

@test "an empty input: one message without a request" {
	: >empty
	parse empty parsed
	printf '%s\n' 'message 1' "error no 'The following changes since commit' line" >expect
	test_cmp expect parsed
}

@test "no request at all: names the first line missing" {
	printf 'Hi,\n\nplease pull my tree.\n' >mail
	no_request mail "no 'The following changes since commit' line"
}

@test "no repository line: named" {
	history_simple_topic repo
	publish main topic
	request_pull main topic
	sed '/are available in the Git repository at:/d' "$BATS_TEST_TMPDIR/request" >mail
	no_request mail "no 'are available in the Git repository at:' line"
}

@test "no URL after the repository line: named" {
	history_simple_topic repo
	publish main topic
	request_pull main topic
	grep -v "^  $URL" "$BATS_TEST_TMPDIR/request" >mail
	no_request mail "no repository URL after 'are available in the Git repository at:'"
}

@test "no 'up to' line: named" {
	history_simple_topic repo
	publish main topic
	request_pull main topic
	grep -v '^for you to fetch' "$BATS_TEST_TMPDIR/request" >mail
	no_request mail "no 'for you to fetch changes up to' line"
}

@test "a malformed commit id: named" {
	history_simple_topic repo
	publish main topic
	request_pull main topic
	sed 's/^\(The following changes since commit \)[0-9a-f]*/\1xyz/' \
		"$BATS_TEST_TMPDIR/request" >mail
	no_request mail "no commit id after 'The following changes since commit'"
}

@test "no diffstat: named" {
	history_simple_topic repo
	publish main topic
	request_pull main topic
	sed '/^ .* | /,$d' "$BATS_TEST_TMPDIR/request" >mail
	no_request mail "no diffstat (no ' N files changed' line)"
}

@test "a stat row broken by a mail client: the rows do not add up, said so" {
	history_stat_shapes repo
	publish main topic
	request_pull main topic
	sed '/^ fs\/ext4\/dir.c /s/ *|/\n&/' "$BATS_TEST_TMPDIR/request" >mail
	grep -q '^ *|  *1 +$' mail
	no_request mail "the diffstat's rows do not add up to its 'files changed' line"
}

@test "URLs of the transports a maintainer pulls over are accepted" {
	for url in https://git.kernel.org/pub/scm/linux/kernel/git/tip/tip.git \
		http://example.com/repo.git git://git.kernel.org/pub/scm/git/git.git \
		ssh://git@example.com:2222/srv/repo.git git@example.com:srv/repo.git \
		'example.com:~user/repo' 'ssh://[::1]/repo'; do
		"$PULLMSG" url "$url"
	done
	run "$PULLMSG" url git@example.com:repo
	[ "$output" = "ok scp" ]
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
		run "$PULLMSG" url "$url"
		[ "$status" -eq 1 ] || { echo "accepted: $url" >&2; return 1; }
		[[ $output = "refused: "* ]]
	done
	run "$PULLMSG" url ''
	[ "$output" = "refused: empty URL" ]
}

@test "file:// and local paths only with allow-local" {
	run "$PULLMSG" url file:///srv/repo.git
	[ "$output" = "refused: local repository (file://) refused without allow-local" ]
	run "$PULLMSG" url ../repo
	[ "$output" = "refused: local repository path refused without allow-local" ]
	run "$PULLMSG" url --allow-local file:///srv/repo.git
	[ "$output" = "ok file" ]
	run "$PULLMSG" url --allow-local ../repo
	[ "$output" = "ok local" ]
	run "$PULLMSG" url --allow-local ./-repo
	[ "$output" = "ok local" ]
	run "$PULLMSG" url --allow-local -repo
	[ "$status" -eq 1 ]
	run "$PULLMSG" url --allow-local 'ext::sh'
	[ "$status" -eq 1 ]
}

@test "refs: the verdict of git check-ref-format --allow-onelevel, and never '-' or '+' first" {
	for ref in master tags/v1.0 for-linus HEAD a/b/c 'a b' 'a..b' 'a.' \
		'.a' 'a/.b' a.lock a/b.lock/c '@' '@{u}' 'a@b' 'x@{' 'a//b' '/a' \
		'a/' 'a:b' 'a?b' 'a*' 'a[b' 'a\b' 'a^b' 'a~1' "$(printf 'a\tb')" \
		"$(printf 'a\177b')" 'ü/ref' 'a.b.' 'x..' 'v1.0' 'a/.' '.' ..; do
		if git check-ref-format --allow-onelevel "$ref"; then want=0; else want=1; fi
		run "$PULLMSG" ref "$ref"
		[ "$status" -eq "$want" ] || { echo "'$ref': git $want, $output" >&2; return 1; }
	done
	run "$PULLMSG" ref -x
	[ "$output" = "refused: ref starts with '-'" ]
	run "$PULLMSG" ref +master
	[ "$output" = "refused: ref starts with '+'" ]
	run "$PULLMSG" ref ''
	[ "$output" = "refused: empty ref" ]
}

@test "stat names are git's own: pprint_rename's braces and quote_c_style" {
	git init -q repo && cd repo
	mkdir -p a/b/c x d1 same/deep/er
	for f in a/b/c/f x/f top d1/keep same/deep/er/g 'tab	name' 'dq"name' \
		"$(printf 'caf\303\251')" 'sp ace'; do
		seq 1 50 | sed "s|^|$f |" >"$f"
	done
	git add -A && test_tick && git commit -q -m base
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
	test_tick && git commit -q -m renames
	for quotepath in true false; do
		git -c core.quotePath=$quotepath diff -M --stat=1000,1000 HEAD~ HEAD |
			sed -n 's/^ \(.*[^ ]\) *| .*/\1/p' | sort >expect
		opt=
		[ $quotepath = true ] || opt=--no-quotepath
		git diff -M --numstat -z HEAD~ HEAD |
		while IFS= read -r -d '' rec; do
			IFS= read -r -d '' from
			IFS= read -r -d '' to
			"$PULLMSG" stat-name $opt "$to" "$from"
		done | sort >actual
		test_cmp expect actual
	done
}

@test "an abbreviated name matches by its tail, from a '/' on" {
	"$PULLMSG" match '.../c/file.c' a/b/c/file.c
	"$PULLMSG" match '...file.c' longfile.c
	run "$PULLMSG" match '.../c/file.c' a/b/x/file.c
	[ "$output" = no ]
	run "$PULLMSG" match '...c/file.c' a/b/c/file.c
	[ "$output" = no ]
	run "$PULLMSG" match '.../{f.c => g.c}' dir/g.c dir/f.c
	[ "$output" = abbreviated ]
	run "$PULLMSG" match 'dir/{f.c => g.c}' dir/g.c dir/f.c
	[ "$output" = exact ]
	run "$PULLMSG" match 'dir/g.c' dir/g.c dir/f.c
	[ "$output" = no ]
}
