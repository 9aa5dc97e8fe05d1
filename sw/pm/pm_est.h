/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_est.h - estimates from ProfileMe samples (the ProfileMe paper, Dean et al. MICRO 1997,
 * section 5; docs/pm-report.md has every formula): a set of records (+ the recording's
 * configuration and counters) aggregated per instruction (PC), per function and per data
 * address region:
 *   - sample counts k and k_E for every event bit E, and the estimated counts k * scale with a
 *     Clopper-Pearson interval (scale from PERIOD and the unit's TAKEN/LOST/FILTERED/COLLIDED
 *     as docs/profileme.md "Estimates" says);
 *   - latency distributions per instruction and stage (the seven TIPROF_PM_LAT_*): mean,
 *     percentiles, a log2 histogram;
 *   - loads and stores by D-cache / D-TLB outcome with their memory latency, per instruction
 *     and per data region;
 *   - path profiles: the distinct 16-bit global histories at fetch, with counts;
 *   - from paired samples: useful overlap and wasted issue slots per instruction.
 * Estimates use the first profile of each record only (the one the fetch counter selected);
 * the pair's second, a neighbour of a possibly filtered first, is used by the pair analysis.
 *
 * Use: pm_est_init, pm_est_add for every record (any order), pm_est_finish, then read the
 * arrays; pm_est_free. Or pm_est_build on an array. No printing, no global state; the only
 * link to symbols is the optional func_key callback.
 */
#ifndef TIPROF_PM_EST_H
#define TIPROF_PM_EST_H

#include <stddef.h>
#include <stdint.h>

#include "tiprof/pm_latency.h"
#include "tiprof/pm_sample.h"

/* "Events" an estimate can count: the 15 event bits TIPROF_PM_EV_* and, after them, every
 * sampled instruction ("fetched": all first profiles that carry a PC). */
#define PM_EST_EV_FETCHED ((int)TIPROF_PM_EV_BITS)
#define PM_EST_NEV (PM_EST_EV_FETCHED + 1)

/* Log2 histogram of a latency: bin 0 holds 0, bin b >= 1 holds [2^(b-1), 2^b). */
#define PM_EST_HBINS 17

/* Key of a PC outside every function (func_key's answer for none). */
#define PM_EST_NOFUNC UINT64_MAX

/* One latency distribution. */
struct pm_est_lat {
	uint64_t n;			/* valid values */
	double sum;			/* their sum */
	uint16_t min, max;
	uint64_t hist[PM_EST_HBINS];
	uint16_t *v;			/* the values (sorted after pm_est_finish; owned) */
	size_t cap;
};

/* One path (global history at fetch) of an instruction. */
struct pm_est_path {
	uint16_t hist;			/* PATH: bit 0 = newest outcome, 1 = taken */
	uint64_t n;			/* samples with this history */
	uint64_t taken, mispred;	/* of them, with BR_TAKEN / BR_MISPRED */
};

/* Paired-sample concurrency of an instruction I (docs/pm-report.md "Pairs"). */
struct pm_est_pair {
	uint64_t n_first, n_second;	/* usable pairs with I first / second */
	uint64_t u_first, u_second;	/* of them, partner retired and issued in I's lifetime */
	uint64_t life_n;		/* I's lifetimes seen in those pairs */
	double life_sum;		/* their sum, cycles */
	/* derived by pm_est_finish (0 when no pair) */
	double life_mean;		/* mean lifetime (fetch to end), cycles */
	double overlap;			/* useful overlap: W (u_f/n_f + u_s/n_s) */
	double overlap_lo, overlap_hi;	/* its approximate interval */
	double wasted;			/* issue_width * life_mean - overlap (0: width unknown) */
	int one_sided;			/* only one side had pairs: 2W u/n from that side */
};

/* Memory operations of an instruction or region (first profiles with LOAD or STORE). */
struct pm_est_mem {
	uint64_t loads, stores;		/* LOAD set (an AMO counts as a load), STORE only */
	uint64_t cls[4];		/* loads by class: bit 0 DC_MISS, bit 1 DTLB_MISS */
	uint64_t store_dc_miss;		/* stores that missed the D-cache */
	uint64_t lat_n[4];		/* loads with a valid MEM latency, by class */
	double lat_sum[4];		/* their sum */
	uint64_t hist[PM_EST_HBINS];	/* MEM latency of loads, log2 bins */
};

/* One instruction (PC). */
struct pm_est_insn {
	uint64_t pc;
	uint64_t func;			/* func_key(pc), PM_EST_NOFUNC without one */
	uint64_t k_ev[PM_EST_NEV];	/* first profiles with each event; [FETCHED] = k */
	uint64_t reason[4];		/* ABORTED by reason (0 mispredict .. 3 flush) */
	struct pm_est_lat lat[TIPROF_PM_NLAT];
	struct pm_est_mem mem;
	struct pm_est_path *path;	/* distinct histories, by hist (owned) */
	size_t npath, path_cap;
	struct pm_est_pair pair;		/* I ended by retire or abort (every fetch) */
	struct pm_est_pair pair_retired;	/* the same over the pairs in which I retired */
};

