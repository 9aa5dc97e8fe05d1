/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tiprof/opt.h - the command-line vocabulary of every tiprof subcommand and the one parser
 * that reads it (sw/opt.c). Each option has one row in the vocabulary: its identifier, its
 * spellings (perf's where perf has one: -o, -i, -e, -c/--count for a period, --stdio; older
 * tiprof spellings kept as aliases), whether it takes a value, and what it means. A
 * subcommand lists the options it accepts (struct opt_use, with a sentence of its own where
 * the meaning needs the command's words) and reads argv with opt_next(), so no two
 * subcommands can spell one setting differently. `tiprof help CMD` prints the options from
 * the same lists, and `tiprof help --options` prints the whole matrix (docs/options.md).
 */
#ifndef TIPROF_OPT_H
#define TIPROF_OPT_H

#include <stdint.h>
#include <stdio.h>

/* The vocabulary (one row each in sw/opt.c). */
enum opt_id {
	OPT_END = 0,		/* opt_next: no more options */
	OPT_OPERAND,		/* opt_next: an operand (permuting parsers only), in p->arg */
	OPT_ERROR,		/* opt_next: bad command line, one line printed on stderr */
	OPT_HELP_DONE,		/* opt_next: -h/--help seen and the help printed */
	OPT_OUTPUT, OPT_INPUT, OPT_PERIOD, OPT_RANDOM_BITS, OPT_PERIODIC, OPT_EVENT,
	OPT_CONFIG, OPT_JSON, OPT_STDIO, OPT_ELF, OPT_SYSROOT, OPT_EXE_PATH, OPT_FUNCTION, OPT_LEVEL,
	OPT_LIMIT, OPT_ORACLE, OPT_CYCLE_STACK, OPT_SVG, OPT_COMPARE, OPT_PROFILE, OPT_RTL,
	OPT_ROB_TRACE, OPT_SWEEP, OPT_SKID, OPT_POLICIES, OPT_PROGRESS, OPT_NO_PROGRESS,
	OPT_EXPECT, OPT_STAT, OPT_TRACE, OPT_SEED, OPT_MAX_INSNS, OPT_FROM, OPT_CYCLES,
	OPT_USER, OPT_KERNEL, OPT_AUX_PAGES, OPT_CHECK, OPT_DEPTH, OPT_MECH, OPT_REPS,
	OPT_TID, OPT_NO_TID, OPT_BLOCKS, OPT_SAMPLER_SEED, OPT_WINDOWS, OPT_PAIR, OPT_TRUTH,
	OPT_SORT, OPT_CPU, OPT_KALLSYMS,
	OPT_HELP,		/* -h/--help: accepted everywhere, never listed in a use list */
	OPT_NIDS
};

/* One row of the vocabulary. */
struct opt_def {
	enum opt_id id;
	char short_name;	/* '\0': none */
	const char *name;	/* canonical long spelling, without "--" */
	const char *alias[2];	/* other long spellings accepted (NULL: none) */
	const char *arg;	/* the value's name in help text; NULL: a flag */
	const char *help;	/* what it means, for any command that does not say more */
};

/* One option a (sub)command accepts; help NULL: the vocabulary's sentence. */
struct opt_use {
	enum opt_id id;
	const char *help;
};

/* A (sub)command's options: name as the user types it after `tiprof` ("sim", "lbr record"),
 * its use list (terminated by OPT_END) and the `tiprof help` entry -h prints. */
struct opt_set {
	const char *cmd;
	const struct opt_use *uses;
	const char *help_cmd;
};

/* The row for id, or NULL. */
const struct opt_def *opt_def_find(enum opt_id id);

/* Parser state over argv[1..argc-1] (argv[0] is the subcommand's name). */
struct opt_parser {
	const struct opt_set *set;
	int argc;
	char **argv;
	int i;			/* next argument to look at; after OPT_END, the first operand */
	int permute;		/* operands may stand between options (else the first ends them) */
	const char *arg;	/* the value of the option just returned, or the operand */
	const char *spelled;	/* the option as the user spelled it, e.g. "--rand-bits" */
	char spellbuf[64];	/* storage behind spelled */
};

/* Start parsing. With permute, operands come back one by one as OPT_OPERAND and "--" ends
 * the options; without it, the first operand or "--" ends them (commands that run a
 * program: what follows is the program's). */
void opt_init(struct opt_parser *p, const struct opt_set *set, int argc, char **argv,
	      int permute);

/* The next option (its id, p->arg its value), OPT_OPERAND, OPT_END, OPT_ERROR (an unknown
 * option, one not in the set, or a missing value: one line on stderr) or OPT_HELP_DONE
 * (-h/--help: `tiprof help CMD` printed on stdout). Values: "--name VALUE", "--name=VALUE",
 * "-x VALUE" or "-xVALUE". */
int opt_next(struct opt_parser *p);

/* p->arg as an unsigned number in [min, max] (decimal, or 0x hex); prints "tiprof CMD:
 * --name: bad value 'V' (min..max)" and returns -1 otherwise. */
int opt_u64(struct opt_parser *p, uint64_t min, uint64_t max, uint64_t *v);

/* For OPT_INPUT and OPT_OPERAND of a command that reads one file: store p->arg in *file, or
 * print "more than one FILE" if one is set already and return -1. */
int opt_one_file(struct opt_parser *p, const char **file);

/* Print "tiprof CMD: " + the message on stderr; returns 2 (TIPROF_EXIT_USAGE). */
int opt_usage_error(const struct opt_set *set, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print the option lines of set (for `tiprof help`). */
void opt_print_uses(FILE *f, const struct opt_set *set);

/* Print the matrix of every option and the (sub)commands that take it (markdown). */
void opt_print_matrix(FILE *f, const struct opt_set *const *sets);

#endif /* TIPROF_OPT_H */
