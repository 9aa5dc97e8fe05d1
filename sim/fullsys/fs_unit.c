/* SPDX-License-Identifier: Apache-2.0 */
/* The TIP unit in the full-system hart (contract in fs_unit.h; docs/fullsys.md).
 *
 * The RTL is sim/cosim's C-driven Verilator build of the unit (tiprof_vu.sv + vu.c, DPI-C
 * entry points, the RTL's assertions on); the C model runs in lockstep through the harness's
 * lockstep core (sim/cosim/harness.c), exactly as `tiprof sim --rtl` does. Nothing here is
 * hand-written C++.
 *
 * The ROB feed (functional mode: the ISS retires one instruction per step, in order). The
 * unit has one bank (W = 1) and sees one cycle per instruction:
 *   commit   head_valid = head_commit = 1, head_pc = its pc, priv/ctx_id its privilege and
 *            address space (satp.ASID); head_flush for an instruction that flushes the
 *            pipeline (an xRET, sfence.vma, fence.i, a write of satp/mstatus/sstatus) - then
 *            one more cycle with the ROB empty and the next instruction dispatched (refill);
 *   trap     an instruction that raised an exception, or before which an interrupt was taken:
 *            it is the head and rob_exception is set (nothing commits), then the refill cycle
 *            with the handler's first instruction dispatched;
 *   CSR      every access to the unit's CSRs is a cycle of its own in which the CSR
 *            instruction is the head and does not commit yet (stalled), before the cycle in
 *            which it commits (a csrrw is the ISS's read then write: two cycles);
 *   divide   an integer divide/remainder or an FP divide/square root is the head without
 *            committing for the core model's latency less one (the 1wide preset's lat_div,
 *            lat_fdiv: unpipelined units), then commits - so the unit sees the time a divide
 *            costs, as a core's ROB head shows it (other latencies are not modelled here).
 * So privilege and context change only across a trap or a flush (the ROB contract the RTL
 * asserts), samples are Computing, Stalled (CSR cycles) or Flushed (after traps and flushes),
 * never Drained (the ROB is empty only after a flush), and no branch is mispredicted (there
 * is no predictor: MISPRED never appears). WFI's fast-forward of mtime is one cycle. */
#include "fs_unit.h"

#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"
#include "harness.h"
#include "sample_file.h"
#include "vu.h"

struct fs_unit {
	struct harness h;       /* the C model in lockstep, comparison, waveform ring */
	struct vu *vu;          /* the RTL */
	FILE *log;              /* popped samples (tiprof dump lines) */
	struct sf_header hdr;   /* W, XLEN for the dump lines */
	int irq;                /* irq_o for the coming cycle */
	int failed;             /* the RTL and the model differed */
	char err[1100];
	uint64_t cycles, csr_accesses, taken, lost, popped;
	unsigned div_stall, fdiv_stall;	/* cycles a divide waits at the head (core model) */
};

/* A failed RTL assertion (a ROB input that breaks the contract) ends a Verilated run in
 * abort() after Verilator printed the assertion's name: write the waveform and say so. A signal
 * handler has no context argument: this is the machine's one unit. */
static struct fs_unit *fs_unit_open_unit;

static void on_abort(int sig)
{
	struct fs_unit *u = fs_unit_open_unit;

	(void)sig;
	signal(SIGABRT, SIG_DFL);
	fflush(stdout);
	if (u && harness_dump_vcd(&u->h) == 0)
		fprintf(stderr, "tiprof-fs: the RTL unit stopped at unit cycle %" PRIu64 ": an RTL "
			"assertion failed (its name is above); waveform of the last %u cycles: %s\n",
			u->cycles, vcd_ring_count(u->h.ring), u->h.vcd_path);
	else
		fprintf(stderr, "tiprof-fs: the RTL unit stopped: an RTL assertion failed\n");
	_exit(2);
}

int fs_unit_owns(unsigned csr)
{
	return (csr >= 0x5c0 && csr <= 0x5ff) || (csr >= 0x7c0 && csr <= 0x7ff) ||
	       (csr >= 0xdc0 && csr <= 0xdff);
}

