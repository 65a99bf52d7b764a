#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# git clean-diffstat --verify against what a receiver does by hand today,
# timed run by run in turn, over file:// and over git:// (a git daemon on
# 127.0.0.1 that this script starts and stops).
#
# usage: perl bench/verify.perl [--repo DIR] [--tool [NAME=]PATH]... [--runs N]
#                               [--transport file|git|both] [<upstream> <head>]...
#
# The sender is the repository DIR (default: bench/make-repo's); for each
# pair, git request-pull <upstream> <url> <head> writes the request.  The
# receiver is a bare clone of <upstream> alone (git clone --no-local
# --single-branch), so that it has not the head's objects: both sides
# fetch them, each run.
#
#   by hand (the floor): in a fresh scratch repository that borrows the
#       receiver's objects (git init --bare and objects/info/alternates,
#       made and removed untimed), git fetch <url> <ref>, git merge-tree
#       --write-tree <upstream> FETCH_HEAD, git diff --stat <upstream>
#       <tree>: the least a receiver can do to see what pulling changes.
#   by hand, checked: the same floor, its fetch checking what the server
#       sends (git -c transfer.fsckObjects=true fetch), as --verify's
#       fetch does: what a stranger's objects cost to check.
#   required: the checked floor plus the gits that --verify's rules
#       leave it no way around, run in its rounds (see required() below):
#       git rev-parse, git config, git mailsplit, git mailinfo, git init
#       (timed here), and git log -1 for the fetched tip; for a messy
#       request what "explain" adds too.  --verify over it is the cost
#       of the tool itself.
#   by hand + explain (a messy request only): the same floor, plus what
#       --verify's report of a messy request needs beyond it: git
#       merge-base --all <upstream> FETCH_HEAD, and git request-pull's
#       diffstat, git diff -M --stat --summary <base> FETCH_HEAD from the
#       first merge base (the one git merge-base names, as request-pull
#       asks).
#   --verify: git clean-diffstat --verify=<request> [--allow-local]
#       <upstream> in the receiver, through git's dispatcher as a user
#       runs it: parses the request, checks the URL, fetches into its
#       quarantine, merges, compares, reports.  With --tool given more
#       than once (NAME=PATH: a build before a change, and one after),
#       each is a row of its own, timed in the same turns.
#
# Each run times them all, one after the other, in an order that turns
# from run to run, without a shell; the medians, the minima and their
# ratios (--verify over the floor; target <= 1.10) are printed per pair,
# transport and tool, a row "checked" over the checked floor and one
# "required" over the required floor; for a messy request a row
# "explain", over the floor with the explanation.  Needs git 2.38+ and
# perl; nothing of the repository given is written.

use strict;
use warnings;
use Getopt::Long;
use Time::HiRes qw(time sleep);
use File::Path qw(remove_tree make_path);
use File::Temp qw(tempdir);
use File::Basename qw(dirname basename);
use IO::Socket::INET;
use Cwd qw(abs_path);

my $usage = "usage: perl bench/verify.perl [--repo DIR] [--tool [NAME=]PATH]... [--runs N]\n" .
	"                               [--transport file|git|both] [<upstream> <head>]...\n";
my $here = dirname(abs_path($0));
my $tmp = $ENV{TMPDIR} || '/tmp';
my $repo = $ENV{BENCH_REPO} || "$tmp/git-clean-diffstat-bench/repo.git";
my @tool_args;
my $runs = 20;
my $transport = 'both';
GetOptions('repo=s' => \$repo, 'tool=s' => \@tool_args, 'runs=i' => \$runs,
	'transport=s' => \$transport) or die $usage;
