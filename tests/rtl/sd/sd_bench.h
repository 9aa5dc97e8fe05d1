/* SPDX-License-Identifier: Apache-2.0 */
/* Internals shared by the selective-dispatch harness and its benches (sd_directed.c,
 * sd_random.c): one cycle's inputs and outputs of the three blocks, and the model as one system. */
#ifndef TIPROF_SD_BENCH_H
#define TIPROF_SD_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "sd_harness.h"
#include "sd_model.h"

struct sd_in {
	int rst;
	struct sd_flags_in f;
	struct sd_filter_in d;
	struct sd_fpred_in p;
};

struct sd_out {
	struct sd_flags_out f;
	struct sd_filter_out d;
	struct sd_fpred_out p;
};

struct sd_sys {
	struct sd_flags f;
	struct sd_filter d;
	struct sd_fpred p;
};

void sd_sys_reset(struct sd_sys *s, const struct sd_cfg *c);
void sd_sys_eval(const struct sd_sys *s, const struct sd_in *in, struct sd_out *o);
void sd_sys_clock(struct sd_sys *s, const struct sd_cfg *c, const struct sd_in *in);
/* Wire the blocks as a core would, through the model: the filter reads the flags' speculative
 * FLAGS; its flag operation goes to the flags' decode port and the predictor's lock, its pf.blk
 * to the predictor's update port; with lock, the decoded writer also to the predictor's lock
 * counters (it must have been fetched through wf_* before). Call after setting the slots. */
void sd_wire(const struct sd_sys *s, struct sd_in *in, int lock);

/* directed scenes: run on a fresh model, every hand-worked expectation checked, the inputs
 * recorded for replay; 0 or -1 (a message printed) */
int sd_directed_record(const struct sd_cfg *c, struct sd_in **rec, size_t *n);

struct sd_rand;
struct sd_rand *sd_rand_new(const struct sd_cfg *c, uint64_t seed);
void sd_rand_next(struct sd_rand *r, const struct sd_sys *s, struct sd_in *in);
/* after the model's clock: 0, or non-zero when a bench-level invariant fails (sd_rand_why) */
int sd_rand_after(struct sd_rand *r, const struct sd_sys *s);
const char *sd_rand_why(const struct sd_rand *r);
int sd_rand_coverage(struct sd_rand *r);   /* non-zero when a bin is empty */
void sd_rand_report(const struct sd_rand *r);
void sd_rand_free(struct sd_rand *r);

#endif /* TIPROF_SD_BENCH_H */
