/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_rv.c - the RV64GC back end of lbr_isa.h: an adapter from lib/isa's struct rv_insn
 * (decoder compiled into the tracer from lib/isa's sources) to the machine-independent branch
 * description, branch evaluation against x0..x31 and the pc, and, when built for riscv64,
 * the lbr_isa_* entry points (fault-free reads through process_vm_readv, ucontext access,
 * ebreak/c.ebreak breakpoints). Everything is pure computation plus system calls:
 * async-signal-safe. */
#define _GNU_SOURCE
#include "lbr_rv.h"
#include "lbr_ctr.h"

#include <string.h>

/* x1 (ra) and x5 (t0) are link registers (RISC-V return-address-stack hints). */
static int is_link(unsigned r)
{
	return r == 1 || r == 5;
}

static int cmp_of(enum rv_op op)
{
	switch (op) {
	case RV_OP_BEQ: return LBR_CMP_EQ;
	case RV_OP_BNE: return LBR_CMP_NE;
	case RV_OP_BLT: return LBR_CMP_LT;
	case RV_OP_BGE: return LBR_CMP_GE;
	case RV_OP_BLTU: return LBR_CMP_LTU;
	case RV_OP_BGEU: return LBR_CMP_GEU;
	default: return -1;
	}
}

int lbr_rv_describe(const struct rv_insn *in, uint64_t pc, struct lbr_branch *br)
{
	memset(br, 0, sizeof(*br));
	br->pc = pc;
	br->len = in->len;
	br->kind = LBR_K_STOP;
	br->texpr.base = br->texpr.index = LBR_REG_NONE;
	switch (in->cf) {
	case RV_CF_BRANCH: {
		int c = cmp_of(in->op);
		if (c < 0)
			return 1; /* unknown branch: cannot follow */
		br->kind = LBR_K_COND;
		br->ctr_type = LBR_CTR_TKBR; /* recorded only when taken */
		br->cond_kind = LBR_C_CMP;
		br->cc = (uint8_t)c;
		br->reg = in->rs1;
		br->reg2 = in->rs2;
		br->width = 8;
		br->target = in->target;
		return 1;
	}
	case RV_CF_JAL:
	case RV_CF_CALL:
		/* Classified here by the link rule, independently of lib/isa's cf. CTR type:
		 * direct call (rd x1/x5), direct jump (rd x0: jal x0, c.j), other direct jump
		 * (any other rd). */
		br->kind = is_link(in->rd) ? LBR_K_CALL : LBR_K_JMP;
		br->ctr_type = is_link(in->rd) ? LBR_CTR_DCALL : in->rd == 0 ? LBR_CTR_DJMP
								: LBR_CTR_ODJMP;
		br->target = in->target;
		return 1;
	case RV_CF_JALR:
	case RV_CF_CALL_IND:
	case RV_CF_RETURN:
		/* rd link -> call (also the coroutine swap rd,rs1 both links); rd not a link and
		 * rs1 a link -> return; otherwise an indirect jump. */
		if (is_link(in->rd))
			br->kind = LBR_K_ICALL;
		else if (is_link(in->rs1))
			br->kind = LBR_K_RET;
		else
			br->kind = LBR_K_IJMP;
		/* CTR type (the spec's table, after the RAS hints): rd and rs1 both links but
		 * different -> co-routine swap; rd a link -> indirect call; rs1 a link -> return;
		 * rd x0 -> indirect jump; any other rd -> other indirect jump. */
		if (is_link(in->rd) && is_link(in->rs1) && in->rd != in->rs1)
			br->ctr_type = LBR_CTR_CORSWAP;
		else if (is_link(in->rd))
			br->ctr_type = LBR_CTR_ICALL;
		else if (is_link(in->rs1))
			br->ctr_type = LBR_CTR_RET;
		else
			br->ctr_type = in->rd == 0 ? LBR_CTR_IJMP : LBR_CTR_OIJMP;
		br->texpr.kind = LBR_X_REG;
		br->texpr.base = in->rs1;
		br->texpr.size = 8;
		br->texpr.disp = in->imm;
		return 1;
	default:
		break;
	}
	switch (in->op) {
	case RV_OP_ECALL:
		br->kind = LBR_K_SYSCALL;
		return 1;
	case RV_OP_EBREAK:
	case RV_OP_SRET:
	case RV_OP_MRET:
	case RV_OP_WFI:
		return 1; /* LBR_K_STOP */
	default:
		return 0;
	}
}

int lbr_rv_decode_buf(const uint8_t *buf, size_t len, uint64_t pc, int max_insns,
		      struct lbr_branch *br, size_t *used)
{
	size_t off = 0;
	for (int n = 0; n < max_insns; n++) {
		struct rv_insn in;
		int r = rv_decode(buf + off, len - off, pc + off, &in);
		if (r == RV_ERR_NEED_MORE) {
			*used = off;
			return -2;
		}
		if (r < 0)
			return -1;
		if (lbr_rv_describe(&in, pc + off, br)) {
			*used = off + (size_t)r;
			return n;
		}
		off += (size_t)r;
	}
	*used = off;
	return -1;
}

int lbr_rv_eval(const struct lbr_branch *br, const struct lbr_cpu *cpu, uint64_t *next)
{
	const uint64_t fall = br->pc + br->len;
	switch (br->kind) {
	case LBR_K_JMP:
	case LBR_K_CALL:
		*next = br->target;
		return 1;
	case LBR_K_COND: {
		if (br->cond_kind != LBR_C_CMP || br->reg >= LBR_NREG || br->reg2 >= LBR_NREG)
			return -1;
		uint64_t a = br->reg ? cpu->reg[br->reg] : 0, b = br->reg2 ? cpu->reg[br->reg2] : 0;
		int taken;
		switch (br->cc) {
		case LBR_CMP_EQ: taken = a == b; break;
		case LBR_CMP_NE: taken = a != b; break;
		case LBR_CMP_LT: taken = (int64_t)a < (int64_t)b; break;
		case LBR_CMP_GE: taken = (int64_t)a >= (int64_t)b; break;
		case LBR_CMP_LTU: taken = a < b; break;
		case LBR_CMP_GEU: taken = a >= b; break;
		default: return -1;
		}
		*next = taken ? br->target : fall;
		return taken;
	}
	case LBR_K_RET:
	case LBR_K_IJMP:
	case LBR_K_ICALL: {
		const struct lbr_expr *x = &br->texpr;
		if (x->kind != LBR_X_REG || x->base >= LBR_NREG)
			return -1;
		uint64_t base = x->base ? cpu->reg[x->base] : 0;
		*next = (base + (uint64_t)x->disp) & ~1ULL;
		return 1;
	}
	case LBR_K_SYSCALL: {
		uint64_t nr = cpu->reg[17]; /* a7 */
		if (nr == LBR_RV_NR_RT_SIGRETURN || nr == LBR_RV_NR_EXECVE ||
		    nr == LBR_RV_NR_EXECVEAT || nr == LBR_RV_NR_EXIT || nr == LBR_RV_NR_EXIT_GROUP)
			return -1;
		*next = fall;
		return 0;
	}
	default:
		return -1;
	}
}

void lbr_rv_cpu_from_gregs(struct lbr_cpu *cpu, const unsigned long *g)
{
	memset(cpu, 0, sizeof(*cpu));
	for (int i = 1; i < 32; i++)
		cpu->reg[i] = g[i];
	cpu->pc = g[0];
	cpu->sp = g[2];
}

size_t lbr_rv_bp_encode(const uint8_t *orig, uint8_t *bp)
{
	if ((orig[0] & 3) != 3) {
		bp[0] = 0x02; /* c.ebreak = 0x9002 */
		bp[1] = 0x90;
		return 2;
	}
	bp[0] = 0x73; /* ebreak = 0x00100073 */
	bp[1] = 0x00;
	bp[2] = 0x10;
	bp[3] = 0x00;
	return 4;
}

/* ------------------------------------------------------------------ native riscv64 */
#if defined(__riscv)
#include <signal.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>


int lbr_isa_init(struct lbr_isa *isa)
{
	memset(isa, 0, sizeof(*isa));
	return 0;
}

int lbr_isa_decode_block(const struct lbr_isa *isa, uint64_t pc, int max_insns,
			 struct lbr_branch *br)
{
	(void)isa;
	uint8_t buf[128];
	int done = 0;
	while (done < max_insns) {
		size_t got = lbr_isa_read_partial(buf, pc, sizeof(buf)), used = 0;
		if (got == 0)
			return -1;
		if (lbr_isa_code_view)
			lbr_isa_code_view(buf, pc, got);
		int r = lbr_rv_decode_buf(buf, got, pc, max_insns - done, br, &used);
		if (r >= 0)
			return done + r;
		if (r == -1 || used == 0)
			return -1; /* illegal, or an instruction cut by an unreadable page */
		/* Count the whole instructions consumed, then continue after them. */
		size_t off = 0;
		while (off < used) {
			struct rv_insn in;
			int l = rv_decode(buf + off, used - off, pc + off, &in);
			off += (size_t)(l > 0 ? l : 2);
			done++;
		}
		pc += used;
	}
	return -1;
}

int lbr_isa_eval(const struct lbr_branch *br, const struct lbr_cpu *cpu, uint64_t *next)
{
	return lbr_rv_eval(br, cpu, next);
}

void lbr_isa_cpu_from_ucontext(struct lbr_cpu *cpu, const void *ucv)
{
	const ucontext_t *uc = ucv;
	lbr_rv_cpu_from_gregs(cpu, uc->uc_mcontext.__gregs);
}

size_t lbr_isa_bp_encode(const uint8_t *orig, uint8_t *bp)
{
	return lbr_rv_bp_encode(orig, bp);
}

uint64_t lbr_isa_uc_pc(const void *uc)
{
	return ((const ucontext_t *)uc)->uc_mcontext.__gregs[REG_PC];
}

void lbr_isa_uc_set_pc(void *uc, uint64_t pc)
{
	((ucontext_t *)uc)->uc_mcontext.__gregs[REG_PC] = pc;
}

uint64_t lbr_isa_bp_addr(const void *uc)
{
	return lbr_isa_uc_pc(uc); /* ebreak traps with the pc on the ebreak itself */
}

const char *lbr_kind_name(uint8_t kind)
{
	static const char *const names[] = {
		"?", "cond", "jmp", "call", "ret", "ijmp", "icall", "syscall", "stop",
	};
	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}
#endif