die $usage if @ARGV % 2 || $transport !~ /^(file|git|both)$/ || $runs < 1;
die "bench/verify.perl: no repository at $repo (run bench/make-repo)\n" if !-d $repo;
@tool_args = ($ENV{BENCH_TOOL} || "$here/../git-clean-diffstat") if !@tool_args;
# the tools: [name, directory of its git-clean-diffstat]
my @tools;
for my $arg (@tool_args) {
	my ($name, $path) = $arg =~ /^([^=\/]+)=(.*)$/ ? ($1, $2) : ('--verify', $arg);
	die "bench/verify.perl: no tool at $path (run make, or pass --tool)\n" if !-x $path;
	die "bench/verify.perl: two tools named $name\n" if grep { $_->[0] eq $name } @tools;
	push @tools, [$name, dirname(abs_path($path))];
}
$repo = abs_path($repo);

my @pairs;
push @pairs, [splice(@ARGV, 0, 2)] while @ARGV;
if (!@pairs) {
	# the request that matches, and the messy one
	@pairs = (['master', 'topic/article'], ['master', 'topic/messy']);
}
my @transports = $transport eq 'both' ? ('file', 'git') : ($transport);

# A world of our own: HOME, TMPDIR, no system config, the tool on PATH.
my $work = tempdir('git-clean-diffstat-verify-bench.XXXXXX', DIR => $tmp, CLEANUP => 1);
$ENV{HOME} = "$work/home";
$ENV{TMPDIR} = "$work/tmp";
make_path($ENV{HOME}, $ENV{TMPDIR});
$ENV{GIT_CONFIG_NOSYSTEM} = 1;
$ENV{LC_ALL} = 'C';
delete @ENV{qw(GIT_DIR GIT_WORK_TREE GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES
	GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT GIT_CONFIG_GLOBAL)};
# each tool is run through git's dispatcher, its directory first on PATH
my $path = $ENV{PATH};
$ENV{PATH} = "$tools[0][1]:$path";
open(my $cfg, '>', "$ENV{HOME}/.gitconfig") or die "bench/verify.perl: $!\n";
print $cfg "[user]\n\tname = Bench\n\temail = bench\@example.com\n[gc]\n\tauto = 0\n";
close($cfg);

sub capture {
	my (@cmd) = @_;
	open(my $fh, '-|', @cmd) or die "bench/verify.perl: @cmd: $!\n";
	local $/;
	my $s = <$fh>;
	close($fh);
	return $s // '';
}

# quiet(dir, cmd...): run cmd in dir, stdout to /dev/null; its exit status
sub quiet { return to_null(0, @_) }

# silent(dir, cmd...): the same, stderr to /dev/null too
sub silent { return to_null(1, @_) }

sub to_null {
	my ($stderr, $dir, @cmd) = @_;
	my $pid = fork() // die "bench/verify.perl: fork: $!\n";
	if (!$pid) {
		chdir($dir) or exit(126);
		open(STDOUT, '>', '/dev/null') or exit(126);
		open(STDERR, '>', '/dev/null') or exit(126) if $stderr;
		exec(@cmd) or exit(127);
	}
	waitpid($pid, 0);
	return $? >> 8;
}

sub must {
	my ($dir, @cmd) = @_;
	quiet($dir, @cmd) == 0 or die "bench/verify.perl: @cmd failed\n";
}

# The git daemon, serving the directory of the repository: a child of
# ours, not --detach'ed (whose pid file is written after git daemon has
# returned), stopped at exit whatever happens.
my ($daemon, $port);
if (grep { $_ eq 'git' } @transports) {
	my $s = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Listen => 1)
		or die "bench/verify.perl: no free port: $!\n";
	$port = $s->sockport;
	close($s);
	$daemon = fork() // die "bench/verify.perl: fork: $!\n";
	if (!$daemon) {
		open(STDIN, '<', '/dev/null') or exit(126);
		open(STDOUT, '>', '/dev/null') or exit(126);
		exec('git', 'daemon', '--listen=127.0.0.1', "--port=$port", '--export-all',
			'--reuseaddr', '--base-path=' . dirname($repo), dirname($repo)) or exit(127);
	}
	my $url = "git://127.0.0.1:$port/" . basename($repo);
	for (my $i = 0; silent($work, 'git', 'ls-remote', $url) != 0; $i++) {
		die "bench/verify.perl: the git daemon does not answer\n" if $i > 50;
		sleep(0.1);
	}
}
END {
	if ($daemon) {
		kill('TERM', $daemon);
		waitpid($daemon, 0);
	}
}

