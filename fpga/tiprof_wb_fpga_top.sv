// SPDX-License-Identifier: Apache-2.0
// FPGA timing wrapper of the Wishbone peripheral (fpga/tiprof_wb_unit.sv), as
// fpga/tiprof_fpga_top.sv is of the bare unit: every input (the ROB interface and the Wishbone
// slave's inputs) comes from a serially loaded register chain and every output (read data,
// ack, err, irq) is folded into one registered pin, so place-and-route times the peripheral's
// own paths on a few pins. One clock: the bus and the core's commit stage share it, as in a
// LiteX SoC. fpga/pnr.sh places and routes it and packs a bitstream (docs/fpga.md).
module tiprof_wb_fpga_top #(
  parameter int W         = 2,    // [1,8]
  parameter int XLEN      = 32,   // [32,64]
  parameter int FifoDepth = 2,    // [1,65535]
  parameter int RobIdxW   = 7,    // [1,16]
  parameter int InputStage = 0    // [0,1]
) (
  input  logic clk_i,    // clock
  input  logic rst_ni,   // asynchronous reset, active low
  input  logic din_i,    // serial input data
  output logic dout_o    // folded outputs
);
  localparam int BankW = (W > 1) ? $clog2(W) : 1;
  localparam int RobW  = 4 * W + 2 * W * XLEN + BankW + 1 + W + W * RobIdxW + 2 + 16;
  localparam int BusW  = 3 + 13 + XLEN / 8 + XLEN;
  localparam int InW   = RobW + BusW;

  logic [InW-1:0]  in_q;
  logic            dout_q;
  logic [XLEN-1:0] dat;
  logic            ack, err, irq;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_q   <= '0;
      dout_q <= 1'b0;
    end else begin
      in_q   <= {in_q[InW-2:0], din_i};
      dout_q <= ^{dat, ack, err, irq};
    end
  end
  assign dout_o = dout_q;

  tiprof_wb_unit #(
    .W(W), .XLEN(XLEN), .FifoDepth(FifoDepth), .RobIdxW(RobIdxW), .InputStage(InputStage)
  ) u_periph (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .rob_head_valid_i   (in_q[0 +: W]),
    .rob_head_commit_i  (in_q[W +: W]),
    .rob_head_mispred_i (in_q[2*W +: W]),
    .rob_head_flush_i   (in_q[3*W +: W]),
    .rob_head_pc_i      (in_q[4*W +: W*XLEN]),
    .rob_disp_pc_i      (in_q[4*W + W*XLEN +: W*XLEN]),
    .rob_head_bank_i    (in_q[4*W + 2*W*XLEN +: BankW]),
    .rob_exception_i    (in_q[4*W + 2*W*XLEN + BankW]),
    .rob_disp_valid_i   (in_q[4*W + 2*W*XLEN + BankW + 1 +: W]),
    .rob_disp_idx_i     (in_q[5*W + 2*W*XLEN + BankW + 1 +: W*RobIdxW]),
    .priv_i             (in_q[5*W + 2*W*XLEN + BankW + 1 + W*RobIdxW +: 2]),
    .ctx_id_i           (in_q[5*W + 2*W*XLEN + BankW + 3 + W*RobIdxW +: 16]),
    .wb_cyc_i           (in_q[RobW]),
    .wb_stb_i           (in_q[RobW + 1]),
    .wb_we_i            (in_q[RobW + 2]),
    .wb_adr_i           (in_q[RobW + 3 +: 13]),
    .wb_sel_i           (in_q[RobW + 16 +: XLEN/8]),
    .wb_dat_i           (in_q[RobW + 16 + XLEN/8 +: XLEN]),
    .wb_dat_o           (dat),
    .wb_ack_o           (ack),
    .wb_err_o           (err),
    .irq_o              (irq)
  );
endmodule
