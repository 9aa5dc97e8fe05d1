/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_emu_x86.c - the look-ahead emulator of lbr_emu.h for x86-64: the integer subset that
 * compiled hot loops use (mov/movzx/movsx/lea, add/adc/sub/sbb/cmp/and/or/xor/test, inc/dec/
 * neg/not, shifts and rotates, imul/mul/div/idiv, cmov/setcc, push/pop/leave, jcc/jmp/call/
 * ret incl. indirect, bt, bsf/bsr/tzcnt/lzcnt/popcnt, bswap, cdqe/cqo...). Anything else
 * (system calls, lock-prefixed or implicitly atomic instructions, string/SIMD/x87, rdtsc,
 * cpuid, ...) ends the run: the tracer then stops there and carries on with breakpoints.
 *
 * Per thread: a direct-mapped cache of decoded instructions (Zydis once per address; the
 * entry also carries the number of the last run that executed it - "executed before in this
 * run" is what picks the checkpoint) and a direct-mapped cache of 256-byte memory lines read
 * with lbr_isa_read (one process_vm_readv per line), into which the run's stores go (a
 * private overlay: the program's memory is never written). Flags are computed exactly where
 * the architecture defines them; bits it leaves undefined are dropped from the checkpoint's
 * compare mask. */
#define _GNU_SOURCE
#include "lbr_emu.h"
#include "lbr_sys.h"

#include <string.h>
#include <sys/syscall.h>
#include <asm/prctl.h>

#include <Zydis/Zydis.h>

int lbr_emu_plant;

#define ICACHE 16384    /* decoded instructions per thread (2-way); power of two */
#define NSET 16         /* memory line sets per thread (4-way); power of two */
#define NWAY 4
#define LINE 4096       /* bytes per line: a page (all readable or not; one read costs ~4 us here whatever its size) */
#define NSTORE 2048     /* 8-byte granules a run may store into (hash table); power of two */
#define NACC 8192       /* 8-byte granules a run accessed (data-checkpoint freshness) */
#define NCODE 64        /* code lines per thread (direct-mapped, kept across runs) */
#define CLINE 4096      /* a page: a read costs the same whatever its size */

#define F_CF 0x1ULL
#define F_PF 0x4ULL
#define F_AF 0x10ULL
#define F_ZF 0x40ULL
#define F_SF 0x80ULL
#define F_OF 0x800ULL
#define F_ARITH (F_CF | F_PF | F_AF | F_ZF | F_SF | F_OF)

enum { O_NONE = 0, O_REG, O_MEM, O_IMM };
/* Pseudo mnemonics (above Zydis's): an instruction whose only effects are on state the
 * emulator does not track (SIMD/x87 registers, MXCSR) and at most one memory operand it
 * writes (o[0], marked unknown); string stores. */
#define MN_SKIP 0xFFF0
#define MN_STOS 0xFFF1
#define MN_MOVS 0xFFF2
/* Vector moves, so that memcpy-like copies through xmm/ymm registers keep known bytes: load,
 * store, register move, zeroing idiom (pxor x,x). Registers 0-15, 16 or 32 bytes. */
#define MN_VLD 0xFFF3
#define MN_VST 0xFFF4
#define MN_VMV 0xFFF5
#define MN_VZERO 0xFFF6

struct eop {
	uint8_t kind;  /* O_* */
	uint8_t size;  /* bytes */
	uint8_t reg;   /* O_REG: 0..15; O_MEM: base or LBR_REG_NONE */
	uint8_t hi;    /* O_REG: ah, ch, dh, bh */
	uint8_t index; /* O_MEM: index or LBR_REG_NONE */
	uint8_t scale;
	uint8_t seg;   /* enum lbr_seg */
	uint8_t a32;   /* O_MEM: 32-bit address size */
	int64_t v;     /* O_MEM: displacement (RIP-relative resolved); O_IMM: value */
};

struct einsn {
	uint64_t pc;   /* 0 = empty */
	uint32_t gen;  /* run that last executed it */
	uint16_t mn;   /* ZydisMnemonic; 0 = not emulated */
	uint8_t len, nops, cc, forbid;
	struct eop o[3];
};

struct eline {
	uint64_t tag;  /* address / LINE */
	uint32_t gen;  /* valid in run `gen` */
	uint8_t d[LINE];
};

struct lbr_emu {
	const struct lbr_isa *isa;
	int (*forbid)(uint64_t);
	unsigned budget;
	uint32_t gen;
	int fs_ok, fs_fixed;
	uint64_t fs_base;
	int fail;      /* memory access failed in the current instruction */
	unsigned nunk; /* memory ranges the run wrote with values it does not know (SIMD
	                * stores, string stores): loading from them ends the run */
	struct { uint64_t lo, hi; } unk[16];
	unsigned rr;   /* round-robin victim choice */
	unsigned nstored;   /* granules used in `store` by this run */
	uint32_t vk;        /* vector register bytes known in this run: bit r = xmm r's low 16,
	                     * bit 16 + r = its upper 16 (ymm) */
	uint8_t vr[16][32];
	uint32_t vk_seed;   /* vk for the next run (lbr_emu_set_xmm), then 0 */
	int watch;          /* data checkpoints allowed (the stop mechanism has watchpoints) */
	int no_watch;       /* ... but not any more in this run (an access it cannot see) */
	unsigned nacc, acc_n, acc_old; /* granules in `acc`; this instruction's accesses, old ones */
	uint64_t acc_g;     /* this instruction's first accessed granule */
	struct { uint64_t addr; uint32_t gen; } acc[NACC];
	struct egran {      /* the run's stores (the private overlay), by 8-byte granule */
		uint64_t addr;  /* granule address */
		uint32_t gen;   /* valid in run `gen` */
		uint8_t mask;   /* bytes written */
		uint8_t d[8];
	} store[NSTORE];
	struct eline line[NSET][NWAY];
	struct cline {
		uint64_t tag;  /* address / CLINE + 1; 0 = empty */
		uint32_t got;  /* readable bytes from the line start */
		uint8_t d[CLINE];
	} code[NCODE];
	struct einsn ic[ICACHE];
};

size_t lbr_emu_size(void)
{
	return sizeof(struct lbr_emu);
}

void lbr_emu_init(struct lbr_emu *e, const struct lbr_isa *isa, int (*forbid)(uint64_t),
		  unsigned budget)
{
	e->isa = isa;
	e->forbid = forbid;
	e->budget = budget;
}

void lbr_emu_set_xmm(struct lbr_emu *e, const uint8_t xmm[16][16])
{
	for (int i = 0; i < 16; i++)
		memcpy(e->vr[i], xmm[i], 16);
	e->vk_seed = 0xFFFF;
}

void lbr_emu_set_watch(struct lbr_emu *e, int on)
{
	e->watch = on;
}

void lbr_emu_set_fs_base(struct lbr_emu *e, uint64_t base)
{
	e->fs_base = base;
	e->fs_ok = e->fs_fixed = 1;
}

/* ---------------------------------------------------------------- decoding */

static int gpr(ZydisRegister r, uint8_t *num, uint8_t *hi)
{
	*hi = r >= ZYDIS_REGISTER_AH && r <= ZYDIS_REGISTER_BH;
	if (*hi) {
		*num = (uint8_t)(r - ZYDIS_REGISTER_AH);
		return 0;
	}
	ZydisRegisterClass c = ZydisRegisterGetClass(r);
	if (c != ZYDIS_REGCLASS_GPR64 && c != ZYDIS_REGCLASS_GPR32 && c != ZYDIS_REGCLASS_GPR16 &&
	    c != ZYDIS_REGCLASS_GPR8)
		return -1;
	ZydisRegister big = ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, r);
	ZyanI8 id = ZydisRegisterGetId(big);
	if (id < 0 || id > 15)
		return -1;
	*num = (uint8_t)id;
	return 0;
}

