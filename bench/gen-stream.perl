#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# Write to stdout a git fast-import stream for a repository shaped like a
# kernel tree, and to --pairs the "<upstream> <head>" pairs worth timing.
#
# The history: v1.0 imports the whole tree; two release cycles follow, each
# a merge window (subsystem trees merged into master, then -rc1) and -rc
# tags with fixes.  Around them live the topic branches the benchmark is
# about: started at different tags, back-merging mainline, and partly
# pulled by mainline, so that some have several merge bases with master.
#
# Everything derives from --seed through one xorshift32 generator, so the
# same options give the same commit ids on any machine.
#
# Each path changes along a single line of history (branches own their
# areas), so a merge is "per path, the newer version wins" and every merge
# git itself is asked to do later is clean.

use strict;
use warnings;
use Getopt::Long;

my %opt = (files => 70000, dirs => 4500, scale => 1.0, seed => 1);
GetOptions(\%opt, 'files=i', 'dirs=i', 'scale=f', 'seed=i', 'pairs=s')
	or die "usage: gen-stream.perl [--files=N] [--dirs=N] [--scale=F] [--seed=N] [--pairs=FILE]\n";
die "gen-stream.perl: --files must be at least 200\n" if $opt{files} < 200;
die "gen-stream.perl: --dirs must be at least 20\n" if $opt{dirs} < 20;
binmode STDOUT;

# ---- random numbers -------------------------------------------------------

my $S = 1;

sub rnd {
	my $x = $S;
	$x ^= ($x << 13) & 0xffffffff;
	$x ^= $x >> 17;
	$x ^= ($x << 5) & 0xffffffff;
	return $S = $x;
}

sub rint { return rnd() % $_[0] }
sub rfloat { return rnd() / 4294967296 }
sub pick { return $_[0][rint(scalar @{$_[0]})] }

sub reseed {
	my ($a, $b) = @_;
	$S = ($a * 2654435761 + $b * 40503 + $opt{seed} * 2246822519 + 12345) % 4294967291;
	$S = 1 if $S == 0;
	rnd() for 1 .. 4;
}

sub gauss {
	my $u = rfloat() || 1e-9;
	return sqrt(-2 * log($u)) * cos(6.283185307 * rfloat());
}

sub scaled { my $n = int($_[0] * $opt{scale} + 0.5); return $n < 1 ? 1 : $n }

# ---- words, lines ---------------------------------------------------------

my @syl = qw(ar be ca de el fo ga hi io ju ka li mo nu op pa qu re si ta
	ul vi wo xe yo za dr ph ch st ct rl nt mx pc irq dma usb eth fb clk
	gpio pci i2c spi phy reg mem tx rx dev drv hw io bus pm acpi nv);

sub word { return join('', map { $syl[rint(scalar @syl)] } 1 .. 1 + rint(2)) }
sub ident { return join('_', map { word() } 1 .. 1 + rint(3)) }

reseed(1, 0);
my @tmpl = (
	sub { "\tif (" . ident() . "->" . ident() . " > " . rint(4096) . ")" },
	sub { "\t\treturn -E" . uc(word()) . ";" },
	sub { "\t" . ident() . " = " . ident() . "(" . ident() . ", " . ident() . ");" },
	sub { "static int " . ident() . "(struct " . ident() . " *" . word() . ")" },
	sub { "{" }, sub { "}" }, sub { "" }, sub { "" }, sub { "\t}" },
	sub { "\t/* " . join(' ', map { word() } 1 .. 2 + rint(8)) . " */" },
	sub { "#include <linux/" . ident() . ".h>" },
	sub { "\tstruct " . ident() . " *" . word() . " = " . ident() . "(" . word() . ");" },
	sub { sprintf("#define %s\t\t0x%04x", uc(ident()), rint(65536)) },
	sub { "\tu32 " . ident() . ";" },
	sub { "\t\t" . ident() . "(" . word() . ", " . rint(64) . ");" },
	sub { "\tfor (i = 0; i < " . ident() . "; i++) {" },
	sub { "\tspin_lock(&" . word() . "->lock);" },
	sub { "\tspin_unlock(&" . word() . "->lock);" },
	sub { "\t\tgoto " . word() . ";" },
	sub { "\tdev_err(dev, \"" . join(' ', map { word() } 1 .. 3) . " %d\\n\", ret);" },
	sub { "\t\t." . ident() . " = " . ident() . "," },
	sub { "\treturn 0;" },
);
my @pool = map { $tmpl[rint(scalar @tmpl)]->() } 1 .. 60000;
my $npool = @pool;

