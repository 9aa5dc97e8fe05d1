/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_x86.c - the x86-64 back end of lbr_isa.h: block decoding with Zydis 4 (pure computation,
 * async-signal-safe), branch evaluation against a ucontext-derived CPU context, and
 * fault-free memory reads through process_vm_readv. */
#define _GNU_SOURCE
#include "lbr_isa.h"
#include "lbr_sys.h"

#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>
#include <asm/prctl.h>

#include <Zydis/Zydis.h>

#define X86_NREG 16 /* general-purpose registers used in lbr_cpu.reg */

_Static_assert(sizeof(ZydisDecoder) <= sizeof(struct lbr_isa), "lbr_isa too small for Zydis");

int lbr_isa_init(struct lbr_isa *isa)
{
	memset(isa, 0, sizeof(*isa));
	ZydisDecoder *d = (ZydisDecoder *)isa->opaque;
	if (!ZYAN_SUCCESS(ZydisDecoderInit(d, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)))
		return -22;
	return 0;
}

/* Map a Zydis general-purpose register to our numbering (encoding order) and its width. */
static uint8_t gpr_num(ZydisRegister r, uint8_t *width)
{
	if (r == ZYDIS_REGISTER_NONE)
		return LBR_REG_NONE;
	ZydisRegisterClass c = ZydisRegisterGetClass(r);
	uint8_t w;
	switch (c) {
	case ZYDIS_REGCLASS_GPR64: w = 8; break;
	case ZYDIS_REGCLASS_GPR32: w = 4; break;
	case ZYDIS_REGCLASS_GPR16: w = 2; break;
	default: return LBR_REG_NONE - 1; /* unsupported (rip, 8-bit, segment...) */
	}
	ZyanI8 id = ZydisRegisterGetId(r);
	if (id < 0 || id >= X86_NREG)
		return LBR_REG_NONE - 1;
	if (width)
		*width = w;
	return (uint8_t)id;
}

/* Condition code (Jcc low nibble) of a conditional jump mnemonic, or -1. */
static int jcc_code(ZydisMnemonic m)
{
	switch (m) {
	case ZYDIS_MNEMONIC_JO: return 0;
	case ZYDIS_MNEMONIC_JNO: return 1;
	case ZYDIS_MNEMONIC_JB: return 2;
	case ZYDIS_MNEMONIC_JNB: return 3;
	case ZYDIS_MNEMONIC_JZ: return 4;
	case ZYDIS_MNEMONIC_JNZ: return 5;
	case ZYDIS_MNEMONIC_JBE: return 6;
	case ZYDIS_MNEMONIC_JNBE: return 7;
	case ZYDIS_MNEMONIC_JS: return 8;
	case ZYDIS_MNEMONIC_JNS: return 9;
	case ZYDIS_MNEMONIC_JP: return 10;
	case ZYDIS_MNEMONIC_JNP: return 11;
	case ZYDIS_MNEMONIC_JL: return 12;
	case ZYDIS_MNEMONIC_JNL: return 13;
	case ZYDIS_MNEMONIC_JLE: return 14;
	case ZYDIS_MNEMONIC_JNLE: return 15;
	default: return -1;
	}
}

