/* SPDX-License-Identifier: Apache-2.0 */
/* The full-system machine's hart (docs/fullsys.md): privilege modes, the M and S CSRs, trap
 * entry with delegation, mret/sret, WFI, interrupts, Sv39 translation with a TLB and
 * hardware A/D updates, counters. The ISS (sim/iss) executes the instructions and calls
 * these through its full-system hooks (struct iss_sys_ops). */
#include <stdlib.h>
#include <string.h>

#include "fs.h"

/* CSR numbers */
enum {
	CSR_SSTATUS = 0x100, CSR_SIE = 0x104, CSR_STVEC = 0x105, CSR_SCOUNTEREN = 0x106,
	CSR_SENVCFG = 0x10a, CSR_SSCRATCH = 0x140, CSR_SEPC = 0x141, CSR_SCAUSE = 0x142,
	CSR_STVAL = 0x143, CSR_SIP = 0x144, CSR_SATP = 0x180,
	CSR_MSTATUS = 0x300, CSR_MISA = 0x301, CSR_MEDELEG = 0x302, CSR_MIDELEG = 0x303,
	CSR_MIE = 0x304, CSR_MTVEC = 0x305, CSR_MCOUNTEREN = 0x306, CSR_MENVCFG = 0x30a,
	CSR_MCOUNTINHIBIT = 0x320, CSR_MSCRATCH = 0x340, CSR_MEPC = 0x341, CSR_MCAUSE = 0x342,
	CSR_MTVAL = 0x343, CSR_MIP = 0x344, CSR_PMPCFG0 = 0x3a0, CSR_PMPADDR0 = 0x3b0,
	CSR_MCYCLE = 0xb00, CSR_MINSTRET = 0xb02, CSR_CYCLE = 0xc00, CSR_TIME = 0xc01,
	CSR_INSTRET = 0xc02, CSR_MVENDORID = 0xf11, CSR_MARCHID = 0xf12, CSR_MIMPID = 0xf13,
	CSR_MHARTID = 0xf14, CSR_MCONFIGPTR = 0xf15,
};

#define MS_SIE   (1ull << 1)
#define MS_MIE   (1ull << 3)
#define MS_SPIE  (1ull << 5)
#define MS_MPIE  (1ull << 7)
#define MS_SPP   (1ull << 8)
#define MS_MPP   (3ull << 11)
#define MS_FS    (3ull << 13)
#define MS_MPRV  (1ull << 17)
#define MS_SUM   (1ull << 18)
#define MS_MXR   (1ull << 19)
#define MS_TVM   (1ull << 20)
#define MS_TW    (1ull << 21)
#define MS_TSR   (1ull << 22)
#define MS_UXL   (3ull << 32)
#define MS_SXL   (3ull << 34)
#define MS_SD    (1ull << 63)
#define MSTATUS_W (MS_SIE | MS_MIE | MS_SPIE | MS_MPIE | MS_SPP | MS_MPP | MS_FS | MS_MPRV | \
		   MS_SUM | MS_MXR | MS_TVM | MS_TW | MS_TSR)
#define SSTATUS_V (MS_SIE | MS_SPIE | MS_SPP | MS_FS | MS_SUM | MS_MXR | MS_UXL | MS_SD)
#define SSTATUS_W (MS_SIE | MS_SPIE | MS_SPP | MS_FS | MS_SUM | MS_MXR)

#define IRQ_SSI 1
#define IRQ_MSI 3
#define IRQ_STI 5
#define IRQ_MTI 7
#define IRQ_SEI 9
#define IRQ_MEI 11
#define IRQ_LCOFI 13   /* Sscofpmf: local counter overflow */
#define MIP_W   ((1ull << IRQ_SSI) | (1ull << IRQ_STI) | (1ull << IRQ_SEI) | (1ull << IRQ_LCOFI))
#define MIE_W   (MIP_W | (1ull << IRQ_MSI) | (1ull << IRQ_MTI) | (1ull << IRQ_MEI))
#define MIDELEG_W MIP_W
#define IRQ_UNIT FS_UNIT_IRQ   /* the TIP unit's local interrupt (--unit) */
#define UNIT_BIT(m) ((m)->unit ? 1ull << IRQ_UNIT : 0)
#define MEDELEG_W 0xb3ffull   /* every synchronous exception but ecall from M */

#define MISA_V ((2ull << 62) | (1u << 0) | (1u << 2) | (1u << 3) | (1u << 5) | (1u << 8) | \
		(1u << 12) | (1u << 18) | (1u << 20))   /* RV64 IMAFDC, S, U */

