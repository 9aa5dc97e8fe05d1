// SPDX-License-Identifier: Apache-2.0
// Testbench of the selective-dispatch front-end blocks (docs/seldisp-rtl.md): tiprof_sd_flags,
// tiprof_sd_filter and tiprof_sd_fpred side by side, every input from C (tests/rtl/sd/
// sd_harness.c, which wires them through the C model when a bench wants them wired), every output
// back to C and compared with the model each cycle. C reached over DPI-C (Verilator) or VPI
// system tasks (Icarus, define TIPROF_VPI). Each block's inputs and outputs travel as one
// 1024-bit vector, fields packed from bit 0 in the order of sd_harness.c's pack_in/pack_out.
module tiprof_sd_tb #(
  parameter int W       = 4,    // [1,8] decode / fetch / retire slots
  parameter int PCW     = 64,   // [32,64]
  parameter int CKPT    = 4,    // [1,16]
  parameter int ENTRIES = 16,   // [2,256]
  parameter int POPLAT  = 0,    // [0,7]
  parameter int LOCKW   = 4     // [2,8]
);
  localparam int CkW  = (CKPT > 1) ? $clog2(CKPT) : 1;
  localparam int FIN  = 7 * W + 7 + CKPT + 1 + CkW + 1 + 65;
  localparam int DIN  = 2 + W * (12 + 2 * PCW) + 4;
  localparam int PIN  = 3 * PCW + 5 * W + 11;

  logic clk = 1'b0;

  // The gate-level check (make test-sd-netlist) instantiates Yosys netlists, synthesized for this
  // configuration: modules without parameters.
`ifdef TIPROF_SD_NETLIST
  `define SD_PARAMS(p)
`else
  `define SD_PARAMS(p) #p
`endif

`ifndef TIPROF_VPI
  import "DPI-C" function int sd_tb_init(input int w, input int pcw, input int ckpt,
                                         input int entries, input int poplat, input int lockw,
                                         input longint seed, input longint cycles,
                                         input string bench, input string outdir);
  import "DPI-C" function int sd_tb_tick(input bit [1023:0] fo, input bit [1023:0] dout,
                                         input bit [1023:0] po, output bit rst,
                                         output bit [1023:0] fi, output bit [1023:0] di,
                                         output bit [1023:0] pi);
  import "DPI-C" function int sd_tb_final();
