// SPDX-License-Identifier: Apache-2.0
// Offending Instruction Register: the youngest committed (or last excepting) instruction and its flags.
module tiprof_tip_oir #(
  parameter int W     = 4,                    // [1,8] commit width
  parameter int XLEN  = 64,                   // [32,64] address width
  localparam int BankW = (W > 1) ? $clog2(W) : 1
) (
  input  logic              clk_i,             // clock
  input  logic              rst_ni,            // asynchronous reset, active low

  input  logic [W-1:0]      commit_i,          // per bank: valid & commit
  input  logic [BankW-1:0]  youngest_i,        // youngest committing bank
  input  logic              exc_i,             // the oldest entry traps and nothing commits
  input  logic [BankW-1:0]  head_bank_i,       // bank of the oldest entry
  input  logic [W*XLEN-1:0] head_pc_i,         // per-bank head addresses
  input  logic [W-1:0]      head_mispred_i,    // per-bank mispredict flags
  input  logic [W-1:0]      head_flush_i,      // per-bank flush flags
  input  logic [1:0]        priv_i,            // privilege of the oldest entry
  input  logic [15:0]       ctx_i,             // context of the oldest entry

  output logic [XLEN-1:0]   addr_o,            // OIR address
  output logic              mispred_o,         // OIR flags
  output logic              flush_o,
  output logic              exception_o,
  output logic [1:0]        priv_o,            // OIR privilege
  output logic [15:0]       ctx_o              // OIR context
);

  logic [XLEN-1:0] addr_q, addr_d;
  logic [2:0]      flags_q, flags_d;   // {exception, flush, mispred}
  logic [1:0]      priv_q, priv_d;
  logic [15:0]     ctx_q, ctx_d;

  always_comb begin
    addr_d  = addr_q;
    flags_d = flags_q;
    priv_d  = priv_q;
    ctx_d   = ctx_q;
    if (|commit_i) begin
      for (int unsigned i = 0; i < W; i++) begin
        if (youngest_i == BankW'(i)) begin
          addr_d  = head_pc_i[i*XLEN +: XLEN];
          flags_d = {1'b0, head_flush_i[i], head_mispred_i[i]};
        end
      end
      priv_d  = priv_i;
      ctx_d   = ctx_i;
    end else if (exc_i) begin
      for (int unsigned i = 0; i < W; i++) begin
        if (head_bank_i == BankW'(i)) addr_d = head_pc_i[i*XLEN +: XLEN];
      end
      flags_d = 3'b100;
      priv_d  = priv_i;
      ctx_d   = ctx_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      addr_q  <= '0;
      flags_q <= '0;
      priv_q  <= '0;
      ctx_q   <= '0;
    end else begin
      addr_q  <= addr_d;
      flags_q <= flags_d;
      priv_q  <= priv_d;
      ctx_q   <= ctx_d;
    end
  end

  assign addr_o      = addr_q;
  assign mispred_o   = flags_q[0];
  assign flush_o     = flags_q[1];
  assign exception_o = flags_q[2];
  assign priv_o      = priv_q;
  assign ctx_o       = ctx_q;

endmodule
