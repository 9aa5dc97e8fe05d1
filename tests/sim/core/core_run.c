/* SPDX-License-Identifier: Apache-2.0 */
/*
 * core_run.c - test harness of the timing model: runs one RISC-V ELF on the core with a
 * chosen configuration and prints its counters as key=value lines for tests/sim/core/run-tests.sh.
 * Optional checks, each failing the run (exit 1) with one line naming the cycle:
 *   --check   the ROB-interface contract every cycle (DESIGN.md, docs/tip-unit.md)
 *   --oracle  the Oracle's exact accounting at the end
 *   --tip     feed every cycle into the C TIP model (periodic sampling) and require samples
 *             whose addresses are instructions the program committed and which agree with
 *             the Oracle's view of their cycle (commit state, banks, addresses)
 * usage: core-run [--config NAME] [--set FIELD=VALUE]... [--check] [--oracle] [--tip]
 *                 ELF [ARGS...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "oracle.h"
#include "tip_model.h"

/* State of the contract checker. */
struct checker {
	unsigned w, rob;        /* banks, ROB entries */
	unsigned occ;           /* ROB occupancy it expects */
	unsigned head_idx;      /* ROB index of the oldest entry it expects */
	int have_hb;            /* expected head bank known */
	unsigned next_hb;       /* expected head bank */
	uint64_t cycle;         /* current cycle */
	char msg[256];          /* first violation */
};

/* Check one cycle against the contract; returns 0 or -1 with chk->msg. */
static int check_cycle(struct checker *k, const struct tiprof_rob_if *r)
{
	unsigned w = k->w, hb = r->head_bank, nv = k->occ < w ? k->occ : w, nc = 0, nd = 0;
	unsigned valid = 0, mask = (1u << w) - 1, first_disp = 0;
	const char *why = NULL;

	if (hb >= w)
		why = "head_bank out of range";
	else if (k->have_hb && hb != k->next_hb)
		why = "head_bank does not follow the commits";
	else if (hb != k->head_idx % w)
		why = "head_bank is not the bank of the oldest ROB index";
	if (why)
		goto bad;
	for (unsigned i = 0; i < nv; i++)
		valid |= 1u << ((hb + i) % w);
	if ((r->head_valid & mask) != valid || (r->head_valid & ~mask)) {
		why = "head_valid is not the oldest min(occupancy, W) banks from head_bank";
		goto bad;
	}
	for (unsigned i = 0; i < w; i++) {	/* commits: a prefix of the valid banks */
		unsigned b = (hb + i) % w;

		if (r->head_commit >> b & 1) {
			if (nc != i || !(valid >> b & 1)) {
				why = "commit is not an in-order prefix from head_bank";
				goto bad;
			}
			nc++;
		}
	}
	if ((r->head_commit & ~mask) || ((r->head_mispred | r->head_flush) & ~r->head_commit)) {
		why = "mispred/flush flag on a bank that does not commit";
		goto bad;
	}
	if (r->exception && (!(valid >> hb & 1) || nc)) {
		why = "exception without a valid head or together with a commit";
		goto bad;
	}
	/* dispatch: contiguous banks from the tail, consecutive ROB indices */
	for (unsigned i = 0; i < w; i++) {
		unsigned b = (hb + k->occ + i) % w;

		if (r->disp_valid >> b & 1) {
			if (nd != i) {
				why = "dispatch not into consecutive tail banks";
				goto bad;
			}
			if (r->disp_idx[b] != (k->head_idx + k->occ + i) % k->rob) {
				why = "dispatch ROB index is not the tail";
				goto bad;
			}
			if (!nd)
				first_disp = b;
			nd++;
		}
	}
	if ((unsigned)__builtin_popcount(r->disp_valid) != nd) {
		why = "dispatch outside the tail banks";
		goto bad;
	}
	if (nd && k->occ == 0 && first_disp != hb) {
		why = "dispatch into an empty ROB not in head_bank";
		goto bad;
	}
	if (k->occ + nd > k->rob) {
		why = "ROB overflow";
		goto bad;
	}
	k->occ = k->occ + nd - nc - (r->exception ? 1u : 0u);
	k->head_idx = (k->head_idx + nc + (r->exception ? 1u : 0u)) % k->rob;
	k->next_hb = k->head_idx % w;
	k->have_hb = 1;
	k->cycle++;
	return 0;
bad:
	snprintf(k->msg, sizeof(k->msg), "cycle %llu: %s (head_bank %u valid %#x commit %#x "
		 "disp %#x occupancy %u)", (unsigned long long)k->cycle, why, hb, r->head_valid,
		 r->head_commit, r->disp_valid, k->occ);
	return -1;
}

