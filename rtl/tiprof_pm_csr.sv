// SPDX-License-Identifier: Apache-2.0
// ProfileMe control and status registers (docs/profileme.md "The CSR port"): address decode,
// legal-value checks, the four 64-bit counters, sticky status bits, read mux over the registers
// and the oldest record's words.
module tiprof_pm_csr
#(
  parameter int F     = 4,                   // [1,8] fetch slots per cycle
  parameter int XLEN  = 64,                  // [32,64] CSR data width
  parameter int Depth = 8,                   // [1,65535] FIFO depth
  parameter int Tags  = 2,                   // [1,2] tag ids
  localparam int CntW = $clog2(Depth + 1),
  localparam int Words = tiprof_reg_pkg::PM_REC_WORDS
) (
  input  logic              clk_i,          // clock
  input  logic              rst_ni,         // asynchronous reset, active low

  // access (already checked for privilege and read-only space by the unit)
  input  logic              req_i,          // legal access this cycle
  input  logic              we_i,           // it is a write
  input  logic [11:0]       addr_i,         // CSR number (also decoded without req_i for hit_o)
  input  logic [XLEN-1:0]   wdata_i,        // write data
  output logic              hit_o,          // addr_i is a ProfileMe register of this configuration
  output logic [XLEN-1:0]   rdata_o,        // read data (valid with req_i & !we_i)

  // state shown in registers
  input  logic [31:0]       lfsr_i,         // fetch counter's LFSR
  input  logic [CntW-1:0]   fifo_count_i,   // records in the FIFO
  input  logic              fifo_full_i,    // every entry allocated
  input  logic              busy_i,         // a sample is open
  input  logic              pair_wait_i,    // its second is not yet tagged
  input  logic [Words*64-1:0] rec_i,        // the oldest record, word k at [64k +: 64] (0 if none)
  input  logic              taken_inc_i,    // a record was pushed
  input  logic              lost_inc_i,     // a record found the FIFO full
  input  logic              filt_inc_i,     // a sample was dropped by a filter
  input  logic [1:0]        coll_inc_i,     // selections not taken this cycle (0..2)
  input  logic              pop_empty_i,    // a pop found the FIFO empty
  input  logic              stray_i,        // an event for a tag id without an open profile
  input  logic              timeout_i,      // a profile ended by the timeout

  // configuration (start-of-cycle values)
  output logic              en_o,
  output logic [1:0]        mode_o,
  output logic [3:0]        priv_filter_o,
  output logic              unit_o,         // count fetch opportunities
  output logic              pair_o,         // paired sampling
  output logic [31:0]       period_o,
  output logic [8:0]        window_o,       // PM_PAIR.WINDOW
  output logic [15:0]       timeout_o,
  output logic [31:0]       evfilt_o,
  output logic [19:0]       latfilt_o,
  // configuration from the next cycle on (the interval block's draws)
  output logic [1:0]        mode_next_o,
  output logic [4:0]        rand_bits_next_o,
  output logic [31:0]       period_next_o,
  output logic              restart_o,      // legal CTRL or PERIOD write
  output logic              lfsr_we_o,      // legal LFSR write
  output logic [31:0]       lfsr_wdata_o,
  output logic              pop_o,          // write to PM_POP
  output logic              irq_o           // interrupt request
);

  localparam int CtrlBits = tiprof_reg_pkg::PM_CTRL_PAIR_LSB + 1;   // CTRL's defined bits

  logic [CtrlBits-1:0] ctrl_q, ctrl_d;
  logic [31:0]     period_q, period_d;
  logic [CntW-1:0] wmark_q, wmark_d;
  logic [8:0]      window_q, window_d;
  logic [15:0]     timeout_q, timeout_d;
  logic [31:0]     evfilt_q, evfilt_d;
  logic [19:0]     latfilt_q, latfilt_d;
  logic [3:0]      sticky_q, sticky_d;        // {TIMEOUT, STRAY, POP_EMPTY, CFG_ERR}
  logic [63:0]     taken_q, taken_d, lost_q, lost_d, filt_q, filt_d, coll_q, coll_d;

  logic            wr;
  logic [63:0]     wval;                       // write data zero-extended to 64 bits
  logic            bad_ctrl, bad_period, bad_wmark, bad_lfsr, bad_pair, bad_timeout;
  logic            bad_evfilt, bad_latfilt;
  logic            is_xlen32;
  logic [11:0]     r_off, rh_off;              // offsets into PM_R / PM_RH

  assign is_xlen32 = (XLEN == 32);
  assign wr        = req_i && we_i;
  assign wval      = 64'(wdata_i);
  assign r_off     = addr_i - tiprof_reg_pkg::PM_R_ADDR;
  assign rh_off    = addr_i - tiprof_reg_pkg::PM_RH_ADDR;

  // ---------------------------------------------------------------- address decode
  always_comb begin
    unique case (addr_i)
      tiprof_reg_pkg::PM_CTRL_ADDR, tiprof_reg_pkg::PM_PERIOD_ADDR, tiprof_reg_pkg::PM_WATERMARK_ADDR,
      tiprof_reg_pkg::PM_LFSR_ADDR, tiprof_reg_pkg::PM_POP_ADDR, tiprof_reg_pkg::PM_STATUS_ADDR,
      tiprof_reg_pkg::PM_PAIR_ADDR, tiprof_reg_pkg::PM_TIMEOUT_ADDR, tiprof_reg_pkg::PM_EVFILT_ADDR,
      tiprof_reg_pkg::PM_LATFILT_ADDR, tiprof_reg_pkg::PM_TAKEN_ADDR, tiprof_reg_pkg::PM_LOST_ADDR,
      tiprof_reg_pkg::PM_FILTERED_ADDR, tiprof_reg_pkg::PM_COLLIDED_ADDR, tiprof_reg_pkg::PM_PARAMS_ADDR,
      tiprof_reg_pkg::PM_FIFO_COUNT_ADDR:                                       hit_o = 1'b1;
      tiprof_reg_pkg::PM_TAKENH_ADDR, tiprof_reg_pkg::PM_LOSTH_ADDR, tiprof_reg_pkg::PM_FILTEREDH_ADDR,
      tiprof_reg_pkg::PM_COLLIDEDH_ADDR:                                        hit_o = is_xlen32;
      default: hit_o = (32'(r_off) < 32'(tiprof_reg_pkg::PM_R_COUNT)) ||
                       (is_xlen32 && 32'(rh_off) < 32'(tiprof_reg_pkg::PM_RH_COUNT));
    endcase
  end

  // ---------------------------------------------------------------- legal-value checks
  // Slices, not masks (Yosys 0.23 reads (wval & ~mask) wrongly: tiprof_tip_csr.sv).
  assign bad_ctrl    = (wval[63:CtrlBits] != '0) || (wval[tiprof_reg_pkg::PM_CTRL_MODE_LSB +: 2] == 2'd3) ||
                       (Tags < 2 && wval[tiprof_reg_pkg::PM_CTRL_PAIR_LSB]);
  assign bad_period  = (wval < 64'(F)) || (wval[63:32] != '0);
  assign bad_wmark   = (wval == '0) || (wval > 64'(Depth));
  assign bad_lfsr    = (wval == '0) || (wval[63:32] != '0);
  assign bad_pair    = (wval == '0) || (wval > 64'd256);
  assign bad_timeout = (wval == '0) || (wval[63:16] != '0);
  assign bad_evfilt  = (wval[63:32] != '0);
  assign bad_latfilt = (wval[63:20] != '0) ||
                       (wval[tiprof_reg_pkg::PM_LATFILT_SEL_LSB +: 3] == 3'd7);

  // ---------------------------------------------------------------- register updates
  // Configuration and access decode in one process, counters and sticky bits (which take the
  // sample outcomes) in another, as in tiprof_tip_csr.sv.
  logic cfg_err_set;

  always_comb begin
    ctrl_d       = ctrl_q;
    period_d     = period_q;
    wmark_d      = wmark_q;
    window_d     = window_q;
    timeout_d    = timeout_q;
    evfilt_d     = evfilt_q;
    latfilt_d    = latfilt_q;
    cfg_err_set  = 1'b0;
    restart_o    = 1'b0;
    lfsr_we_o    = 1'b0;
    lfsr_wdata_o = wval[31:0];
    pop_o        = 1'b0;
    if (wr) begin
      unique case (addr_i)
        tiprof_reg_pkg::PM_CTRL_ADDR: begin
          if (bad_ctrl) cfg_err_set = 1'b1;
          else begin
            ctrl_d    = wval[CtrlBits-1:0];
            restart_o = 1'b1;
          end
        end
        tiprof_reg_pkg::PM_PERIOD_ADDR: begin
          if (bad_period) cfg_err_set = 1'b1;
          else begin
            period_d  = wval[31:0];
            restart_o = 1'b1;
          end
        end
        tiprof_reg_pkg::PM_WATERMARK_ADDR: begin
          if (bad_wmark) cfg_err_set = 1'b1;
          else wmark_d = CntW'(wval);
        end
        tiprof_reg_pkg::PM_LFSR_ADDR: begin
          if (bad_lfsr) cfg_err_set = 1'b1;
          else lfsr_we_o = 1'b1;
        end
        tiprof_reg_pkg::PM_PAIR_ADDR: begin
          if (bad_pair) cfg_err_set = 1'b1;
          else window_d = wval[8:0];
        end
        tiprof_reg_pkg::PM_TIMEOUT_ADDR: begin
          if (bad_timeout) cfg_err_set = 1'b1;
          else timeout_d = wval[15:0];
        end
        tiprof_reg_pkg::PM_EVFILT_ADDR: begin
          if (bad_evfilt) cfg_err_set = 1'b1;
          else evfilt_d = wval[31:0];
        end
        tiprof_reg_pkg::PM_LATFILT_ADDR: begin
          if (bad_latfilt) cfg_err_set = 1'b1;
          else latfilt_d = wval[19:0];
        end
        tiprof_reg_pkg::PM_POP_ADDR: pop_o = 1'b1;
        default: ;
      endcase
    end
  end

  // 64-bit counter write: whole on XLEN=64, one half on XLEN=32
  function automatic logic [63:0] cnt_wr(input logic [63:0] old, input logic [63:0] v,
                                         input logic high);
    if (XLEN != 32) cnt_wr = v;
    else if (high)  cnt_wr = {v[31:0], old[31:0]};
    else            cnt_wr = {old[63:32], v[31:0]};
  endfunction

  always_comb begin
    sticky_d = sticky_q;
    taken_d  = taken_q + 64'(taken_inc_i);
    lost_d   = lost_q + 64'(lost_inc_i);
    filt_d   = filt_q + 64'(filt_inc_i);
    coll_d   = coll_q + 64'(coll_inc_i);
    if (wr) begin
      unique case (addr_i)
        tiprof_reg_pkg::PM_STATUS_ADDR:    sticky_d = sticky_q & ~wval[3:0];
        tiprof_reg_pkg::PM_TAKEN_ADDR:     taken_d = cnt_wr(taken_q, wval, 1'b0);
        tiprof_reg_pkg::PM_TAKENH_ADDR:    taken_d = cnt_wr(taken_q, wval, 1'b1);
        tiprof_reg_pkg::PM_LOST_ADDR:      lost_d  = cnt_wr(lost_q, wval, 1'b0);
        tiprof_reg_pkg::PM_LOSTH_ADDR:     lost_d  = cnt_wr(lost_q, wval, 1'b1);
        tiprof_reg_pkg::PM_FILTERED_ADDR:  filt_d  = cnt_wr(filt_q, wval, 1'b0);
        tiprof_reg_pkg::PM_FILTEREDH_ADDR: filt_d  = cnt_wr(filt_q, wval, 1'b1);
        tiprof_reg_pkg::PM_COLLIDED_ADDR:  coll_d  = cnt_wr(coll_q, wval, 1'b0);
        tiprof_reg_pkg::PM_COLLIDEDH_ADDR: coll_d  = cnt_wr(coll_q, wval, 1'b1);
        default: ;
      endcase
    end
    // a hardware set wins over a clearing write
    if (cfg_err_set) sticky_d[tiprof_reg_pkg::PM_STATUS_CFG_ERR_LSB]   = 1'b1;
    if (pop_empty_i) sticky_d[tiprof_reg_pkg::PM_STATUS_POP_EMPTY_LSB] = 1'b1;
    if (stray_i)     sticky_d[tiprof_reg_pkg::PM_STATUS_STRAY_LSB]     = 1'b1;
    if (timeout_i)   sticky_d[tiprof_reg_pkg::PM_STATUS_TIMEOUT_LSB]   = 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ctrl_q    <= tiprof_reg_pkg::PM_CTRL_RESET[CtrlBits-1:0];
      period_q  <= tiprof_reg_pkg::PM_PERIOD_RESET;
      wmark_q   <= CntW'(tiprof_reg_pkg::PM_WATERMARK_RESET);
      window_q  <= tiprof_reg_pkg::PM_PAIR_RESET[8:0];
      timeout_q <= tiprof_reg_pkg::PM_TIMEOUT_RESET[15:0];
      evfilt_q  <= tiprof_reg_pkg::PM_EVFILT_RESET;
      latfilt_q <= tiprof_reg_pkg::PM_LATFILT_RESET[19:0];
      sticky_q  <= '0;
      taken_q   <= '0;
      lost_q    <= '0;
      filt_q    <= '0;
      coll_q    <= '0;
    end else begin
      ctrl_q    <= ctrl_d;
      period_q  <= period_d;
      wmark_q   <= wmark_d;
      window_q  <= window_d;
      timeout_q <= timeout_d;
      evfilt_q  <= evfilt_d;
      latfilt_q <= latfilt_d;
      sticky_q  <= sticky_d;
      taken_q   <= taken_d;
      lost_q    <= lost_d;
      filt_q    <= filt_d;
      coll_q    <= coll_d;
    end
  end

  assign en_o             = ctrl_q[tiprof_reg_pkg::PM_CTRL_EN_LSB];
  assign mode_o           = ctrl_q[tiprof_reg_pkg::PM_CTRL_MODE_LSB +: 2];
  assign priv_filter_o    = ctrl_q[tiprof_reg_pkg::PM_CTRL_PRIV_LSB +: 4];
  assign unit_o           = ctrl_q[tiprof_reg_pkg::PM_CTRL_UNIT_LSB];
  assign pair_o           = ctrl_q[tiprof_reg_pkg::PM_CTRL_PAIR_LSB];
  assign period_o         = period_q;
  assign window_o         = window_q;
  assign timeout_o        = timeout_q;
  assign evfilt_o         = evfilt_q;
  assign latfilt_o        = latfilt_q;
  assign mode_next_o      = ctrl_d[tiprof_reg_pkg::PM_CTRL_MODE_LSB +: 2];
  assign rand_bits_next_o = ctrl_d[tiprof_reg_pkg::PM_CTRL_RAND_BITS_LSB +: 5];
  assign period_next_o    = period_d;
  assign irq_o            = ctrl_q[tiprof_reg_pkg::PM_CTRL_IRQ_EN_LSB] && (fifo_count_i >= wmark_q);

  // ---------------------------------------------------------------- read mux
  logic [63:0] rval;       // value of the addressed register (64-bit view)
  logic        high_half;  // read the upper half on XLEN=32
  logic [7:0]  status;

  always_comb begin
    status = '0;
    status[tiprof_reg_pkg::PM_STATUS_CFG_ERR_LSB]   = sticky_q[tiprof_reg_pkg::PM_STATUS_CFG_ERR_LSB];
    status[tiprof_reg_pkg::PM_STATUS_POP_EMPTY_LSB] = sticky_q[tiprof_reg_pkg::PM_STATUS_POP_EMPTY_LSB];
    status[tiprof_reg_pkg::PM_STATUS_STRAY_LSB]     = sticky_q[tiprof_reg_pkg::PM_STATUS_STRAY_LSB];
    status[tiprof_reg_pkg::PM_STATUS_TIMEOUT_LSB]   = sticky_q[tiprof_reg_pkg::PM_STATUS_TIMEOUT_LSB];
    status[tiprof_reg_pkg::PM_STATUS_IRQ_LSB]       = irq_o;
    status[tiprof_reg_pkg::PM_STATUS_FULL_LSB]      = fifo_full_i;
    status[tiprof_reg_pkg::PM_STATUS_BUSY_LSB]      = busy_i;
    status[tiprof_reg_pkg::PM_STATUS_PAIR_WAIT_LSB] = busy_i && pair_wait_i;
  end

  always_comb begin
    rval      = '0;
    high_half = 1'b0;
    unique case (addr_i)
      tiprof_reg_pkg::PM_CTRL_ADDR:       rval = 64'(ctrl_q);
      tiprof_reg_pkg::PM_PERIOD_ADDR:     rval = 64'(period_q);
      tiprof_reg_pkg::PM_WATERMARK_ADDR:  rval = 64'(wmark_q);
      tiprof_reg_pkg::PM_LFSR_ADDR:       rval = 64'(lfsr_i);
      tiprof_reg_pkg::PM_STATUS_ADDR:     rval = 64'(status);
      tiprof_reg_pkg::PM_PAIR_ADDR:       rval = 64'(window_q);
      tiprof_reg_pkg::PM_TIMEOUT_ADDR:    rval = 64'(timeout_q);
      tiprof_reg_pkg::PM_EVFILT_ADDR:     rval = 64'(evfilt_q);
      tiprof_reg_pkg::PM_LATFILT_ADDR:    rval = 64'(latfilt_q);
      tiprof_reg_pkg::PM_TAKEN_ADDR:      rval = taken_q;
      tiprof_reg_pkg::PM_LOST_ADDR:       rval = lost_q;
      tiprof_reg_pkg::PM_FILTERED_ADDR:   rval = filt_q;
      tiprof_reg_pkg::PM_COLLIDED_ADDR:   rval = coll_q;
      tiprof_reg_pkg::PM_TAKENH_ADDR:     begin rval = taken_q; high_half = 1'b1; end
      tiprof_reg_pkg::PM_LOSTH_ADDR:      begin rval = lost_q;  high_half = 1'b1; end
      tiprof_reg_pkg::PM_FILTEREDH_ADDR:  begin rval = filt_q;  high_half = 1'b1; end
      tiprof_reg_pkg::PM_COLLIDEDH_ADDR:  begin rval = coll_q;  high_half = 1'b1; end
      tiprof_reg_pkg::PM_PARAMS_ADDR:
        rval = 64'(F) | (64'(XLEN) << tiprof_reg_pkg::PM_PARAMS_XLEN_LSB) |
               (64'(Depth) << tiprof_reg_pkg::PM_PARAMS_DEPTH_LSB) |
               (64'(Tags) << tiprof_reg_pkg::PM_PARAMS_TAGS_LSB);
      tiprof_reg_pkg::PM_FIFO_COUNT_ADDR: rval = 64'(fifo_count_i);
      tiprof_reg_pkg::PM_POP_ADDR:        rval = '0;
      default: begin
        for (int unsigned k = 0; k < Words; k++) begin
          if (r_off == 12'(k)) rval = rec_i[k*64 +: 64];
          if (rh_off == 12'(k)) begin
            rval      = rec_i[k*64 +: 64];
            high_half = 1'b1;
          end
        end
      end
    endcase
    rdata_o = '0;
    if (req_i && !we_i && hit_o) rdata_o = XLEN'(high_half ? {32'd0, rval[63:32]} : rval);
  end

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions (simulation only)
  // Register legality (docs/profileme.md "Legal writes"): the registers never hold a value whose
  // write is ignored with CFG_ERR.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (ctrl_q[tiprof_reg_pkg::PM_CTRL_MODE_LSB +: 2] != 2'd3)
        else $fatal(1, "a_pm_csr_ctrl_mode: PM_CTRL.MODE holds the reserved value 3");
      assert (Tags == 2 || !pair_o)
        else $fatal(1, "a_pm_csr_pair_tags: PM_CTRL.PAIR set on a unit with one tag id");
      assert (period_q >= 32'(F))
        else $fatal(1, "a_pm_csr_period_min: PM_PERIOD %0d below F = %0d", period_q, F);
      assert (32'(wmark_q) - 32'd1 < 32'(Depth))   // 1 <= WATERMARK <= Depth
        else $fatal(1, "a_pm_csr_wmark_range: PM_WATERMARK %0d outside 1..%0d", wmark_q, Depth);
      assert (window_q != '0 && window_q <= 9'd256)
        else $fatal(1, "a_pm_csr_window_range: PM_PAIR.WINDOW %0d outside 1..256", window_q);
      assert (timeout_q != '0)
        else $fatal(1, "a_pm_csr_timeout_nonzero: PM_TIMEOUT holds 0");
      assert (latfilt_q[tiprof_reg_pkg::PM_LATFILT_SEL_LSB +: 3] != 3'd7)
        else $fatal(1, "a_pm_csr_latfilt_sel: PM_LATFILT.SEL holds 7");
      assert (!(req_i && we_i) || rdata_o == '0)
        else $fatal(1, "a_pm_csr_write_no_rdata: a write returned read data");
      assert (32'(taken_inc_i) + 32'(lost_inc_i) + 32'(filt_inc_i) <= 1)
        else $fatal(1, "a_pm_csr_one_fate: one sample counted twice (taken %0d lost %0d filtered %0d)",
                    taken_inc_i, lost_inc_i, filt_inc_i);
    end
  end

`ifndef __ICARUS__
  logic sva_wr_taken, sva_wr_lost, sva_wr_filt, sva_wr_coll;
  assign sva_wr_taken = wr && (addr_i == tiprof_reg_pkg::PM_TAKEN_ADDR || addr_i == tiprof_reg_pkg::PM_TAKENH_ADDR);
  assign sva_wr_lost  = wr && (addr_i == tiprof_reg_pkg::PM_LOST_ADDR || addr_i == tiprof_reg_pkg::PM_LOSTH_ADDR);
  assign sva_wr_filt  = wr && (addr_i == tiprof_reg_pkg::PM_FILTERED_ADDR || addr_i == tiprof_reg_pkg::PM_FILTEREDH_ADDR);
  assign sva_wr_coll  = wr && (addr_i == tiprof_reg_pkg::PM_COLLIDED_ADDR || addr_i == tiprof_reg_pkg::PM_COLLIDEDH_ADDR);

  // Every completed sample and every selection not taken is counted exactly once (a write to the
  // counter wins), and the counters move by nothing else.
  a_pm_csr_taken_counts: assert property (@(posedge clk_i) disable iff (!rst_ni)
    !sva_wr_taken |=> taken_q == $past(taken_q) + 64'($past(taken_inc_i)))
    else $error("a_pm_csr_taken_counts: PM_TAKEN went from %0d to %0d", $past(taken_q), taken_q);
  a_pm_csr_lost_counts: assert property (@(posedge clk_i) disable iff (!rst_ni)
    !sva_wr_lost |=> lost_q == $past(lost_q) + 64'($past(lost_inc_i)))
    else $error("a_pm_csr_lost_counts: PM_LOST went from %0d to %0d", $past(lost_q), lost_q);
  a_pm_csr_filtered_counts: assert property (@(posedge clk_i) disable iff (!rst_ni)
    !sva_wr_filt |=> filt_q == $past(filt_q) + 64'($past(filt_inc_i)))
    else $error("a_pm_csr_filtered_counts: PM_FILTERED went from %0d to %0d", $past(filt_q), filt_q);
  a_pm_csr_collided_counts: assert property (@(posedge clk_i) disable iff (!rst_ni)
    !sva_wr_coll |=> coll_q == $past(coll_q) + 64'($past(coll_inc_i)))
    else $error("a_pm_csr_collided_counts: PM_COLLIDED went from %0d to %0d", $past(coll_q), coll_q);
  // An illegal configuration value is ignored and sets CFG_ERR.
  a_pm_csr_bad_config: assert property (@(posedge clk_i) disable iff (!rst_ni)
    cfg_err_set |=> sticky_q[0] && ctrl_q == $past(ctrl_q) && period_q == $past(period_q) &&
                    wmark_q == $past(wmark_q) && window_q == $past(window_q) &&
                    timeout_q == $past(timeout_q) && evfilt_q == $past(evfilt_q) &&
                    latfilt_q == $past(latfilt_q))
    else $error("a_pm_csr_bad_config: an illegal configuration write changed a register or left CFG_ERR clear");
`endif
`endif

endmodule
