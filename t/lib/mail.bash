# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# What mail does to a `git request-pull` text on its way to the
# receiver: the encoders of the tests of lib/pullmsg.c and of the fuzz
# corpus generator.  Each filters stdin to stdout; perl's MIME::Base64
# and MIME::QuotedPrint are core perl, as git itself needs perl.

# mail_encode <encoding>: the body in a Content-Transfer-Encoding
# (7bit, 8bit, quoted-printable, base64).
mail_encode() {
	case $1 in
	quoted-printable)
		perl -MMIME::QuotedPrint -0777 -ne 'print encode_qp($_)' ;;
	base64)
		perl -MMIME::Base64 -0777 -ne 'print encode_base64($_)' ;;
	*)
		cat ;;
	esac
}

# mail_crlf: every line end a CRLF.
mail_crlf() {
	perl -pe 's/\r?\n/\r\n/'
}

# mail_flowed: format=flowed (RFC 3676) as a mail client sends it: lines
# longer than 60 broken after a space (the space stays: a soft break),
# trailing spaces of the other lines dropped, and lines that start with
# a space, ">" or "From " space-stuffed.
mail_flowed() {
	perl -ne 'chomp; s/ +$//; my @p;
		while (length($_) > 60 && /^(.{1,59} )(.+)$/) { push @p, $1; $_ = $2 }
		for (@p, $_) { s/^([ >]|From )/ $1/; print "$_\n" }'
}

# mail_headers [<field: value>...]: the header of a message from the
# sender to the maintainer, with the fields given (Subject, Message-Id,
# Content-Type, ...) at its end; no empty line after it.
mail_headers() {
	printf '%s\n' \
		'From: A U Thor <author@example.com>' \
		'To: Main Tainer <maintainer@example.com>' \
		'Date: Thu, 7 Apr 2005 15:14:13 -0700' \
		'MIME-Version: 1.0' \
		"$@"
}

# mail_message <encoding> [<field: value>...]: stdin as a whole message,
# a text/plain body in <encoding>.
mail_message() {
	local cte=$1
	shift
	mail_headers "$@" \
		'Content-Type: text/plain; charset=utf-8' \
		"Content-Transfer-Encoding: $cte"
	echo
	mail_encode "$cte"
}

# mail_part <content-type> <encoding>: stdin as one part of a multipart.
mail_part() {
	printf 'Content-Type: %s\nContent-Transfer-Encoding: %s\n\n' "$1" "$2"
	mail_encode "$2"
}

# mail_multipart <subtype> <boundary> <file>...: the body of a
# multipart/<subtype> (its Content-Type line, an empty line, a preamble)
# with the parts in the files, each made by mail_part.
mail_multipart() {
	local subtype=$1 boundary=$2 part
	shift 2
	printf 'Content-Type: multipart/%s;\n\tboundary="%s"\n\n' \
		"$subtype" "$boundary"
	echo 'This is a multi-part message in MIME format.'
	for part in "$@"; do
		printf '\n--%s\n' "$boundary"
		cat "$part"
	done
	printf '\n--%s--\n' "$boundary"
}

# mail_mbox <file>...: the messages in the files as an mbox (mboxrd: a
# line ">*From " in a message gets one more ">").  One perl for them
# all, not one a message: each process is some 10 ms of CPU here.
mail_mbox() {
	# shellcheck disable=SC2016 # perl's variables
	perl -e 'for my $m (@ARGV) {
			open(my $f, "<", $m) or die "$m: $!\n";
			print "From author\@example.com Thu Apr  7 15:14:13 2005\n";
			while (<$f>) { s/^(>*From )/>$1/; print }
			close($f);
			print "\n";
		}' "$@"
}