# ---- contents -------------------------------------------------------------
#
# A blob is a "version" numbered by its fast-import mark.  A version either
# is fresh (generated from its number, at $size{v} bytes) or derives from a
# parent version by a few hunks of edits ($parent{v}).

my (%size, %parent, %small, %cache);
my $mark = 0;
my %emitted;

sub gen_lines {
	my ($n) = @_;
	my $x = $S;
	my @l;
	$#l = $n - 1;
	for my $i (0 .. $n - 1) {
		$x ^= ($x << 13) & 0xffffffff;
		$x ^= $x >> 17;
		$x ^= ($x << 5) & 0xffffffff;
		$l[$i] = $pool[$x % $npool];
	}
	$S = $x;
	return @l;
}

sub content {
	my ($v) = @_;
	return $cache{$v} if exists $cache{$v};
	my $saved = $S;
	my $txt;
	if (!$parent{$v}) {
		reseed($v, 1);
		$txt = join("\n", gen_lines(int($size{$v} / 22) + 1)) . "\n";
	} else {
		my @l = split /\n/, content($parent{$v});
		reseed($v, 2);
		my $hunks = 1 + int(rfloat() ** 2 * 4);
		for (1 .. $hunks) {
			my $at = rint(scalar(@l) + 1);
			my $k = 1 + rint(6);
			$k = 20 + rint(120) if !$small{$v} && rint(25) == 0;
			my $op = rint(10);
			my $del = $op < 5 || $op >= 8 ? $k : 0;
			my $add = $op < 8 ? ($op < 5 ? $k + rint(3) : $k) : 0;
			$del = scalar(@l) - $at if $del > scalar(@l) - $at;
			splice(@l, $at, $del, gen_lines($add));
		}
		@l = gen_lines(3) if !@l;
		$txt = join("\n", @l) . "\n";
		$cache{$v} = $txt;
	}
	$S = $saved;
	return $txt;
}

sub emit_blob {
	my ($v) = @_;
	return if $emitted{$v}++;
	my $txt = content($v);
	print "blob\nmark :$v\ndata ", length($txt), "\n", $txt, "\n";
}

sub new_fresh { my ($sz) = @_; my $v = ++$mark; $size{$v} = $sz; return $v }
sub new_edit { my ($p, $small) = @_; my $v = ++$mark; $parent{$v} = $p; $small{$v} = 1 if $small; return $v }

# ---- the tree -------------------------------------------------------------

my @tops = (
	[drivers => 0.46], [arch => 0.20], [fs => 0.06], [include => 0.045],
	[sound => 0.05], [net => 0.045], [tools => 0.055], [Documentation => 0.045],
	[kernel => 0.008], [lib => 0.006], [mm => 0.002], [scripts => 0.006],
	[security => 0.004], [crypto => 0.003], [block => 0.001], [samples => 0.003],
	[virt => 0.001], [io_uring => 0.0005], [init => 0.0003], [ipc => 0.0003],
	[certs => 0.0002], [usr => 0.0002], [rust => 0.001],
);
my %ext = (
	Documentation => [qw(.rst .rst .rst .txt .yaml)],
	include => [qw(.h)],
	tools => [qw(.c .c .h .sh .py)],
	scripts => [qw(.c .sh .pl .py)],
	arch => [qw(.c .c .h .h .S .dts .dtsi)],
	rust => [qw(.rs)],
);

