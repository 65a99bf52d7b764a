#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# Where the tool's time over the floor goes: time, interleaved run by run,
# the tool and the floor built up step by step to what the tool does.
#
# usage: perl bench/decompose.perl [--runs N] REPO UPSTREAM HEAD
#
# Every variant execs git directly (no shell); the quarantine directory is
# made and removed in this process, as the tool does it.  Run it with the
# tool on PATH as git-clean-diffstat (bench/run's scratch world, or any).
#
# The last rows are the lower bound of any external git subcommand that
# resolves its revisions once, whatever it does inside: a program that
# does nothing (a copy of true(1)), run directly and through git's
# dispatcher as git-clean-diffstat-noop; the bound is the floor plus that
# dispatch plus the one rev-parse.

use strict;
use warnings;
use Getopt::Long;
use Time::HiRes qw(time);
use File::Path qw(remove_tree);
use File::Temp qw(tempdir);
use File::Copy qw(copy);

my $runs = 60;
GetOptions('runs=i' => \$runs) or die "usage: decompose.perl [--runs N] REPO UPSTREAM HEAD\n";
my ($repo, $up, $head) = @ARGV;
die "usage: decompose.perl [--runs N] REPO UPSTREAM HEAD\n" if !defined $head;
chdir($repo) or die "decompose.perl: $repo: $!\n";

sub capture {
	my (@cmd) = @_;
	open(my $fh, '-|', @cmd) or die "decompose.perl: @cmd: $!\n";
	local $/;
	my $s = <$fh>;
	close($fh);
	return $s // '';
}

sub quiet {
	my (@cmd) = @_;
	my $pid = fork() // die "decompose.perl: fork: $!\n";
	if (!$pid) {
		open(STDOUT, '>', '/dev/null') or die;
		exec(@cmd) or exit(127);
	}
	waitpid($pid, 0);
	return $? >> 8;
}

chomp(my $objdir = capture(qw(git rev-parse --path-format=absolute --git-path objects)));
chomp(my $up_id = capture('git', 'rev-parse', '--verify', "$up^{commit}"));
chomp(my $head_id = capture('git', 'rev-parse', '--verify', "$head^{commit}"));
my $tmp = $ENV{TMPDIR} || '/tmp';
my @revparse = ('git', '-c', 'core.commitGraph=false', 'rev-parse', '--path-format=absolute', '--git-path', 'objects',
	'--end-of-options', "$up^{commit}", "$up^{tree}", "$head^{commit}", '--');

# floor($z, $revparse, $own_dir): merge-tree then git diff
sub floor {
	my ($z, $rp, $own) = @_;
	quiet(@revparse) if $rp;
	my $q = tempdir("git-clean-diffstat.XXXXXX", DIR => $tmp);
	local $ENV{GIT_OBJECT_DIRECTORY} = $q;
	local $ENV{GIT_ALTERNATE_OBJECT_DIRECTORIES} = $objdir;
	my $out = capture('git', 'merge-tree', '--write-tree', ($z ? ('-z', '--messages') : ()),
		$up_id, $head_id);
	my ($tree) = $out =~ /^([0-9a-f]+)/;
	quiet('git', '--no-pager', 'diff', '-C', '--stat', '--summary', $up_id, $tree);
	return $q if !$own;
	remove_tree($q);
	return undef;
}

# a do-nothing external subcommand, for git's dispatch cost alone
my $true = (grep { -x } map { "$_/true" } split(/:/, $ENV{PATH}), '/bin')[0]
	or die "decompose.perl: no true(1) on PATH\n";
my $noopdir = tempdir("git-clean-diffstat-noop.XXXXXX", DIR => $tmp, CLEANUP => 1);
copy($true, "$noopdir/git-clean-diffstat-noop") && chmod(0755, "$noopdir/git-clean-diffstat-noop")
	or die "decompose.perl: $noopdir/git-clean-diffstat-noop: $!\n";

my %v = (
	'no-op program' => sub { quiet("$noopdir/git-clean-diffstat-noop"); undef },
	'no-op via git' => sub {
		local $ENV{PATH} = "$noopdir:$ENV{PATH}";
		quiet('git', 'clean-diffstat-noop');
		undef
	},
	'rev-parse alone' => sub { quiet(@revparse); undef },
	'tool via git' => sub { quiet('git', 'clean-diffstat', $up, $head); undef },
	'tool direct' => sub { quiet('git-clean-diffstat', $up, $head); undef },
	'floor' => sub { floor(0, 0, 0) },
	'floor -z --messages' => sub { floor(1, 0, 0) },
	'+ rev-parse' => sub { floor(1, 1, 0) },
	'+ quarantine removal' => sub { floor(1, 1, 1) },
);
my @order = ('tool via git', 'tool direct', 'floor', 'floor -z --messages', '+ rev-parse',
	'+ quarantine removal', 'no-op program', 'no-op via git', 'rev-parse alone');
my %t;
for my $name (@order) {    # warm up
	my $left = $v{$name}->();
	remove_tree($left) if $left;
}
for my $r (1 .. $runs) {
	my @o = $r % 2 ? @order : reverse @order;
	for my $name (@o) {
		my $t0 = time();
		my $left = $v{$name}->();
		push @{$t{$name}}, time() - $t0;
		remove_tree($left) if $left;    # untimed, as in bench/run's floor
	}
}

sub median { my @s = sort { $a <=> $b } @_; return $s[@s / 2] }
my $floor = median(@{$t{floor}});
my @bound = ('no-op program', 'no-op via git', 'rev-parse alone');
my %in_bound = map { $_ => 1 } @bound;
printf "%-22s %9s %9s %9s\n", 'variant', 'median', 'min', 'vs floor';
for my $name (@order) {
	my @s = sort { $a <=> $b } @{$t{$name}};
	printf "%-22s %6.2f ms %6.2f ms", $name, median(@s) * 1000, $s[0] * 1000;
	printf " %+6.2f ms", (median(@s) - $floor) * 1000 if !$in_bound{$name};
	print "\n";
}
my $bound = $floor + median(@{$t{'no-op via git'}}) + median(@{$t{'rev-parse alone'}});
my $tool = median(@{$t{'tool via git'}});
printf "lower bound = floor + no-op via git + rev-parse alone = %.2f ms = %.3f x floor\n",
	$bound * 1000, $bound / $floor;
printf "tool via git = %.3f x floor = %.3f x the lower bound\n", $tool / $floor, $tool / $bound;
