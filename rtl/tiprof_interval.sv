// SPDX-License-Identifier: Apache-2.0
// Interval block, one instance per subsystem: a free-running LFSR and the interval logic that
// decides at which position of each interval a sample is taken (periodic, TIP's random point
// per interval, or Chen's random period). Each cycle brings n_i interval positions (units):
// TIP counts one cycle per cycle or, with its instruction trigger, up to W committed
// instructions (Units = W); ProfileMe counts up to F fetch units per cycle.
// docs/tip-unit.md "The sampler" and "The instruction trigger", docs/profileme.md "Selection:
// the fetch counter".
module tiprof_interval
#(
  parameter int          Units       = 1,            // [1,8] most units in one cycle (MinLen)
  parameter logic [31:0] LfsrReset   = tiprof_reg_pkg::LFSR_RESET,
  parameter logic [31:0] TargetReset = tiprof_reg_pkg::TIP_PERIOD_RESET - 32'd1,
  parameter logic [4:0]  RandBitsReset = tiprof_reg_pkg::TIP_CTRL_RESET[12:8], // Units > 1: CTRL.RAND_BITS after reset
  // Units > 1: 1 = selection B compares the point drawn for the next interval (the draw, no
  // second product) and is not made in a restart cycle (TIP's instruction trigger); 0 = it
  // uses the configuration in effect, also in a restart cycle (ProfileMe)
  parameter bit          NextDrawB   = 1'b0,
  localparam int         NW          = $clog2(Units + 1),
  localparam int         UnitW       = (Units > 1) ? $clog2(Units) : 1
) (
  input  logic        clk_i,            // clock
  input  logic        rst_ni,           // asynchronous reset, active low

  // configuration in effect this cycle
  input  logic        en_i,             // CTRL.EN
  input  logic [1:0]  mode_i,           // CTRL.MODE
  input  logic [31:0] period_i,         // PERIOD
  // configuration from the next cycle on (equals the above unless a write changes it); draws use it
  input  logic [1:0]  mode_next_i,
  input  logic [4:0]  rand_bits_next_i,
  input  logic [31:0] period_next_i,
  input  logic        restart_i,        // legal write to CTRL or PERIOD: restart the interval
  input  logic        lfsr_we_i,        // legal write to LFSR
  input  logic [31:0] lfsr_wdata_i,
  input  logic [NW-1:0] n_i,            // units this cycle (0..Units), counted from pos
  input  logic        clamp_one_i,      // RANDOM_PERIOD draw: clamp L to 1, not Units (TIP's cycle
                                        //   trigger: one unit per cycle), next cycle's configuration

  output logic        sel_a_o,          // a unit of this cycle is the current interval's point
  output logic [UnitW-1:0] sel_a_unit_o, // ... the unit's index among this cycle's units
  output logic        sel_b_o,          // the interval ends in this cycle and one of its units
  output logic [UnitW-1:0] sel_b_unit_o, //   past the end is the next interval's point
  output logic [31:0] lfsr_o            // LFSR state
);

  logic [31:0] lfsr_q, lfsr_d;
  logic [31:0] pos_q, pos_d;
  logic [31:0] target_q, target_d;
  logic [31:0] draw, rnd, half, point;
  logic [63:0] product;
  logic [34:0] len;
  logic        at_end;
  logic [32:0] plen, pend, e;   // Units > 1: interval length, end of this cycle's units, overshoot

  // Draw the next sample point with the next cycle's configuration.
  always_comb begin
    rnd  = lfsr_q & ((32'd1 << rand_bits_next_i) - 32'd1);
    half = (rand_bits_next_i == 5'd0) ? 32'd0 : (32'd1 << (rand_bits_next_i - 5'd1));
    len  = {3'b000, period_next_i} + {3'b000, rnd} - {3'b000, half};
    // TIP's point in the interval: r / 2^k of the way through it, so every part of the interval
    // can be drawn whatever PERIOD is (each of its 2^k points equally often; every cycle of it
    // when 2^k >= PERIOD): floor(r * PERIOD / 2^k) < PERIOD.
    product = {32'd0, rnd} * {32'd0, period_next_i};
    point   = 32'(product >> rand_bits_next_i);
    unique case (mode_next_i)
      tiprof_reg_pkg::MODE_RANDOM_INTERVAL[1:0]: draw = point;
      tiprof_reg_pkg::MODE_RANDOM_PERIOD[1:0]: begin
        if (len[34] || len < (clamp_one_i ? 35'd1 : 35'(Units))) begin
          draw = clamp_one_i ? 32'd0 : 32'(Units) - 32'd1;  // L clamped to Units (or 1)
        end else if (len > 35'h1_0000_0000) begin
          draw = 32'hFFFF_FFFF;               // L clamped to 2^32
        end else begin
          draw = len[31:0] - 32'd1;
        end
      end
      default: draw = period_next_i - 32'd1;  // periodic (mode 3 never reaches the register)
    endcase
  end

  // The units of this cycle: the point among them, the interval's end, the position after them.
  logic        adv;           // pos/target move by this cycle's units
  logic [31:0] adv_pos, adv_target;

  if (Units == 1) begin : g_one_unit
    // one unit per cycle at most: the point is pos itself, the interval ends at its last unit
    logic unused_plen;
    assign unused_plen  = ^{plen, pend, e, NextDrawB};
    assign plen         = '0;
    assign pend         = '0;
    assign e            = '0;
    assign at_end       = (mode_i == tiprof_reg_pkg::MODE_RANDOM_INTERVAL[1:0])
                          ? (pos_q >= period_i - 32'd1) : (pos_q >= target_q);
    assign adv          = en_i && (n_i != '0);
    assign sel_a_o      = adv && (pos_q == target_q);
    assign sel_a_unit_o = '0;
    assign sel_b_o      = 1'b0;   // an interval that ends at its last unit has no unit left over
    assign sel_b_unit_o = '0;
    assign adv_pos      = at_end ? '0 : pos_q + 32'd1;
    assign adv_target   = at_end ? draw : target_q;
  end else begin : g_units
    // n units take positions pos .. pos+n-1; plen is the interval's length (>= Units), pend the
    // position after this cycle's units, e the units past the interval's end (< Units)
    assign plen         = (mode_i == tiprof_reg_pkg::MODE_RANDOM_INTERVAL[1:0])
                          ? {1'b0, period_i} : {1'b0, target_q} + 33'd1;
    assign pend         = {1'b0, pos_q} + 33'(n_i);
    assign at_end       = (pend >= plen);
    assign e            = pend - plen;
    assign adv          = en_i;
    assign sel_a_o      = en_i && (target_q >= pos_q) && ({1'b0, target_q} < pend);
    assign sel_a_unit_o = UnitW'(target_q - pos_q);
    // Selection B belongs to this cycle, so it uses the configuration in effect (a CTRL/PERIOD
    // write in this cycle restarts the interval with the next one, but not this cycle's draw).
    // Only RANDOM_INTERVAL can draw a point below e (the other modes draw >= Units - 1 >= e),
    // so the draw in effect is floor(r * PERIOD / 2^k) with the current PERIOD and k; RAND_BITS in
    // effect is kept here (it is the register's value: every write of it passes rand_bits_next_i).
    // With NextDrawB the draw itself is that point in every cycle without a restart (the next
    // configuration is the one in effect then), and a restart cycle makes no selection B.
    logic [31:0] point_now;
    logic        b_ok;
    if (NextDrawB) begin : g_b_draw
      logic unused_rb;
      assign unused_rb = ^RandBitsReset;
      assign point_now = draw;
      assign b_ok      = !restart_i;
    end else begin : g_b_now
      logic [4:0]  rand_bits_q;
      logic [31:0] rnd_now;
      logic [63:0] product_now;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) rand_bits_q <= RandBitsReset;
        else         rand_bits_q <= rand_bits_next_i;
      end
      assign rnd_now     = lfsr_q & ((32'd1 << rand_bits_q) - 32'd1);
      assign product_now = {32'd0, rnd_now} * {32'd0, period_i};
      assign point_now   = 32'(product_now >> rand_bits_q);
      assign b_ok        = 1'b1;
    end
    assign sel_b_o      = en_i && at_end && b_ok &&
                          (mode_i == tiprof_reg_pkg::MODE_RANDOM_INTERVAL[1:0]) &&
                          ({1'b0, point_now} < e);
    assign sel_b_unit_o = UnitW'(plen - {1'b0, pos_q} + {1'b0, point_now});
    assign adv_pos      = at_end ? e[31:0] : pend[31:0];
    assign adv_target   = at_end ? draw : target_q;
  end

  always_comb begin
    lfsr_d   = lfsr_we_i ? lfsr_wdata_i
                         : ((lfsr_q >> 1) ^ (lfsr_q[0] ? tiprof_reg_pkg::LFSR_TOGGLE : 32'd0));
    pos_d    = pos_q;
    target_d = target_q;
    if (restart_i) begin
      pos_d    = '0;
      target_d = draw;
    end else if (adv) begin
      pos_d    = adv_pos;
      target_d = adv_target;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lfsr_q   <= LfsrReset;
      pos_q    <= '0;
      target_q <= TargetReset;
    end else begin
      lfsr_q   <= lfsr_d;
      pos_q    <= pos_d;
      target_q <= target_d;
    end
  end

  assign lfsr_o = lfsr_q;

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions (simulation only)
  // The interval state stays inside the interval (docs/tip-unit.md "The sampler"): every way to
  // change MODE or PERIOD restarts it, so these hold in every cycle.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (lfsr_q != '0)
        else $fatal(1, "a_sampler_lfsr_nonzero: the LFSR reached 0 (it would stay there)");
      if (mode_i == tiprof_reg_pkg::MODE_RANDOM_INTERVAL[1:0]) begin
        assert (target_q < period_i && pos_q < period_i)
          else $fatal(1, "a_sampler_point_in_interval: pos %0d / point %0d outside an interval of %0d",
                      pos_q, target_q, period_i);
      end else begin
        assert (pos_q <= target_q)
          else $fatal(1, "a_sampler_pos_before_end: pos %0d beyond the interval end %0d", pos_q, target_q);
      end
      assert (!(sel_a_o || sel_b_o) || en_i)
        else $fatal(1, "a_sampler_fire_enabled: a sample point while CTRL.EN is 0");
    end
  end

`ifndef __ICARUS__
  // While disabled (or without units) and not written, the interval is frozen.
  a_sampler_frozen: assert property (@(posedge clk_i) disable iff (!rst_ni)
    !(en_i && n_i != '0) && !restart_i |=> pos_q == $past(pos_q) && target_q == $past(target_q))
    else $error("a_sampler_frozen: the interval moved while CTRL.EN is 0 or without units");
`endif
`endif

endmodule
