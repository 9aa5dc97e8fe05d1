/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fdo.h - sample-based feedback-directed optimisation (docs/fdo.md, issue 13): the binary's
 * per-function control-flow graph, block/edge profiles (exact ones from the simulator, and
 * estimates from sample files), minimum-cost-flow smoothing after Chen et al. (CGO 2010) with
 * GLPK, and the paper's degree-of-overlap metric. No printing, no global state; errors come
 * back as -1 with a one-line reason.
 */
#ifndef TIPROF_FDO_H
#define TIPROF_FDO_H

#include <stddef.h>
#include <stdint.h>

#include "code_map.h"
#include "elf_image.h"

/* ---- control-flow graph ---------------------------------------------------------------- */

/* How a block ends (its last instruction). */
enum fdo_term {
	FDO_T_FALL = 0,		/* no control transfer: the next block follows */
	FDO_T_BRANCH,		/* conditional branch: taken target + fall-through */
	FDO_T_JUMP,		/* direct jump inside the function */
	FDO_T_CALL,		/* call (direct or indirect): the return site follows */
	FDO_T_RETURN,		/* return, tail call or a jump out of the function */
	FDO_T_INDIRECT,		/* indirect jump that is not a return: targets not static */
	FDO_T_STOP,		/* undecodable / ebreak: nothing follows */
};

/* Edge endpoints outside the function. */
#define FDO_ENTRY UINT32_MAX	/* src of the function's entry edge */
#define FDO_EXIT UINT32_MAX	/* dst of an edge leaving the function */

enum fdo_edge_kind { FDO_E_FALL, FDO_E_TAKEN, FDO_E_CALLRET, FDO_E_ENTRY, FDO_E_EXIT, FDO_E_DYN };

struct fdo_block {
	uint64_t start, end;	/* [start, end) */
	uint32_t func;		/* index of its function */
	uint32_t ninsn;		/* instructions in it */
	uint8_t term;		/* enum fdo_term */
	uint8_t long_lat;	/* instructions of long latency (div, fdiv/sqrt, loads): count */
	uint64_t last;		/* address of its last instruction */
	uint64_t call_target;	/* FDO_T_CALL: the callee's address when static (jal, or
				 * auipc + jalr on the same register), else 0 */
};

struct fdo_edge {
	uint32_t src, dst;	/* block indices, FDO_ENTRY / FDO_EXIT outside */
	uint32_t func;
	uint8_t kind;		/* enum fdo_edge_kind */
	double prob;		/* static branch probability (Ball-Larus-like heuristics) */
};

struct fdo_func {
	const char *name;
	uint64_t start, end;
	uint32_t b0, nb;	/* its blocks: [b0, b0 + nb) */
};

struct fdo_cfg {
	struct fdo_block *b;
	size_t nb;
	struct fdo_edge *e;	/* sorted by (func, src, dst) once built; fdo_cfg_add_edge appends */
	size_t ne, ecap;
	struct fdo_func *f;
	size_t nf;
	struct code_map map;
	struct elf_image im;
	char build_id[2 * ELF_IMAGE_BUILD_ID_MAX + 1];	/* hex, "" if none */
	struct { long *slot; size_t cap; } hash;	/* (src, dst) -> edge (private) */
};

/* Build the CFG of every function of the RISC-V ELF at path. -1 + reason (a stripped
 * binary, one without functions, is an error: "no function symbols (stripped?)"). */
int fdo_cfg_load(struct fdo_cfg *g, const char *path, char *err, size_t errlen);
void fdo_cfg_free(struct fdo_cfg *g);
/* Block containing link-time address addr, or -1. */
long fdo_cfg_block(const struct fdo_cfg *g, uint64_t addr);
/* Edge src -> dst (FDO_EXIT allowed; FDO_ENTRY as src with dst the entry block), or -1. */
long fdo_cfg_edge(const struct fdo_cfg *g, uint32_t src, uint32_t dst);
/* Add an edge found at run time (an indirect jump's target): index, or -1 (no memory). */
long fdo_cfg_add_edge(struct fdo_cfg *g, uint32_t src, uint32_t dst, uint8_t kind);

/* ---- profiles --------------------------------------------------------------------------- */

/* A block/edge profile over one CFG (arrays indexed like g->b and g->e). */
struct fdo_prof {
	double *bc;		/* block counts */
	double *ec;		/* edge counts (NULL: none yet) */
	size_t nb, ne;
	double *agg, *shadow;	/* per-block factors in [0,1] for the heuristics (NULL: none) */
	char source[32];	/* "exact", "tip-commit", "tip-cycles", "insn", "pm-retired", ... */
	double samples;		/* samples behind it (0 for exact) */
};

int fdo_prof_init(struct fdo_prof *p, const struct fdo_cfg *g);
void fdo_prof_free(struct fdo_prof *p);

/* The profile file (text, docs/fdo.md "Profile file"): header line, build-id, blocks and
 * edges by link-time address. fdo_prof_write: 0 or -1 + reason. */
int fdo_prof_write(const struct fdo_prof *p, const struct fdo_cfg *g, const char *path,
		   char *err, size_t errlen);
/* Read path into p over g; edges missing from g (run-time indirect-jump targets) are added
 * to g. The file's build-id must equal g's: -1 + reason otherwise ("another binary"). */
