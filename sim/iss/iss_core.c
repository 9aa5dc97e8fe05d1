/* SPDX-License-Identifier: Apache-2.0 */
/* ISS core: lifecycle, fetch/decode (through lib/isa) and execution of
 * the integer, memory, atomic, control-transfer and CSR instructions.
 * FP execution is in iss_fp.c, system calls in iss_syscall.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iss_int.h"
#include "tiprof/seldisp.h"

/* FP CSR numbers and counters. */
#define CSR_FFLAGS  0x001
#define CSR_FRM     0x002
#define CSR_FCSR    0x003
#define CSR_CYCLE   0xc00
#define CSR_TIME    0xc01
#define CSR_INSTRET 0xc02

int iss__fail(struct iss *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return ISS_ERROR;
}

uint64_t iss__random(struct iss *s)
{
	uint64_t z = (s->rng += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

uint64_t iss__time_ns(const struct iss *s)
{
	return s->cfg.time_base_ns + s->instret * s->cfg.ns_per_insn;
}

struct iss *iss_create(const char *path, char *const argv[], char *const envp[],
		       const struct iss_config *cfg, char *err, size_t errlen)
{
	struct iss *s = calloc(1, sizeof(*s));
	size_t k;

	if (!s || iss_mem_init(&s->mem)) {
		snprintf(err, errlen, "out of memory");
		free(s);
		return NULL;
	}
	for (k = 0; k < ISS_CTLB_SIZE; k++)
		s->ctlb[k].vpn = UINT64_MAX;
	if (cfg)
		s->cfg = *cfg;
	if (!s->cfg.seed)
		s->cfg.seed = 1;
	if (!s->cfg.ns_per_insn)
		s->cfg.ns_per_insn = 1;
	if (!s->cfg.time_base_ns)
		s->cfg.time_base_ns = 1704067200ull * 1000000000ull;
	if (!s->cfg.stack_size)
		s->cfg.stack_size = 8ull << 20;
	if (!s->cfg.mmap_base)
		s->cfg.mmap_base = 0x4000000000ull;
	if (iss__set_sysroot(s, s->cfg.sysroot)) {
		snprintf(err, errlen, "sysroot path too long");
		iss_destroy(s);
		return NULL;
	}
	s->cfg.sysroot = s->sysroot[0] ? s->sysroot : "/";
	s->rng = s->cfg.seed;
	s->host_rm = -1;
	s->mmap_next = s->cfg.mmap_base;
	if (iss__load(s, path, argv, envp)) {
		snprintf(err, errlen, "%s", s->err);
		iss_destroy(s);
		return NULL;
	}
	return s;
}

struct iss *iss_create_sys(const struct iss_sys_ops *ops, void *ctx)
{
	struct iss *s = calloc(1, sizeof(*s));
	size_t k;

	if (!s || iss_mem_init(&s->mem)) {
		free(s);
		return NULL;
	}
	for (k = 0; k < ISS_CTLB_SIZE; k++)
		s->ctlb[k].vpn = UINT64_MAX;
	s->cfg.seed = 1;
	s->cfg.ns_per_insn = 1;
	s->host_rm = -1;
	s->sys = ops;
	s->sys_ctx = ctx;
	s->fvpn = UINT64_MAX;
	return s;
}

void iss_set_pc(struct iss *s, uint64_t pc) { s->pc = pc; }
void iss_clear_reservation(struct iss *s) { s->res_valid = 0; }
void iss_set_fp_off(struct iss *s, int off) { s->fp_off = off; }
void iss_sys_flush(struct iss *s) { s->fvpn = UINT64_MAX; }

int iss_map_ram(struct iss *s, uint64_t pa, uint64_t len)
{
	return iss_mem_map(&s->mem, pa, len, ISS_PROT_R | ISS_PROT_W | ISS_PROT_X);
}

void iss_destroy(struct iss *s)
{
	size_t k;

	if (!s)
		return;
	iss_mem_free(&s->mem);
	for (k = 0; k < ISS_MAX_FDS; k++)
		free(s->fd_path[k]);
	for (k = 0; k < s->nobjs; k++)
		free((char *)s->objs[k].o.path);
	free(s->objs);
	free(s);
}

const char *iss_error(const struct iss *s) { return s->err; }
int iss_exit_code(const struct iss *s) { return s->exit_code; }
uint64_t iss_instret(const struct iss *s) { return s->instret; }
uint64_t iss_pc(const struct iss *s) { return s->pc; }
uint64_t iss_xreg(const struct iss *s, unsigned r) { return s->x[r & 31]; }
uint64_t iss_freg(const struct iss *s, unsigned r) { return s->f[r & 31]; }
unsigned iss_fcsr(const struct iss *s) { return s->frm << 5 | s->fflags; }

/* ---- Xtpsd: profile flags and their stack (docs/seldisp.md) ------------------------- */

uint64_t iss_pfstate(const struct iss *s) { return s->pfstate; }
void iss_set_pfstate(struct iss *s, uint64_t v) { s->pfstate = tiprof_sd_warl(v); }

static int pf_on(const struct iss *s, unsigned f) { return (int)tiprof_sd_flag(s->pfstate, f); }

/* setpf, resetpf, pushpf, poppf: the state machine of include/tiprof/seldisp.h. */
static void pf_ctl(struct iss *s, const struct rv_insn *i)
{
	unsigned fn = i->op == RV_OP_SETPF ? TIPROF_SD_FN_SETPF :
		      i->op == RV_OP_RESETPF ? TIPROF_SD_FN_RESETPF :
		      i->op == RV_OP_PUSHPF ? TIPROF_SD_FN_PUSHPF : TIPROF_SD_FN_POPPF;

	s->pfstate = tiprof_sd_flag_op(s->pfstate, fn, (unsigned)i->imm);
}

void iss_set_xreg(struct iss *s, unsigned r, uint64_t v)
{
	if ((r & 31) != 0)
		s->x[r & 31] = v;
}

int iss_read_mem(struct iss *s, uint64_t addr, void *out, size_t n)
{
	return iss_mem_read(&s->mem, addr, out, n);
}

int iss_write_mem(struct iss *s, uint64_t addr, const void *in, size_t n)
{
	return iss_mem_write(&s->mem, addr, in, n);
}

/* ---- memory access helpers ------------------------------------------ */

/* ---- full-system mode (iss.h): accesses through the machine's hooks ---- */

/* Record exception cause with tval for the failing instruction; returns -1. */
static int sys_exc(struct iss *s, uint64_t cause, uint64_t tval)
{
	s->exc_cause = cause;
	s->exc_tval = tval;
	return -1;
}

/* n bytes at physical pa (within one page): RAM, else a device. 0 or -1 (access fault). */
static int sys_pa_rw(struct iss *s, uint64_t pa, unsigned n, int write, uint64_t *v)
{
	uint8_t *p = write ? iss_mem_wptr(&s->mem, pa, n) : iss_mem_ptr(&s->mem, pa, n);

	if (!p)
		return s->sys->io(s->sys_ctx, pa, n, write, v) ? -1 : 0;
	if (write) {
		memcpy(p, v, n);	/* little-endian host */
	} else {
		*v = 0;
		memcpy(v, p, n);
	}
	return 0;
}

/* A load (acc R, or W for an AMO's read) or store of n bytes at virtual va; a page-crossing
 * access translates both pages first. 0 or -1 with the exception recorded. */
static int sys_rw(struct iss *s, uint64_t va, unsigned n, enum iss_acc acc, int write, uint64_t *v)
{
	unsigned n1 = n, k;
	uint64_t pa, pa2 = 0, b, r = 0;
	int c;

	if ((c = s->sys->xlate(s->sys_ctx, va, acc, &pa)))
		return sys_exc(s, (uint64_t)c, va);
	if ((va & ISS_PAGE_MASK) + n > ISS_PAGE_SIZE) {
		n1 = (unsigned)(ISS_PAGE_SIZE - (va & ISS_PAGE_MASK));
		if ((c = s->sys->xlate(s->sys_ctx, va + n1, acc, &pa2)))
			return sys_exc(s, (uint64_t)c, va + n1);
	}
	if (n1 == n) {
		if (sys_pa_rw(s, pa, n, write, v))
			return sys_exc(s, acc == ISS_ACC_R ? 5 : 7, va);
		return 0;
	}
	for (k = 0; k < n; k++) {
		b = write ? (*v >> 8 * k) & 0xff : 0;
		if (sys_pa_rw(s, k < n1 ? pa + k : pa2 + (k - n1), 1, write, &b))
			return sys_exc(s, acc == ISS_ACC_R ? 5 : 7, va + k);
		r |= b << 8 * k;
	}
	if (!write)
		*v = r;
	return 0;
}

/* Load n (1/2/4/8) bytes little-endian; returns 0 or -1 if unmapped. */
static int load(struct iss *s, uint64_t a, unsigned n, uint64_t *v)
{
	uint8_t *p;
	uint8_t b[8];

	if (s->sys)
		return sys_rw(s, a, n, ISS_ACC_R, 0, v);
	p = iss_mem_ptr(&s->mem, a, n);
	if (!p) {
		if (iss_mem_read(&s->mem, a, b, n))
			return -1;
		p = b;
	}
	switch (n) {
	case 1: *v = p[0]; break;
	case 2: { uint16_t t; memcpy(&t, p, 2); *v = t; break; }
	case 4: { uint32_t t; memcpy(&t, p, 4); *v = t; break; }
	default: memcpy(v, p, 8); break;
	}
	return 0;
}

static int store(struct iss *s, uint64_t a, unsigned n, uint64_t v)
{
	uint8_t *p;

	if (s->sys)
		return sys_rw(s, a, n, ISS_ACC_W, 1, &v);
	p = iss_mem_wptr(&s->mem, a, n);
	if (p) {
		switch (n) {
		case 1: p[0] = (uint8_t)v; break;
		case 2: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); break; }
		case 4: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); break; }
		default: memcpy(p, &v, 8); break;
		}
		return 0;
	}
	return iss_mem_write(&s->mem, a, &v, n);
}