#define PTE_V (1u << 0)
#define PTE_R (1u << 1)
#define PTE_W (1u << 2)
#define PTE_X (1u << 3)
#define PTE_U (1u << 4)
#define PTE_A (1u << 6)
#define PTE_D (1u << 7)

uint64_t fs_mtime(const struct fs *m)
{
	return iss_instret(m->iss) / FS_INSNS_PER_TICK + m->mtime_skip;
}

void fs_timer_update(struct fs *m)
{
	uint64_t now = fs_mtime(m), ticks;

	if (m->mtimecmp <= now) {
		m->timer_at = 0;
		m->mip |= 1ull << IRQ_MTI;
		return;
	}
	m->mip &= ~(1ull << IRQ_MTI);
	ticks = m->mtimecmp - m->mtime_skip;	/* > instret / FS_INSNS_PER_TICK */
	m->timer_at = ticks > UINT64_MAX / FS_INSNS_PER_TICK ? UINT64_MAX :
		      ticks * FS_INSNS_PER_TICK;
}

/* mstatus as read: FS reads Dirty whenever it is not Off (the ISS does not track FP state
 * changes: a kernel always saves the FP registers, docs/fullsys.md), SD accordingly. */
static uint64_t mstatus_rd(const struct fs *m)
{
	uint64_t v = m->mstatus | (2ull << 32) | (2ull << 34);

	if (v & MS_FS)
		v |= MS_FS | MS_SD;
	return v;
}

/* After any write of mstatus: tell the ISS whether FP is off. */
static void mstatus_written(struct fs *m)
{
	iss_set_fp_off(m->iss, !(m->mstatus & MS_FS));
}

static void tlb_flush(struct fs *m)
{
	memset(m->tlb, 0, sizeof(m->tlb));
	iss_sys_flush(m->iss);
}

/* ---- traps --------------------------------------------------------------------------- */

/* Trap entry (exception, or interrupt when cause has bit 63): returns the handler's pc. */
static uint64_t trap_enter(struct fs *m, uint64_t cause, uint64_t tval, uint64_t pc)
{
	int irq = (cause >> 63) != 0;
	unsigned code = (unsigned)(cause & 63);
	uint64_t deleg = irq ? m->mideleg : m->medeleg, tvec;

	if (irq)
		m->interrupts++;
	else
		m->traps++;
	iss_clear_reservation(m->iss);
	iss_sys_flush(m->iss);	/* the mode changes: the fetch translation with it */
	if (m->priv <= FS_PRV_S && ((deleg >> code) & 1)) {
		m->scause = cause;
		m->sepc = pc;
		m->stval = tval;
		m->mstatus = (m->mstatus & ~(MS_SPP | MS_SPIE)) |
			     (m->priv == FS_PRV_S ? MS_SPP : 0) |
			     ((m->mstatus & MS_SIE) ? MS_SPIE : 0);
		m->mstatus &= ~MS_SIE;
		m->priv = FS_PRV_S;
		tvec = m->stvec;
	} else {
		m->mcause = cause;
		m->mepc = pc;
		m->mtval = tval;
		m->mstatus = (m->mstatus & ~(MS_MPP | MS_MPIE)) | ((uint64_t)m->priv << 11) |
			     ((m->mstatus & MS_MIE) ? MS_MPIE : 0);
		m->mstatus &= ~MS_MIE;
		m->priv = FS_PRV_M;
		tvec = m->mtvec;
	}
	if ((tvec & 3) == 1 && irq)
		return (tvec & ~3ull) + 4ull * code;
	return tvec & ~3ull;
}

static uint64_t hook_trap(void *ctx, uint64_t cause, uint64_t tval, uint64_t pc)
{
	if (cause == 3)
		tval = 0;	/* ebreak: mtval 0 (allowed by the spec; what QEMU writes) */
	return trap_enter(ctx, cause, tval, pc);
}

int fs_check_irq(struct fs *m)
{
	static const unsigned order[] = { IRQ_MEI, IRQ_MSI, IRQ_MTI, IRQ_SEI, IRQ_SSI, IRQ_STI,
					  IRQ_LCOFI, IRQ_UNIT };
	uint64_t pend = m->mip & m->mie, men, sen;
	unsigned k;

	if (!pend)
		return 0;
	men = (m->priv < FS_PRV_M || (m->mstatus & MS_MIE)) ? pend & ~m->mideleg : 0;
	sen = (m->priv < FS_PRV_S || (m->priv == FS_PRV_S && (m->mstatus & MS_SIE))) ?
	      pend & m->mideleg : 0;
	if (!(men | sen))
		return 0;
	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		if (((men | sen) >> order[k]) & 1) {
			iss_set_pc(m->iss, trap_enter(m, (1ull << 63) | order[k], 0,
						      iss_pc(m->iss)));
			return 1;
		}
	return 0;
}

