/* SPDX-License-Identifier: Apache-2.0 */
/* Checks iss_objects()/iss_object_at() and the loader's error messages.
 *
 *   iss-objects-test [--sysroot DIR] prog args...
 *     runs prog whole (its output to /dev/null) and requires every retired
 *     pc to lie in the executable range of a listed object; at the end the
 *     list must hold the main program (its real path; bias 0 for ET_EXEC,
 *     0x4000000000 for a PIE, where QEMU 7.2 puts it), and for a dynamic
 *     program the interpreter (from the sysroot) and libc.so.6 (mapped by
 *     the interpreter), with disjoint executable ranges and page-aligned
 *     biases, and the interpreter at the auxv AT_BASE.
 *   iss-objects-test --expect-error TEXT [--sysroot DIR] prog
 *     requires iss_create to fail with a one-line message containing TEXT.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "iss.h"

#define MAX_OBJS 64

static FILE *report;
static int bad;

#define CHECK(cond, ...) do { if (!(cond)) { fprintf(report, "iss-objects: FAILED: " __VA_ARGS__); \
	fputc('\n', report); bad++; } } while (0)

static const char *base(const char *p)
{
	return strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
}

static const char *kind_name(enum iss_object_kind k)
{
	return k == ISS_OBJ_MAIN ? "main" : k == ISS_OBJ_INTERP ? "interp" : "mapped";
}

/* AT_BASE from the initial stack (argc, argv, envp, auxv at sp). */
static uint64_t at_base(struct iss *s)
{
	uint64_t sp = iss_xreg(s, 2), w[2], argc;

	iss_read_mem(s, sp, &argc, 8);
	sp += 8 * (argc + 2);
	do {
		iss_read_mem(s, sp, w, 8);
		sp += 8;
	} while (w[0]);
	for (;; sp += 16) {
		if (iss_read_mem(s, sp, w, 16) || w[0] == 0)
			return 0;
		if (w[0] == 7)
			return w[1];
	}
}