static int64_t sext32(uint64_t v) { return (int64_t)(int32_t)(uint32_t)v; }

/* ---- fetch and decode ------------------------------------------------ */

/* The handlers of iss_run's threaded dispatch, one per common operation
 * (the compact slot form, iss_int.h): DECODE = slot not decoded yet, SLOW
 * = through exec(), FP = F/D arithmetic through iss__exec_fp, NOP = no
 * architectural effect (an integer result into x0, fence); J/JR = jal/jalr
 * without link. Loads into x0 take SLOW, so everything else never writes
 * x0. */
#define ISS_FH_LIST(X)							\
	X(DECODE) X(SLOW) X(FP) X(NOP)					\
	X(LUI) X(AUIPC) X(JAL) X(J) X(JALR) X(JR)			\
	X(BEQ) X(BNE) X(BLT) X(BGE) X(BLTU) X(BGEU)			\
	X(LB) X(LH) X(LW) X(LD) X(LBU) X(LHU) X(LWU) X(FLW) X(FLD)	\
	X(SB) X(SH) X(SW) X(SD) X(FSW) X(FSD)				\
	X(ADDI) X(SLTI) X(SLTIU) X(XORI) X(ORI) X(ANDI)			\
	X(SLLI) X(SRLI) X(SRAI)						\
	X(ADD) X(SUB) X(SLL) X(SLT) X(SLTU) X(XOR) X(SRL) X(SRA) X(OR) X(AND) \
	X(ADDIW) X(SLLIW) X(SRLIW) X(SRAIW)				\
	X(ADDW) X(SUBW) X(SLLW) X(SRLW) X(SRAW)				\
	X(MUL) X(MULW) X(MDIV)

enum iss_fh {
#define X(n) FH_##n,
	ISS_FH_LIST(X)
#undef X
	FH_COUNT
};