/* ---- Sv39 ---------------------------------------------------------------------------- */

/* Whether a leaf PTE's flags allow the access at effective privilege p. */
static int pte_allows(const struct fs *m, unsigned fl, enum iss_acc acc, unsigned p)
{
	if (p == FS_PRV_U && !(fl & PTE_U))
		return 0;
	if (p == FS_PRV_S && (fl & PTE_U) && (acc == ISS_ACC_X || !(m->mstatus & MS_SUM)))
		return 0;
	switch (acc) {
	case ISS_ACC_X: return (fl & PTE_X) != 0;
	case ISS_ACC_W: return (fl & PTE_W) != 0;
	default: return (fl & PTE_R) || ((m->mstatus & MS_MXR) && (fl & PTE_X));
	}
}

static int hook_xlate(void *ctx, uint64_t va, enum iss_acc acc, uint64_t *pa)
{
	struct fs *m = ctx;
	unsigned p = m->priv, lvl, fl;
	int pf = acc == ISS_ACC_X ? 12 : acc == ISS_ACC_W ? 15 : 13;
	int af = acc == ISS_ACC_X ? 1 : acc == ISS_ACC_W ? 7 : 5;
	uint64_t vpn = va >> 12, base, pte = 0, pte_pa = 0, ppn;
	struct fs_tlb *t;

	if (acc != ISS_ACC_X && p == FS_PRV_M && (m->mstatus & MS_MPRV))
		p = (unsigned)((m->mstatus & MS_MPP) >> 11);
	if (p == FS_PRV_M || (m->satp >> 60) != 8) {
		*pa = va;
		return 0;
	}
	if ((uint64_t)((int64_t)(va << 25) >> 25) != va)
		return pf;
	t = &m->tlb[vpn & (FS_TLB_SIZE - 1)];
	if (t->vpn == vpn + 1 && pte_allows(m, t->flags, acc, p) &&
	    (acc != ISS_ACC_W || (t->flags & PTE_D))) {
		*pa = t->ppn << 12 | (va & 0xfff);
		return 0;
	}
	base = (m->satp & ((1ull << 44) - 1)) << 12;
	for (lvl = 3; lvl-- > 0;) {
		pte_pa = base + ((va >> (12 + 9 * lvl)) & 511) * 8;
		if (iss_read_mem(m->iss, pte_pa, &pte, 8))
			return af;
		if (!(pte & PTE_V) || (!(pte & PTE_R) && (pte & PTE_W)) || (pte >> 54))
			return pf;
		if (pte & (PTE_R | PTE_X))
			break;
		base = ((pte >> 10) & ((1ull << 44) - 1)) << 12;
		if (lvl == 0)
			return pf;
	}
	ppn = (pte >> 10) & ((1ull << 44) - 1);
	if (lvl > 0 && (ppn & ((1ull << (9 * lvl)) - 1)))
		return pf;	/* misaligned superpage */
	fl = (unsigned)(pte & 0xff);
	if (!pte_allows(m, fl, acc, p))
		return pf;
	if (!(fl & PTE_A) || (acc == ISS_ACC_W && !(fl & PTE_D))) {
		pte |= PTE_A | (acc == ISS_ACC_W ? PTE_D : 0);
		if (iss_write_mem(m->iss, pte_pa, &pte, 8))
			return af;
		fl = (unsigned)(pte & 0xff);
	}
	ppn |= vpn & ((1ull << (9 * lvl)) - 1);	/* superpage: the 4 KiB page inside it */
	t->vpn = vpn + 1;
	t->ppn = ppn;
	t->pte_pa = pte_pa;
	t->flags = fl;
	*pa = ppn << 12 | (va & 0xfff);
	return 0;
}

/* ---- CSRs ---------------------------------------------------------------------------- */

/* ---- HPM counters (Sscofpmf) ---------------------------------------------------------
 * mhpmeventN's code 1 (cycles) and 2 (instructions), SBI's hardware event numbers as QEMU
 * uses them, count retired instructions (the functional hart retires one per cycle) in the
 * modes its xINH bits and mcountinhibit leave counting; other codes count nothing. A counter
 * is base + the instructions retired in its modes since snap; crossing 2^64 sets OF and, if
 * OF was clear, raises LCOFI. */
