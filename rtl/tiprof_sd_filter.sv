// SPDX-License-Identifier: Apache-2.0
// Xtpsd decode filter (docs/seldisp-rtl.md section 2): of W decoded slots, which are accepted,
// which dispatched (pf.inc/pf.incr with a clear flag are dropped; pf.blk is resolved here, as a
// branch taken when its flag is clear, against the profile flag predictor's fetch-time skip),
// the one flag-control operation of the cycle (it ends the group) and the poppf hazard.
module tiprof_sd_filter
#(
  parameter int W      = 4,                     // [1,8] decode slots
  parameter int PcW    = 64,                    // [32,64] address width
  parameter int PopLat = 0                      // [0,7] cycles profile instructions wait after poppf
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              stall_i,            // the back end takes nothing this cycle
  input  logic              flush_i,            // the decode group is squashed this cycle
  input  logic [W-1:0]      valid_i,
  input  logic [W*PcW-1:0]  pc_i,
  input  logic [2*W-1:0]    cls_i,              // 0 other, 1 pf.inc/pf.incr, 2 pf.blk, 3 flag control
  input  logic [2*W-1:0]    flag_i,             // flag index of pf.*
  input  logic [2*W-1:0]    fn_i,               // flag control: funct7
  input  logic [4*W-1:0]    mask_i,             // flag control: mask
  input  logic [W*PcW-1:0]  follow_i,           // pf.blk: follow address
  input  logic [W-1:0]      pskip_i,            // pf.blk: fetch skipped its block
  input  logic [3:0]        flags_i,            // speculative flags (tiprof_sd_flags)

  output logic [W-1:0]      ready_o,            // accepted this cycle
  output logic [W-1:0]      disp_o,             // accepted and dispatched
  output logic              wr_valid_o,         // the flag-control operation of this cycle
  output logic [1:0]        wr_fn_o,
  output logic [3:0]        wr_mask_o,
  output logic              upd_valid_o,        // the pf.blk of this cycle, to the predictor
  output logic [PcW-1:0]    upd_pc_o,
  output logic [PcW-1:0]    upd_follow_o,
  output logic [1:0]        upd_flag_o,
  output logic              upd_clear_o,
  output logic              redirect_o,         // decode redirect (pf.blk taken, or a wrong skip)
  output logic [PcW-1:0]    redirect_pc_o
);

  logic [2:0] pop_q, pop_d;
  logic       stop, pop_acc, taken;
  logic [1:0] c;

  always_comb begin
    stop          = stall_i || flush_i;
    ready_o       = '0;
    disp_o        = '0;
    wr_valid_o    = 1'b0;
    wr_fn_o       = 2'd0;
    wr_mask_o     = 4'd0;
    upd_valid_o   = 1'b0;
    upd_pc_o      = '0;
    upd_follow_o  = '0;
    upd_flag_o    = 2'd0;
    upd_clear_o   = 1'b0;
    redirect_o    = 1'b0;
    redirect_pc_o = '0;
    pop_acc       = 1'b0;
    taken         = 1'b0;
    for (int i = 0; i < W; i++) begin
      c = cls_i[2*i +: 2];
      if (valid_i[i]) begin
        if (stop || (pop_q != 3'd0 && (c == 2'd1 || c == 2'd2))) begin
          stop = 1'b1;
        end else begin
          ready_o[i] = 1'b1;
          unique case (c)
            2'd0: disp_o[i] = 1'b1;
            2'd1: disp_o[i] = flags_i[flag_i[2*i +: 2]];
            2'd2: begin
              taken        = !flags_i[flag_i[2*i +: 2]];
              upd_valid_o  = 1'b1;
              upd_pc_o     = pc_i[PcW*i +: PcW];
              upd_follow_o = follow_i[PcW*i +: PcW];
              upd_flag_o   = flag_i[2*i +: 2];
              upd_clear_o  = taken;
              if (taken != pskip_i[i]) begin
                redirect_o    = 1'b1;
                redirect_pc_o = taken ? follow_i[PcW*i +: PcW] : pc_i[PcW*i +: PcW] + PcW'(4);
              end
              stop = 1'b1;
            end
            default: begin
              disp_o[i]  = 1'b1;
              wr_valid_o = 1'b1;
              wr_fn_o    = fn_i[2*i +: 2];
              wr_mask_o  = mask_i[4*i +: 4];
              pop_acc    = (fn_i[2*i +: 2] == 2'd3);
              stop       = 1'b1;
            end
          endcase
        end
      end
    end
    if (flush_i || PopLat == 0) pop_d = 3'd0;
    else if (pop_acc)           pop_d = 3'(PopLat);
    else if (pop_q != 3'd0)     pop_d = pop_q - 3'd1;
    else                        pop_d = 3'd0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) pop_q <= 3'd0;
    else         pop_q <= pop_d;
  end

`ifndef SYNTHESIS
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert ((ready_o & ~valid_i) == '0)
        else $fatal(1, "a_sd_filter_ready_valid: an invalid slot accepted");
      assert ((disp_o & ~ready_o) == '0)
        else $fatal(1, "a_sd_filter_disp_ready: a slot dispatched but not accepted");
      assert (!(wr_valid_o && upd_valid_o))
        else $fatal(1, "a_sd_filter_one_op: a flag operation and a pf.blk in one cycle");
      assert (32'(pop_q) <= 32'(PopLat))
        else $fatal(1, "a_sd_filter_pop_bound: hazard counter %0d above %0d", pop_q, PopLat);
    end
  end
`endif
endmodule
