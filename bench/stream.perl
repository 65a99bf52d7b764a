#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# --verify as a stream: an mbox of N requests, --no-fetch, for each N
# given (default 100 1000 10000).  In a scratch directory: one small
# repository whose topic the receiver has, git request-pull's request of
# it, and an mbox of N messages, each that request (written by this
# script, not by git: cheap).  Per N, one run of
#     git clean-diffstat --verify=<mbox> --no-fetch
# and its figures: the tool's own peak resident set (VmHWM, read by the
# tool itself at exit through bench/vmhwm.c, its gits not included), the
# wall time, the CPU time (user and system, the tool and its gits: what
# a shared machine's load does not change), that per request, and the
# time until its first line on stdout.
#
# usage: perl bench/stream.perl [--tool PATH] [N...]

use strict;
use warnings;
use File::Temp qw(tempdir);
use Getopt::Long;
use Time::HiRes qw(time);
use FindBin;

my $top = "$FindBin::Bin/..";
my $tool = $ENV{BENCH_TOOL} || "$top/git-clean-diffstat";
GetOptions('tool=s' => \$tool) or die "usage: stream.perl [--tool PATH] [N...]\n";
my @counts = @ARGV ? @ARGV : (100, 1000, 10000);
my $dir = tempdir('git-clean-diffstat-stream.XXXXXX', TMPDIR => 1, CLEANUP => 1);

sub run { system(@_) == 0 or die "stream.perl: @_ failed\n" }

$ENV{$_} = 'bench' for qw(GIT_AUTHOR_NAME GIT_COMMITTER_NAME);
$ENV{$_} = 'bench@example.com' for qw(GIT_AUTHOR_EMAIL GIT_COMMITTER_EMAIL);
$ENV{GIT_CONFIG_NOSYSTEM} = 1;
$ENV{HOME} = $dir;
run('cc', '-shared', '-fPIC', '-o', "$dir/vmhwm.so", "$top/bench/vmhwm.c");
my $repo = "$dir/repo";
run('git', 'init', '-q', '-b', 'master', $repo);
chdir $repo or die;
for my $i (1 .. 20) {
	open my $f, '>', "f$i.c" or die;
	print $f "line $_\n" for 1 .. 50;
	close $f;
}
run('git', 'add', '.');
run('git', 'commit', '-q', '-m', 'base');
run('git', 'checkout', '-q', '-b', 'topic');
for my $i (1 .. 3) {
	open my $f, '>>', "f$i.c" or die;
	print $f "topic $i\n";
	close $f;
	run('git', 'commit', '-q', '-a', '-m', "topic $i");
}
run('git', 'checkout', '-q', 'master');
my $request = `git request-pull master file://$repo topic 2>/dev/null`;
die "stream.perl: no request\n" unless $request =~ /for you to fetch/;
$request =~ s/^(>*From )/>$1/mg;

printf "%8s %10s %10s %10s %12s %12s\n", 'requests', 'peak kB', 'wall s',
	'cpu s', 'cpu ms/req', 'first s';
for my $n (@counts) {
	my $mbox = "$dir/$n.mbox";
	open my $m, '>', $mbox or die;
	for my $i (1 .. $n) {
		print $m "From bench\@example.com Thu Apr  7 15:14:13 2005\n",
			"From: bench <bench\@example.com>\n",
			"Subject: [GIT PULL] topic $i\n\n", $request, "\n";
	}
	close $m;
	unlink "$dir/hwm";
	local $ENV{LD_PRELOAD} = "$dir/vmhwm.so";
	local $ENV{BENCH_VMHWM_PROG} = 'git-clean-diffstat';
	local $ENV{BENCH_VMHWM_FILE} = "$dir/hwm";
	my @c0 = times;
	my $t0 = time;
	open my $out, '-|', $tool, "--verify=$mbox", '--no-fetch'
		or die "stream.perl: cannot run $tool\n";
	my $first = <$out>;
	my $t1 = time;
	1 while <$out>;
	close $out;
	my $t2 = time;
	my @c1 = times;
	my $cpu = $c1[2] + $c1[3] - $c0[2] - $c0[3];
	delete $ENV{LD_PRELOAD};
	open my $h, '<', "$dir/hwm" or die "stream.perl: no peak figure\n";
	my @w = split ' ', scalar <$h>;
	printf "%8d %10d %10.2f %10.2f %12.2f %12.3f\n", $n, $w[2],
		$t2 - $t0, $cpu, $cpu * 1000 / $n, $t1 - $t0;
}
chdir "/";	# the scratch directory is removed at exit
