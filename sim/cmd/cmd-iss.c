/* SPDX-License-Identifier: Apache-2.0 */
/* cmd-iss.c - `tiprof iss`: run a riscv64 Linux program on the ISS (sim/iss), with its
 * output going to our stdout/stderr and its exit status as ours (options: iss_uses below,
 * `tiprof help iss`). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdo_truth.h"
#include "iss.h"
#include "tiprof/cmd.h"

extern char **environ;

/* Command-line options. */
struct opts {
	int stat, trace;
	const char *truth;	/* --truth: the exact block/edge profile (sim/fdo, docs/fdo.md) */
	uint64_t max_insns;
	struct iss_config cfg;
	int first_arg;
};

static const struct opt_use iss_uses[] = {
	{ OPT_STAT, NULL },
	{ OPT_TRACE, NULL },
	{ OPT_SEED, NULL },
	{ OPT_MAX_INSNS, NULL },
	{ OPT_SYSROOT, NULL },
	{ OPT_EXE_PATH, NULL },
	{ OPT_TRUTH, "write the exact basic-block and edge counts of the program's own code to "
		     "FILE, an FDO profile (docs/fdo.md)" },
	{ OPT_END, NULL }
};
const struct opt_set opt_set_iss = { "iss", iss_uses, "iss" };

/* Returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct opts *o)
{
	struct opt_parser p;
	int id;

	memset(o, 0, sizeof(*o));
	opt_init(&p, &opt_set_iss, argc, argv, 0);
	while ((id = opt_next(&p)) != OPT_END) {
		switch (id) {
		case OPT_HELP_DONE:
			return TIPROF_EXIT_OK;
		case OPT_ERROR:
			return TIPROF_EXIT_USAGE;
		case OPT_STAT:
			o->stat = 1;
			break;
		case OPT_TRACE:
			o->trace = 1;
			break;
		case OPT_SEED:
			if (opt_u64(&p, 0, UINT64_MAX, &o->cfg.seed))
				return TIPROF_EXIT_USAGE;
			break;
		case OPT_MAX_INSNS:
			if (opt_u64(&p, 1, UINT64_MAX, &o->max_insns))
				return TIPROF_EXIT_USAGE;
			break;
		case OPT_SYSROOT:
			o->cfg.sysroot = p.arg;
			break;
		case OPT_EXE_PATH:
			o->cfg.exe_path = p.arg;
			break;
		case OPT_TRUTH:
			o->truth = p.arg;
			break;
		}
	}
	if (p.i >= argc)
		return opt_usage_error(&opt_set_iss, "no program given (tiprof help iss)");
	o->first_arg = p.i;
	return -1;
}

/* Entry point of `tiprof iss` (registered in sw/tiprof.c). */
int cmd_iss(int argc, char **argv)
{
	struct opts o;
	struct iss_retired ret;
	struct iss *s;
	struct fdo_truth *truth = NULL;
	char err[1024], text[96];
	int r, code;

	r = parse(argc, argv, &o);
	if (r >= 0)
		return r;
	s = iss_create(argv[o.first_arg], argv + o.first_arg, environ, &o.cfg, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "tiprof iss: %s\n", err);
		return 127;
	}
	if (o.truth) {
		struct iss_object main_obj;

		iss_objects(s, &main_obj, 1);
		truth = fdo_truth_open(argv[o.first_arg], main_obj.bias, err, sizeof(err));
		if (!truth) {
			fprintf(stderr, "tiprof iss: --truth: %s\n", err);
			iss_destroy(s);
			return 126;
		}
	}
	if (!o.trace && !truth) {
		/* functional mode: the run loop, in chunks up to --max-insns */
		do {
			uint64_t n = o.max_insns ? o.max_insns - iss_instret(s) : UINT64_MAX;

			r = iss_run(s, n);
		} while (r == ISS_OK && !o.max_insns);
	} else {
		for (;;) {
			r = iss_step(s, &ret);
			if (r == ISS_ERROR)
				break;
			if (truth)
				fdo_truth_step(truth, &ret);
			if (r != ISS_OK)
				break;
			if (!o.trace)
				goto next;
			rv_disasm(&ret.insn, ret.pc, text, sizeof(text));
			fprintf(stderr, "%" PRIx64 ": %0*" PRIx32 " %s\n", ret.pc,
				ret.insn.len * 2, ret.raw, text);
next:
			if (o.max_insns && iss_instret(s) >= o.max_insns)
				break;
		}
	}
	if (truth) {
		uint64_t unmatched;

		if (fdo_truth_write(truth, o.truth, &unmatched, err, sizeof(err))) {
			fprintf(stderr, "tiprof iss: --truth: %s\n", err);
			fdo_truth_free(truth);
			iss_destroy(s);
			return 126;
		}
		if (unmatched)
			fprintf(stderr, "tiprof iss: --truth: %" PRIu64 " transfers outside the "
				"control-flow graph\n", unmatched);
		fdo_truth_free(truth);
	}
	if (r == ISS_OK) {
		fprintf(stderr, "tiprof iss: stopped after %" PRIu64 " instructions (--max-insns)\n",
			iss_instret(s));
		iss_destroy(s);
		return 124;
	}
	if (o.stat)
		fprintf(stderr, "tiprof iss: %" PRIu64 " instructions\n", iss_instret(s));
	if (r == ISS_ERROR) {
		fprintf(stderr, "tiprof iss: error after %" PRIu64 " instructions: %s\n",
			iss_instret(s), iss_error(s));
		iss_destroy(s);
		return 126;
	}
	code = iss_exit_code(s);
	iss_destroy(s);
	return code;
}
