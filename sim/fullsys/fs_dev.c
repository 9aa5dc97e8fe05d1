/* SPDX-License-Identifier: Apache-2.0 */
/* The full-system machine's devices (docs/fullsys.md): the SiFive test device (power-off),
 * the CLINT (msip, mtimecmp, mtime), a minimal PLIC (registers, no source raises yet) and
 * an NS16550A UART whose transmitter writes to the host. */
#include <stdlib.h>
#include <string.h>

#include "fs.h"

#define MIP_MSIP (1ull << 3)
#define MIP_MTIP (1ull << 7)
#define MIP_SEIP (1ull << 9)
#define MIP_MEIP (1ull << 11)

/* The UART's interrupt line: THR empty with ETBEI enabled (no receiver yet). */
static int uart_line(const struct fs *m)
{
	return (m->uart_ier & 2) && m->uart_thre;
}

/* The PLIC's gateway for source src at level line, and each context's notification:
 * context 0 is hart 0's M-mode (MEIP), context 1 its S-mode (SEIP). */
static unsigned plic_best(const struct fs *m, unsigned ctx)
{
	unsigned src, best = 0;
	uint32_t bp = m->plic.threshold[ctx];

	for (src = 1; src < 64; src++)
		if (((m->plic.pending[src >> 5] >> (src & 31)) & 1) &&
		    ((m->plic.enable[ctx][src >> 5] >> (src & 31)) & 1) && m->plic.prio[src] > bp) {
			bp = m->plic.prio[src];
			best = src;
		}
	return best;
}

void fs_irq_update(struct fs *m)
{
	unsigned src = FS_UART_IRQ;
	uint32_t bit = 1u << (src & 31);

	if (uart_line(m) && !(m->plic.claimed[src >> 5] & bit))
		m->plic.pending[src >> 5] |= bit;
	else if (!uart_line(m))
		m->plic.pending[src >> 5] &= ~bit;
	m->mip = (m->mip & ~(MIP_MEIP | MIP_SEIP)) | (plic_best(m, 0) ? MIP_MEIP : 0) |
		 (plic_best(m, 1) ? MIP_SEIP : 0);
}

/* 32- or 64-bit field access at byte offset off inside a 64-bit register r. */
static void reg64(uint64_t *r, uint64_t off, unsigned n, int write, uint64_t *v)
{
	unsigned sh = (unsigned)(off & 7) * 8;
	uint64_t mask = n == 8 ? ~0ull : ((1ull << (8 * n)) - 1) << sh;

	if (write)
		*r = (*r & ~mask) | ((*v << sh) & mask);
	else
		*v = (*r & mask) >> sh;
}

static void uart_putc(struct fs *m, uint8_t c)
{
	if (m->uart_out) {
		fputc(c, m->uart_out);
		if (c == '\n')
			fflush(m->uart_out);
	}
	if (m->uart_len + 2 > m->uart_cap) {
		size_t cap = m->uart_cap ? 2 * m->uart_cap : 4096;
		char *p = realloc(m->uart_log, cap);

		if (!p)
			return;
		m->uart_log = p;
		m->uart_cap = cap;
	}
	m->uart_log[m->uart_len++] = (char)c;
	m->uart_log[m->uart_len] = 0;
}

static int uart(struct fs *m, uint64_t off, int write, uint64_t *v)
{
	int dlab = (m->uart_lcr & 0x80) != 0;
	uint8_t b = (uint8_t)*v;

	if (!write)
		*v = 0;
	switch (off) {
	case 0:
		if (dlab) {
			if (write) m->uart_dll = b; else *v = m->uart_dll;
		} else if (write) {
			uart_putc(m, b);
			m->uart_thre = 1;	/* sent at once: THR empty again */
		}	/* RBR: no input yet, reads 0 */
		break;
	case 1:
		if (dlab) {
			if (write) m->uart_dlm = b; else *v = m->uart_dlm;
		} else {
			if (write) {
				if ((b & 2) && !(m->uart_ier & 2))
					m->uart_thre = 1;	/* enabling ETBEI with THR empty */
				m->uart_ier = b & 0x0f;
			} else {
				*v = m->uart_ier;
			}
		}
		break;
	case 2:		/* IIR (read): THR empty or none, FIFOs on if enabled; FCR (write) */
		if (write) {
			m->uart_fcr = b;
		} else {
			*v = ((m->uart_fcr & 1) ? 0xc0 : 0) | (uart_line(m) ? 0x02 : 0x01);
			if (uart_line(m))
				m->uart_thre = 0;	/* reading IIR clears THRE */
		}
		break;
	case 3: if (write) m->uart_lcr = b; else *v = m->uart_lcr; break;
	case 4: if (write) m->uart_mcr = b & 0x1f; else *v = m->uart_mcr; break;
	case 5: if (!write) *v = 0x60; break;	/* LSR: THR empty, transmitter empty */
	case 6: if (!write) *v = 0xb0; break;	/* MSR: DCD, DSR, CTS */
	case 7: if (write) m->uart_scr = b; else *v = m->uart_scr; break;
	default: break;
	}
	return 0;
}