/* One function (instructions with the same func key; PM_EST_NOFUNC gathers the rest). */
struct pm_est_func {
	uint64_t key;
	uint64_t k_ev[PM_EST_NEV];
	size_t ninsn;			/* instructions sampled in it */
};

/* One data region: EAs with the same EA >> region_shift. */
struct pm_est_region {
	uint64_t base;			/* first address of the region */
	struct pm_est_mem mem;
};

/* Analysis options (NULL: the defaults of pm_est_opts_init). */
struct pm_est_opts {
	double conf;			/* confidence of every interval (0.95) */
	unsigned region_shift;		/* data region = EA >> region_shift (12: 4 KiB) */
	uint64_t (*func_key)(void *ctx, uint64_t pc);	/* NULL: no functions */
	void *func_ctx;
};

/* The estimator over one recording. */
struct pm_est {
	struct tiprof_pm_config cfg;	/* as given */
	struct tiprof_pm_counts counts;	/* as given (zero without) */
	int have_counts;		/* counts were given and are usable for the scale */
	struct pm_est_opts opts;
	uint64_t n;			/* records added */
	uint64_t n_empty;		/* first profile EMPTY (an empty fetch slot) */
	uint64_t n_timeout;		/* first profile ended by the timeout */
	uint64_t n_pairs;		/* records with PAIR */
	uint64_t n_pairs_used;		/* pairs that gave I-first or I-second data */
	uint64_t n_bad;			/* records whose format or fields make no sense */
	double scale;			/* fetch units one record stands for */
	double total;			/* n * scale: fetch units passing the filters */
	struct pm_est_insn *insn;	/* by PC after finish (owned) */
	size_t ninsn;
	struct pm_est_func *func;	/* by key after finish (owned) */
	size_t nfunc;
	struct pm_est_region *region;	/* by base after finish (owned) */
	size_t nregion;
	/* private: open-addressing indexes */
	size_t *ihash, ihcap, *rhash, rhcap, icap, rcap;
	int finished;
};

void pm_est_opts_init(struct pm_est_opts *o);

/* Start an estimator for a recording made with cfg (period > 0) whose counters are counts
 * (NULL: unknown; the scale is then PERIOD). Returns 0 or -1 (bad cfg, out of memory). */
int pm_est_init(struct pm_est *e, const struct tiprof_pm_config *cfg,
		const struct tiprof_pm_counts *counts, const struct pm_est_opts *opts);

/* Add one record. Returns 0, or -1 out of memory. A record that cannot be a ProfileMe
 * record (FMT != 1) is counted in n_bad and otherwise ignored. */
int pm_est_add(struct pm_est *e, const struct tiprof_pm_sample *s);

/* Sort, aggregate functions (with opts.func_key), compute the scale and derived values.
 * Returns 0 or -1 (out of memory). */
int pm_est_finish(struct pm_est *e);

/* init + add every s[0..n) + finish. */
int pm_est_build(struct pm_est *e, const struct tiprof_pm_config *cfg,
		 const struct tiprof_pm_counts *counts, const struct pm_est_opts *opts,
		 const struct tiprof_pm_sample *s, size_t n);

void pm_est_free(struct pm_est *e);

/* The instruction at pc (after finish), or NULL. */
const struct pm_est_insn *pm_est_find(const struct pm_est *e, uint64_t pc);

/* The function with key (after finish), or NULL. */
const struct pm_est_func *pm_est_find_func(const struct pm_est *e, uint64_t key);

/* Estimated count of a sample count k: k * scale. */
double pm_est_count(const struct pm_est *e, uint64_t k);

/* Its interval at opts.conf: n * scale times the Clopper-Pearson bounds of k / n. */
void pm_est_interval(const struct pm_est *e, uint64_t k, double *lo, double *hi);

/* The rate of an event per fetch of an instruction (or function): k_e / k, with the
 * Clopper-Pearson interval of k_e in k at opts.conf (k = 0: rate 0, [0, 1]). */
void pm_est_rate(const struct pm_est *e, uint64_t k_e, uint64_t k, double *rate, double *lo,
		 double *hi);

/* Event names: "retired", "aborted", ..., "ea_valid" for the bits, "fetched" for
 * PM_EST_EV_FETCHED. parse: case-insensitive, also "samples" = fetched, "dc-miss"; returns
 * the index or -1. */
const char *pm_est_event_name(unsigned ev);
int pm_est_event_parse(const char *name);

/* Stage names of TIPROF_PM_LAT_*: "total", "fetch_map", "map_ready", "ready_issue",
 * "issue_complete", "complete_retire", "mem". */
const char *pm_est_lat_name(unsigned sel);
int pm_est_lat_parse(const char *name);

/* Mean and the q-quantile (0..1, nearest rank on the sorted values) of l (0 if empty). */
double pm_est_lat_mean(const struct pm_est_lat *l);
double pm_est_lat_quantile(const struct pm_est_lat *l, double q);

/* Lower bound of log2 bin b (0, 1, 2, 4, ...). */
unsigned pm_est_bin_lo(unsigned b);

#endif /* TIPROF_PM_EST_H */