#define HPM_OF   (1ull << 63)
#define HPM_MINH (1ull << 62)
#define HPM_SINH (1ull << 61)
#define HPM_UINH (1ull << 60)

static int hpm_counts(const struct fs *m, unsigned k, unsigned mode)
{
	uint64_t e = m->hpm[k].event;

	if (((m->mcountinhibit >> (k + 3)) & 1) || ((e & 0xffff) != 1 && (e & 0xffff) != 2))
		return 0;
	return !(e & (mode == FS_PRV_M ? HPM_MINH : mode == FS_PRV_S ? HPM_SINH : HPM_UINH));
}

static uint64_t hpm_read(const struct fs *m, unsigned k)
{
	uint64_t v = m->hpm[k].base;
	unsigned p;

	for (p = 0; p < 4; p++)
		if (p != 2 && hpm_counts(m, k, p))
			v += m->retired[p] - m->hpm[k].snap[p];
	return v;
}

/* Restart counter k's accounting from value v (before its event or inhibit changes). */
static void hpm_set(struct fs *m, unsigned k, uint64_t v)
{
	m->hpm[k].base = v;
	memcpy(m->hpm[k].snap, m->retired, sizeof(m->retired));
}

static uint64_t retired_total(const struct fs *m)
{
	return m->retired[0] + m->retired[1] + m->retired[3];
}

void fs_hpm_update(struct fs *m)
{
	uint64_t v, left, best = UINT64_MAX;
	unsigned k;

	for (k = 0; k < FS_NHPM; k++) {
		if (!hpm_counts(m, k, FS_PRV_M) && !hpm_counts(m, k, FS_PRV_S) &&
		    !hpm_counts(m, k, FS_PRV_U))
			continue;
		v = hpm_read(m, k);
		if (v < m->hpm[k].base) {	/* wrapped since the last look */
			if (!(m->hpm[k].event & HPM_OF))
				m->mip |= 1ull << IRQ_LCOFI;
			m->hpm[k].event |= HPM_OF;
			hpm_set(m, k, v);
		}
		left = 0 - v;			/* instructions to the next wrap (at least) */
		if (left && left < best)
			best = left;
	}
	m->hpm_at = best == UINT64_MAX ? UINT64_MAX : retired_total(m) + best;
}

/* mcycle (k = 0) and minstret (k = 2): retired instructions plus the offset a write left,
 * frozen while mcountinhibit's bit k is set. */
static uint64_t fixed_read(const struct fs *m, unsigned k)
{
	if ((m->mcountinhibit >> k) & 1)
		return m->frozen[k >> 1];
	return iss_instret(m->iss) + (uint64_t)(k ? m->instret_off : m->cycle_off);
}

/* Write v to mcycle/minstret (k = 0/2) from the instruction retiring now. */
static void fixed_write(struct fs *m, unsigned k, uint64_t v)
{
	int64_t off = (int64_t)(v - iss_instret(m->iss) - 1);	/* this instruction retires */

	if ((m->mcountinhibit >> k) & 1)
		m->frozen[k >> 1] = v;
	else if (k)
		m->instret_off = off;
	else
		m->cycle_off = off;
}

/* A counter (cycle, time, instret, hpmcounterN: index k) readable at the current
 * privilege? */
static int counter_ok(const struct fs *m, unsigned k)
{
	if (m->priv < FS_PRV_M && !((m->mcounteren >> k) & 1))
		return 0;
	if (m->priv == FS_PRV_U && !((m->scounteren >> k) & 1))
		return 0;
	return 1;
}

/* The address space of the instruction executing: satp's ASID (the unit's ctx_id). */
static unsigned asid(const struct fs *m)
{
	return (unsigned)((m->satp >> 44) & 0xffff);
}

/* An access to the unit's CSRs: a unit cycle. 0, or -1 = illegal instruction (the unit says
 * so, or the RTL and the model differed: the run stops with the message). */
static int unit_csr(struct fs *m, int we, unsigned csr, uint64_t wdata, uint64_t *v)
{
	uint64_t rd = 0;
	int r = fs_unit_csr(m->unit, m->cur_pc, m->priv, asid(m), we, csr, wdata, &rd);

	if (r < 0) {
		snprintf(m->err, sizeof(m->err), "TIP unit: %s", fs_unit_error(m->unit));
		m->stop = 2;
		return -1;
	}
	if (v)
		*v = rd;
	return r ? -1 : 0;
}

