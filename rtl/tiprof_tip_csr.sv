// SPDX-License-Identifier: Apache-2.0
// TIP control and status registers: address decode, legal-value checks, counters, read mux.
module tiprof_tip_csr
#(
  parameter int W     = 4,                   // [1,8] commit width
  parameter int XLEN  = 64,                  // [32,64] CSR data width
  parameter int Depth = 8,                   // [1,65535] FIFO depth
  localparam int CntW = $clog2(Depth + 1)
) (
  input  logic              clk_i,          // clock
  input  logic              rst_ni,         // asynchronous reset, active low

  // access (already checked for privilege and read-only space by the unit)
  input  logic              req_i,          // legal access this cycle
  input  logic              we_i,           // it is a write
  input  logic [11:0]       addr_i,         // CSR number (also decoded without req_i for hit_o)
  input  logic [XLEN-1:0]   wdata_i,        // write data
  output logic              hit_o,          // addr_i is a TIP register of this configuration
  output logic [XLEN-1:0]   rdata_o,        // read data (valid with req_i & !we_i)

  // state shown in registers
  input  logic [63:0]       cycle_i,        // cycle counter
  input  logic [31:0]       lfsr_i,         // LFSR state
  input  logic [CntW-1:0]   fifo_count_i,   // complete samples
  input  logic              fifo_full_i,    // every entry allocated
  input  logic              fifo_pending_i, // a Drained sample is pending
  input  logic [63:0]       s_cycle_i,      // oldest complete sample (0 if none)
  input  logic [31:0]       s_info_i,
  input  logic [15:0]       s_ctx_i,
  input  logic [W*XLEN-1:0] s_addr_i,
  input  logic              taken_inc_i,    // a sample was written into the FIFO
  input  logic              lost_inc_i,     // a sample was lost
  input  logic              pop_empty_i,    // a pop found no complete sample

  // configuration
  output logic              en_o,           // CTRL fields in effect
  output logic [1:0]        mode_o,
  output logic [3:0]        priv_filter_o,
  output logic [31:0]       period_o,
  output logic [1:0]        mode_next_o,    // configuration from the next cycle on
  output logic [4:0]        rand_bits_next_o,
  output logic [31:0]       period_next_o,
  output logic              trigger_o,      // CTRL.TRIGGER in effect: 1 = committed instructions
  output logic              trigger_next_o, // ... from the next cycle on
  output logic              restart_o,      // legal CTRL or PERIOD write
  output logic              lfsr_we_o,      // legal LFSR write
  output logic [31:0]       lfsr_wdata_o,
  output logic              pop_o,          // write to POP
  output logic              irq_o           // interrupt request
);

  localparam int CtrlBits = 14;                // CTRL's defined bits are [CtrlBits-1:0]

  logic [CtrlBits-1:0] ctrl_q, ctrl_d;
  logic [31:0]     period_q, period_d;
  logic            period_small_q;             // PERIOD < W: the instruction trigger is refused
  logic [CntW-1:0] wmark_q, wmark_d;
  logic [1:0]      sticky_q, sticky_d;        // {POP_EMPTY, CFG_ERR}
  logic [63:0]     taken_q, taken_d, lost_q, lost_d;

  logic            wr;
  logic [63:0]     wval;                       // write data zero-extended to 64 bits
  logic            bad_ctrl, bad_period, bad_wmark, bad_lfsr;
  logic            is_xlen32;
  logic [3:0]      addr_idx;

  assign is_xlen32 = (XLEN == 32);
  assign wr        = req_i && we_i;
  assign wval      = 64'(wdata_i);
  assign addr_idx  = addr_i[3:0];

  // ---------------------------------------------------------------- address decode
  always_comb begin
    unique case (addr_i)
      tiprof_reg_pkg::TIP_CTRL_ADDR, tiprof_reg_pkg::TIP_PERIOD_ADDR, tiprof_reg_pkg::TIP_WATERMARK_ADDR, tiprof_reg_pkg::TIP_LFSR_ADDR, tiprof_reg_pkg::TIP_POP_ADDR,
      tiprof_reg_pkg::TIP_STATUS_ADDR, tiprof_reg_pkg::TIP_TAKEN_ADDR, tiprof_reg_pkg::TIP_LOST_ADDR, tiprof_reg_pkg::TIP_ID_ADDR, tiprof_reg_pkg::TIP_PARAMS_ADDR,
      tiprof_reg_pkg::TIP_CYCLE_ADDR, tiprof_reg_pkg::TIP_FIFO_COUNT_ADDR, tiprof_reg_pkg::TIP_S_CYCLE_ADDR, tiprof_reg_pkg::TIP_S_INFO_ADDR,
      tiprof_reg_pkg::TIP_S_CTX_ADDR:                                                   hit_o = 1'b1;
      tiprof_reg_pkg::TIP_TAKENH_ADDR, tiprof_reg_pkg::TIP_LOSTH_ADDR, tiprof_reg_pkg::TIP_CYCLEH_ADDR, tiprof_reg_pkg::TIP_S_CYCLEH_ADDR: hit_o = is_xlen32;
      default: hit_o = (addr_i[11:4] == tiprof_reg_pkg::TIP_S_ADDR_ADDR[11:4]) && (32'(addr_idx) < W);
    endcase
  end

  // ---------------------------------------------------------------- legal-value checks
  // A slice, not (wval & ~64'(mask)): Yosys 0.23 reads the masked form wrongly (every legal
  // CTRL value refused in its netlist), which make test-tip-netlist now catches.
  // The instruction trigger needs PERIOD >= W (docs/tip-unit.md "The instruction trigger").
  // PERIOD < W is kept in a flip-flop: a compare of PERIOD here would lie on the path
  // PERIOD -> CTRL check -> the draw's multiplier -> target (iCE40: 23.6 -> 14.8 MHz).
  assign bad_ctrl   = (wval[63:CtrlBits] != '0) || (wval[2:1] == 2'd3) ||
                      (wval[tiprof_reg_pkg::TIP_CTRL_TRIGGER_LSB] && period_small_q);
  assign bad_period = (wval == '0) || (wval[63:32] != '0) ||
                      (ctrl_q[tiprof_reg_pkg::TIP_CTRL_TRIGGER_LSB] && (wval[31:0] < 32'(W)));
  assign bad_wmark  = (wval == '0) || (wval > 64'(Depth));
  assign bad_lfsr   = (wval == '0) || (wval[63:32] != '0);

  // ---------------------------------------------------------------- register updates
  // Two processes: configuration and access decode (no input from the sampling path), and the
  // counters and sticky bits (which take the sample and pop outcomes), so no process sits on
  // the path pop -> FIFO accept -> taken increment.
  logic cfg_err_set;   // a bad configuration value was written this cycle

  always_comb begin
    ctrl_d       = ctrl_q;
    period_d     = period_q;
    wmark_d      = wmark_q;
    cfg_err_set  = 1'b0;
    restart_o    = 1'b0;
    lfsr_we_o    = 1'b0;
    lfsr_wdata_o = wval[31:0];
    pop_o        = 1'b0;
    if (wr) begin
      unique case (addr_i)
        tiprof_reg_pkg::TIP_CTRL_ADDR: begin
          if (bad_ctrl) cfg_err_set = 1'b1;
          else begin
            ctrl_d    = wval[CtrlBits-1:0];
            restart_o = 1'b1;
          end
        end
        tiprof_reg_pkg::TIP_PERIOD_ADDR: begin
          if (bad_period) cfg_err_set = 1'b1;
          else begin
            period_d  = wval[31:0];
            restart_o = 1'b1;
          end
        end
        tiprof_reg_pkg::TIP_WATERMARK_ADDR: begin
          if (bad_wmark) cfg_err_set = 1'b1;
          else wmark_d = CntW'(wval);
        end
        tiprof_reg_pkg::TIP_LFSR_ADDR: begin
          if (bad_lfsr) cfg_err_set = 1'b1;
          else lfsr_we_o = 1'b1;
        end
        tiprof_reg_pkg::TIP_POP_ADDR: pop_o = 1'b1;
        default: ;
      endcase
    end
  end

  always_comb begin
    sticky_d = sticky_q;
    taken_d  = taken_q + 64'(taken_inc_i);
    lost_d   = lost_q + 64'(lost_inc_i);
    if (cfg_err_set) sticky_d[0] = 1'b1;
    if (pop_empty_i) sticky_d[1] = 1'b1;
    if (wr) begin
      unique case (addr_i)
        tiprof_reg_pkg::TIP_STATUS_ADDR: sticky_d = sticky_q & ~wval[1:0];
        tiprof_reg_pkg::TIP_TAKEN_ADDR:  taken_d = is_xlen32 ? {taken_q[63:32], wval[31:0]} : wval;
        tiprof_reg_pkg::TIP_LOST_ADDR:   lost_d  = is_xlen32 ? {lost_q[63:32], wval[31:0]} : wval;
        tiprof_reg_pkg::TIP_TAKENH_ADDR: taken_d = {wval[31:0], taken_q[31:0]};
        tiprof_reg_pkg::TIP_LOSTH_ADDR:  lost_d  = {wval[31:0], lost_q[31:0]};
        default: ;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ctrl_q   <= tiprof_reg_pkg::TIP_CTRL_RESET[CtrlBits-1:0];
      period_q <= tiprof_reg_pkg::TIP_PERIOD_RESET;
      period_small_q <= (tiprof_reg_pkg::TIP_PERIOD_RESET < 32'(W));
      wmark_q  <= CntW'(tiprof_reg_pkg::TIP_WATERMARK_RESET);
      sticky_q <= '0;
      taken_q  <= '0;
      lost_q   <= '0;
    end else begin
      ctrl_q   <= ctrl_d;
      period_q <= period_d;
      period_small_q <= (period_d < 32'(W));
      wmark_q  <= wmark_d;
      sticky_q <= sticky_d;
      taken_q  <= taken_d;
      lost_q   <= lost_d;
    end
  end

  assign en_o             = ctrl_q[tiprof_reg_pkg::TIP_CTRL_EN_LSB];
  assign mode_o           = ctrl_q[tiprof_reg_pkg::TIP_CTRL_MODE_LSB +: 2];
  assign priv_filter_o    = ctrl_q[tiprof_reg_pkg::TIP_CTRL_PRIV_LSB +: 4];
  assign period_o         = period_q;
  assign mode_next_o      = ctrl_d[tiprof_reg_pkg::TIP_CTRL_MODE_LSB +: 2];
  assign rand_bits_next_o = ctrl_d[tiprof_reg_pkg::TIP_CTRL_RAND_BITS_LSB +: 5];
  assign period_next_o    = period_d;
  assign trigger_o        = ctrl_q[tiprof_reg_pkg::TIP_CTRL_TRIGGER_LSB];
  assign trigger_next_o   = ctrl_d[tiprof_reg_pkg::TIP_CTRL_TRIGGER_LSB];
  assign irq_o            = ctrl_q[tiprof_reg_pkg::TIP_CTRL_IRQ_EN_LSB] && (fifo_count_i >= wmark_q);

  // ---------------------------------------------------------------- read mux
  logic [63:0] rval;       // value of the addressed register (64-bit view)
  logic        high_half;  // read the upper half on XLEN=32

  always_comb begin
    rval      = '0;
    high_half = 1'b0;
    unique case (addr_i)
      tiprof_reg_pkg::TIP_CTRL_ADDR:       rval = 64'(ctrl_q);
      tiprof_reg_pkg::TIP_PERIOD_ADDR:     rval = 64'(period_q);
      tiprof_reg_pkg::TIP_WATERMARK_ADDR:  rval = 64'(wmark_q);
      tiprof_reg_pkg::TIP_LFSR_ADDR:       rval = 64'(lfsr_i);
      tiprof_reg_pkg::TIP_STATUS_ADDR:     rval = 64'({fifo_full_i, fifo_pending_i, irq_o, sticky_q});
      tiprof_reg_pkg::TIP_TAKEN_ADDR:      rval = taken_q;
      tiprof_reg_pkg::TIP_LOST_ADDR:       rval = lost_q;
      tiprof_reg_pkg::TIP_TAKENH_ADDR:     begin rval = taken_q; high_half = 1'b1; end
      tiprof_reg_pkg::TIP_LOSTH_ADDR:      begin rval = lost_q;  high_half = 1'b1; end
      tiprof_reg_pkg::TIP_ID_ADDR:         rval = 64'({tiprof_reg_pkg::TIP_ID_MINOR, tiprof_reg_pkg::TIP_ID_MAJOR, tiprof_reg_pkg::TIP_ID_MAGIC});
      tiprof_reg_pkg::TIP_PARAMS_ADDR:     rval = 64'(W) | (64'(XLEN) << 4) | (64'(Depth) << 12);
      tiprof_reg_pkg::TIP_CYCLE_ADDR:      rval = cycle_i;
      tiprof_reg_pkg::TIP_CYCLEH_ADDR:     begin rval = cycle_i; high_half = 1'b1; end
      tiprof_reg_pkg::TIP_FIFO_COUNT_ADDR: rval = 64'(fifo_count_i);
      tiprof_reg_pkg::TIP_S_CYCLE_ADDR:    rval = s_cycle_i;
      tiprof_reg_pkg::TIP_S_CYCLEH_ADDR:   begin rval = s_cycle_i; high_half = 1'b1; end
      tiprof_reg_pkg::TIP_S_INFO_ADDR:     rval = 64'(s_info_i);
      tiprof_reg_pkg::TIP_S_CTX_ADDR:      rval = 64'(s_ctx_i);
      tiprof_reg_pkg::TIP_POP_ADDR: rval = '0;
      default: begin
        for (int unsigned i_rd = 0; i_rd < W; i_rd++) begin
          if (addr_i == tiprof_reg_pkg::TIP_S_ADDR_ADDR + 12'(i_rd)) rval = 64'(s_addr_i[i_rd*XLEN +: XLEN]);
        end
      end
    endcase
    rdata_o = '0;
    if (req_i && !we_i && hit_o) rdata_o = XLEN'(high_half ? {32'd0, rval[63:32]} : rval);
  end

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions (simulation only)
  // Register legality (docs/tip-unit.md "Legal writes"): the registers never hold a value whose
  // write is ignored with CFG_ERR.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (ctrl_q[tiprof_reg_pkg::TIP_CTRL_MODE_LSB +: 2] != 2'd3)
        else $fatal(1, "a_csr_ctrl_mode: CTRL.MODE holds the reserved value 3");
      assert (period_q != '0)
        else $fatal(1, "a_csr_period_nonzero: PERIOD holds 0");
      assert (period_small_q == (period_q < 32'(W)))
        else $fatal(1, "a_csr_period_small: the PERIOD < W flag disagrees with PERIOD %0d", period_q);
      assert (!ctrl_q[tiprof_reg_pkg::TIP_CTRL_TRIGGER_LSB] || period_q >= 32'(W))
        else $fatal(1, "a_csr_trigger_period: the instruction trigger with PERIOD %0d < W", period_q);
      assert (32'(wmark_q) - 32'd1 < 32'(Depth))   // 1 <= WATERMARK <= Depth
        else $fatal(1, "a_csr_wmark_range: WATERMARK %0d outside 1..%0d", wmark_q, Depth);
      assert (!(req_i && we_i) || rdata_o == '0)
        else $fatal(1, "a_csr_write_no_rdata: a write returned read data");
      assert (!(taken_inc_i && lost_inc_i))
        else $fatal(1, "a_csr_taken_xor_lost: one sample counted as taken and as lost");
    end
  end

`ifndef __ICARUS__
  logic sva_wr_taken, sva_wr_lost;
  assign sva_wr_taken = wr && (addr_i == tiprof_reg_pkg::TIP_TAKEN_ADDR || addr_i == tiprof_reg_pkg::TIP_TAKENH_ADDR);
  assign sva_wr_lost  = wr && (addr_i == tiprof_reg_pkg::TIP_LOST_ADDR || addr_i == tiprof_reg_pkg::TIP_LOSTH_ADDR);

  // Every sample that does not enter the FIFO is counted in LOST, every one that does in TAKEN
  // (a write to the counter wins), and the counters move by nothing else.
  a_csr_lost_counts: assert property (@(posedge clk_i) disable iff (!rst_ni)
    !sva_wr_lost |=> lost_q == $past(lost_q) + 64'($past(lost_inc_i)))
    else $error("a_csr_lost_counts: LOST went from %0d to %0d (lost_inc %0d)", $past(lost_q), lost_q,
                $past(lost_inc_i));
  a_csr_taken_counts: assert property (@(posedge clk_i) disable iff (!rst_ni)
    !sva_wr_taken |=> taken_q == $past(taken_q) + 64'($past(taken_inc_i)))
    else $error("a_csr_taken_counts: TAKEN went from %0d to %0d (taken_inc %0d)", $past(taken_q), taken_q,
                $past(taken_inc_i));
  // An illegal configuration value is ignored and sets STATUS.CFG_ERR.
  a_csr_bad_config: assert property (@(posedge clk_i) disable iff (!rst_ni)
    cfg_err_set |=> sticky_q[0] && ctrl_q == $past(ctrl_q) && period_q == $past(period_q) &&
                    wmark_q == $past(wmark_q))
    else $error("a_csr_bad_config: an illegal configuration write changed a register or left CFG_ERR clear");
  // A legal CTRL or PERIOD write takes the value and restarts the sampler.
  a_csr_period_write: assert property (@(posedge clk_i) disable iff (!rst_ni)
    wr && addr_i == tiprof_reg_pkg::TIP_PERIOD_ADDR && !bad_period |=>
      period_q == $past(wval[31:0]) && $past(restart_o))
    else $error("a_csr_period_write: a legal PERIOD write did not take effect");
  a_csr_ctrl_write: assert property (@(posedge clk_i) disable iff (!rst_ni)
    wr && addr_i == tiprof_reg_pkg::TIP_CTRL_ADDR && !bad_ctrl |=>
      ctrl_q == $past(wval[CtrlBits-1:0]) && $past(restart_o))
    else $error("a_csr_ctrl_write: a legal CTRL write did not take effect");
`endif
`endif

endmodule