/* Describe the target operand of an indirect jmp/call. Returns 0 or -1 (unsupported). */
static int indirect_expr(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *op,
			 uint64_t pc, struct lbr_expr *x)
{
	memset(x, 0, sizeof(*x));
	x->base = x->index = LBR_REG_NONE;
	if (op->type == ZYDIS_OPERAND_TYPE_REGISTER) {
		uint8_t w = 0;
		uint8_t r = gpr_num(op->reg.value, &w);
		if (r >= X86_NREG || w != 8)
			return -1;
		x->kind = LBR_X_REG;
		x->base = r;
		x->size = 8;
		return 0;
	}
	if (op->type != ZYDIS_OPERAND_TYPE_MEMORY || op->size != 64)
		return -1;
	x->kind = LBR_X_MEM;
	x->size = 8;
	x->scale = op->mem.scale ? op->mem.scale : 1;
	if (op->mem.segment == ZYDIS_REGISTER_FS)
		x->seg = LBR_SEG_FS;
	else if (op->mem.segment == ZYDIS_REGISTER_GS)
		x->seg = LBR_SEG_GS;
	if (op->mem.base == ZYDIS_REGISTER_RIP) {
		ZyanU64 abs;
		if (!ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(in, op, pc, &abs)))
			return -1;
		x->disp = (int64_t)abs;
		return 0;
	}
	if (in->address_width != 64)
		return -1;
	if (op->mem.base != ZYDIS_REGISTER_NONE) {
		x->base = gpr_num(op->mem.base, NULL);
		if (x->base >= X86_NREG)
			return -1;
	}
	if (op->mem.index != ZYDIS_REGISTER_NONE) {
		x->index = gpr_num(op->mem.index, NULL);
		if (x->index >= X86_NREG)
			return -1;
	}
	x->disp = op->mem.disp.has_displacement ? op->mem.disp.value : 0;
	return 0;
}

/* Fill *br for the control-transfer instruction `in` at pc. */
static void describe(const ZydisDecoder *d, ZydisDecoderContext *ctx,
		     const ZydisDecodedInstruction *in, uint64_t pc, struct lbr_branch *br)
{
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
	memset(br, 0, sizeof(*br));
	br->pc = pc;
	br->len = in->length;
	br->kind = LBR_K_STOP;
	if (in->meta.branch_type == ZYDIS_BRANCH_TYPE_FAR)
		return;
	switch (in->meta.category) {
	case ZYDIS_CATEGORY_SYSCALL:
		if (in->mnemonic == ZYDIS_MNEMONIC_SYSCALL)
			br->kind = LBR_K_SYSCALL;
		return;
	case ZYDIS_CATEGORY_RET:
		if (in->mnemonic == ZYDIS_MNEMONIC_RET)
			br->kind = LBR_K_RET;
		return;
	case ZYDIS_CATEGORY_COND_BR:
	case ZYDIS_CATEGORY_UNCOND_BR:
	case ZYDIS_CATEGORY_CALL:
		break;
	default:
		return;
	}
	if (in->operand_count < 1 ||
	    !ZYAN_SUCCESS(ZydisDecoderDecodeOperands(d, ctx, in, ops, in->operand_count)))
		return;
	const ZydisDecodedOperand *op = &ops[0];
	if (op->type == ZYDIS_OPERAND_TYPE_IMMEDIATE) {
		ZyanU64 abs;
		if (!op->imm.is_relative || !ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(in, op, pc, &abs)))
			return;
		br->target = abs;
		if (in->meta.category == ZYDIS_CATEGORY_UNCOND_BR) {
			br->kind = LBR_K_JMP;
		} else if (in->meta.category == ZYDIS_CATEGORY_CALL) {
			br->kind = LBR_K_CALL;
		} else {
			int cc = jcc_code(in->mnemonic);
			uint8_t w = in->address_width / 8;
			br->reg = 1; /* rcx */
			br->width = w;
			if (cc >= 0) {
				br->cond_kind = LBR_C_FLAGS;
				br->cc = (uint8_t)cc;
			} else if (in->mnemonic == ZYDIS_MNEMONIC_JRCXZ ||
				   in->mnemonic == ZYDIS_MNEMONIC_JECXZ ||
				   in->mnemonic == ZYDIS_MNEMONIC_JCXZ) {
				br->cond_kind = LBR_C_REGZ;
			} else if (in->mnemonic == ZYDIS_MNEMONIC_LOOP) {
				br->cond_kind = LBR_C_LOOP;
				br->cc = LBR_LOOP_ANY;
			} else if (in->mnemonic == ZYDIS_MNEMONIC_LOOPE) {
				br->cond_kind = LBR_C_LOOP;
				br->cc = 4; /* ZF = 1 */
			} else if (in->mnemonic == ZYDIS_MNEMONIC_LOOPNE) {
				br->cond_kind = LBR_C_LOOP;
				br->cc = 5; /* ZF = 0 */
			} else {
				return;
			}
			br->kind = LBR_K_COND;
		}
		return;
	}
	if (in->meta.category == ZYDIS_CATEGORY_COND_BR)
		return;
	if (indirect_expr(in, op, pc, &br->texpr) < 0)
		return;
	br->kind = in->meta.category == ZYDIS_CATEGORY_CALL ? LBR_K_ICALL : LBR_K_IJMP;
}