static int hook_csr_read(void *ctx, unsigned csr, uint64_t *v)
{
	struct fs *m = ctx;

	if (m->unit && fs_unit_owns(csr))
		return unit_csr(m, 0, csr, 0, v);
	if (((csr >> 8) & 3) > m->priv)
		return -1;
	switch (csr) {
	case CSR_SSTATUS: *v = mstatus_rd(m) & SSTATUS_V; return 0;
	case CSR_SIE: *v = m->mie & m->mideleg; return 0;
	case CSR_SIP: *v = m->mip & m->mideleg; return 0;
	case CSR_STVEC: *v = m->stvec; return 0;
	case CSR_SCOUNTEREN: *v = m->scounteren; return 0;
	case CSR_SENVCFG: *v = m->senvcfg; return 0;
	case CSR_SSCRATCH: *v = m->sscratch; return 0;
	case CSR_SEPC: *v = m->sepc; return 0;
	case CSR_SCAUSE: *v = m->scause; return 0;
	case CSR_STVAL: *v = m->stval; return 0;
	case CSR_SATP:
		if (m->priv == FS_PRV_S && (m->mstatus & MS_TVM))
			return -1;
		*v = m->satp;
		return 0;
	case CSR_MSTATUS: *v = mstatus_rd(m); return 0;
	case CSR_MISA: *v = MISA_V; return 0;
	case CSR_MEDELEG: *v = m->medeleg; return 0;
	case CSR_MIDELEG: *v = m->mideleg; return 0;
	case CSR_MIE: *v = m->mie; return 0;
	case CSR_MIP: *v = m->mip; return 0;
	case CSR_MTVEC: *v = m->mtvec; return 0;
	case CSR_MCOUNTEREN: *v = m->mcounteren; return 0;
	case CSR_MENVCFG: *v = m->menvcfg; return 0;
	case CSR_MCOUNTINHIBIT: *v = m->mcountinhibit; return 0;
	case CSR_MSCRATCH: *v = m->mscratch; return 0;
	case CSR_MEPC: *v = m->mepc; return 0;
	case CSR_MCAUSE: *v = m->mcause; return 0;
	case CSR_MTVAL: *v = m->mtval; return 0;
	case CSR_MCYCLE: *v = fixed_read(m, 0); return 0;
	case CSR_MINSTRET: *v = fixed_read(m, 2); return 0;
	case CSR_MVENDORID: case CSR_MARCHID: case CSR_MIMPID: case CSR_MHARTID:
	case CSR_MCONFIGPTR:
		*v = 0;
		return 0;
	case CSR_CYCLE: case CSR_TIME: case CSR_INSTRET:
		if (!counter_ok(m, csr & 31))
			return -1;
		*v = csr == CSR_TIME ? fs_mtime(m) : fixed_read(m, csr & 31);
		return 0;
	}
	if (csr == CSR_PMPCFG0 || csr == CSR_PMPCFG0 + 2) {
		*v = m->pmpcfg[(csr - CSR_PMPCFG0) / 2];
		return 0;
	}
	if (csr >= CSR_PMPADDR0 && csr < CSR_PMPADDR0 + 16) {
		*v = m->pmpaddr[csr - CSR_PMPADDR0];
		return 0;
	}
	/* HPM counters and events 3..3 + FS_NHPM - 1 (Sscofpmf), the rest of 3..31 zero */
	if (csr >= 0xb03 && csr <= 0xb1f) {
		*v = (csr & 31) - 3 < FS_NHPM ? hpm_read(m, (csr & 31) - 3) : 0;
		return 0;
	}
	if (csr >= 0x323 && csr <= 0x33f) {
		*v = (csr & 31) - 3 < FS_NHPM ? m->hpm[(csr & 31) - 3].event : 0;
		return 0;
	}
	if (csr >= 0xc03 && csr <= 0xc1f) {
		if (!counter_ok(m, csr & 31))
			return -1;
		*v = (csr & 31) - 3 < FS_NHPM ? hpm_read(m, (csr & 31) - 3) : 0;
		return 0;
	}
	if (csr == 0xda0) {	/* scountovf: the OF bits S may see */
		unsigned k;

		*v = 0;
		for (k = 0; k < FS_NHPM; k++)
			if ((m->hpm[k].event & HPM_OF) &&
			    (m->priv == FS_PRV_M || ((m->mcounteren >> (k + 3)) & 1)))
				*v |= 1ull << (k + 3);
		return 0;
	}
	return -1;
}

