// SPDX-License-Identifier: GPL-2.0-only
/*
 * An LD_PRELOAD probe for bench/run: when a process whose program name is
 * $BENCH_VMHWM_PROG exits, append "<name> <pid> <VmHWM in kB>" to
 * $BENCH_VMHWM_FILE.
 *
 * /usr/bin/time -f %M cannot give the tool's own peak: wait4() folds the
 * peak of every child the tool waited for (merge-tree, diff) into the
 * tool's, so it reports the largest git child instead.  VmHWM read by the
 * process itself at exit is its own peak resident set and nothing else.
 *
 * It reads /proc/self/status into a stack buffer with plain system calls
 * so that the probe itself does not raise the figure it reports.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void bench_vmhwm_report(void) __attribute__((destructor));

void bench_vmhwm_report(void)
{
	const char *file = getenv("BENCH_VMHWM_FILE");
	const char *prog = getenv("BENCH_VMHWM_PROG");
	char buf[4096], line[256];
	const char *hwm;
	ssize_t n;
	int fd, len;

	if (!file || !prog || strcmp(program_invocation_short_name, prog))
		return;
	fd = open("/proc/self/status", O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	hwm = strstr(buf, "\nVmHWM:");
	if (!hwm)
		return;
	len = snprintf(line, sizeof(line), "%s %ld %ld\n", prog, (long)getpid(),
		       strtol(hwm + 7, NULL, 10));
	fd = open(file, O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd < 0)
		return;
	if (write(fd, line, len) != len)
		errno = 0;
	close(fd);
}
