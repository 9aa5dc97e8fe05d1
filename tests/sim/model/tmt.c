/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tmt.c - the CSR-port rig shared by the TIP model's unit tests (see tmt.h); their check
 * counting is tests/include/tsection.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tmt.h"

int tmt_sample_same(const struct tiprof_sample *a, const struct tiprof_sample *b, unsigned w)
{
	if (a->flags != b->flags || a->bank != b->bank || a->valid != b->valid ||
	    a->priv != b->priv || a->ctx != b->ctx)
		return 0;
	for (unsigned i = 0; i < w; i++)
		if (a->addr[i] != b->addr[i])
			return 0;
	return 1;
}

void tmt_expect_sample(const struct tiprof_sample *got, const struct tiprof_sample *want,
		       unsigned w, const char *what)
{
	char buf[160];

#define FIELD(f) do { snprintf(buf, sizeof(buf), "%s ." #f, what); \
		      CHECK_EQ(got->f, want->f, buf); } while (0)
	FIELD(cycle);
	FIELD(flags);
	FIELD(bank);
	FIELD(valid);
	FIELD(priv);
	FIELD(ctx);
#undef FIELD
	for (unsigned i = 0; i < w; i++) {
		snprintf(buf, sizeof(buf), "%s .addr[%u]", what, i);
		CHECK_EQ(got->addr[i], want->addr[i], buf);
	}
}

void rig_init(struct rig *r, unsigned w, unsigned xlen, unsigned depth)
{
	struct tip_model_cfg cfg = { w, xlen, depth, 0 };

	memset(r, 0, sizeof(*r));
	if (tip_model_init(&r->m, &cfg) != 0) {
		fprintf(stderr, "tip_model_init(%u, %u, %u) failed\n", w, xlen, depth);
		abort();
	}
}

void rig_fini(struct rig *r)
{
	tip_model_fini(&r->m);
}

void rig_idle(struct rig *r, unsigned n)
{
	while (n--)
		tip_model_cycle(&r->m, &r->rob, NULL, &r->resp);
}

struct tip_csr_resp rig_access(struct rig *r, int we, uint16_t addr, uint64_t wdata,
			       uint8_t priv)
{
	struct tip_csr_req q = { 1, we, addr, wdata, priv };

	tip_model_cycle(&r->m, &r->rob, &q, &r->resp);
	return r->resp;
}

uint64_t rig_read(struct rig *r, uint16_t addr)
{
	struct tip_csr_resp p = rig_access(r, 0, addr, 0, TIPROF_PRIV_M);

	CHECK(!p.illegal, "M-mode read of 0x%03x is legal", addr);
	return p.rdata;
}

void rig_write(struct rig *r, uint16_t addr, uint64_t v)
{
	struct tip_csr_resp p = rig_access(r, 1, addr, v, TIPROF_PRIV_M);

	CHECK(!p.illegal, "M-mode write of 0x%03x is legal", addr);
	CHECK_EQ(p.rdata, 0, "rdata of a write");
}

unsigned rig_read_sample(struct rig *r, struct tiprof_sample *s)
{
	unsigned n = (unsigned)rig_read(r, TIPROF_TIP_FIFO_COUNT);

	if (!n)
		return 0;
	memset(s, 0, sizeof(*s));
	s->cycle = rig_read(r, TIPROF_TIP_S_CYCLE);
	if (r->m.cfg.xlen == 32)
		s->cycle |= rig_read(r, TIPROF_TIP_S_CYCLEH) << 32;
	tiprof_sample_set_info(s, (uint32_t)rig_read(r, TIPROF_TIP_S_INFO));
	s->ctx = (uint16_t)rig_read(r, TIPROF_TIP_S_CTX);
	for (unsigned i = 0; i < r->m.cfg.w; i++)
		s->addr[i] = rig_read(r, (uint16_t)(TIPROF_TIP_S_ADDR + i));
	rig_write(r, TIPROF_TIP_POP, 0);
	return n;
}

uint32_t rig_ctrl_en(uint32_t mode, uint32_t rand_bits, uint32_t extra)
{
	return TIPROF_TIP_CTRL_EN_MASK | (mode << TIPROF_TIP_CTRL_MODE_SHIFT) |
	       TIPROF_TIP_CTRL_PRIV_MASK | (rand_bits << TIPROF_TIP_CTRL_RAND_BITS_SHIFT) | extra;
}

void rob_clear(struct tiprof_rob_if *rob, uint8_t priv, uint16_t ctx)
{
	memset(rob, 0, sizeof(*rob));
	rob->priv = priv;
	rob->ctx_id = ctx;
}

void rob_head(struct tiprof_rob_if *rob, unsigned b, uint64_t pc, int commit)
{
	rob->head_valid |= (uint8_t)(1u << b);
	if (commit)
		rob->head_commit |= (uint8_t)(1u << b);
	rob->head_pc[b] = pc;
}

void rob_disp(struct tiprof_rob_if *rob, unsigned b, uint64_t pc)
{
	rob->disp_valid |= (uint8_t)(1u << b);
	rob->disp_pc[b] = pc;
}

struct tiprof_sample mk_sample(uint64_t cycle, unsigned flags, unsigned bank, unsigned valid,
			       unsigned priv, unsigned ctx, const uint64_t *addr, unsigned w)
{
	struct tiprof_sample s;

	memset(&s, 0, sizeof(s));
	s.cycle = cycle;
	s.flags = (uint8_t)flags;
	s.bank = (uint8_t)bank;
	s.valid = (uint8_t)valid;
	s.priv = (uint8_t)priv;
	s.ctx = (uint16_t)ctx;
	for (unsigned i = 0; i < w && addr; i++)
		s.addr[i] = addr[i];
	return s;
}
