// SPDX-License-Identifier: Apache-2.0
// Sampler: cycle counter, free-running LFSR and the interval logic that decides in which cycles
// a sample is taken (periodic, TIP random point per interval, or Chen random period).
module tiprof_tip_sampler
(
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
  input  logic        priv_ok_i,        // the privilege filter passes this cycle

  output logic        fire_o,           // take a sample this cycle
  output logic [63:0] cycle_o,          // cycle counter
  output logic [31:0] lfsr_o            // LFSR state
);

  logic [63:0] cycle_q, cycle_d;
  logic [31:0] lfsr_q, lfsr_d;
  logic [31:0] pos_q, pos_d;
  logic [31:0] target_q, target_d;
  logic [31:0] draw, rnd, half, point;
  logic [63:0] product;
  logic [34:0] len;
  logic        at_end;

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
        if (len[34] || len == 35'd0) begin
          draw = 32'd0;                       // L clamped to 1
        end else if (len > 35'h1_0000_0000) begin
          draw = 32'hFFFF_FFFF;               // L clamped to 2^32
        end else begin
          draw = len[31:0] - 32'd1;
        end
      end
      default: draw = period_next_i - 32'd1;  // periodic (mode 3 never reaches the register)
    endcase
  end

  always_comb begin
    at_end = (mode_i == tiprof_reg_pkg::MODE_RANDOM_INTERVAL[1:0]) ? (pos_q >= period_i - 32'd1)
                                                  : (pos_q >= target_q);
    fire_o = en_i && (pos_q == target_q) && priv_ok_i;

    cycle_d  = cycle_q + 64'd1;
    lfsr_d   = lfsr_we_i ? lfsr_wdata_i
                         : ((lfsr_q >> 1) ^ (lfsr_q[0] ? tiprof_reg_pkg::LFSR_TOGGLE : 32'd0));
    pos_d    = pos_q;
    target_d = target_q;
    if (restart_i) begin
      pos_d    = '0;
      target_d = draw;
    end else if (en_i) begin
      if (at_end) begin
        pos_d    = '0;
        target_d = draw;
      end else begin
        pos_d = pos_q + 32'd1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycle_q  <= '0;
      lfsr_q   <= tiprof_reg_pkg::LFSR_RESET;
      pos_q    <= '0;
      target_q <= tiprof_reg_pkg::TIP_PERIOD_RESET - 32'd1;
    end else begin
      cycle_q  <= cycle_d;
      lfsr_q   <= lfsr_d;
      pos_q    <= pos_d;
      target_q <= target_d;
    end
  end

  assign cycle_o = cycle_q;
  assign lfsr_o  = lfsr_q;

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
      assert (!fire_o || en_i)
        else $fatal(1, "a_sampler_fire_enabled: a sample fired while CTRL.EN is 0");
    end
  end

`ifndef __ICARUS__
  // The cycle counter counts every cycle.
  a_sampler_cycle_step: assert property (@(posedge clk_i) disable iff (!rst_ni)
    $past(rst_ni) |-> cycle_q == $past(cycle_q) + 64'd1)
    else $error("a_sampler_cycle_step: cycle went from %0d to %0d", $past(cycle_q), cycle_q);
  // While disabled and not written, the interval is frozen.
  a_sampler_frozen: assert property (@(posedge clk_i) disable iff (!rst_ni)
    !en_i && !restart_i |=> pos_q == $past(pos_q) && target_q == $past(target_q))
    else $error("a_sampler_frozen: the interval moved while CTRL.EN is 0");
`endif
`endif

endmodule
