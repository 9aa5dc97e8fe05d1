/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_probe.c - before `tiprof lbr record`/`stat` run a command: can this process open the
 * perf events the tracer needs (the sampling event; for hwbp, an execute breakpoint)? If not,
 * one line that says why and what to do, instead of a program that runs untraced. */
#define _GNU_SOURCE
#include "lbr_probe.h"

#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lbr_file.h"

static int paranoid_level(void)
{
	char buf[32] = "";
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = -100;
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			sscanf(buf, "%d", &v);
		fclose(f);
	}
	return v;
}

static void probe_site(void)
{
}

static int try_open(struct perf_event_attr *a)
{
	a->size = sizeof(*a);
	a->disabled = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	long fd = syscall(SYS_perf_event_open, a, 0, -1, -1, 0UL);
	if (fd < 0)
		return -errno;
	close((int)fd);
	return 0;
}

static void explain(char *msg, size_t n, const char *what, int err, const char *alt)
{
	int par = paranoid_level();
	if ((err == EACCES || err == EPERM) && par > 2)
		snprintf(msg, n, "perf_event_open(%s): %s: kernel.perf_event_paranoid is %d, which "
			 "allows no perf events to unprivileged users: run as root, or 'sysctl "
			 "kernel.perf_event_paranoid=2'", what, strerror(err), par);
	else if (err == EACCES || err == EPERM)
		snprintf(msg, n, "perf_event_open(%s): %s, although kernel.perf_event_paranoid is "
			 "%d: a seccomp filter, container or security module denies it; run where "
			 "perf_event_open is allowed, or as root", what, strerror(err), par);
	else if (err == ENOSYS)
		snprintf(msg, n, "perf_event_open(%s): %s: this kernel has no perf events "
			 "(CONFIG_PERF_EVENTS)", what, strerror(err));
	else
		snprintf(msg, n, "perf_event_open(%s): %s: not available here%s%s", what,
			 strerror(err), alt ? "; " : "", alt ? alt : "");
}

int lbr_probe_perf(int event, int hw_breakpoint, char *msg, size_t n)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	switch (event) {
	case LBR_EV_TASK_CLOCK: a.type = PERF_TYPE_SOFTWARE; a.config = PERF_COUNT_SW_TASK_CLOCK; break;
	case LBR_EV_CPU_CLOCK: a.type = PERF_TYPE_SOFTWARE; a.config = PERF_COUNT_SW_CPU_CLOCK; break;
	case LBR_EV_CYCLES: a.type = PERF_TYPE_HARDWARE; a.config = PERF_COUNT_HW_CPU_CYCLES; break;
	default: a.type = PERF_TYPE_HARDWARE; a.config = PERF_COUNT_HW_INSTRUCTIONS; break;
	}
	a.sample_period = 1000000;
	int err = try_open(&a);
	if (err) {
		explain(msg, n, lbr_event_name((unsigned)event), -err,
			a.type == PERF_TYPE_HARDWARE ? "no hardware PMU? use --event task-clock" : NULL);
		return -1;
	}
	if (!hw_breakpoint)
		return 0;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_X;
	a.bp_addr = (uint64_t)(uintptr_t)probe_site;
	a.bp_len = sizeof(long);
	a.sample_period = 1;
	err = try_open(&a);
	if (err) {
		explain(msg, n, "hardware breakpoint", -err,
			"use software breakpoints: --mech int3");
		return -1;
	}
	return 0;
}
