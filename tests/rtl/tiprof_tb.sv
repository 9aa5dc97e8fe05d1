// SPDX-License-Identifier: Apache-2.0
// Testbench of tiprof_unit: all stimulus and checks are C (sim/cosim/harness.c), reached over
// DPI-C on Verilator or through VPI system tasks on Icarus (define TIPROF_VPI).
`include "tiprof_pm_tieoff.svh"

module tiprof_tb #(
  parameter int W       = 4,    // [1,8]
  parameter int XLEN    = 64,   // [32,64]
  parameter int DEPTH   = 8,    // [1,65535]
  parameter int ROBIDXW = 7,    // [1,16]
  parameter int STAGE   = 0     // [0,1] the unit's InputStage
);
  localparam int BankW = (W > 1) ? $clog2(W) : 1;

`ifndef TIPROF_VPI
  import "DPI-C" function int tb_init(input int w, input int xlen, input int depth,
                                      input int stage, input longint seed, input longint cycles,
                                      input string bench, input string outdir);
  import "DPI-C" function int tb_tick(
    input  bit [63:0]  rdata, input bit illegal, input bit irq,
    output bit rst,
    output bit [7:0]   head_valid, output bit [7:0] head_commit, output bit [511:0] head_pc,
    output bit [7:0]   head_mispred, output bit [7:0] head_flush, output bit [2:0] head_bank,
    output bit exception,
    output bit [7:0]   disp_valid, output bit [511:0] disp_pc, output bit [127:0] disp_idx,
    output bit [1:0]   priv, output bit [15:0] ctx_id,
    output bit csr_req, output bit csr_we, output bit [11:0] csr_addr,
    output bit [63:0]  csr_wdata, output bit [1:0] csr_priv);
  import "DPI-C" function int tb_final();
  import "DPI-C" function int tb_rob_contract();
