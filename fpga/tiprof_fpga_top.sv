// SPDX-License-Identifier: Apache-2.0
// FPGA timing wrapper: feeds every input of tiprof_unit from a serially loaded register chain and
// folds every output into one registered pin, so place-and-route measures the unit's own paths
// without hundreds of I/O pins. With CsrOwnClock = 1 the CSR port's input registers run on
// csr_clk_i instead: paths that start at a CSR access leave clk_i's timing, and clk_i's maximum
// frequency is that of the paths a core sees every cycle (ROB inputs into the selection and the
// FIFO, the sampler), which is what a core clocks the unit at; CSR accesses are rare and can be
// given two cycles.
`include "tiprof_pm_tieoff.svh"

module tiprof_fpga_top #(
  parameter int W         = 2,    // [1,8]
  parameter int XLEN      = 32,   // [32,64]
  parameter int FifoDepth = 2,    // [1,65535]
  parameter int RobIdxW   = 7,    // [1,16]
  parameter bit CsrOwnClock = 1'b0, // CSR port inputs registered on csr_clk_i
  parameter int InputStage = 0    // [0,1] the unit's input stage
) (
  input  logic clk_i,    // clock
  input  logic csr_clk_i, // clock of the CSR port's input registers (CsrOwnClock = 1)
  input  logic rst_ni,   // asynchronous reset, active low
  input  logic din_i,    // serial input data
  output logic dout_o    // folded outputs
);
  localparam int BankW = (W > 1) ? $clog2(W) : 1;
  localparam int InW   = 4 * W + 2 * W * XLEN + BankW + 1 + W + W * RobIdxW + 2 + 16 +
                         2 + 12 + XLEN + 2;

  // the CSR port (req, we, addr, wdata, priv) is the top XLEN + 16 bits of the chain
  localparam int CsrLo = InW - (XLEN + 16);

  logic [InW-1:0]  in_q, in_d;
  logic            dout_q, dout_d;
  logic [XLEN-1:0] rdata;
  logic            illegal, irq;

  always_comb begin
    in_d   = {in_q[InW-2:0], din_i};
    dout_d = ^{rdata, illegal, irq};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_q[CsrLo-1:0] <= '0;
      dout_q          <= 1'b0;
    end else begin
      in_q[CsrLo-1:0] <= in_d[CsrLo-1:0];
      dout_q          <= dout_d;
    end
  end

  if (CsrOwnClock) begin : g_csr_clk
    always_ff @(posedge csr_clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        in_q[InW-1:CsrLo] <= '0;
      end else begin
        in_q[InW-1:CsrLo] <= in_d[InW-1:CsrLo];
      end
    end
  end else begin : g_one_clk
    logic unused_csr_clk;
    assign unused_csr_clk = csr_clk_i;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        in_q[InW-1:CsrLo] <= '0;
      end else begin
        in_q[InW-1:CsrLo] <= in_d[InW-1:CsrLo];
      end
    end
  end

  assign dout_o = dout_q;

  `TIPROF_PM_TIEOFF_DECL   // pm_tag_o of a unit without ProfileMe (reads 0)

  tiprof_unit #(
    .W         (W),
    .XLEN      (XLEN),
    .FifoDepth (FifoDepth),
    .RobIdxW   (RobIdxW),
    .InputStage (InputStage)
  ) u_unit (
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
    // no ProfileMe subsystem here (PmF = 0): its ports tied off (rtl/tiprof_pm_tieoff.svh)
    `TIPROF_PM_TIEOFF_PORTS,
    .csr_req_i          (in_q[5*W + 2*W*XLEN + BankW + 19 + W*RobIdxW]),
    .csr_we_i           (in_q[5*W + 2*W*XLEN + BankW + 20 + W*RobIdxW]),
    .csr_addr_i         (in_q[5*W + 2*W*XLEN + BankW + 21 + W*RobIdxW +: 12]),
    .csr_wdata_i        (in_q[5*W + 2*W*XLEN + BankW + 33 + W*RobIdxW +: XLEN]),
    .csr_priv_i         (in_q[5*W + 2*W*XLEN + BankW + 33 + W*RobIdxW + XLEN +: 2]),
    .csr_rdata_o        (rdata),
    .csr_illegal_o      (illegal),
    .irq_o              (irq)
  );
endmodule