sub size_for {
	my ($name) = @_;
	my $median = $name =~ /\.h$/ ? 2000 : $name =~ /^(Makefile|Kconfig)/ ? 900
		: $name =~ /\.(rst|txt|yaml)$/ ? 3500 : 4500;
	my $sz = int($median * exp(1.15 * gauss()));
	# the odd generated register header of several megabytes
	$sz = 1_000_000 + rint(5_000_000) if $name =~ /\.h$/ && rint(1500) == 0;
	return $sz < 40 ? 40 : $sz > 6_000_000 ? 6_000_000 : $sz;
}

reseed(2, 0);
my (@paths, %area_of, %area_files, %seen);
sub add_path {
	my ($p, $area) = @_;
	return 0 if $seen{$p}++;
	push @paths, $p;
	$area_of{$p} = $area;
	push @{$area_files{$area}}, $p;
	return 1;
}

my $wsum = 0;
$wsum += $_->[1] for @tops;
my @alldirs;
my %dirs_of_top;
for my $t (@tops) {
	my ($top, $w) = @$t;
	my $n = int($opt{dirs} * $w / $wsum + 0.5) || 1;
	my @d = ([$top, 0, $top]);
	my %sib;
	while (@d < $n) {
		my $par = $d[int(rfloat() ** 1.7 * scalar @d)];
		next if $par->[1] >= 5;
		my $name = word();
		$name .= '-' . word() if rint(3) == 0;
		my $path = "$par->[0]/$name";
		next if $sib{$path}++;
		# the area is the second-level directory (or the top itself)
		push @d, [$path, $par->[1] + 1, $par->[1] == 0 ? $path : $par->[2]];
	}
	$dirs_of_top{$top} = \@d;
	push @alldirs, @d;
}
for my $f (qw(Makefile README COPYING MAINTAINERS Kconfig .gitignore .mailmap CREDITS)) {
	add_path($f, '.');
}
for my $d (@alldirs) {
	next if $d->[0] =~ m{^(Documentation|include)};
	add_path("$d->[0]/Makefile", $d->[2]);
	add_path("$d->[0]/Kconfig", $d->[2]) if $d->[0] =~ m{^(drivers|arch|fs|net|sound)} && rint(2);
}
for my $t (@tops) {
	my ($top, $w) = @$t;
	my $quota = int(($opt{files} - @paths) * $w / $wsum);
	$wsum -= $w;
	my $d = $dirs_of_top{$top};
	my $e = $ext{$top} || [qw(.c .c .c .h .h)];
	my $made = 0;
	while ($made < $quota) {
		my $dir = $d->[int(rfloat() ** 1.3 * scalar @$d)];
		$made += add_path("$dir->[0]/" . ident() . pick($e), $dir->[2]);
	}
}

my $nbase = 0;
my %base;
for my $p (@paths) {
	my $v = new_fresh($p eq 'MAINTAINERS' ? 700_000 : size_for($p =~ s{.*/}{}r));
	$base{$p} = $v;
}
$nbase = $mark;

# areas big enough to be someone's subsystem
my $area_min = $opt{files} >= 20000 ? 12 : 4;
my @areas = sort grep { @{$area_files{$_}} >= $area_min && $_ ne '.' } keys %area_files;
die "gen-stream.perl: tree too small for its history\n" if @areas < 25;

# ---- history --------------------------------------------------------------

my (%state, %tip, %owned, %tagged);
my $time = 1577836800;
my @people = map { ucfirst(word()) . ' ' . ucfirst(word()) . word() } 1 .. 40;
my $nextarea = 0;

sub take_areas {
	my ($br, $n) = @_;
	my @mine;
	die "gen-stream.perl: too few directories for the history (try more --dirs)\n"
		if grep({ !$owned{$_} } @areas) < $n + 10;
	while (@mine < $n) {
		my $a = $areas[rint(scalar @areas)];
		next if $owned{$a};
		$owned{$a} = $br;
		push @mine, $a;
	}
	return [@mine];
}

