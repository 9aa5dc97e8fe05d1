// SPDX-License-Identifier: Apache-2.0
// Gate-level check: stands in for rtl/tiprof_unit.sv around the Yosys netlist of one
// configuration (module tiprof_unit_netlist, written by make test-tip-netlist), so that the
// testbench and its C harness drive the synthesized unit exactly as they drive the RTL and
// compare it with the C model every cycle. The parameters must match the netlist's
// configuration; the netlist has none.
module tiprof_unit #(
  parameter int W         = 4,    // [1,8]
  parameter int XLEN      = 64,   // [32,64]
  parameter int FifoDepth = 8,    // [1,65535]
  parameter int RobIdxW   = 7,    // [1,16]
  parameter int InputStage = 0,   // the netlists are synthesized without the input stage
  parameter int PmF       = 0,    // the netlists are synthesized without ProfileMe
  parameter int PmFifoDepth = 8,
  parameter int PmTags    = 2,
  localparam int BankW    = (W > 1) ? $clog2(W) : 1,
  localparam int PmFw     = (PmF > 0) ? PmF : 1
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
  input  logic [PmFw-1:0]      pm_fetch_valid_i,
  input  logic [PmFw*XLEN-1:0] pm_fetch_pc_i,
  input  logic [PmFw-1:0]      pm_fetch_br_i,
  input  logic [15:0]          pm_fetch_hist_i,
  input  logic                 pm_fetch_icmiss_i,
  input  logic                 pm_fetch_itlbmiss_i,
  input  logic [1:0]           pm_fetch_priv_i,
  input  logic [15:0]          pm_fetch_ctx_i,
  output logic [2*PmFw-1:0]    pm_tag_o,
  input  logic [1:0]           pm_map_i, pm_ready_i, pm_issue_i, pm_mem_i, pm_complete_i,
  input  logic [1:0]           pm_retire_i, pm_abort_i,
  input  logic [3:0]           pm_abort_reason_i,
  input  logic [1:0]           pm_load_i, pm_store_i, pm_br_valid_i, pm_br_taken_i, pm_br_mispred_i,
  input  logic [1:0]           pm_ea_valid_i,
  input  logic [2*XLEN-1:0]    pm_ea_i,
  input  logic [1:0]           pm_dc_miss_i, pm_dtlb_miss_i,
  input  logic                 csr_req_i,
  input  logic                 csr_we_i,
  input  logic [11:0]          csr_addr_i,
  input  logic [XLEN-1:0]      csr_wdata_i,
  input  logic [1:0]           csr_priv_i,
  output logic [XLEN-1:0]      csr_rdata_o,
  output logic                 csr_illegal_o,
  output logic                 irq_o
);
  localparam int Unused = FifoDepth + PmFifoDepth + PmTags;	// the netlist was synthesized for these

  initial begin
    assert (InputStage == 0) else $fatal(1, "netlist shim: the netlist has no input stage");
    assert (PmF == 0) else $fatal(1, "netlist shim: the netlist has no ProfileMe subsystem");
  end

  tiprof_unit_netlist u_netlist (
    .clk_i, .rst_ni, .rob_head_valid_i, .rob_head_commit_i, .rob_head_pc_i,
    .rob_head_mispred_i, .rob_head_flush_i, .rob_head_bank_i, .rob_exception_i,
    .rob_disp_valid_i, .rob_disp_pc_i, .rob_disp_idx_i, .priv_i, .ctx_id_i,
    .pm_fetch_valid_i, .pm_fetch_pc_i, .pm_fetch_br_i, .pm_fetch_hist_i, .pm_fetch_icmiss_i,
    .pm_fetch_itlbmiss_i, .pm_fetch_priv_i, .pm_fetch_ctx_i, .pm_tag_o, .pm_map_i, .pm_ready_i,
    .pm_issue_i, .pm_mem_i, .pm_complete_i, .pm_retire_i, .pm_abort_i, .pm_abort_reason_i,
    .pm_load_i, .pm_store_i, .pm_br_valid_i, .pm_br_taken_i, .pm_br_mispred_i, .pm_ea_valid_i,
    .pm_ea_i, .pm_dc_miss_i, .pm_dtlb_miss_i, .csr_req_i,
    .csr_we_i, .csr_addr_i, .csr_wdata_i, .csr_priv_i, .csr_rdata_o, .csr_illegal_o, .irq_o
  );
endmodule
