/* SPDX-License-Identifier: Apache-2.0 */
/*
 * core.c - the out-of-order timing model of core.h. Sections, low level to high:
 * configuration; caches, TLBs and the memory hierarchy; branch prediction; issue-port
 * reservation; the pipeline (fetch, dispatch with scheduling, commit); the cycle driver.
 *
 * Scheduling is decided at dispatch, in program order: an instruction's issue cycle is the
 * first cycle at or after its operands are ready (and after dispatch) in which an eligible
 * issue port is free (oldest first, as BOOM's age-ordered issue queues approximate), its
 * completion follows from the functional unit's latency or the memory hierarchy. Fetch,
 * dispatch and commit are simulated cycle by cycle, so the ROB interface is exact for the
 * modelled machine. docs/core.md lists what this simplifies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_int.h"

/* ---- configuration --------------------------------------------------------------- */

/* The TIP paper's Table 1 core (BOOM, 4-wide), the default. */
static const struct core_cfg preset_4wide = {
	.width = 4, .fetch_width = 8, .fetch_bytes = 32, .fetch_buf = 32, .frontend_lat = 5,
	.rob = 128, .iq_int = 40, .iq_mem = 24, .iq_fp = 32,
	.ports_int = 4, .ports_mem = 2, .ports_fp = 2, .ldq = 32, .stq = 32,
	.lat_alu = 1, .lat_mul = 3, .lat_div = 20,
	.lat_fadd = 4, .lat_fmul = 4, .lat_fma = 4, .lat_fdiv = 20, .lat_fcvt = 2, .lat_fmisc = 2,
	.lat_stlf = 4, .replay_penalty = 3,
	.l1i_kb = 32, .l1i_ways = 8, .l1d_kb = 32, .l1d_ways = 8, .lat_l1 = 4,
	.l2_kb = 512, .l2_ways = 8, .lat_l2 = 12, .llc_kb = 4096, .llc_ways = 16, .lat_llc = 25,
	.lat_dram = 100, .mshrs = 8,
	.tlb_entries = 32, .l2tlb_entries = 1024, .lat_l2tlb = 8, .lat_walk = 30,
	.ghist_bits = 14, .btb_entries = 2048, .ras_entries = 32,
	.redirect_lat = 3, .btb_miss_lat = 2, .syscall_lat = 50,
	.sd_mode = 0, .sd_bp = 0, .sd_pfp = 0, .sd_bdt_entries = 32, .sd_poppf_lat = 0, .sd_blk = 0,
};

/* The preset called name. */
static int cfg_preset(struct core_cfg *cfg, const char *name)
{
	*cfg = preset_4wide;
	if (strcmp(name, "4wide") == 0)
		return 0;
	if (strcmp(name, "2wide") == 0) {	/* after BOOM's MediumBoomConfig */
		cfg->width = 2; cfg->fetch_width = 4; cfg->fetch_bytes = 16; cfg->fetch_buf = 16;
		cfg->rob = 64; cfg->iq_int = 20; cfg->iq_mem = 12; cfg->iq_fp = 16;
		cfg->ports_int = 2; cfg->ports_mem = 1; cfg->ports_fp = 1;
		cfg->ldq = 16; cfg->stq = 16; cfg->mshrs = 4;
		return 0;
	}
	if (strcmp(name, "1wide") == 0) {	/* after BOOM's SmallBoomConfig */
		cfg->width = 1; cfg->fetch_width = 4; cfg->fetch_bytes = 16; cfg->fetch_buf = 8;
		cfg->rob = 32; cfg->iq_int = 8; cfg->iq_mem = 8; cfg->iq_fp = 8;
		cfg->ports_int = 1; cfg->ports_mem = 1; cfg->ports_fp = 1;
		cfg->ldq = 8; cfg->stq = 8; cfg->mshrs = 2; cfg->ghist_bits = 12;
		cfg->btb_entries = 512; cfg->ras_entries = 8;
		return 0;
	}
	return -1;
}

/* Contract in core.h: "preset[,field=value]...". */
int core_cfg_preset(struct core_cfg *cfg, const char *name)
{
	char buf[256], *tok, *save = NULL;
	int first = 1;

	if (!strchr(name, ','))
		return cfg_preset(cfg, name);
	if (strlen(name) >= sizeof(buf))
		return -1;
	strcpy(buf, name);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *end;
		unsigned long v;

		if (first) {
			if (eq || cfg_preset(cfg, tok))
				return -1;
			first = 0;
			continue;
		}
		if (!eq || eq == tok || !eq[1])
			return -1;
		*eq = 0;
		v = strtoul(eq + 1, &end, 0);
		if (*end || v > 0xffffffffu || core_cfg_set(cfg, tok, (unsigned)v))
			return -1;
	}
	return first ? -1 : 0;
}

/* Field table for core_cfg_set. */
#define CFG_FIELDS(X) X(width) X(fetch_width) X(fetch_bytes) X(fetch_buf) X(frontend_lat) \
	X(rob) X(iq_int) X(iq_mem) X(iq_fp) X(ports_int) X(ports_mem) X(ports_fp) X(ldq) X(stq) \
	X(lat_alu) X(lat_mul) X(lat_div) X(lat_fadd) X(lat_fmul) X(lat_fma) X(lat_fdiv) \
	X(lat_fcvt) X(lat_fmisc) X(lat_stlf) X(replay_penalty) X(l1i_kb) X(l1i_ways) X(l1d_kb) \
	X(l1d_ways) X(lat_l1) X(l2_kb) X(l2_ways) X(lat_l2) X(llc_kb) X(llc_ways) X(lat_llc) \
	X(lat_dram) X(mshrs) X(tlb_entries) X(l2tlb_entries) X(lat_l2tlb) X(lat_walk) \
	X(ghist_bits) X(btb_entries) X(ras_entries) X(redirect_lat) X(btb_miss_lat) X(syscall_lat) \
	X(sd_mode) X(sd_bp) X(sd_pfp) X(sd_bdt_entries) X(sd_poppf_lat) X(sd_blk)

/* Contract in core.h. */
int core_cfg_set(struct core_cfg *cfg, const char *name, unsigned value)
{
#define X(f) if (strcmp(name, #f) == 0) { cfg->f = value; return 0; }
	CFG_FIELDS(X)
#undef X
	return -1;
}