/* The compact form of the decoded instruction i. */
static void fast_of(const struct rv_insn *i, struct iss_fast *f)
{
	static const uint8_t direct[RV_OP_COUNT] = {
#define D(n) [RV_OP_##n] = FH_##n,
		D(LUI) D(AUIPC) D(BEQ) D(BNE) D(BLT) D(BGE) D(BLTU) D(BGEU)
		D(LB) D(LH) D(LW) D(LD) D(LBU) D(LHU) D(LWU) D(FLW) D(FLD)
		D(SB) D(SH) D(SW) D(SD) D(FSW) D(FSD)
		D(ADDI) D(SLTI) D(SLTIU) D(XORI) D(ORI) D(ANDI) D(SLLI) D(SRLI) D(SRAI)
		D(ADD) D(SUB) D(SLL) D(SLT) D(SLTU) D(XOR) D(SRL) D(SRA) D(OR) D(AND)
		D(ADDIW) D(SLLIW) D(SRLIW) D(SRAIW) D(ADDW) D(SUBW) D(SLLW) D(SRLW) D(SRAW)
		D(MUL) D(MULW)
#undef D
		[RV_OP_MULH] = FH_MDIV, [RV_OP_MULHSU] = FH_MDIV, [RV_OP_MULHU] = FH_MDIV,
		[RV_OP_DIV] = FH_MDIV, [RV_OP_DIVU] = FH_MDIV, [RV_OP_REM] = FH_MDIV,
		[RV_OP_REMU] = FH_MDIV, [RV_OP_DIVW] = FH_MDIV, [RV_OP_DIVUW] = FH_MDIV,
		[RV_OP_REMW] = FH_MDIV, [RV_OP_REMUW] = FH_MDIV,
		[RV_OP_FENCE] = FH_NOP,
	};
	uint8_t h = direct[i->op];

	f->rd = i->rd;
	f->rs1 = i->rs1;
	f->rs2 = i->rs2;
	f->len = i->len;
	f->imm = i->imm;
	if (i->op == RV_OP_JAL)
		h = i->rd ? FH_JAL : FH_J;
	else if (i->op == RV_OP_JALR)
		h = i->rd ? FH_JALR : FH_JR;
	else if (h == FH_NOP || h == 0)
		h = (i->fmt >= RV_FMT_FFF && h == 0) ? FH_FP : h ? h : FH_SLOW;
	else if (i->rd == 0 && (i->flags & RV_F_RD_X))
		h = (i->flags & RV_F_LOAD) ? FH_SLOW : FH_NOP;
	f->h = h;
}

/* Fetch and decode the instruction at pc (iss_code of its page, see
 * iss_int.h): the miss path. */
static int fetch_slow(struct iss *s, uint64_t pc, const struct rv_insn **out)
{
	unsigned off = (unsigned)(pc & ISS_PAGE_MASK);
	struct iss_ctlb *ct;
	struct iss_code *c;
	struct rv_insn *e;
	uint8_t *data;
	uint64_t hi;
	uint32_t raw;

	c = iss_mem_code(&s->mem, pc, sizeof(*c), &data);
	if (!c) {
		if (!iss_mem_ptr(&s->mem, pc, 1))
			return iss__fail(s, "pc %#llx: instruction fetch from unmapped memory",
					 (unsigned long long)pc);
		return iss__fail(s, "pc %#llx: out of memory for decoded instructions",
				 (unsigned long long)pc);
	}
	ct = &s->ctlb[(pc >> ISS_PAGE_SHIFT) & (ISS_CTLB_SIZE - 1)];
	ct->vpn = pc >> ISS_PAGE_SHIFT;
	ct->gen = s->mem.code_gen;
	ct->code = c;
	e = &c->insn[off >> 1];
	if (c->fast[off >> 1].h) {
		*out = e;
		return ISS_OK;
	}
	raw = (uint32_t)data[off] | (uint32_t)data[off + 1] << 8;
	if ((raw & 3) == 3) {
		if (off == ISS_PAGE_SIZE - 2) {
			/* crosses into the next page: decode, do not cache */
			if (load(s, pc + 2, 2, &hi))
				return iss__fail(s, "pc %#llx: instruction fetch from unmapped memory",
						 (unsigned long long)pc + 2);
			raw |= (uint32_t)hi << 16;
			e = &s->xinsn;
		} else {
			raw |= (uint32_t)data[off + 2] << 16 | (uint32_t)data[off + 3] << 24;
		}
	}
	if (rv_decode_word(raw, pc, e) < 0)
		return iss__fail(s, "pc %#llx: illegal instruction %0*x: not RV64GC",
				 (unsigned long long)pc, (raw & 3) == 3 ? 8 : 4, raw);
	if (e != &s->xinsn)
		fast_of(e, &c->fast[off >> 1]);
	*out = e;
	return ISS_OK;
}

/* Full-system fetch: pc translated for execution, the code block found by its physical
 * page (so a page executed through two mappings is decoded once; execution uses s->pc, never
 * the decoded target). An illegal encoding is exception 2 with the bits as tval. */