`endif

  bit          rst_q = 1'b1;        // in reset until the C side says otherwise
  bit [1023:0] fin_q, din_q, pin_q;
  logic        rst_n;
  assign rst_n = !rst_q;

  // ---- tiprof_sd_flags
  logic [W-1:0]    ret_valid;
  logic [2*W-1:0]  ret_fn;
  logic [4*W-1:0]  ret_mask;
  logic            dec_valid;
  logic [1:0]      dec_fn;
  logic [3:0]      dec_mask;
  logic [CKPT-1:0] ckpt_we;
  logic            restore;
  logic [CkW-1:0]  restore_id;
  logic            fflush;
  logic            csr_we;
  logic [63:0]     csr_wdata;
  logic [63:0]     arch, spec;
  logic [3:0]      flags;
  assign {csr_wdata, csr_we, fflush, restore_id, restore, ckpt_we, dec_mask, dec_fn, dec_valid,
          ret_mask, ret_fn, ret_valid} = fin_q[FIN-1:0];

  tiprof_sd_flags `SD_PARAMS((.Rw(W), .Ckpt(CKPT))) u_flags (
    .clk_i (clk), .rst_ni (rst_n),
    .ret_valid_i (ret_valid), .ret_fn_i (ret_fn), .ret_mask_i (ret_mask),
    .dec_valid_i (dec_valid), .dec_fn_i (dec_fn), .dec_mask_i (dec_mask),
    .ckpt_we_i (ckpt_we), .restore_i (restore), .restore_id_i (restore_id), .flush_i (fflush),
    .csr_we_i (csr_we), .csr_wdata_i (csr_wdata),
    .arch_o (arch), .spec_o (spec), .flags_o (flags)
  );

  // ---- tiprof_sd_filter
  logic             stall, dflush;
  logic [W-1:0]     valid, pskip;
  logic [W*PCW-1:0] pc, follow;
  logic [2*W-1:0]   cls, flag, fn;
  logic [4*W-1:0]   mask;
  logic [3:0]       dflags;
  logic [W-1:0]     ready, disp;
  logic             wr_valid, upd_valid, upd_clear, redirect;
  logic [1:0]       wr_fn, upd_flag;
  logic [3:0]       wr_mask;
  logic [PCW-1:0]   upd_pc, upd_follow, redirect_pc;
  assign {dflags, pskip, follow, mask, fn, flag, cls, pc, valid, dflush, stall} = din_q[DIN-1:0];

  tiprof_sd_filter `SD_PARAMS((.W(W), .PcW(PCW), .PopLat(POPLAT))) u_filter (
    .clk_i (clk), .rst_ni (rst_n), .stall_i (stall), .flush_i (dflush),
    .valid_i (valid), .pc_i (pc), .cls_i (cls), .flag_i (flag), .fn_i (fn), .mask_i (mask),
    .follow_i (follow), .pskip_i (pskip), .flags_i (dflags),
    .ready_o (ready), .disp_o (disp), .wr_valid_o (wr_valid), .wr_fn_o (wr_fn),
    .wr_mask_o (wr_mask), .upd_valid_o (upd_valid), .upd_pc_o (upd_pc),
    .upd_follow_o (upd_follow), .upd_flag_o (upd_flag), .upd_clear_o (upd_clear),
    .redirect_o (redirect), .redirect_pc_o (redirect_pc)
  );

  // ---- tiprof_sd_fpred
  logic           lk_valid, p_upd_valid, p_upd_clear, wd_valid, fe_flush;
  logic [PCW-1:0] lk_pc, p_upd_pc, p_upd_follow, lk_target;
  logic [1:0]     p_upd_flag;
  logic [W-1:0]   wf_valid;
  logic [4*W-1:0] wf_mask;
  logic [3:0]     wd_mask;
  logic           lk_hit, lk_skip, lk_locked;
  assign {fe_flush, wd_mask, wd_valid, wf_mask, wf_valid, p_upd_clear, p_upd_flag, p_upd_follow,
          p_upd_pc, p_upd_valid, lk_pc, lk_valid} = pin_q[PIN-1:0];

  tiprof_sd_fpred `SD_PARAMS((.Entries(ENTRIES), .PcW(PCW), .W(W), .LockW(LOCKW))) u_fpred (
    .clk_i (clk), .rst_ni (rst_n),
    .lk_valid_i (lk_valid), .lk_pc_i (lk_pc), .lk_hit_o (lk_hit), .lk_skip_o (lk_skip),
    .lk_target_o (lk_target), .lk_locked_o (lk_locked),
    .upd_valid_i (p_upd_valid), .upd_pc_i (p_upd_pc), .upd_follow_i (p_upd_follow),
    .upd_flag_i (p_upd_flag), .upd_clear_i (p_upd_clear),
    .wf_valid_i (wf_valid), .wf_mask_i (wf_mask), .wd_valid_i (wd_valid), .wd_mask_i (wd_mask),
    .fe_flush_i (fe_flush)
  );

  bit [1023:0] fout, dout, pout, n_fin, n_din, n_pin;
  bit          n_rst;
  int          status;
  longint      seed, cycles;
  string       bench, outdir;

  always #5 clk = ~clk;

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (!$value$plusargs("cycles=%d", cycles)) cycles = 100000;
    if (!$value$plusargs("bench=%s", bench)) bench = "random";
    if (!$value$plusargs("outdir=%s", outdir)) outdir = ".";
`ifdef TIPROF_VPI
    $tiprof_sd_tb_init(status, W, PCW, CKPT, ENTRIES, POPLAT, LOCKW, seed, cycles, bench, outdir);
`else
    status = sd_tb_init(W, PCW, CKPT, ENTRIES, POPLAT, LOCKW, seed, cycles, bench, outdir);
`endif
    if (status != 0) begin
`ifdef TIPROF_VPI
      $tiprof_sd_tb_final(status);
`else
      status = sd_tb_final();
`endif
      $finish;
    end
  end

  // At each rising edge the outputs still reflect the cycle that ends now; C checks them and
  // returns the next cycle's inputs, applied after the edge.
  always @(posedge clk) begin
    fout = 1024'({flags, spec, arch});
    dout = 1024'({redirect_pc, redirect, upd_clear, upd_flag, upd_follow, upd_pc, upd_valid,
                  wr_mask, wr_fn, wr_valid, disp, ready});
    pout = 1024'({lk_target, lk_locked, lk_skip, lk_hit});
`ifdef TIPROF_VPI
    $tiprof_sd_tb_tick(status, fout, dout, pout, n_rst, n_fin, n_din, n_pin);
`else
    status = sd_tb_tick(fout, dout, pout, n_rst, n_fin, n_din, n_pin);
`endif
    if (status != 0) begin
`ifdef TIPROF_VPI
      $tiprof_sd_tb_final(status);
`else
      status = sd_tb_final();
`endif
      $finish;
    end
    rst_q <= n_rst;
    fin_q <= n_fin;
    din_q <= n_din;
    pin_q <= n_pin;
  end
endmodule
