/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tiprof/cmd.h - the subcommand table of the `tiprof` command. Each subcommand lives in
 * its own file (sw/cmd-NAME.c; the simulator's in sim/cmd/cmd-NAME.c, linked in when the
 * simulator is part of the build) and exposes one entry point; sw/tiprof.c dispatches.
 * Exit status convention of every subcommand: TIPROF_EXIT_OK, TIPROF_EXIT_FAIL
 * (an input could not be used; one line on stderr names it and says why) or
 * TIPROF_EXIT_USAGE (bad command line).
 */
#ifndef TIPROF_CMD_H
#define TIPROF_CMD_H

#ifndef TIPROF_VERSION
#define TIPROF_VERSION "0.1.0-dev"	/* overridden by the build with -DTIPROF_VERSION */
#endif

#include <stdio.h>

#include "tiprof/opt.h"

#define TIPROF_EXIT_OK 0
#define TIPROF_EXIT_FAIL 1
#define TIPROF_EXIT_USAGE 2

/* One subcommand. */
struct tiprof_cmd {
	const char *name;	/* what the user types after `tiprof` */
	const char *summary;	/* one line for `tiprof help` */
	const char *usage;	/* synopsis and description for `tiprof help NAME` */
	/* Run with argv[0] = name and the remaining arguments; returns an exit status. */
	int (*run)(int argc, char **argv);
	/* Its option sets (NULL-terminated; several for a command with subcommands): `tiprof
	 * help NAME` lists their options after the usage text. */
	const struct opt_set *const *opts;
};

/* The table (NULL-name terminated), defined in sw/tiprof.c. */
extern const struct tiprof_cmd tiprof_cmds[];

/* The table entry called name, or NULL. */
const struct tiprof_cmd *tiprof_cmd_find(const char *name);

/* Print `tiprof help` of c: summary, usage and options (sw/cmd-help.c). */
void tiprof_print_help(FILE *f, const struct tiprof_cmd *c);

/* Every option set of the table, NULL-terminated (sw/cmd-help.c). */
size_t tiprof_opt_sets(const struct opt_set **out, size_t n);

/* Option sets, each defined next to the code that parses it. */
extern const struct opt_set opt_set_dump, opt_set_record, opt_set_report, opt_set_annotate,
	opt_set_help, opt_set_version;
extern const struct opt_set opt_set_lbr_record, opt_set_lbr_script, opt_set_lbr_dump,
	opt_set_lbr_perf, opt_set_lbr_llvm_prof, opt_set_lbr_afdo_text, opt_set_lbr_edges,
	opt_set_lbr_stat;
extern const struct opt_set opt_set_sim, opt_set_accuracy, opt_set_iss, opt_set_trace;
extern const struct opt_set opt_set_pm_report, opt_set_pm_lat, opt_set_pm_mem, opt_set_pm_path,
	opt_set_pm_pairs, opt_set_pm_convert;
extern const struct opt_set opt_set_fdo_overlap, opt_set_fdo_smooth, opt_set_fdo_llvm_prof,
	opt_set_fdo_gcc_afdo;

/* Subcommand entry points (sw/cmd-*.c). */
int cmd_help(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_lbr(int argc, char **argv);
int cmd_pm(int argc, char **argv);
int cmd_fdo(int argc, char **argv);
/* The simulator's (sim/cmd/cmd-*.c), in the table when built with TIPROF_HAVE_SIM. */
int cmd_sim(int argc, char **argv);
int cmd_accuracy(int argc, char **argv);
int cmd_iss(int argc, char **argv);
int cmd_trace(int argc, char **argv);

#endif /* TIPROF_CMD_H */
