// SPDX-License-Identifier: Apache-2.0
// Finds the first and the last set bit of a per-bank mask in ROB order (start bank, start+1, ...).
module tiprof_bank_order #(
  parameter int W     = 4,                    // [1,8] banks
  localparam int BankW = (W > 1) ? $clog2(W) : 1
) (
  input  logic [W-1:0]     mask_i,    // per-bank flags
  input  logic [BankW-1:0] start_i,   // bank of the oldest entry
  output logic             any_o,     // some bit of mask_i is set
  output logic [BankW-1:0] first_o,   // first set bank in ROB order (start_i when none)
  output logic [BankW-1:0] last_o     // last set bank in ROB order (start_i when none)
);

  // Rotate the mask so that bit k is the k-th bank in ROB order, then use plain priority.
  logic [W-1:0]     rot;
  logic [BankW-1:0] first_k, last_k;

  always_comb begin
    rot = '0;
    for (int k = 0; k < W; k++) begin
      rot[k] = mask_i[(32'(start_i) + 32'(k)) % W];
    end
    first_k = '0;
    for (int k = W - 1; k >= 0; k--) begin
      if (rot[k]) first_k = BankW'(k);
    end
    last_k = '0;
    for (int k = 0; k < W; k++) begin
      if (rot[k]) last_k = BankW'(k);
    end
  end

  assign any_o   = |mask_i;
  assign first_o = BankW'((32'(start_i) + 32'(first_k)) % W);
  assign last_o  = BankW'((32'(start_i) + 32'(last_k)) % W);

endmodule