static int hook_csr_write(void *ctx, unsigned csr, uint64_t v)
{
	struct fs *m = ctx;

	if (m->unit && fs_unit_owns(csr))
		return unit_csr(m, 1, csr, v, NULL);
	if (((csr >> 8) & 3) > m->priv || (csr >> 10) == 3)
		return -1;
	switch (csr) {
	case CSR_SSTATUS:
		m->mstatus = (m->mstatus & ~SSTATUS_W) | (v & SSTATUS_W);
		mstatus_written(m);
		return 0;
	case CSR_SIE:
		m->mie = (m->mie & ~m->mideleg) | (v & m->mideleg & (MIE_W | UNIT_BIT(m)));
		return 0;
	case CSR_SIP: {	/* SSIP and LCOFIP are writable from S */
		uint64_t w = m->mideleg & ((1ull << IRQ_SSI) | (1ull << IRQ_LCOFI));

		m->mip = (m->mip & ~w) | (v & w);
		return 0;
	}
	case CSR_STVEC: m->stvec = v & ~2ull; return 0;
	case CSR_SCOUNTEREN: m->scounteren = v & 0xffffffff; return 0;
	case CSR_SENVCFG: m->senvcfg = v & 1; return 0;
	case CSR_SSCRATCH: m->sscratch = v; return 0;
	case CSR_SEPC: m->sepc = v & ~1ull; return 0;
	case CSR_SCAUSE: m->scause = v; return 0;
	case CSR_STVAL: m->stval = v; return 0;
	case CSR_SATP:
		if (m->priv == FS_PRV_S && (m->mstatus & MS_TVM))
			return -1;
		if ((v >> 60) == 0 || (v >> 60) == 8) {
			/* 16 ASID bits, as QEMU; the TLB keeps no ASID: every satp write flushes
			 * it, which is always correct */
			m->satp = (v >> 60) ? v : 0;
			tlb_flush(m);
		}
		return 0;
	case CSR_MSTATUS:
		m->mstatus = (m->mstatus & ~MSTATUS_W) | (v & MSTATUS_W);
		if (((m->mstatus & MS_MPP) >> 11) == 2)
			m->mstatus &= ~MS_MPP;	/* MPP is WARL: no H mode */
		mstatus_written(m);
		return 0;
	case CSR_MISA: return 0;
	case CSR_MEDELEG: m->medeleg = v & MEDELEG_W; return 0;
	case CSR_MIDELEG: m->mideleg = (v & MIDELEG_W) | UNIT_BIT(m); return 0;
	case CSR_MIE: m->mie = v & (MIE_W | UNIT_BIT(m)); return 0;
	case CSR_MIP: m->mip = (m->mip & ~MIP_W) | (v & MIP_W); return 0;
	case CSR_MTVEC: m->mtvec = v & ~2ull; return 0;
	case CSR_MCOUNTEREN: m->mcounteren = v & 0xffffffff; return 0;
	case CSR_MENVCFG: m->menvcfg = v & 1; return 0;
	case CSR_MCOUNTINHIBIT: {
		uint64_t fixed[2] = { fixed_read(m, 0), fixed_read(m, 2) };
		unsigned k;

		for (k = 0; k < FS_NHPM; k++)
			hpm_set(m, k, hpm_read(m, k));
		uint64_t was = m->mcountinhibit;

		m->mcountinhibit = v & 0xfffffffd;
		for (k = 0; k < 2; k++) {	/* freeze or restart mcycle/minstret */
			unsigned b = 2 * k;

			if (!((was >> b) & 1) && ((m->mcountinhibit >> b) & 1))
				m->frozen[k] = fixed[k];
			else if (((was >> b) & 1) && !((m->mcountinhibit >> b) & 1))
				fixed_write(m, b, fixed[k]);	/* counts from the next one */
		}
		fs_hpm_update(m);
		return 0;
	}
	case CSR_MSCRATCH: m->mscratch = v; return 0;
	case CSR_MEPC: m->mepc = v & ~1ull; return 0;
	case CSR_MCAUSE: m->mcause = v; return 0;
	case CSR_MTVAL: m->mtval = v; return 0;
	case CSR_MCYCLE: fixed_write(m, 0, v); return 0;
	case CSR_MINSTRET: fixed_write(m, 2, v); return 0;
	}
	if (csr == CSR_PMPCFG0 || csr == CSR_PMPCFG0 + 2) {
		m->pmpcfg[(csr - CSR_PMPCFG0) / 2] = v & 0x9f9f9f9f9f9f9f9full;
		return 0;
	}
	if (csr >= CSR_PMPADDR0 && csr < CSR_PMPADDR0 + 16) {
		m->pmpaddr[csr - CSR_PMPADDR0] = v & ((1ull << 54) - 1);
		return 0;
	}
	if (csr >= 0xb03 && csr <= 0xb1f) {
		if ((csr & 31) - 3 < FS_NHPM) {
			hpm_set(m, (csr & 31) - 3, v);
			fs_hpm_update(m);
		}
		return 0;
	}
	if (csr >= 0x323 && csr <= 0x33f) {
		if ((csr & 31) - 3 < FS_NHPM) {
			unsigned k = (csr & 31) - 3;

			hpm_set(m, k, hpm_read(m, k));
			m->hpm[k].event = v & (HPM_OF | HPM_MINH | HPM_SINH | HPM_UINH | 0xffffffffull);
			fs_hpm_update(m);
		}
		return 0;
	}
	return -1;
}