static int is_pow2(unsigned v) { return v && !(v & (v - 1)); }

/* A cache of kb KiB, ways ways, 64-byte lines must have a power-of-two set count. */
static int cache_geom_ok(unsigned kb, unsigned ways)
{
	return ways >= 1 && ways <= 32 && kb * 1024u % (64u * ways) == 0 &&
	       is_pow2(kb * 1024u / (64u * ways));
}

/* Contract in core.h. */
int core_cfg_check(const struct core_cfg *c, char *err, size_t errlen)
{
	const char *why = NULL;

	if (c->width != 1 && c->width != 2 && c->width != 4 && c->width != 8)
		why = "width must be 1, 2, 4 or 8";
	else if (c->fetch_width < 1 || c->fetch_width > 16)
		why = "fetch_width must be 1..16";
	else if (!is_pow2(c->fetch_bytes) || c->fetch_bytes < 8 || c->fetch_bytes > 64)
		why = "fetch_bytes must be a power of 2 in 8..64";
	else if (c->fetch_buf < c->width || c->fetch_buf > 256)
		why = "fetch_buf must be width..256";
	else if (c->frontend_lat < 1 || c->frontend_lat > 64)
		why = "frontend_lat must be 1..64";
	else if (c->rob < c->width || c->rob % c->width || c->rob > 4096)
		why = "rob must be a multiple of width, at most 4096";
	else if (!c->iq_int || !c->iq_mem || !c->iq_fp || c->iq_int > 256 || c->iq_mem > 256 ||
		 c->iq_fp > 256)
		why = "issue queues must have 1..256 entries";
	else if (c->ports_int < 1 || c->ports_int > 4 || c->ports_mem < 1 || c->ports_mem > 4 ||
		 c->ports_fp < 1 || c->ports_fp > 4)
		why = "ports must be 1..4 per class";
	else if (!c->ldq || !c->stq || c->ldq > 256 || c->stq > 256)
		why = "ldq and stq must be 1..256";
	else if (!c->lat_alu || !c->lat_mul || !c->lat_div || !c->lat_fadd || !c->lat_fmul ||
		 !c->lat_fma || !c->lat_fdiv || !c->lat_fcvt || !c->lat_fmisc || !c->lat_stlf ||
		 !c->lat_l1 || c->lat_div > 256 || c->lat_fdiv > 256)
		why = "latencies must be at least 1 (unpipelined units at most 256)";
	else if (!cache_geom_ok(c->l1i_kb, c->l1i_ways) || !cache_geom_ok(c->l1d_kb, c->l1d_ways) ||
		 !cache_geom_ok(c->l2_kb, c->l2_ways) || !cache_geom_ok(c->llc_kb, c->llc_ways))
		why = "cache size / ways must give a power-of-two number of sets (64-byte lines)";
	else if (c->mshrs < 1 || c->mshrs > 64)
		why = "mshrs must be 1..64";
	else if (c->tlb_entries && (!is_pow2(c->tlb_entries) || !is_pow2(c->l2tlb_entries) ||
				    c->l2tlb_entries < 8))
		why = "tlb_entries and l2tlb_entries must be powers of 2 (0 disables TLBs)";
	else if (c->ghist_bits < 4 || c->ghist_bits > 24)
		why = "ghist_bits must be 4..24";
	else if (!is_pow2(c->btb_entries) || !c->ras_entries || c->ras_entries > 1024)
		why = "btb_entries must be a power of 2, ras_entries 1..1024";
	else if (c->sd_mode > 1 || c->sd_bp > 3 || c->sd_pfp > 1 || c->sd_blk > 1 ||
		 (!c->sd_mode && (c->sd_bp || c->sd_pfp || c->sd_blk)))
		why = "sd_mode must be 0 or 1, sd_bp 0..3, sd_pfp and sd_blk 0 or 1 (all need sd_mode 1)";
	else if (c->sd_pfp && (!is_pow2(c->sd_bdt_entries) || c->sd_bdt_entries < 4 ||
			       c->sd_bdt_entries > 4096))
		why = "sd_bdt_entries must be a power of 2 in 4..4096";
	else if (c->sd_poppf_lat > 64)
		why = "sd_poppf_lat must be 0..64";
	if (why) {
		snprintf(err, errlen, "bad core configuration: %s", why);
		return -1;
	}
	return 0;
}

/* ---- caches, TLBs, memory hierarchy ------------------------------------------------ */


/* Allocate lines lines of 2^shift bytes in ways ways. Returns 0 or -1. */
static int cache_init(struct cache *c, unsigned lines, unsigned ways, unsigned shift)
{
	if (ways > lines)
		ways = lines;
	c->set_mask = lines / ways - 1;
	c->ways = ways;
	c->shift = shift;
	c->clock = 0;
	c->tag = calloc(lines, sizeof(*c->tag));
	c->ready = calloc(lines, sizeof(*c->ready));
	c->lru = calloc(lines, sizeof(*c->lru));
	return c->tag && c->ready && c->lru ? 0 : -1;
}

static void cache_fini(struct cache *c)
{
	free(c->tag);
	free(c->ready);
	free(c->lru);
}

/* Look addr up. On a hit, marks it most recently used, stores the line's ready cycle in
 * *ready and returns 1; on a miss returns 0 and changes nothing. */
static int cache_find(struct cache *c, uint64_t addr, uint64_t *ready)
{
	uint64_t line = (addr >> c->shift) + 1;
	unsigned base = (unsigned)(line & c->set_mask) * c->ways;

	for (unsigned w = 0; w < c->ways; w++) {
		if (c->tag[base + w] == line) {
			c->lru[base + w] = ++c->clock;
			*ready = c->ready[base + w];
			return 1;
		}
	}
	return 0;
}

/* Contract in core_int.h. */
int cache_probe(const struct cache *c, uint64_t addr)
{
	uint64_t line = (addr >> c->shift) + 1;
	unsigned base = (unsigned)(line & c->set_mask) * c->ways;

	for (unsigned w = 0; w < c->ways; w++)
		if (c->tag[base + w] == line)
			return 1;
	return 0;
}