static int conv_op(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *op,
		   uint64_t pc, struct eop *o)
{
	memset(o, 0, sizeof(*o));
	o->size = (uint8_t)(op->size / 8);
	switch (op->type) {
	case ZYDIS_OPERAND_TYPE_REGISTER:
		o->kind = O_REG;
		return gpr(op->reg.value, &o->reg, &o->hi);
	case ZYDIS_OPERAND_TYPE_IMMEDIATE:
		o->kind = O_IMM;
		if (op->imm.is_relative) {
			ZyanU64 abs;
			if (!ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(in, op, pc, &abs)))
				return -1;
			o->v = (int64_t)abs;
		} else {
			o->v = op->imm.is_signed ? op->imm.value.s : (int64_t)op->imm.value.u;
		}
		return 0;
	case ZYDIS_OPERAND_TYPE_MEMORY:
		o->kind = O_MEM;
		o->reg = o->index = LBR_REG_NONE;
		o->scale = op->mem.scale ? op->mem.scale : 1;
		if (op->mem.segment == ZYDIS_REGISTER_FS)
			o->seg = LBR_SEG_FS;
		else if (op->mem.segment == ZYDIS_REGISTER_GS)
			return -1; /* GS base unused by Linux user code; not modelled */
		o->a32 = in->address_width == 32;
		if (op->mem.base == ZYDIS_REGISTER_RIP || op->mem.base == ZYDIS_REGISTER_EIP) {
			ZyanU64 abs;
			if (!ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(in, op, pc, &abs)))
				return -1;
			o->v = (int64_t)abs;
			return 0;
		}
		uint8_t hi;
		if (op->mem.base != ZYDIS_REGISTER_NONE &&
		    (gpr(op->mem.base, &o->reg, &hi) < 0 || hi))
			return -1;
		if (op->mem.index != ZYDIS_REGISTER_NONE &&
		    (gpr(op->mem.index, &o->index, &hi) < 0 || hi))
			return -1;
		o->v = op->mem.disp.has_displacement ? op->mem.disp.value : 0;
		return 0;
	default:
		return -1;
	}
}

/* The mnemonics modelled (0 for the rest). */
static int modelled(ZydisMnemonic m)
{
	switch (m) {
	case ZYDIS_MNEMONIC_MOV: case ZYDIS_MNEMONIC_MOVZX: case ZYDIS_MNEMONIC_MOVSX:
	case ZYDIS_MNEMONIC_MOVSXD: case ZYDIS_MNEMONIC_LEA:
	case ZYDIS_MNEMONIC_ADD: case ZYDIS_MNEMONIC_ADC: case ZYDIS_MNEMONIC_SUB:
	case ZYDIS_MNEMONIC_SBB: case ZYDIS_MNEMONIC_CMP: case ZYDIS_MNEMONIC_AND:
	case ZYDIS_MNEMONIC_OR: case ZYDIS_MNEMONIC_XOR: case ZYDIS_MNEMONIC_TEST:
	case ZYDIS_MNEMONIC_INC: case ZYDIS_MNEMONIC_DEC: case ZYDIS_MNEMONIC_NEG:
	case ZYDIS_MNEMONIC_NOT:
	case ZYDIS_MNEMONIC_SHL: case ZYDIS_MNEMONIC_SHR: case ZYDIS_MNEMONIC_SAR:
	case ZYDIS_MNEMONIC_ROL: case ZYDIS_MNEMONIC_ROR:
	case ZYDIS_MNEMONIC_IMUL: case ZYDIS_MNEMONIC_MUL: case ZYDIS_MNEMONIC_DIV:
	case ZYDIS_MNEMONIC_IDIV:
	case ZYDIS_MNEMONIC_CMOVB: case ZYDIS_MNEMONIC_CMOVBE: case ZYDIS_MNEMONIC_CMOVL:
	case ZYDIS_MNEMONIC_CMOVLE: case ZYDIS_MNEMONIC_CMOVNB: case ZYDIS_MNEMONIC_CMOVNBE:
	case ZYDIS_MNEMONIC_CMOVNL: case ZYDIS_MNEMONIC_CMOVNLE: case ZYDIS_MNEMONIC_CMOVNO:
	case ZYDIS_MNEMONIC_CMOVNP: case ZYDIS_MNEMONIC_CMOVNS: case ZYDIS_MNEMONIC_CMOVNZ:
	case ZYDIS_MNEMONIC_CMOVO: case ZYDIS_MNEMONIC_CMOVP: case ZYDIS_MNEMONIC_CMOVS:
	case ZYDIS_MNEMONIC_CMOVZ:
	case ZYDIS_MNEMONIC_SETB: case ZYDIS_MNEMONIC_SETBE: case ZYDIS_MNEMONIC_SETL:
	case ZYDIS_MNEMONIC_SETLE: case ZYDIS_MNEMONIC_SETNB: case ZYDIS_MNEMONIC_SETNBE:
	case ZYDIS_MNEMONIC_SETNL: case ZYDIS_MNEMONIC_SETNLE: case ZYDIS_MNEMONIC_SETNO:
	case ZYDIS_MNEMONIC_SETNP: case ZYDIS_MNEMONIC_SETNS: case ZYDIS_MNEMONIC_SETNZ:
	case ZYDIS_MNEMONIC_SETO: case ZYDIS_MNEMONIC_SETP: case ZYDIS_MNEMONIC_SETS:
	case ZYDIS_MNEMONIC_SETZ:
	case ZYDIS_MNEMONIC_JB: case ZYDIS_MNEMONIC_JBE: case ZYDIS_MNEMONIC_JL:
	case ZYDIS_MNEMONIC_JLE: case ZYDIS_MNEMONIC_JNB: case ZYDIS_MNEMONIC_JNBE:
	case ZYDIS_MNEMONIC_JNL: case ZYDIS_MNEMONIC_JNLE: case ZYDIS_MNEMONIC_JNO:
	case ZYDIS_MNEMONIC_JNP: case ZYDIS_MNEMONIC_JNS: case ZYDIS_MNEMONIC_JNZ:
	case ZYDIS_MNEMONIC_JO: case ZYDIS_MNEMONIC_JP: case ZYDIS_MNEMONIC_JS:
	case ZYDIS_MNEMONIC_JZ:
	case ZYDIS_MNEMONIC_JMP: case ZYDIS_MNEMONIC_CALL: case ZYDIS_MNEMONIC_RET:
	case ZYDIS_MNEMONIC_PUSH: case ZYDIS_MNEMONIC_POP: case ZYDIS_MNEMONIC_LEAVE:
	case ZYDIS_MNEMONIC_NOP: case ZYDIS_MNEMONIC_ENDBR64: case ZYDIS_MNEMONIC_PAUSE:
	case ZYDIS_MNEMONIC_PREFETCHT0: case ZYDIS_MNEMONIC_PREFETCHT1:
	case ZYDIS_MNEMONIC_PREFETCHT2: case ZYDIS_MNEMONIC_PREFETCHNTA:
	case ZYDIS_MNEMONIC_PREFETCHW:
	case ZYDIS_MNEMONIC_CDQE: case ZYDIS_MNEMONIC_CWDE: case ZYDIS_MNEMONIC_CBW:
	case ZYDIS_MNEMONIC_CDQ: case ZYDIS_MNEMONIC_CQO: case ZYDIS_MNEMONIC_CWD:
	case ZYDIS_MNEMONIC_XCHG: case ZYDIS_MNEMONIC_BT: case ZYDIS_MNEMONIC_BSF:
	case ZYDIS_MNEMONIC_BSR: case ZYDIS_MNEMONIC_TZCNT: case ZYDIS_MNEMONIC_LZCNT:
	case ZYDIS_MNEMONIC_POPCNT: case ZYDIS_MNEMONIC_BSWAP:
	case ZYDIS_MNEMONIC_CLC: case ZYDIS_MNEMONIC_STC: case ZYDIS_MNEMONIC_CMC:
		return 1;
	default:
		return 0;
	}
}

static int is_transfer(const ZydisDecodedInstruction *in)
{
	switch (in->meta.category) {
	case ZYDIS_CATEGORY_COND_BR: case ZYDIS_CATEGORY_UNCOND_BR: case ZYDIS_CATEGORY_CALL:
	case ZYDIS_CATEGORY_RET: case ZYDIS_CATEGORY_SYSRET: case ZYDIS_CATEGORY_INTERRUPT:
	case ZYDIS_CATEGORY_UINTR:
		return 1;
	default:
		return in->mnemonic == ZYDIS_MNEMONIC_UD0 || in->mnemonic == ZYDIS_MNEMONIC_UD1 ||
		       in->mnemonic == ZYDIS_MNEMONIC_UD2 || in->mnemonic == ZYDIS_MNEMONIC_XBEGIN ||
		       in->mnemonic == ZYDIS_MNEMONIC_XABORT || in->mnemonic == ZYDIS_MNEMONIC_XEND ||
		       in->mnemonic == ZYDIS_MNEMONIC_HLT;
	}
}