static int sys_fetch(struct iss *s, uint64_t pc, const struct rv_insn **out)
{
	unsigned off = (unsigned)(pc & ISS_PAGE_MASK);
	uint64_t pa, pa2;
	struct iss_ctlb *ct;
	struct iss_code *c;
	struct rv_insn *e;
	uint8_t *data, *p;
	uint32_t raw;
	int cause;

	if (pc >> ISS_PAGE_SHIFT == s->fvpn) {
		pa = s->fppn << ISS_PAGE_SHIFT | off;
	} else {
		if ((cause = s->sys->xlate(s->sys_ctx, pc, ISS_ACC_X, &pa)))
			return sys_exc(s, (uint64_t)cause, pc);
		s->fvpn = pc >> ISS_PAGE_SHIFT;
		s->fppn = pa >> ISS_PAGE_SHIFT;
	}
	ct = &s->ctlb[(pa >> ISS_PAGE_SHIFT) & (ISS_CTLB_SIZE - 1)];
	if (ct->vpn == pa >> ISS_PAGE_SHIFT && ct->gen == s->mem.code_gen &&
	    ct->code->fast[off >> 1].h) {
		*out = &ct->code->insn[off >> 1];
		return 0;
	}
	c = iss_mem_code(&s->mem, pa, sizeof(*c), &data);
	if (!c)
		return sys_exc(s, 1, pc);
	ct->vpn = pa >> ISS_PAGE_SHIFT;
	ct->gen = s->mem.code_gen;
	ct->code = c;
	e = &c->insn[off >> 1];
	if (c->fast[off >> 1].h) {
		*out = e;
		return 0;
	}
	raw = (uint32_t)data[off] | (uint32_t)data[off + 1] << 8;
	if ((raw & 3) == 3) {
		if (off == ISS_PAGE_SIZE - 2) {
			if ((cause = s->sys->xlate(s->sys_ctx, pc + 2, ISS_ACC_X, &pa2)))
				return sys_exc(s, (uint64_t)cause, pc + 2);
			if (!(p = iss_mem_ptr(&s->mem, pa2, 2)))
				return sys_exc(s, 1, pc + 2);
			raw |= (uint32_t)p[0] << 16 | (uint32_t)p[1] << 24;
			e = &s->xinsn;
		} else {
			raw |= (uint32_t)data[off + 2] << 16 | (uint32_t)data[off + 3] << 24;
		}
	}
	if (rv_decode_word(raw, pc, e) < 0)
		return sys_exc(s, 2, raw);
	if (e != &s->xinsn)
		fast_of(e, &c->fast[off >> 1]);
	*out = e;
	return 0;
}

/* Fetch and decode the instruction at pc into *out. */
static inline int fetch(struct iss *s, uint64_t pc, const struct rv_insn **out)
{
	uint64_t vpn = pc >> ISS_PAGE_SHIFT;
	const struct iss_ctlb *ct = &s->ctlb[vpn & (ISS_CTLB_SIZE - 1)];
	unsigned k = (unsigned)(pc & ISS_PAGE_MASK) >> 1;

	if (ct->vpn == vpn && ct->gen == s->mem.code_gen && ct->code->fast[k].h) {
		*out = &ct->code->insn[k];
		return ISS_OK;
	}
	return fetch_slow(s, pc, out);
}

/* ---- instruction groups ---------------------------------------------- */

static uint64_t alu(const struct rv_insn *i, uint64_t a, uint64_t b)
{
	switch (i->op) {
	case RV_OP_ADD: case RV_OP_ADDI: return a + b;
	case RV_OP_SUB: return a - b;
	case RV_OP_SLL: case RV_OP_SLLI: return a << (b & 63);
	case RV_OP_SLT: case RV_OP_SLTI: return (int64_t)a < (int64_t)b;
	case RV_OP_SLTU: case RV_OP_SLTIU: return a < b;
	case RV_OP_XOR: case RV_OP_XORI: return a ^ b;
	case RV_OP_SRL: case RV_OP_SRLI: return a >> (b & 63);
	case RV_OP_SRA: case RV_OP_SRAI: return (uint64_t)((int64_t)a >> (b & 63));
	case RV_OP_OR: case RV_OP_ORI: return a | b;
	case RV_OP_AND: case RV_OP_ANDI: return a & b;
	case RV_OP_ADDW: case RV_OP_ADDIW: return (uint64_t)sext32(a + b);
	case RV_OP_SUBW: return (uint64_t)sext32(a - b);
	case RV_OP_SLLW: case RV_OP_SLLIW: return (uint64_t)sext32((uint32_t)a << (b & 31));
	case RV_OP_SRLW: case RV_OP_SRLIW: return (uint64_t)sext32((uint32_t)a >> (b & 31));
	case RV_OP_SRAW: case RV_OP_SRAIW:
		return (uint64_t)(int64_t)((int32_t)(uint32_t)a >> (b & 31));
	case RV_OP_MUL: return a * b;
	case RV_OP_MULH: return (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64);
	case RV_OP_MULHSU:
		return (uint64_t)(((__int128)(int64_t)a * (unsigned __int128)b) >> 64);
	case RV_OP_MULHU: return (uint64_t)(((unsigned __int128)a * b) >> 64);
	case RV_OP_MULW: return (uint64_t)sext32((uint32_t)a * (uint32_t)b);
	case RV_OP_DIV:
		if (b == 0) return ~0ull;
		if ((int64_t)a == INT64_MIN && (int64_t)b == -1) return a;
		return (uint64_t)((int64_t)a / (int64_t)b);
	case RV_OP_DIVU: return b == 0 ? ~0ull : a / b;
	case RV_OP_REM:
		if (b == 0) return a;
		if ((int64_t)a == INT64_MIN && (int64_t)b == -1) return 0;
		return (uint64_t)((int64_t)a % (int64_t)b);
	case RV_OP_REMU: return b == 0 ? a : a % b;
	case RV_OP_DIVW: {
		int32_t x = (int32_t)a, y = (int32_t)b;
		if (y == 0) return ~0ull;
		if (x == INT32_MIN && y == -1) return (uint64_t)(int64_t)x;
		return (uint64_t)(int64_t)(x / y);
	}
	case RV_OP_DIVUW: {
		uint32_t x = (uint32_t)a, y = (uint32_t)b;
		return y == 0 ? ~0ull : (uint64_t)sext32(x / y);
	}
	case RV_OP_REMW: {
		int32_t x = (int32_t)a, y = (int32_t)b;
		if (y == 0) return (uint64_t)(int64_t)x;
		if (x == INT32_MIN && y == -1) return 0;
		return (uint64_t)(int64_t)(x % y);
	}
	case RV_OP_REMUW: {
		uint32_t x = (uint32_t)a, y = (uint32_t)b;
		return (uint64_t)sext32(y == 0 ? x : x % y);
	}
	default:
		return 0;
	}
}