/* Insert addr's line (known to be absent), ready at cycle ready, evicting the LRU line. */
static void cache_fill(struct cache *c, uint64_t addr, uint64_t ready)
{
	uint64_t line = (addr >> c->shift) + 1;
	unsigned base = (unsigned)(line & c->set_mask) * c->ways, v = base;

	for (unsigned w = 0; w < c->ways; w++) {
		if (!c->tag[base + w]) {
			v = base + w;
			break;
		}
		if (c->lru[base + w] < c->lru[v])
			v = base + w;
	}
	c->tag[v] = line;
	c->ready[v] = ready;
	c->lru[v] = ++c->clock;
}


/* Extra cycles to translate addr in tlb at cycle t; sets *miss if the L1 TLB missed. */
static unsigned tlb_access(struct memsys *m, const struct core_cfg *cfg, struct cache *tlb,
			   uint64_t addr, int *miss)
{
	uint64_t r;

	*miss = 0;
	if (!m->tlbs || cache_find(tlb, addr, &r))
		return 0;
	*miss = 1;
	cache_fill(tlb, addr, 0);
	if (cache_find(&m->l2tlb, addr, &r))
		return cfg->lat_l2tlb;
	cache_fill(&m->l2tlb, addr, 0);
	return cfg->lat_l2tlb + cfg->lat_walk;
}

/* Latency below the L1 for a line missing there, starting at cycle t, filling L2 and
 * LLC; *level gets 2 (L2 hit), 3 (LLC hit) or 4 (DRAM). */
static unsigned below_l1(struct memsys *m, const struct core_cfg *cfg, uint64_t addr,
			 uint64_t t, unsigned *level)
{
	uint64_t r;
	unsigned lat = cfg->lat_l2;

	if (cache_find(&m->l2, addr, &r)) {
		*level = 2;
		return r > t + lat ? (unsigned)(r - t) : lat;
	}
	lat += cfg->lat_llc;
	if (cache_find(&m->llc, addr, &r)) {
		*level = 3;
	} else {
		lat += cfg->lat_dram;
		*level = 4;
		cache_fill(&m->llc, addr, t + lat);
	}
	cache_fill(&m->l2, addr, t + lat);
	return lat;
}

/* ---- the core --------------------------------------------------------------------- */


/* Contract in core.h. */
const struct core_stats *core_stats(const struct core *c) { return &c->st; }
const struct core_cfg *core_config(const struct core *c) { return &c->cfg; }
const char *core_error(const struct core *c) { return c->err; }

/* Contract in core.h. */
void core_destroy(struct core *c)
{
	if (!c)
		return;
	free(c->ring);
	free(c->pht);
	free(c->btb);
	free(c->ras);
	free(c->busy);
	for (int i = 0; i < 3; i++)
		free(c->iq[i].t);
	free(c->sq);
	cache_fini(&c->mem.l1i);
	cache_fini(&c->mem.l1d);
	cache_fini(&c->mem.l2);
	cache_fini(&c->mem.llc);
	cache_fini(&c->mem.itlb);
	cache_fini(&c->mem.dtlb);
	cache_fini(&c->mem.l2tlb);
	free(c->mem.mshr);
	core_pm_free(c);
	core_sd_free(c);
	free(c);
}

/* Contract in core.h. */
struct core *core_create(const struct core_cfg *cfg, struct iss *iss, char *err, size_t errlen)
{
	struct core *c;
	unsigned rs = 1;
	int bad;

	if (core_cfg_check(cfg, err, errlen))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		goto nomem;
	c->cfg = *cfg;
	c->iss = iss;
	while (rs < cfg->rob + cfg->fetch_buf + 16)
		rs <<= 1;
	c->ring = calloc(rs, sizeof(*c->ring));
	c->ring_mask = rs - 1;
	c->pht = malloc((size_t)1 << cfg->ghist_bits);
	c->btb = calloc(cfg->btb_entries, sizeof(*c->btb));
	c->ras = calloc(cfg->ras_entries, sizeof(*c->ras));
	c->busy = calloc((size_t)RING * NRES, 1);
	c->iq[0].cap = cfg->iq_int;
	c->iq[1].cap = cfg->iq_mem;
	c->iq[2].cap = cfg->iq_fp;
	for (int i = 0; i < 3; i++)
		c->iq[i].t = calloc(c->iq[i].cap, sizeof(uint64_t));
	c->sq = calloc(cfg->stq, sizeof(*c->sq));
	c->mem.mshr = calloc(cfg->mshrs, sizeof(uint64_t));
	c->mem.tlbs = cfg->tlb_entries != 0;
	bad = !c->ring || !c->pht || !c->btb || !c->ras || !c->busy || !c->iq[0].t ||
	      !c->iq[1].t || !c->iq[2].t || !c->sq || !c->mem.mshr;
	bad |= cache_init(&c->mem.l1i, cfg->l1i_kb * 16, cfg->l1i_ways, 6);
	bad |= cache_init(&c->mem.l1d, cfg->l1d_kb * 16, cfg->l1d_ways, 6);
	bad |= cache_init(&c->mem.l2, cfg->l2_kb * 16, cfg->l2_ways, 6);
	bad |= cache_init(&c->mem.llc, cfg->llc_kb * 16, cfg->llc_ways, 6);
	if (c->mem.tlbs) {
		bad |= cache_init(&c->mem.itlb, cfg->tlb_entries, 8, 12);
		bad |= cache_init(&c->mem.dtlb, cfg->tlb_entries, 8, 12);
		bad |= cache_init(&c->mem.l2tlb, cfg->l2tlb_entries, 8, 12);
	}
	if (!bad && cfg->sd_mode)
		bad |= core_sd_init(c);
	if (bad)
		goto nomem;
	memset(c->pht, 1, (size_t)1 << cfg->ghist_bits);	/* weakly not taken */
	return c;
nomem:
	core_destroy(c);
	snprintf(err, errlen, "out of memory for the core model");
	return NULL;
}

/* Contract in core.h. */
unsigned core_issue_width(const struct core *c)
{
	return c->cfg.ports_int + c->cfg.ports_mem + c->cfg.ports_fp;
}

