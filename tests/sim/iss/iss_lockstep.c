/* SPDX-License-Identifier: Apache-2.0 */
/* Lockstep check of the ISS against QEMU: reads the log of
 *   qemu-riscv64 -singlestep -d cpu,fpu,nochain -D <log> prog args
 * on stdin and, for each logged state (the state before each instruction),
 * steps the ISS once and compares the PC and all 32 integer and 32 FP
 * registers. System calls whose results legitimately differ between the
 * two (thread ids, pids) have QEMU's a0 injected. QEMU passes getrandom
 * through to the host, so the bytes it returns are unknowable: the
 * buffers are recorded, and when a load from one of them gives a
 * different value, QEMU's value is written into ISS memory and the
 * register (counted as an injected load). Any other difference stops the
 * check with both states printed.
 * Usage: iss-lockstep [-n N] [--at-random HEX] [--first-fd FD] [--sysroot DIR]
 *                     [--name LABEL] [--run] prog args...  < log
 * By default each instruction is executed with iss_step(s, &record), the
 * timing model's path; --run executes it with iss_run(s, 1), the
 * functional mode's run loop (`tiprof iss`), and builds the record the
 * checker needs (pc, decoding, memory address, ecall) from the bytes at
 * the pc before the step.
 * The process environment is given to the program in reverse order,
 * which is what QEMU 7.2 does (its envlist is built by prepending).
 * File descriptors pass through to the host on both sides, so the first
 * one the guest opens depends on what the host process holds: --first-fd
 * occupies descriptors (on /dev/null) up to FD-1 so that the guest's first
 * open returns FD, as under QEMU (run-tests.sh: 5, because QEMU holds the
 * inherited log pipe 3 and its -D /dev/fd/3 log file 4). The dynamic
 * loader opens files in its first few thousand instructions. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "iss.h"

extern char **environ;

/* Where results go (the original stdout). */
static FILE *report;

/* One logged CPU state. */
struct state {
	uint64_t pc;
	uint64_t x[32];
	uint64_t f[32];
};

/* Log reader over stdin; line holds the lookahead line. */
struct reader {
	FILE *in;
	char line[512];
	int have_line;
	unsigned long lineno;
};

static int next_line(struct reader *r)
{
	if (r->have_line) {
		r->have_line = 0;
		return 1;
	}
	if (!fgets(r->line, sizeof(r->line), r->in))
		return 0;
	r->lineno++;
	return 1;
}

/* Parse "name value name value ..." register lines into st. */
static void parse_regs(char *line, struct state *st)
{
	char *tok = strtok(line, " \t\n");

	while (tok) {
		char *val = strtok(NULL, " \t\n");
		unsigned idx;

		if (!val)
			break;
		if ((tok[0] == 'x' || tok[0] == 'f') && isdigit((unsigned char)tok[1])) {
			idx = (unsigned)strtoul(tok + 1, NULL, 10) & 31;
			if (tok[0] == 'x')
				st->x[idx] = strtoull(val, NULL, 16);
			else
				st->f[idx] = strtoull(val, NULL, 16);
		}
		tok = strtok(NULL, " \t\n");
	}
}

/* Read the next " pc <hex>" entry and its register lines. Returns 1, or 0
 * at the end of the log. */
static int read_state(struct reader *r, struct state *st)
{
	memset(st, 0, sizeof(*st));
	for (;;) {
		if (!next_line(r))
			return 0;
		if (!strncmp(r->line, " pc ", 4)) {
			st->pc = strtoull(r->line + 4, NULL, 16);
			break;
		}
	}
	while (next_line(r)) {
		if (!strncmp(r->line, " pc ", 4)) {
			r->have_line = 1;
			break;
		}
		if (r->line[0] == ' ' && (r->line[1] == 'x' || r->line[1] == 'f'))
			parse_regs(r->line, st);
	}
	return 1;
}

static void iss_state(struct iss *s, struct state *st)
{
	unsigned k;

	st->pc = iss_pc(s);
	for (k = 0; k < 32; k++) {
		st->x[k] = iss_xreg(s, k);
		st->f[k] = iss_freg(s, k);
	}
}

/* Print the differences between the two states; returns how many. */
static int diff(const struct state *q, const struct state *m)
{
	int n = 0;
	unsigned k;

	if (q->pc != m->pc) {
		fprintf(report, "  pc: qemu %016" PRIx64 " iss %016" PRIx64 "\n", q->pc, m->pc);
		n++;
	}
	for (k = 0; k < 32; k++) {
		if (q->x[k] != m->x[k]) {
			fprintf(report, "  %s: qemu %016" PRIx64 " iss %016" PRIx64 "\n", rv_xreg_name(k), q->x[k], m->x[k]);
			n++;
		}
		if (q->f[k] != m->f[k]) {
			fprintf(report, "  %s: qemu %016" PRIx64 " iss %016" PRIx64 "\n", rv_freg_name(k), q->f[k], m->f[k]);
			n++;
		}
	}
	return n;
}