static int branch_taken(const struct rv_insn *i, uint64_t a, uint64_t b)
{
	switch (i->op) {
	case RV_OP_BEQ: return a == b;
	case RV_OP_BNE: return a != b;
	case RV_OP_BLT: return (int64_t)a < (int64_t)b;
	case RV_OP_BGE: return (int64_t)a >= (int64_t)b;
	case RV_OP_BLTU: return a < b;
	default: return a >= b; /* BGEU */
	}
}

/* AMO arithmetic on the loaded value (already sign-extended for .w). */
static uint64_t amo_op(enum rv_op op, uint64_t old, uint64_t src, int word)
{
	int64_t so = word ? sext32(old) : (int64_t)old;
	int64_t ss = word ? sext32(src) : (int64_t)src;
	uint64_t uo = word ? (uint32_t)old : old, us = word ? (uint32_t)src : src;

	switch (op) {
	case RV_OP_AMOSWAP_W: case RV_OP_AMOSWAP_D: return src;
	case RV_OP_AMOADD_W: case RV_OP_AMOADD_D: return old + src;
	case RV_OP_AMOXOR_W: case RV_OP_AMOXOR_D: return old ^ src;
	case RV_OP_AMOAND_W: case RV_OP_AMOAND_D: return old & src;
	case RV_OP_AMOOR_W: case RV_OP_AMOOR_D: return old | src;
	case RV_OP_AMOMIN_W: case RV_OP_AMOMIN_D: return so < ss ? old : src;
	case RV_OP_AMOMAX_W: case RV_OP_AMOMAX_D: return so > ss ? old : src;
	case RV_OP_AMOMINU_W: case RV_OP_AMOMINU_D: return uo < us ? old : src;
	default: return uo > us ? old : src; /* AMOMAXU */
	}
}

static int exec_amo(struct iss *s, const struct rv_insn *i, struct iss_retired *info)
{
	uint64_t a = s->x[i->rs1], old, n = i->mem_size;
	int word = n == 4;

	info->mem_addr = a;
	info->mem_size = (uint8_t)n;
	if (s->sys && (a & (n - 1)))
		return sys_exc(s, i->op == RV_OP_LR_W || i->op == RV_OP_LR_D ? 4 : 6, a);
	if (s->sys && i->op != RV_OP_LR_W && i->op != RV_OP_LR_D && i->op != RV_OP_SC_W &&
	    i->op != RV_OP_SC_D && sys_rw(s, a, (unsigned)n, ISS_ACC_W, 0, &old))
		return -1;	/* an AMO faults as a store */
	if (a & (n - 1))
		return iss__fail(s, "pc %#llx: insn %08x: misaligned atomic access to %#llx",
				 (unsigned long long)s->pc, i->raw, (unsigned long long)a);
	switch (i->op) {
	case RV_OP_LR_W: case RV_OP_LR_D:
		if (load(s, a, (unsigned)n, &old))
			goto fault;
		s->x[i->rd] = word ? (uint64_t)sext32(old) : old;
		s->res_valid = 1;
		s->res_addr = a;
		return ISS_OK;
	case RV_OP_SC_W: case RV_OP_SC_D:
		if (s->res_valid && s->res_addr == a) {
			if (store(s, a, (unsigned)n, s->x[i->rs2]))
				goto fault;
			s->x[i->rd] = 0;
		} else {
			s->x[i->rd] = 1;
		}
		s->res_valid = 0;
		return ISS_OK;
	default:
		if (load(s, a, (unsigned)n, &old))
			goto fault;
		if (store(s, a, (unsigned)n, amo_op(i->op, old, s->x[i->rs2], word)))
			goto fault;
		s->x[i->rd] = word ? (uint64_t)sext32(old) : old;
		return ISS_OK;
	}
fault:
	return iss__fail(s, "pc %#llx: insn %08x: atomic access to unmapped address %#llx",
			 (unsigned long long)s->pc, i->raw, (unsigned long long)a);
}

/* Read a CSR; returns 0 or -1 if it is not available in user mode. */
static int csr_read(struct iss *s, unsigned csr, uint64_t *v)
{
	if (s->sys && csr != CSR_FFLAGS && csr != CSR_FRM && csr != CSR_FCSR &&
	    csr != TIPROF_SD_CSR_PFSTATE)
		return s->sys->csr_read(s->sys_ctx, csr, v);
	switch (csr) {
	case CSR_FFLAGS: *v = s->fflags; return 0;
	case CSR_FRM: *v = s->frm; return 0;
	case CSR_FCSR: *v = s->frm << 5 | s->fflags; return 0;
	case CSR_CYCLE: case CSR_INSTRET: *v = s->instret; return 0;
	case CSR_TIME: *v = iss__time_ns(s) / 100; return 0; /* 10 MHz */
	case TIPROF_SD_CSR_PFSTATE: *v = s->pfstate; return 0;
	}
	return -1;
}

static int csr_write(struct iss *s, unsigned csr, uint64_t v)
{
	if (s->sys && csr != CSR_FFLAGS && csr != CSR_FRM && csr != CSR_FCSR &&
	    csr != TIPROF_SD_CSR_PFSTATE)
		return s->sys->csr_write(s->sys_ctx, csr, v);
	switch (csr) {
	case CSR_FFLAGS: s->fflags = (unsigned)v & 31; return 0;
	case CSR_FRM: s->frm = (unsigned)v & 7; return 0;
	case CSR_FCSR: s->fflags = (unsigned)v & 31; s->frm = ((unsigned)v >> 5) & 7; return 0;
	case TIPROF_SD_CSR_PFSTATE: iss_set_pfstate(s, v); return 0;
	}
	return -1;
}

