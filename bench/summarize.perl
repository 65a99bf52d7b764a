#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# Turn the files bench/run left in OUT into the results table (markdown).
# usage: summarize.perl OUT

use strict;
use warnings;
use JSON::PP;

my $out = shift or die "usage: summarize.perl OUT\n";

sub slurp {
	my ($f) = @_;
	open(my $fh, '<', $f) or die "summarize.perl: $f: $!\n";
	local $/;
	my $s = <$fh>;
	close($fh);
	return $s;
}

sub fields {
	my ($f) = @_;
	my %h;
	return \%h if !-f $f;
	for (split /\n/, slurp($f)) {
		if (/^(same|differs) (\S+)(?: (\d+))?$/) {
			$h{"out:$2"} = $1 eq 'same' ? 'same' : "differs ($3 files)";
		} elsif (/^([^:]+): (.*)$/) {
			$h{$1} = $2;
		}
	}
	return \%h;
}

sub median {
	my @s = sort { $a <=> $b } @_;
	my $n = @s;
	return $n % 2 ? $s[$n / 2] : ($s[$n / 2 - 1] + $s[$n / 2]) / 2;
}

sub fmt {
	my ($t) = @_;
	return '-' if !defined $t;
	return sprintf('%.2f s', $t) if $t >= 1;
	return sprintf('%.1f ms', $t * 1000);
}

sub ratio { my ($a, $b) = @_; return defined $a && defined $b && $b > 0 ? $a / $b : undef }

my @rows = (
	['tool', '1', '`git clean-diffstat <up> <head>`'],
	['floor-diff-tree', '2a', 'floor: `merge-tree --write-tree` + `diff-tree -C --stat --summary`'],
	['floor-git-diff', '2b', 'floor: `merge-tree --write-tree` + `git diff -C --stat --summary`'],
	['request-pull', '3', "request-pull's: `merge-base` + `diff -M --stat --summary`"],
	['worktree', '4', 'procedure in a new linked worktree (add, merge, diff, remove)'],
	['in-place', '5', 'procedure in place (checkout -b TEMP, merge, diff, checkout back, branch -D)'],
);

my @pairs;
opendir(my $dh, $out) or die "summarize.perl: $out: $!\n";
my @files = sort readdir($dh);
closedir($dh);
for my $f (@files) {
	push @pairs, $1 if $f =~ /^pair(\d+)\.check$/;
}
@pairs = sort { $a <=> $b } @pairs;

my $m = fields("$out/machine.txt");
print "Machine: $m->{cpu}, $m->{nproc} CPUs, $m->{memory}; $m->{kernel}; $m->{git}; $m->{tool}; hyperfine $m->{hyperfine} ($m->{date}).\n";
print "Repository: $m->{repo}.\n";
print "Timing: rounds $m->{rounds}; each round times every row in turn; medians, min and max over all runs.\n\n";

my (@summary, @verdicts);
for my $p (@pairs) {
	my $c = fields("$out/pair$p.check");
	my $rss = fields("$out/pair$p.rss");
	my %t;
	for my $f (grep { /^pair$p\.round\d+\.(fast|slow)\.json$/ } @files) {
		my $j = decode_json(slurp("$out/$f"));
		push @{$t{$_->{command}}}, @{$_->{times}} for @{$j->{results}};
	}
	my %med = map { $_ => median(@{$t{$_}}) } keys %t;
	my $label = "`$c->{pair}` ($c->{'merge bases'} merge base" . ($c->{'merge bases'} == 1 ? '' : 's')
		. ", $c->{files} files)";
	print "### $label\n\n";
	print "| # | what | median | min | max | runs | output vs procedure |\n";
	print "|---|---|---:|---:|---:|---:|---|\n";
	for my $r (@rows) {
		my ($name, $num, $what) = @$r;
		my $s = $t{$name} or next;
		my @s = sort { $a <=> $b } @$s;
		my $o = $name eq 'worktree' ? 'the reference' : $c->{"out:$name"} // '?';
		$what .= ", rewrote $c->{rewritten} files" if $name eq 'in-place';
		printf "| %s | %s | %s | %s | %s | %d | %s |\n", $num, $what, fmt($med{$name}),
			fmt($s[0]), fmt($s[-1]), scalar @s, $o;
	}
	print "\n";
	if (-s "$out/pair$p.decompose") {
		print "Where the tool's time over the floor goes (bench/decompose.perl: interleaved, no shell):\n\n";
		print "```\n", slurp("$out/pair$p.decompose"), "```\n\n";
	}
	my %ra = (
		'1/2a' => ratio($med{tool}, $med{'floor-diff-tree'}),
		'1/2b' => ratio($med{tool}, $med{'floor-git-diff'}),
		'1/3' => ratio($med{tool}, $med{'request-pull'}),
		'4/1' => ratio($med{worktree}, $med{tool}),
		'5/1' => ratio($med{'in-place'}, $med{tool}),
	);
	push @summary, [$c->{pair}, \%ra, $rss];
	push @verdicts, [$c->{pair}, \%ra, $rss];
}

print "### Ratios of medians and peak RSS\n\n";
print "| pair | 1/2a | 1/2b | 1/3 | 4/1 | 5/1 | tool's own peak RSS | /usr/bin/time %M of the tool | merge-tree's peak RSS |\n";
print "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
for my $s (@summary) {
	my ($pair, $ra, $rss) = @$s;
	my @r = map { defined $ra->{$_} ? sprintf($_ =~ /^1/ ? '%.3f' : '%.0fx', $ra->{$_}) : '-' }
		qw(1/2a 1/2b 1/3 4/1 5/1);
	printf "| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |\n", $pair, @r,
		map { defined $_ ? sprintf('%.1f MiB', $_ / 1024) : '-' }
			$rss->{'tool-vmhwm-kb'}, $rss->{'tool-time-kb'}, $rss->{'merge-tree-kb'};
}
print "\n";

print "### Targets\n\n";
for my $v (@verdicts) {
	my ($pair, $ra, $rss) = @$v;
	my @say;
	my $yn = sub { return $_[0] ? 'met' : 'NOT met' };
	push @say, sprintf('1/2b = %.3f (<= 1.05: %s; vs diff-tree 1/2a = %.3f)', $ra->{'1/2b'},
		$yn->($ra->{'1/2b'} <= 1.05), $ra->{'1/2a'})
		if defined $ra->{'1/2b'} && defined $ra->{'1/2a'};
	push @say, sprintf('4/1 = %.0fx (>= 100x: %s)', $ra->{'4/1'}, $yn->($ra->{'4/1'} >= 100))
		if defined $ra->{'4/1'};
	push @say, sprintf('own peak RSS %.2f MiB (< 4 MiB: %s)', $rss->{'tool-vmhwm-kb'} / 1024,
		$yn->($rss->{'tool-vmhwm-kb'} < 4096))
		if defined $rss->{'tool-vmhwm-kb'};
	print "- `$pair`: ", join('; ', @say), "\n";
}
