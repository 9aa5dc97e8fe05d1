/* SPDX-License-Identifier: Apache-2.0 */
/* The full-system machine's devices (docs/fullsys.md): the SiFive test device (power-off),
 * the CLINT (msip, mtimecmp, mtime), a minimal PLIC (registers, no source raises yet) and
 * an NS16550A UART whose transmitter writes to the host. */
#include <stdlib.h>
#include <string.h>

#include "fs.h"

#define MIP_MSIP (1ull << 3)
#define MIP_MTIP (1ull << 7)

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
		}	/* RBR: no input yet, reads 0 */
		break;
	case 1:
		if (dlab) {
			if (write) m->uart_dlm = b; else *v = m->uart_dlm;
		} else {
			if (write) m->uart_ier = b & 0x0f; else *v = m->uart_ier;
		}
		break;
	case 2:		/* IIR (read): no interrupt pending, FIFOs on if enabled; FCR (write) */
		if (write) m->uart_fcr = b; else *v = (m->uart_fcr & 1) ? 0xc1 : 0x01;
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

/* Minimal PLIC: priorities, pending, per-context enables and thresholds are registers; no
 * device raises a source yet, so a claim returns 0 (docs/fullsys.md). */
static int plic(struct fs *m, uint64_t off, unsigned n, int write, uint64_t *v)
{
	uint32_t *r = NULL, zero = 0;
	uint64_t ctx;

	(void)n;
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
		else if ((off & 0xfff) == 4 && !write)
			r = &zero;	/* claim: nothing pending */
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

	if (pa >= FS_UART_BASE && pa < FS_UART_BASE + FS_UART_SIZE)
		return uart(m, pa - FS_UART_BASE, write, v);
	if (pa >= FS_CLINT_BASE && pa < FS_CLINT_BASE + FS_CLINT_SIZE)
		return clint(m, pa - FS_CLINT_BASE, n, write, v);
	if (pa >= FS_PLIC_BASE && pa < FS_PLIC_BASE + FS_PLIC_SIZE)
		return plic(m, pa - FS_PLIC_BASE, n, write, v);
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