static int exec_csr(struct iss *s, const struct rv_insn *i)
{
	uint64_t old, src = (i->fmt == RV_FMT_CSRI) ? (uint64_t)i->imm : s->x[i->rs1];
	int writes;

	if (csr_read(s, i->csr, &old))
		goto bad;
	switch (i->op) {
	case RV_OP_CSRRW: case RV_OP_CSRRWI:
		if (csr_write(s, i->csr, src))
			goto bad;
		break;
	case RV_OP_CSRRS: case RV_OP_CSRRSI:
		writes = i->fmt == RV_FMT_CSRI ? i->imm != 0 : i->rs1 != 0;
		if (writes && csr_write(s, i->csr, old | src))
			goto bad;
		break;
	default:
		writes = i->fmt == RV_FMT_CSRI ? i->imm != 0 : i->rs1 != 0;
		if (writes && csr_write(s, i->csr, old & ~src))
			goto bad;
		break;
	}
	s->x[i->rd] = old;
	return ISS_OK;
bad:
	return iss__fail(s, "pc %#llx: insn %08x: CSR %#x (%s) is not available in user mode",
			 (unsigned long long)s->pc, i->raw, i->csr,
			 rv_csr_name(i->csr) ? rv_csr_name(i->csr) : "unnamed");
}

/* ---- execute --------------------------------------------------------- */

/* Execute i (at s->pc) and describe it in *info: every instruction. */
static int exec(struct iss *s, const struct rv_insn *i, struct iss_retired *info)
{
	uint64_t pc = s->pc, next, a, b, v;
	int r = ISS_OK;

	info->pc = pc;
	info->raw = i->raw;
	info->insn = *i;
	info->mem_size = 0;
	info->mem_addr = 0;
	info->taken = 0;
	info->target = 0;
	info->is_syscall = 0;
	next = pc + i->len;
	a = s->x[i->rs1];
	b = s->x[i->rs2];

	switch (i->fmt) {
	case RV_FMT_R:
		s->x[i->rd] = alu(i, a, b);
		break;
	case RV_FMT_I:
	case RV_FMT_SHI:
		s->x[i->rd] = alu(i, a, (uint64_t)i->imm);
		break;
	case RV_FMT_U:
		s->x[i->rd] = (uint64_t)i->imm + (i->op == RV_OP_AUIPC ? pc : 0);
		break;
	case RV_FMT_JAL:
		s->x[i->rd] = next;
		next = pc + (uint64_t)i->imm;
		info->taken = 1;
		break;
	case RV_FMT_JALR:
		v = (a + (uint64_t)i->imm) & ~1ull;
		s->x[i->rd] = next;
		next = v;
		info->taken = 1;
		break;
	case RV_FMT_B:
		if (branch_taken(i, a, b)) {
			next = pc + (uint64_t)i->imm;
			info->taken = 1;
		}
		break;
	case RV_FMT_LOAD:
	case RV_FMT_FLOAD:
		info->mem_addr = a + (uint64_t)i->imm;
		info->mem_size = i->mem_size;
		if (load(s, info->mem_addr, i->mem_size, &v))
			return iss__fail(s, "pc %#llx: insn %08x: load from unmapped address %#llx",
					 (unsigned long long)pc, i->raw,
					 (unsigned long long)info->mem_addr);
		switch (i->op) {
		case RV_OP_LB: v = (uint64_t)(int64_t)(int8_t)v; break;
		case RV_OP_LH: v = (uint64_t)(int64_t)(int16_t)v; break;
		case RV_OP_LW: v = (uint64_t)sext32(v); break;
		case RV_OP_FLW: v |= 0xffffffff00000000ull; break;
		default: break;
		}
		if (i->fmt == RV_FMT_FLOAD)
			s->f[i->rd] = v;
		else
			s->x[i->rd] = v;
		break;
	case RV_FMT_STORE:
	case RV_FMT_FSTORE:
		info->mem_addr = a + (uint64_t)i->imm;
		info->mem_size = i->mem_size;
		if (store(s, info->mem_addr, i->mem_size,
			  i->fmt == RV_FMT_FSTORE ? s->f[i->rs2] : b))
			return iss__fail(s, "pc %#llx: insn %08x: store to unmapped address %#llx",
					 (unsigned long long)pc, i->raw,
					 (unsigned long long)info->mem_addr);
		break;
	case RV_FMT_LR:
	case RV_FMT_AMO:
		if (exec_amo(s, i, info))
			return ISS_ERROR;
		break;
	case RV_FMT_CSR:
	case RV_FMT_CSRI:
		if (exec_csr(s, i))
			return ISS_ERROR;
		break;
	case RV_FMT_FENCE:
		break;
	case RV_FMT_SFENCE:
	case RV_FMT_NONE:
		if (s->sys && i->op != RV_OP_FENCE_I) {
			int c = s->sys->sys(s->sys_ctx, i, pc, &next);

			if (c)
				return sys_exc(s, (uint64_t)c, c == 2 ? i->raw : c == 3 ? pc : 0);
			info->is_syscall = i->op == RV_OP_ECALL;
			info->taken = next != pc + i->len;
			break;
		}
		if (i->fmt == RV_FMT_SFENCE)
			return iss__fail(s, "pc %#llx: insn %08x: sfence.vma is privileged",
					 (unsigned long long)pc, i->raw);
		switch (i->op) {
		case RV_OP_FENCE_I:
			iss_mem_drop_code(&s->mem);
			break;
		case RV_OP_ECALL:
			info->is_syscall = 1;
			info->syscall_nr = (int64_t)s->x[17];
			r = iss__syscall(s, i);
			if (r == ISS_ERROR)
				return r;
			break;
		case RV_OP_EBREAK:
			return iss__fail(s, "pc %#llx: insn %08x: ebreak (SIGTRAP delivery is not emulated)",
					 (unsigned long long)pc, i->raw);
		default:
			return iss__fail(s, "pc %#llx: insn %08x: %s is privileged",
					 (unsigned long long)pc, i->raw, rv_op_name(i->op));
		}
		break;
	/* Xtpsd (docs/seldisp.md) */
	case RV_FMT_PFCTL:
		pf_ctl(s, i);
		break;
	case RV_FMT_PFBLK:	/* flag clear: the block up to the follow address is skipped */
		if (!pf_on(s, i->pf)) {
			next = pc + (uint64_t)i->imm;
			info->taken = 1;
		}
		break;
	case RV_FMT_PFINC:
	case RV_FMT_PFINCR:	/* flag clear: a no-op (no access, no fault) */
		if (!pf_on(s, i->pf))
			break;
		info->mem_addr = (i->fmt == RV_FMT_PFINC ? pc : a) + (uint64_t)i->imm;
		info->mem_size = 8;
		if (load(s, info->mem_addr, 8, &v) || store(s, info->mem_addr, 8, v + 1))
			return iss__fail(s, "pc %#llx: insn %08x: %s of unmapped address %#llx",
					 (unsigned long long)pc, i->raw, rv_op_name(i->op),
					 (unsigned long long)info->mem_addr);
		break;
	default:
		if (iss__exec_fp(s, i))
			return ISS_ERROR;
		break;
	}
	s->x[0] = 0;
	if (info->taken)
		info->target = next;
	info->next_pc = next;
	s->pc = next;
	s->instret++;
	return r;
}

