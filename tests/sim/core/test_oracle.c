/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_oracle.c - unit test of sim/oracle: hand-made ROB-interface cycles for each commit
 * state (Computing with 1/n shares, Stalled by head class, Flushed after a mispredict, a
 * flushing commit and a trap, Drained completing at the next dispatch or from the head,
 * pending at the end), bank wrap-around, exact accounting and the file header.
 * Prints "test_oracle: N checks passed" or the first failure (exit 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"

static int checks;

#define CHECK(cond) do { checks++; if (!(cond)) { \
	fprintf(stderr, "test_oracle: %s:%d: %s\n", __FILE__, __LINE__, #cond); exit(1); } } while (0)

/* Units of category cat attributed to pc. */
static uint64_t units(const struct oracle *o, uint64_t pc, unsigned cat)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->ent[i].pc == pc)
			return o->ent[i].units[cat];
	return 0;
}

/* A cycle: head_bank hb, valid/commit masks, head pcs 0x100*bank+base. */
static struct tiprof_rob_if cyc(unsigned hb, unsigned valid, unsigned commit, uint64_t base)
{
	struct tiprof_rob_if r;

	memset(&r, 0, sizeof(r));
	r.head_bank = (uint8_t)hb;
	r.head_valid = (uint8_t)valid;
	r.head_commit = (uint8_t)commit;
	for (unsigned b = 0; b < TIPROF_MAX_BANKS; b++)
		r.head_pc[b] = base + 0x100 * b;
	return r;
}

