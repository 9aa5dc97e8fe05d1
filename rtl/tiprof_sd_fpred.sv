// SPDX-License-Identifier: Apache-2.0
// Xtpsd profile flag predictor (docs/seldisp-rtl.md section 3): a direct-mapped block descriptor
// table of pf.blk leaders (tag, follow offset, flag index, prediction) looked up at fetch, trained
// by the decode filter; lock from per-flag counts of flag writers between fetch and decode.
module tiprof_sd_fpred
#(
  parameter int Entries = 16,                   // [2,256] power of two
  parameter int PcW     = 64,                   // [32,64] address width
  parameter int W       = 4,                    // [1,8] fetch slots
  parameter int LockW   = 4,                    // [2,8] in-flight writer counter width
  localparam int IdxW   = $clog2(Entries),
  localparam int TagW   = PcW - IdxW - 1,
  localparam int NW     = $clog2(W + 1)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // fetch lookup
  input  logic              lk_valid_i,
  input  logic [PcW-1:0]    lk_pc_i,
  output logic              lk_hit_o,
  output logic              lk_skip_o,
  output logic [PcW-1:0]    lk_target_o,
  output logic              lk_locked_o,
  // decode update (tiprof_sd_filter's upd_*)
  input  logic              upd_valid_i,
  input  logic [PcW-1:0]    upd_pc_i,
  input  logic [PcW-1:0]    upd_follow_i,
  input  logic [1:0]        upd_flag_i,
  input  logic              upd_clear_i,
  // flag writers fetched (flags each may change) and decoded
  input  logic [W-1:0]      wf_valid_i,
  input  logic [4*W-1:0]    wf_mask_i,
  input  logic              wd_valid_i,
  input  logic [3:0]        wd_mask_i,
  input  logic              fe_flush_i
);

  logic [Entries-1:0] valid_q;
  logic [TagW-1:0]    tag_q  [Entries];
  logic [11:0]        off_q  [Entries];
  logic [1:0]         flag_q [Entries];
  logic [Entries-1:0] pred_q;
  logic [4*LockW-1:0] infl_q, infl_d;        // per flag f at [LockW*f +: LockW]: writers fetched, not decoded
  logic [3:0]         fetched, lockv;
  logic [4*NW-1:0]    nf;                    // per flag: writers fetched this cycle
  logic [IdxW-1:0]    lk_idx, up_idx;
  logic [PcW-1:0]     up_off;

  assign lk_idx = lk_pc_i[IdxW:1];
  assign up_idx = upd_pc_i[IdxW:1];
  assign up_off = upd_follow_i - upd_pc_i;

  always_comb begin
    for (int f = 0; f < 4; f++) begin
      nf[NW*f +: NW] = '0;
      for (int i = 0; i < W; i++)
        nf[NW*f +: NW] = nf[NW*f +: NW] + NW'(wf_valid_i[i] && wf_mask_i[4*i + f]);
      fetched[f] = (nf[NW*f +: NW] != '0);
      lockv[f]   = (infl_q[LockW*f +: LockW] != '0) || fetched[f];
      if (fe_flush_i) infl_d[LockW*f +: LockW] = '0;
      else infl_d[LockW*f +: LockW] = infl_q[LockW*f +: LockW] + LockW'(nf[NW*f +: NW])
                                      - LockW'(wd_valid_i && wd_mask_i[f]);
    end
  end

  always_comb begin
    lk_hit_o    = lk_valid_i && valid_q[lk_idx] && tag_q[lk_idx] == lk_pc_i[PcW-1:IdxW+1];
    lk_skip_o   = lk_hit_o && pred_q[lk_idx] && !lockv[flag_q[lk_idx]];
    lk_locked_o = lk_hit_o && lockv[flag_q[lk_idx]];
    lk_target_o = lk_pc_i + {{(PcW-13){1'b0}}, off_q[lk_idx], 1'b0};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      pred_q  <= '0;
    end else if (upd_valid_i) begin
      valid_q[up_idx] <= 1'b1;
      pred_q[up_idx]  <= upd_clear_i;
    end
  end

  // the table's payload needs no reset (valid_q guards it)
  always_ff @(posedge clk_i) begin
    if (upd_valid_i) begin
      tag_q[up_idx]  <= upd_pc_i[PcW-1:IdxW+1];
      off_q[up_idx]  <= up_off[12:1];
      flag_q[up_idx] <= upd_flag_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      infl_q <= '0;
    end else begin
      infl_q <= infl_d;
    end
  end

`ifndef SYNTHESIS
  logic       a_follow_ok;
  logic [3:0] a_over_ok, a_under_ok;
  always_comb begin
    a_follow_ok = !upd_valid_i || (up_off >= PcW'(4) && up_off <= PcW'(4094) && !up_off[0]);
    for (int f = 0; f < 4; f++) begin
      a_over_ok[f]  = fe_flush_i || ({1'b0, infl_q[LockW*f +: LockW]} + (LockW+1)'(nf[NW*f +: NW]) <=
                      (LockW+1)'((1 << LockW) - 1) + (LockW+1)'(wd_valid_i && wd_mask_i[f]));
      a_under_ok[f] = fe_flush_i || !(wd_valid_i && wd_mask_i[f]) ||
                      infl_q[LockW*f +: LockW] != '0 || nf[NW*f +: NW] != '0;
    end
  end
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (a_follow_ok)
        else $fatal(1, "a_sd_fpred_follow: follow - leader = %0d, not 4..4094 and even", up_off);
      assert (&a_over_ok)
        else $fatal(1, "a_sd_fpred_inflight_over: a flag's writer count overflows (%b)", a_over_ok);
      assert (&a_under_ok)
        else $fatal(1, "a_sd_fpred_inflight_under: a writer decoded but none in flight (%b)", a_under_ok);
    end
  end
`endif
endmodule