/* What the Oracle saw in one cycle, kept for comparing TIP samples with it. */
struct cyc_rec {
	uint8_t state;          /* 'C'omputing, 'S'talled, 'F'lushed, 'D'rained */
	uint8_t mask;           /* C: committing banks, S: valid banks */
	uint8_t flag;           /* F: TIPROF_SF_MISPRED or the other-flush flags */
	uint64_t pc[TIPROF_MAX_BANKS]; /* C/S: head addresses; F: [0] the offending address */
};
#define REC_RING 65536u

/* Does TIP sample s agree with the Oracle's view of its cycle? */
static int sample_agrees(const struct tiprof_sample *s, const struct cyc_rec *c, unsigned w)
{
	switch (c->state) {
	case 'C':
	case 'S':
		if (s->flags != (c->state == 'S' ? TIPROF_SF_STALLED : 0) || s->valid != c->mask)
			return 0;
		for (unsigned b = 0; b < w; b++)
			if (s->valid >> b & 1 && s->addr[b] != c->pc[b])
				return 0;
		return 1;
	case 'F':
		return (s->flags & c->flag) && s->valid == 1 && s->addr[0] == c->pc[0];
	default:
		return s->flags == TIPROF_SF_FRONTEND;
	}
}

/* Write a CSR of the TIP model in the coming cycle's request. */
static void csr_write(struct tip_csr_req *q, uint16_t addr, uint64_t v)
{
	q->req = 1;
	q->we = 1;
	q->addr = addr;
	q->wdata = v;
	q->priv = 3;
}

