# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Servers on the loopback for the tests that fetch: each listens on
# 127.0.0.1 on a free port, serves the test's directory and is a child of
# the test, never a daemon of its own: it runs in its own process group
# (setsid), its pid is $!, its output goes to a log and bats's fd 3 is
# closed for it, so that nothing it leaves behind can keep bats waiting.
# A file that starts servers stops them in its teardown:
#
#	teardown() { stop_servers; }
#
#   start_git_daemon [<dir>]
#                          git daemon serving <dir> (default: the test's
#                          directory), every repository exported; its
#                          base URL in $DAEMON_URL (git://127.0.0.1:<port>)
#   start_http_server [--auth=<user>:<password>] [<dir>]
#                          git http-backend behind lighttpd serving <dir>
#                          the same way over smart HTTP; its base URL in
#                          $HTTP_URL, the log of the requests it served
#                          in $HTTP_LOG ("<user or -> <method> <URI>" a
#                          line, written before the answer).  --auth:
#                          every request must authenticate as <user>
#                          (basic).  Skips the test when there is no
#                          lighttpd, or when the git under test has no
#                          HTTP transport (built without curl).
#   start_silent_server    accepts connections and never answers a byte;
#                          its port in $SILENT_PORT
#   start_drip_proxy <port> <bytes> <seconds> [<limit>]
#                          a proxy to the server on <port> of the
#                          loopback: what the client sends goes on at
#                          once, what the server answers comes back
#                          <bytes> at a time, one lot every <seconds>
#                          (a slow link that does send); with <limit>,
#                          it sends that many bytes of each answer and
#                          then nothing more, the connection held open
#                          (a server that goes silent halfway).  Its
#                          port in $DRIP_PORT
#   stop_servers           every server stopped and waited for, with all
#                          of its process group; then fails, after
#                          killing them, if processes naming the test's
#                          directory are left (a server started some
#                          other way, a --detach'ed git daemon ...)
#
# Each start_* waits (10 s at most) until its server accepts
# connections, and fails if it does not; the server is stopped by
# stop_servers all the same.

# Where the servers keep their configuration, logs and the list of
# their pids ("<pid> <name>" a line).
servers_dir() {
	echo "$BATS_TEST_TMPDIR/servers"
}

# free_port: a port of 127.0.0.1 that nobody listens on, for a server
# that cannot be told to pick one itself.  Another may take it first:
# start_* then try another.
free_port() {
	perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(
		LocalAddr => "127.0.0.1", LocalPort => 0, Listen => 1)->sockport, "\n"'
}

# start_server <name> <command>...: run <command> in the background in a
# process group of its own, stdin /dev/null, stdout and stderr to
# servers/<name>.log, fd 3 closed; its pid in $SERVER_PID and in the list
# stop_servers reads.
start_server() {
	local name=$1 dir
	shift
	dir=$(servers_dir)
	mkdir -p "$dir" || return
	setsid "$@" </dev/null >>"$dir/$name.log" 2>&1 3>&- &
	SERVER_PID=$!
	echo "$SERVER_PID $name" >>"$dir/pids"
}

# alive <pid>: the process runs (a zombie does not).
alive() {
	local state
	[ -r "/proc/$1/stat" ] || { kill -0 "$1" 2>/dev/null; return; }
	read -r _ _ state _ <"/proc/$1/stat" 2>/dev/null && [ "$state" != Z ]
}

# wait_listening <pid> <port> <name>: wait until a connection to <port>
# succeeds, 10 s at most; 2 when the server <pid> exited first (its
# port taken, say), 1 when it never listened.
wait_listening() {
	local tries=200
	while ! (: <>"/dev/tcp/127.0.0.1/$2") 2>/dev/null; do
		if ! alive "$1"; then
			return 2
		fi
		if [ "$tries" -eq 0 ]; then
			echo "the $3 server ($1) does not listen on port $2" >&2
			return 1
		fi
		sleep 0.05
		tries=$((tries - 1))
	done
	alive "$1" || return 2
}

# start_on_free_port <name> <command>...: <command>... <port> starts a
# server with start_server on that port; tried on up to three free ports,
# as another process may take one between free_port and the server.
start_on_free_port() {
	local name=$1 port tries=3 rc
	shift
	while [ "$tries" -gt 0 ]; do
		port=$(free_port) && "$@" "$port" || return
		rc=0
		wait_listening "$SERVER_PID" "$port" "$name" || rc=$?
		[ "$rc" -eq 2 ] || return "$rc"
		tries=$((tries - 1))
	done
	echo "the $name server exited at once three times; its log:" >&2
	cat "$(servers_dir)/$name.log" >&2
	return 1
}

