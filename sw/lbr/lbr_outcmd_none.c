/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_outcmd_none.c - the output subcommands in builds without libelf/libdw (the riscv64
 * cross build): each says so in one line. */
#include "lbr_outcmd.h"

#include <stdio.h>

static int none(char **argv)
{
	fprintf(stderr, "tiprof lbr: %s is not available in this build (no libelf/libdw); "
		"convert the records file with a host build of tiprof-lbr\n", argv[0]);
	return 2;
}

int lbr_cmd_perf(int argc, char **argv)
{
	(void)argc;
	return none(argv);
}

int lbr_cmd_llvm_prof(int argc, char **argv)
{
	(void)argc;
	return none(argv);
}

int lbr_cmd_afdo_text(int argc, char **argv)
{
	(void)argc;
	return none(argv);
}

int lbr_cmd_edges(int argc, char **argv)
{
	(void)argc;
	return none(argv);
}