/* Vector register number 0-15 of a xmm/ymm operand, or -1. */
static int vreg(const ZydisDecodedOperand *op)
{
	if (op->type != ZYDIS_OPERAND_TYPE_REGISTER)
		return -1;
	ZydisRegisterClass c = ZydisRegisterGetClass(op->reg.value);
	ZyanI8 id = ZydisRegisterGetId(op->reg.value);
	return (c == ZYDIS_REGCLASS_XMM || c == ZYDIS_REGCLASS_YMM) && id >= 0 && id < 16 ? id : -1;
}

/* Whole-register vector moves and the zeroing idiom (MN_V*); 0 if `in` is not one. x->cc =
 * bytes (16 or 32), x->nops = 1 for VEX (a 16-byte write zeroes the upper half), o[0] the
 * memory operand, o[1].reg / o[2].reg the destination / source register. */
static int vec_decode(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops,
		      uint64_t pc, struct einsn *x)
{
	int mov = 0, zero = 0;
	switch (in->mnemonic) {
	case ZYDIS_MNEMONIC_MOVDQU: case ZYDIS_MNEMONIC_MOVDQA: case ZYDIS_MNEMONIC_MOVUPS:
	case ZYDIS_MNEMONIC_MOVAPS: case ZYDIS_MNEMONIC_MOVUPD: case ZYDIS_MNEMONIC_MOVAPD:
	case ZYDIS_MNEMONIC_LDDQU: case ZYDIS_MNEMONIC_VMOVDQU: case ZYDIS_MNEMONIC_VMOVDQA:
	case ZYDIS_MNEMONIC_VMOVUPS: case ZYDIS_MNEMONIC_VMOVAPS: case ZYDIS_MNEMONIC_VMOVUPD:
	case ZYDIS_MNEMONIC_VMOVAPD: case ZYDIS_MNEMONIC_VLDDQU:
		mov = 1;
		break;
	case ZYDIS_MNEMONIC_PXOR: case ZYDIS_MNEMONIC_XORPS: case ZYDIS_MNEMONIC_XORPD:
	case ZYDIS_MNEMONIC_VPXOR: case ZYDIS_MNEMONIC_VXORPS: case ZYDIS_MNEMONIC_VXORPD:
		zero = 1;
		break;
	default:
		return 0;
	}
	if (in->encoding != ZYDIS_INSTRUCTION_ENCODING_LEGACY &&
	    in->encoding != ZYDIS_INSTRUCTION_ENCODING_VEX)
		return 0; /* EVEX: masks, 512 bits */
	x->nops = in->encoding == ZYDIS_INSTRUCTION_ENCODING_VEX;
	const int nv = in->operand_count_visible;
	if (zero) {
		int d = vreg(&ops[0]);
		if (d < 0)
			return 0;
		for (int i = 1; i < nv; i++)
			if (vreg(&ops[i]) != d)
				return 0; /* not the idiom */
		x->cc = (uint8_t)(ops[0].size / 8);
		x->o[1].reg = (uint8_t)d;
		x->mn = MN_VZERO;
		return 1;
	}
	if (!mov || nv != 2)
		return 0;
	int d = vreg(&ops[0]), r = vreg(&ops[1]);
	x->cc = (uint8_t)(ops[0].size / 8);
	if (x->cc != 16 && x->cc != 32)
		return 0;
	if (d >= 0 && r >= 0) {
		x->o[1].reg = (uint8_t)d;
		x->o[2].reg = (uint8_t)r;
		x->mn = MN_VMV;
		return 1;
	}
	if (d >= 0 && ops[1].type == ZYDIS_OPERAND_TYPE_MEMORY) {
		if (conv_op(in, &ops[1], pc, &x->o[0]) < 0)
			return 0;
		x->o[1].reg = (uint8_t)d;
		x->mn = MN_VLD;
		return 1;
	}
	if (r >= 0 && ops[0].type == ZYDIS_OPERAND_TYPE_MEMORY) {
		if (conv_op(in, &ops[0], pc, &x->o[0]) < 0)
			return 0;
		x->o[2].reg = (uint8_t)r;
		x->mn = MN_VST;
		return 1;
	}
	return 0;
}

/* Code bytes at pc (up to n) through the per-thread code lines, which hold the program's
 * bytes (software breakpoints already replaced by the originals when the line was read;
 * code is assumed not to change while traced, as for the block cache). */
static struct cline *code_line(struct lbr_emu *e, uint64_t tag)
{
	struct cline *l = &e->code[(tag ^ (tag >> 7)) & (NCODE - 1)];
	if (l->tag != tag + 1) {
		l->got = (uint32_t)lbr_isa_read_partial(l->d, tag * CLINE, CLINE);
		if (lbr_isa_code_view && l->got)
			lbr_isa_code_view(l->d, tag * CLINE, l->got);
		l->tag = tag + 1;
	}
	return l;
}

static size_t code_bytes(struct lbr_emu *e, uint64_t pc, uint8_t *buf, size_t n)
{
	size_t have = 0;
	while (have < n) {
		uint64_t a = pc + have;
		struct cline *l = code_line(e, a / CLINE);
		size_t off = a % CLINE;
		if (off >= l->got)
			break;
		size_t k = l->got - off < n - have ? l->got - off : n - have;
		memcpy(buf + have, l->d + off, k);
		have += k;
		if (l->got < CLINE)
			break;
	}
	return have;
}

