/* lbr_stop_sw.c - the software-breakpoint stopping mechanism (placeholder until implemented:
 * every call fails, so a session asking for it reports -ENOSYS). */
#define _GNU_SOURCE
#include "lbr_trace.h"

#include <errno.h>

int lbr_sw_on_sigtrap(siginfo_t *si, void *uc);
int lbr_sw_on_sigtrap(siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	return 0;
}

static int sw_thread_init(struct lbr_thread *t)
{
	(void)t;
	return -ENOSYS;
}

static void sw_thread_fini(struct lbr_thread *t)
{
	(void)t;
}

static int sw_arm(struct lbr_thread *t, uint64_t pc)
{
	(void)t;
	(void)pc;
	return -1;
}

static void sw_disarm(struct lbr_thread *t)
{
	(void)t;
}

const struct lbr_stop_ops lbr_stop_sw = {
	.name = "int3",
	.thread_init = sw_thread_init,
	.thread_fini = sw_thread_fini,
	.arm = sw_arm,
	.disarm = sw_disarm,
	.enable = NULL,
};
