/* SPDX-License-Identifier: Apache-2.0 */
/* cmd-iss.c - `tiprof iss`: run a static riscv64 Linux program on the ISS (sim/iss), with its
 * output going to our stdout/stderr and its exit status as ours.
 *   tiprof iss [--count] [--trace] [--seed N] [--max-insns N] prog [args...]
 *   --count      print the retired instruction count to stderr
 *   --trace      print every retired instruction (pc, bits, disassembly)
 *   --seed N     seed for AT_RANDOM and getrandom (default 1)
 *   --max-insns  stop with an error after N instructions */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iss.h"
#include "tiprof/cmd.h"

extern char **environ;

/* Command-line options. */
struct opts {
	int count, trace;
	uint64_t max_insns;
	struct iss_config cfg;
	int first_arg;
};

static int usage(void)
{
	fprintf(stderr, "usage: tiprof iss [--count] [--trace] [--seed N] [--max-insns N] prog [args...]\n");
	return 2;
}

static int parse(int argc, char **argv, struct opts *o)
{
	int a;

	memset(o, 0, sizeof(*o));
	for (a = 1; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "--count"))
			o->count = 1;
		else if (!strcmp(argv[a], "--trace"))
			o->trace = 1;
		else if (!strcmp(argv[a], "--seed") && a + 1 < argc)
			o->cfg.seed = strtoull(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--max-insns") && a + 1 < argc)
			o->max_insns = strtoull(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--"))
			return a + 1 < argc ? (o->first_arg = a + 1, 0) : -1;
		else
			return -1;
	}
	if (a >= argc)
		return -1;
	o->first_arg = a;
	return 0;
}

/* Entry point of `tiprof iss` (registered in sw/tiprof.c). */
int cmd_iss(int argc, char **argv)
{
	struct opts o;
	struct iss_retired ret;
	struct iss *s;
	char err[256], text[96];
	int r, code;

	if (parse(argc, argv, &o))
		return usage();
	s = iss_create(argv[o.first_arg], argv + o.first_arg, environ, &o.cfg, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "tiprof iss: %s\n", err);
		return 127;
	}
	for (;;) {
		r = iss_step(s, o.trace ? &ret : NULL);
		if (r == ISS_OK && o.trace) {
			rv_disasm(&ret.insn, ret.pc, text, sizeof(text));
			fprintf(stderr, "%" PRIx64 ": %0*" PRIx32 " %s\n", ret.pc,
				ret.insn.len * 2, ret.raw, text);
		}
		if (r != ISS_OK)
			break;
		if (o.max_insns && iss_instret(s) >= o.max_insns) {
			fprintf(stderr, "tiprof iss: stopped after %" PRIu64 " instructions (--max-insns)\n",
				iss_instret(s));
			iss_destroy(s);
			return 124;
		}
	}
	if (o.count)
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
