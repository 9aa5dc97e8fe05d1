/* SPDX-License-Identifier: Apache-2.0 */
/* deny_perf.c - test-only LD_PRELOAD shim: perf_event_open through libc's syscall() fails with
 * EACCES, as under kernel.perf_event_paranoid=3 for an unprivileged user (tests/sw/lbr/run.sh
 * checks that `tiprof-lbr record` then says so in one line and does not run the command). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>

long syscall(long nr, ...)
{
	va_list ap;
	long a[6];
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_perf_event_open) {
		errno = EACCES;
		return -1;
	}
	long (*real)(long, ...) = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
