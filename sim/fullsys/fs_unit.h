/* SPDX-License-Identifier: Apache-2.0 */
/* The TIP unit in the full-system hart (docs/fullsys.md, "The unit in the hart"): the
 * Verilated RTL (sim/cosim's C-driven build, vu.c) behind the hart's custom CSRs, clocked by
 * the hart, with the C reference model in lockstep through sim/cosim's harness (every cycle's
 * CSR read data, illegal flag and irq_o compared; the waveform of the last cycles on a
 * difference). Its ROB interface is fed from the instructions the ISS retires: one
 * instruction per cycle, in order (see fs_unit.c for the cycles of a trap, a flush and a CSR
 * access). */
#ifndef TIPROF_FS_UNIT_H
#define TIPROF_FS_UNIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The unit's build parameters (its Verilator build, $(BUILD)/vu/1-64-16) and interrupt. */
#define FS_UNIT_W      1
#define FS_UNIT_XLEN   64
#define FS_UNIT_DEPTH  16
#define FS_UNIT_IRQ    16   /* local interrupt 16: mip/mie/mideleg bit 16 */

struct fs_unit;

/* The RTL unit and its model, reset, then TIP_MENABLE.S = 1 written from M-mode (the
 * firmware's part: Debian's OpenSBI does not know the unit). On a difference the last cycles
 * go to the VCD file vcd_path; every sample the model's FIFO gives up to a POP is printed on
 * log (NULL: none) as a `tiprof dump` sample line. NULL with a reason in err. */
struct fs_unit *fs_unit_open(const char *vcd_path, FILE *log, char *err, size_t errlen);

/* Whether CSR number csr belongs to the unit (the custom ranges 0x5C0-0x5FF, 0x7C0-0x7FF and
 * 0xDC0-0xDFF; the unit itself decides which of them exist). */
int fs_unit_owns(unsigned csr);

/* One CSR access by the instruction at pc (privilege priv, context ctx): a cycle in which that
 * instruction is the ROB's head and does not commit yet. Returns 0 (a read's value in
 * *rdata), 1 if the unit calls the access illegal, -1 if the RTL and the model differ (the
 * run must stop: fs_unit_error). */
int fs_unit_csr(struct fs_unit *u, uint64_t pc, unsigned priv, unsigned ctx, int we,
		unsigned csr, uint64_t wdata, uint64_t *rdata);

/* The instruction at pc committed (privilege priv, context ctx; fu its functional-unit class,
 * enum rv_fu). An integer or FP divide first stalls at the head for the core model's divide
 * latency less one. flush: it flushes the pipeline (xRET, sfence.vma, fence.i, a write of
 * satp/mstatus/sstatus): one more cycle follows with the ROB empty and next_pc dispatched. 0 or
 * -1 as fs_unit_csr. */
int fs_unit_commit(struct fs_unit *u, uint64_t pc, unsigned priv, unsigned ctx, unsigned fu,
		   int flush, uint64_t next_pc, unsigned next_priv, unsigned next_ctx);

/* The instruction at pc trapped (an exception, or an interrupt taken before it): a cycle with
 * it at the head and rob_exception, then a cycle with the ROB empty and the handler's first
 * instruction (handler_pc, at next_priv) dispatched. 0 or -1. */
int fs_unit_trap(struct fs_unit *u, uint64_t pc, unsigned priv, unsigned ctx,
		 uint64_t handler_pc, unsigned next_priv, unsigned next_ctx);

/* irq_o for the coming cycle. */
int fs_unit_irq(const struct fs_unit *u);

/* The lockstep failure (RTL and model differ), with the waveform's path. */
const char *fs_unit_error(const struct fs_unit *u);

/* Print the unit's figures on f (cycles, CSR accesses, samples taken, lost, popped; cycles
 * compared), write them as a last `model:` line on the sample log, free everything. Returns 0,
 * or 1 if a difference was found. NULL is fine. */
int fs_unit_close(struct fs_unit *u, FILE *f);

#endif /* TIPROF_FS_UNIT_H */