int fdo_prof_read(struct fdo_prof *p, struct fdo_cfg *g, const char *path, char *err,
		  size_t errlen);

/* How samples become block counts. */
enum fdo_est {
	FDO_EST_AUTO = 0,	/* commit for TIP cycle samples, retired for ProfileMe */
	FDO_EST_COMMIT,		/* TIP: instructions committing in a sampled Computing cycle */
	FDO_EST_CYCLES,		/* TIP: the sampled cycle's attribution (time, 1/n each) */
	FDO_EST_INSN,		/* instruction-proportional samples: each valid address */
	FDO_EST_PM_RETIRED,	/* ProfileMe: first profile of a record, retired */
};
int fdo_est_parse(const char *s, enum fdo_est *e);
const char *fdo_est_name(enum fdo_est e);

/* Block counts of g's blocks from the sample file at path (TIP or ProfileMe records):
 * per-instruction estimates averaged over each block's instructions, as Chen et al. do; also
 * the aggregation and shadow factors where the source gives the events (docs/fdo.md). The
 * file's build-id must match g's; an empty file (no usable sample) is an error. */
int fdo_prof_from_samples(struct fdo_prof *p, const struct fdo_cfg *g, const char *path,
			  enum fdo_est est, char *err, size_t errlen);

/* Block counts from a reference policy's per-address attribution of the same sampled cycles
 * (FILE.policies beside the sample file path, lib/sample/policy_profile.h): policy is one of
 * Oracle, Ideal, LCI, NCI, NCI+ILP, Dispatch, Software - time profiles, for contrast. */
int fdo_prof_from_policy(struct fdo_prof *p, const struct fdo_cfg *g, const char *path,
			 const char *policy, char *err, size_t errlen);

/* ---- edges from block counts ------------------------------------------------------------- */

/* Raw: every edge u->v gets bc[u] split over u's successors in proportion to their counts. */
void fdo_edges_raw(struct fdo_prof *p, const struct fdo_cfg *g);
/* Static estimate: block frequencies from static branch probabilities alone (a Markov chain
 * per function), each function scaled to its sampled total. */
void fdo_edges_static(struct fdo_prof *p, const struct fdo_cfg *g);

/* Min-cost-flow smoothing (Chen et al. CGO 2010 / Levin et al. HiPEAC 2008). */
enum fdo_heur {
	FDO_H_NONE = 0,		/* costs from the counts only */
	FDO_H_EVENTS,		/* aggregation and shadow factors of the profile */
	FDO_H_PERFECT,		/* perfect classification: over/under-sampled from the truth */
};
struct fdo_mcf_stats {
	size_t funcs, arcs, nodes;
	double seconds;
};
/* Replace p's block counts and edge counts by the min-cost flow. truth is needed for
 * FDO_H_PERFECT only. 0, or -1 + reason (solver failure). */
int fdo_mcf(struct fdo_prof *p, const struct fdo_cfg *g, enum fdo_heur h,
	    const struct fdo_prof *truth, struct fdo_mcf_stats *st, char *err, size_t errlen);

/* One function's min-cost flow on an explicit graph (the library's core, tested alone):
 * nb blocks with sampled counts w[] and cost multipliers kinc[]/kdec[] (per unit of
 * increase/decrease), ne edges (src/dst block index, or -1 for entry/exit) with costs
 * ecost[]; writes the flows x[] (blocks) and f[] (edges); *obj = total cost of the change.
 * 0 or -1. */
int fdo_mcf_solve(size_t nb, const double *w, const double *kinc, const double *kdec,
		  size_t ne, const long *src, const long *dst, const double *ecost,
		  double *x, double *f, double *obj);
/* The same with edge estimates ew[] as soft constraints too (cost ek[] per unit of departure,
 * on top of ecost[]): the form fdo_mcf uses, with the raw edges as estimates. */
int fdo_mcf_solve_est(size_t nb, const double *w, const double *kinc, const double *kdec,
		      size_t ne, const long *src, const long *dst, const double *ecost,
		      const double *ew, const double *ek, double *x, double *f, double *obj);

/* ---- compiler formats ------------------------------------------------------------------ */

struct srcprof;
/* Add p's counts over g to the source-level profile sp (sw/lib/srcprof.h): each block's
 * count (rounded) on its instructions' lines, zero blocks included; a call with a static
 * target (jal; auipc + jalr) as often as its block ran, as a call target named by the
 * callee's DWARF (else its symbol); each function's entry-edge count (the entry block's
 * count when p has no edges) as its head count. 0, or -1 (out of memory). */
int fdo_srcprof_fill(struct srcprof *sp, const struct fdo_prof *p, const struct fdo_cfg *g);

/* ---- metric -------------------------------------------------------------------------- */

struct fdo_overlap {
	double edge;		/* program-level degree of overlap of edge profiles, 0..1 */
	double func;		/* per-function edge overlap, weighted by the function's exact share */
	double block;		/* program-level block-count overlap */
};
/* Degree of overlap of p against truth t: sum over items of min(p_i / sum p, t_i / sum t). */
void fdo_overlap(const struct fdo_prof *p, const struct fdo_prof *t, const struct fdo_cfg *g,
		 struct fdo_overlap *o);
/* The formula itself, over n paired values. */
double fdo_overlap_vec(const double *a, const double *b, size_t n);

#endif /* TIPROF_FDO_H */
