/* SPDX-License-Identifier: Apache-2.0 */
/* DPI-C entry points of the TIP testbench (Verilator): move values between the SystemVerilog
 * testbench (tiprof_tb.sv) and the harness. Compiled by gcc as C; the prototypes are checked
 * against Verilator's generated Vtiprof_tb__Dpi.h. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "svdpi.h"
#include "Vtiprof_tb__Dpi.h"

#include "bench_sva.h"
#include "harness.h"
#include "tb_wire.h"

/* DPI calls carry no context argument; the testbench has exactly one harness instance. */
static struct harness tb_harness;

/* A failed assertion (or $stop, $fatal) ends a Verilated run in abort() after printing the
 * assertion's name: record the failure the harness way (FAIL line, waveform of the last cycles)
 * and exit non-zero. The abort comes from the simulation thread between two harness calls. */
static void tb_on_abort(int sig)
{
	(void)sig;
	signal(SIGABRT, SIG_DFL);
	fflush(stdout);
	tb_fail(&tb_harness.tb, "the simulator stopped: an RTL assertion failed (its name is in the "
		"'Assertion failed' line above)");
	harness_final(&tb_harness);
	fflush(stdout);
	_exit(1);
}

int tb_init(int w, int xlen, int depth, int stage, long long seed, long long cycles,
	    const char *bench,	    const char *outdir)
{
	struct tip_model_cfg cfg = { (unsigned)w, (unsigned)xlen, (unsigned)depth,
				     (unsigned)stage };

	signal(SIGABRT, tb_on_abort);
	return harness_init(&tb_harness, &cfg, bench, (uint64_t)seed, (uint64_t)cycles, outdir,
			    "verilator") ? -1 : 0;
}

int tb_tick(const svBitVecVal *rdata, svBit illegal, svBit irq, svBit *rst,
	    svBitVecVal *head_valid, svBitVecVal *head_commit, svBitVecVal *head_pc,
	    svBitVecVal *head_mispred, svBitVecVal *head_flush, svBitVecVal *head_bank,
	    svBit *exception, svBitVecVal *disp_valid, svBitVecVal *disp_pc,
	    svBitVecVal *disp_idx, svBitVecVal *priv, svBitVecVal *ctx_id, svBit *csr_req,
	    svBit *csr_we, svBitVecVal *csr_addr, svBitVecVal *csr_wdata, svBitVecVal *csr_priv)
{
	struct tb_out out;
	struct tb_in in;
	struct tb_wire wire;
	int rc;

	out.resp.rdata = (uint64_t)rdata[0] | (uint64_t)rdata[1] << 32;
	out.resp.illegal = illegal;
	out.irq = irq;
	rc = harness_tick(&tb_harness, &out, &in);
	tb_wire_pack(&in, &wire);
	*rst = (svBit)wire.rst;
	head_valid[0] = wire.head_valid;
	head_commit[0] = wire.head_commit;
	head_mispred[0] = wire.head_mispred;
	head_flush[0] = wire.head_flush;
	head_bank[0] = wire.head_bank;
	*exception = (svBit)wire.exception;
	disp_valid[0] = wire.disp_valid;
	priv[0] = wire.priv;
	ctx_id[0] = wire.ctx_id;
	*csr_req = (svBit)wire.csr_req;
	*csr_we = (svBit)wire.csr_we;
	csr_addr[0] = wire.csr_addr;
	csr_priv[0] = wire.csr_priv;
	memcpy(head_pc, wire.head_pc, sizeof(wire.head_pc));
	memcpy(disp_pc, wire.disp_pc, sizeof(wire.disp_pc));
	memcpy(disp_idx, wire.disp_idx, sizeof(wire.disp_idx));
	memcpy(csr_wdata, wire.csr_wdata, sizeof(wire.csr_wdata));
	return rc;
}

/* Whether the inputs of the coming cycle keep the ROB contract (bench_sva.h). */
int tb_rob_contract(void)
{
	return !tb_rob_contract_off;
}

int tb_final(void)
{
	exit(harness_final(&tb_harness));
}