/* Decode the instruction at pc into *x (x->mn = 0: not emulated). */
static void decode(struct lbr_emu *e, uint64_t pc, struct einsn *x)
{
	memset(x, 0, sizeof(*x));
	x->pc = pc;
	x->forbid = e->forbid && e->forbid(pc);
	uint8_t buf[ZYDIS_MAX_INSTRUCTION_LENGTH];
	size_t got = code_bytes(e, pc, buf, sizeof(buf));
	ZydisDecodedInstruction in;
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
	if (!got || !ZYAN_SUCCESS(ZydisDecoderDecodeFull((const ZydisDecoder *)e->isa->opaque,
							  buf, got, &in, ops)))
		return;
	x->len = in.length;
	if (in.attributes & ZYDIS_ATTRIB_HAS_LOCK)
		return; /* atomic: never emulated */
	if ((in.mnemonic == ZYDIS_MNEMONIC_STOSB || in.mnemonic == ZYDIS_MNEMONIC_STOSW ||
	     in.mnemonic == ZYDIS_MNEMONIC_STOSD || in.mnemonic == ZYDIS_MNEMONIC_STOSQ ||
	     in.mnemonic == ZYDIS_MNEMONIC_MOVSB || in.mnemonic == ZYDIS_MNEMONIC_MOVSW ||
	     in.mnemonic == ZYDIS_MNEMONIC_MOVSQ) && in.address_width == 64 &&
	    !(in.attributes & (ZYDIS_ATTRIB_HAS_REPE | ZYDIS_ATTRIB_HAS_REPNE))) {
		/* string store: element size from the mnemonic's last letter, rep or single */
		x->mn = (uint16_t)(in.mnemonic >= ZYDIS_MNEMONIC_STOSB &&
				   in.mnemonic <= ZYDIS_MNEMONIC_STOSW ? MN_STOS : MN_MOVS);
		x->cc = (uint8_t)(in.operand_width / 8);
		x->nops = (in.attributes & ZYDIS_ATTRIB_HAS_REP) ? 1 : 0;
		if (in.mnemonic == ZYDIS_MNEMONIC_STOSB || in.mnemonic == ZYDIS_MNEMONIC_MOVSB)
			x->cc = 1;
		return;
	}
	if (vec_decode(&in, ops, pc, x))
		return;
	if (!modelled(in.mnemonic)) {
		/* Skippable: writes no general register, no flags, no rip/rsp/segment, and at
		 * most one memory operand; never a transfer or a system instruction. */
		if (in.meta.category == ZYDIS_CATEGORY_SYSTEM || in.meta.category == ZYDIS_CATEGORY_SYSCALL ||
		    in.meta.branch_type != ZYDIS_BRANCH_TYPE_NONE || is_transfer(&in) ||
		    (in.cpu_flags && (in.cpu_flags->modified | in.cpu_flags->set_0 |
				      in.cpu_flags->set_1 | in.cpu_flags->undefined)))
			return;
		int nmem = 0;
		for (int i = 0; i < in.operand_count; i++) {
			const ZydisDecodedOperand *op = &ops[i];
			if (!(op->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE))
				continue;
			if (op->type == ZYDIS_OPERAND_TYPE_REGISTER) {
				ZydisRegisterClass c = ZydisRegisterGetClass(op->reg.value);
				ZyanI8 id = ZydisRegisterGetId(op->reg.value);
				if ((c == ZYDIS_REGCLASS_XMM || c == ZYDIS_REGCLASS_YMM ||
				     c == ZYDIS_REGCLASS_ZMM) && id >= 0 && id < 16)
					x->o[1].v |= 0x10001LL << id; /* its bytes become unknown */
				if (c != ZYDIS_REGCLASS_XMM && c != ZYDIS_REGCLASS_YMM &&
				    c != ZYDIS_REGCLASS_ZMM && c != ZYDIS_REGCLASS_X87 &&
				    c != ZYDIS_REGCLASS_MMX && c != ZYDIS_REGCLASS_MASK &&
				    op->reg.value != ZYDIS_REGISTER_MXCSR &&
				    op->reg.value != ZYDIS_REGISTER_X87STATUS &&
				    op->reg.value != ZYDIS_REGISTER_X87CONTROL &&
				    op->reg.value != ZYDIS_REGISTER_X87TAG)
					return;
			} else if (op->type == ZYDIS_OPERAND_TYPE_MEMORY) {
				if (nmem++ || op->mem.type != ZYDIS_MEMOP_TYPE_MEM ||
				    conv_op(&in, op, pc, &x->o[0]) < 0 || !x->o[0].size)
					return;
			} else {
				return;
			}
		}
		if (in.mnemonic == ZYDIS_MNEMONIC_VZEROUPPER || in.mnemonic == ZYDIS_MNEMONIC_VZEROALL)
			x->o[1].v = 0xFFFFFFFF;
		x->mn = MN_SKIP;
		return;
	}
	if (in.operand_count_visible > 3)
		return;
	if (in.meta.branch_type == ZYDIS_BRANCH_TYPE_FAR)
		return;
	x->nops = in.operand_count_visible;
	for (int i = 0; i < x->nops; i++) {
		if (conv_op(&in, &ops[i], pc, &x->o[i]) < 0)
			return;
		/* An operand size we do not model (x87/SIMD registers were refused above). */
		if (in.meta.category == ZYDIS_CATEGORY_NOP || in.mnemonic == ZYDIS_MNEMONIC_NOP)
			continue;
		if (x->o[i].kind != O_IMM && x->o[i].size != 1 && x->o[i].size != 2 &&
		    x->o[i].size != 4 && x->o[i].size != 8 &&
		    !(x->o[i].kind == O_MEM && ops[i].mem.type == ZYDIS_MEMOP_TYPE_AGEN))
			return;
	}
	if (in.mnemonic == ZYDIS_MNEMONIC_XCHG && (x->o[0].kind == O_MEM || x->o[1].kind == O_MEM))
		return; /* implicitly locked */
	x->cc = in.opcode & 0xF; /* jcc (7x, 0F 8x), cmovcc (0F 4x), setcc (0F 9x) */
	x->mn = (uint16_t)in.mnemonic;
}

/* ---------------------------------------------------------------- memory */

static struct eline *line_get(struct lbr_emu *e, uint64_t tag, int for_write)
{
	struct eline *set = e->line[(tag ^ (tag >> 5)) & (NSET - 1)], *v = NULL;
	for (int w = 0; w < NWAY; w++)
		if (set[w].gen == e->gen && set[w].tag == tag)
			return &set[w];
	/* A victim: a line not of this run, else round-robin (lines are clean copies: the
	 * run's stores are kept apart, in `store`). */
	for (int w = 0; w < NWAY && !v; w++)
		if (set[w].gen != e->gen)
			v = &set[w];
	if (!v)
		v = &set[e->rr++ % NWAY];
	if (lbr_isa_read(v->d, tag * LINE, LINE) < 0) {
		v->gen = 0;
		return NULL;
	}
	v->tag = tag;
	v->gen = e->gen;
	(void)for_write;
	return v;
}

/* The run's store granule at g (8-aligned), created if `create` (NULL: none, or the table is
 * three quarters full - the overlay is full and the run ends). */
static struct egran *gran(struct lbr_emu *e, uint64_t g, int create)
{
	unsigned h = (unsigned)((g >> 3) * 0x9E3779B97F4A7C15ULL >> 50) & (NSTORE - 1);
	for (;; h = (h + 1) & (NSTORE - 1)) {
		struct egran *x = &e->store[h];
		if (x->gen != e->gen) {
			if (!create || e->nstored >= NSTORE * 3 / 4)
				return NULL;
			x->gen = e->gen;
			x->addr = g;
			x->mask = 0;
			e->nstored++;
			return x;
		}
		if (x->addr == g)
			return x;
	}
}

/* Note an access to [a, a+n) for data checkpoints: is every granule it touches new? */
static void accessed(struct lbr_emu *e, uint64_t a, unsigned n)
{
	if (!e->watch || e->no_watch)
		return;
	for (uint64_t g = a & ~7ULL; g < a + n; g += 8) {
		if (!e->acc_n++)
			e->acc_g = g;
		unsigned h = (unsigned)((g >> 3) * 0x9E3779B97F4A7C15ULL >> 48) & (NACC - 1);
		for (;; h = (h + 1) & (NACC - 1)) {
			if (e->acc[h].gen != e->gen) {
				if (e->nacc >= NACC * 3 / 4) {
					e->no_watch = 1;
					return;
				}
				e->acc[h].gen = e->gen;
				e->acc[h].addr = g;
				e->nacc++;
				break;
			}
			if (e->acc[h].addr == g) {
				e->acc_old = 1;
				break;
			}
		}
	}
}

static int mem_rw(struct lbr_emu *e, uint64_t a, void *p, unsigned n, int wr)
{
	uint8_t *b = p;
	accessed(e, a, n);
	if (!wr)
		for (unsigned i = 0; i < e->nunk; i++)
			if (a < e->unk[i].hi && a + n > e->unk[i].lo) {
				e->fail = 1; /* a value the run does not know */
				return -1;
			}
	if (wr) {
		struct egran *x = NULL;
		for (unsigned i = 0; i < n; i++) {
			uint64_t ai = a + i;
			if (!x || x->addr != (ai & ~7ULL))
				x = gran(e, ai & ~7ULL, 1);
			if (!x) {
				e->fail = 1;
				return -1;
			}
			x->d[ai & 7] = b[i];
			x->mask |= (uint8_t)(1u << (ai & 7));
		}
		return 0;
	}
	uint64_t a0 = a;
	unsigned n0 = n;
	uint8_t *b0 = b;
	while (n) {
		struct eline *l = line_get(e, a / LINE, 0);
		if (!l) {
			e->fail = 1;
			return -1;
		}
		unsigned off = (unsigned)(a % LINE), k = LINE - off < n ? LINE - off : n;
		memcpy(b, l->d + off, k);
		a += k;
		b += k;
		n -= k;
	}
	if (e->nstored) { /* the run's own stores over what memory holds */
		const struct egran *x = NULL;
		for (unsigned i = 0; i < n0; i++) {
			uint64_t ai = a0 + i;
			if (!x || x->addr != (ai & ~7ULL))
				x = gran(e, ai & ~7ULL, 0);
			if (x && (x->mask >> (ai & 7) & 1))
				b0[i] = x->d[ai & 7];
		}
	}
	return 0;
}

static uint64_t ld(struct lbr_emu *e, uint64_t a, unsigned n)
{
	uint64_t v = 0;
	if (mem_rw(e, a, &v, n, 0) < 0)
		return 0;
	return v;
}

static void st(struct lbr_emu *e, uint64_t a, uint64_t v, unsigned n)
{
	mem_rw(e, a, &v, n, 1);
}

/* The run wrote [lo, hi) with values it does not know. */
static void unknown(struct lbr_emu *e, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return;
	if (e->nunk == sizeof(e->unk) / sizeof(e->unk[0])) {
		e->fail = 1;
		return;
	}
	e->unk[e->nunk].lo = lo;
	e->unk[e->nunk].hi = hi;
	e->nunk++;
}