start_git_daemon() {
	start_on_free_port git-daemon git_daemon_on "${1:-$BATS_TEST_TMPDIR}"
}

# git_daemon_on <dir> <port>
# shellcheck disable=SC2034 # DAEMON_URL is for the tests
git_daemon_on() {
	start_server git-daemon git daemon --listen=127.0.0.1 --port="$2" \
		--export-all --reuseaddr --base-path="$1" "$1" &&
	DAEMON_URL=git://127.0.0.1:$2
}

start_http_server() {
	local auth='' root dir backend
	case ${1-} in
	--auth=*) auth=${1#--auth=} && shift ;;
	esac
	root=${1:-$BATS_TEST_TMPDIR}
	command -v lighttpd >/dev/null || skip "no lighttpd for an HTTP server"
	# a git built without curl (NO_CURL, as the version matrix builds
	# them) has no HTTP transport to fetch with
	[ -x "$(git --exec-path)/git-remote-http" ] ||
		skip "this git has no HTTP transport (built without curl)"
	dir=$(servers_dir)
	mkdir -p "$dir" || return
	HTTP_LOG=$dir/http-requests.log
	# git http-backend, logging each request it serves: lighttpd's own
	# access log is written a second or so later
	backend=$dir/git-http-backend
	# shellcheck disable=SC2016 # the CGI's variables
	printf '#!/bin/sh\n%s\n%s\n' \
		'echo "${REMOTE_USER:--} $REQUEST_METHOD $REQUEST_URI" >>"$REQUEST_LOG"' \
		"exec '$(git --exec-path)/git-http-backend'" >"$backend" &&
	chmod +x "$backend" || return
	# the configuration but the port: that CGI for every URL, the
	# repository's path its PATH_INFO, with the test's environment (the
	# CGI gets lighttpd's, which is nearly empty)
	cat >"$dir/lighttpd.conf.in" <<-EOF || return
	server.modules = ("mod_auth", "mod_authn_file", "mod_alias",
		"mod_setenv", "mod_cgi", "mod_accesslog")
	server.bind = "127.0.0.1"
	server.document-root = "$root"
	server.errorlog = "$dir/http-error.log"
	accesslog.filename = "$dir/http-access.log"
	alias.url = ("/" => "$backend/")
	cgi.assign = ("" => "")
	setenv.set-environment = (
		"GIT_PROJECT_ROOT" => "$root",
		"GIT_HTTP_EXPORT_ALL" => "1",
		"GIT_CONFIG_NOSYSTEM" => "1",
		"HOME" => "$HOME",
		"PATH" => "$PATH",
		"REQUEST_LOG" => "$HTTP_LOG",
	)
	EOF
	if [ -n "$auth" ]; then
		echo "$auth" >"$dir/http-users" &&
		cat >>"$dir/lighttpd.conf.in" <<-EOF || return
		auth.backend = "plain"
		auth.backend.plain.userfile = "$dir/http-users"
		auth.require = ("" => ("method" => "basic", "realm" => "git",
			"require" => "valid-user"))
		EOF
	fi
	start_on_free_port http http_server_on "$dir"
}

# http_server_on <dir> <port>: lighttpd with <dir>/lighttpd.conf.in.
# shellcheck disable=SC2034 # HTTP_URL is for the tests
http_server_on() {
	{
		cat "$1/lighttpd.conf.in" &&
		echo "server.port = $2"
	} >"$1/lighttpd.conf" &&
	start_server http lighttpd -D -f "$1/lighttpd.conf" &&
	HTTP_URL=http://127.0.0.1:$2
}

# start_silent_server: a server that accepts every connection, holds
# it open and reads nothing; its port in $SILENT_PORT.
# shellcheck disable=SC2034 # SILENT_PORT is for the tests
start_silent_server() {
	# shellcheck disable=SC2016 # perl's variables
	listen_and_say_port silent perl -MIO::Socket::INET -e '
		my $s = IO::Socket::INET->new(LocalAddr => "127.0.0.1",
			LocalPort => 0, Listen => 16) or die "listen: $!\n";
		open(my $f, ">", "$ARGV[0].new") or die "$ARGV[0]: $!\n";
		print $f $s->sockport, "\n";
		close($f);
		rename("$ARGV[0].new", $ARGV[0]) or die "$ARGV[0]: $!\n";
		my @held;
		while (my $c = $s->accept) { push(@held, $c) }' &&
	SILENT_PORT=$LISTEN_PORT
}