/* True for instructions that end a block although they are not branches we follow. */
static int is_terminator(const ZydisDecodedInstruction *in)
{
	if (in->meta.branch_type != ZYDIS_BRANCH_TYPE_NONE)
		return 1;
	switch (in->meta.category) {
	case ZYDIS_CATEGORY_COND_BR:
	case ZYDIS_CATEGORY_UNCOND_BR:
	case ZYDIS_CATEGORY_CALL:
	case ZYDIS_CATEGORY_RET:
	case ZYDIS_CATEGORY_SYSCALL:
	case ZYDIS_CATEGORY_SYSRET:
	case ZYDIS_CATEGORY_INTERRUPT:
	case ZYDIS_CATEGORY_SYSTEM:
	case ZYDIS_CATEGORY_UINTR:
		return 1;
	default:
		break;
	}
	switch (in->mnemonic) {
	case ZYDIS_MNEMONIC_UD0:
	case ZYDIS_MNEMONIC_UD1:
	case ZYDIS_MNEMONIC_UD2:
	case ZYDIS_MNEMONIC_XBEGIN:
	case ZYDIS_MNEMONIC_XABORT:
	case ZYDIS_MNEMONIC_XEND:
	case ZYDIS_MNEMONIC_IRETQ:
	case ZYDIS_MNEMONIC_IRETD:
	case ZYDIS_MNEMONIC_IRET:
	case ZYDIS_MNEMONIC_SYSENTER:
	case ZYDIS_MNEMONIC_HLT:
		return 1;
	default:
		return 0;
	}
}

int lbr_isa_decode_block(const struct lbr_isa *isa, uint64_t pc, int max_insns,
			 struct lbr_branch *br)
{
	const ZydisDecoder *d = (const ZydisDecoder *)isa->opaque;
	uint8_t buf[128];
	size_t have = 0, off = 0;
	uint64_t base = pc;

	for (int n = 0; n < max_insns; n++) {
		if (have - off < ZYDIS_MAX_INSTRUCTION_LENGTH) {
			/* Refill: keep the unread tail, read more after it. */
			memmove(buf, buf + off, have - off);
			have -= off;
			base += off;
			off = 0;
			size_t got = lbr_isa_read_partial(buf + have, base + have, sizeof(buf) - have);
			if (lbr_isa_code_view && got)
				lbr_isa_code_view(buf + have, base + have, got);
			have += got;
			if (have == 0)
				return -1;
		}
		ZydisDecoderContext ctx;
		ZydisDecodedInstruction in;
		if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(d, &ctx, buf + off, have - off, &in)))
			return -1;
		uint64_t ipc = base + off;
		if (is_terminator(&in)) {
			describe(d, &ctx, &in, ipc, br);
			return n;
		}
		off += in.length;
	}
	return -1;
}

/* ------------------------------------------------------------------ evaluation */

static int cc_holds(uint8_t cc, uint64_t f)
{
	const int cf = f & 1, pf = (f >> 2) & 1, zf = (f >> 6) & 1, sf = (f >> 7) & 1,
		  of = (f >> 11) & 1;
	int r;
	switch (cc >> 1) {
	case 0: r = of; break;
	case 1: r = cf; break;
	case 2: r = zf; break;
	case 3: r = cf | zf; break;
	case 4: r = sf; break;
	case 5: r = pf; break;
	case 6: r = sf != of; break;
	default: r = zf | (sf != of); break;
	}
	return (cc & 1) ? !r : r;
}

static uint64_t width_mask(uint8_t w)
{
	return w >= 8 ? ~0ULL : (1ULL << (8 * w)) - 1;
}