/* System calls whose return value is host-dependent in QEMU. */
static int injectable(int64_t nr)
{
	switch (nr) {
	case 96:  /* set_tid_address */
	case 172: /* getpid */
	case 173: /* getppid */
	case 178: /* gettid */
		return 1;
	}
	return 0;
}

/* Guest buffers filled by getrandom. */
struct rand_regions {
	uint64_t lo[16], hi[16];
	unsigned n;
};

/* If the only difference is the destination of a load from a getrandom
 * buffer, copy QEMU's value into the ISS (memory and register) and return
 * 1; else 0. */
static int inject_random_load(struct iss *s, const struct rand_regions *rr,
			      const struct iss_retired *ret, const struct state *q, struct state *m)
{
	const struct rv_insn *i = &ret->insn;
	uint64_t v;
	unsigned k;
	int in = 0, fp = (i->flags & RV_F_RD_F) != 0;

	if (!rv_is_load(i) || rv_is_amo(i) || q->pc != m->pc)
		return 0;
	for (k = 0; k < rr->n; k++)
		if (ret->mem_addr >= rr->lo[k] && ret->mem_addr + ret->mem_size <= rr->hi[k])
			in = 1;
	if (!in)
		return 0;
	for (k = 0; k < 32; k++)
		if ((q->x[k] != m->x[k] && (fp || k != i->rd)) ||
		    (q->f[k] != m->f[k] && (!fp || k != i->rd)))
			return 0;
	v = fp ? q->f[i->rd] : q->x[i->rd];
	if (iss_write_mem(s, ret->mem_addr, &v, ret->mem_size))
		return 0;
	if (fp)
		return 0; /* FP registers cannot be set from outside; never seen */
	iss_set_xreg(s, i->rd, v);
	m->x[i->rd] = v;
	return 1;
}

/* One instruction through iss_run(s, 1); *ret describes it as far as the
 * checker needs (pc, raw, insn, mem_addr/mem_size, ecall). */
static int step_run(struct iss *s, struct iss_retired *ret)
{
	uint8_t b[4] = { 0 };
	const struct rv_insn *i = &ret->insn;

	memset(ret, 0, sizeof(*ret));
	ret->pc = iss_pc(s);
	if (!iss_read_mem(s, ret->pc, b, 2) &&
	    ((b[0] & 3) != 3 || !iss_read_mem(s, ret->pc + 2, b + 2, 2)))
		rv_decode(b, (b[0] & 3) == 3 ? 4 : 2, ret->pc, &ret->insn);
	ret->raw = i->raw;
	if (rv_is_load(i) || rv_is_store(i)) {
		ret->mem_addr = iss_xreg(s, i->rs1) + (uint64_t)i->imm;
		ret->mem_size = i->mem_size;
	}
	if (i->op == RV_OP_ECALL) {
		ret->is_syscall = 1;
		ret->syscall_nr = (int64_t)iss_xreg(s, 17);
	}
	return iss_run(s, 1);
}

