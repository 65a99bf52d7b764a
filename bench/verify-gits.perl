#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# Where the CPU of one --verify goes: each git it starts, against the
# two gits a receiver runs by hand, on one mail.
#
# usage: perl bench/verify-gits.perl [--runs N] [--tool PATH] --repo DIR
#                                    MAIL UPSTREAM
#
# In a bare clone --shared of DIR made for the run (removed after), the
# tool runs once with GIT_TRACE to learn the gits it starts for
# --verify=MAIL --no-fetch UPSTREAM; then, RUNS times (default 30),
# interleaved: the tool, each of those gits alone (git mailinfo reading
# MAIL, as the tool feeds it; every git's new objects in a throwaway
# directory), the gits by hand (git merge-tree --write-tree, then git
# diff -C --stat --summary of the tree) and /bin/true.  CPU is user +
# sys of each run and its children, from wait4().

use strict;
use warnings;
use Getopt::Long;
use File::Basename qw(dirname);
use File::Temp qw(tempdir);
use List::Util qw(shuffle);
use Cwd qw(abs_path);

my $here = dirname(abs_path($0));
my ($runs, $tool, $repo) = (30, "$here/../git-clean-diffstat");
GetOptions('runs=i' => \$runs, 'tool=s' => \$tool, 'repo=s' => \$repo)
	&& @ARGV == 2 && $repo
	or die "usage: perl bench/verify-gits.perl [--runs N] [--tool PATH] --repo DIR MAIL UPSTREAM\n";
my ($mail, $up) = (abs_path($ARGV[0]), $ARGV[1]);
$tool = abs_path($tool);

my $tmp = tempdir('verify-gits.XXXXXX', DIR => $ENV{TMPDIR} || '/tmp', CLEANUP => 1);
$ENV{HOME} = $tmp;
$ENV{GIT_CONFIG_NOSYSTEM} = 1;
system('git', 'clone', '-q', '--bare', '--shared', $repo, "$tmp/repo.git") == 0
	or die "bench/verify-gits.perl: cannot clone $repo\n";
chdir("$tmp/repo.git") or die;
END { chdir("/") }	# so that the temporary directory can go

# git's trace quotes a word that needs it as 'a'\''b'
sub unquote {
	my ($s) = @_;
	my @w;
	while ($s =~ /\G\s*((?:'[^']*'|\\.|[^\s'\\])+)/gc) {
		my $w = $1;
		$w =~ s/'([^']*)'|\\(.)/defined $1 ? $1 : $2/ge;
		push @w, $w;
	}
	return @w;
}

system("GIT_TRACE='$tmp/trace' '$tool' --verify='$mail' --no-fetch '$up' >/dev/null 2>&1");
open(my $t, '<', "$tmp/trace") or die "bench/verify-gits.perl: no trace\n";
my @gits;
while (<$t>) {
	next if !/ trace: built-in: (git .*)$/;
	my @argv = unquote($1);
	if ($argv[1] eq 'mailinfo') {	# its files were the tool's
		@argv[-2, -1] = ("$tmp/msg", "$tmp/patch");
	}
	push @gits, [$argv[1], \@argv];
}
close($t);

mkdir("$tmp/q") or die;
chomp(my $objdir = `git rev-parse --path-format=absolute --git-path objects`);

# the CPU in ms of RUNS runs of a command, stdin from a file or
# /dev/null: wait4()'s rusage of each run, to the microsecond (perl's
# times() counts in ticks of 10 ms)
require 'sys/syscall.ph';
sub cpu {
	my ($in, @cmd) = @_;
	my $t = 0;
	for (1 .. $runs) {
		my $pid = fork() // die "bench/verify-gits.perl: fork: $!\n";
		if (!$pid) {
			open(STDIN, '<', $in) or die;
			open(STDOUT, '>', '/dev/null') or die;
			open(STDERR, '>', '/dev/null') or die;
			local $ENV{GIT_OBJECT_DIRECTORY} = "$tmp/q";
			local $ENV{GIT_ALTERNATE_OBJECT_DIRECTORIES} = $objdir;
			exec(@cmd) or exit(127);
		}
		my ($status, $ru) = (pack('i', 0), "\0" x 256);
		syscall(&SYS_wait4, $pid + 0, $status, 0, $ru) == $pid
			or die "bench/verify-gits.perl: wait4: $!\n";
		my ($us, $uu, $ss, $su) = unpack('q4', $ru);
		$t += $us + $ss + ($uu + $su) / 1e6;
	}
	return $t * 1000 / $runs;
}

my ($tip) = map { $_->[1][-1] =~ /^([0-9a-f]+)/ ? $1 : () } grep { $_->[0] eq 'rev-list' } @gits;
die "bench/verify-gits.perl: the tool walked no history\n" if !$tip;
my $tree;
{
	local $ENV{GIT_OBJECT_DIRECTORY} = "$tmp/q";
	local $ENV{GIT_ALTERNATE_OBJECT_DIRECTORIES} = $objdir;
	($tree) = `git merge-tree --write-tree $up $tip` =~ /^([0-9a-f]+)/;
}

my @rows = (['tool', [$tool, "--verify=$mail", '--no-fetch', $up]],
	(map { ["  git $_->[0]", $_->[1], $_->[0] eq 'mailinfo' ? $mail : '/dev/null'] } @gits),
	['by hand: git merge-tree', ['git', 'merge-tree', '--write-tree', $up, $tip]],
	['by hand: git diff', ['git', '--no-pager', 'diff', '-C', '--stat', '--summary', $up, $tree]],
	['/bin/true', ['/bin/true']]);
# interleaved: each turn runs every row once, in an order drawn anew
# from a fixed seed (a row's place in a fixed order moved its figure by
# 5 to 10%, bench/realpr-cpu.perl found)
my @cpu = (0) x @rows;
my $n = $runs;
$runs = 1;
srand(1);
for (1 .. $n) {
	$cpu[$_] += cpu($rows[$_][2] // '/dev/null', @{$rows[$_][1]}) / $n
		for shuffle(0 .. $#rows);
}
my ($gits, $hand) = (0, $cpu[-3] + $cpu[-2]);
$gits += $cpu[$_] for 1 .. @gits;
printf "%-26s %8s\n", 'CPU, user + sys', 'ms';
printf "%-26s %8.1f\n", $rows[$_][0], $cpu[$_] for 0 .. $#rows;
printf "%-26s %8.1f\n", 'the gits of the tool', $gits;
printf "%-26s %8.2f\n", 'tool / by hand', $hand ? $cpu[0] / $hand : 0;