int main(int argc, char **argv)
{
	struct core_cfg cfg;
	char err[512], *envp[] = { NULL };
	int check = 0, use_oracle = 0, use_tip = 0, i, r, ret = 1;
	struct iss_config icfg = { 0 };
	struct iss *iss = NULL;
	struct core *core = NULL;
	struct core_cycle_out out;
	struct checker chk;
	struct oracle orc;
	struct tip_model tip;
	struct tip_model_cfg tcfg;
	uint64_t samples = 0, bad_samples = 0, commits_flush = 0;
	uint64_t sample_pc[4096];	/* first sampled addresses, checked at the end */
	size_t n_sample_pc = 0;
	uint64_t next_seq = 0;		/* sequence number of the next record to retire */
	uint64_t disp_pfinc = 0;	/* pf.inc/pf.incr dispatched (ROB interface) */
	struct cyc_rec *recs = NULL;	/* the Oracle's view of the last REC_RING cycles */
	uint64_t agree = 0;		/* TIP samples that match it */

	core_cfg_preset(&cfg, "4wide");
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
			if (core_cfg_preset(&cfg, argv[++i])) {
				fprintf(stderr, "core-run: unknown config %s\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
			char *eq = strchr(argv[++i], '=');

			if (!eq) {
				fprintf(stderr, "core-run: --set FIELD=VALUE\n");
				return 2;
			}
			*eq = '\0';
			if (core_cfg_set(&cfg, argv[i], (unsigned)strtoul(eq + 1, NULL, 0))) {
				fprintf(stderr, "core-run: no config field %s\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--check") == 0) {
			check = 1;
		} else if (strcmp(argv[i], "--oracle") == 0) {
			use_oracle = 1;
		} else if (strcmp(argv[i], "--tip") == 0) {
			use_tip = 1;
		} else {
			fprintf(stderr, "core-run: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "usage: core-run [--config NAME] [--set F=V]... [--check] "
			"[--oracle] [--tip] ELF [ARGS...]\n");
		return 2;
	}
	iss = iss_create(argv[i], argv + i, envp, &icfg, err, sizeof(err));
	if (!iss) {
		fprintf(stderr, "core-run: %s\n", err);
		return 1;
	}
	core = core_create(&cfg, iss, err, sizeof(err));
	if (!core) {
		fprintf(stderr, "core-run: %s\n", err);
		iss_destroy(iss);
		return 1;
	}
	memset(&chk, 0, sizeof(chk));
	chk.w = cfg.width;
	chk.rob = cfg.rob;
	if (oracle_init(&orc, cfg.width)) {
		fprintf(stderr, "core-run: out of memory\n");
		goto out;
	}
	tcfg.w = cfg.width;
	tcfg.xlen = 64;
	tcfg.fifo_depth = 64;
	tcfg.input_stage = 0;
	if (use_tip && !(recs = calloc(REC_RING, sizeof(*recs)))) {
		fprintf(stderr, "core-run: out of memory\n");
		goto out_orc;
	}
	if (use_tip && tip_model_init(&tip, &tcfg)) {
		fprintf(stderr, "core-run: cannot initialise the TIP model\n");
		goto out_orc;
	}
	do {
		r = core_cycle(core, &out);
		if (r < 0) {
			fprintf(stderr, "core-run: %s\n", core_error(core));
			goto out_tip;
		}
		if (check && check_cycle(&chk, &out.rob)) {
			fprintf(stderr, "core-run: ROB contract: %s\n", chk.msg);
			goto out_tip;
		}
		for (unsigned b = 0; check && cfg.sd_mode && b < cfg.width; b++) {
			/* the decode filter, on the ROB interface: no pf.blk is ever dispatched,
			 * and the pf.inc/pf.incr dispatched are the executed ones (counted) */
			uint8_t w[4] = { 0, 0, 0, 0 };
			struct rv_insn in;

			if (!(out.rob.disp_valid >> b & 1))
				continue;
			if (iss_read_mem(iss, out.rob.disp_pc[b], w, 4))
				continue;
			rv_decode(w, 4, out.rob.disp_pc[b], &in);
			if (in.op == RV_OP_PF_BLK) {
				fprintf(stderr, "core-run: pf.blk at %#llx dispatched with the decode "
					"filter on\n", (unsigned long long)out.rob.disp_pc[b]);
				goto out_tip;
			}
			disp_pfinc += in.op == RV_OP_PF_INC || in.op == RV_OP_PF_INCR;
		}
		for (unsigned k = 0; check && k < out.n_retired; k++) {	/* record sanity */
			const struct core_insn *e = out.retired[k];

			if (e->seq != next_seq || !(e->t_fetch < e->t_dispatch &&
			    e->t_dispatch < e->t_issue && e->t_issue < e->t_complete &&
			    e->t_complete <= e->t_commit && e->t_commit == chk.cycle - 1)) {
				fprintf(stderr, "core-run: record of instruction %llu (pc %#llx) out of "
					"order or with inconsistent stage times\n",
					(unsigned long long)e->seq, (unsigned long long)e->pc);
				goto out_tip;
			}
			next_seq++;
			if (cfg.sd_mode) {	/* the decode filter: what entered the ROB */
				struct rv_insn in;

				rv_decode_word(e->raw, e->pc, &in);
				if (in.op == RV_OP_PF_BLK || (rv_is_profile(&in) && !e->mem_size)) {
					fprintf(stderr, "core-run: %s at %#llx entered the ROB with "
						"the decode filter on\n", rv_op_name(in.op),
						(unsigned long long)e->pc);
					goto out_tip;
				}
			}
		}
		commits_flush += (unsigned)__builtin_popcount(out.rob.head_flush & out.rob.head_commit);
		if (use_tip) {	/* the Oracle's state of this cycle, before it updates */
			struct cyc_rec *c = &recs[orc.cycles % REC_RING];
			unsigned hb = out.rob.head_bank, cm = out.rob.head_valid & out.rob.head_commit;

			memset(c, 0, sizeof(*c));
			if (cm || out.rob.head_valid >> hb & 1) {
				c->state = cm ? 'C' : 'S';
				c->mask = (uint8_t)(cm ? cm : out.rob.head_valid);
				memcpy(c->pc, out.rob.head_pc, sizeof(c->pc));
			} else if (orc.oir_cat >= 0) {
				c->state = 'F';
				c->flag = orc.oir_cat == TIPROF_CAT_MISPRED_FLUSH ? TIPROF_SF_MISPRED :
					  TIPROF_SF_FLUSH | TIPROF_SF_EXCEPTION;
				c->pc[0] = orc.oir_pc;
			} else {
				c->state = 'D';
			}
		}
		if (oracle_cycle(&orc, &out.rob, out.head_kind)) {
			fprintf(stderr, "core-run: oracle out of memory\n");
			goto out_tip;
		}
		for (unsigned k = 0; k < out.n_retired; k++)
			oracle_count(&orc, out.retired[k]->pc);
		if (use_tip) {
			struct tip_csr_req q = { 0 };
			struct tiprof_sample s;

			if (orc.cycles == 1)
				csr_write(&q, TIPROF_TIP_PERIOD, 997);
			else if (orc.cycles == 2)
				csr_write(&q, TIPROF_TIP_CTRL, 0xF1);
			tip_model_cycle(&tip, &out.rob, &q, NULL);
			while (tip_model_pop(&tip, &s)) {
				samples++;
				for (unsigned b = 0; b < cfg.width; b++)
					if (s.valid >> b & 1 && n_sample_pc < 4096)
						sample_pc[n_sample_pc++] = s.addr[b];
				if (!s.valid)
					bad_samples++;
				if (orc.cycles - s.cycle <= REC_RING &&
				    sample_agrees(&s, &recs[s.cycle % REC_RING], cfg.width))
					agree++;
			}
		}
	} while (r > 0);
	if (oracle_finish(&orc) || oracle_check(&orc, err, sizeof(err))) {
		fprintf(stderr, "core-run: %s\n", orc.nomem ? "oracle out of memory" : err);
		goto out_tip;
	}
	{
		const struct core_stats *st = core_stats(core);

		printf("cycles=%llu\ninsns=%llu\nipc=%.4f\nexit_code=%d\n",
		       (unsigned long long)st->cycles, (unsigned long long)st->insns,
		       (double)st->insns / (double)st->cycles, iss_exit_code(iss));
#define P(f) printf(#f "=%llu\n", (unsigned long long)st->f);
		P(branches) P(br_mispred) P(jumps) P(jump_mispred) P(btb_miss) P(loads) P(stores)
		P(l1d_miss) P(l2_miss) P(llc_miss) P(l1i_miss) P(dtlb_miss) P(itlb_miss) P(stlf)
		P(replays) P(flushes) P(exceptions) P(mshr_full)
#undef P
		printf("flush_commits=%llu\n", (unsigned long long)commits_flush);
		for (unsigned c = 0; c < TIPROF_NCAT; c++)
			printf("stack_%s=%.6f\n", tiprof_cat_name(c),
			       (double)orc.total[c] / ((double)orc.cycles * ORACLE_UNIT));
		if (cfg.sd_mode) {
#define P(f) printf(#f "=%llu\n", (unsigned long long)st->f);
			P(sd_fetch_drop) P(sd_dropped) P(sd_walked) P(sd_executed) P(sd_flag_writes)
			P(sd_restores) P(sd_reloads) P(sd_spec_mismatch) P(sd_poppf_stall)
			P(sd_pbr_walked) P(sd_pbr_redirect) P(sd_pbr_exec) P(sd_pbr_exec_mispred)
			P(sd_bdt_lookups) P(sd_bdt_hits) P(sd_bdt_locked) P(sd_bdt_skips)
			P(sd_bdt_skipped) P(sd_bdt_mispred) P(sd_bdt_missed) P(sd_bdt_recovery)
#undef P
		}
		if (check && cfg.sd_mode && disp_pfinc != st->sd_executed) {
			fprintf(stderr, "core-run: %llu pf.inc/pf.incr on the ROB interface, %llu "
				"executed\n", (unsigned long long)disp_pfinc,
				(unsigned long long)st->sd_executed);
			goto out_tip;
		}
		/* every ISS instruction retired from the ROB, or was dropped at decode (not the
		 * skipped blocks' instructions the core fetched itself) or skipped at fetch */
		next_seq += st->sd_dropped - st->sd_walked + st->sd_bdt_skipped;
		if (check && next_seq != iss_instret(iss)) {
			fprintf(stderr, "core-run: %llu records retired, the ISS retired %llu\n",
				(unsigned long long)next_seq, (unsigned long long)iss_instret(iss));
			goto out_tip;
		}
		if (check)
			printf("contract=ok cycles_checked=%llu\n", (unsigned long long)chk.cycle);
		if (use_oracle)
			printf("oracle=exact units=%llu\n",
			       (unsigned long long)orc.cycles * ORACLE_UNIT);
		for (size_t k = 0; k < n_sample_pc; k++) {	/* a committed address? */
			size_t e;

			for (e = 0; e < orc.n && orc.ent[e].pc != sample_pc[k]; e++)
				;
			if (e == orc.n || !orc.ent[e].commits)
				bad_samples++;
		}
		if (use_tip) {
			printf("tip_samples=%llu tip_bad=%llu tip_agree=%llu\n",
			       (unsigned long long)samples, (unsigned long long)bad_samples,
			       (unsigned long long)agree);
			if (samples < st->cycles / 997 / 2 || bad_samples || agree != samples) {
				fprintf(stderr, "core-run: TIP model: %llu samples in %llu cycles, %llu "
					"at uncommitted addresses, %llu disagree with the Oracle\n",
					(unsigned long long)samples, (unsigned long long)st->cycles,
					(unsigned long long)bad_samples,
					(unsigned long long)(samples - agree));
				goto out_tip;
			}
		}
	}
	ret = 0;
out_tip:
	if (use_tip)
		tip_model_fini(&tip);
out_orc:
	free(recs);
	oracle_fini(&orc);
out:
	core_destroy(core);
	iss_destroy(iss);
	return ret;
}
