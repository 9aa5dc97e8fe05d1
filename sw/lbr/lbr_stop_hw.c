/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_stop_hw.c - the hardware-breakpoint stopping mechanism: one perf_event
 * PERF_TYPE_BREAKPOINT/HW_BREAKPOINT_X event per thread, kept enabled and re-pointed with
 * PERF_EVENT_IOC_MODIFY_ATTRIBUTES. Its overflow signal (cfg.signo, si_fd == stop_fd) arrives
 * before the instruction executes; the kernel sets RF, so returning runs it once. Disarming
 * parks the breakpoint on lbr_hw_park_site, a function that is never called. */
#define _GNU_SOURCE
#include "lbr_trace.h"
#include "lbr_sys.h"

#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int lbr_trace_open_route(struct perf_event_attr *a, pid_t tid);

/* Never executed: the parking address of disarmed breakpoints. */
__attribute__((noinline, used)) void lbr_hw_park_site(void);
__attribute__((noinline, used)) void lbr_hw_park_site(void)
{
	__asm__ volatile("");
}

static void bp_attr(struct perf_event_attr *a, uint64_t addr)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_BREAKPOINT;
	a->bp_type = HW_BREAKPOINT_X;
	a->bp_addr = addr;
	a->bp_len = sizeof(long);
	a->sample_period = 1;
	a->wakeup_events = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

static int hw_thread_init(struct lbr_thread *t)
{
	struct perf_event_attr a;
	bp_attr(&a, (uint64_t)(uintptr_t)lbr_hw_park_site);
	a.disabled = 1;
	int fd = lbr_trace_open_route(&a, t->tid);
	if (fd < 0)
		return fd;
	t->stop_fd = fd;
	return 0;
}

static void hw_thread_fini(struct lbr_thread *t)
{
	if (t->stop_fd >= 0)
		close(t->stop_fd);
	t->stop_fd = -1;
}

/* Re-pointing to the address already armed (a loop's back edge) costs no ioctl. */
static int hw_arm(struct lbr_thread *t, uint64_t pc)
{
	struct perf_event_attr a;
	if (t->stop_addr == pc && !t->stop_data)
		return 0;
	bp_attr(&a, pc);
	if (lbr_sys3(SYS_ioctl, t->stop_fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a) != 0)
		return -1;
	t->stop_addr = pc;
	t->stop_data = 0;
	return 0;
}

/* A data checkpoint (lbr_emu.h): the same perf event re-typed as a read/write watchpoint on
 * the 8-byte granule at addr; it traps after the accessing instruction, with the ucontext at
 * the next one (no RF involved). */
static int hw_arm_data(struct lbr_thread *t, uint64_t addr)
{
	struct perf_event_attr a;
	if (t->stop_addr == addr && t->stop_data)
		return 0;
	bp_attr(&a, addr);
	a.bp_type = HW_BREAKPOINT_RW;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	if (lbr_sys3(SYS_ioctl, t->stop_fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a) != 0)
		return -1;
	t->stop_addr = addr;
	t->stop_data = 1;
	return 0;
}

static void hw_disarm(struct lbr_thread *t)
{
	struct perf_event_attr a;
	if (t->stop_addr == 0)
		return;
	bp_attr(&a, (uint64_t)(uintptr_t)lbr_hw_park_site);
	lbr_sys3(SYS_ioctl, t->stop_fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a);
	t->stop_addr = 0;
	t->stop_data = 0;
}

static void hw_enable(struct lbr_thread *t, int on)
{
	if (t->stop_fd >= 0)
		lbr_sys3(SYS_ioctl, t->stop_fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

const struct lbr_stop_ops lbr_stop_hw = {
	.name = "hwbp",
	.thread_init = hw_thread_init,
	.thread_fini = hw_thread_fini,
	.arm = hw_arm,
	.arm_data = hw_arm_data,
	.disarm = hw_disarm,
	.enable = hw_enable,
};