int main(void)
{
	struct oracle o;
	struct tiprof_rob_if r;
	char err[256];
	FILE *f;
	char line[128];

	CHECK(oracle_init(&o, 9) == -1);
	CHECK(oracle_init(&o, 4) == 0);
	/* Computing: 3 of 4 commit -> 280 units each */
	r = cyc(1, 0xf, 0x6 | 0x8, 0x1000);
	CHECK(oracle_cycle(&o, &r, 0) == 0);
	CHECK(units(&o, 0x1100, TIPROF_CAT_EXECUTE) == 280 && units(&o, 0x1200, TIPROF_CAT_EXECUTE) == 280 &&
	      units(&o, 0x1300, TIPROF_CAT_EXECUTE) == 280 && units(&o, 0x1000, TIPROF_CAT_EXECUTE) == 0);
	/* Stalled on a load, a store, something else */
	r = cyc(2, 0xf, 0, 0x2000);
	oracle_cycle(&o, &r, ORACLE_HEAD_LOAD);
	oracle_cycle(&o, &r, ORACLE_HEAD_STORE);
	oracle_cycle(&o, &r, ORACLE_HEAD_ALU);
	CHECK(units(&o, 0x2200, TIPROF_CAT_LOAD_STALL) == ORACLE_UNIT);
	CHECK(units(&o, 0x2200, TIPROF_CAT_STORE_STALL) == ORACLE_UNIT);
	CHECK(units(&o, 0x2200, TIPROF_CAT_ALU_STALL) == ORACLE_UNIT);
	/* wrap-around: head bank 3, banks 3 and 0 commit, bank 0 (youngest) mispredicted */
	r = cyc(3, 0x9, 0x9, 0x3000);
	r.head_mispred = 0x1;
	oracle_cycle(&o, &r, 0);
	CHECK(units(&o, 0x3300, TIPROF_CAT_EXECUTE) == 420 && units(&o, 0x3000, TIPROF_CAT_EXECUTE) == 420);
	r = cyc(0, 0, 0, 0);	/* empty: Flushed to the branch */
	oracle_cycle(&o, &r, 0);
	oracle_cycle(&o, &r, 0);
	CHECK(units(&o, 0x3000, TIPROF_CAT_MISPRED_FLUSH) == 2 * ORACLE_UNIT);
	/* the mispredicted bank older than the youngest committing one does not count */
	r = cyc(0, 0x3, 0x3, 0x4000);
	r.head_mispred = 0x1;
	oracle_cycle(&o, &r, 0);
	r = cyc(2, 0, 0, 0);	/* Drained: pending until the dispatch */
	oracle_cycle(&o, &r, 0);
	oracle_cycle(&o, &r, 0);
	CHECK(units(&o, 0x4000, TIPROF_CAT_MISPRED_FLUSH) == 0 && o.pending == 2);
	r.disp_valid = 0x8 | 0x4;	/* bank 2 is first from head bank 2 */
	r.disp_pc[2] = 0x5000;
	r.disp_pc[3] = 0x5002;
	oracle_cycle(&o, &r, 0);
	CHECK(units(&o, 0x5000, TIPROF_CAT_FRONTEND) == 3 * ORACLE_UNIT && o.pending == 0);
	/* a flushing commit, then empty: other flush */
	r = cyc(2, 0x4, 0x4, 0x6000);
	r.head_flush = 0x4;
	oracle_cycle(&o, &r, 0);
	r = cyc(3, 0, 0, 0);
	oracle_cycle(&o, &r, 0);
	CHECK(units(&o, 0x6200, TIPROF_CAT_OTHER_FLUSH) == ORACLE_UNIT);
	/* a trap: the trap cycle is Stalled on the head, then Flushed (other) */
	r = cyc(3, 0x8, 0, 0x7000);
	r.exception = 1;
	oracle_cycle(&o, &r, ORACLE_HEAD_ALU);
	r = cyc(0, 0, 0, 0);
	oracle_cycle(&o, &r, 0);
	CHECK(units(&o, 0x7300, TIPROF_CAT_ALU_STALL) == ORACLE_UNIT &&
	      units(&o, 0x7300, TIPROF_CAT_OTHER_FLUSH) == ORACLE_UNIT);
	/* a plain commit, then Drained completing from the head (no dispatch seen) */
	r = cyc(0, 0x1, 0x1, 0x8000);
	oracle_cycle(&o, &r, 0);
	r = cyc(1, 0, 0, 0);
	oracle_cycle(&o, &r, 0);
	r = cyc(1, 0x2, 0, 0x9000);
	oracle_cycle(&o, &r, ORACLE_HEAD_LOAD);
	CHECK(units(&o, 0x9100, TIPROF_CAT_FRONTEND) == ORACLE_UNIT &&
	      units(&o, 0x9100, TIPROF_CAT_LOAD_STALL) == ORACLE_UNIT);
	/* pending at the end goes to the last offending instruction */
	r = cyc(1, 0x2, 0x2, 0xa000);
	oracle_cycle(&o, &r, 0);
	r = cyc(2, 0, 0, 0);
	oracle_cycle(&o, &r, 0);
	CHECK(oracle_check(&o, err, sizeof(err)) == -1);	/* one cycle still pending */
	CHECK(oracle_finish(&o) == 0);
	CHECK(units(&o, 0xa100, TIPROF_CAT_FRONTEND) == ORACLE_UNIT);
	CHECK(oracle_check(&o, err, sizeof(err)) == 0);
	oracle_count(&o, 0xa100);
	f = tmpfile();
	CHECK(f && oracle_write(&o, f, 42) == 0);
	rewind(f);
	CHECK(fgets(line, sizeof(line), f) && strcmp(line, "tiprof-oracle 1\n") == 0);
	CHECK(fgets(line, sizeof(line), f) && strcmp(line, "width 4\n") == 0);
	CHECK(fgets(line, sizeof(line), f) && strcmp(line, "unit 840\n") == 0);
	CHECK(fgets(line, sizeof(line), f) && strcmp(line, "cycles 20\n") == 0);
	CHECK(fgets(line, sizeof(line), f) && strcmp(line, "instructions 42\n") == 0);
	fclose(f);
	oracle_fini(&o);
	printf("test_oracle: %d checks passed\n", checks);
	return 0;
}
