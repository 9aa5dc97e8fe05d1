/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-version.c - `tiprof version`: the tool's version and the versions of the formats
 * it understands (sample file, TIP register map).
 */
#include <stdio.h>

#include "sample_file.h"
#include "tiprof/tiprof_regs.h"
#include "tiprof/cmd.h"

static const struct opt_use version_uses[] = { { OPT_END, NULL } };
const struct opt_set opt_set_version = { "version", version_uses, "version" };

/* Contract in tiprof.h: print the versions; no arguments. */
int cmd_version(int argc, char **argv)
{
	struct opt_parser p;

	opt_init(&p, &opt_set_version, argc, argv, 1);
	switch (opt_next(&p)) {
	case OPT_END:
		break;
	case OPT_HELP_DONE:
		return TIPROF_EXIT_OK;
	case OPT_ERROR:
		return TIPROF_EXIT_USAGE;
	default:
		fprintf(stderr, "tiprof version: takes no arguments\n");
		return TIPROF_EXIT_USAGE;
	}
	printf("tiprof %s (sample file format %u.%u, TIP register map %u.%u)\n",
	       TIPROF_VERSION, SF_VERSION_MAJOR, SF_VERSION_MINOR,
	       TIPROF_TIP_ID_MAJOR, TIPROF_TIP_ID_MINOR);
	return TIPROF_EXIT_OK;
}
