/* SPDX-License-Identifier: Apache-2.0 */
/* ISS core: lifecycle, fetch/decode (through lib/isa) and execution of
 * the integer, memory, atomic, control-transfer and CSR instructions.
 * FP execution is in iss_fp.c, system calls in iss_syscall.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iss_int.h"

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

	if (!s || iss_mem_init(&s->mem)) {
		snprintf(err, errlen, "out of memory");
		free(s);
		return NULL;
	}
	s->dcache = calloc(ISS_DCACHE_SIZE, sizeof(*s->dcache));
	if (!s->dcache) {
		snprintf(err, errlen, "out of memory");
		iss_destroy(s);
		return NULL;
	}
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

void iss_destroy(struct iss *s)
{
	size_t k;

	if (!s)
		return;
	iss_mem_free(&s->mem);
	free(s->dcache);
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

/* Load n (1/2/4/8) bytes little-endian; returns 0 or -1 if unmapped. */
static int load(struct iss *s, uint64_t a, unsigned n, uint64_t *v)
{
	uint8_t *p = iss_mem_ptr(&s->mem, a, n);
	uint8_t b[8];

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
	uint8_t *p = iss_mem_ptr(&s->mem, a, n);

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

/* Fetch and decode the instruction at s->pc into *out (cached). */
static int fetch(struct iss *s, const struct rv_insn **out)
{
	uint64_t pc = s->pc, lo, hi = 0;
	uint32_t raw;
	struct iss_dentry *e;
	int r;

	if (load(s, pc, 2, &lo))
		return iss__fail(s, "pc %#llx: instruction fetch from unmapped memory",
				 (unsigned long long)pc);
	raw = (uint32_t)lo;
	if ((lo & 3) == 3) {
		if (load(s, pc + 2, 2, &hi))
			return iss__fail(s, "pc %#llx: instruction fetch from unmapped memory",
					 (unsigned long long)pc + 2);
		raw |= (uint32_t)hi << 16;
	}
	e = &s->dcache[(pc >> 1) & (ISS_DCACHE_SIZE - 1)];
	if (!e->valid || e->pc != pc || e->raw != raw) {
		r = rv_decode_word(raw, pc, &e->insn);
		if (r < 0) {
			e->valid = 0;
			return iss__fail(s, "pc %#llx: illegal instruction %0*x: not RV64GC",
					 (unsigned long long)pc, (lo & 3) == 3 ? 8 : 4, raw);
		}
		e->pc = pc;
		e->raw = raw;
		e->valid = 1;
	}
	*out = &e->insn;
	return ISS_OK;
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
	switch (csr) {
	case CSR_FFLAGS: *v = s->fflags; return 0;
	case CSR_FRM: *v = s->frm; return 0;
	case CSR_FCSR: *v = s->frm << 5 | s->fflags; return 0;
	case CSR_CYCLE: case CSR_INSTRET: *v = s->instret; return 0;
	case CSR_TIME: *v = iss__time_ns(s) / 100; return 0; /* 10 MHz */
	}
	return -1;
}

static int csr_write(struct iss *s, unsigned csr, uint64_t v)
{
	switch (csr) {
	case CSR_FFLAGS: s->fflags = (unsigned)v & 31; return 0;
	case CSR_FRM: s->frm = (unsigned)v & 7; return 0;
	case CSR_FCSR: s->fflags = (unsigned)v & 31; s->frm = ((unsigned)v >> 5) & 7; return 0;
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

/* ---- step ------------------------------------------------------------ */

int iss_step(struct iss *s, struct iss_retired *info)
{
	struct iss_retired scratch;
	const struct rv_insn *i = NULL;
	uint64_t pc = s->pc, next, a, b, v;
	int r = ISS_OK;

	if (s->exited)
		return iss__fail(s, "program has exited");
	if (fetch(s, &i))
		return ISS_ERROR;
	if (!info)
		info = &scratch;
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
	case RV_FMT_NONE:
		switch (i->op) {
		case RV_OP_FENCE_I:
			memset(s->dcache, 0, ISS_DCACHE_SIZE * sizeof(*s->dcache));
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
	case RV_FMT_SFENCE:
		return iss__fail(s, "pc %#llx: insn %08x: sfence.vma is privileged",
				 (unsigned long long)pc, i->raw);
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
