// SPDX-License-Identifier: Apache-2.0
// Testbench of tiprof_unit's ProfileMe subsystem: the unit with PmF = PMF (TIP at W = 1, its ROB
// inputs idle), all stimulus and checks in C (tests/rtl/pm/pm_harness.c), reached over DPI-C
// (Verilator) or through VPI system tasks (Icarus, define TIPROF_VPI). The ProfileMe inputs come
// as one vector whose layout and unpacking are generated from spec pm_interface
// (tiprof_pm_wire.svh; include/tiprof/tiprof_pm_wire.h packs it).
module tiprof_pm_tb #(
  parameter int PMF   = 4,    // [1,8] fetch slots
  parameter int XLEN  = 64,   // [32,64]
  parameter int DEPTH = 8,    // [1,65535] record FIFO entries
  parameter int TAGS  = 2,    // [1,2] tag ids
  parameter int STAGE = 0     // [0,1] the unit's InputStage
);
  logic clk = 1'b0;

`include "tiprof_pm_wire.svh"

`ifndef TIPROF_VPI
  import "DPI-C" function int pm_tb_init(input int f, input int xlen, input int depth,
                                         input int tags, input int stage, input longint seed,
                                         input longint cycles, input string bench,
                                         input string outdir);
  // ctl: [0] reset, [1] csr_req, [2] csr_we, [4:3] csr_priv, [16:5] csr_addr,
  //      [17] the ProfileMe contract holds for the events the unit sees next cycle,
  //      [127:64] csr_wdata
  import "DPI-C" function int pm_tb_tick(input bit [15:0] tag, input bit [63:0] rdata,
                                         input bit illegal, input bit irq,
                                         output bit [127:0] ctl,
                                         output bit [`TIPROF_PM_WIRE_BITS-1:0] w);
  import "DPI-C" function int pm_tb_final();
`endif

  bit [127:0]      ctl = 128'd1;   // in reset until the C side says otherwise
  logic            rst_n;
  logic [2*PMF-1:0] tag;
  logic [XLEN-1:0] csr_rdata;
  logic            csr_illegal, irq;
  logic [1:0]      unused_tip_tag;

  assign rst_n = !ctl[0];

  tiprof_unit #(
    .W           (1),
    .XLEN        (XLEN),
    .FifoDepth   (1),
    .InputStage  (STAGE),
    .PmF         (PMF),
    .PmFifoDepth (DEPTH),
    .PmTags      (TAGS)
  ) u_dut (
    .clk_i              (clk),
    .rst_ni             (rst_n),
    .rob_head_valid_i   ('0),
    .rob_head_commit_i  ('0),
    .rob_head_pc_i      ('0),
    .rob_head_mispred_i ('0),
    .rob_head_flush_i   ('0),
    .rob_head_bank_i    ('0),
    .rob_exception_i    (1'b0),
    .rob_disp_valid_i   ('0),
    .rob_disp_pc_i      ('0),
    .rob_disp_idx_i     ('0),
    .priv_i             (2'd3),
    .ctx_id_i           ('0),
    `TIPROF_PM_WIRE_PORTS,
    .pm_tag_o           (tag),
    .csr_req_i          (ctl[1]),
    .csr_we_i           (ctl[2]),
    .csr_priv_i         (ctl[4:3]),
    .csr_addr_i         (ctl[16:5]),
    .csr_wdata_i        (ctl[64 +: XLEN]),
    .csr_rdata_o        (csr_rdata),
    .csr_illegal_o      (csr_illegal),
    .irq_o              (irq)
  );

  bit [127:0] n_ctl;
  bit [`TIPROF_PM_WIRE_BITS-1:0] n_w;
  bit [63:0]  o_rdata;
  bit [15:0]  o_tag;
  int         status;
  longint     seed, cycles;
  string      bench, outdir;

  always #5 clk = ~clk;

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (!$value$plusargs("cycles=%d", cycles)) cycles = 100000;
    if (!$value$plusargs("bench=%s", bench)) bench = "random";
    if (!$value$plusargs("outdir=%s", outdir)) outdir = ".";
`ifdef TIPROF_VPI
    $tiprof_pm_tb_init(status, PMF, XLEN, DEPTH, TAGS, STAGE, seed, cycles, bench, outdir);
`else
    status = pm_tb_init(PMF, XLEN, DEPTH, TAGS, STAGE, seed, cycles, bench, outdir);
`endif
    if (status != 0) begin
`ifdef TIPROF_VPI
      $tiprof_pm_tb_final(status);
`else
      status = pm_tb_final();
`endif
      $finish;
    end
  end

  // At each rising edge the DUT's outputs still reflect the cycle that ends now; the C side
  // checks them and returns the next cycle's inputs, applied after the edge (non-blocking).
  always @(posedge clk) begin
    o_rdata = 64'(csr_rdata);
    o_tag   = 16'(tag);
`ifdef TIPROF_VPI
    $tiprof_pm_tb_tick(status, o_tag, o_rdata, csr_illegal, irq, n_ctl, n_w);
`else
    status = pm_tb_tick(o_tag, o_rdata, csr_illegal, irq, n_ctl, n_w);
`endif
    if (status != 0) begin
`ifdef TIPROF_VPI
      $tiprof_pm_tb_final(status);
`else
      status = pm_tb_final();
`endif
      $finish;
    end
    ctl  <= n_ctl;
    pm_w <= n_w;
    // the subsystem's contract assertions are off for events that break it on purpose
    u_dut.g_pm.u_pm.sva_pm_check <= n_ctl[17];
  end
endmodule