# listen_and_say_port <name> <command>...: start_server <name> with
# <command> <file>..., a server that listens on a port it picks and
# writes it to <file>; wait until it listens there, the port in
# $LISTEN_PORT.
listen_and_say_port() {
	local name=$1 dir tries=200
	shift
	dir=$(servers_dir)
	mkdir -p "$dir" && rm -f "$dir/$name.port" || return
	start_server "$name" "$@" "$dir/$name.port" || return
	while [ ! -s "$dir/$name.port" ]; do
		if ! alive "$SERVER_PID" || [ "$tries" -eq 0 ]; then
			echo "the $name server did not start; its log:" >&2
			cat "$dir/$name.log" >&2
			return 1
		fi
		sleep 0.05
		tries=$((tries - 1))
	done
	read -r LISTEN_PORT <"$dir/$name.port" &&
	wait_listening "$SERVER_PID" "$LISTEN_PORT" "$name"
}

# shellcheck disable=SC2034 # DRIP_PORT is for the tests
start_drip_proxy() {
	# a process for each connection, which forwards both ways
	# shellcheck disable=SC2016 # perl's variables
	listen_and_say_port drip perl -MIO::Socket::INET -MIO::Select \
		-MTime::HiRes=time -e '
		my ($to, $lot, $pace, $limit) = @ARGV[0 .. 3];
		my $s = IO::Socket::INET->new(LocalAddr => "127.0.0.1",
			LocalPort => 0, Listen => 16) or die "listen: $!\n";
		open(my $f, ">", "$ARGV[4].new") or die "$ARGV[4]: $!\n";
		print $f $s->sockport, "\n";
		close($f);
		rename("$ARGV[4].new", $ARGV[4]) or die "$ARGV[4]: $!\n";
		$SIG{CHLD} = "IGNORE";
		while (my $c = $s->accept) {
			my $pid = fork();
			die "fork: $!\n" unless defined $pid;
			if ($pid) { close($c); next }
			close($s);
			my $u = IO::Socket::INET->new(PeerAddr => "127.0.0.1",
				PeerPort => $to) or die "connect: $!\n";
			my $sel = IO::Select->new($c, $u);
			my ($held, $sent, $next, $ended) = ("", 0, 0, 0);
			for (;;) {
				my $wait = length($held) ? $next - time() : undef;
				$wait = 0 if defined($wait) && $wait < 0;
				$wait = undef if $limit ne "" && $sent >= $limit;
				for my $h ($sel->can_read($wait)) {
					my $n = sysread($h, my $buf, 65536);
					if ($h == $u) {
						$n ? ($held .= $buf) : ($ended = 1);
						$sel->remove($u) unless $n;
					} elsif ($n) {
						syswrite($u, $buf);
					} else {
						$sel->remove($c);
						shutdown($u, 1);
					}
				}
				if (length($held) && time() >= $next &&
				    ($limit eq "" || $sent < $limit)) {
					my $n = $limit eq "" || $limit - $sent > $lot ?
						$lot : $limit - $sent;
					$sent += syswrite($c, substr($held, 0, $n, ""));
					$next = time() + $pace;
				}
				exit 0 if $ended && !length($held);
				exit 0 if !$sel->count && !length($held);
			}
		}' "$1" "$2" "$3" "${4-}" &&
	DRIP_PORT=$LISTEN_PORT
}

# live_processes: "<pid> <process group> <command line>" of every process
# of the machine that is not a zombie.
live_processes() {
	ps -e -o pid= -o pgid= -o stat= -o args= | awk '$3 !~ /^Z/ { $3 = ""; print }'
}

# Every test's teardown runs stop_servers, which looks at every process
# of the machine: in bash, from /proc, where there is one (and a bash
# of mapfile -d), no process started; ps and the awk filters that
# remain for other systems cost some 60 ms of CPU a test.
have_proc() {
	[ -r /proc/self/stat ] && [ -r /proc/self/cmdline ] &&
	((BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 4)))
}