static int seg_base(uint8_t seg, uint64_t *base)
{
	unsigned long b = 0;
	if (seg == LBR_SEG_NONE) {
		*base = 0;
		return 0;
	}
	if (lbr_sys2(SYS_arch_prctl, seg == LBR_SEG_FS ? ARCH_GET_FS : ARCH_GET_GS, &b) != 0)
		return -1;
	*base = b;
	return 0;
}

int lbr_isa_eval(const struct lbr_branch *br, const struct lbr_cpu *cpu, uint64_t *next)
{
	const uint64_t fall = br->pc + br->len;
	switch (br->kind) {
	case LBR_K_JMP:
	case LBR_K_CALL:
		*next = br->target;
		return 1;
	case LBR_K_COND: {
		int taken;
		uint64_t m = width_mask(br->width);
		uint64_t c = cpu->reg[br->reg] & m;
		if (br->cond_kind == LBR_C_FLAGS)
			taken = cc_holds(br->cc, cpu->flags);
		else if (br->cond_kind == LBR_C_REGZ)
			taken = c == 0;
		else if (br->cond_kind == LBR_C_LOOP)
			taken = ((c - 1) & m) != 0 &&
				(br->cc == LBR_LOOP_ANY || cc_holds(br->cc, cpu->flags));
		else
			return -1;
		*next = taken ? br->target : fall;
		return taken;
	}
	case LBR_K_RET: {
		uint64_t t;
		if (lbr_isa_read(&t, cpu->sp, 8) < 0)
			return -1;
		*next = t;
		return 1;
	}
	case LBR_K_IJMP:
	case LBR_K_ICALL: {
		const struct lbr_expr *x = &br->texpr;
		if (x->kind == LBR_X_REG) {
			*next = cpu->reg[x->base];
			return 1;
		}
		if (x->kind == LBR_X_IMM) {
			*next = (uint64_t)x->disp;
			return 1;
		}
		uint64_t a = (uint64_t)x->disp, sb, t = 0;
		if (x->base != LBR_REG_NONE)
			a += cpu->reg[x->base];
		if (x->index != LBR_REG_NONE)
			a += cpu->reg[x->index] * x->scale;
		if (seg_base(x->seg, &sb) < 0)
			return -1;
		if (lbr_isa_read(&t, a + sb, x->size) < 0)
			return -1;
		*next = t;
		return 1;
	}
	case LBR_K_SYSCALL: {
		uint64_t nr = cpu->reg[0];
		if (nr == SYS_rt_sigreturn || nr == SYS_execve || nr == SYS_execveat ||
		    nr == SYS_exit || nr == SYS_exit_group)
			return -1;
		*next = fall;
		return 0;
	}
	default:
		return -1;
	}
}

void lbr_isa_cpu_from_ucontext(struct lbr_cpu *cpu, const void *ucv)
{
	const ucontext_t *uc = ucv;
	const greg_t *g = uc->uc_mcontext.gregs;
	static const int map[X86_NREG] = {
		REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
		REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
	};
	for (int i = 0; i < X86_NREG; i++)
		cpu->reg[i] = (uint64_t)g[map[i]];
	cpu->pc = (uint64_t)g[REG_RIP];
	cpu->flags = (uint64_t)g[REG_EFL];
	cpu->sp = (uint64_t)g[REG_RSP];
}

/* ------------------------------------------------------------------ breakpoints, ucontext */

size_t lbr_isa_bp_encode(const uint8_t *orig, uint8_t *bp)
{
	(void)orig;
	bp[0] = 0xCC; /* int3 */
	return 1;
}

uint64_t lbr_isa_uc_pc(const void *uc)
{
	return (uint64_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
}

void lbr_isa_uc_set_pc(void *uc, uint64_t pc)
{
	((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP] = (greg_t)pc;
}

uint64_t lbr_isa_bp_addr(const void *uc)
{
	return lbr_isa_uc_pc(uc) - 1; /* int3 is a trap: RIP is past it */
}

const char *lbr_kind_name(uint8_t kind)
{
	static const char *const names[] = {
		"?", "cond", "jmp", "call", "ret", "ijmp", "icall", "syscall", "stop",
	};
	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}