/* ---- branch prediction -------------------------------------------------------------- */

/* Contract in core_int.h. */
int core_predict_taken(const struct core *c, uint64_t pc)
{
	uint32_t mask = (1u << c->cfg.ghist_bits) - 1;

	return c->pht[((pc >> 1) ^ c->ghist) & mask] >= 2;
}

/* Contract in core_int.h. */
uint64_t core_btb_target(const struct core *c, uint64_t pc)
{
	const struct btb_ent *b = &c->btb[(pc >> 1) & (c->cfg.btb_entries - 1)];

	return b->pc == pc + 1 ? b->target : 0;
}

/* Predict the transfer e (whose real outcome the ISS gave), train the predictor, set its
 * events. Returns 1 if it is mispredicted (the front end must wait for it to resolve);
 * *pred gets the address the front end predicted would follow it. */
int core_predict(struct core *c, struct core_insn *e, const struct iss_retired *r,
		 uint64_t *pred)
{
	struct btb_ent *b = &c->btb[(r->pc >> 1) & (c->cfg.btb_entries - 1)];
	int btb_hit = b->pc == r->pc + 1 && b->target == r->target;
	int mis = 0;

	if (r->taken)
		e->events |= CORE_EV_TAKEN;
	switch (r->insn.cf) {
	case RV_CF_BRANCH: {
		uint32_t mask = (1u << c->cfg.ghist_bits) - 1;
		uint8_t *ctr = &c->pht[((r->pc >> 1) ^ c->ghist ^ c->sd_idx_xor) & mask];

		c->st.branches++;
		mis = (*ctr >= 2) != r->taken;
		*pred = *ctr >= 2 ? r->insn.target : r->pc + r->insn.len;
		if (r->taken && *ctr < 3)
			(*ctr)++;
		else if (!r->taken && *ctr > 0)
			(*ctr)--;
		c->ghist = ((c->ghist << 1) | r->taken) & mask;
		if (mis)
			c->st.br_mispred++;
		break;
	}
	case RV_CF_JAL:
	case RV_CF_CALL:
		*pred = r->target;
		break;
	case RV_CF_RETURN: {
		unsigned n = c->cfg.ras_entries;

		c->st.jumps++;
		c->ras_top = (c->ras_top + n - 1) % n;
		*pred = c->ras[(c->ras_top + 1) % n];
		mis = *pred != r->target;
		btb_hit = 1;	/* the RAS supplies the target */
		if (mis)
			c->st.jump_mispred++;
		break;
	}
	default:	/* JALR, CALL_IND: the BTB's last target */
		c->st.jumps++;
		mis = !btb_hit;
		*pred = b->pc == r->pc + 1 ? b->target : r->pc + r->insn.len;
		if (mis)
			c->st.jump_mispred++;
		break;
	}
	if (r->insn.cf == RV_CF_CALL || r->insn.cf == RV_CF_CALL_IND) {
		c->ras_top = (c->ras_top + 1) % c->cfg.ras_entries;
		c->ras[c->ras_top] = r->pc + r->insn.len;
	}
	if (r->taken && r->insn.cf != RV_CF_RETURN) {
		b->pc = r->pc + 1;
		b->target = r->target;
	}
	if (mis)
		e->events |= CORE_EV_MISPRED;
	else if (r->taken && !btb_hit) {
		e->events |= CORE_EV_BTB_MISS;
		c->st.btb_miss++;
	}
	return mis;
}

/* ---- fetch -------------------------------------------------------------------------- */

/* Make la hold the next correct-path instruction. Returns 0, or -1 on an ISS error. */
int core_fetch_peek(struct core *c)
{
	int r;

	if (c->la_valid)
		return 0;
	r = iss_step(c->iss, &c->la);
	if (r == ISS_ERROR) {
		snprintf(c->err, sizeof(c->err), "%s", iss_error(c->iss));
		return -1;
	}
	c->la_exited = r == ISS_EXITED;
	c->la_valid = 1;
	c->la_events = 0;
	return 0;
}

/* Extra cycles (beyond a pipelined L1I hit) to fetch the block holding pc at cycle t. */
static unsigned ifetch_access(struct core *c, uint64_t pc, uint64_t t, uint16_t *ev)
{
	struct memsys *m = &c->mem;
	uint64_t r;
	unsigned level, extra;
	int miss;

	extra = tlb_access(m, &c->cfg, &m->itlb, pc, &miss);
	if (miss) {
		*ev |= CORE_EV_ITLB_MISS;
		c->st.itlb_miss++;
	}
	if (cache_find(&m->l1i, pc, &r))
		return extra + (r > t + extra ? (unsigned)(r - t - extra) : 0);
	*ev |= CORE_EV_IC_MISS;
	c->st.l1i_miss++;
	extra += below_l1(m, &c->cfg, pc, t + extra, &level);
	cache_fill(&m->l1i, pc, t + extra);
	return extra;
}

/* Contract in core_int.h. */
int core_fetch_block(struct core *c, uint64_t pc, unsigned n, uint64_t *blk, uint16_t *ev)
{
	uint64_t mask = ~(uint64_t)(c->cfg.fetch_bytes - 1);

	if (n == 0) {
		unsigned extra;

		*blk = pc & mask;
		extra = ifetch_access(c, pc, c->now, ev);
		if (extra) {	/* the block arrives later: fetch it then */
			c->fetch_resume = c->now + extra;
			return 2;
		}
		return 0;
	}
	return (pc & mask) != *blk;
}

/* The fetch stage of cycle now (out: for the ProfileMe packet). Returns 0 or -1 on an ISS
 * error. */
