/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-help.c - `tiprof help [COMMAND]`: the list of subcommands, or one subcommand's
 * usage text, from the table in sw/tiprof.c.
 */
#include <stdio.h>

#include "tiprof/cmd.h"

/* Contract in tiprof.h: print the list (no argument) or argv[1]'s usage. */
int cmd_help(int argc, char **argv)
{
	const struct tiprof_cmd *c;

	if (argc > 2) {
		fprintf(stderr, "tiprof help: too many arguments; usage: tiprof help [COMMAND]\n");
		return TIPROF_EXIT_USAGE;
	}
	if (argc == 2) {
		c = tiprof_cmd_find(argv[1]);
		if (!c) {
			fprintf(stderr, "tiprof help: '%s' is not a tiprof command; "
				"'tiprof help' lists them\n", argv[1]);
			return TIPROF_EXIT_USAGE;
		}
		printf("tiprof %s - %s\n%s\n", c->name, c->summary, c->usage);
		return TIPROF_EXIT_OK;
	}
	printf("usage: tiprof COMMAND [ARGS]\n\n"
	       "Time-proportional instruction profiling on RISC-V out-of-order cores.\n\n"
	       "commands:\n");
	for (c = tiprof_cmds; c->name; c++)
		printf("  %-10s %s\n", c->name, c->summary);
	printf("\n'tiprof help COMMAND' shows how to use one. Exit status: 0 success, 1 an input\n"
	       "could not be used (one line on stderr says which and why), 2 bad command line.\n");
	return TIPROF_EXIT_OK;
}
