// SPDX-License-Identifier: Apache-2.0
// FPGA timing wrapper of the selective-dispatch blocks (docs/seldisp-rtl.md): every input of
// tiprof_sd_flags, tiprof_sd_filter and tiprof_sd_fpred comes from a serially loaded register
// chain and every output is folded into one registered pin (as fpga/tiprof_fpga_top.sv does for
// the unit), so place-and-route measures the blocks' own paths without hundreds of I/O pins.
// The filter's flags come from the flag block and its decoded flag operation and pf.blk go to the
// flag block and the predictor, as in a core's front end.
module tiprof_sd_fpga_top #(
  parameter int W       = 2,
  parameter int PcW     = 32,
  parameter int Ckpt    = 4,
  parameter int Entries = 16
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic din_i,    // serial input data
  output logic dout_o    // folded outputs
);
  localparam int CkW = (Ckpt > 1) ? $clog2(Ckpt) : 1;
  localparam int FIN = 7 * W + Ckpt + 1 + CkW + 1 + 65;             // retire, ckpt, restore, flush, csr
  localparam int DIN = 2 + W * (12 + 2 * PcW);                      // stall, flush, slots
  localparam int PIN = 1 + PcW + 5 * W + 1;                         // lookup, fetched writers, fe_flush
  localparam int InW = FIN + DIN + PIN;

  logic [InW-1:0] in_q;
  logic           dout_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) in_q <= '0;
    else         in_q <= {in_q[InW-2:0], din_i};
  end

  // flag block
  logic [W-1:0]    ret_valid;
  logic [2*W-1:0]  ret_fn;
  logic [4*W-1:0]  ret_mask;
  logic [Ckpt-1:0] ckpt_we;
  logic            restore, fflush, csr_we;
  logic [CkW-1:0]  restore_id;
  logic [63:0]     csr_wdata, arch, spec;
  logic [3:0]      flags;
  // filter
  logic             stall, dflush;
  logic [W-1:0]     valid, pskip, ready, disp;
  logic [W*PcW-1:0] pc, follow;
  logic [2*W-1:0]   cls, flag, fn;
  logic [4*W-1:0]   mask;
  logic             wr_valid, upd_valid, upd_clear, redirect;
  logic [1:0]       wr_fn, upd_flag;
  logic [3:0]       wr_mask;
  logic [PcW-1:0]   upd_pc, upd_follow, redirect_pc;
  // predictor
  logic             lk_valid, fe_flush, lk_hit, lk_skip, lk_locked;
  logic [PcW-1:0]   lk_pc, lk_target;
  logic [W-1:0]     wf_valid;
  logic [4*W-1:0]   wf_mask;

  assign {csr_wdata, csr_we, fflush, restore_id, restore, ckpt_we, ret_mask, ret_fn, ret_valid,
          pskip, follow, mask, fn, flag, cls, pc, valid, dflush, stall,
          fe_flush, wf_mask, wf_valid, lk_pc, lk_valid} = in_q;

  tiprof_sd_flags #(.Rw(W), .Ckpt(Ckpt)) u_flags (
    .clk_i (clk_i), .rst_ni (rst_ni),
    .ret_valid_i (ret_valid), .ret_fn_i (ret_fn), .ret_mask_i (ret_mask),
    .dec_valid_i (wr_valid), .dec_fn_i (wr_fn), .dec_mask_i (wr_mask),
    .ckpt_we_i (ckpt_we), .restore_i (restore), .restore_id_i (restore_id), .flush_i (fflush),
    .csr_we_i (csr_we), .csr_wdata_i (csr_wdata),
    .arch_o (arch), .spec_o (spec), .flags_o (flags)
  );

  tiprof_sd_filter #(.W(W), .PcW(PcW), .PopLat(0)) u_filter (
    .clk_i (clk_i), .rst_ni (rst_ni), .stall_i (stall), .flush_i (dflush),
    .valid_i (valid), .pc_i (pc), .cls_i (cls), .flag_i (flag), .fn_i (fn), .mask_i (mask),
    .follow_i (follow), .pskip_i (pskip), .flags_i (flags),
    .ready_o (ready), .disp_o (disp), .wr_valid_o (wr_valid), .wr_fn_o (wr_fn),
    .wr_mask_o (wr_mask), .upd_valid_o (upd_valid), .upd_pc_o (upd_pc),
    .upd_follow_o (upd_follow), .upd_flag_o (upd_flag), .upd_clear_o (upd_clear),
    .redirect_o (redirect), .redirect_pc_o (redirect_pc)
  );

  tiprof_sd_fpred #(.Entries(Entries), .PcW(PcW), .W(W), .LockW(4)) u_fpred (
    .clk_i (clk_i), .rst_ni (rst_ni),
    .lk_valid_i (lk_valid), .lk_pc_i (lk_pc), .lk_hit_o (lk_hit), .lk_skip_o (lk_skip),
    .lk_target_o (lk_target), .lk_locked_o (lk_locked),
    .upd_valid_i (upd_valid), .upd_pc_i (upd_pc), .upd_follow_i (upd_follow),
    .upd_flag_i (upd_flag), .upd_clear_i (upd_clear),
    .wf_valid_i (wf_valid), .wf_mask_i (wf_mask),
    .wd_valid_i (wr_valid), .wd_mask_i (wr_fn == 2'd3 ? 4'hf : (wr_fn[1] ? 4'h0 : wr_mask)),
    .fe_flush_i (fe_flush | redirect)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) dout_q <= 1'b0;
    else dout_q <= ^{arch, spec, ready, disp, redirect, redirect_pc, lk_hit, lk_skip, lk_locked,
                     lk_target};
  end
  assign dout_o = dout_q;
endmodule
