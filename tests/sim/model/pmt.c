/* SPDX-License-Identifier: Apache-2.0 */
/* pmt.c - the CSR-port rig of the ProfileMe model's unit tests (see pmt.h); their check
 * counting is tests/include/tsection.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmt.h"

void pr_init(struct pmrig *r, unsigned f, unsigned xlen, unsigned depth, unsigned tags)
{
	struct pm_model_cfg cfg = { f, xlen, depth, tags };

	memset(r, 0, sizeof(*r));
	if (pm_model_init(&r->m, &cfg) != 0) {
		fprintf(stderr, "pm_model_init(%u, %u, %u, %u) failed\n", f, xlen, depth, tags);
		abort();
	}
}

void pr_fini(struct pmrig *r)
{
	pm_model_fini(&r->m);
}

static void step(struct pmrig *r, const struct pm_csr_req *q)
{
	pm_model_cycle(&r->m, &r->in, q, r->menable, &r->out);
	memset(&r->in, 0, sizeof(r->in));
}

void pr_step(struct pmrig *r)
{
	step(r, NULL);
}

void pr_idle(struct pmrig *r, unsigned n)
{
	while (n--)
		step(r, NULL);
}

struct pm_csr_resp pr_access(struct pmrig *r, int we, uint16_t addr, uint64_t wdata, uint8_t priv)
{
	struct pm_csr_req q = { 1, we, addr, wdata, priv };

	step(r, &q);
	return r->out.csr;
}

uint64_t pr_read(struct pmrig *r, uint16_t addr)
{
	struct pm_csr_resp p = pr_access(r, 0, addr, 0, TIPROF_PRIV_M);

	CHECK(p.hit && !p.illegal, "M-mode read of 0x%03x is legal", addr);
	return p.rdata;
}

void pr_write(struct pmrig *r, uint16_t addr, uint64_t v)
{
	struct pm_csr_resp p = pr_access(r, 1, addr, v, TIPROF_PRIV_M);

	CHECK(p.hit && !p.illegal, "M-mode write of 0x%03x is legal", addr);
	CHECK_EQ(p.rdata, 0, "rdata of a write");
}

unsigned pr_read_record(struct pmrig *r, struct pm_record *rec)
{
	unsigned n = (unsigned)pr_read(r, TIPROF_PM_FIFO_COUNT);

	if (!n)
		return 0;
	for (unsigned k = 0; k < TIPROF_PM_REC_WORDS; k++) {
		rec->w[k] = pr_read(r, (uint16_t)(TIPROF_PM_R + k));
		if (r->m.cfg.xlen == 32)
			rec->w[k] |= pr_read(r, (uint16_t)(TIPROF_PM_RH + k)) << 32;
	}
	pr_write(r, TIPROF_PM_POP, 0);
	return n;
}

void pr_fetch(struct pmrig *r, unsigned valid, uint64_t pc0)
{
	r->in.fetch_valid = (uint8_t)valid;
	for (unsigned i = 0; i < TIPROF_PM_MAX_SLOTS; i++)
		r->in.fetch_pc[i] = pc0 + 4u * i;
}

uint32_t pr_ctrl(unsigned mode, unsigned k, uint32_t extra)
{
	return TIPROF_PM_CTRL_EN_MASK | (mode << TIPROF_PM_CTRL_MODE_SHIFT) |
	       TIPROF_PM_CTRL_PRIV_MASK | (k << TIPROF_PM_CTRL_RAND_BITS_SHIFT) | extra;
}

uint64_t rec_field(const struct pm_record *r, unsigned word, uint64_t mask, unsigned shift)
{
	return (r->w[word] & mask) >> shift;
}
