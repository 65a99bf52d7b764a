#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# The CPU of --verify against what a receiver runs by hand, on real mail.
#
# usage: perl bench/realpr-cpu.perl [--tool [NAME=]PATH]... [--runs N]
#                                   [--realpr DIR] [--repo DIR]
#
# For each mail of DIR/manifest.tsv (default ../shared/realpr beside the
# top directory; every mail with a diffstat), in a bare clone --shared of
# --repo (default $UBOOT_REPO) made for the run and removed after:
#
#   --verify  git-clean-diffstat --verify=<mail> --no-fetch <upstream>
#             (the binary, not through git's dispatcher)
#   by hand   git merge-tree --write-tree <upstream> <tip>, then
#             git diff -C --stat --summary <upstream> <tree>, its objects
#             in a throwaway object directory (made and removed untimed)
#
# twice: against the mail's own upstream (the commit it was pulled into)
# and against the newest upstream of the manifest, which has merged every
# tip (the "merged" class).  CPU is user + sys of each run and its
# children, from wait4(), so every git a run starts is counted.  RUNS
# runs of each (default 5), interleaved, in an order drawn anew for each
# turn of each mail; per mail the ratio of the medians; per verdict
# class (the tool's --porcelain verdict: matches, copies, messy,
# differs, merged) the median of those ratios.  With --tool given more
# than once, each tool is a column of its own, all timed in the same
# turns.

use strict;
use warnings;
use Getopt::Long;
use File::Basename qw(dirname);
use File::Path qw(remove_tree);
use File::Temp qw(tempdir);
use List::Util qw(shuffle);
use Cwd qw(abs_path);

my $here = dirname(abs_path($0));
my ($runs, $realpr, $repo, @tool_args) = (5, "$here/../../shared/realpr", $ENV{UBOOT_REPO});
GetOptions('runs=i' => \$runs, 'realpr=s' => \$realpr, 'repo=s' => \$repo,
	'tool=s' => \@tool_args)
	or die "usage: perl bench/realpr-cpu.perl [--tool [NAME=]PATH]... [--runs N] [--realpr DIR] [--repo DIR]\n";
die "bench/realpr-cpu.perl: set UBOOT_REPO or pass --repo\n" if !$repo;
$realpr = "$here/../../shared/realpr" if !-d $realpr;
-f "$realpr/manifest.tsv" or die "bench/realpr-cpu.perl: no $realpr/manifest.tsv\n";
@tool_args = ("$here/../git-clean-diffstat") if !@tool_args;
my @tools;
for my $arg (@tool_args) {
	my ($name, $path) = $arg =~ /^([^=\/]+)=(.*)$/ ? ($1, $2) : ('tool', $arg);
	die "bench/realpr-cpu.perl: no tool at $path\n" if !-x $path;
	push @tools, [$name, abs_path($path)];
}

my $tmp = tempdir('realpr-cpu.XXXXXX', DIR => $ENV{TMPDIR} || '/tmp', CLEANUP => 1);
$ENV{HOME} = $tmp;
$ENV{GIT_CONFIG_NOSYSTEM} = 1;
system('git', 'clone', '-q', '--bare', '--shared', $repo, "$tmp/repo.git") == 0
	or die "bench/realpr-cpu.perl: cannot clone $repo\n";
chdir("$tmp/repo.git") or die;
END { chdir("/") }	# so that the temporary directory can go