sub url_of {
	my ($t) = @_;
	return $t eq 'file' ? "file://$repo" : "git://127.0.0.1:$port/" . basename($repo);
}

# A receiver per upstream: a clone of it alone.
my %receiver;
sub receiver {
	my ($up) = @_;
	return $receiver{$up} if $receiver{$up};
	(my $name = $up) =~ s{[^A-Za-z0-9]}{-}g;
	my $dir = "$work/receiver-$name.git";
	print STDERR "bench/verify.perl: cloning $up alone into a receiver\n";
	must($work, 'git', 'clone', '-q', '--bare', '--no-local', '--single-branch', '-b', $up,
		$repo, $dir);
	return $receiver{$up} = $dir;
}

sub median { my @s = sort { $a <=> $b } @_; return $s[@s / 2] }

# by_hand(receiver, url, ref, upstream id, explain): one timed run of the
# floor in a fresh scratch repository borrowing the receiver's objects
# (made and removed untimed); with explain, the merge bases and git
# request-pull's diffstat too.
sub by_hand {
	my ($recv, $url, $ref, $up_id, $explain, $checked) = @_;
	my $s = tempdir('scratch.XXXXXX', DIR => $work);
	must($s, 'git', 'init', '-q', '--bare');
	open(my $a, '>', "$s/objects/info/alternates") or die;
	print $a "$recv/objects\n";
	close($a);
	my $t0 = time();
	quiet($s, 'git', ($checked ? ('-c', 'transfer.fsckObjects=true') : ()),
		'fetch', '-q', '--no-tags', $url, $ref);
	my $out = capture('git', '-C', $s, 'merge-tree', '--write-tree', $up_id, 'FETCH_HEAD');
	my ($tree) = $out =~ /^([0-9a-f]+)/;
	quiet($s, 'git', '--no-pager', 'diff', '--stat', $up_id, $tree);
	if ($explain) {
		my ($base) = capture('git', '-C', $s, 'merge-base', '--all', $up_id,
			'FETCH_HEAD') =~ /^([0-9a-f]+)/;
		quiet($s, 'git', '--no-pager', 'diff', '-M', '--stat', '--summary', $base,
			'FETCH_HEAD');
	}
	my $dt = time() - $t0;
	remove_tree($s);
	return $dt;
}

# together([dir, stdin or undef, cmd...]...): run the commands side by
# side, stdout to /dev/null, and wait for them all; dies if one fails.
sub together {
	my @pids;
	for my $c (@_) {
		my ($dir, $in, @cmd) = @$c;
		my $pid = fork() // die "bench/verify.perl: fork: $!\n";
		if (!$pid) {
			chdir($dir) or exit(126);
			open(STDIN, '<', $in) or exit(126) if defined $in;
			open(STDOUT, '>', '/dev/null') or exit(126);
			exec(@cmd) or exit(127);
		}
		push @pids, [$pid, "@cmd"];
	}
	for (@pids) {
		waitpid($_->[0], 0);
		die "bench/verify.perl: $_->[1] failed\n" if $?;
	}
}

