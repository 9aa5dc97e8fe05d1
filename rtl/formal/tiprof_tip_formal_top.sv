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
  // no ProfileMe subsystem (PmF = 0): its ports tied off for the implicit connection below
  wire [0:0]      pm_fetch_valid_i = '0, pm_fetch_br_i = '0;
  wire [XLEN-1:0] pm_fetch_pc_i = '0;
  wire [15:0]     pm_fetch_hist_i = '0, pm_fetch_ctx_i = '0;
  wire            pm_fetch_icmiss_i = 1'b0, pm_fetch_itlbmiss_i = 1'b0;
  wire [1:0]      pm_fetch_priv_i = '0;
  wire [1:0]      pm_tag_o;
  wire [1:0]      pm_map_i = '0, pm_ready_i = '0, pm_issue_i = '0, pm_mem_i = '0;
  wire [1:0]      pm_complete_i = '0, pm_retire_i = '0, pm_abort_i = '0, pm_load_i = '0;
  wire [1:0]      pm_store_i = '0, pm_br_valid_i = '0, pm_br_taken_i = '0, pm_br_mispred_i = '0;
  wire [1:0]      pm_ea_valid_i = '0, pm_dc_miss_i = '0, pm_dtlb_miss_i = '0;
  wire [3:0]      pm_abort_reason_i = '0;
  wire [2*XLEN-1:0] pm_ea_i = '0;

  tiprof_unit #(
    .W (W), .XLEN (XLEN), .FifoDepth (FifoDepth), .RobIdxW (RobIdxW)
  ) u_unit (.*);
endmodule