/* One unit cycle with inputs in: the RTL and the model, compared; the pop log and counts. */
static int cycle(struct fs_unit *u, struct tb_in *in, struct tb_out *ref)
{
	const struct tip_model *m = &u->h.model;
	struct tiprof_sample oldest;
	unsigned complete = 0;
	struct tb_out dut;
	int pop = in->csr.req && in->csr.we && in->csr.addr == TIPROF_TIP_POP;

	if (u->failed)
		return -1;
	if (pop && (complete = tip_model_fifo_count(m)) > 0)
		oldest = m->fifo[m->head].s;
	vu_cycle(u->vu, in, &dut);
	if (harness_check(&u->h, in, &dut, ref) < 0) {
		u->failed = 1;
		if (harness_dump_vcd(&u->h) == 0)
			snprintf(u->err, sizeof(u->err), "%s; waveform of the last %u cycles: %s",
				 u->h.tb.msg, vcd_ring_count(u->h.ring), u->h.vcd_path);
		else
			snprintf(u->err, sizeof(u->err), "%s; cannot write the waveform %s",
				 u->h.tb.msg, u->h.vcd_path);
		return -1;
	}
	u->cycles++;
	u->irq = dut.irq;
	if (m->fired) {
		if (m->fired_lost)
			u->lost++;
		else
			u->taken++;
	}
	if (pop && complete && !ref->resp.illegal) {
		if (u->log)
			sf_dump_sample(u->log, &u->hdr, u->popped, &oldest);
		u->popped++;
	}
	return 0;
}

static void rob_head(struct tb_in *in, uint64_t pc, unsigned priv, unsigned ctx)
{
	memset(in, 0, sizeof(*in));
	in->rob.head_valid = 1;
	in->rob.head_pc[0] = pc;
	in->rob.priv = (uint8_t)priv;
	in->rob.ctx_id = (uint16_t)ctx;
}

/* The cycle after a flush or a trap: the ROB empty, pc dispatched into bank 0. */
static int refill(struct fs_unit *u, uint64_t pc, unsigned priv, unsigned ctx)
{
	struct tb_in in;
	struct tb_out ref;

	memset(&in, 0, sizeof(in));
	in.rob.disp_valid = 1;
	in.rob.disp_pc[0] = pc;
	in.rob.priv = (uint8_t)priv;
	in.rob.ctx_id = (uint16_t)ctx;
	return cycle(u, &in, &ref);
}

int fs_unit_csr(struct fs_unit *u, uint64_t pc, unsigned priv, unsigned ctx, int we,
		unsigned csr, uint64_t wdata, uint64_t *rdata)
{
	struct tb_in in;
	struct tb_out ref;

	rob_head(&in, pc, priv, ctx);
	in.csr.req = 1;
	in.csr.we = we;
	in.csr.addr = (uint16_t)csr;
	in.csr.wdata = wdata;
	in.csr.priv = (uint8_t)priv;
	u->csr_accesses++;
	if (cycle(u, &in, &ref) < 0)
		return -1;
	*rdata = ref.resp.rdata;
	return ref.resp.illegal ? 1 : 0;
}

int fs_unit_commit(struct fs_unit *u, uint64_t pc, unsigned priv, unsigned ctx, unsigned fu,
		   int flush, uint64_t next_pc, unsigned next_priv, unsigned next_ctx)
{
	unsigned stall = fu == RV_FU_DIV ? u->div_stall : fu == RV_FU_FDIV ? u->fdiv_stall : 0;
	struct tb_in in;
	struct tb_out ref;

	for (unsigned i = 0; i < stall; i++) {
		rob_head(&in, pc, priv, ctx);
		if (cycle(u, &in, &ref) < 0)
			return -1;
	}
	rob_head(&in, pc, priv, ctx);
	in.rob.head_commit = 1;
	in.rob.head_flush = (uint8_t)!!flush;
	if (cycle(u, &in, &ref) < 0)
		return -1;
	return flush ? refill(u, next_pc, next_priv, next_ctx) : 0;
}

