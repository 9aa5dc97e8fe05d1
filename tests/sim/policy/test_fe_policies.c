/* SPDX-License-Identifier: Apache-2.0 */
/* test_fe_policies.c - directed tests of the Dispatch and Software policies
 * (sim/policy/fe_policies.h) on hand-made retired-record streams. Prints one line per check
 * and 'N passed, N failed'; exit status 0 only if all pass. */
#include <stdio.h>

#include "fe_policies.h"

struct tally {
	int pass, fail;
};

static void check(struct tally *t, int cond, const char *what)
{
	if (cond)
		t->pass++;
	else
		t->fail++;
	printf("  %s  %s\n", cond ? "ok  " : "FAIL", what);
}

/* A record: pc, fetch cycle, dispatch cycle, committed. */
struct rec {
	uint64_t pc, tf, td;
	int committed;
};

static void feed(struct fe_policies *fp, const struct rec *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fe_policies_retire(fp, r[i].pc, r[i].tf, r[i].td, r[i].committed);
}

int main(void)
{
	struct tally t = { 0, 0 };
	struct fe_policies fp;
	/* fetch groups at cycles 10 (0x100, 0x104), 12 (0x108), 30 (0x10c, an ecall that
	 * traps), 40 (0x110); dispatch at 15, 15, 16, 35, 45 */
	static const struct rec r[] = {
		{ 0x100, 10, 15, 1 }, { 0x104, 10, 15, 1 }, { 0x108, 12, 16, 1 },
		{ 0x10c, 30, 35, 0 }, { 0x110, 40, 45, 1 },
	};

	if (fe_policies_init(&fp, 5))
		return 1;
	fe_policies_sample(&fp, 3);   /* before any dispatch: first dispatched 0x100; sw t+5=8: */
	fe_policies_sample(&fp, 15);  /* dispatch 0x100 and 0x104 in 15: the first, 0x100 */
	fe_policies_sample(&fp, 16);  /* 0x108 dispatched in 16; sw 21 -> group 12 (0x108) */
	fe_policies_sample(&fp, 20);  /* nothing dispatched in 20: next is 0x10c (trapped): drop */
	fe_policies_sample(&fp, 36);  /* next dispatched 0x110; sw 41 -> group 40 (0x110) */
	fe_policies_sample(&fp, 50);  /* after the last dispatch: unresolved; sw 55 -> 0x110 */
	feed(&fp, r, sizeof(r) / sizeof(r[0]));
	fe_policies_finish(&fp);
	check(&t, profile_get(&fp.disp, 0x100) == 2, "Dispatch: sample before/at a dispatch tags "
	      "the first instruction dispatched at or after it (ROB order)");
	check(&t, profile_get(&fp.disp, 0x104) == 0, "Dispatch: only the first of a dispatch group");
	check(&t, profile_get(&fp.disp, 0x108) == 1 && profile_get(&fp.disp, 0x110) == 1,
	      "Dispatch: a cycle without dispatch tags the next one dispatched");
	check(&t, fp.disp_dropped == 1 && profile_get(&fp.disp, 0x10c) == 0,
	      "Dispatch: a tagged instruction that never commits drops the sample (counted)");
	check(&t, fp.disp_unresolved == 1 && fp.disp_attributed == 4 && fp.samples == 6,
	      "Dispatch: samples after the last dispatch are counted unresolved");
	/* Software, skid 5: targets 8 (before any fetch: first fetched, 0x100), 20 (group 12:
	 * 0x108), 21 (0x108), 25 (0x108), 41 (group 40: 0x110), 55 (end: 0x110) */
	check(&t, profile_get(&fp.sw, 0x100) == 1, "Software: before the first fetch, the first "
	      "fetched instruction");
	check(&t, profile_get(&fp.sw, 0x108) == 3, "Software: the latest fetch group at or before "
	      "t+L (its first instruction)");
	check(&t, profile_get(&fp.sw, 0x104) == 0 && profile_get(&fp.sw, 0x10c) == 0,
	      "Software: never a later group, never a non-first member");
	check(&t, profile_get(&fp.sw, 0x110) == 2 && fp.sw.total == 6,
	      "Software: every sample attributed; pending ones go to the last group at the end");
	fe_policies_free(&fp);

	/* a long stream through the growing queues */
	if (fe_policies_init(&fp, 40))
		return 1;
	for (uint64_t c = 0; c < 100000; c++) {
		fe_policies_sample(&fp, c);
		if (c >= 1000 && c % 2 == 0)    /* one instruction every 2 cycles, 1000 late */
			fe_policies_retire(&fp, 0x1000 + 4 * ((c - 1000) % 64), c - 1000, c - 990, 1);
	}
	fe_policies_finish(&fp);
	check(&t, !fp.oom && fp.disp_attributed + fp.disp_unresolved == 100000 &&
	      fp.sw.total == 100000, "queues grow: 100000 samples, none lost");
	fe_policies_free(&fp);
	printf("test_fe_policies: %d passed, %d failed\n", t.pass, t.fail);
	return t.fail != 0;
}