static int clint(struct fs *m, uint64_t off, unsigned n, int write, uint64_t *v)
{
	uint64_t t;

	if (off < 4) {			/* msip, hart 0 */
		if (write) {
			m->msip = (uint32_t)*v & 1;
			m->mip = (m->mip & ~MIP_MSIP) | (m->msip ? MIP_MSIP : 0);
		} else {
			*v = m->msip;
		}
		return 0;
	}
	if (off >= 0x4000 && off < 0x4008) {	/* mtimecmp, hart 0 */
		reg64(&m->mtimecmp, off, n, write, v);
		if (write)
			fs_timer_update(m);
		return 0;
	}
	if (off >= 0xbff8 && off < 0xc000) {	/* mtime */
		t = fs_mtime(m);
		reg64(&t, off, n, write, v);
		if (write) {	/* mtime = t: move the skip so that the instret part stays */
			m->mtime_skip += t - fs_mtime(m);
			fs_timer_update(m);
		}
		return 0;
	}
	if (!write)
		*v = 0;
	return 0;
}

/* Minimal PLIC: priorities, pending, per-context enables and thresholds, claim/complete;
 * the UART is the one source (docs/fullsys.md). */
static int plic(struct fs *m, uint64_t off, unsigned n, int write, uint64_t *v)
{
	uint32_t *r = NULL, zero = 0;
	uint64_t ctx;
	unsigned src;

	(void)n;
	if (off >= 0x200000 && off < 0x202000 && (off & 0xfff) == 4) {
		ctx = (off - 0x200000) >> 12;
		if (!write) {		/* claim */
			src = plic_best(m, (unsigned)ctx);
			*v = src;
			if (src) {
				m->plic.pending[src >> 5] &= ~(1u << (src & 31));
				m->plic.claimed[src >> 5] |= 1u << (src & 31);
			}
		} else if ((src = (unsigned)*v) > 0 && src < 64) {	/* complete */
			m->plic.claimed[src >> 5] &= ~(1u << (src & 31));
		}
		return 0;
	}
	if (off < 0x100)
		r = &m->plic.prio[off >> 2];
	else if (off >= 0x1000 && off < 0x1008)
		r = write ? &zero : &m->plic.pending[(off - 0x1000) >> 2];
	else if (off >= 0x2000 && off < 0x2100) {
		ctx = (off - 0x2000) >> 7;
		if (ctx < 2 && ((off >> 2) & 31) < 2)
			r = &m->plic.enable[ctx][(off >> 2) & 1];
	} else if (off >= 0x200000 && off < 0x202000) {
		ctx = (off - 0x200000) >> 12;
		if ((off & 0xfff) == 0)
			r = &m->plic.threshold[ctx];
	}
	if (!r) {
		if (!write)
			*v = 0;
		return 0;
	}
	if (write)
		*r = (uint32_t)*v;
	else
		*v = *r;
	return 0;
}

int fs_io(void *ctx, uint64_t pa, unsigned n, int write, uint64_t *v)
{
	struct fs *m = ctx;

	int r;

	if (pa >= FS_UART_BASE && pa < FS_UART_BASE + FS_UART_SIZE) {
		r = uart(m, pa - FS_UART_BASE, write, v);
		fs_irq_update(m);
		return r;
	}
	if (pa >= FS_CLINT_BASE && pa < FS_CLINT_BASE + FS_CLINT_SIZE)
		return clint(m, pa - FS_CLINT_BASE, n, write, v);
	if (pa >= FS_PLIC_BASE && pa < FS_PLIC_BASE + FS_PLIC_SIZE) {
		r = plic(m, pa - FS_PLIC_BASE, n, write, v);
		fs_irq_update(m);
		return r;
	}
	if (pa >= FS_TEST_BASE && pa < FS_TEST_BASE + FS_TEST_SIZE) {
		if (!write) {
			*v = 0;
			return 0;
		}
		switch (*v & 0xffff) {
		case 0x5555: m->stop = 1; m->exit_code = 0; break;	/* pass / power-off */
		case 0x3333: m->stop = 1; m->exit_code = (int)((*v >> 16) & 0xffff); break;
		case 0x7777: m->stop = 1; m->exit_code = 0; break;	/* reset: stop too */
		default: break;
		}
		return 0;
	}
	return -1;
}