/* ---- the functional run loop ---------------------------------------- */

/* Full-system step: an exception (recorded by sys_exc, or any other stop of the user-mode
 * ISS, which is an illegal instruction) goes to the machine's trap hook. */
static int sys_step(struct iss *s, struct iss_retired *info)
{
	const struct rv_insn *i = NULL;
	uint64_t cause, tval;
	int r;

	s->exc_cause = 0;
	if (sys_fetch(s, s->pc, &i))
		r = ISS_ERROR;
	else if (s->fp_off && ((i->flags & RV_F_FP) ||
				((i->flags & RV_F_CSR) && i->csr >= CSR_FFLAGS && i->csr <= CSR_FCSR)))
		r = ISS_ERROR;	/* FS = Off: illegal instruction */
	else
		r = exec(s, i, info);
	if (r != ISS_ERROR)
		return r;
	cause = s->exc_cause ? s->exc_cause : 2;
	tval = s->exc_cause ? s->exc_tval : i ? i->raw : 0;
	s->x[0] = 0;
	s->res_valid = 0;
	s->pc = s->sys->trap(s->sys_ctx, cause, tval, s->pc);
	return ISS_TRAP;
}

int iss_step(struct iss *s, struct iss_retired *info)
{
	const struct rv_insn *i;

	if (s->sys) {
		struct iss_retired scratch;

		return sys_step(s, info ? info : &scratch);
	}
	if (!info)
		return iss_run(s, 1);
	if (s->exited)
		return iss__fail(s, "program has exited");
	if (fetch(s, s->pc, &i))
		return ISS_ERROR;
	return exec(s, i, info);
}

/* Threaded dispatch over the compact slots of the current page: pc, the
 * count and the page stay in locals; s->pc and s->instret are written
 * back (SYNC) before anything that reads or changes them. Fast stores
 * never hit a page with decoded code (its lookup-cache entry has no write
 * pointer), so only the exec()/FP/decode paths can drop the current
 * page's block: they force a new lookup (vpn = UINT64_MAX). */
int iss_run(struct iss *s, uint64_t max_insns)
{
	static const void *const labels[FH_COUNT] = {
#define X(n) [FH_##n] = &&fh_##n,
		ISS_FH_LIST(X)
#undef X
	};
	struct iss_retired scratch;
	uint64_t *x = s->x, *fr = s->f;
	uint64_t pc = s->pc, vpn = UINT64_MAX, n = 0, i0 = s->instret;
	const struct iss_fast *f = NULL;
	struct iss_code *c = NULL;
	const struct rv_insn *in;
	const struct iss_ctlb *ct;
	struct iss_tlb *t;
	uint64_t a, v;
	int r;

	if (s->exited)
		return iss__fail(s, "program has exited");
	if (s->sys) {
		for (; n < max_insns; n++)
			if ((r = sys_step(s, &scratch)) == ISS_ERROR)
				return r;
		return ISS_OK;
	}

#define SYNC() do { s->pc = pc; s->instret = i0 + n; } while (0)
#define RESYNC() do { pc = s->pc; n = s->instret - i0; vpn = UINT64_MAX; } while (0)
#define DISPATCH() do {							\
	if (n == max_insns)						\
		goto out;						\
	if (pc >> ISS_PAGE_SHIFT != vpn)				\
		goto lookup;						\
	f = &c->fast[(pc & ISS_PAGE_MASK) >> 1];			\
	goto *labels[f->h];						\
} while (0)
#define NEXT() do { pc += f->len; n++; DISPATCH(); } while (0)
#define TAKEN(tgt) do { pc = (tgt); n++; DISPATCH(); } while (0)
#define BR(cond) do {							\
	if (cond)							\
		TAKEN(pc + (uint64_t)f->imm);				\
	NEXT();								\
} while (0)
/* Load/store through the lookup cache; a miss, an unmapped address or a
 * page-crossing access (or, for stores, a page with decoded code) goes
 * through exec(). */
#define LOAD(T, SX, dst, box) do {						\
	a = x[f->rs1] + (uint64_t)f->imm;				\
	t = &s->mem.tlb[(a >> ISS_PAGE_SHIFT) & (ISS_TLB_SIZE - 1)];	\
	if (t->vpn != a >> ISS_PAGE_SHIFT || !t->data ||		\
	    (a & ISS_PAGE_MASK) > ISS_PAGE_SIZE - sizeof(T))		\
		goto fh_SLOW;						\
	{ T v_; memcpy(&v_, t->data + (a & ISS_PAGE_MASK), sizeof(T));	\
	  (dst) = (uint64_t)(SX)v_ | (box); }					\
	NEXT();								\
} while (0)
#define STORE(T, src) do {						\
	a = x[f->rs1] + (uint64_t)f->imm;				\
	t = &s->mem.tlb[(a >> ISS_PAGE_SHIFT) & (ISS_TLB_SIZE - 1)];	\
	if (t->vpn != a >> ISS_PAGE_SHIFT || !t->wdata ||		\
	    (a & ISS_PAGE_MASK) > ISS_PAGE_SIZE - sizeof(T))		\
		goto fh_SLOW;						\
	{ T v_ = (T)(src); memcpy(t->wdata + (a & ISS_PAGE_MASK), &v_, sizeof(T)); } \
	NEXT();								\
} while (0)
#define OP(expr) do { x[f->rd] = (expr); NEXT(); } while (0)
#define A (x[f->rs1])
#define B (x[f->rs2])
#define IMM ((uint64_t)f->imm)

	DISPATCH();