sub free_areas { my ($br) = @_; delete $owned{$_} for grep { $owned{$_} eq $br } keys %owned }

sub person { my $p = $people[rint(scalar @people)]; (my $e = lc $p) =~ s/ /./; return "$p <$e\@example.org>" }

sub emit_commit {
	my ($br, $msg, $changes, @merges) = @_;
	emit_blob($_->[1]) for grep { $_->[1] > 0 } @$changes;
	my $m = ++$mark;
	$time += 600 + rint(3000);
	my $who = person();
	print "commit refs/heads/$br\nmark :$m\n";
	print "author $who $time +0000\ncommitter $who $time +0000\n";
	print "data ", length($msg), "\n$msg\n";
	print "from :$tip{$br}\n" if $tip{$br};
	print "merge :$_\n" for @merges;
	for my $c (@$changes) {
		my ($p, $v) = @$c;
		if ($v > 0) {
			print "M 100644 :$v $p\n";
		} else {
			my $q = $p =~ /["\\\n]/ ? "\"$p\"" : $p;
			print "D $q\n";
		}
	}
	print "\n";
	$tip{$br} = $m;
	return $m;
}

sub snapshot { my ($br) = @_; return [$tip{$br}, { %{$state{$br}} }] }

sub branch_from {
	my ($br, $snap) = @_;
	$tip{$br} = $snap->[0];
	$state{$br} = { %{$snap->[1]} };
	print "reset refs/heads/$br\nfrom :$snap->[0]\n\n";
}

sub tag {
	my ($name, $br) = @_;
	$time += 60;
	my $msg = "Linux $name\n";
	print "tag $name\nfrom :$tip{$br}\ntagger Linus Torvalds <torvalds\@example.org> $time +0000\n";
	print "data ", length($msg), "\n$msg\n";
	$tagged{$name} = snapshot($br);
}

sub live { my ($st, $p) = @_; return defined $st->{$p} && $st->{$p} > 0 }

# One commit's worth of work on $br among the files of $areas (or of the
# explicit candidate list $cands).
sub work_commit {
	my ($br, $areas, $subj, $cands) = @_;
	my $st = $state{$br};
	my @c = $cands ? @$cands : map { @{$area_files{$_}} } @$areas;
	my $n = 1 + int(rfloat() ** 2.2 * 9);
	my (@ch, %done);
	for (1 .. $n * 3) {
		last if @ch >= $n;
		my $p = $c[rint(scalar @c)];
		next if $done{$p}++ || !live($st, $p);
		my $r = rint(100);
		if ($r < 84 || $p =~ m{(^|/)(Makefile|Kconfig)$}) {
			push @ch, [$p, new_edit($st->{$p})];
		} elsif ($r < 90) {
			(my $dir = $p) =~ s{/[^/]*$}{};
			my $np = "$dir/" . ident() . ($p =~ /(\.[^.\/]+)$/ ? $1 : '');
			next if $seen{$np}++;
			push @ch, [$np, new_fresh(size_for($np))];
		} elsif ($r < 97) {
			(my $dir = $p) =~ s{/[^/]*$}{};
			my $np = "$dir/" . ident() . ($p =~ /(\.[^.\/]+)$/ ? $1 : '');
			next if $seen{$np}++;
			push @ch, [$np, new_edit($st->{$p}, 1)], [$p, -$st->{$p}];
		} else {
			push @ch, [$p, -$st->{$p}];
		}
	}
	return if !@ch;
	$st->{$_->[0]} = $_->[1] for @ch;
	my $who = $areas && @$areas ? $areas->[0] =~ s{.*/}{}r : 'misc';
	emit_commit($br, "$who: $subj " . ident() . "\n\n" . join(' ', map { word() } 1 .. 12) . "\n",
		\@ch);
}

sub work { my ($br, $areas, $n, $cands) = @_; work_commit($br, $areas, pick([qw(fix add remove rework clean up convert)]), $cands) for 1 .. $n }

# Merge the commit of $snap into $br: per path, the newer version wins.
sub merge_into {
	my ($br, $snap, $msg) = @_;
	my $a = $state{$br};
	my $b = $snap->[1];
	my @ch;
	for my $p (sort keys %$b) {
		my $vb = $b->{$p};
		my $va = $a->{$p};
		next if defined $va && abs($va) >= abs($vb);
		push @ch, [$p, $vb] if $vb > 0 || (defined $va && $va > 0);
		$a->{$p} = $vb;
	}
	emit_commit($br, $msg, \@ch, $snap->[0]);
}

sub fixes {
	my ($n) = @_;
	for (1 .. $n) {
		my @free = grep { !$owned{$_} } @areas;
		work_commit('master', [$free[rint(scalar @free)]], 'fix');
	}
}

# subsystem trees forked at $from, worked on, merged in the merge window
sub subsystem_trees {
	my ($cycle, $from, $ntrees) = @_;
	my @trees;
	for my $i (1 .. $ntrees) {
		my $br = "subsys/" . word() . "-$cycle";
		next if $tip{$br};
		branch_from($br, $from);
		my $areas = take_areas($br, 1 + rint(3));
		work($br, $areas, scaled(8 + rint(30)));
		push @trees, $br;
	}
	return @trees;
}

sub pull_trees {
	my ($cycle, @trees) = @_;
	for my $br (@trees) {
		merge_into('master', snapshot($br), "Merge tag '${br}' of git://git.example.org/$br\n\nPull $br updates for $cycle.\n");
		free_areas($br);
	}
}

# v1.0: the whole tree at once
{
	my @ch = map { [$_, $base{$_}] } @paths;
	$state{master} = { map { $_ => $base{$_} } @paths };
	emit_commit('master', "Linux 1.0\n", \@ch);
	tag('v1.0', 'master');
}

reseed(3, 0);
my $fix_n = sub { scaled(15 + rint(25)) };

# ---- cycle 1.1
pull_trees('1.1', subsystem_trees('1.1', $tagged{'v1.0'}, 15));
tag('v1.1-rc1', 'master');
fixes($fix_n->()); tag('v1.1-rc2', 'master');
fixes($fix_n->()); tag('v1.1-rc3', 'master');

# topic/criss-cross: started at -rc3; mainline pulls it half-way in the next
# merge window, then it back-merges the release: two merge bases.
branch_from('topic/criss-cross', $tagged{'v1.1-rc3'});
my $cc_areas = take_areas('topic/criss-cross', 2);
my @cc_files = map { @{$area_files{$_}} } @$cc_areas;
my @cc_early = @cc_files[grep { $_ % 2 == 0 } 0 .. $#cc_files];
my @cc_late = @cc_files[grep { $_ % 2 == 1 } 0 .. $#cc_files];
work('topic/criss-cross', $cc_areas, scaled(6), \@cc_early);
my $cc_pulled = snapshot('topic/criss-cross');
work('topic/criss-cross', $cc_areas, scaled(3), \@cc_late);

fixes($fix_n->()); tag('v1.1-rc4', 'master');

# topic/messy: started at -rc4; mainline pulls part of it and part of a
# subsystem tree it merged; it back-merges the release: three merge bases.
branch_from('topic/messy', $tagged{'v1.1-rc4'});
my $m_areas = take_areas('topic/messy', 2);
my @m_files = map { @{$area_files{$_}} } @$m_areas;
my @m_early = @m_files[grep { $_ % 2 == 0 } 0 .. $#m_files];
my @m_late = @m_files[grep { $_ % 2 == 1 } 0 .. $#m_files];
work('topic/messy', $m_areas, scaled(5), \@m_early);
my $m_pulled = snapshot('topic/messy');

fixes($fix_n->()); tag('v1.1-rc5', 'master');

branch_from('subsys/media-next', $tagged{'v1.1-rc5'});
my $s_areas = take_areas('subsys/media-next', 2);
my @s_files = map { @{$area_files{$_}} } @$s_areas;
work('subsys/media-next', $s_areas, scaled(6), [@s_files[grep { $_ % 2 == 0 } 0 .. $#s_files]]);
my $s_pulled = snapshot('subsys/media-next');
work('subsys/media-next', $s_areas, scaled(4), [@s_files[grep { $_ % 2 == 1 } 0 .. $#s_files]]);

work('topic/messy', $m_areas, scaled(2), \@m_late);
merge_into('topic/messy', snapshot('subsys/media-next'), "Merge branch 'subsys/media-next' into topic/messy\n");

fixes($fix_n->()); tag('v1.1-rc6', 'master');
fixes($fix_n->()); tag('v1.1-rc7', 'master');
fixes(scaled(8)); tag('v1.1', 'master');

merge_into('topic/criss-cross', $tagged{'v1.1'}, "Merge tag 'v1.1' into topic/criss-cross\n");
work('topic/criss-cross', $cc_areas, scaled(6), \@cc_late);
merge_into('topic/messy', $tagged{'v1.1'}, "Merge tag 'v1.1' into topic/messy\n");
work('topic/messy', $m_areas, scaled(4), \@m_late);

# ---- cycle 1.2
my @trees12 = subsystem_trees('1.2', $tagged{'v1.1'}, 15);
pull_trees('1.2', @trees12[0 .. 6]);
merge_into('master', $cc_pulled, "Merge branch 'topic/criss-cross' (early part)\n");
merge_into('master', $s_pulled, "Merge tag 'media-1.2' of git://git.example.org/media\n");
pull_trees('1.2', @trees12[7 .. $#trees12]);
merge_into('master', $m_pulled, "Merge branch 'topic/messy' (early part)\n");
tag('v1.2-rc1', 'master');

# topic/article: the document's picture: one branch at -rc1, another at
# -rc2 merged into it, then more work.
branch_from('topic/article', $tagged{'v1.2-rc1'});
my $a_areas = take_areas('topic/article', 2);
work('topic/article', [$a_areas->[0]], scaled(4));

# next: a big tree of the coming cycle, started at -rc1
branch_from('next', $tagged{'v1.2-rc1'});
my $n_areas = take_areas('next', 12);
work('next', $n_areas, scaled(120));

fixes($fix_n->()); tag('v1.2-rc2', 'master');

branch_from('topic/article-2', $tagged{'v1.2-rc2'});
work('topic/article-2', [$a_areas->[1]], scaled(5));
merge_into('topic/article', snapshot('topic/article-2'), "Merge branch 'topic/article-2' into topic/article\n");
work('topic/article', [$a_areas->[0]], scaled(3));

fixes($fix_n->()); tag('v1.2-rc3', 'master');
# mainline fixes code the criss-cross topic no longer touches
work_commit('master', $cc_areas, 'fix', \@cc_early);
merge_into('next', $tagged{'v1.2-rc3'}, "Merge tag 'v1.2-rc3' into next\n");
work('next', $n_areas, scaled(30));
fixes(scaled(6));

print "done\n";

if ($opt{pairs}) {
	open(my $fh, '>', $opt{pairs}) or die "gen-stream.perl: $opt{pairs}: $!\n";
	print $fh "# <upstream> <head> for bench/run; see bench/README\n";
	print $fh "master topic/messy\n";
	print $fh "master topic/criss-cross\n";
	print $fh "master topic/article\n";
	print $fh "master next\n";
	close($fh) or die "gen-stream.perl: $opt{pairs}: $!\n";
}
printf STDERR "gen-stream.perl: %d files, %d dirs, %d marks\n", scalar @paths, scalar @alldirs, $mark;