/* ---------------------------------------------------------------- operands */

static inline uint64_t mask(unsigned n)
{
	return n >= 8 ? ~0ULL : (1ULL << (8 * n)) - 1;
}

static inline uint64_t sext(uint64_t v, unsigned n)
{
	if (n >= 8)
		return v;
	unsigned s = 64 - 8 * n;
	return (uint64_t)((int64_t)(v << s) >> s);
}

static uint64_t ea(struct lbr_emu *e, const struct lbr_cpu *c, const struct eop *o)
{
	uint64_t a = (uint64_t)o->v;
	if (o->reg != LBR_REG_NONE)
		a += c->reg[o->reg];
	if (o->index != LBR_REG_NONE)
		a += c->reg[o->index] * o->scale;
	if (o->a32)
		a &= 0xffffffffULL;
	if (o->seg == LBR_SEG_FS) {
		if (!e->fs_ok) {
			unsigned long b = 0;
			if (lbr_sys2(SYS_arch_prctl, ARCH_GET_FS, &b) != 0) {
				e->fail = 1;
				return 0;
			}
			e->fs_base = b;
			e->fs_ok = 1;
		}
		a += e->fs_base;
	}
	return a;
}

static uint64_t rd(struct lbr_emu *e, const struct lbr_cpu *c, const struct eop *o)
{
	switch (o->kind) {
	case O_REG:
		if (o->hi)
			return (c->reg[o->reg] >> 8) & 0xff;
		return c->reg[o->reg] & mask(o->size);
	case O_IMM:
		return (uint64_t)o->v; /* sign-extended by the decoder; users mask to their size */
	case O_MEM: {
		uint64_t a = ea(e, c, o);
		return e->fail ? 0 : ld(e, a, o->size);
	}
	default:
		e->fail = 1;
		return 0;
	}
}

static void wr(struct lbr_emu *e, struct lbr_cpu *c, const struct eop *o, uint64_t v)
{
	if (o->kind == O_REG) {
		uint64_t *r = &c->reg[o->reg];
		if (o->hi)
			*r = (*r & ~0xff00ULL) | (v & 0xff) << 8;
		else if (o->size == 8)
			*r = v;
		else if (o->size == 4)
			*r = v & 0xffffffffULL;
		else
			*r = (*r & ~mask(o->size)) | (v & mask(o->size));
	} else if (o->kind == O_MEM) {
		uint64_t a = ea(e, c, o);
		if (!e->fail)
			st(e, a, v, o->size);
	} else {
		e->fail = 1;
	}
}

/* ---------------------------------------------------------------- flags */

static int cc_holds(unsigned cc, uint64_t f)
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

/* Flags state: value and the mask of arithmetic bits currently defined. */
struct fl {
	uint64_t *f, *def;
};

static void set_bit(uint64_t *f, uint64_t bit, int on)
{
	*f = on ? (*f | bit) : (*f & ~bit);
}

static void szp(uint64_t *f, uint64_t r, unsigned n)
{
	r &= mask(n);
	set_bit(f, F_ZF, r == 0);
	set_bit(f, F_SF, (r >> (8 * n - 1)) & 1);
	set_bit(f, F_PF, !__builtin_parity((unsigned)(r & 0xff)));
}

static uint64_t do_add(uint64_t *f, uint64_t a, uint64_t b, int cin, unsigned n)
{
	uint64_t m = mask(n), r = (a + b + (uint64_t)cin) & m;
	a &= m;
	b &= m;
	set_bit(f, F_CF, cin ? r <= a : r < a);
	set_bit(f, F_OF, (((a ^ r) & (b ^ r)) >> (8 * n - 1)) & 1);
	set_bit(f, F_AF, ((a ^ b ^ r) >> 4) & 1);
	szp(f, r, n);
	return r;
}

static uint64_t do_sub(uint64_t *f, uint64_t a, uint64_t b, int cin, unsigned n)
{
	uint64_t m = mask(n), r = (a - b - (uint64_t)cin) & m;
	a &= m;
	b &= m;
	set_bit(f, F_CF, cin ? a <= b : a < b);
	set_bit(f, F_OF, (((a ^ b) & (a ^ r)) >> (8 * n - 1)) & 1);
	set_bit(f, F_AF, ((a ^ b ^ r) >> 4) & 1);
	szp(f, r, n);
	return r;
}

/* ---------------------------------------------------------------- vector moves */

enum { X_OK = 0, X_BR, X_STOP }; /* step(): fell through, taken transfer, not emulated */

static int is_unknown(const struct lbr_emu *e, uint64_t a, unsigned n)
{
	for (unsigned i = 0; i < e->nunk; i++)
		if (a < e->unk[i].hi && a + n > e->unk[i].lo)
			return 1;
	return 0;
}

/* Known-bits of a write of `n` bytes to vector register d (VEX 16-byte writes zero the upper
 * half, legacy ones keep it). */
static void vset(struct lbr_emu *e, const struct einsn *x, int d, int known)
{
	uint32_t lo = 1u << d, hi = 1u << (16 + d);
	if (x->cc == 32) {
		e->vk = known ? e->vk | lo | hi : e->vk & ~(lo | hi);
	} else {
		e->vk = known ? e->vk | lo : e->vk & ~lo;
		if (x->nops) { /* VEX.128: upper half zeroed */
			memset(e->vr[d] + 16, 0, 16);
			e->vk |= hi;
		}
	}
}

static int vec_step(struct lbr_emu *e, struct lbr_cpu *c, const struct einsn *x)
{
	const unsigned n = x->cc;
	const int d = x->o[1].reg, r = x->o[2].reg;
	const uint32_t need = n == 32 ? (1u << r) | (1u << (16 + r)) : 1u << r;
	uint64_t a;
	switch (x->mn) {
	case MN_VZERO:
		memset(e->vr[d], 0, n);
		vset(e, x, d, 1);
		return X_OK;
	case MN_VMV: {
		int known = (e->vk & need) == need;
		memmove(e->vr[d], e->vr[r], n);
		vset(e, x, d, known);
		return X_OK;
	}
	case MN_VLD:
		a = ea(e, c, &x->o[0]);
		if (e->fail)
			return X_STOP;
		if (is_unknown(e, a, n)) {
			accessed(e, a, n);
			vset(e, x, d, 0);
			return X_OK;
		}
		if (mem_rw(e, a, e->vr[d], n, 0) < 0)
			return X_STOP;
		vset(e, x, d, 1);
		return X_OK;
	default: /* MN_VST */
		a = ea(e, c, &x->o[0]);
		if (e->fail)
			return X_STOP;
		if ((e->vk & need) == need) {
			uint8_t tmp[32];
			memcpy(tmp, e->vr[r], n);
			return mem_rw(e, a, tmp, n, 1) < 0 ? X_STOP : X_OK;
		}
		e->no_watch = 1; /* an access the granule tracking does not record */
		unknown(e, a, a + n);
		return e->fail ? X_STOP : X_OK;
	}
}

/* ---------------------------------------------------------------- one instruction */

/* Execute x on c. Returns X_OK (fell through), X_BR (*to = taken target, *type = CTR type)
 * or X_STOP (not emulated, or memory failed: c unchanged as far as it matters - the caller
 * discards everything after the last checkpoint anyway). */
