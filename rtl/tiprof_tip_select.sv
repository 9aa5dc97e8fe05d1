// SPDX-License-Identifier: Apache-2.0
// Time-proportional sample selection (TIP §3.1, Fig. 6): classifies the cycle's commit state and
// assembles the sample a trigger in this cycle takes, and the completion of pending Drained samples.
module tiprof_tip_select #(
  parameter int W     = 4,                    // [1,8] commit width
  parameter int XLEN  = 64,                   // [32,64] address width
  localparam int BankW = (W > 1) ? $clog2(W) : 1
) (
  // ROB interface (this cycle)
  input  logic [W-1:0]      head_valid_i,      // per-bank head entry valid
  input  logic [W-1:0]      commit_i,          // per bank: valid & commit
  input  logic [W*XLEN-1:0] head_pc_i,         // per-bank head addresses
  input  logic [BankW-1:0]  head_bank_i,       // oldest bank (next dispatch bank when empty)
  input  logic              empty_i,           // the ROB is empty
  input  logic [W-1:0]      disp_valid_i,      // per-bank dispatch valid
  input  logic [W*XLEN-1:0] disp_pc_i,         // per-bank dispatch addresses
  input  logic [1:0]        priv_i,            // privilege of the oldest entry
  input  logic [15:0]       ctx_i,             // context of the oldest entry
  // OIR (value at the start of the cycle)
  input  logic [XLEN-1:0]   oir_addr_i,
  input  logic              oir_mispred_i,
  input  logic              oir_flush_i,
  input  logic              oir_exception_i,
  input  logic [1:0]        oir_priv_i,
  input  logic [15:0]       oir_ctx_i,
  // the sample a trigger in this cycle takes
  output logic [4:0]        flags_o,           // {exception, flush, mispred, frontend, stalled}
  output logic [2:0]        bank_o,
  output logic [W-1:0]      valid_o,
  output logic [W*XLEN-1:0] addr_o,
  output logic [1:0]        priv_o,            // also the privilege the filter checks
  output logic [15:0]       ctx_o,
  output logic              pending_o,         // Drained with no dispatch yet: completes later
  // completion of pending Drained samples in this cycle
  output logic              cmpl_o,
  output logic [2:0]        cmpl_bank_o,
  output logic [W-1:0]      cmpl_valid_o,
  output logic [W*XLEN-1:0] cmpl_addr_o
);

  logic             any_commit, any_disp, oir_flagged;
  logic [BankW-1:0] first_disp;
  logic [BankW-1:0] unused_last_disp;

  tiprof_bank_order #(
    .W (W)
  ) u_disp_order (
    .mask_i  (disp_valid_i),
    .start_i (head_bank_i),
    .any_o   (any_disp),
    .first_o (first_disp),
    .last_o  (unused_last_disp)
  );

  assign any_commit  = |commit_i;
  assign oir_flagged = oir_mispred_i | oir_flush_i | oir_exception_i;

  // Completion: the first instruction entering an empty ROB, or (fallback) the head entry.
  always_comb begin
    cmpl_o       = 1'b0;
    cmpl_bank_o  = '0;
    cmpl_valid_o = '0;
    cmpl_addr_o  = '0;
    if (empty_i && any_disp) begin
      cmpl_o      = 1'b1;
      cmpl_bank_o = 3'(first_disp);
      for (int unsigned i_c = 0; i_c < W; i_c++) begin
        if (first_disp == BankW'(i_c)) begin
          cmpl_valid_o[i_c]              = 1'b1;
          cmpl_addr_o[i_c*XLEN +: XLEN] = disp_pc_i[i_c*XLEN +: XLEN];
        end
      end
    end else if (!empty_i) begin
      cmpl_o      = 1'b1;
      cmpl_bank_o = 3'(head_bank_i);
      for (int unsigned i_c = 0; i_c < W; i_c++) begin
        if (head_bank_i == BankW'(i_c)) begin
          cmpl_valid_o[i_c]              = 1'b1;
          cmpl_addr_o[i_c*XLEN +: XLEN] = head_pc_i[i_c*XLEN +: XLEN];
        end
      end
    end
  end

  always_comb begin
    flags_o   = '0;
    bank_o    = '0;
    valid_o   = '0;
    addr_o    = '0;
    priv_o    = priv_i;
    ctx_o     = ctx_i;
    pending_o = 1'b0;
    if (any_commit) begin
      // Computing: each committing instruction gets an equal share of the cycle.
      bank_o  = 3'(head_bank_i);
      valid_o = commit_i;
      for (int unsigned i_s = 0; i_s < W; i_s++) begin
        if (commit_i[i_s]) addr_o[i_s*XLEN +: XLEN] = head_pc_i[i_s*XLEN +: XLEN];
      end
    end else if (!empty_i) begin
      // Stalled: the cycle goes to the oldest entry (the ROB head).
      flags_o[0] = 1'b1;
      bank_o     = 3'(head_bank_i);
      valid_o    = head_valid_i;
      for (int unsigned i_s = 0; i_s < W; i_s++) begin
        if (head_valid_i[i_s]) addr_o[i_s*XLEN +: XLEN] = head_pc_i[i_s*XLEN +: XLEN];
      end
    end else if (oir_flagged) begin
      // Flushed: the cycle goes to the instruction that emptied the ROB.
      flags_o            = {oir_exception_i, oir_flush_i, oir_mispred_i, 2'b00};
      valid_o[0]         = 1'b1;
      addr_o[XLEN-1:0]   = oir_addr_i;
      priv_o             = oir_priv_i;
      ctx_o              = oir_ctx_i;
    end else begin
      // Drained: the cycle goes to the next instruction to enter the ROB.
      flags_o[1] = 1'b1;
      priv_o     = oir_priv_i;
      ctx_o      = oir_ctx_i;
      if (cmpl_o) begin
        bank_o  = cmpl_bank_o;
        valid_o = cmpl_valid_o;
        addr_o  = cmpl_addr_o;
      end else begin
        pending_o = 1'b1;
      end
    end
  end

endmodule
