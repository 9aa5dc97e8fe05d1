/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_ctr.h - the fields of a RISC-V Control Transfer Records entry (Smctr/Ssctr 1.0,
 * docs/lbr.md §5.1): what the riscv64 tracer stores for each taken branch, so that a stack
 * record is a CTR buffer read out — ctrsource (pc of the transfer, bit 0 = V), ctrtarget
 * (its target, bit 0 = MISP), ctrdata (TYPE[3:0], CCV[15], CCM[27:16], CCE[31:28]). Pure
 * inline functions and constants: async-signal-safe, used by the back ends, the records
 * file, the converters and the tests. */
#ifndef TIPROF_LBR_CTR_H
#define TIPROF_LBR_CTR_H

#include <stdint.h>

/* ctrdata.TYPE: the spec's transfer type encodings. */
enum lbr_ctr_type {
	LBR_CTR_NONE = 0,          /* none (not a valid record type for a recorded transfer) */
	LBR_CTR_EXC = 1,           /* exception */
	LBR_CTR_INTR = 2,          /* interrupt */
	LBR_CTR_TRET = 3,          /* trap return (xRET) */
	LBR_CTR_NTBR = 4,          /* not-taken branch */
	LBR_CTR_TKBR = 5,          /* taken branch */
	LBR_CTR_ICALL = 8,         /* indirect call: jalr/c.jalr, rd link, not a swap */
	LBR_CTR_DCALL = 9,         /* direct call: jal with rd = x1 or x5 */
	LBR_CTR_IJMP = 10,         /* indirect jump without linkage: jalr x0, rs1 not a link */
	LBR_CTR_DJMP = 11,         /* direct jump without linkage: jal x0, c.j */
	LBR_CTR_CORSWAP = 12,      /* co-routine swap: jalr x1, x5 / jalr x5, x1 / c.jalr x5 */
	LBR_CTR_RET = 13,          /* function return: jalr rd not a link, rs1 = x1 or x5 */
	LBR_CTR_OIJMP = 14,        /* other indirect jump (with linkage): jalr rd not x0/x1/x5 */
	LBR_CTR_ODJMP = 15,        /* other direct jump (with linkage): jal rd not x0/x1/x5 */
};

/* Register bits. */
#define LBR_CTRSOURCE_V 1ull      /* ctrsource bit 0: the entry is valid */
#define LBR_CTRTARGET_MISP 1ull   /* ctrtarget bit 0: mispredicted */
#define LBR_CTRDATA_TYPE 0xfull
#define LBR_CTRDATA_CCV (1ull << 15)
#define LBR_CTRDATA_CCM_SHIFT 16  /* CCM: 12-bit mantissa, bits 27:16 */
#define LBR_CTRDATA_CCE_SHIFT 28  /* CCE: 4-bit exponent, bits 31:28 */

/* ctrdata of a transfer of type `type` whose cycle count is not known (CCV = 0). */
static inline uint64_t lbr_ctrdata(unsigned type)
{
	return (uint64_t)(type & LBR_CTRDATA_TYPE);
}

/* Encode a cycle count into ctrdata's CCV/CCM/CCE (the value is rounded down to what the
 * format holds; counts beyond the largest are saturated to CCE = 15, CCM = 4095). */
static inline uint64_t lbr_ctrdata_cc(uint64_t data, uint64_t cycles)
{
	unsigned e = 0;
	uint64_t m = cycles;
	if (cycles >= 4096) {
		/* cycles = (4096 + CCM) << (CCE - 1) for CCE >= 1 */
		e = 1;
		while (e < 15 && (cycles >> (e - 1)) >= 8192)
			e++;
		m = (cycles >> (e - 1)) - 4096;
		if (m > 4095)
			m = 4095;
	}
	data &= ~(0xffffull << 16 | LBR_CTRDATA_CCV);
	return data | LBR_CTRDATA_CCV | m << LBR_CTRDATA_CCM_SHIFT | (uint64_t)e << LBR_CTRDATA_CCE_SHIFT;
}

/* The cycle count ctrdata holds, or -1 when CCV = 0. */
static inline int64_t lbr_ctrdata_cycles(uint64_t data)
{
	if (!(data & LBR_CTRDATA_CCV))
		return -1;
	uint64_t m = (data >> LBR_CTRDATA_CCM_SHIFT) & 0xfff, e = (data >> LBR_CTRDATA_CCE_SHIFT) & 0xf;
	return e ? (int64_t)((4096 + m) << (e - 1)) : (int64_t)m;
}

/* Short name of a type (dumps, `tiprof lbr script`, tests). */
static inline const char *lbr_ctr_type_name(unsigned type)
{
	static const char *const n[16] = { "none", "exc", "intr", "tret", "ntbr", "tkbr", "rsv6",
					   "rsv7", "icall", "dcall", "ijmp", "djmp", "corswap",
					   "ret", "oijmp", "odjmp" };
	return n[type & 15];
}

/* perf_branch_entry.type (include/uapi/linux/perf_event.h, PERF_BR_*) of a CTR type: what
 * `perf script -F brstack` prints as the branch type. */
enum { LBR_PERF_BR_UNKNOWN = 0, LBR_PERF_BR_COND = 1, LBR_PERF_BR_UNCOND = 2, LBR_PERF_BR_IND = 3,
       LBR_PERF_BR_CALL = 4, LBR_PERF_BR_IND_CALL = 5, LBR_PERF_BR_RET = 6,
       LBR_PERF_BR_SYSCALL = 7, LBR_PERF_BR_SYSRET = 8, LBR_PERF_BR_ERET = 11,
       LBR_PERF_BR_IRQ = 12 };
static inline unsigned lbr_ctr_perf_type(unsigned type)
{
	switch (type) {
	case LBR_CTR_EXC: return LBR_PERF_BR_SYSCALL;  /* ecall/ebreak/faults: no finer type */
	case LBR_CTR_INTR: return LBR_PERF_BR_IRQ;
	case LBR_CTR_TRET: return LBR_PERF_BR_ERET;
	case LBR_CTR_TKBR: return LBR_PERF_BR_COND;
	case LBR_CTR_ICALL: return LBR_PERF_BR_IND_CALL;
	case LBR_CTR_DCALL: return LBR_PERF_BR_CALL;
	case LBR_CTR_IJMP: return LBR_PERF_BR_IND;
	case LBR_CTR_DJMP: return LBR_PERF_BR_UNCOND;
	case LBR_CTR_CORSWAP: return LBR_PERF_BR_IND_CALL; /* a return and a call in one */
	case LBR_CTR_RET: return LBR_PERF_BR_RET;
	case LBR_CTR_OIJMP: return LBR_PERF_BR_IND;
	case LBR_CTR_ODJMP: return LBR_PERF_BR_UNCOND;
	default: return LBR_PERF_BR_UNKNOWN;             /* none, not-taken, reserved */
	}
}

/* perf's name of a PERF_BR_* type, as `perf script -F brstack` prints it ("" for unknown). */
static inline const char *lbr_perf_type_name(unsigned t)
{
	static const char *const n[] = { "", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET",
					 "SYSCALL", "SYSRET", "COND_CALL", "COND_RET", "ERET",
					 "IRQ" };
	return t < sizeof(n) / sizeof(n[0]) ? n[t] : "";
}

#endif
