// SPDX-License-Identifier: Apache-2.0
// Xtpsd profile flag state (docs/seldisp-rtl.md section 1, docs/seldisp.md section 3): the
// architectural pfstate (updated by retiring setpf/resetpf/pushpf/poppf and csrw pfstate) and the
// front end's speculative copy (updated at decode), with Ckpt branch checkpoints restored on a
// mispredict and a reload from the architectural state on a flush at commit.
// State as 57 bits: [3:0] FLAGS, [7:4] DEPTH, [23:8] OVF, [24] ERR, [56:25] STACK (entry i at 4i).
module tiprof_sd_flags
#(
  parameter int Rw   = 2,                       // [1,8] flag operations retiring per cycle
  parameter int Ckpt = 4,                       // [1,16] checkpoint slots
  localparam int CkW = (Ckpt > 1) ? $clog2(Ckpt) : 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // retiring flag-control operations, slot 0 oldest
  input  logic [Rw-1:0]     ret_valid_i,
  input  logic [2*Rw-1:0]   ret_fn_i,
  input  logic [4*Rw-1:0]   ret_mask_i,
  // the flag-control operation decoded this cycle
  input  logic              dec_valid_i,
  input  logic [1:0]        dec_fn_i,
  input  logic [3:0]        dec_mask_i,
  // branch checkpoints
  input  logic [Ckpt-1:0]   ckpt_we_i,          // these slots take spec (before this decode)
  input  logic              restore_i,          // mispredict: spec <= ckpt[restore_id_i]
  input  logic [CkW-1:0]    restore_id_i,
  input  logic              flush_i,            // flush at commit: spec <= new arch
  // csrw pfstate (commits alone)
  input  logic              csr_we_i,
  input  logic [63:0]       csr_wdata_i,

  output logic [63:0]       arch_o,             // pfstate (the CSR read)
  output logic [63:0]       spec_o,             // speculative copy as pfstate
  output logic [3:0]        flags_o             // speculative FLAGS, for the decode filter
);

  localparam int SW = 57;

  // setpf / resetpf / pushpf / poppf on a state (docs/seldisp.md section 3)
  function automatic logic [SW-1:0] sd_op(input logic [SW-1:0] s, input logic [1:0] fn,
                                         input logic [3:0] m);
    logic [3:0]  fl, dp;
    logic [15:0] ov;
    logic        er;
    logic [31:0] st;
    fl = s[3:0]; dp = s[7:4]; ov = s[23:8]; er = s[24]; st = s[56:25];
    unique case (fn)
      2'd0: fl = fl | m;
      2'd1: fl = fl & ~m;
      2'd2: begin
        if (dp < 4'd8) begin
          st[{dp[2:0], 2'b00} +: 4] = fl;
          dp = dp + 4'd1;
        end else if (ov != 16'hffff) begin
          ov = ov + 16'd1;
        end else begin
          er = 1'b1;
        end
      end
      default: begin
        if (ov != 16'd0) begin
          ov = ov - 16'd1;
        end else if (dp != 4'd0) begin
          dp = dp - 4'd1;
          fl = st[{dp[2:0], 2'b00} +: 4];
          st[{dp[2:0], 2'b00} +: 4] = 4'd0;
        end else begin
          er = 1'b1;
        end
      end
    endcase
    sd_op = {st, er, ov, dp, fl};
  endfunction

  // csrw pfstate: DEPTH above 8 reads 8, entries at and above DEPTH read 0
  function automatic logic [SW-1:0] sd_warl(input logic [SW-1:0] v);
    logic [3:0]  dp;
    logic [31:0] keep;
    dp = (v[7:4] > 4'd8) ? 4'd8 : v[7:4];
    for (int k = 0; k < 8; k++) keep[4*k +: 4] = (4'(k) < dp) ? 4'hf : 4'h0;
    sd_warl = {v[56:25] & keep, v[24:8], dp, v[3:0]};
  endfunction

  function automatic logic [63:0] sd_pack(input logic [SW-1:0] s);
    sd_pack = {s[56:25], 7'd0, s[24:0]};
  endfunction

  logic [SW-1:0] arch_q, arch_d, spec_q, spec_d;
  (* mem2reg *) logic [SW-1:0] ckpt_q [Ckpt];
  logic [SW-1:0] warl;
  logic          unused_wdata;

  assign unused_wdata = ^csr_wdata_i[31:25];   // reserved bits of pfstate: read 0

  always_comb begin
    warl   = sd_warl({csr_wdata_i[63:32], csr_wdata_i[24:0]});
    arch_d = arch_q;
    if (csr_we_i) begin
      arch_d = warl;
    end else begin
      for (int i = 0; i < Rw; i++)
        if (ret_valid_i[i]) arch_d = sd_op(arch_d, ret_fn_i[2*i +: 2], ret_mask_i[4*i +: 4]);
    end
    if (csr_we_i)         spec_d = warl;
    else if (flush_i)     spec_d = arch_d;
    else if (restore_i)   spec_d = ckpt_q[restore_id_i];
    else if (dec_valid_i) spec_d = sd_op(spec_q, dec_fn_i, dec_mask_i);
    else                  spec_d = spec_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      arch_q <= '0;
      spec_q <= '0;
    end else begin
      arch_q <= arch_d;
      spec_q <= spec_d;
    end
  end

  for (genvar k = 0; k < Ckpt; k++) begin : g_ckpt
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni)           ckpt_q[k] <= '0;
      else if (ckpt_we_i[k]) ckpt_q[k] <= spec_q;
    end
  end

  assign arch_o  = sd_pack(arch_q);
  assign spec_o  = sd_pack(spec_q);
  assign flags_o = spec_q[3:0];

`ifndef SYNTHESIS
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(csr_we_i && (ret_valid_i != '0)))
        else $fatal(1, "a_sd_csr_alone: csrw pfstate commits with a retiring flag operation");
      assert (!(csr_we_i && dec_valid_i))
        else $fatal(1, "a_sd_csr_dec: csrw pfstate commits while a flag operation decodes");
      assert (32'(restore_id_i) < 32'(Ckpt))
        else $fatal(1, "a_sd_restore_id: checkpoint %0d of %0d", restore_id_i, Ckpt);
      assert (arch_q[7:4] <= 4'd8 && spec_q[7:4] <= 4'd8)
        else $fatal(1, "a_sd_depth_bound: DEPTH above 8");
    end
  end
`endif
endmodule
