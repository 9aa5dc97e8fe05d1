/* SPDX-License-Identifier: Apache-2.0 */
/* Oracle and reference policies from the ROB interface (contracts in rob_policies.h). The
 * Oracle applies the commit-state rules of docs/tip-unit.md to every cycle, written here
 * independently of the TIP model so that "TIP equals the Ideal sampler" is a real check. */
#include "rob_policies.h"

#include <string.h>

const char *const rob_policy_name[POL_COUNT] = {
	"Oracle", "Ideal", "TIP", "TIP-ILP", "LCI", "NCI", "NCI+ILP",
};

int rob_policies_init(struct rob_policies *rp, unsigned w)
{
	memset(rp, 0, sizeof(*rp));
	rp->w = w;
	for (int i = 0; i < POL_COUNT; i++) {
		if (profile_init(&rp->prof[i]) != 0) {
			rob_policies_free(rp);
			return -1;
		}
	}
	return 0;
}

void rob_policies_free(struct rob_policies *rp)
{
	for (int i = 0; i < POL_COUNT; i++)
		profile_free(&rp->prof[i]);
}

/* Bank of the k-th entry in ROB order. */
static unsigned bank_at(const struct rob_policies *rp, const struct tiprof_rob_if *r, unsigned k)
{
	return (r->head_bank + k) % rp->w;
}

/* Attribute weight to addr in the Oracle, and in Ideal if the cycle was sampled. */
static void give(struct rob_policies *rp, uint64_t addr, double w, int sampled)
{
	profile_add(&rp->prof[POL_ORACLE], addr, w);
	if (sampled)
		profile_add(&rp->prof[POL_IDEAL], addr, w);
}

void rob_policies_cycle(struct rob_policies *rp, const struct tiprof_rob_if *r, int sampled)
{
	unsigned w = rp->w, n = 0, k;
	uint8_t commit = r->head_valid & r->head_commit & (uint8_t)((1u << w) - 1);
	int empty = !(r->head_valid >> (r->head_bank % w) & 1);

	rp->cycles++;
	rp->samples += sampled != 0;
	for (k = 0; k < w; k++)
		n += commit >> k & 1;

	/* Waiting Drained cycles end with the first dispatch into an empty ROB, or (for cores
	 * whose dispatch signals lag) when the ROB is seen non-empty. */
	if (rp->drained_cycles) {
		int done = 0;
		uint64_t addr = 0;

		if (empty && r->disp_valid) {
			for (k = 0; k < w && !done; k++) {
				unsigned b = bank_at(rp, r, k);

				if (r->disp_valid >> b & 1) {
					addr = r->disp_pc[b];
					done = 1;
				}
			}
		} else if (!empty) {
			addr = r->head_pc[r->head_bank % w];
			done = 1;
		}
		if (done) {
			give(rp, addr, (double)(rp->drained_cycles - rp->drained_sampled), 0);
			give(rp, addr, (double)rp->drained_sampled, 1);
			rp->drained_cycles = rp->drained_sampled = 0;
		}
	}

	/* NCI: samples waiting for the next commit. */
	if (sampled)
		rp->nci_waiting++;
	if (n && rp->nci_waiting) {
		for (k = 0; k < w; k++) {
			unsigned b = bank_at(rp, r, k);

			if (commit >> b & 1) {
				profile_add(&rp->prof[POL_NCI], r->head_pc[b], (double)rp->nci_waiting);
				break;
			}
		}
		for (unsigned b = 0; b < w; b++)
			if (commit >> b & 1)
				profile_add(&rp->prof[POL_NCI_ILP], r->head_pc[b],
					    (double)rp->nci_waiting / n);
		rp->nci_waiting = 0;
	}

	/* The Oracle's four states (same precedence as the unit). */
	if (n) {
		for (unsigned b = 0; b < w; b++)
			if (commit >> b & 1)
				give(rp, r->head_pc[b], 1.0 / n, sampled);
	} else if (!empty) {
		give(rp, r->head_pc[r->head_bank % w], 1.0, sampled);
	} else if (rp->oir_flagged) {
		give(rp, rp->oir_addr, 1.0, sampled);
	} else {
		int now = 0;

		/* Drained: the next instruction to enter the ROB; it may enter this very cycle. */
		for (k = 0; k < w && r->disp_valid; k++) {
			unsigned b = bank_at(rp, r, k);

			if (r->disp_valid >> b & 1) {
				give(rp, r->disp_pc[b], 1.0, sampled);
				now = 1;
				break;
			}
		}
		if (!now) {
			rp->drained_cycles++;
			rp->drained_sampled += sampled != 0;
		}
	}

	/* OIR update, then LCI sees the last committed instruction including this cycle's. */
	if (n) {
		for (k = w; k-- > 0;) {
			unsigned b = bank_at(rp, r, k);

			if (commit >> b & 1) {
				rp->oir_addr = r->head_pc[b];
				rp->oir_flagged = (r->head_mispred | r->head_flush) >> b & 1;
				break;
			}
		}
	} else if (r->exception && !empty) {
		rp->oir_addr = r->head_pc[r->head_bank % w];
		rp->oir_flagged = 1;
	}
	if (sampled)
		profile_add(&rp->prof[POL_LCI], rp->oir_addr, 1.0);
}

void rob_policies_tip_sample(struct rob_policies *rp, const struct tiprof_sample *s)
{
	unsigned n = 0;

	if (s->flags == 0) { /* Computing: 1/n to each committing instruction */
		for (unsigned b = 0; b < rp->w; b++)
			n += s->valid >> b & 1;
		for (unsigned b = 0; b < rp->w; b++)
			if (s->valid >> b & 1)
				profile_add(&rp->prof[POL_TIP], s->addr[b], 1.0 / n);
		/* TIP-ILP: everything to the oldest committing instruction */
		for (unsigned k = 0; k < rp->w; k++) {
			unsigned b = (s->bank + k) % rp->w;

			if (s->valid >> b & 1) {
				profile_add(&rp->prof[POL_TIP_ILP], s->addr[b], 1.0);
				break;
			}
		}
		return;
	}
	/* Stalled: the oldest entry; Flushed: slot 0; Drained: its one valid slot. */
	uint64_t a = s->flags & TIPROF_SF_STALLED ? s->addr[s->bank % rp->w] : 0;

	if (!(s->flags & TIPROF_SF_STALLED))
		for (unsigned b = 0; b < rp->w; b++)
			if (s->valid >> b & 1) {
				a = s->addr[b];
				break;
			}
	profile_add(&rp->prof[POL_TIP], a, 1.0);
	profile_add(&rp->prof[POL_TIP_ILP], a, 1.0);
}
