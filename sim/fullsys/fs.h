/* SPDX-License-Identifier: Apache-2.0 */
/* sim/fullsys: the full-system RISC-V machine (docs/fullsys.md). One RV64GC hart with
 * M/S/U modes on top of the ISS (sim/iss, through its full-system hooks), Sv39 with a TLB,
 * a CLINT, a PLIC, an NS16550 UART and the SiFive test device, laid out as QEMU's virt
 * machine so that Debian's OpenSBI fw_jump and the project's kernel run unchanged. */
#ifndef TIPROF_FS_H
#define TIPROF_FS_H

#include <stdint.h>
#include <stdio.h>

#include "fs_unit.h"
#include "iss.h"

/* The memory map (QEMU virt's addresses; docs/fullsys.md). */
#define FS_TEST_BASE   0x00100000ull  /* sifive,test0: 0x5555 pass, code<<16|0x3333 fail */
#define FS_TEST_SIZE   0x1000ull
#define FS_CLINT_BASE  0x02000000ull
#define FS_CLINT_SIZE  0x10000ull
#define FS_PLIC_BASE   0x0c000000ull
#define FS_PLIC_SIZE   0x600000ull
#define FS_UART_BASE   0x10000000ull
#define FS_UART_SIZE   0x100ull
#define FS_UNIT_BASE   0x18000000ull  /* reserved: the tiprof unit's MMIO window (item 2) */
#define FS_RAM_BASE    0x80000000ull
#define FS_INITRD_PA   0x84000000ull  /* tiprof-fs --initrd: RAM + 64 MiB */

/* mtime ticks at 10 MHz (timebase-frequency in the device tree) and the functional hart
 * retires FS_INSNS_PER_TICK instructions per tick: a 100 MIPS hart. */
#define FS_TIMEBASE_HZ     10000000ull
#define FS_INSNS_PER_TICK  10ull

#define FS_PRV_U 0
#define FS_PRV_S 1
#define FS_PRV_M 3

#define FS_TLB_SIZE 256

/* HPM: mhpmcounter3 .. 3 + FS_NHPM - 1 with Sscofpmf (QEMU virt's 16) */
#define FS_NHPM 16

struct fs_hpm {
	uint64_t event;          /* mhpmevent: OF 63, MINH 62, SINH 61, UINH 60; code in 15:0 */
	uint64_t base;           /* value when snap[] was taken */
	uint64_t snap[4];        /* retired[] per mode then */
};

struct fs_tlb {
	uint64_t vpn;      /* virtual page number + 1 (0 = invalid) */
	uint64_t ppn;      /* physical page number of the 4 KiB page */
	uint64_t pte_pa;   /* where the leaf PTE is (for the D bit) */
	unsigned flags;    /* the leaf PTE's flags (V R W X U G A D) */
};

#define FS_UART_IRQ 10   /* the UART's PLIC source (device tree: interrupts = <10>) */

struct fs_plic {
	uint32_t prio[64];
	uint32_t pending[2];
	uint32_t claimed[2];     /* in service: claimed, not completed */
	uint32_t enable[2][2];   /* context 0 = hart 0 M, context 1 = hart 0 S */
	uint32_t threshold[2];
};

struct fs {
	struct iss *iss;
	uint64_t ram_size;

	/* privileged state */
	unsigned priv;
	uint64_t mstatus, medeleg, mideleg, mie, mip, mtvec, mscratch, mepc, mcause, mtval;
	uint64_t mcounteren, scounteren, menvcfg, senvcfg, mcountinhibit;
	uint64_t stvec, sscratch, sepc, scause, stval, satp;
	uint64_t pmpcfg[2], pmpaddr[16];
	int64_t cycle_off, instret_off;  /* mcycle/minstret writes */
	uint64_t frozen[2];      /* mcycle, minstret while mcountinhibit stops them */

	/* Sv39 TLB (flushed by satp writes and sfence.vma) */
	struct fs_tlb tlb[FS_TLB_SIZE];

	/* CLINT */
	uint32_t msip;
	uint64_t mtimecmp;
	uint64_t mtime_skip;     /* ticks added by WFI fast-forward */
	uint64_t timer_at;       /* first instret at which mtime >= mtimecmp */

	struct fs_plic plic;

	/* UART */
	uint8_t uart_ier, uart_lcr, uart_mcr, uart_scr, uart_dll, uart_dlm, uart_fcr;
	int uart_thre;           /* THR-empty interrupt pending (transmission is instant) */
	FILE *uart_out;
	char *uart_log;          /* everything the UART printed (for --until) */
	size_t uart_len, uart_cap;

	/* run control */
	int stop;                /* 1 = test device / power-off, 2 = error */
	int exit_code;
	uint64_t traps, interrupts;
	uint64_t retired[4];     /* instructions retired in U, S, (H), M */
	struct fs_hpm hpm[FS_NHPM];
	uint64_t hpm_at;         /* retired instructions at which to look for an overflow */

	/* the TIP unit (--unit; fs_unit.h): its CSRs, local interrupt 16, the ROB feed */
	struct fs_unit *unit;    /* NULL: no unit, its CSRs raise illegal instruction */
	uint64_t cur_pc;         /* pc of the instruction being executed (a CSR access's head) */
	char err[1280];
};

/* Build the machine: ram_size bytes of RAM at FS_RAM_BASE; UART output to out. */
int fs_init(struct fs *m, uint64_t ram_size, FILE *out);
void fs_free(struct fs *m);

/* mtime now (ticks). */
uint64_t fs_mtime(const struct fs *m);
/* Recompute the timer threshold after mtimecmp or mtime_skip changed, and MTIP. */
void fs_timer_update(struct fs *m);

/* Devices (fs_dev.c): an access at physical pa outside RAM; 0 or -1 (access fault). */
int fs_io(void *ctx, uint64_t pa, unsigned n, int write, uint64_t *v);

/* Counters: look for HPM overflows (Sscofpmf: OF and LCOFI) and recompute hpm_at. */
void fs_hpm_update(struct fs *m);

/* Recompute the interrupt lines: UART -> PLIC gateway -> MEIP/SEIP. */
void fs_irq_update(struct fs *m);

/* Take the highest-priority pending, enabled interrupt if there is one; 1 if taken. */
int fs_check_irq(struct fs *m);

/* Put the TIP unit u (fs_unit_open) behind the hart's custom CSRs: mideleg bit 16 then
 * reads 1 and cannot be cleared (Debian's OpenSBI does not know local interrupt 16, the
 * driver takes it in S-mode), mie/sie bit 16 become writable, mip bit 16 follows irq_o. */
void fs_attach_unit(struct fs *m, struct fs_unit *u);

/* Run until the guest stops, max instructions (0 = no limit) retired, the pc reaches
 * stop_pc (if nonzero), or the UART has printed until (if not NULL). Returns 0 when a
 * condition above ended it (m->stop tells which), -1 on error. */
int fs_run(struct fs *m, uint64_t max, uint64_t stop_pc, const char *until);

#endif /* TIPROF_FS_H */
