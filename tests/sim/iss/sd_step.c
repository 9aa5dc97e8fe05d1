/* SPDX-License-Identifier: Apache-2.0 */
/* Xtpsd on the ISS's step path (iss_step, what the timing model drives): runs a program and
 * checks every record of an Xtpsd instruction against the flag state the ISS reports
 * (docs/seldisp.md): a profile instruction whose flag is clear accesses nothing and falls
 * through (pf.inc, pf.incr) or skips to its follow address (pf.blk); with the flag set,
 * pf.inc/pf.incr access the 8 bytes at pc+imm / rs1+imm and pf.blk falls through; setpf and
 * resetpf change exactly their mask. Prints the counts on stderr:
 *   sd-step: PROG: N retired, P profile executed, F filtered, B blocks entered, S skipped,
 *            W flag writes, 0 bad
 * and exits with the program's status (1 on a broken invariant, 126 on an ISS error).
 * Usage: sd-step PROG ARGS... */
#include <inttypes.h>
#include <stdio.h>

#include "iss.h"

int main(int argc, char **argv)
{
	char err[512];
	struct iss_config cfg = { 0 };
	struct iss *s;
	struct iss_retired r;
	uint64_t n = 0, exec = 0, filt = 0, entered = 0, skipped = 0, writes = 0, bad = 0;
	int st;

	if (argc < 2) {
		fprintf(stderr, "usage: sd-step PROG ARGS...\n");
		return 2;
	}
	s = iss_create(argv[1], argv + 1, (char *[]){ NULL }, &cfg, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "sd-step: %s\n", err);
		return 127;
	}
	for (;;) {
		uint64_t before = iss_pfstate(s), after;
		const struct rv_insn *i = &r.insn;
		int on;

		st = iss_step(s, &r);
		if (st == ISS_ERROR) {
			fprintf(stderr, "sd-step: %s\n", iss_error(s));
			return 126;
		}
		n++;
		after = iss_pfstate(s);
		if (rv_is_profile(i)) {
			on = (int)(before >> i->pf) & 1;
			if (after != before || on != (int)((after >> i->pf) & 1))
				bad++;
			if (i->op == RV_OP_PF_BLK) {
				if (on ? (r.taken || r.next_pc != r.pc + 4) :
					 (!r.taken || r.next_pc != i->target))
					bad++;
				on ? entered++ : skipped++;
			} else {
				uint64_t a = (i->op == RV_OP_PF_INC ? r.pc : iss_xreg(s, i->rs1)) +
					     (uint64_t)i->imm;

				if (r.taken || r.next_pc != r.pc + 4 ||
				    (on ? (r.mem_size != 8 || r.mem_addr != a) : r.mem_size != 0))
					bad++;
				on ? exec++ : filt++;
			}
		} else if (rv_writes_pf(i)) {
			writes++;
			if (i->op == RV_OP_SETPF && (after & 15) != ((before | (uint64_t)i->imm) & 15))
				bad++;
			if (i->op == RV_OP_RESETPF && (after & 15) != (before & ~(uint64_t)i->imm & 15))
				bad++;
		} else if (after != before && !rv_is_csr(i)) {
			bad++;
		}
		if (st == ISS_EXITED)
			break;
	}
	fprintf(stderr, "sd-step: %s: %" PRIu64 " retired, %" PRIu64 " profile executed, %" PRIu64
		" filtered, %" PRIu64 " blocks entered, %" PRIu64 " skipped, %" PRIu64
		" flag writes, %" PRIu64 " bad\n", argv[1], n, exec, filt, entered, skipped, writes,
		bad);
	st = iss_exit_code(s);
	iss_destroy(s);
	return bad ? 1 : st;
}