int fs_unit_trap(struct fs_unit *u, uint64_t pc, unsigned priv, unsigned ctx,
		 uint64_t handler_pc, unsigned next_priv, unsigned next_ctx)
{
	struct tb_in in;
	struct tb_out ref;

	rob_head(&in, pc, priv, ctx);
	in.rob.exception = 1;
	if (cycle(u, &in, &ref) < 0)
		return -1;
	return refill(u, handler_pc, next_priv, next_ctx);
}

int fs_unit_irq(const struct fs_unit *u)
{
	return u->irq;
}

const char *fs_unit_error(const struct fs_unit *u)
{
	return u->err;
}

struct fs_unit *fs_unit_open(const char *vcd_path, FILE *log, char *err, size_t errlen)
{
	struct tip_model_cfg cfg = { FS_UNIT_W, FS_UNIT_XLEN, FS_UNIT_DEPTH, 0 };
	struct fs_unit *u = calloc(1, sizeof(*u));
	struct tb_out dut, ref;
	struct tb_in in;
	struct core_cfg core;

	if (!u) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (core_cfg_preset(&core, "1wide") != 0) {
		snprintf(err, errlen, "the core model has no 1wide preset");
		goto fail;
	}
	u->div_stall = core.lat_div - 1;
	u->fdiv_stall = core.lat_fdiv - 1;
	if (harness_setup(&u->h, &cfg, "verilator") != 0) {
		snprintf(err, errlen, "%s", u->h.tb.msg);
		goto fail;
	}
	u->h.tb.log = NULL;
	snprintf(u->h.vcd_path, sizeof(u->h.vcd_path), "%s", vcd_path);
	u->vu = vu_open(&cfg, err, errlen);
	if (!u->vu)
		goto fail;
	sf_header_init(&u->hdr);
	u->hdr.w = FS_UNIT_W;
	u->hdr.xlen = FS_UNIT_XLEN;
	u->hdr.fifo_depth = FS_UNIT_DEPTH;
	u->log = log;
	fs_unit_open_unit = u;
	signal(SIGABRT, on_abort);
	/* one reset cycle (the RTL starts in reset, the model is freshly reset) */
	vu_cycle(u->vu, &u->h.in, &dut);
	harness_check(&u->h, &u->h.in, &dut, &ref);
	/* the firmware's part: S-mode may use the unit (an M-mode write before the hart starts,
	 * the ROB empty) */
	memset(&in, 0, sizeof(in));
	tb_csr(&in.csr, 1, TIPROF_TIP_MENABLE, 1, 3);
	if (cycle(u, &in, &ref) != 0 || ref.resp.illegal) {
		snprintf(err, errlen, "the unit refused TIP_MENABLE.S = 1 from M-mode%s%s",
			 u->failed ? ": " : "", u->failed ? u->err : "");
		goto fail;
	}
	return u;
fail:
	fs_unit_close(u, NULL);
	return NULL;
}

int fs_unit_close(struct fs_unit *u, FILE *f)
{
	int failed;

	if (!u)
		return 0;
	failed = u->failed;
	if (f)
		fprintf(f, "tiprof-fs: unit (W=%u XLEN=%u FIFO %u, RTL = C model every cycle): "
			"%" PRIu64 " cycles, %" PRIu64 " CSR accesses, samples taken %" PRIu64
			", lost %" PRIu64 ", popped %" PRIu64 "; %lu cycles compared%s\n",
			FS_UNIT_W, FS_UNIT_XLEN, FS_UNIT_DEPTH, u->cycles, u->csr_accesses,
			u->taken, u->lost, u->popped, u->h.tb.checks,
			failed ? ", a DIFFERENCE" : ", equal");
	if (u->log)
		fprintf(u->log, "model: taken=%" PRIu64 " lost=%" PRIu64 " popped=%" PRIu64
			" left=%u cycles=%" PRIu64 "\n", u->taken, u->lost, u->popped,
			u->h.model.used, u->cycles);
	if (fs_unit_open_unit == u) {
		signal(SIGABRT, SIG_DFL);
		fs_unit_open_unit = NULL;
	}
	vu_close(u->vu);
	vcd_ring_free(u->h.ring);	/* a difference's waveform was written when found */
	u->h.ring = NULL;
	u->h.status = failed ? -1 : 1;
	u->h.tb.log = NULL;
	harness_final(&u->h);
	free(u);
	return failed;
}