static int fetch_stage(struct core *c, struct core_cycle_out *out)
{
	const struct core_cfg *cfg = &c->cfg;
	uint64_t now = c->now, blk = 0, pred = 0;
	uint16_t hist = (uint16_t)c->ghist;	/* before the packet, for ProfileMe */
	unsigned n = 0;

	if (now < c->fetch_resume || c->iss_done || c->fetch_stopped)
		return 0;
	while (n < cfg->fetch_width &&
	       c->tail_seq - c->disp_seq + c->sd_drop_n < cfg->fetch_buf) {
		struct iss_retired *r = &c->la;
		struct core_insn *e;
		int stop = 0, mis;

		if (c->sd_on && core_sd_walking(c)) {	/* the bytes of a skipped block */
			int used = 0, k = core_sd_walk(c, n, &blk, &used);

			n += (unsigned)used;
			if (k == CORE_SD_SLOT)
				continue;
			break;
		}
		if (core_fetch_peek(c))
			return -1;
		switch (core_fetch_block(c, r->pc, n, &blk, &c->la_events)) {
		case 1:
			goto packet_end;
		case 2:
			return 0;
		}
		if (c->sd_on && rv_is_profile(&r->insn)) {
			int k = core_sd_profile(c, n, blk);

			if (k < 0)
				return -1;
			if (k == CORE_SD_SLOT) {
				n++;
				continue;
			}
			if (k == CORE_SD_FREE)
				continue;
			if (k != CORE_SD_NORMAL)
				break;
		}
		e = &c->ring[c->tail_seq & c->ring_mask];
		memset(e, 0, sizeof(*e));
		e->seq = c->tail_seq++;
		e->pc = r->pc;
		e->next_pc = r->next_pc;
		e->raw = r->raw;
		e->len = r->insn.len;
		e->fu = (uint8_t)r->insn.fu;
		e->cf = (uint8_t)r->insn.cf;
		e->flags = r->insn.flags;
		e->rd = r->insn.rd;
		e->rs1 = r->insn.rs1;
		e->rs2 = r->insn.rs2;
		e->rs3 = r->insn.rs3;
		e->mem_addr = r->mem_addr;
		e->mem_size = r->mem_size;
		e->unique = rv_is_serializing(&r->insn) ? 1 : 0;
		e->is_ecall = r->is_syscall || r->insn.op == RV_OP_ECALL || r->insn.op == RV_OP_EBREAK;
		e->last = (uint8_t)c->la_exited;
		e->kind = rv_is_load(&r->insn) ? CORE_K_LOAD :
			  rv_is_store(&r->insn) ? CORE_K_STORE : CORE_K_ALU;
		if (rv_is_profile(&r->insn) && !r->mem_size) {
			/* Xtpsd profile instruction with its flag clear: it did nothing (no access);
			 * until the decode filter is modelled (docs/seldisp.md) it takes an ALU slot */
			e->flags &= ~(uint32_t)(RV_F_LOAD | RV_F_STORE);
			e->fu = RV_FU_ALU;
			e->kind = CORE_K_ALU;
		}
		e->events = c->la_events;
		e->t_fetch = now;
		e->t_avail = now + cfg->frontend_lat;
		c->la_valid = 0;
		n++;
		if (e->last)
			c->iss_done = 1;
		if (c->sd_on)
			core_sd_fetched(c, e, r);
		if (c->pm_on)
			core_pm_fetched(c, out, e, hist);
		mis = e->cf == RV_CF_NONE ? 0 : c->sd_on ? core_sd_predict(c, e, r, &pred) :
						       core_predict(c, e, r, &pred);
		if (mis) {
			c->fetch_resume = UINT64_MAX;	/* until it resolves (set at dispatch) */
			if (c->pm_on)
				core_pm_stop(c, e->seq, CORE_STOP_MISPRED, pred);
			stop = 1;
		} else if (e->unique) {
			c->fetch_resume = UINT64_MAX;	/* until it commits and flushes */
			if (c->pm_on && !e->last)
				core_pm_stop(c, e->seq, e->is_ecall ? CORE_STOP_TRAP : CORE_STOP_UNIQUE,
					     e->pc + e->len);
			stop = 1;
		} else if (e->events & CORE_EV_TAKEN) {
			if (e->events & CORE_EV_BTB_MISS)
				c->fetch_resume = now + 1 + cfg->btb_miss_lat;
			stop = 1;
		}
		if (stop || c->iss_done)
			break;
	}
packet_end:
	return 0;
}

/* ---- dispatch and scheduling ------------------------------------------------------------ */

/* Issue-queue class of e: 0 int, 1 mem, 2 fp. */
static int iq_class(const struct core_insn *e)
{
	switch (e->fu) {
	case RV_FU_LOAD: case RV_FU_STORE: case RV_FU_AMO:
		return 1;
	case RV_FU_FADD: case RV_FU_FMUL: case RV_FU_FMA: case RV_FU_FDIV: case RV_FU_FCVT:
	case RV_FU_FMISC:
		return 2;
	default:
		return 0;
	}
}

/* Has issue queue q room at cycle now (entries leave when they issue)? */
static int iq_room(struct iq *q, uint64_t now)
{
	if (q->n < q->cap)
		return 1;
	for (unsigned i = 0; i < q->n;) {
		if (q->t[i] <= now)
			q->t[i] = q->t[--q->n];
		else
			i++;
	}
	return q->n < q->cap;
}

static uint8_t *busy_at(struct core *c, uint64_t t) { return &c->busy[(t & (RING - 1)) * NRES]; }

/* First cycle >= t at which one of ports [lo, lo+n) is free (and, if unit is set, that
 * unpipelined unit is free for occ cycles); reserves it. Beyond the ring's look-ahead no
 * reservation is made. */
static uint64_t port_reserve(struct core *c, uint64_t t, unsigned lo, unsigned n,
			     int unit, unsigned occ)
{
	for (;; t++) {
		uint8_t *b;

		if (t + occ >= c->now + RING)
			return t;
		b = busy_at(c, t);
		for (unsigned p = lo; p < lo + n; p++) {
			unsigned k;

			if (b[p])
				continue;
			if (unit >= 0) {
				for (k = 0; k < occ && !busy_at(c, t + k)[unit]; k++)
					;
				if (k < occ)
					break;
				for (k = 0; k < occ; k++)
					busy_at(c, t + k)[unit] = 1;
			}
			b[p] = 1;
			return t;
		}
	}
}