static int step(struct lbr_emu *e, struct lbr_cpu *c, uint64_t *def, const struct einsn *x,
		uint64_t *to, uint8_t *type)
{
	const struct eop *o0 = &x->o[0], *o1 = &x->o[1], *o2 = &x->o[2];
	uint64_t *f = &c->flags;
	const uint64_t next = x->pc + x->len;
	const unsigned n = o0->size;
	uint64_t a, b, r;
	e->fail = 0;
	c->pc = next;
	if (x->mn >= MN_VLD)
		return vec_step(e, c, x);
	if (x->mn >= MN_SKIP) {
		e->no_watch = 1; /* memory it reads is not seen: no fresh-access claim after it */
		if (x->mn == MN_SKIP) {
			e->vk &= ~(uint32_t)x->o[1].v; /* the vector registers it writes */
			if (o0->kind == O_MEM) {
				a = ea(e, c, o0);
				if (!e->fail)
					unknown(e, a, a + o0->size);
			}
			return e->fail ? X_STOP : X_OK;
		}
		/* stos/movs (rep or single), DF = 0 only */
		if (*f & 0x400)
			return X_STOP;
		uint64_t cnt = x->nops ? c->reg[1] : 1, sz = x->cc;
		if (cnt > (1ULL << 40))
			return X_STOP;
		unknown(e, c->reg[7], c->reg[7] + cnt * sz);
		if (e->fail)
			return X_STOP;
		c->reg[7] += cnt * sz;
		if (x->mn == MN_MOVS)
			c->reg[6] += cnt * sz;
		if (x->nops)
			c->reg[1] = 0;
		return X_OK;
	}
	switch ((ZydisMnemonic)x->mn) {
	case ZYDIS_MNEMONIC_NOP: case ZYDIS_MNEMONIC_ENDBR64: case ZYDIS_MNEMONIC_PAUSE:
	case ZYDIS_MNEMONIC_PREFETCHT0: case ZYDIS_MNEMONIC_PREFETCHT1:
	case ZYDIS_MNEMONIC_PREFETCHT2: case ZYDIS_MNEMONIC_PREFETCHNTA:
	case ZYDIS_MNEMONIC_PREFETCHW:
		break;
	case ZYDIS_MNEMONIC_MOV:
		wr(e, c, o0, rd(e, c, o1));
		break;
	case ZYDIS_MNEMONIC_MOVZX:
		wr(e, c, o0, rd(e, c, o1));
		break;
	case ZYDIS_MNEMONIC_MOVSX: case ZYDIS_MNEMONIC_MOVSXD:
		wr(e, c, o0, sext(rd(e, c, o1), o1->size));
		break;
	case ZYDIS_MNEMONIC_LEA: {
		struct eop m = *o1;
		m.seg = LBR_SEG_NONE;
		wr(e, c, o0, ea(e, c, &m));
		break;
	}
	case ZYDIS_MNEMONIC_ADD: case ZYDIS_MNEMONIC_ADC:
		a = rd(e, c, o0);
		b = rd(e, c, o1);
		r = do_add(f, a, b, x->mn == ZYDIS_MNEMONIC_ADC ? (int)(*f & F_CF) : 0, n);
		*def |= F_ARITH;
		wr(e, c, o0, r);
		break;
	case ZYDIS_MNEMONIC_SUB: case ZYDIS_MNEMONIC_SBB: case ZYDIS_MNEMONIC_CMP:
		a = rd(e, c, o0);
		b = rd(e, c, o1);
		r = do_sub(f, a, b, x->mn == ZYDIS_MNEMONIC_SBB ? (int)(*f & F_CF) : 0, n);
		*def |= F_ARITH;
		if (x->mn != ZYDIS_MNEMONIC_CMP)
			wr(e, c, o0, r);
		break;
	case ZYDIS_MNEMONIC_AND: case ZYDIS_MNEMONIC_OR: case ZYDIS_MNEMONIC_XOR:
	case ZYDIS_MNEMONIC_TEST:
		a = rd(e, c, o0);
		b = rd(e, c, o1);
		if (o1->kind == O_IMM)
			b = (uint64_t)o1->v;
		r = x->mn == ZYDIS_MNEMONIC_OR ? a | b : x->mn == ZYDIS_MNEMONIC_XOR ? a ^ b : a & b;
		r &= mask(n);
		set_bit(f, F_CF, 0);
		set_bit(f, F_OF, 0);
		szp(f, r, n);
		*def = (*def | F_ARITH) & ~F_AF;
		if (x->mn != ZYDIS_MNEMONIC_TEST)
			wr(e, c, o0, r);
		break;
	case ZYDIS_MNEMONIC_INC: case ZYDIS_MNEMONIC_DEC: {
		uint64_t cf = *f & F_CF;
		a = rd(e, c, o0);
		r = x->mn == ZYDIS_MNEMONIC_INC ? do_add(f, a, 1, 0, n) : do_sub(f, a, 1, 0, n);
		*f = (*f & ~F_CF) | cf;
		*def |= F_ARITH & ~F_CF;
		wr(e, c, o0, r);
		break;
	}
	case ZYDIS_MNEMONIC_NEG:
		a = rd(e, c, o0);
		r = do_sub(f, 0, a, 0, n);
		set_bit(f, F_CF, (a & mask(n)) != 0);
		*def |= F_ARITH;
		wr(e, c, o0, r);
		break;
	case ZYDIS_MNEMONIC_NOT:
		wr(e, c, o0, ~rd(e, c, o0));
		break;
	case ZYDIS_MNEMONIC_SHL: case ZYDIS_MNEMONIC_SHR: case ZYDIS_MNEMONIC_SAR:
	case ZYDIS_MNEMONIC_ROL: case ZYDIS_MNEMONIC_ROR: {
		unsigned bits = 8 * n;
		unsigned cnt = (unsigned)rd(e, c, o1) & (n == 8 ? 63 : 31);
		a = rd(e, c, o0);
		if (e->fail)
			return X_STOP;
		if (cnt == 0) {
			wr(e, c, o0, a); /* flags unchanged; a 32-bit register is still written */
			break;
		}
		if (cnt >= bits)
			return X_STOP; /* 8/16-bit forms with large counts: not modelled */
		int cf, of = 0;
		switch ((ZydisMnemonic)x->mn) {
		case ZYDIS_MNEMONIC_SHL:
			r = (a << cnt) & mask(n);
			cf = (a >> (bits - cnt)) & 1;
			of = (int)((r >> (bits - 1)) & 1) ^ cf;
			break;
		case ZYDIS_MNEMONIC_SHR:
			r = a >> cnt;
			cf = (a >> (cnt - 1)) & 1;
			of = (a >> (bits - 1)) & 1;
			break;
		case ZYDIS_MNEMONIC_SAR:
			r = (uint64_t)((int64_t)sext(a, n) >> cnt) & mask(n);
			cf = (int)(((int64_t)sext(a, n) >> (cnt - 1)) & 1);
			of = 0;
			break;
		case ZYDIS_MNEMONIC_ROL:
			r = ((a << cnt) | (a >> (bits - cnt))) & mask(n);
			cf = r & 1;
			of = (int)((r >> (bits - 1)) & 1) ^ cf;
			break;
		default: /* ROR */
			r = ((a >> cnt) | (a << (bits - cnt))) & mask(n);
			cf = (r >> (bits - 1)) & 1;
			of = (int)(((r >> (bits - 1)) ^ (r >> (bits - 2))) & 1);
			break;
		}
		set_bit(f, F_CF, cf);
		set_bit(f, F_OF, of);
		*def |= F_CF;
		if (cnt == 1)
			*def |= F_OF;
		else
			*def &= ~F_OF;
		if (x->mn == ZYDIS_MNEMONIC_SHL || x->mn == ZYDIS_MNEMONIC_SHR ||
		    x->mn == ZYDIS_MNEMONIC_SAR) {
			szp(f, r, n);
			*def = (*def | F_ZF | F_SF | F_PF) & ~F_AF;
		}
		wr(e, c, o0, r);
		break;
	}
	case ZYDIS_MNEMONIC_IMUL:
		if (x->nops >= 2) {
			int64_t sa = (int64_t)sext(rd(e, c, x->nops == 3 ? o1 : o0), n);
			const struct eop *ob = x->nops == 3 ? o2 : o1;
			int64_t sb = ob->kind == O_IMM ? ob->v : (int64_t)sext(rd(e, c, ob), n);
			__int128 p = (__int128)sa * sb;
			r = (uint64_t)p & mask(n);
			int ovf = (__int128)(int64_t)sext(r, n) != p;
			set_bit(f, F_CF, ovf);
			set_bit(f, F_OF, ovf);
			*def = (*def | F_CF | F_OF) & ~(F_ZF | F_SF | F_PF | F_AF);
			wr(e, c, o0, r);
			break;
		}
		__attribute__((fallthrough)); /* the one-operand form */
	case ZYDIS_MNEMONIC_MUL: {
		if (n < 4)
			return X_STOP;
		uint64_t s = rd(e, c, o0), ax = c->reg[0] & mask(n);
		unsigned __int128 p;
		int ovf;
		if (x->mn == ZYDIS_MNEMONIC_IMUL) {
			__int128 sp = (__int128)(int64_t)sext(ax, n) * (int64_t)sext(s, n);
			p = (unsigned __int128)sp;
			ovf = (__int128)(int64_t)sext((uint64_t)sp & mask(n), n) != sp;
		} else {
			p = (unsigned __int128)ax * s;
			ovf = (p >> (8 * n)) != 0;
		}
		uint64_t lo = (uint64_t)p & mask(n), hi = (uint64_t)(p >> (8 * n)) & mask(n);
		struct eop ra = { O_REG, (uint8_t)n, 0, 0, 0, 0, 0, 0, 0 }, rdx = ra;
		rdx.reg = 2;
		wr(e, c, &ra, lo);
		wr(e, c, &rdx, hi);
		set_bit(f, F_CF, ovf);
		set_bit(f, F_OF, ovf);
		*def = (*def | F_CF | F_OF) & ~(F_ZF | F_SF | F_PF | F_AF);
		break;
	}
	case ZYDIS_MNEMONIC_DIV: case ZYDIS_MNEMONIC_IDIV: {
		if (n < 4)
			return X_STOP;
		uint64_t d = rd(e, c, o0);
		if (e->fail || d == 0)
			return X_STOP;
		uint64_t lo = c->reg[0] & mask(n), hi = c->reg[2] & mask(n), q, rm;
		if (x->mn == ZYDIS_MNEMONIC_DIV) {
			unsigned __int128 num = ((unsigned __int128)hi << (8 * n)) | lo;
			unsigned __int128 qq = num / d;
			if (qq >> (8 * n))
				return X_STOP; /* #DE */
			q = (uint64_t)qq;
			rm = (uint64_t)(num % d);
		} else {
			__int128 num = (__int128)(((unsigned __int128)hi << (8 * n)) | lo);
			if (n == 4)
				num = (int64_t)(uint64_t)num; /* edx:eax as a signed 64-bit value */
			else if (hi >> 63)
				num = (__int128)(((unsigned __int128)~0ULL << 64) | (unsigned __int128)num);
			__int128 sd = (int64_t)sext(d, n);
			__int128 qq = num / sd;
			if (qq != (__int128)(int64_t)sext((uint64_t)qq & mask(n), n))
				return X_STOP; /* #DE */
			q = (uint64_t)qq & mask(n);
			rm = (uint64_t)(num % sd) & mask(n);
		}
		struct eop ra = { O_REG, (uint8_t)n, 0, 0, 0, 0, 0, 0, 0 }, rdx = ra;
		rdx.reg = 2;
		wr(e, c, &ra, q);
		wr(e, c, &rdx, rm);
		*def &= ~F_ARITH;
		break;
	}
	case ZYDIS_MNEMONIC_CMOVB: case ZYDIS_MNEMONIC_CMOVBE: case ZYDIS_MNEMONIC_CMOVL:
	case ZYDIS_MNEMONIC_CMOVLE: case ZYDIS_MNEMONIC_CMOVNB: case ZYDIS_MNEMONIC_CMOVNBE:
	case ZYDIS_MNEMONIC_CMOVNL: case ZYDIS_MNEMONIC_CMOVNLE: case ZYDIS_MNEMONIC_CMOVNO:
	case ZYDIS_MNEMONIC_CMOVNP: case ZYDIS_MNEMONIC_CMOVNS: case ZYDIS_MNEMONIC_CMOVNZ:
	case ZYDIS_MNEMONIC_CMOVO: case ZYDIS_MNEMONIC_CMOVP: case ZYDIS_MNEMONIC_CMOVS:
	case ZYDIS_MNEMONIC_CMOVZ:
		b = rd(e, c, o1); /* read even when not moved (as the CPU does) */
		/* 32-bit destination: written (zero-extended) whatever the condition */
		wr(e, c, o0, cc_holds(x->cc, *f) ? b : rd(e, c, o0));
		break;
	case ZYDIS_MNEMONIC_SETB: case ZYDIS_MNEMONIC_SETBE: case ZYDIS_MNEMONIC_SETL:
	case ZYDIS_MNEMONIC_SETLE: case ZYDIS_MNEMONIC_SETNB: case ZYDIS_MNEMONIC_SETNBE:
	case ZYDIS_MNEMONIC_SETNL: case ZYDIS_MNEMONIC_SETNLE: case ZYDIS_MNEMONIC_SETNO:
	case ZYDIS_MNEMONIC_SETNP: case ZYDIS_MNEMONIC_SETNS: case ZYDIS_MNEMONIC_SETNZ:
	case ZYDIS_MNEMONIC_SETO: case ZYDIS_MNEMONIC_SETP: case ZYDIS_MNEMONIC_SETS:
	case ZYDIS_MNEMONIC_SETZ:
		wr(e, c, o0, (uint64_t)cc_holds(x->cc, *f));
		break;
	case ZYDIS_MNEMONIC_CDQE: case ZYDIS_MNEMONIC_CWDE: case ZYDIS_MNEMONIC_CBW: {
		unsigned w = x->mn == ZYDIS_MNEMONIC_CDQE ? 8 : x->mn == ZYDIS_MNEMONIC_CWDE ? 4 : 2;
		struct eop ra = { O_REG, (uint8_t)w, 0, 0, 0, 0, 0, 0, 0 };
		wr(e, c, &ra, sext(c->reg[0] & mask(w / 2), w / 2));
		break;
	}
	case ZYDIS_MNEMONIC_CDQ: case ZYDIS_MNEMONIC_CQO: case ZYDIS_MNEMONIC_CWD: {
		unsigned w = x->mn == ZYDIS_MNEMONIC_CQO ? 8 : x->mn == ZYDIS_MNEMONIC_CDQ ? 4 : 2;
		struct eop rdx = { O_REG, (uint8_t)w, 2, 0, 0, 0, 0, 0, 0 };
		wr(e, c, &rdx, (c->reg[0] >> (8 * w - 1)) & 1 ? ~0ULL : 0);
		break;
	}
	case ZYDIS_MNEMONIC_XCHG:
		a = rd(e, c, o0);
		b = rd(e, c, o1);
		wr(e, c, o0, b);
		wr(e, c, o1, a);
		break;
	case ZYDIS_MNEMONIC_BT:
		if (o0->kind == O_MEM && o1->kind != O_IMM)
			return X_STOP; /* bit-string addressing */
		a = rd(e, c, o0);
		b = rd(e, c, o1) & (8 * n - 1);
		set_bit(f, F_CF, (a >> b) & 1);
		*def = (*def | F_CF) & ~(F_OF | F_SF | F_AF | F_PF);
		break;
	case ZYDIS_MNEMONIC_BSF: case ZYDIS_MNEMONIC_BSR:
		a = rd(e, c, o1);
		if (a == 0)
			return X_STOP; /* destination left as is on some CPUs, undefined on paper */
		set_bit(f, F_ZF, 0);
		*def = (*def | F_ZF) & ~(F_CF | F_OF | F_SF | F_AF | F_PF);
		wr(e, c, o0, x->mn == ZYDIS_MNEMONIC_BSF ? (uint64_t)__builtin_ctzll(a)
							 : (uint64_t)(63 - __builtin_clzll(a)));
		break;
	case ZYDIS_MNEMONIC_TZCNT: case ZYDIS_MNEMONIC_LZCNT:
		a = rd(e, c, o1);
		if (a == 0)
			r = 8 * n;
		else if (x->mn == ZYDIS_MNEMONIC_TZCNT)
			r = (uint64_t)__builtin_ctzll(a);
		else
			r = (uint64_t)(__builtin_clzll(a) - (64 - 8 * (int)n));
		set_bit(f, F_CF, a == 0);
		set_bit(f, F_ZF, r == 0);
		*def = (*def | F_CF | F_ZF) & ~(F_OF | F_SF | F_AF | F_PF);
		wr(e, c, o0, r);
		break;
	case ZYDIS_MNEMONIC_POPCNT:
		a = rd(e, c, o1);
		r = (uint64_t)__builtin_popcountll(a);
		*f &= ~F_ARITH;
		set_bit(f, F_ZF, a == 0);
		*def |= F_ARITH;
		wr(e, c, o0, r);
		break;
	case ZYDIS_MNEMONIC_BSWAP:
		if (n < 4)
			return X_STOP;
		a = rd(e, c, o0);
		wr(e, c, o0, n == 8 ? __builtin_bswap64(a) : __builtin_bswap32((uint32_t)a));
		break;
	case ZYDIS_MNEMONIC_CLC: *f &= ~F_CF; *def |= F_CF; break;
	case ZYDIS_MNEMONIC_STC: *f |= F_CF; *def |= F_CF; break;
	case ZYDIS_MNEMONIC_CMC: *f ^= F_CF; break;
	case ZYDIS_MNEMONIC_PUSH:
		if (n != 8 && o0->kind != O_IMM)
			return X_STOP;
		a = o0->kind == O_IMM ? (uint64_t)o0->v : rd(e, c, o0);
		if (e->fail)
			return X_STOP;
		st(e, c->reg[4] - 8, a, 8);
		if (e->fail)
			return X_STOP;
		c->reg[4] -= 8;
		break;
	case ZYDIS_MNEMONIC_POP:
		if (n != 8)
			return X_STOP;
		a = ld(e, c->reg[4], 8);
		if (e->fail)
			return X_STOP;
		c->reg[4] += 8;  /* pop [rsp+d] addresses with the incremented rsp */
		wr(e, c, o0, a);
		break;
	case ZYDIS_MNEMONIC_LEAVE:
		a = ld(e, c->reg[5], 8);
		if (e->fail)
			return X_STOP;
		c->reg[4] = c->reg[5] + 8;
		c->reg[5] = a;
		break;
	/* control transfers */
	case ZYDIS_MNEMONIC_JB: case ZYDIS_MNEMONIC_JBE: case ZYDIS_MNEMONIC_JL:
	case ZYDIS_MNEMONIC_JLE: case ZYDIS_MNEMONIC_JNB: case ZYDIS_MNEMONIC_JNBE:
	case ZYDIS_MNEMONIC_JNL: case ZYDIS_MNEMONIC_JNLE: case ZYDIS_MNEMONIC_JNO:
	case ZYDIS_MNEMONIC_JNP: case ZYDIS_MNEMONIC_JNS: case ZYDIS_MNEMONIC_JNZ:
	case ZYDIS_MNEMONIC_JO: case ZYDIS_MNEMONIC_JP: case ZYDIS_MNEMONIC_JS:
	case ZYDIS_MNEMONIC_JZ: {
		int t = cc_holds(x->cc, *f);
		if (lbr_emu_plant && x->cc == 4)
			t = cc_holds(2, *f); /* planted bug (test-only): je tests CF, not ZF */
		if (!t)
			break;
		c->pc = *to = (uint64_t)o0->v;
		*type = 5; /* taken branch */
		return X_BR;
	}
	case ZYDIS_MNEMONIC_JMP: case ZYDIS_MNEMONIC_CALL: {
		int direct = o0->kind == O_IMM;
		if (!direct && n != 8)
			return X_STOP;
		a = direct ? (uint64_t)o0->v : rd(e, c, o0);
		if (e->fail)
			return X_STOP;
		if (x->mn == ZYDIS_MNEMONIC_CALL) {
			st(e, c->reg[4] - 8, next, 8);
			if (e->fail)
				return X_STOP;
			c->reg[4] -= 8;
			*type = direct ? 9 : 8;
		} else {
			*type = direct ? 11 : 10;
		}
		c->pc = *to = a;
		return X_BR;
	}
	case ZYDIS_MNEMONIC_RET:
		a = ld(e, c->reg[4], 8);
		if (e->fail)
			return X_STOP;
		c->reg[4] += 8 + (x->nops ? (uint64_t)(o0->v & 0xffff) : 0);
		c->pc = *to = a;
		*type = 13;
		return X_BR;
	default:
		return X_STOP;
	}
	return e->fail ? X_STOP : X_OK;
}

