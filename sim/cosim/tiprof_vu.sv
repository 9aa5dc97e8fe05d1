// SPDX-License-Identifier: Apache-2.0
// The TIP unit as a C-callable Verilator library (--lib-create tiprof_vu): C (sim/cosim/vu.c)
// owns the loop and clocks it through Verilator's generated DPI-C entry points, with no
// SystemVerilog testbench, no timing and no per-cycle DPI callback. The inputs come packed in a
// few vectors and are registered on the rising edge, exactly as tiprof_tb.sv applies them
// (non-blocking, after the edge), so the unit's logic is evaluated once per cycle:
//   cycle t: in_* = the inputs of cycle t and clk 0 -> 1 in one call (the unit's flops take
//   cycle t-1's inputs, the input registers take cycle t's, the outputs settle for cycle t),
//   then clk -> 0. The clocker metacomments put the in_* ports into the generated
//   seq_update entry point with clk, so each cycle is two calls (two evals), not three.
// in_ctl layout (sim/cosim/vu.c packs it): [7:0] head_valid, [15:8] head_commit,
// [23:16] head_mispred, [31:24] head_flush, [39:32] disp_valid, [42:40] head_bank,
// [43] exception, [45:44] priv, [46] reset, [47] csr_req, [48] csr_we, [50:49] csr_priv,
// [62:51] csr_addr, [63] ROB-contract checks off for this cycle, [79:64] ctx_id. Per-bank fields: in_head_pc/in_disp_pc bank b at
// [b*XLEN +: XLEN], in_disp_idx bank b at [b*16 +: 16].
`include "tiprof_pm_tieoff.svh"

module tiprof_vu #(
  parameter int W       = 4,    // [1,8]
  parameter int XLEN    = 64,   // [32,64]
  parameter int DEPTH   = 8,    // [1,65535]
  parameter int ROBIDXW = 7     // [1,16]
) (
  input  logic                clk,
  // Fields are sliced to W banks; the spare bits of the packed inputs are unused.
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [79:0]         in_ctl /*verilator clocker*/,
  input  logic [W*XLEN-1:0]   in_head_pc /*verilator clocker*/,
  input  logic [W*XLEN-1:0]   in_disp_pc /*verilator clocker*/,
  input  logic [W*16-1:0]     in_disp_idx /*verilator clocker*/,
  input  logic [XLEN-1:0]     in_csr_wdata /*verilator clocker*/,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [XLEN-1:0]     csr_rdata,
  output logic                csr_illegal,
  output logic                irq
);
  localparam int BankW = (W > 1) ? $clog2(W) : 1;

  logic                 rst_n = 1'b0;
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

  `TIPROF_PM_TIEOFF_DECL   // pm_tag_o of a unit without ProfileMe (reads 0)

  tiprof_unit #(
    .W         (W),
    .XLEN      (XLEN),
    .FifoDepth (DEPTH),
    .RobIdxW   (ROBIDXW)
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

  always @(posedge clk) begin
    head_valid   <= in_ctl[W-1:0];
    head_commit  <= in_ctl[8 +: W];
    head_mispred <= in_ctl[16 +: W];
    head_flush   <= in_ctl[24 +: W];
    disp_valid   <= in_ctl[32 +: W];
    head_bank    <= in_ctl[40 +: BankW];
    exception    <= in_ctl[43];
    priv         <= in_ctl[45:44];
    rst_n        <= !in_ctl[46];
    csr_req      <= in_ctl[47];
    csr_we       <= in_ctl[48];
    csr_priv     <= in_ctl[50:49];
    csr_addr     <= in_ctl[62:51];
    ctx_id       <= in_ctl[79:64];
`ifndef SYNTHESIS
    // the unit's ROB-contract assertions judge core-shaped inputs only (struct tb_in.rob_nocheck)
    u_dut.sva_rob_check <= !in_ctl[63];
`endif
    head_pc      <= in_head_pc;
    disp_pc      <= in_disp_pc;
    csr_wdata    <= in_csr_wdata;
    for (int b = 0; b < W; b++) begin
      disp_idx[b*ROBIDXW +: ROBIDXW] <= in_disp_idx[b*16 +: ROBIDXW];
    end
  end
endmodule