/* Cycle the value of a source register is ready. */
static uint64_t src_ready(const struct core *c, uint32_t flags, uint32_t fx, uint32_t ff,
			  unsigned r)
{
	if (flags & fx)
		return r ? c->reg_ready[r] : 0;
	if (flags & ff)
		return c->reg_ready[32 + r];
	return 0;
}

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Data access of load e whose address is known at cycle t: returns its completion cycle. */
static uint64_t load_access(struct core *c, struct core_insn *e, uint64_t t)
{
	const struct core_cfg *cfg = &c->cfg;
	struct memsys *m = &c->mem;
	uint64_t r, start, done;
	unsigned level, lat;
	int miss;

	t += tlb_access(m, cfg, &m->dtlb, e->mem_addr, &miss);
	if (miss) {
		e->events |= CORE_EV_DTLB_MISS;
		c->st.dtlb_miss++;
	}
	e->t_mem = t;	/* translated: the request goes to the D-cache */
	if (cache_find(&m->l1d, e->mem_addr, &r)) {
		done = max64(t + cfg->lat_l1, r);
		if (r > t + cfg->lat_l1)
			e->events |= CORE_EV_DC_MISS;	/* merged into an outstanding miss */
		e->mem_level = 1;
		return done;
	}
	/* a new miss needs a free MSHR */
	unsigned best = 0;

	start = t;
	for (unsigned i = 0; i < cfg->mshrs; i++) {
		if (m->mshr[i] <= t) {
			best = i;
			break;
		}
		if (m->mshr[i] < m->mshr[best])
			best = i;
	}
	if (m->mshr[best] > t) {
		start = m->mshr[best];
		c->st.mshr_full++;
	}
	lat = cfg->lat_l1 + below_l1(m, cfg, e->mem_addr, start + cfg->lat_l1, &level);
	done = start + lat;
	m->mshr[best] = done;
	cache_fill(&m->l1d, e->mem_addr, done);
	e->mem_level = (uint8_t)level;
	e->events |= CORE_EV_DC_MISS | (level >= 3 ? CORE_EV_L2_MISS : 0) |
		     (level >= 4 ? CORE_EV_LLC_MISS : 0);
	c->st.l1d_miss++;
	c->st.l2_miss += level >= 3;
	c->st.llc_miss += level >= 4;
	return done;
}

/* A store's access at cycle t: it updates the caches (write-allocate) and TLB but its
 * miss latency is hidden behind commit (BOOM writes stores after commit). */
static void store_access(struct core *c, struct core_insn *e, uint64_t t)
{
	struct memsys *m = &c->mem;
	uint64_t r;
	unsigned level;
	int miss;

	tlb_access(m, &c->cfg, &m->dtlb, e->mem_addr, &miss);
	if (miss) {
		e->events |= CORE_EV_DTLB_MISS;
		c->st.dtlb_miss++;
	}
	if (cache_find(&m->l1d, e->mem_addr, &r))
		return;
	e->events |= CORE_EV_DC_MISS;
	cache_fill(&m->l1d, e->mem_addr, t + c->cfg.lat_l1 +
		   below_l1(m, &c->cfg, e->mem_addr, t + c->cfg.lat_l1, &level));
}

/* The youngest store in the store queue overlapping [a, a+n), or NULL. */
static const struct sq_ent *sq_match(const struct core *c, uint64_t a, unsigned n)
{
	for (unsigned i = c->stq_n; i-- > 0;) {
		const struct sq_ent *s = &c->sq[(c->sq_head + i) % c->cfg.stq];

		if (s->addr < a + n && a < s->addr + s->size)
			return s;
	}
	return NULL;
}

/* Schedule e, dispatched at cycle now: issue and completion times, register results,
 * store-queue entry, front-end resume after a mispredict. */
static void schedule(struct core *c, struct core_insn *e)
{
	const struct core_cfg *cfg = &c->cfg;
	unsigned pi = cfg->ports_int, pm = cfg->ports_mem, pf = cfg->ports_fp;
	uint64_t ready = c->now + 1, t;
	unsigned lat = cfg->lat_alu;

	ready = max64(ready, src_ready(c, e->flags, RV_F_RS1_X, RV_F_RS1_F, e->rs1));
	if (e->fu != RV_FU_STORE)	/* a store's data operand is not needed to issue */
		ready = max64(ready, src_ready(c, e->flags, RV_F_RS2_X, RV_F_RS2_F, e->rs2));
	if (e->flags & RV_F_RS3_F)
		ready = max64(ready, c->reg_ready[32 + e->rs3]);
	e->t_ready = ready;

	switch (e->fu) {
	case RV_FU_LOAD: {
		const struct sq_ent *s = sq_match(c, e->mem_addr, e->mem_size);

		t = port_reserve(c, ready, pi, pm, -1, 0);
		e->t_issue = t;
		c->st.loads++;
		if (!s) {
			e->t_complete = load_access(c, e, t);
		} else if (s->t_addr > t) {
			/* issued before the older store's address was known: the ordering check
			 * at the store's address catches it and the load re-executes */
			e->events |= CORE_EV_REPLAY | CORE_EV_STLF;
			c->st.replays++;
			c->st.stlf++;
			e->t_complete = max64(s->t_addr, s->t_data) + cfg->replay_penalty +
					cfg->lat_stlf;
		} else {
			e->events |= CORE_EV_STLF;
			c->st.stlf++;
			e->t_complete = max64(t, s->t_data) + cfg->lat_stlf;
		}
		break;
	}
	case RV_FU_STORE: {
		struct sq_ent *s = &c->sq[(c->sq_head + c->stq_n - 1) % cfg->stq];
		uint64_t td = src_ready(c, e->flags, RV_F_RS2_X, RV_F_RS2_F, e->rs2);

		t = port_reserve(c, ready, pi, pm, -1, 0);
		e->t_issue = t;
		c->st.stores++;
		store_access(c, e, t);
		s->addr = e->mem_addr;
		s->size = e->mem_size;
		s->t_addr = t;
		s->t_data = td;
		e->t_complete = max64(t, td) + 1;
		break;
	}
	case RV_FU_AMO:	/* alone in the ROB: read, then write */
		t = port_reserve(c, ready, pi, pm, -1, 0);
		e->t_issue = t;
		if (e->kind == CORE_K_LOAD) {
			c->st.loads++;
			e->t_complete = load_access(c, e, t) + 1;
		} else {
			c->st.stores++;
			store_access(c, e, t);
			e->t_complete = t + 1;
		}
		break;
	case RV_FU_MUL:
		lat = cfg->lat_mul;
		t = port_reserve(c, ready, 0, 1, -1, 0);
		goto fixed;
	case RV_FU_DIV:
		lat = cfg->lat_div;
		t = port_reserve(c, ready, 0, 1, RES_DIV, lat);
		goto fixed;
	case RV_FU_CSR:
	case RV_FU_SYSTEM:
		t = port_reserve(c, ready, 0, 1, -1, 0);
		goto fixed;
	case RV_FU_FADD: lat = cfg->lat_fadd; goto fp;
	case RV_FU_FMUL: lat = cfg->lat_fmul; goto fp;
	case RV_FU_FMA: lat = cfg->lat_fma; goto fp;
	case RV_FU_FCVT: lat = cfg->lat_fcvt; goto fp;
	case RV_FU_FMISC: lat = cfg->lat_fmisc; goto fp;
	case RV_FU_FDIV:
		lat = cfg->lat_fdiv;
		t = port_reserve(c, ready, pi + pm, 1, RES_FDIV, lat);
		goto fixed;
	fp:
		t = port_reserve(c, ready, pi + pm, pf, -1, 0);
		goto fixed;
	default:	/* ALU, branches, jumps */
		t = port_reserve(c, ready, 0, pi, -1, 0);
	fixed:
		e->t_issue = t;
		e->t_complete = t + lat;
		break;
	}
	if ((e->flags & (RV_F_LOAD | RV_F_STORE)) && !e->t_mem)
		e->t_mem = e->t_issue;	/* forwarded loads, stores, SC: sent at issue */
	if (c->pm_on && !e->is_ecall)
		core_pm_issue(c, e);
	if ((e->flags & RV_F_STORE) && e->fu != RV_FU_STORE) {	/* SC, AMO */
		struct sq_ent *s = &c->sq[(c->sq_head + c->stq_n - 1) % cfg->stq];

		s->addr = e->mem_addr;
		s->size = e->mem_size;
		s->t_addr = e->t_issue;
		s->t_data = e->t_complete;
	}
	if (e->flags & RV_F_RD_X) {
		if (e->rd)
			c->reg_ready[e->rd] = e->t_complete;
	} else if (e->flags & RV_F_RD_F) {
		c->reg_ready[32 + e->rd] = e->t_complete;
	}
	if (e->events & CORE_EV_MISPRED)	/* resolves at completion, then refetch */
		c->fetch_resume = e->t_complete + cfg->redirect_lat;
}

