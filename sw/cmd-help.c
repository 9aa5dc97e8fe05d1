/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-help.c - `tiprof help [COMMAND]`: the list of subcommands, or one subcommand's
 * usage text and options, from the table in sw/tiprof.c and the option sets next to each
 * parser; `tiprof help --options` prints every option and the commands that take it.
 */
#include <stdio.h>
#include <string.h>

#include "tiprof/cmd.h"

static const struct opt_use help_uses[] = { { OPT_END, NULL } };
const struct opt_set opt_set_help = { "help", help_uses, "help" };

/* Contract in cmd.h. */
void tiprof_print_help(FILE *f, const struct tiprof_cmd *c)
{
	fprintf(f, "tiprof %s - %s\n%s\n", c->name, c->summary, c->usage);
	for (const struct opt_set *const *s = c->opts; s && *s; s++) {
		if ((*s)->uses[0].id == OPT_END)
			continue;
		if (strcmp((*s)->cmd, c->name))
			fprintf(f, "options of tiprof %s:\n", (*s)->cmd);
		else
			fprintf(f, "options:\n");
		opt_print_uses(f, *s);
	}
	fprintf(f, "  %-24s %s\n", "-h, --help", "print this help");
}

/* Contract in cmd.h. */
size_t tiprof_opt_sets(const struct opt_set **out, size_t n)
{
	size_t k = 0;

	for (const struct tiprof_cmd *c = tiprof_cmds; c->name; c++)
		for (const struct opt_set *const *s = c->opts; s && *s; s++)
			if (k + 1 < n)
				out[k++] = *s;
	if (n)
		out[k] = NULL;
	return k;
}

/* Contract in cmd.h: print the list (no argument), argv[1]'s help or the option matrix. */
int cmd_help(int argc, char **argv)
{
	const struct tiprof_cmd *c;

	if (argc > 2) {
		fprintf(stderr, "tiprof help: too many arguments; usage: tiprof help [COMMAND]\n");
		return TIPROF_EXIT_USAGE;
	}
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		tiprof_print_help(stdout, tiprof_cmd_find("help"));
		return TIPROF_EXIT_OK;
	}
	if (argc == 2 && !strcmp(argv[1], "--options")) {
		const struct opt_set *sets[64];

		tiprof_opt_sets(sets, sizeof(sets) / sizeof(sets[0]));
		opt_print_matrix(stdout, sets);
		return TIPROF_EXIT_OK;
	}
	if (argc == 2) {
		c = tiprof_cmd_find(argv[1]);
		if (!c) {
			fprintf(stderr, "tiprof help: '%s' is not a tiprof command; "
				"'tiprof help' lists them\n", argv[1]);
			return TIPROF_EXIT_USAGE;
		}
		tiprof_print_help(stdout, c);
		return TIPROF_EXIT_OK;
	}
	printf("usage: tiprof COMMAND [ARGS]\n\n"
	       "Time-proportional instruction profiling on RISC-V out-of-order cores.\n\n"
	       "commands:\n");
	for (c = tiprof_cmds; c->name; c++)
		printf("  %-10s %s\n", c->name, c->summary);
	printf("\n'tiprof help COMMAND' (or 'tiprof COMMAND --help') shows how to use one;\n"
	       "'tiprof help --options' lists every option. Exit status: 0 success, 1 an input\n"
	       "could not be used (one line on stderr says which and why), 2 bad command line.\n");
	return TIPROF_EXIT_OK;
}
