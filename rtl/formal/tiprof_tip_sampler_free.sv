// SPDX-License-Identifier: Apache-2.0
// Abstraction of rtl/tiprof_tip_sampler.sv for the formal runs (read instead of it): the same
// ports, a real cycle counter, and a trigger chosen freely by the solver in every enabled cycle
// whose privilege passes the filter. Every trigger sequence the real sampler can produce is one
// of these, so what is proved with it holds for the real sampler; its 32 x 32-bit draw product
// is what makes the real one slow for the SMT solver. The sampler itself is checked in simulation.
module tiprof_tip_sampler
(
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic [1:0]  mode_i,
  input  logic [31:0] period_i,
  input  logic [1:0]  mode_next_i,
  input  logic [4:0]  rand_bits_next_i,
  input  logic [31:0] period_next_i,
  input  logic        restart_i,
  input  logic        lfsr_we_i,
  input  logic [31:0] lfsr_wdata_i,
  input  logic        priv_ok_i,
  output logic        fire_o,
  output logic [63:0] cycle_o,
  output logic [31:0] lfsr_o
);
  (* anyseq *) logic trig;
  logic [63:0] cycle_q;
  logic [31:0] lfsr_q;
  logic        unused;

  assign unused = ^{mode_i, period_i, mode_next_i, rand_bits_next_i, period_next_i, restart_i};
  assign fire_o = en_i && trig && priv_ok_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycle_q <= '0;
      lfsr_q  <= tiprof_reg_pkg::LFSR_RESET;
    end else begin
      cycle_q <= cycle_q + 64'd1;
      if (lfsr_we_i) lfsr_q <= lfsr_wdata_i;
    end
  end

  assign cycle_o = cycle_q;
  assign lfsr_o  = lfsr_q;
endmodule