/* The dispatch stage of cycle now; rob_n is the ROB occupancy at the start of the cycle.
 * Fills the dispatch half of rob. */
static void dispatch_stage(struct core *c, unsigned rob_n, struct tiprof_rob_if *rob)
{
	const struct core_cfg *cfg = &c->cfg;
	unsigned n = 0, slots = 0;	/* dispatched; decode slots used (n + dropped) */

	while (slots < cfg->width) {
		struct core_insn *e;
		struct iq *q;
		unsigned bank;

		if (c->sd_drop_n) {	/* profile instructions dropped at decode, in order */
			if (core_sd_decode_drops(c, &slots))
				break;
			if (slots >= cfg->width)
				break;
		}
		if (!(c->disp_seq < c->tail_seq && rob_n + n < cfg->rob))
			break;
		e = &c->ring[c->disp_seq & c->ring_mask];
		q = &c->iq[iq_class(e)];
		if (e->t_avail > c->now)
			break;
		if (e->unique && (rob_n || n))	/* unique: only into an empty ROB, alone */
			break;
		if (rob_n && c->ring[(c->disp_seq - 1) & c->ring_mask].unique)
			break;	/* nothing after a unique until it leaves */
		if ((e->flags & RV_F_LOAD) && c->ldq_n >= cfg->ldq)
			break;
		if ((e->flags & RV_F_STORE) && c->stq_n >= cfg->stq)
			break;
		if (!iq_room(q, c->now))
			break;
		if (c->sd_on && (e->flags & RV_F_PROFILE) && core_sd_poppf_wait(c))
			break;
		/* dispatch */
		e->t_dispatch = c->now;
		e->rob_idx = (uint16_t)c->rob_tail_idx;
		bank = c->rob_tail_idx % cfg->width;
		rob->disp_valid |= (uint8_t)(1u << bank);
		rob->disp_pc[bank] = e->pc;
		rob->disp_idx[bank] = (uint16_t)c->rob_tail_idx;
		c->rob_tail_idx = (c->rob_tail_idx + 1) % cfg->rob;
		if (e->flags & RV_F_LOAD)
			c->ldq_n++;
		if (e->flags & RV_F_STORE)
			c->stq_n++;
		schedule(c, e);
		q->t[q->n++] = e->t_issue;
		if (c->sd_on && (e->flags & RV_F_PFWRITE))
			core_sd_decoded(c, e);
		c->disp_seq++;
		n++;
		slots++;
		if (e->unique)
			break;
	}
}

/* ---- commit and the cycle driver ----------------------------------------------------- */

/* Remove the oldest ROB entry e (committed or trapped). */
static void rob_pop(struct core *c, struct core_insn *e)
{
	if (e->flags & RV_F_LOAD)
		c->ldq_n--;
	if (e->flags & RV_F_STORE) {
		c->stq_n--;
		c->sq_head = (c->sq_head + 1) % c->cfg.stq;
	}
	c->head_seq++;
	c->rob_head_idx = (c->rob_head_idx + 1) % c->cfg.rob;
	c->st.insns++;
}

