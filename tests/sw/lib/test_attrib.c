/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_attrib.c - unit test of sw/lib/attrib: the four commit states' attribution rules,
 * stall typing through the callback, aggregation, sorting, growth of the hash. Prints
 * one line per failed check and a summary; exit status 1 on a failure.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "attrib.h"

static int fails, checks;

#define CHECK(cond) do { checks++; if (!(cond)) { fails++; \
	fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)

/* Addresses >= 0x2000 are loads, >= 0x3000 stores, others ALU. */
static int kind(void *ctx, uint64_t addr)
{
	(void)ctx;
	return addr >= 0x3000 ? ATTR_KIND_STORE : addr >= 0x2000 ? ATTR_KIND_LOAD : ATTR_KIND_ALU;
}

static double w(const struct attr_prof *p, uint64_t a, unsigned c)
{
	const struct attr_ent *e = attr_prof_get(p, a);

	return e ? e->w[c] : 0.0;
}

int main(void)
{
	struct attr_prof p;
	struct tiprof_sample s;

	attr_prof_init(&p);
	/* Computing, 3 of 4 banks valid: 1/3 each */
	memset(&s, 0, sizeof(s));
	s.valid = 0x0b;
	s.bank = 3;
	s.addr[0] = 0x1000; s.addr[1] = 0x1004; s.addr[3] = 0x0ffc;
	CHECK(attr_sample(&p, 4, &s, kind, NULL) == 0);
	CHECK(fabs(w(&p, 0x1000, TIPROF_CAT_EXECUTE) - 1.0 / 3) < 1e-12);
	CHECK(fabs(w(&p, 0x0ffc, TIPROF_CAT_EXECUTE) - 1.0 / 3) < 1e-12);
	CHECK(attr_prof_get(&p, 0) == NULL);
	/* Stalled: the oldest bank only, typed by the callback */
	memset(&s, 0, sizeof(s));
	s.flags = TIPROF_SF_STALLED;
	s.valid = 0x0f;
	s.bank = 2;
	s.addr[0] = 0x1010; s.addr[1] = 0x1014; s.addr[2] = 0x2008; s.addr[3] = 0x200c;
	CHECK(attr_sample(&p, 4, &s, kind, NULL) == 0);
	CHECK(w(&p, 0x2008, TIPROF_CAT_LOAD_STALL) == 1.0);
	CHECK(attr_prof_get(&p, 0x200c) == NULL);
	s.bank = 0;
	s.addr[0] = 0x3000;
	CHECK(attr_sample(&p, 4, &s, kind, NULL) == 0);
	CHECK(w(&p, 0x3000, TIPROF_CAT_STORE_STALL) == 1.0);
	CHECK(attr_sample(&p, 4, &s, NULL, NULL) == 0);
	CHECK(w(&p, 0x3000, TIPROF_CAT_ALU_STALL) == 1.0);
	/* Flushed: slot 0, mispredict or other */
	memset(&s, 0, sizeof(s));
	s.flags = TIPROF_SF_MISPRED;
	s.valid = 1;
	s.addr[0] = 0x1100;
	CHECK(attr_sample(&p, 4, &s, kind, NULL) == 0);
	s.flags = TIPROF_SF_EXCEPTION;
	CHECK(attr_sample(&p, 4, &s, kind, NULL) == 0);
	s.flags = TIPROF_SF_FLUSH;
	CHECK(attr_sample(&p, 4, &s, kind, NULL) == 0);
	CHECK(w(&p, 0x1100, TIPROF_CAT_MISPRED_FLUSH) == 1.0);
	CHECK(w(&p, 0x1100, TIPROF_CAT_OTHER_FLUSH) == 2.0);
	/* Drained: the valid slot */
	memset(&s, 0, sizeof(s));
	s.flags = TIPROF_SF_FRONTEND;
	s.bank = 2;
	s.valid = 4;
	s.addr[2] = 0x1200;
	CHECK(attr_sample(&p, 4, &s, kind, NULL) == 0);
	CHECK(w(&p, 0x1200, TIPROF_CAT_FRONTEND) == 1.0);
	/* no valid slot: skipped and counted */
	s.valid = 0;
	CHECK(attr_sample(&p, 4, &s, kind, NULL) == 0);
	CHECK(p.bad == 1 && p.samples == 8);
	CHECK(fabs(p.total - 8.0) < 1e-12);
	CHECK(fabs(p.cat[TIPROF_CAT_EXECUTE] - 1.0) < 1e-12);
	/* growth and sorting */
	for (uint64_t a = 0; a < 5000; a++)
		CHECK(attr_prof_add(&p, 0x100000 + 4 * a, TIPROF_CAT_EXECUTE, (double)(a % 7)) == 0);
	attr_prof_sort(&p);
	for (size_t i = 1; i < p.n; i++)
		if (p.ent[i - 1].total < p.ent[i].total)
			CHECK(!"sorted by weight");
	CHECK(w(&p, 0x100000 + 4 * 6, TIPROF_CAT_EXECUTE) == 6.0);
	CHECK(w(&p, 0x1100, TIPROF_CAT_OTHER_FLUSH) == 2.0);
	CHECK(!strcmp(tiprof_cat_name(TIPROF_CAT_FRONTEND), "frontend"));
	attr_prof_free(&p);
	printf("test_attrib: %d checks, %d failed\n", checks, fails);
	return fails != 0;
}
