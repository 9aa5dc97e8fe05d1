/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_opts.c - the options of the program-simulating subcommands (contract in run_opts.h).
 */
#include "run_opts.h"

#include <string.h>
#include <unistd.h>

/* Contract in run_opts.h. */
void run_opts_init(struct run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->progress = isatty(STDERR_FILENO);
}

/* Contract in run_opts.h. */
int run_opts_take(struct run_opts *o, struct opt_parser *p, int id)
{
	switch (id) {
	case OPT_OUTPUT:
		o->out_path = p->arg;
		return 1;
	case OPT_SYSROOT:
		o->sysroot = p->arg;
		return 1;
	case OPT_EXE_PATH:
		o->exe_path = p->arg;
		return 1;
	case OPT_PROGRESS:
		o->progress = 1;
		return 1;
	case OPT_NO_PROGRESS:
		o->progress = 0;
		return 1;
	case OPT_EXPECT:
		return opt_u64(p, 1, UINT64_MAX, &o->expect) ? -1 : 1;
	default:
		return 0;
	}
}

/* Contract in run_opts.h. */
void run_opts_iss(const struct run_opts *o, struct iss_config *cfg)
{
	cfg->sysroot = o->sysroot;
	cfg->exe_path = o->exe_path;
}