/* ---------------------------------------------------------------- runs */

void lbr_emu_run(struct lbr_emu *e, const struct lbr_cpu *start, unsigned max_br,
		 struct lbr_emu_br *br, struct lbr_emu_out *out)
{
	struct lbr_cpu c = *start, before;
	uint64_t def = F_ARITH; /* the real flags are all known at the start */
	/* The data checkpoint: the last access to memory no earlier instruction of the run
	 * touched (8-byte granules), outside the stack area the handlers themselves use. */
	struct lbr_cpu dk;
	uint64_t dk_pc = 0, dk_fmask = 0, dk_addr = 0;
	unsigned dk_nbr = 0;
	e->no_watch = 0;
	e->nacc = 0;
	if (++e->gen == 0)
		e->gen = 1;
	e->fs_ok = e->fs_fixed;
	e->nunk = 0;
	e->nstored = 0;
	e->vk = e->vk_seed;
	e->vk_seed = 0;
	out->insns = 0;
	out->nbr = 0;
	out->ck_pc = start->pc;
	out->ck_nbr = 0;
	out->ck = *start;
	out->ck_fmask = F_ARITH;
	out->end = LBR_EMU_END_BUDGET;
	out->ck_data = 0;
	for (;;) {
		struct einsn *x = &e->ic[(c.pc * 0x9E3779B97F4A7C15ULL >> 40) & (ICACHE - 2)];
		if (x->pc != c.pc && x[1].pc == c.pc)
			x++;
		if (x->pc != c.pc) {
			/* Replace a way not executed in this run (its "executed" mark would be lost). */
			if (x->pc && x->gen == e->gen)
				x++;
			if (x->pc && x->gen == e->gen) {
				out->end = LBR_EMU_END_BUDGET; /* both ways executed in this run */
				goto done;
			}
			decode(e, c.pc, x);
		}
		if (x->forbid) {
			out->end = LBR_EMU_END_FORBID;
			goto done;
		}
		if (x->gen != e->gen) {
			/* First execution of this address in the run: the latest checkpoint. */
			x->gen = e->gen;
			out->ck_pc = c.pc;
			out->ck_nbr = out->nbr;
			out->ck = c;
			out->ck_fmask = def;
			if (out->nbr >= max_br) {
				out->end = LBR_EMU_END_DEPTH;
				goto done;
			}
		}
		if (!x->mn) {
			out->end = LBR_EMU_END_INSN;
			goto done;
		}
		if (out->insns >= e->budget) {
			out->end = LBR_EMU_END_BUDGET;
			goto done;
		}
		before = c;
		uint64_t to = 0;
		uint8_t type = 0;
		e->acc_n = e->acc_old = 0;
		int r = step(e, &c, &def, x, &to, &type);
		if (r == X_STOP) {
			c = before;
			out->end = e->fail ? LBR_EMU_END_MEM : LBR_EMU_END_INSN;
			goto done;
		}
		out->insns++;
		c.sp = c.reg[4];
		if (r == X_BR && out->nbr < max_br) {
			br[out->nbr].from = x->pc;
			br[out->nbr].to = to;
			br[out->nbr].ctr_type = type;
			out->nbr++;
		}
		if (r == X_OK && e->acc_n && !e->acc_old && !e->no_watch &&
		    !(e->acc_g < start->reg[4] && e->acc_g + 65536 >= start->reg[4])) {
			/* A watchpoint on this granule traps right after this instruction. */
			dk = c;
			dk_pc = c.pc;
			dk_nbr = out->nbr;
			dk_fmask = def;
			dk_addr = e->acc_g;
			if (out->nbr >= max_br) {
				out->end = LBR_EMU_END_DEPTH;
				goto done;
			}
		}
	}
done:
	/* The checkpoint covering more branches wins (the instruction one on a tie). */
	if (dk_addr && dk_nbr > out->ck_nbr) {
		out->ck_pc = dk_pc;
		out->ck_nbr = dk_nbr;
		out->ck = dk;
		out->ck_fmask = dk_fmask;
		out->ck_data = dk_addr;
	}
}

int lbr_emu_stores_match(struct lbr_emu *e)
{
	for (int i = 0; i < NSTORE; i++) {
		const struct egran *x = &e->store[i];
		uint8_t now[8];
		if (x->gen != e->gen)
			continue;
		if (lbr_isa_read(now, x->addr, 8) < 0)
			return 0;
		for (int k = 0; k < 8; k++)
			if ((x->mask >> k & 1) && now[k] != x->d[k])
				return 0;
	}
	return 1;
}

int lbr_emu_confirm(const struct lbr_emu_out *o, const struct lbr_cpu *real)
{
	if (real->pc != o->ck_pc)
		return 0;
	for (int i = 0; i < 16; i++)
		if (real->reg[i] != o->ck.reg[i])
			return 0;
	return ((real->flags ^ o->ck.flags) & o->ck_fmask & F_ARITH) == 0;
}