/* ecall, ebreak, mret, sret, wfi, sfence.vma */
static int hook_sys(void *ctx, const struct rv_insn *i, uint64_t pc, uint64_t *next)
{
	struct fs *m = ctx;
	unsigned pp;

	*next = pc + i->len;
	switch (i->op) {
	case RV_OP_ECALL:
		return 8 + (int)m->priv;
	case RV_OP_EBREAK:	/* tval 0, as QEMU (the ISS passes pc for cause 3; see hook_trap) */
		return 3;
	case RV_OP_MRET:
		if (m->priv < FS_PRV_M)
			return 2;
		pp = (unsigned)((m->mstatus & MS_MPP) >> 11);
		m->mstatus = (m->mstatus & ~(MS_MIE | MS_MPP)) |
			     ((m->mstatus & MS_MPIE) ? MS_MIE : 0) | MS_MPIE;
		if (pp != FS_PRV_M)
			m->mstatus &= ~MS_MPRV;
		m->priv = pp;
		iss_sys_flush(m->iss);
		*next = m->mepc;
		return 0;
	case RV_OP_SRET:
		if (m->priv < FS_PRV_S || (m->priv == FS_PRV_S && (m->mstatus & MS_TSR)))
			return 2;
		pp = (m->mstatus & MS_SPP) ? FS_PRV_S : FS_PRV_U;
		m->mstatus = (m->mstatus & ~(MS_SIE | MS_SPP | MS_MPRV)) |
			     ((m->mstatus & MS_SPIE) ? MS_SIE : 0) | MS_SPIE;
		m->priv = pp;
		iss_sys_flush(m->iss);
		*next = m->sepc;
		return 0;
	case RV_OP_WFI:
		if (m->priv == FS_PRV_U || (m->priv == FS_PRV_S && (m->mstatus & MS_TW)))
			return 2;
		/* nothing pending: fast-forward mtime to the timer, the only event source */
		if (!(m->mip & m->mie)) {
			if (!((m->mie >> IRQ_MTI) & 1) || m->mtimecmp == UINT64_MAX) {
				snprintf(m->err, sizeof(m->err),
					 "pc %#llx: wfi with no interrupt that could wake it",
					 (unsigned long long)pc);
				m->stop = 2;
				return 0;
			}
			m->mtime_skip += m->mtimecmp - fs_mtime(m);
			fs_timer_update(m);
		}
		return 0;
	case RV_OP_SFENCE_VMA:
		if (m->priv == FS_PRV_U || (m->priv == FS_PRV_S && (m->mstatus & MS_TVM)))
			return 2;
		tlb_flush(m);
		return 0;
	default:
		return 2;
	}
}

static const struct iss_sys_ops fs_ops = {
	.xlate = hook_xlate,
	.io = fs_io,
	.csr_read = hook_csr_read,
	.csr_write = hook_csr_write,
	.sys = hook_sys,
	.trap = hook_trap,
};

int fs_init(struct fs *m, uint64_t ram_size, FILE *out)
{
	memset(m, 0, sizeof(*m));
	m->iss = iss_create_sys(&fs_ops, m);
	if (!m->iss || iss_map_ram(m->iss, FS_RAM_BASE, ram_size))
		return -1;
	m->ram_size = ram_size;
	m->priv = FS_PRV_M;
	m->mtimecmp = UINT64_MAX;
	m->hpm_at = UINT64_MAX;
	m->uart_out = out;
	mstatus_written(m);	/* FS = Off at reset */
	fs_timer_update(m);
	return 0;
}

