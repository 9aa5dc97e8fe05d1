// SPDX-License-Identifier: Apache-2.0
// tiprof_wb_unit: the TIP unit as a Wishbone peripheral (tiprof_wb + tiprof_unit): what a LiteX
// SoC instantiates beside a VexRiscv or NaxRiscv core, the ROB interface wired from the core's
// commit stage (docs/fpga.md "Signal maps") and irq_o to a local interrupt of the hart.
// No ProfileMe subsystem (PmF = 0).
`include "tiprof_pm_tieoff.svh"

module tiprof_wb_unit #(
  parameter int W         = 2,    // [1,8]
  parameter int XLEN      = 32,   // [32,64]
  parameter int FifoDepth = 16,   // [1,65535]
  parameter int RobIdxW   = 7,    // [1,16]
  parameter int InputStage = 1    // [0,1]
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [W-1:0]         rob_head_valid_i,
  input  logic [W-1:0]         rob_head_commit_i,
  input  logic [W*XLEN-1:0]    rob_head_pc_i,
  input  logic [W-1:0]         rob_head_mispred_i,
  input  logic [W-1:0]         rob_head_flush_i,
  input  logic [((W > 1) ? $clog2(W) : 1)-1:0] rob_head_bank_i,
  input  logic                 rob_exception_i,
  input  logic [W-1:0]         rob_disp_valid_i,
  input  logic [W*XLEN-1:0]    rob_disp_pc_i,
  input  logic [W*RobIdxW-1:0] rob_disp_idx_i,
  input  logic [1:0]           priv_i,
  input  logic [15:0]          ctx_id_i,
  input  logic                 wb_cyc_i,
  input  logic                 wb_stb_i,
  input  logic                 wb_we_i,
  input  logic [12:0]          wb_adr_i,
  input  logic [XLEN/8-1:0]    wb_sel_i,
  input  logic [XLEN-1:0]      wb_dat_i,
  output logic [XLEN-1:0]      wb_dat_o,
  output logic                 wb_ack_o,
  output logic                 wb_err_o,
  output logic                 irq_o
);
  logic            csr_req, csr_we, csr_illegal;
  logic [11:0]     csr_addr;
  logic [XLEN-1:0] csr_wdata, csr_rdata;
  logic [1:0]      csr_priv;

  tiprof_wb #(.XLEN(XLEN)) u_wb (
    .clk_i, .rst_ni, .wb_cyc_i, .wb_stb_i, .wb_we_i, .wb_adr_i, .wb_sel_i, .wb_dat_i, .wb_dat_o,
    .wb_ack_o, .wb_err_o,
    .csr_req_o(csr_req), .csr_we_o(csr_we), .csr_addr_o(csr_addr), .csr_wdata_o(csr_wdata),
    .csr_priv_o(csr_priv), .csr_rdata_i(csr_rdata), .csr_illegal_i(csr_illegal)
  );

  `TIPROF_PM_TIEOFF_DECL

  tiprof_unit #(
    .W(W), .XLEN(XLEN), .FifoDepth(FifoDepth), .RobIdxW(RobIdxW), .InputStage(InputStage)
  ) u_unit (
    .clk_i, .rst_ni,
    .rob_head_valid_i, .rob_head_commit_i, .rob_head_pc_i, .rob_head_mispred_i,
    .rob_head_flush_i, .rob_head_bank_i, .rob_exception_i, .rob_disp_valid_i, .rob_disp_pc_i,
    .rob_disp_idx_i, .priv_i, .ctx_id_i,
    `TIPROF_PM_TIEOFF_PORTS,
    .csr_req_i(csr_req), .csr_we_i(csr_we), .csr_addr_i(csr_addr), .csr_wdata_i(csr_wdata),
    .csr_priv_i(csr_priv), .csr_rdata_o(csr_rdata), .csr_illegal_o(csr_illegal), .irq_o
  );
endmodule
