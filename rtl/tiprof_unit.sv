// SPDX-License-Identifier: Apache-2.0
// tiprof profiling unit top: hangs off a core's ROB interface, selects time-proportional (TIP)
// samples into a FIFO and exposes them through a CSR port and an interrupt.
module tiprof_unit
#(
  parameter int W         = 4,    // [1,8] commit width = ROB banks (power of two)
  parameter int XLEN      = 64,   // [32,64] address and CSR data width
  parameter int FifoDepth = 8,    // [1,65535] sample FIFO entries
  parameter int RobIdxW   = 7,    // [1,16] width of a ROB index
  localparam int BankW    = (W > 1) ? $clog2(W) : 1
) (
  input  logic                 clk_i,               // clock
  input  logic                 rst_ni,              // asynchronous reset, active low

  // ROB interface (DESIGN.md; docs/tip-unit.md)
  input  logic [W-1:0]         rob_head_valid_i,    // bank i's head entry holds an instruction
  input  logic [W-1:0]         rob_head_commit_i,   // that entry commits this cycle
  input  logic [W*XLEN-1:0]    rob_head_pc_i,       // its address (bank i at [i*XLEN +: XLEN])
  input  logic [W-1:0]         rob_head_mispred_i,  // it is a mispredicted control transfer
  input  logic [W-1:0]         rob_head_flush_i,    // its commit flushes the pipeline
  input  logic [BankW-1:0]     rob_head_bank_i,     // bank of the oldest entry (next, when empty)
  input  logic                 rob_exception_i,     // the oldest entry traps this cycle
  input  logic [W-1:0]         rob_disp_valid_i,    // an instruction is dispatched into bank i
  input  logic [W*XLEN-1:0]    rob_disp_pc_i,       // its address
  input  logic [W*RobIdxW-1:0] rob_disp_idx_i,      // its ROB index (for ProfileMe)
  input  logic [1:0]           priv_i,              // privilege of the oldest entry
  input  logic [15:0]          ctx_id_i,            // address-space id of the oldest entry

  // CSR port (combinational response in the request cycle)
  input  logic                 csr_req_i,           // an access this cycle
  input  logic                 csr_we_i,            // it is a write
  input  logic [11:0]          csr_addr_i,          // CSR number
  input  logic [XLEN-1:0]      csr_wdata_i,         // write data
  input  logic [1:0]           csr_priv_i,          // privilege of the access
  output logic [XLEN-1:0]      csr_rdata_o,         // read data
  output logic                 csr_illegal_o,       // illegal access: the core raises an exception

  output logic                 irq_o                // sample interrupt (level)
);

  localparam int CntW = $clog2(FifoDepth + 1);
  // Sample record layout in a FIFO entry (LSB first).
  localparam int OffCycle = 0;
  localparam int OffFlags = 64;
  localparam int OffBank  = 69;
  localparam int OffValid = 72;
  localparam int OffPriv  = OffValid + W;
  localparam int OffCtx   = OffPriv + 2;
  localparam int OffAddr  = OffCtx + 16;
  localparam int SampleW  = OffAddr + W * XLEN;