# required(receiver, url, ref, upstream, request, explain): one timed run of the
# checked floor plus the gits --verify cannot do without, run as it runs
# them, two rounds side by side: git rev-parse of <upstream>, git config
# (the receiver's settings) and git mailsplit; git mailinfo (the mail by
# git's plumbing) and git init (the scratch repository made by git, the
# receiver's repository left alone); then, after the fetch, git log -1
# for the fetched tip (the receiver's repository, where merge-tree runs,
# cannot name the scratch repository's ref); with explain, for a messy
# request, the merge bases and request-pull's diffstat too, as by_hand's.
# The least any --verify that follows these rules can do: what is left
# over it is the tool's own.
sub required {
	my ($recv, $url, $ref, $up, $req, $explain) = @_;
	my $d = tempdir('required.XXXXXX', DIR => $work);
	my $s = "$d/scratch";
	my $t0 = time();
	together([$recv, undef, 'git', 'rev-parse', '--verify', "$up^{commit}"],
		[$recv, undef, 'git', 'config', '--list'],
		[$recv, undef, 'git', 'mailsplit', '-b', '--mboxrd', "-o$d", '--', $req]);
	together([$recv, "$d/0001", 'git', 'mailinfo', '-k', '-u', '--no-scissors',
			'--no-inbody-headers', '--quoted-cr=strip', "$d/msg", "$d/patch"],
		[$d, undef, 'git', 'init', '-q', '--bare', $s]);
	open(my $a, '>', "$s/objects/info/alternates") or die;
	print $a "$recv/objects\n";
	close($a);
	quiet($s, 'git', '-c', 'transfer.fsckObjects=true', 'fetch', '-q', '--no-tags',
		$url, $ref);
	my ($tip) = capture('git', '-C', $s, 'log', '-1', '--format=%H', 'FETCH_HEAD')
		=~ /^([0-9a-f]+)/;
	my $out = capture('git', '-C', $s, 'merge-tree', '--write-tree', $up, $tip);
	my ($tree) = $out =~ /^([0-9a-f]+)/;
	quiet($s, 'git', '--no-pager', 'diff', '--stat', $up, $tree);
	if ($explain) {
		my ($base) = capture('git', '-C', $s, 'merge-base', '--all', $up, $tip)
			=~ /^([0-9a-f]+)/;
		quiet($s, 'git', '--no-pager', 'diff', '-M', '--stat', '--summary', $base, $tip);
	}
	my $dt = time() - $t0;
	remove_tree($d);
	return $dt;
}

# row(pair, via, verdict, by hand's times, --verify's times): a line of
# the table: medians, minima, ratios.
sub row {
	my ($pair, $via, $verdict, $hand, $verify) = @_;
	my @hs = sort { $a <=> $b } @$hand;
	my @vs = sort { $a <=> $b } @$verify;
	my ($h, $v) = (median(@hs), median(@vs));
	printf "%-38s %-5s %-8s %7.1f ms %7.1f ms %7.1f ms %7.1f ms %7.3f %7.3f\n",
		$pair, $via, $verdict, $h * 1000, $hs[0] * 1000, $v * 1000,
		$vs[0] * 1000, $v / $h, $vs[0] / $hs[0];
}

chomp(my $gitversion = capture('git', 'version'));
my $toolversion = join('; ', map {
	my $v = capture("$_->[1]/git-clean-diffstat", '--version');
	chomp($v);
	@tools > 1 ? "$_->[0]: $v" : $v;
} @tools);
print "$gitversion; $toolversion; $runs runs of each, in turn\n";
print "repository: $repo\n\n";
printf "%-38s %-5s %-8s %10s %10s %10s %10s %7s %7s\n", 'pair', 'via', 'verdict',
	'by hand', '(min)', '--verify', '(min)', 'ratio', '(min)';

