/* SPDX-License-Identifier: Apache-2.0 */
/*
 * warm_exact.c - functional warming is exact: two cores run the same program to the same
 * point and drain; then core A warms U instructions (core_warm) while core B simulates the
 * same U instructions in detail (fetch restarted, stopped after exactly U, drained). Every
 * cache and TLB must then hold the same lines in the same LRU order, and the branch
 * predictor (gshare counters, global history, BTB, RAS) must be equal. Built with core.c
 * itself (its internals are static).  Usage: warm_exact N U ELF [ARGS]
 */
#include "core.c"

extern char **environ;

static int run_to(struct core *c, uint64_t n)
{
	struct core_cycle_out o;

	while (c->st.insns < n)
		if (core_cycle(c, &o) <= 0)
			return -1;
	return 0;
}

static int drain(struct core *c)
{
	struct core_cycle_out o;

	core_fetch_stop(c);
	while (!core_empty(c))
		if (core_cycle(c, &o) <= 0)
			return -1;
	return 0;
}

/* Sets of a and b that differ in their lines or in the LRU order of their lines. */
static unsigned cache_diff(const struct cache *a, const struct cache *b)
{
	unsigned d = 0;

	for (unsigned s = 0; s <= a->set_mask; s++) {
		unsigned base = s * a->ways, bad = 0;

		for (unsigned w = 0; w < a->ways && !bad; w++) {
			unsigned bw = a->ways;

			for (unsigned k = 0; k < a->ways; k++)
				if (b->tag[base + k] == a->tag[base + w])
					bw = k;
			if (bw == a->ways) {
				bad = 1;
				break;
			}
			for (unsigned v = 0; v < a->ways; v++) {
				unsigned bv = a->ways;

				for (unsigned k = 0; k < a->ways; k++)
					if (b->tag[base + k] == a->tag[base + v])
						bv = k;
				if (bv == a->ways || !a->tag[base + w] || !a->tag[base + v])
					continue;
				if ((a->lru[base + w] < a->lru[base + v]) !=
				    (b->lru[base + bw] < b->lru[base + bv]))
					bad = 1;
			}
		}
		d += bad;
	}
	return d;
}

int main(int argc, char **argv)
{
	struct core_cfg cfg;
	struct iss_config ic;
	struct core *c[2];
	struct iss *s[2];
	struct core_cycle_out o;
	char err[256];
	uint64_t n, u, done, target;
	unsigned fw, d = 0, pht = 0, btb = 0, ras = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: warm_exact N U ELF [ARGS]\n");
		return 2;
	}
	n = strtoull(argv[1], NULL, 0);
	u = strtoull(argv[2], NULL, 0);
	memset(&ic, 0, sizeof(ic));
	core_cfg_preset(&cfg, "4wide");
	for (int k = 0; k < 2; k++) {
		s[k] = iss_create(argv[3], argv + 3, environ, &ic, err, sizeof(err));
		c[k] = s[k] ? core_create(&cfg, s[k], err, sizeof(err)) : NULL;
		if (!c[k] || run_to(c[k], n) || drain(c[k])) {
			fprintf(stderr, "warm_exact: %s\n", c[k] ? core_error(c[k]) : err);
			return 1;
		}
	}
	if (core_warm(c[0], u, &done) || done != u) {
		fprintf(stderr, "warm_exact: warmed %llu of %llu: %s\n", (unsigned long long)done,
			(unsigned long long)u, core_error(c[0]));
		return 1;
	}
	/* B: the same U instructions in detail (fetch width cut so that it stops at U) */
	c[1]->fetch_stopped = 0;
	c[1]->fetch_resume = c[1]->now;
	target = c[1]->tail_seq + u;
	fw = c[1]->cfg.fetch_width;
	while (c[1]->tail_seq < target) {
		if (target - c[1]->tail_seq < fw)
			c[1]->cfg.fetch_width = (unsigned)(target - c[1]->tail_seq);
		if (core_cycle(c[1], &o) <= 0) {
			fprintf(stderr, "warm_exact: the program ended\n");
			return 1;
		}
	}
	c[1]->cfg.fetch_width = fw;
	if (drain(c[1]))
		return 1;
	d += cache_diff(&c[0]->mem.l1i, &c[1]->mem.l1i);
	d += cache_diff(&c[0]->mem.l1d, &c[1]->mem.l1d);
	d += cache_diff(&c[0]->mem.l2, &c[1]->mem.l2);
	d += cache_diff(&c[0]->mem.llc, &c[1]->mem.llc);
	d += cache_diff(&c[0]->mem.itlb, &c[1]->mem.itlb);
	d += cache_diff(&c[0]->mem.dtlb, &c[1]->mem.dtlb);
	d += cache_diff(&c[0]->mem.l2tlb, &c[1]->mem.l2tlb);
	for (size_t i = 0; i < (size_t)1 << cfg.ghist_bits; i++)
		pht += c[0]->pht[i] != c[1]->pht[i];
	for (unsigned i = 0; i < cfg.btb_entries; i++)
		btb += c[0]->btb[i].pc != c[1]->btb[i].pc || c[0]->btb[i].target != c[1]->btb[i].target;
	for (unsigned i = 0; i < cfg.ras_entries; i++)
		ras += c[0]->ras[i] != c[1]->ras[i];
	ras += c[0]->ras_top != c[1]->ras_top;
	printf("%s after %llu instructions, %llu warmed vs detailed: %u cache/TLB sets differ "
	       "(lines or LRU order), %u gshare counters, history %s, %u BTB entries, %u RAS "
	       "entries\n", argv[3], (unsigned long long)n, (unsigned long long)u, d, pht,
	       c[0]->ghist == c[1]->ghist ? "equal" : "differs", btb, ras);
	for (int k = 0; k < 2; k++) {
		core_destroy(c[k]);
		iss_destroy(s[k]);
	}
	return d || pht || btb || ras || c[0]->ghist != c[1]->ghist;
}