static int hexbytes(const char *h, uint8_t *out, size_t n)
{
	size_t k;

	if (strlen(h) != 2 * n)
		return -1;
	for (k = 0; k < n; k++) {
		unsigned v;
		if (sscanf(h + 2 * k, "%2x", &v) != 1)
			return -1;
		out[k] = (uint8_t)v;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct iss_config cfg;
	struct reader rd = { stdin, "", 0, 0 };
	struct state q, m;
	struct iss_retired ret;
	unsigned long n = 200000, done = 0, injected = 0, loads_injected = 0;
	long first_fd = 0;
	int use_run = 0;
	const char *label = NULL;
	struct rand_regions rr = { { 0 }, { 0 }, 0 };
	char err[256], text[96];
	const char *name;
	struct iss *s;
	int a = 1, r;

	memset(&cfg, 0, sizeof(cfg));
	cfg.qemu_compat = 1;
	for (; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "-n") && a + 1 < argc)
			n = strtoul(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--at-random") && a + 1 < argc) {
			if (hexbytes(argv[++a], cfg.at_random, 16)) {
				fprintf(stderr, "iss-lockstep: --at-random needs 32 hex digits\n");
				return 2;
			}
			cfg.have_at_random = 1;
		} else if (!strcmp(argv[a], "--first-fd") && a + 1 < argc) {
			first_fd = strtol(argv[++a], NULL, 0);
		} else if (!strcmp(argv[a], "--name") && a + 1 < argc) {
			label = argv[++a];
		} else if (!strcmp(argv[a], "--run")) {
			use_run = 1;
		} else if (!strcmp(argv[a], "--sysroot") && a + 1 < argc) {
			cfg.sysroot = argv[++a];
		} else
			break;
	}
	if (a >= argc) {
		fprintf(stderr, "usage: iss-lockstep [-n N] [--at-random HEX] [--first-fd FD] "
			"[--sysroot DIR] [--name LABEL] [--run] prog args... < qemu-log\n");
		return 2;
	}
	name = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
	if (label)
		name = label;
	/* The program's stdout/stderr go to /dev/null, as QEMU's do in the
	 * test (fstat results then agree); our report keeps the old stdout. */
	{
		int rep = dup(1), nul = open("/dev/null", O_WRONLY);

		if (rep < 0 || nul < 0 || dup2(nul, 1) < 0 || dup2(nul, 2) < 0 ||
		    !(report = fdopen(rep, "w"))) {
			perror("iss-lockstep");
			return 1;
		}
		close(nul);
		/* descriptors 0..first_fd-1 in use, as in the QEMU process */
		while (first_fd > 0) {
			int fd = open("/dev/null", O_RDONLY);

			if (fd < 0 || fd >= first_fd - 1) {
				if (fd >= first_fd)
					close(fd);
				break;
			}
		}
	}
	{
		size_t ne = 0, k;
		char **rev;

		while (environ[ne])
			ne++;
		rev = calloc(ne + 1, sizeof(*rev));
		if (!rev)
			return 1;
		for (k = 0; k < ne; k++)
			rev[k] = environ[ne - 1 - k];
		s = iss_create(argv[a], argv + a, rev, &cfg, err, sizeof(err));
		free(rev);
	}
	if (!s) {
		fprintf(stderr, "iss-lockstep: %s\n", err);
		return 1;
	}
	if (!read_state(&rd, &q)) {
		fprintf(report, "iss-lockstep: %s: empty QEMU log\n", name);
		return 1;
	}
	iss_state(s, &m);
	if (diff(&q, &m)) {
		fprintf(report, "iss-lockstep: %s: initial state differs from QEMU's (see above)\n", name);
		return 1;
	}
	while (done < n) {
		uint64_t a0 = iss_xreg(s, 10), a1 = iss_xreg(s, 11);

		r = use_run ? step_run(s, &ret) : iss_step(s, &ret);
		if (r == ISS_ERROR) {
			fprintf(report, "iss-lockstep: %s: ISS stopped after %lu instructions: %s\n", name, done,
			       iss_error(s));
			return 1;
		}
		done++;
		if (r == ISS_EXITED || !read_state(&rd, &q))
			break;
		iss_state(s, &m);
		if (ret.is_syscall && q.x[10] != m.x[10] && injectable(ret.syscall_nr)) {
			iss_set_xreg(s, 10, q.x[10]);
			m.x[10] = q.x[10];
			injected++;
		}
		if (ret.is_syscall && ret.syscall_nr == 278 && rr.n < 16) {
			rr.lo[rr.n] = a0;
			rr.hi[rr.n++] = a0 + a1;
		}
		if ((memcmp(q.x, m.x, sizeof(q.x)) || memcmp(q.f, m.f, sizeof(q.f))) &&
		    inject_random_load(s, &rr, &ret, &q, &m))
			loads_injected++;
		if (q.pc != m.pc || memcmp(q.x, m.x, sizeof(q.x)) || memcmp(q.f, m.f, sizeof(q.f))) {
			rv_disasm(&ret.insn, ret.pc, text, sizeof(text));
			fprintf(report, "iss-lockstep: %s: mismatch after instruction %lu at pc %016" PRIx64
			       " (%08" PRIx32 " %s)%s:\n", name, done, ret.pc, ret.raw, text,
			       ret.is_syscall ? " [system call]" : "");
			if (ret.is_syscall)
				fprintf(report, "  (system call %" PRId64 ")\n", ret.syscall_nr);
			diff(&q, &m);
			return 1;
		}
	}
	fprintf(report, "iss-lockstep: %s: %lu instructions matched (%lu system-call results and "
		"%lu getrandom loads injected)\n", name, done, injected, loads_injected);
	iss_destroy(s);
	return 0;
}