for my $pair (@pairs) {
	my ($up, $head) = @$pair;
	my $recv = receiver($up);
	chomp(my $up_id = capture('git', '-C', $recv, 'rev-parse', '--verify', "$up^{commit}"));
	chomp(my $head_id = capture('git', '-C', $repo, 'rev-parse', '--verify', "$head^{commit}"));
	if (quiet($recv, 'git', 'cat-file', '-e', $head_id) == 0) {
		print STDERR "bench/verify.perl: the receiver has $head already: skipped\n";
		next;
	}
	my $before = capture('git', '-C', $recv, 'count-objects', '-v') .
		capture('git', '-C', $recv, 'for-each-ref');
	for my $t (@transports) {
		my $url = url_of($t);
		(my $name = "$head-$t") =~ s{[^A-Za-z0-9]}{-}g;
		my $req = "$work/request-$name";
		my $text = capture('git', '-C', $repo, 'request-pull', $up, $url, $head);
		open(my $r, '>', $req) or die "bench/verify.perl: $req: $!\n";
		print $r $text;
		close($r);
		my ($ref) = $text =~ /^  \Q$url\E (\S*)$/m;
		die "bench/verify.perl: no repository line for $url in the request\n" if !defined $ref;
		my @verify = ('git', 'clean-diffstat', "--verify=$req",
			($t eq 'file' ? ('--allow-local') : ()), $up);

		# untimed: the tool fetched the tip, and its verdict
		my $report = capture('sh', '-c', 'cd "$1" && shift && exec "$@"', 'sh', $recv,
			@verify, '--porcelain');
		$report =~ /^tip \S+ \S+ fetched$/m or
			die "bench/verify.perl: --verify did not fetch the tip:\n$report";
		my ($verdict) = $report =~ /^verdict (\S+)$/m;

		my %v = (
			'by hand' => sub { by_hand($recv, $url, $ref, $up_id, 0, 0) },
			'by hand, checked' => sub { by_hand($recv, $url, $ref, $up_id, 0, 1) },
			'by hand + explain' => sub { by_hand($recv, $url, $ref, $up_id, 1, 0) },
			'required' => sub {
				required($recv, $url, $ref, $up_id, $req, $verdict eq 'messy')
			},
		);
		for my $tl (@tools) {
			my $dir = $tl->[1];
			$v{$tl->[0]} = sub {
				local $ENV{PATH} = "$dir:$path";
				my $t0 = time();
				quiet($recv, @verify);
				return time() - $t0;
			};
		}
		# the explanation's floor only where --verify explains
		my @order = ('by hand', 'by hand, checked', 'required',
			($verdict eq 'messy' ? ('by hand + explain') : ()),
			map { $_->[0] } @tools);
		my %t;
		$v{$_}->() for @order;    # warm up
		for my $run (1 .. $runs) {
			my @turn = @order[map { ($_ + $run) % @order } 0 .. $#order];
			push @{$t{$_}}, $v{$_}->() for $run % 2 ? @turn : reverse @turn;
		}
		for my $tl (@tools) {
			my $n = @tools > 1 ? " $tl->[0]" : '';
			row("$up $head$n", $t, $verdict, $t{'by hand'}, $t{$tl->[0]});
			row("$up $head$n", $t, 'checked', $t{'by hand, checked'}, $t{$tl->[0]});
			row("$up $head$n", $t, 'required', $t{'required'}, $t{$tl->[0]});
			row("$up $head$n", $t, 'explain', $t{'by hand + explain'}, $t{$tl->[0]})
				if $t{'by hand + explain'};
		}
	}
	my $after = capture('git', '-C', $recv, 'count-objects', '-v') .
		capture('git', '-C', $recv, 'for-each-ref');
	die "bench/verify.perl: the receiver changed\n" if $after ne $before;
}
print "\nratio: --verify over by hand, medians (and minima); target <= 1.10\n";
print "checked: over by hand with transfer.fsckObjects=true, as --verify fetches\n";
print "required: over the checked floor plus the gits --verify cannot do without:\n" .
	"git rev-parse, git config, git mailsplit, git mailinfo, git init, git log -1\n" .
	"(and, for a messy request, what explain adds)\n";
print "explain: over by hand + git merge-base --all and request-pull's\n" .
	"git diff -M --stat --summary <base> <tip>, which a messy report also needs\n";