void fs_attach_unit(struct fs *m, struct fs_unit *u)
{
	m->unit = u;
	m->mideleg |= UNIT_BIT(m);
}

void fs_free(struct fs *m)
{
	if (m->iss)
		iss_destroy(m->iss);
	free(m->uart_log);
}

/* Whether the instruction just retired flushes the pipeline (the unit's head_flush): an xRET,
 * sfence.vma, fence.i, or a CSR instruction that writes satp, mstatus or sstatus. */
static int flushes(const struct rv_insn *i)
{
	int writes;

	switch (i->op) {
	case RV_OP_MRET: case RV_OP_SRET: case RV_OP_SFENCE_VMA: case RV_OP_FENCE_I:
		return 1;
	case RV_OP_CSRRW: case RV_OP_CSRRWI:
		writes = 1;
		break;
	case RV_OP_CSRRS: case RV_OP_CSRRSI: case RV_OP_CSRRC: case RV_OP_CSRRCI:
		writes = i->fmt == RV_FMT_CSRI ? i->imm != 0 : i->rs1 != 0;
		break;
	default:
		return 0;
	}
	return writes && (i->csr == CSR_SATP || i->csr == CSR_MSTATUS || i->csr == CSR_SSTATUS);
}

/* The unit's cycles for the step that just ended (fs_unit.c: the ROB feed) and its interrupt
 * line. r: iss_step's result for the instruction at pc (privilege p, address space c). */
static void unit_step(struct fs *m, int r, const struct iss_retired *info, uint64_t pc,
		      unsigned p, unsigned c)
{
	int rc = 0;

	if (r == ISS_OK)
		rc = fs_unit_commit(m->unit, pc, p, c, info->insn.fu, flushes(&info->insn),
				    iss_pc(m->iss), m->priv, asid(m));
	else if (r == ISS_TRAP)
		rc = fs_unit_trap(m->unit, pc, p, c, iss_pc(m->iss), m->priv, asid(m));
	if (rc < 0 && !m->stop) {
		snprintf(m->err, sizeof(m->err), "TIP unit: %s", fs_unit_error(m->unit));
		m->stop = 2;
	}
	m->mip = (m->mip & ~(1ull << IRQ_UNIT)) | ((uint64_t)fs_unit_irq(m->unit) << IRQ_UNIT);
}

int fs_run(struct fs *m, uint64_t max, uint64_t stop_pc, const char *until)
{
	struct iss_retired info;
	size_t seen = 0, ul = until ? strlen(until) : 0;
	int trace = getenv("TIPROF_FS_TRACE") != NULL;	/* pc and mode of every step */
	uint64_t n;
	unsigned p;
	int r;

	for (n = 0; !max || n < max; n++) {
		if (iss_instret(m->iss) >= m->timer_at)
			fs_timer_update(m);
		if (retired_total(m) >= m->hpm_at)
			fs_hpm_update(m);
		if (m->mip & m->mie) {
			uint64_t ipc = iss_pc(m->iss);
			unsigned ip = m->priv, ic = asid(m);

			/* an interrupt is taken before an instruction, which traps (BOOM's way) */
			if (fs_check_irq(m) && m->unit)
				unit_step(m, ISS_TRAP, NULL, ipc, ip, ic);
		}
		if (stop_pc && iss_pc(m->iss) == stop_pc) {
			m->stop = 3;
			return 0;
		}
		if (trace)
			fprintf(stderr, "%c %#llx\n", "USHM"[m->priv],
				(unsigned long long)iss_pc(m->iss));
		p = m->priv;
		if (m->unit) {
			uint64_t pc = m->cur_pc = iss_pc(m->iss);
			unsigned c = asid(m);

			r = iss_step(m->iss, &info);
			unit_step(m, r, &info, pc, p, c);
		} else {
			r = iss_step(m->iss, NULL);
		}
		if (r == ISS_OK)
			m->retired[p]++;
		if (r == ISS_ERROR) {
			snprintf(m->err, sizeof(m->err), "%s", iss_error(m->iss));
			return -1;
		}
		if (m->stop)
			return m->stop == 2 ? -1 : 0;
		if (until && m->uart_len != seen) {
			seen = m->uart_len;
			if (strstr(m->uart_log + (seen > ul + 64 ? seen - ul - 64 : 0), until)) {
				m->stop = 4;
				return 0;
			}
		}
	}
	m->stop = 5;
	return 0;
}
