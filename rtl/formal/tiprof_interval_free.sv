// SPDX-License-Identifier: Apache-2.0
// Abstraction of rtl/tiprof_interval.sv for the formal runs (read instead of it): the same
// ports and LFSR register, and a sample point chosen freely by the solver in every enabled cycle
// with a unit (always unit 0, no second point: TIP's one unit per cycle). Every point sequence
// the real interval block can produce for TIP is one of these, so what is proved with it holds
// for the real block; its 32 x 32-bit draw product is what makes the real one slow for the SMT
// solver. The interval block itself is checked in simulation.
module tiprof_interval
#(
  parameter int          Units       = 1,
  parameter logic [31:0] LfsrReset   = tiprof_reg_pkg::LFSR_RESET,
  parameter logic [31:0] TargetReset = tiprof_reg_pkg::TIP_PERIOD_RESET - 32'd1,
  parameter logic [4:0]  RandBitsReset = tiprof_reg_pkg::TIP_CTRL_RESET[12:8],
  parameter bit          NextDrawB   = 1'b0,
  localparam int         NW          = $clog2(Units + 1),
  localparam int         UnitW       = (Units > 1) ? $clog2(Units) : 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             en_i,
  input  logic [1:0]       mode_i,
  input  logic [31:0]      period_i,
  input  logic [1:0]       mode_next_i,
  input  logic [4:0]       rand_bits_next_i,
  input  logic [31:0]      period_next_i,
  input  logic             restart_i,
  input  logic             lfsr_we_i,
  input  logic [31:0]      lfsr_wdata_i,
  input  logic [NW-1:0]    n_i,
  input  logic             clamp_one_i,
  output logic             sel_a_o,
  output logic [UnitW-1:0] sel_a_unit_o,
  output logic             sel_b_o,
  output logic [UnitW-1:0] sel_b_unit_o,
  output logic [31:0]      lfsr_o
);
  (* anyseq *) logic trig;
  logic [31:0] lfsr_q;
  logic        unused;

  assign unused       = ^{mode_i, period_i, mode_next_i, rand_bits_next_i, period_next_i,
                          restart_i, TargetReset, RandBitsReset, NextDrawB, clamp_one_i};
  assign sel_a_o      = en_i && trig && (n_i != '0);
  assign sel_a_unit_o = '0;
  assign sel_b_o      = 1'b0;
  assign sel_b_unit_o = '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) lfsr_q <= LfsrReset;
    else if (lfsr_we_i) lfsr_q <= lfsr_wdata_i;
  end

  assign lfsr_o = lfsr_q;
endmodule