`endif

  logic clk = 1'b0;
  logic rst_n = 1'b0;

  logic [W-1:0]         head_valid = '0, head_commit = '0, head_mispred = '0, head_flush = '0;
  logic [W*XLEN-1:0]    head_pc = '0, disp_pc = '0;
  logic [BankW-1:0]     head_bank = '0;
  logic                 exception = 1'b0;
  logic [W-1:0]         disp_valid = '0;
  logic [W*ROBIDXW-1:0] disp_idx = '0;
  logic [1:0]           priv = '0;
  logic [15:0]          ctx_id = '0;
  logic                 csr_req = 1'b0, csr_we = 1'b0;
  logic [11:0]          csr_addr = '0;
  logic [XLEN-1:0]      csr_wdata = '0;
  logic [1:0]           csr_priv = '0;
  logic [XLEN-1:0]      csr_rdata;
  logic                 csr_illegal, irq;

  `TIPROF_PM_TIEOFF_DECL   // pm_tag_o of a unit without ProfileMe (reads 0)

  tiprof_unit #(
    .W         (W),
    .XLEN      (XLEN),
    .FifoDepth (DEPTH),
    .RobIdxW   (ROBIDXW),
    .InputStage (STAGE)
  ) u_dut (
    .clk_i              (clk),
    .rst_ni             (rst_n),
    .rob_head_valid_i   (head_valid),
    .rob_head_commit_i  (head_commit),
    .rob_head_pc_i      (head_pc),
    .rob_head_mispred_i (head_mispred),
    .rob_head_flush_i   (head_flush),
    .rob_head_bank_i    (head_bank),
    .rob_exception_i    (exception),
    .rob_disp_valid_i   (disp_valid),
    .rob_disp_pc_i      (disp_pc),
    .rob_disp_idx_i     (disp_idx),
    .priv_i             (priv),
    .ctx_id_i           (ctx_id),
    // no ProfileMe subsystem here (PmF = 0): its ports tied off (rtl/tiprof_pm_tieoff.svh)
    `TIPROF_PM_TIEOFF_PORTS,
    .csr_req_i          (csr_req),
    .csr_we_i           (csr_we),
    .csr_addr_i         (csr_addr),
    .csr_wdata_i        (csr_wdata),
    .csr_priv_i         (csr_priv),
    .csr_rdata_o        (csr_rdata),
    .csr_illegal_o      (csr_illegal),
    .irq_o              (irq)
  );

  // Values the C side returns for the next cycle (full-width; sliced to the configuration).
  bit         n_rst, n_exception, n_csr_req, n_csr_we;
  bit [7:0]   n_head_valid, n_head_commit, n_head_mispred, n_head_flush, n_disp_valid;
  bit [511:0] n_head_pc, n_disp_pc;
  bit [127:0] n_disp_idx;
  bit [2:0]   n_head_bank;
  bit [1:0]   n_priv, n_csr_priv;
  bit [15:0]  n_ctx_id;
  bit [11:0]  n_csr_addr;
  bit [63:0]  n_csr_wdata;
  bit [63:0]  o_rdata;
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
    $tiprof_tb_init(status, W, XLEN, DEPTH, STAGE, seed, cycles, bench, outdir);
`else
    status = tb_init(W, XLEN, DEPTH, STAGE, seed, cycles, bench, outdir);
`endif
    if (status != 0) begin
`ifdef TIPROF_VPI
      $tiprof_tb_final(status);
`else
      status = tb_final();
`endif
      $finish;
    end
  end

  // At each rising edge the DUT's outputs still reflect the cycle that ends now; the C side
  // checks them and returns the next cycle's inputs, applied after the edge (non-blocking).
  always @(posedge clk) begin
    o_rdata = 64'(csr_rdata);
`ifdef TIPROF_VPI
    $tiprof_tb_tick(status, o_rdata, csr_illegal, irq, n_rst, n_head_valid, n_head_commit,
                    n_head_pc, n_head_mispred, n_head_flush, n_head_bank, n_exception,
                    n_disp_valid, n_disp_pc, n_disp_idx, n_priv, n_ctx_id, n_csr_req,
                    n_csr_we, n_csr_addr, n_csr_wdata, n_csr_priv);
`else
    status = tb_tick(o_rdata, csr_illegal, irq, n_rst, n_head_valid, n_head_commit,
                     n_head_pc, n_head_mispred, n_head_flush, n_head_bank, n_exception,
                     n_disp_valid, n_disp_pc, n_disp_idx, n_priv, n_ctx_id, n_csr_req,
                     n_csr_we, n_csr_addr, n_csr_wdata, n_csr_priv);
`endif
    if (status != 0) begin
`ifdef TIPROF_VPI
      $tiprof_tb_final(status);
`else
      status = tb_final();
`endif
      $finish;
    end
`ifndef TIPROF_VPI
`ifndef TIPROF_NETLIST
    // The unit's ROB-contract assertions are off for inputs that break the contract on purpose
    // (tests/rtl/bench_sva.h). Icarus runs no concurrent assertions; a netlist has none.
    u_dut.sva_rob_check <= (tb_rob_contract() != 0);
`endif
`endif
    rst_n        <= !n_rst;
    head_valid   <= n_head_valid[W-1:0];
    head_commit  <= n_head_commit[W-1:0];
    head_mispred <= n_head_mispred[W-1:0];
    head_flush   <= n_head_flush[W-1:0];
    head_bank    <= n_head_bank[BankW-1:0];
    exception    <= n_exception;
    disp_valid   <= n_disp_valid[W-1:0];
    priv         <= n_priv;
    ctx_id       <= n_ctx_id;
    csr_req      <= n_csr_req;
    csr_we       <= n_csr_we;
    csr_addr     <= n_csr_addr;
    csr_wdata    <= n_csr_wdata[XLEN-1:0];
    csr_priv     <= n_csr_priv;
    for (int b = 0; b < W; b++) begin
      head_pc[b*XLEN +: XLEN]     <= n_head_pc[b*64 +: XLEN];
      disp_pc[b*XLEN +: XLEN]     <= n_disp_pc[b*64 +: XLEN];
      disp_idx[b*ROBIDXW +: ROBIDXW] <= n_disp_idx[b*16 +: ROBIDXW];
    end
  end
endmodule
