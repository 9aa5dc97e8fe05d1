// SPDX-License-Identifier: Apache-2.0
// tests/fpga/tb_tiprof_wb.sv - the Wishbone wrapper (fpga/tiprof_wb.sv) with the unit behind it
// (fpga/tiprof_wb_unit.sv, W=2 XLEN=32 FIFO 4): every access through the bus, checked against
// the register map (rtl/tiprof_reg_pkg.sv) and the access rules of docs/registers.md:
//   - S window before firmware sets TIP_MENABLE.S: illegal (err, reads 0); M window: legal
//   - TIP_MENABLE through the S window: err (M-only); through the M window: set
//   - TIP_ID, TIP_PARAMS read back (magic, version, W, XLEN, depth)
//   - TIP_PERIOD write/read-back; an illegal value (0) ignored with STATUS.CFG_ERR
//   - a partial write (sel not all ones): err, nothing written
//   - ack/err one cycle after the request, never both, exactly once per access
//   - end to end: periodic sampling of a core committing PCs 0x1000 + 4k, two per cycle:
//     the interrupt rises, FIFO_COUNT > 0, S_ADDR0 is a committed PC, POP empties the FIFO
// Prints "tb_tiprof_wb: N passed, 0 failed" and $fatal on the first failure.
`timescale 1ns / 1ps
module tb_tiprof_wb;
  import tiprof_reg_pkg::*;
  localparam int W = 2, XLEN = 32, Depth = 4;
  logic clk = 0, rst_n = 0;
  always #5 clk = ~clk;

  logic [W-1:0] valid, commit;
  logic [W*XLEN-1:0] pc;
  logic cyc = 0, stb = 0, we = 0;
  logic [12:0] adr = 0;
  logic [3:0] sel = 4'hf;
  logic [31:0] dat_w = 0, dat_r;
  logic ack, err, irq;
  int passed = 0;

  tiprof_wb_unit #(.W(W), .XLEN(XLEN), .FifoDepth(Depth), .InputStage(0)) dut (
    .clk_i(clk), .rst_ni(rst_n),
    .rob_head_valid_i(valid), .rob_head_commit_i(commit), .rob_head_pc_i(pc),
    .rob_head_mispred_i('0), .rob_head_flush_i('0), .rob_head_bank_i('0),
    .rob_exception_i(1'b0), .rob_disp_valid_i('0), .rob_disp_pc_i('0), .rob_disp_idx_i('0),
    .priv_i(2'b00), .ctx_id_i(16'h42),
    .wb_cyc_i(cyc), .wb_stb_i(stb), .wb_we_i(we), .wb_adr_i(adr), .wb_sel_i(sel),
    .wb_dat_i(dat_w), .wb_dat_o(dat_r), .wb_ack_o(ack), .wb_err_o(err), .irq_o(irq)
  );

  // the core: two instructions commit every cycle, PCs 0x1000 + 4k
  logic [31:0] next_pc = 32'h1000;
  always_ff @(posedge clk) if (rst_n) next_pc <= next_pc + 8;
  assign valid  = 2'b11;
  assign commit = 2'b11;
  assign pc     = {next_pc + 32'd4, next_pc};

  function automatic void ok(input bit cond, input string what);
    if (!cond) $fatal(1, "tb_tiprof_wb: FAIL %s", what);
    passed++;
  endfunction

  // one Wishbone access; returns the data and whether it ended with err
  task automatic access(input bit m, input bit wr, input logic [11:0] csr, input logic [31:0] d,
                        output logic [31:0] q, output bit e);
    int waited = 0, acks = 0;
    @(negedge clk);
    cyc = 1; stb = 1; we = wr; adr = {m, csr}; dat_w = d;
    @(posedge clk);
    ok(!ack && !err, "no ack/err in the request cycle");
    @(negedge clk);
    ok(ack ^ err, $sformatf("ack xor err one cycle after the request (csr %h)", csr));
    q = dat_r; e = err;
    @(posedge clk);   // the master samples ack here, the strobe still up
    #1 ok(!ack && !err, "ack/err last one cycle, no second access while the strobe is up");
    @(negedge clk);   // and drops it
    cyc = 0; stb = 0; we = 0;
  endtask

  logic [31:0] q;
  bit e;
  int cnt;
  initial begin
    repeat (3) @(posedge clk);
    rst_n = 1;
    // S window before TIP_MENABLE.S: illegal
    access(0, 0, TIP_ID_ADDR, 0, q, e);
    ok(e && q == 0, "S-window read of TIP_ID before MENABLE: err, 0");
    // M window: legal
    access(1, 0, TIP_ID_ADDR, 0, q, e);
    ok(!e && q[15:0] == TIP_ID_MAGIC, $sformatf("M-window TIP_ID magic (%h)", q));
    // MENABLE is M-only
    access(0, 1, TIP_MENABLE_ADDR, 1, q, e);
    ok(e, "S-window write of TIP_MENABLE: err");
    access(1, 1, TIP_MENABLE_ADDR, 1, q, e);
    ok(!e, "M-window write of TIP_MENABLE");
    access(1, 0, TIP_MENABLE_ADDR, 0, q, e);
    ok(!e && q == 1, "TIP_MENABLE reads back 1");
    // identification through the S window
    access(0, 0, TIP_ID_ADDR, 0, q, e);
    ok(!e && q[15:0] == TIP_ID_MAGIC && q[TIP_ID_MAJOR_LSB +: 8] == TIP_ID_MAJOR &&
       q[TIP_ID_MINOR_LSB +: 8] == TIP_ID_MINOR, $sformatf("S-window TIP_ID %h", q));
    access(0, 0, TIP_PARAMS_ADDR, 0, q, e);
    ok(!e && q[TIP_PARAMS_W_LSB +: TIP_PARAMS_W_W] == W &&
       q[TIP_PARAMS_XLEN_LSB +: TIP_PARAMS_XLEN_W] == XLEN &&
       q[TIP_PARAMS_DEPTH_LSB +: TIP_PARAMS_DEPTH_W] == Depth, $sformatf("TIP_PARAMS %h", q));
    // PERIOD read-back, an illegal value ignored with CFG_ERR
    access(0, 0, TIP_PERIOD_ADDR, 0, q, e);
    ok(!e && q == TIP_PERIOD_RESET, "TIP_PERIOD reset value");
    access(0, 1, TIP_PERIOD_ADDR, 32'd37, q, e);
    access(0, 0, TIP_PERIOD_ADDR, 0, q, e);
    ok(!e && q == 37, $sformatf("TIP_PERIOD reads back 37 (%0d)", q));
    access(0, 1, TIP_PERIOD_ADDR, 32'd0, q, e);
    access(0, 0, TIP_PERIOD_ADDR, 0, q, e);
    ok(q == 37, "TIP_PERIOD = 0 ignored");
    access(0, 0, TIP_STATUS_ADDR, 0, q, e);
    ok(q[TIP_STATUS_CFG_ERR_LSB], "STATUS.CFG_ERR after the illegal PERIOD");
    access(0, 1, TIP_STATUS_ADDR, 32'd1 << TIP_STATUS_CFG_ERR_LSB, q, e);
    // a partial write: err, nothing written
    sel = 4'h3;
    access(0, 1, TIP_PERIOD_ADDR, 32'd99, q, e);
    ok(e, "partial write: err");
    sel = 4'hf;
    access(0, 0, TIP_PERIOD_ADDR, 0, q, e);
    ok(q == 37, "partial write changed nothing");
    // an address not in the map
    access(0, 0, 12'h5DF, 0, q, e);
    ok(e && q == 0, "unmapped CSR: err, 0");
    // end to end: periodic sampling every 37 cycles of U mode, watermark 1, IRQ on
    access(0, 1, TIP_CTRL_ADDR, (32'd1 << TIP_CTRL_EN_LSB) | (32'd1 << TIP_CTRL_IRQ_EN_LSB) |
                                (32'd1 << TIP_CTRL_PRIV_LSB), q, e);
    ok(!e, "CTRL write (EN, IRQ_EN, U)");
    cnt = 0;
    while (!irq && cnt < 200) begin @(posedge clk); cnt++; end
    ok(irq, "the interrupt rises");
    access(0, 0, TIP_FIFO_COUNT_ADDR, 0, q, e);
    ok(!e && q > 0, $sformatf("FIFO_COUNT %0d > 0", q));
    access(0, 0, TIP_S_ADDR_ADDR, 0, q, e);
    ok(!e && q >= 32'h1000 && q < next_pc && q[1:0] == 0, $sformatf("S_ADDR0 %h is a committed PC", q));
    access(0, 1, TIP_CTRL_ADDR, 32'd0, q, e);   // stop, then empty the FIFO
    for (int i = 0; i < Depth + 1; i++) access(0, 1, TIP_POP_ADDR, 0, q, e);
    access(0, 0, TIP_FIFO_COUNT_ADDR, 0, q, e);
    ok(q == 0, "POP empties the FIFO");
    repeat (2) @(posedge clk);
    ok(!irq, "the interrupt falls with the FIFO empty");
    $display("tb_tiprof_wb: %0d passed, 0 failed", passed);
    $finish;
  end
  initial begin
    #200000 $fatal(1, "tb_tiprof_wb: FAIL time limit");
  end
endmodule