`ifndef SYNTHESIS
  initial begin
    assert (W == 1 || W == 2 || W == 4 || W == 8) else $fatal(1, "tiprof_unit: W must be 1, 2, 4 or 8");
    assert (XLEN == 32 || XLEN == 64) else $fatal(1, "tiprof_unit: XLEN must be 32 or 64");
    assert (FifoDepth >= 1 && FifoDepth <= 65535) else $fatal(1, "tiprof_unit: FifoDepth out of [1,65535]");
    assert (RobIdxW >= 1 && RobIdxW <= 16) else $fatal(1, "tiprof_unit: RobIdxW out of [1,16]");
  end
`endif

  // ---------------------------------------------------------------- ROB-side decode
  logic [W-1:0]     commit;
  logic             empty, any_commit, exc;
  logic [BankW-1:0] youngest, unused_first_commit;
  logic             unused_any_commit;
  logic             unused_disp_idx;

  assign commit          = rob_head_valid_i & rob_head_commit_i;
  assign empty           = !rob_head_valid_i[rob_head_bank_i];
  assign any_commit      = |commit;
  assign exc             = rob_exception_i && !empty && !any_commit;
  assign unused_disp_idx = ^rob_disp_idx_i;

  tiprof_bank_order #(
    .W (W)
  ) u_commit_order (
    .mask_i  (commit),
    .start_i (rob_head_bank_i),
    .any_o   (unused_any_commit),
    .first_o (unused_first_commit),
    .last_o  (youngest)
  );

  // ---------------------------------------------------------------- OIR
  logic [XLEN-1:0] oir_addr;
  logic            oir_mispred, oir_flush, oir_exception;
  logic [1:0]      oir_priv;
  logic [15:0]     oir_ctx;

  tiprof_tip_oir #(
    .W    (W),
    .XLEN (XLEN)
  ) u_oir (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .commit_i       (commit),
    .youngest_i     (youngest),
    .exc_i          (exc),
    .head_bank_i    (rob_head_bank_i),
    .head_pc_i      (rob_head_pc_i),
    .head_mispred_i (rob_head_mispred_i),
    .head_flush_i   (rob_head_flush_i),
    .priv_i         (priv_i),
    .ctx_i          (ctx_id_i),
    .addr_o         (oir_addr),
    .mispred_o      (oir_mispred),
    .flush_o        (oir_flush),
    .exception_o    (oir_exception),
    .priv_o         (oir_priv),
    .ctx_o          (oir_ctx)
  );

  // ---------------------------------------------------------------- sample selection
  logic [4:0]        s_flags;
  logic [2:0]        s_bank, c_bank;
  logic [W-1:0]      s_valid, c_valid;
  logic [W*XLEN-1:0] s_addr, c_addr;
  logic [1:0]        s_priv;
  logic [15:0]       s_ctx;
  logic              s_pending, cmpl;

  tiprof_tip_select #(
    .W    (W),
    .XLEN (XLEN)
  ) u_select (
    .head_valid_i    (rob_head_valid_i),
    .commit_i        (commit),
    .head_pc_i       (rob_head_pc_i),
    .head_bank_i     (rob_head_bank_i),
    .empty_i         (empty),
    .disp_valid_i    (rob_disp_valid_i),
    .disp_pc_i       (rob_disp_pc_i),
    .priv_i          (priv_i),
    .ctx_i           (ctx_id_i),
    .oir_addr_i      (oir_addr),
    .oir_mispred_i   (oir_mispred),
    .oir_flush_i     (oir_flush),
    .oir_exception_i (oir_exception),
    .oir_priv_i      (oir_priv),
    .oir_ctx_i       (oir_ctx),
    .flags_o         (s_flags),
    .bank_o          (s_bank),
    .valid_o         (s_valid),
    .addr_o          (s_addr),
    .priv_o          (s_priv),
    .ctx_o           (s_ctx),
    .pending_o       (s_pending),
    .cmpl_o          (cmpl),
    .cmpl_bank_o     (c_bank),
    .cmpl_valid_o    (c_valid),
    .cmpl_addr_o     (c_addr)
  );

  // ---------------------------------------------------------------- CSR access check
  logic            menable_q, menable_d;
  logic            tip_hit, is_menable, access_ok, csr_legal;
  logic [XLEN-1:0] tip_rdata;

  assign is_menable    = (csr_addr_i == tiprof_reg_pkg::TIP_MENABLE_ADDR);
  assign access_ok     = !(csr_we_i && csr_addr_i[11:10] == 2'b11) &&
                         (csr_priv_i >= csr_addr_i[9:8]) &&
                         (csr_priv_i == 2'b11 || menable_q);
  assign csr_legal     = csr_req_i && (tip_hit || is_menable) && access_ok;
  assign csr_illegal_o = csr_req_i && !csr_legal;

  always_comb begin
    menable_d = menable_q;
    if (csr_legal && csr_we_i && is_menable) menable_d = csr_wdata_i[0];
    csr_rdata_o = tip_rdata;
    if (csr_legal && !csr_we_i && is_menable) csr_rdata_o = XLEN'(menable_q);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) menable_q <= 1'b0;
    else         menable_q <= menable_d;
  end

  // ---------------------------------------------------------------- sampler
  logic        en, restart, lfsr_we, fire, priv_ok;
  logic [1:0]  mode, mode_next;
  logic [3:0]  priv_filter;
  logic [4:0]  rand_bits_next;
  logic [31:0] period, period_next, lfsr_wdata, lfsr;
  logic [63:0] cycle;

  assign priv_ok = priv_filter[s_priv];

  tiprof_tip_sampler u_sampler (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .en_i             (en),
    .mode_i           (mode),
    .period_i         (period),
    .mode_next_i      (mode_next),
    .rand_bits_next_i (rand_bits_next),
    .period_next_i    (period_next),
    .restart_i        (restart),
    .lfsr_we_i        (lfsr_we),
    .lfsr_wdata_i     (lfsr_wdata),
    .priv_ok_i        (priv_ok),
    .fire_o           (fire),
    .cycle_o          (cycle),
    .lfsr_o           (lfsr)
  );

  // ---------------------------------------------------------------- FIFO
  logic [SampleW-1:0] push_data, cmpl_data, head_data;
  logic               accept, pop, pop_empty, head_valid, fifo_full, fifo_pending;
  logic [CntW-1:0]    fifo_count;
  logic               unused_head_valid;

  // A FIFO entry as one vector (field offsets above); completion data has only the fields a
  // dispatch fills in.
  assign push_data = {s_addr, s_ctx, s_priv, s_valid, s_bank, s_flags, cycle};
  assign cmpl_data = {c_addr, 16'd0, 2'd0, c_valid, c_bank, 5'd0, 64'd0};

  tiprof_tip_fifo #(
    .Depth (FifoDepth),
    .DataW (SampleW)
  ) u_fifo (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .pop_i          (pop),
    .cmpl_i         (cmpl),
    .cmpl_data_i    (cmpl_data),
    .push_i         (fire),
    .push_pending_i (s_pending),
    .push_data_i    (push_data),
    .accept_o       (accept),
    .pop_empty_o    (pop_empty),
    .head_valid_o   (head_valid),
    .head_data_o    (head_data),
    .count_o        (fifo_count),
    .full_o         (fifo_full),
    .pending_o      (fifo_pending)
  );

  assign unused_head_valid = head_valid;   // head_data is already 0 without a complete head

  // ---------------------------------------------------------------- registers
  logic [31:0] head_info;

  assign head_info = 32'(head_data[OffFlags +: 5]) |
                     (32'(head_data[OffBank +: 3]) << tiprof_reg_pkg::TIP_S_INFO_BANK_LSB) |
                     (32'(head_data[OffValid +: W]) << tiprof_reg_pkg::TIP_S_INFO_VALID_LSB) |
                     (32'(head_data[OffPriv +: 2]) << tiprof_reg_pkg::TIP_S_INFO_PRIV_LSB);

  tiprof_tip_csr #(
    .W     (W),
    .XLEN  (XLEN),
    .Depth (FifoDepth)
  ) u_csr (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .req_i            (csr_legal && !is_menable),
    .we_i             (csr_we_i),
    .addr_i           (csr_addr_i),
    .wdata_i          (csr_wdata_i),
    .hit_o            (tip_hit),
    .rdata_o          (tip_rdata),
    .cycle_i          (cycle),
    .lfsr_i           (lfsr),
    .fifo_count_i     (fifo_count),
    .fifo_full_i      (fifo_full),
    .fifo_pending_i   (fifo_pending),
    .s_cycle_i        (head_data[OffCycle +: 64]),
    .s_info_i         (head_info),
    .s_ctx_i          (head_data[OffCtx +: 16]),
    .s_addr_i         (head_data[OffAddr +: W*XLEN]),
    .taken_inc_i      (fire && accept),
    .lost_inc_i       (fire && !accept),
    .pop_empty_i      (pop_empty),
    .en_o             (en),
    .mode_o           (mode),
    .priv_filter_o    (priv_filter),
    .period_o         (period),
    .mode_next_o      (mode_next),
    .rand_bits_next_o (rand_bits_next),
    .period_next_o    (period_next),
    .restart_o        (restart),
    .lfsr_we_o        (lfsr_we),
    .lfsr_wdata_o     (lfsr_wdata),
    .pop_o            (pop),
    .irq_o            (irq_o)
  );

endmodule
