/* SPDX-License-Identifier: Apache-2.0 */
/* Checks the per-instruction record iss_step() gives a timing model, on a
 * whole program run: next_pc follows the length or the taken target,
 * branch targets equal the decoder's static target, loads/stores report
 * their size and an address, ecalls are flagged, x0 stays zero, and the
 * run ends with the program's exit status.
 * The program's own output goes to /dev/null.
 * Usage: iss-api-test prog args... */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "iss.h"

/* Where results go (the original stdout). */
static FILE *report;

/* Counts of what retired, and the number of broken invariants. */
struct tally {
	uint64_t insns, loads, stores, amos, branches, taken, calls, returns, syscalls, fp;
	uint64_t bad;
};

static void check(const struct iss_retired *r, struct iss *s, struct tally *t)
{
	const struct rv_insn *i = &r->insn;
	int ok = 1;

	t->insns++;
	if (i->op == RV_OP_ILLEGAL || i->len != (rv_is_compressed(i) ? 2 : 4))
		ok = 0;
	if (r->taken) {
		if (!rv_is_control(i) || r->next_pc != r->target)
			ok = 0;
		if (rv_has_target(i) && r->target != i->target)
			ok = 0;
		t->taken++;
	} else if (r->next_pc != r->pc + i->len) {
		ok = 0;
	}
	if (i->cf == RV_CF_BRANCH)
		t->branches++;
	if (i->cf == RV_CF_CALL || i->cf == RV_CF_CALL_IND)
		t->calls++;
	if (i->cf == RV_CF_RETURN)
		t->returns++;
	if (rv_is_load(i) || rv_is_store(i)) {
		if (r->mem_size != i->mem_size || r->mem_size == 0)
			ok = 0;
		t->loads += rv_is_load(i) && !rv_is_amo(i);
		t->stores += rv_is_store(i) && !rv_is_amo(i);
		t->amos += rv_is_amo(i);
	} else if (r->mem_size != 0) {
		ok = 0;
	}
	if (r->is_syscall != (i->op == RV_OP_ECALL))
		ok = 0;
	t->syscalls += r->is_syscall;
	t->fp += rv_is_fp(i);
	if (iss_xreg(s, 0) != 0 || iss_pc(s) != r->next_pc)
		ok = 0;
	if (!ok && t->bad++ < 10)
		fprintf(report, "iss-api: bad record at pc %" PRIx64 " (%08" PRIx32 ")\n", r->pc, r->raw);
}

int main(int argc, char **argv)
{
	char *envp[] = { "LANG=C", NULL }, err[256];
	struct tally t;
	struct iss_retired r;
	struct iss *s;
	int st;

	if (argc < 2) {
		fprintf(stderr, "usage: iss-api-test prog args...\n");
		return 2;
	}
	{
		int rep = dup(1), nul = open("/dev/null", O_WRONLY);

		if (rep < 0 || nul < 0 || dup2(nul, 1) < 0 || dup2(nul, 2) < 0 ||
		    !(report = fdopen(rep, "w"))) {
			perror("iss-api-test");
			return 1;
		}
		close(nul);
	}
	memset(&t, 0, sizeof(t));
	s = iss_create(argv[1], argv + 1, envp, NULL, err, sizeof(err));
	if (!s) {
		fprintf(report, "iss-api: %s\n", err);
		return 1;
	}
	while ((st = iss_step(s, &r)) == ISS_OK)
		check(&r, s, &t);
	if (st == ISS_ERROR) {
		fprintf(report, "iss-api: run stopped: %s\n", iss_error(s));
		return 1;
	}
	check(&r, s, &t);
	fprintf(report, "iss-api: %" PRIu64 " records checked: %" PRIu64 " loads, %" PRIu64 " stores, %" PRIu64
	       " AMO/LR/SC, %" PRIu64 " branches (%" PRIu64 " redirects), %" PRIu64 " calls, %" PRIu64
	       " returns, %" PRIu64 " FP, %" PRIu64 " syscalls; exit %d; %" PRIu64 " bad\n",
	       t.insns, t.loads, t.stores, t.amos, t.branches, t.taken, t.calls, t.returns, t.fp,
	       t.syscalls, iss_exit_code(s), t.bad);
	st = t.bad || t.insns != iss_instret(s) || t.amos == 0 || t.syscalls == 0;
	iss_destroy(s);
	return st;
}
