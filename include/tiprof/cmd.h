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

#define TIPROF_EXIT_OK 0
#define TIPROF_EXIT_FAIL 1
#define TIPROF_EXIT_USAGE 2

/* One subcommand. */
struct tiprof_cmd {
	const char *name;	/* what the user types after `tiprof` */
	const char *summary;	/* one line for `tiprof help` */
	const char *usage;	/* synopsis and options for `tiprof help NAME` */
	/* Run with argv[0] = name and the remaining arguments; returns an exit status. */
	int (*run)(int argc, char **argv);
};

/* The table (NULL-name terminated), defined in sw/tiprof.c. */
extern const struct tiprof_cmd tiprof_cmds[];

/* The table entry called name, or NULL. */
const struct tiprof_cmd *tiprof_cmd_find(const char *name);

/* Subcommand entry points (sw/cmd-*.c). */
int cmd_help(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_lbr(int argc, char **argv);
/* The simulator's (sim/cmd/cmd-*.c), in the table when built with TIPROF_HAVE_SIM. */
int cmd_sim(int argc, char **argv);
int cmd_accuracy(int argc, char **argv);
int cmd_iss(int argc, char **argv);
int cmd_trace(int argc, char **argv);

#endif /* TIPROF_CMD_H */