int main(int argc, char **argv)
{
	char *envp[] = { "LANG=C", NULL }, err[1024], real[PATH_MAX];
	const char *expect = NULL;
	struct iss_config cfg;
	struct iss_object objs[MAX_OBJS], o;
	struct iss_retired r;
	uint64_t n_in[3] = { 0 }, outside = 0, interp_base;
	size_t n, k, j;
	struct iss *s;
	int a = 1, st, libc = -1, interp = -1, main_obj = -1, dynamic, pie;

	memset(&cfg, 0, sizeof(cfg));
	for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
		if (!strcmp(argv[a], "--sysroot"))
			cfg.sysroot = argv[a + 1];
		else if (!strcmp(argv[a], "--expect-error"))
			expect = argv[a + 1];
		else
			break;
	}
	if (a >= argc) {
		fprintf(stderr, "usage: iss-objects-test [--expect-error TEXT] [--sysroot DIR] prog args...\n");
		return 2;
	}
	{
		int rep = dup(1), nul = open("/dev/null", O_WRONLY);

		if (rep < 0 || nul < 0 || dup2(nul, 1) < 0 || dup2(nul, 2) < 0 ||
		    !(report = fdopen(rep, "w"))) {
			perror("iss-objects-test");
			return 1;
		}
		close(nul);
	}
	s = iss_create(argv[a], argv + a, envp, &cfg, err, sizeof(err));
	if (expect) {
		CHECK(!s, "%s: iss_create succeeded, expected an error with \"%s\"", argv[a], expect);
		if (!s) {
			CHECK(strstr(err, expect), "error \"%s\" does not contain \"%s\"", err, expect);
			CHECK(!strchr(err, '\n') && err[0], "error is not one line: \"%s\"", err);
			if (!bad)
				fprintf(report, "iss-objects: %s: error as expected: %s\n", base(argv[a]), err);
		}
		iss_destroy(s);
		return bad != 0;
	}
	if (!s) {
		fprintf(report, "iss-objects: %s\n", err);
		return 1;
	}
	interp_base = at_base(s);
	dynamic = interp_base != 0;
	pie = iss_pc(s) >= 0x4000000000ull;
	while ((st = iss_step(s, &r)) == ISS_OK || st == ISS_EXITED) {
		if (iss_object_at(s, r.pc, &o))
			n_in[o.kind]++;
		else if (outside++ < 5)
			fprintf(report, "iss-objects: pc %" PRIx64 " is in no object\n", r.pc);
		if (st == ISS_EXITED)
			break;
	}
	CHECK(st == ISS_EXITED, "run stopped: %s", iss_error(s));
	CHECK(outside == 0, "%" PRIu64 " instructions outside every object", outside);
	n = iss_objects(s, objs, MAX_OBJS);
	CHECK(n >= 1 && n <= MAX_OBJS, "%zu objects", n);
	CHECK(iss_objects(s, NULL, 0) == n, "iss_objects(NULL, 0) disagrees");
	if (n > MAX_OBJS)
		n = MAX_OBJS;
	for (k = 0; k < n; k++) {
		fprintf(report, "iss-objects:   %-6s %016" PRIx64 "-%016" PRIx64 " bias %#" PRIx64 " %s\n",
			kind_name(objs[k].kind), objs[k].exec_lo, objs[k].exec_hi, objs[k].bias,
			objs[k].path);
		CHECK(objs[k].exec_lo < objs[k].exec_hi, "empty range");
		CHECK((objs[k].bias & 0xfff) == 0, "bias %#" PRIx64 " not page-aligned", objs[k].bias);
		for (j = 0; j < k; j++)
			CHECK(objs[k].exec_hi <= objs[j].exec_lo || objs[j].exec_hi <= objs[k].exec_lo,
			      "ranges of %s and %s overlap", objs[j].path, objs[k].path);
		if (objs[k].kind == ISS_OBJ_MAIN && main_obj < 0)
			main_obj = (int)k;
		if (objs[k].kind == ISS_OBJ_INTERP && interp < 0)
			interp = (int)k;
		if (objs[k].kind == ISS_OBJ_MAPPED && !strcmp(base(objs[k].path), "libc.so.6"))
			libc = (int)k;
	}
	CHECK(main_obj == 0, "the main program is not the first object");
	if (main_obj == 0) {
		CHECK(realpath(argv[a], real) && !strcmp(objs[0].path, real), "main path %s", objs[0].path);
		CHECK(objs[0].bias == (pie ? 0x4000000000ull : 0), "main bias %#" PRIx64, objs[0].bias);
	}
	if (dynamic) {
		CHECK(interp == 1, "no interpreter object after the main program");
		CHECK(libc > 1, "no libc.so.6 object");
		if (interp == 1) {
			CHECK(objs[1].bias == interp_base, "interpreter bias %#" PRIx64 " != AT_BASE %#" PRIx64,
			      objs[1].bias, interp_base);
			const char *root = cfg.sysroot ? cfg.sysroot : "/usr/riscv64-linux-gnu";

			CHECK(!strncmp(objs[1].path, root, strlen(root)),
			      "interpreter %s not in the sysroot %s", objs[1].path, root);
		}
	} else {
		CHECK(n == 1, "a static program has %zu objects", n);
	}
	fprintf(report, "iss-objects: %s: %zu objects; %" PRIu64 " instructions, all inside one: %" PRIu64
		" in the program, %" PRIu64 " in the interpreter, %" PRIu64 " in mapped libraries; %s\n",
		base(argv[a]), n, iss_instret(s), n_in[ISS_OBJ_MAIN], n_in[ISS_OBJ_INTERP],
		n_in[ISS_OBJ_MAPPED], bad ? "FAILED" : "ok");
	iss_destroy(s);
	return bad != 0;
}