/* Contract in core.h. */
int core_cycle(struct core *c, struct core_cycle_out *out)
{
	const struct core_cfg *cfg = &c->cfg;
	struct tiprof_rob_if *rob = &out->rob;
	unsigned w = cfg->width, rob_n = (unsigned)(c->disp_seq - c->head_seq), ncommit = 0;
	unsigned hb = c->rob_head_idx % w;

	if (c->done) {
		snprintf(c->err, sizeof(c->err), "the program has already exited");
		return -1;
	}
	memset(busy_at(c, c->now + RING - 1), 0, NRES);	/* cycle now-1 leaves the ring */
	memset(rob, 0, sizeof(*rob));
	out->n_retired = 0;
	out->issued = 0;
	out->n_ghosts = 0;
	if (c->pm_on)
		core_pm_cycle_begin(c, out);
	rob->head_bank = (uint8_t)hb;
	out->head_kind = rob_n ? c->ring[c->head_seq & c->ring_mask].kind : CORE_K_ALU;

	/* head view and commit, from the state at the start of the cycle */
	for (unsigned i = 0; i < w && i < rob_n; i++) {
		struct core_insn *e = &c->ring[(c->head_seq + i) & c->ring_mask];
		unsigned b = (hb + i) % w;

		rob->head_valid |= (uint8_t)(1u << b);
		rob->head_pc[b] = e->pc;
		if (ncommit != i || e->t_complete > c->now)
			continue;
		if (e->is_ecall) {	/* traps at the head: no commit */
			if (i == 0)
				rob->exception = 1;
			continue;
		}
		rob->head_commit |= (uint8_t)(1u << b);
		if (e->events & CORE_EV_MISPRED)
			rob->head_mispred |= (uint8_t)(1u << b);
		if (e->unique) {
			e->events |= CORE_EV_FLUSH;
			rob->head_flush |= (uint8_t)(1u << b);
		}
		ncommit++;
	}
	for (unsigned i = 0; i < ncommit; i++) {
		struct core_insn *e = &c->ring[c->head_seq & c->ring_mask];

		e->t_commit = c->now;
		out->retired[out->n_retired++] = e;
		if (e->unique) {	/* flush on commit: refetch what follows */
			c->st.flushes++;
			c->fetch_resume = c->now + cfg->redirect_lat;
		}
		rob_pop(c, e);
	}

	/* dispatch into the tail banks, from the start-of-cycle occupancy */
	dispatch_stage(c, rob_n, rob);

	if (rob->exception) {
		struct core_insn *e = &c->ring[c->head_seq & c->ring_mask];

		e->events |= CORE_EV_EXCEPTION;
		e->t_commit = c->now;
		out->retired[out->n_retired++] = e;
		c->st.exceptions++;
		rob_pop(c, e);
		if (e->last) {
			c->done = 1;
			if (c->pm_on)
				core_pm_cycle_end(c, out);
			c->st.cycles = ++c->now;
			return 0;
		}
		c->fetch_resume = c->now + cfg->syscall_lat;
	}
	if (fetch_stage(c, out))
		return -1;
	if (c->pm_on)
		core_pm_cycle_end(c, out);
	c->st.cycles = ++c->now;
	return 1;
}

/* ---- functional warming (sampled simulation) -------------------------------------------- */

/* Contract in core.h. */
void core_fetch_stop(struct core *c) { c->fetch_stopped = 1; }

/* Contract in core.h. */
int core_empty(const struct core *c) { return c->head_seq == c->tail_seq && !c->sd_drop_n; }

/* Data access of a warmed memory instruction: TLB, L1D (write-allocate), L2, LLC, with the
 * fills ready at once (no time passes while warming). *last_page and *last_line are the
 * DTLB page and L1D line of the previous data access of this warming run (UINT64_MAX: none):
 * an access to the same page or line finds it most recently used in its set already, so
 * looking it up again would change no replacement decision; it is skipped. */
static void warm_data(struct core *c, uint64_t addr, uint64_t *last_page, uint64_t *last_line)
{
	struct memsys *m = &c->mem;
	uint64_t r;
	unsigned level;
	int miss;

	if (addr >> 12 != *last_page) {
		tlb_access(m, &c->cfg, &m->dtlb, addr, &miss);
		*last_page = addr >> 12;
	}
	if (addr >> 6 == *last_line)
		return;
	*last_line = addr >> 6;
	if (cache_find(&m->l1d, addr, &r))
		return;
	below_l1(m, &c->cfg, addr, 0, &level);
	cache_fill(&m->l1d, addr, 0);
}

/* core_warm (warm set) or core_skip. */
static int fast_forward(struct core *c, uint64_t n, int warm, uint64_t *done)
{
	struct core_stats saved = c->st;
	uint64_t k = 0, last_page = UINT64_MAX, last_line = UINT64_MAX, last_iline = UINT64_MAX;
	int ret = 0;

	*done = 0;
	if (!core_empty(c)) {
		snprintf(c->err, sizeof(c->err), "functional warming with a non-empty pipeline");
		return -1;
	}
	while (k < n) {
		struct iss_retired *r = &c->la;
		struct core_insn e;
		uint16_t ev = 0;

		if (core_fetch_peek(c)) {
			ret = -1;
			break;
		}
		if (c->la_exited)	/* the exit ecall ends the run in the detailed model */
			break;
		if (!warm) {
			c->la_valid = 0;
			k++;
			continue;
		}
		/* fetch: the detailed model looks the ITLB and L1I up once per fetch group; a line
		 * (and its page) looked up last is most recently used in its set already, so only
		 * the first instruction of each run in one line needs the lookup */
		if (r->pc >> 6 != last_iline) {
			ifetch_access(c, r->pc, 0, &ev);
			last_iline = r->pc >> 6;
		}
		if (r->insn.cf != RV_CF_NONE && !(c->sd_on && r->insn.op == RV_OP_PF_BLK)) {
			uint64_t pred;

			e.events = 0;	/* all predict() writes */
			core_predict(c, &e, r, &pred);
		}
		if (rv_is_load(&r->insn) || rv_is_store(&r->insn))
			warm_data(c, r->mem_addr, &last_page, &last_line);
		c->la_valid = 0;
		k++;
	}
	c->st = saved;		/* the counters are the detailed model's */
	if (c->sd_on)
		core_sd_resync(c);
	*done = k;
	/* restart fetch at the ISS's next instruction, now */
	c->fetch_stopped = 0;
	c->fetch_resume = c->now;
	return ret;
}

/* Contract in core.h. */
int core_warm(struct core *c, uint64_t n, uint64_t *done) { return fast_forward(c, n, 1, done); }

/* Contract in core.h. */
int core_skip(struct core *c, uint64_t n, uint64_t *done) { return fast_forward(c, n, 0, done); }