# group_alive <pgid>: some process of the process group <pgid> is alive
# (a zombie is not).
group_alive() {
	local stat rest state
	have_proc || {
		[ -n "$(live_processes | awk -v g="$1" '$2 == g')" ]
		return
	}
	for stat in /proc/[0-9]*/stat; do
		# "<pid> (<comm>) <state> <ppid> <pgrp> ...", comm any bytes
		IFS= read -r rest 2>/dev/null <"$stat" || continue
		rest=${rest##*) }
		state=${rest%% *}
		rest=${rest#* }
		rest=${rest#* }
		[ "${rest%% *}" != "$1" ] || [ "$state" = Z ] || return 0
	done
	return 1
}

# names_test_dir: the processes whose command line names the test's
# directory (it, or a path in it, as a word of its own or after a
# "="): "<pid> <command line>" a line.
names_test_dir() {
	test_dir_processes &&
	printf '%s' "$REPLY"
}

# test_dir_processes: names_test_dir's lines in $REPLY.  Where there is
# /proc, in bash, so that stop_servers, in every teardown, needs no
# $(...): a fork of the test's shell is some 10 ms of CPU here.
test_dir_processes() {
	local d=$BATS_TEST_TMPDIR IFS=$' \t\n' files cmdline args word before after glob=1
	REPLY=
	if ! have_proc; then
		# (the directory passed in the environment, so that awk's own
		# command line does not name it)
		REPLY=$(live_processes | D=$d awk '
			function names(a, d,   p) {
				p = index(a, d)
				return p && (p == 1 || substr(a, p - 1, 1) == "=") &&
					(p + length(d) > length(a) || substr(a, p + length(d), 1) == "/")
			}
			{ for (i = 3; i <= NF; i++) if (names($i, ENVIRON["D"])) { print; next } }') ||
			return
		[ -z "$REPLY" ] || REPLY+=$'\n'
		return
	fi
	files=(/proc/[0-9]*/cmdline)
	# the words of each command line, as ps shows it (a zombie's is
	# empty), no pattern in them expanded
	[[ $- != *f* ]] || glob=
	set -f
	for cmdline in "${files[@]}"; do
		args=()
		mapfile -t -d '' args 2>/dev/null <"$cmdline" || continue
		# no word can name it if the whole line does not
		[[ ${args[*]} == *"$d"* ]] || continue
		# shellcheck disable=SC2048 # split into words, as ps's line
		for word in ${args[*]}; do
			[[ $word == *"$d"* ]] || continue
			before=${word%%"$d"*}
			after=${word#"$before$d"}
			if { [ -z "$before" ] || [[ $before == *= ]]; } &&
			   { [ -z "$after" ] || [[ $after == /* ]]; }; then
				cmdline=${cmdline#/proc/}
				REPLY+="${cmdline%/cmdline} ${args[*]}"$'\n'
				break
			fi
		done
	done
	[ -z "$glob" ] || set +f
}

stop_servers() {
	local dir=$BATS_TEST_TMPDIR/servers pid name tries rc=0 left
	if [ -f "$dir/pids" ]; then
		while read -r pid name; do
			kill -TERM -- "-$pid" 2>/dev/null || :
			wait "$pid" 2>/dev/null || :
		done <"$dir/pids"
		while read -r pid name; do
			tries=100
			while group_alive "$pid"; do
				if [ "$tries" -eq 0 ]; then
					echo "the $name server ($pid) outlived SIGTERM:" >&2
					live_processes | awk -v g="$pid" '$2 == g' >&2
					kill -KILL -- "-$pid" 2>/dev/null || :
					rc=1
					break
				fi
				sleep 0.05
				tries=$((tries - 1))
			done
		done <"$dir/pids"
		rm -f "$dir/pids"
	fi
	# whatever else still names this test's directory was started by the
	# test and outlives it
	test_dir_processes || return
	left=$REPLY
	if [ -n "$left" ]; then
		echo "processes of this test outlive it:" >&2
		printf '%s' "$left" >&2
		while read -r pid _; do
			kill -KILL "$pid" 2>/dev/null || :
		done <<<"${left%$'\n'}"
		# a SIGKILL is delivered, not waited for: until they are
		# gone, the next look would find them again
		tries=100
		while [ "$tries" -gt 0 ] && test_dir_processes && [ -n "$REPLY" ]; do
			sleep 0.05
			tries=$((tries - 1))
		done
		rc=1
	fi
	return "$rc"
}