lookup:
	vpn = pc >> ISS_PAGE_SHIFT;
	ct = &s->ctlb[vpn & (ISS_CTLB_SIZE - 1)];
	if (ct->vpn != vpn || ct->gen != s->mem.code_gen)
		goto fh_DECODE;
	c = ct->code;
	f = &c->fast[(pc & ISS_PAGE_MASK) >> 1];
	goto *labels[f->h];
fh_DECODE:
	SYNC();
	if (fetch_slow(s, pc, &in))
		return ISS_ERROR;
	if (in == &s->xinsn) {
		/* page-crossing: not cached */
		r = exec(s, in, &scratch);
		RESYNC();
		if (r != ISS_OK)
			return r;
		DISPATCH();
	}
	vpn = UINT64_MAX;
	goto lookup;
fh_SLOW:
	SYNC();
	r = exec(s, &c->insn[(pc & ISS_PAGE_MASK) >> 1], &scratch);
	RESYNC();
	if (r != ISS_OK)
		return r;
	DISPATCH();
fh_FP:
	SYNC();
	if (iss__exec_fp(s, &c->insn[(pc & ISS_PAGE_MASK) >> 1]))
		return ISS_ERROR;
	x[0] = 0;
	NEXT();
fh_NOP: NEXT();
fh_LUI: OP(IMM);
fh_AUIPC: OP(pc + IMM);
fh_JAL: x[f->rd] = pc + f->len; TAKEN(pc + IMM);
fh_J: TAKEN(pc + IMM);
fh_JALR: v = (A + IMM) & ~1ull; x[f->rd] = pc + f->len; TAKEN(v);
fh_JR: TAKEN((A + IMM) & ~1ull);
fh_BEQ: BR(A == B);
fh_BNE: BR(A != B);
fh_BLT: BR((int64_t)A < (int64_t)B);
fh_BGE: BR((int64_t)A >= (int64_t)B);
fh_BLTU: BR(A < B);
fh_BGEU: BR(A >= B);
fh_LB: LOAD(int8_t, int64_t, x[f->rd], 0);
fh_LH: LOAD(int16_t, int64_t, x[f->rd], 0);
fh_LW: LOAD(int32_t, int64_t, x[f->rd], 0);
fh_LD: LOAD(uint64_t, uint64_t, x[f->rd], 0);
fh_LBU: LOAD(uint8_t, uint64_t, x[f->rd], 0);
fh_LHU: LOAD(uint16_t, uint64_t, x[f->rd], 0);
fh_LWU: LOAD(uint32_t, uint64_t, x[f->rd], 0);
fh_FLW: LOAD(uint32_t, uint64_t, fr[f->rd], 0xffffffff00000000ull); /* NaN-boxed */
fh_FLD: LOAD(uint64_t, uint64_t, fr[f->rd], 0);
fh_SB: STORE(uint8_t, B);
fh_SH: STORE(uint16_t, B);
fh_SW: STORE(uint32_t, B);
fh_SD: STORE(uint64_t, B);
fh_FSW: STORE(uint32_t, fr[f->rs2]);
fh_FSD: STORE(uint64_t, fr[f->rs2]);
fh_ADDI: OP(A + IMM);
fh_SLTI: OP((int64_t)A < f->imm);
fh_SLTIU: OP(A < IMM);
fh_XORI: OP(A ^ IMM);
fh_ORI: OP(A | IMM);
fh_ANDI: OP(A & IMM);
fh_SLLI: OP(A << (IMM & 63));
fh_SRLI: OP(A >> (IMM & 63));
fh_SRAI: OP((uint64_t)((int64_t)A >> (IMM & 63)));
fh_ADD: OP(A + B);
fh_SUB: OP(A - B);
fh_SLL: OP(A << (B & 63));
fh_SLT: OP((int64_t)A < (int64_t)B);
fh_SLTU: OP(A < B);
fh_XOR: OP(A ^ B);
fh_SRL: OP(A >> (B & 63));
fh_SRA: OP((uint64_t)((int64_t)A >> (B & 63)));
fh_OR: OP(A | B);
fh_AND: OP(A & B);
fh_ADDIW: OP((uint64_t)sext32(A + IMM));
fh_SLLIW: OP((uint64_t)sext32((uint32_t)A << (IMM & 31)));
fh_SRLIW: OP((uint64_t)sext32((uint32_t)A >> (IMM & 31)));
fh_SRAIW: OP((uint64_t)(int64_t)((int32_t)(uint32_t)A >> (IMM & 31)));
fh_ADDW: OP((uint64_t)sext32(A + B));
fh_SUBW: OP((uint64_t)sext32(A - B));
fh_SLLW: OP((uint64_t)sext32((uint32_t)A << (B & 31)));
fh_SRLW: OP((uint64_t)sext32((uint32_t)A >> (B & 31)));
fh_SRAW: OP((uint64_t)(int64_t)((int32_t)(uint32_t)A >> (B & 31)));
fh_MUL: OP(A * B);
fh_MULW: OP((uint64_t)sext32((uint32_t)A * (uint32_t)B));
fh_MDIV: OP(alu(&c->insn[(pc & ISS_PAGE_MASK) >> 1], A, B));
out:
	SYNC();
	return ISS_OK;
#undef SYNC
#undef RESYNC
#undef DISPATCH
#undef NEXT
#undef TAKEN
#undef BR
#undef LOAD
#undef STORE
#undef OP
#undef A
#undef B
#undef IMM
}
