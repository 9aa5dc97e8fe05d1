// SPDX-License-Identifier: Apache-2.0
// Top of the formal runs: the unit in the configuration under proof, every input free (the
// solver chooses them each step, within the assumptions of tiprof_tip_formal.sv).
module tiprof_tip_formal_top #(
  parameter int W         = 2,
  parameter int XLEN      = 32,
  parameter int FifoDepth = 3,
  parameter int RobIdxW   = 2,
  localparam int BankW    = (W > 1) ? $clog2(W) : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [W-1:0]         rob_head_valid_i,
  input  logic [W-1:0]         rob_head_commit_i,
  input  logic [W*XLEN-1:0]    rob_head_pc_i,
  input  logic [W-1:0]         rob_head_mispred_i,
  input  logic [W-1:0]         rob_head_flush_i,
  input  logic [BankW-1:0]     rob_head_bank_i,
  input  logic                 rob_exception_i,
  input  logic [W-1:0]         rob_disp_valid_i,
  input  logic [W*XLEN-1:0]    rob_disp_pc_i,
  input  logic [W*RobIdxW-1:0] rob_disp_idx_i,
  input  logic [1:0]           priv_i,
  input  logic [15:0]          ctx_id_i,
  input  logic                 csr_req_i,
  input  logic                 csr_we_i,
  input  logic [11:0]          csr_addr_i,
  input  logic [XLEN-1:0]      csr_wdata_i,
  input  logic [1:0]           csr_priv_i,
  output logic [XLEN-1:0]      csr_rdata_o,
  output logic                 csr_illegal_o,
  output logic                 irq_o
);
  tiprof_unit #(
    .W (W), .XLEN (XLEN), .FifoDepth (FifoDepth), .RobIdxW (RobIdxW)
  ) u_unit (.*);
endmodule