sub capture {
	open(my $fh, '-|', @_) or die "bench/realpr-cpu.perl: @_: $!\n";
	local $/;
	my $s = <$fh>;
	close($fh);
	return ($s // '', $? >> 8);
}

# the CPU (user + sys) in seconds of a command and its children, its
# stdout thrown away: wait4()'s rusage of it, to the microsecond (perl's
# times() counts in ticks of 10 ms, as much as a small git costs)
require 'sys/syscall.ph';
sub cpu {
	my (@cmd) = @_;
	my $pid = fork() // die "bench/realpr-cpu.perl: fork: $!\n";
	if (!$pid) {
		open(STDOUT, '>', '/dev/null') or die;
		open(STDERR, '>', '/dev/null') or die;
		exec(@cmd) or exit(127);
	}
	my ($status, $ru) = (pack('i', 0), "\0" x 256);
	syscall(&SYS_wait4, $pid + 0, $status, 0, $ru) == $pid
		or die "bench/realpr-cpu.perl: wait4: $!\n";
	my ($us, $uu, $ss, $su) = unpack('q4', $ru);
	return $us + $ss + ($uu + $su) / 1e6;
}

chomp(my $objdir = (capture(qw(git rev-parse --path-format=absolute --git-path objects)))[0]);

sub by_hand {
	my ($up, $tip) = @_;
	my $q = tempdir('objects.XXXXXX', DIR => $tmp);
	local $ENV{GIT_OBJECT_DIRECTORY} = $q;
	local $ENV{GIT_ALTERNATE_OBJECT_DIRECTORIES} = $objdir;
	my $t = cpu('git', 'merge-tree', '--write-tree', $up, $tip);
	my ($out) = capture('git', 'merge-tree', '--write-tree', $up, $tip);	# untimed: the id
	my ($tree) = $out =~ /^([0-9a-f]+)/;
	$t += cpu('git', '--no-pager', 'diff', '-C', '--stat', '--summary', $up, $tree);
	remove_tree($q);
	return $t;
}

sub median {
	my @s = sort { $a <=> $b } @_;
	return 0 if !@s;
	return @s % 2 ? $s[$#s / 2] : ($s[@s / 2 - 1] + $s[@s / 2]) / 2;
}

my @rows;
open(my $m, '<', "$realpr/manifest.tsv") or die;
while (<$m>) {
	chomp;
	my ($file, $up, $tip, $truth) = split(/\t/);
	next if $file eq 'file' || $truth eq 'error';
	push @rows, [$file, $up, $tip];
}
close($m);
# the newest upstream: the one every other is an ancestor of
my ($newest) = map { $_->[1] } grep {
	my $u = $_->[1];
	!grep { system('git', 'merge-base', '--is-ancestor', $_->[1], $u) != 0 } @rows;
} @rows;
die "bench/realpr-cpu.perl: no upstream has every other\n" if !$newest;

my @cases;
for my $r (@rows) {
	for my $up ($r->[1], $newest) {
		my ($p) = capture($tools[0][1], '--porcelain', "--verify=$realpr/$r->[0]",
			'--no-fetch', $up);
		my ($v) = $p =~ /^verdict (\S+)/m;
		next if !$v;
		my $class = $p =~ /^note copies$/m ? 'copies' : $v;
		if ($v eq 'differs') {
			my $merged = system('git', 'merge-base', '--is-ancestor', $r->[2], $up) == 0;
			$class = 'merged' if $merged;
			next if !$merged && $up eq $newest;
		}
		next if $up eq $newest && $class ne 'merged';
		push @cases, { file => $r->[0], up => $up, tip => $r->[2], class => $class,
			hand => [], map { ($_->[0] => []) } @tools };
	}
}

# each run of a case in an order of its own, drawn from a fixed seed: in
# one order kept (or only reversed) the column in the middle ran 5 to
# 10% faster than the same binary at either end
srand(1);
for my $i (1 .. $runs) {
	for my $c (@cases) {
		my @order = shuffle(undef, @tools);
		for my $t (@order) {
			if (!$t) {
				push @{$c->{hand}}, by_hand($c->{up}, $c->{tip});
			} else {
				push @{$c->{$t->[0]}}, cpu($t->[1], "--verify=$realpr/$c->{file}",
					'--no-fetch', $c->{up});
			}
		}
	}
}

printf "%-8s %-8s %8s", 'mail', 'class', 'by hand';
printf " %12s %6s", $_->[0], 'ratio' for @tools;
print "\n";
my %ratios;
for my $c (@cases) {
	my $h = median(@{$c->{hand}});
	printf "%-8s %-8s %8.3f", $c->{file}, $c->{class}, $h;
	for my $t (@tools) {
		my $v = median(@{$c->{$t->[0]}});
		my $ratio = $h > 0 ? $v / $h : 0;
		push @{$ratios{$t->[0]}{$c->{class}}}, $ratio;
		printf " %12.3f %6.2f", $v, $ratio;
	}
	print "\n";
}
print "\nmedian ratio of the CPU (user+sys, children) of --verify --no-fetch over by hand, per class\n";
for my $class (qw(matches copies messy differs merged)) {
	my @n = map { scalar @{$ratios{$_->[0]}{$class} // []} } @tools;
	next if !$n[0];
	printf "%-8s (%2d mails)", $class, $n[0];
	printf "  %s %.2f", $_->[0], median(@{$ratios{$_->[0]}{$class}}) for @tools;
	print "\n";
}
