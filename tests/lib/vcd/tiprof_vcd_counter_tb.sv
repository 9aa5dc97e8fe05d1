// SPDX-License-Identifier: Apache-2.0
// tiprof_vcd_counter_tb: a tiny counter whose VCD, written by Icarus's own
// $dumpvars, validates tests/lib/vcd/vcd_check.py; it also writes the values it sees
// at the end of every time step (+exp=FILE) in vcd_check.py's format.
`timescale 1ns / 1ns
module tiprof_vcd_counter_tb;
  logic        clk = 1'b0;
  logic        rst_n = 1'b0;
  logic [7:0]  cnt_q, cnt_d;
  logic [99:0] wide_q, wide_d; // x until the counter reaches 3

  always #5 clk = ~clk;

  always_comb begin
    cnt_d  = cnt_q + 8'd1;
    wide_d = wide_q;
    if (cnt_q >= 8'd3) wide_d = {cnt_q, 84'h0, cnt_q} ^ (100'h1 << cnt_q);
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) cnt_q <= '0;
    else        cnt_q <= cnt_d;
  end

  always_ff @(posedge clk) wide_q <= wide_d;

  if (1) begin : g_sub
    logic [2:0] low;
    assign low = cnt_q[2:0];
  end

  initial #12 rst_n = 1'b1;

  integer exp_fd;

  initial begin
    string path;
    if (!$value$plusargs("exp=%s", path)) $fatal(1, "usage: +exp=FILE +vcd=FILE");
    exp_fd = $fopen(path, "w");
    if (exp_fd == 0) $fatal(1, "cannot create %0s", path);
    if (!$value$plusargs("vcd=%s", path)) $fatal(1, "usage: +exp=FILE +vcd=FILE");
    $dumpfile(path);
    $dumpvars(0, clk, rst_n, cnt_q, wide_q, g_sub.low);
    $fdisplay(exp_fd, "timescale 1ns");
    $fdisplay(exp_fd, "var tiprof_vcd_counter_tb.clk 1");
    $fdisplay(exp_fd, "var tiprof_vcd_counter_tb.rst_n 1");
    $fdisplay(exp_fd, "var tiprof_vcd_counter_tb.cnt_q 8");
    $fdisplay(exp_fd, "var tiprof_vcd_counter_tb.wide_q 100");
    $fdisplay(exp_fd, "var tiprof_vcd_counter_tb.g_sub.low 3");
    // Sample every signal at the end of each time step 0..400.
    for (int t = 0; t <= 400; t++) begin
      $fstrobe(exp_fd, "#%0t\ntiprof_vcd_counter_tb.clk %b\ntiprof_vcd_counter_tb.rst_n %b",
               $time, clk, rst_n);
      $fstrobe(exp_fd, "tiprof_vcd_counter_tb.cnt_q %b\ntiprof_vcd_counter_tb.wide_q %b",
               cnt_q, wide_q);
      $fstrobe(exp_fd, "tiprof_vcd_counter_tb.g_sub.low %b", g_sub.low);
      #1;
    end
    $fclose(exp_fd);
    $finish;
  end
endmodule
