/* SPDX-License-Identifier: Apache-2.0 */
/* emu_check.c - test-only tool: the look-ahead emulator (sw/lbr/lbr_emu_x86.c) against the
 * hardware, one instruction at a time. CMD is single-stepped under ptrace (ASLR off, one
 * thread) from its first instruction; before each step the emulator runs that one
 * instruction from the tracee's registers (memory read from the tracee), and after the step
 * its prediction - next pc, the 16 general registers, the arithmetic flags it defines - must
 * equal the tracee's, and every memory page the emulator stored into must read back from the
 * tracee as the emulator left it. Every instruction the emulator models is checked this way, in the
 * loader, libc and the program. A signal delivered to the tracee voids that step's
 * prediction. Exit status 0 if no prediction was wrong, 1 otherwise, 2 on bad use.
 * TIPROF_LBR_EMU=P plants the emulator's test bug (this tool must then fail).
 * usage: lbr_emu_check MAXSTEPS CMD [ARGS...]   (prints: steps, modelled, checked, wrong,
 * and the not-modelled mnemonics by count) */
#define _GNU_SOURCE
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <Zydis/Zydis.h>

#include "lbr_emu.h"
#include "lbr_isa.h"

/* The emulator's memory reader, here reading the tracee. */
static pid_t child;
void (*lbr_isa_code_view)(uint8_t *buf, uint64_t addr, size_t len);

size_t lbr_isa_read_partial(uint8_t *dst, uint64_t addr, size_t len)
{
	struct iovec l = { dst, len }, r = { (void *)(uintptr_t)addr, len };
	ssize_t n = process_vm_readv(child, &l, 1, &r, 1, 0);
	if (n >= 0)
		return (size_t)n;
	uint64_t page_end = (addr | 4095) + 1;
	if (page_end - addr < len)
		return lbr_isa_read_partial(dst, addr, page_end - addr);
	return 0;
}

int lbr_isa_read(void *dst, uint64_t addr, size_t len)
{
	return lbr_isa_read_partial(dst, addr, len) == len ? 0 : -1;
}

static void cpu_of(const struct user_regs_struct *r, struct lbr_cpu *c)
{
	const uint64_t g[16] = { r->rax, r->rcx, r->rdx, r->rbx, r->rsp, r->rbp, r->rsi, r->rdi,
				 r->r8, r->r9, r->r10, r->r11, r->r12, r->r13, r->r14, r->r15 };
	memset(c, 0, sizeof(*c));
	memcpy(c->reg, g, sizeof(g));
	c->pc = r->rip;
	c->flags = r->eflags;
	c->sp = r->rsp;
}

#define NMN 2048
static uint64_t unmodelled[NMN];

int main(int argc, char **argv)
{
	if (argc < 3 || atol(argv[1]) <= 0) {
		fprintf(stderr, "usage: lbr_emu_check MAXSTEPS CMD [ARGS...]\n");
		return 2;
	}
	long max = atol(argv[1]);
	const char *plant = getenv("TIPROF_LBR_EMU"); /* P: the emulator's planted bug */
	lbr_emu_plant = plant && plant[0] == 'P';
	static struct lbr_isa isa;
	ZydisDecoder dec;
	if (lbr_isa_init(&isa) < 0 ||
	    !ZYAN_SUCCESS(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)))
		return 2;
	struct lbr_emu *e = mmap(NULL, lbr_emu_size(), PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (e == MAP_FAILED)
		return 2;
	lbr_emu_init(e, &isa, NULL, 1); /* budget 1: one instruction per run */
	child = fork();
	if (child == 0) {
		personality(ADDR_NO_RANDOMIZE);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	int st;
	waitpid(child, &st, 0); /* stopped at the exec */
	ptrace(PTRACE_SETOPTIONS, child, 0, PTRACE_O_EXITKILL);
	long steps = 0, modelled = 0, checked = 0, wrong = 0, voided = 0, reps = 0;
	for (;;) {
		struct user_regs_struct r;
		ptrace(PTRACE_GETREGS, child, 0, &r);
		struct lbr_cpu c, real;
		struct lbr_emu_out o;
		struct lbr_emu_br br[2];
		cpu_of(&r, &c);
		lbr_emu_set_fs_base(e, r.fs_base);
		struct user_fpregs_struct fp;
		if (ptrace(PTRACE_GETFPREGS, child, 0, &fp) == 0)
			lbr_emu_set_xmm(e, (const uint8_t (*)[16])fp.xmm_space); /* vector stores checked */
		lbr_emu_run(e, &c, 2, br, &o);
		int predicted = o.insns == 1 && o.ck_pc != c.pc;
		if (o.insns == 1)
			modelled++;
		else if (o.end == LBR_EMU_END_INSN) {
			uint8_t b[16];
			ZydisDecodedInstruction in;
			size_t got = lbr_isa_read_partial(b, c.pc, sizeof(b));
			if (got && ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&dec, NULL, b, got, &in)) &&
			    in.mnemonic < NMN)
				unmodelled[in.mnemonic]++;
		}
		if (++steps > max)
			break;
		ptrace(PTRACE_SINGLESTEP, child, 0, 0);
		if (waitpid(child, &st, 0) < 0 || WIFEXITED(st) || WIFSIGNALED(st))
			break;
		int sig = WIFSTOPPED(st) ? WSTOPSIG(st) : 0;
		if (sig != SIGTRAP) {
			voided++; /* a signal: deliver it; the prediction is void */
			ptrace(PTRACE_SINGLESTEP, child, 0, sig);
			if (waitpid(child, &st, 0) < 0 || WIFEXITED(st) || WIFSIGNALED(st))
				break;
			continue;
		}
		if (!predicted)
			continue;
		ptrace(PTRACE_GETREGS, child, 0, &r);
		cpu_of(&r, &real);
		if (real.pc == c.pc) {
			reps++; /* one iteration of a rep string instruction: checked at its last */
			continue;
		}
		checked++;
		if (!lbr_emu_stores_match(e)) {
			if (++wrong <= 10)
				printf("WRONG at %#" PRIx64 ": the stores differ from the CPU's\n", c.pc);
		} else if (!lbr_emu_confirm(&o, &real)) {
			if (++wrong <= 10) {
				printf("WRONG at %#" PRIx64 ": predicted pc %#" PRIx64 " real %#" PRIx64
				       "; flags %#" PRIx64 "/%#" PRIx64 " mask %#" PRIx64, c.pc, o.ck_pc,
				       real.pc, o.ck.flags, real.flags, o.ck_fmask);
				for (int i = 0; i < 16; i++)
					if (o.ck.reg[i] != real.reg[i])
						printf("; r%d %#" PRIx64 " vs %#" PRIx64, i, o.ck.reg[i],
						       real.reg[i]);
				printf("\n");
			}
		}
	}
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	printf("steps %ld modelled %ld checked %ld wrong %ld voided %ld rep-iterations %ld\n", steps,
	       modelled, checked, wrong, voided, reps);
	printf("not modelled:");
	for (int k = 0, shown = 0; shown < 12; shown++) {
		uint64_t best = 0;
		for (int m = 0; m < NMN; m++)
			if (unmodelled[m] > best) {
				best = unmodelled[m];
				k = m;
			}
		if (!best)
			break;
		printf(" %s %" PRIu64, ZydisMnemonicGetString((ZydisMnemonic)k), best);
		unmodelled[k] = 0;
	}
	printf("\n");
	return wrong ? 1 : 0;
}
