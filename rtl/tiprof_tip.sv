// SPDX-License-Identifier: Apache-2.0
// TIP subsystem: time-proportional sample selection (docs/tip-unit.md). The OIR follows the
// commits, the interval block decides the sampled cycles (or, with CTRL.TRIGGER, the selected
// committed instructions: "The instruction trigger"), the selection logic turns the ROB
// state of a sampled cycle into a sample, the FIFO holds the samples (Drained ones pending until
// their instruction dispatches), and the TIP registers program it and read the samples out.
// tiprof_unit instantiates it behind the unit's input stage and CSR access check.
module tiprof_tip
#(
  parameter int W         = 4,    // [1,8] commit width = ROB banks (power of two)
  parameter int XLEN      = 64,   // [32,64] address and CSR data width
  parameter int FifoDepth = 8,    // [1,65535] sample FIFO entries
  localparam int BankW    = (W > 1) ? $clog2(W) : 1
) (
  input  logic              clk_i,          // clock
  input  logic              rst_ni,         // asynchronous reset, active low

  // ROB interface, as the unit uses it (after its input stage)
  input  logic [W-1:0]      head_valid_i,   // bank i's head entry holds an instruction
  input  logic [W-1:0]      head_commit_i,  // that entry commits this cycle
  input  logic [W*XLEN-1:0] head_pc_i,      // its address (bank i at [i*XLEN +: XLEN])
  input  logic [W-1:0]      head_mispred_i, // it is a mispredicted control transfer
  input  logic [W-1:0]      head_flush_i,   // its commit flushes the pipeline
  input  logic [BankW-1:0]  head_bank_i,    // bank of the oldest entry (next, when empty)
  input  logic              exception_i,    // the oldest entry traps this cycle
  input  logic [W-1:0]      disp_valid_i,   // an instruction is dispatched into bank i
  input  logic [W*XLEN-1:0] disp_pc_i,      // its address
  input  logic [1:0]        priv_i,         // privilege of the oldest entry
  input  logic [15:0]       ctx_i,          // address-space id of the oldest entry
  input  logic [63:0]       cycle_i,        // the unit's cycle counter

  // CSR access, already checked by the unit (privilege, read-only space, MENABLE)
  input  logic              req_i,          // a legal access to a TIP register this cycle
  input  logic              we_i,           // it is a write
  input  logic [11:0]       addr_i,         // CSR number (also decoded without req_i for hit_o)
  input  logic [XLEN-1:0]   wdata_i,        // write data
  output logic              hit_o,          // addr_i is a TIP register of this configuration
  output logic [XLEN-1:0]   rdata_o,        // read data (0 unless req_i & !we_i)

  output logic              irq_o           // FIFO_COUNT reached WATERMARK (with CTRL.IRQ_EN)
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

  // ---------------------------------------------------------------- ROB-side decode
  logic [W-1:0]     commit;
  logic             empty, any_commit, exc;
  logic [BankW-1:0] youngest, unused_first_commit;
  logic             unused_any_commit;

  assign commit     = head_valid_i & head_commit_i;
  assign empty      = !head_valid_i[head_bank_i];
  assign any_commit = |commit;
  assign exc        = exception_i && !empty && !any_commit;

  tiprof_bank_order #(
    .W (W)
  ) u_commit_order (
    .mask_i  (commit),
    .start_i (head_bank_i),
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
    .head_bank_i    (head_bank_i),
    .head_pc_i      (head_pc_i),
    .head_mispred_i (head_mispred_i),
    .head_flush_i   (head_flush_i),
    .priv_i         (priv_i),
    .ctx_i          (ctx_i),
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
    .head_valid_i    (head_valid_i),
    .commit_i        (commit),
    .head_pc_i       (head_pc_i),
    .head_bank_i     (head_bank_i),
    .empty_i         (empty),
    .disp_valid_i    (disp_valid_i),
    .disp_pc_i       (disp_pc_i),
    .priv_i          (priv_i),
    .ctx_i           (ctx_i),
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

  // ---------------------------------------------------------------- sampled cycles
  // Every cycle is an interval position (CTRL.TRIGGER = 0), or every committed instruction is
  // (TRIGGER = 1: up to W per cycle, the committing banks in age order); a sample is taken at
  // the interval's point if the sample's privilege passes the filter.
  localparam int NW    = $clog2(W + 1);
  localparam int UnitW = (W > 1) ? $clog2(W) : 1;
  logic        en, restart, lfsr_we, fire, priv_ok, trigger, trigger_next;
  logic        sel_a, sel_b;
  logic [UnitW-1:0] sel_a_unit, sel_b_unit;
  logic [NW-1:0]    n_commit, n_units;
  logic [W-1:0]     isel;         // instruction trigger: the selected committing banks
  logic [W*XLEN-1:0] isel_addr;
  logic [1:0]  mode, mode_next;
  logic [3:0]  priv_filter;
  logic [4:0]  rand_bits_next;
  logic [31:0] period, period_next, lfsr_wdata, lfsr;

  // Functions in continuous assignments, not always_comb: Icarus runs always_comb as always @*,
  // which first evaluates when an input changes (the commit mask may stay 0 for many cycles).
  function automatic logic [NW-1:0] count_commits(input logic [W-1:0] m);
    count_commits = '0;
    for (int unsigned i_n = 0; i_n < W; i_n++) count_commits = count_commits + NW'(m[i_n]);
  endfunction

  assign n_commit = count_commits(commit);
  assign n_units  = trigger ? n_commit : NW'(1);
  // Unit j of this cycle is the j-th committing bank in age order (from head_bank): bank g is
  // selected when it commits and as many committing banks are older than it as the selected
  // unit's index. (Stated per bank, with constant indices only: the earlier form, a function
  // that wrote the selected bit at a computed index inside its loop, was synthesized by Yosys
  // 0.23 into a netlist that lost the selection - docs/verification.md "The Yosys netlist".)
  for (genvar g = 0; g < W; g++) begin : g_isel
    logic [BankW-1:0] age;        // g's place in age order (0 = the head bank)
    logic [W-1:0]     older;      // the committing banks older than g
    logic [NW-1:0]    rank;       // how many there are
    assign age = BankW'(g) - head_bank_i;
    for (genvar j = 0; j < W; j++) begin : g_older
      assign older[j] = commit[j] && ((BankW'(j) - head_bank_i) < age);
    end
    assign rank    = count_commits(older);
    assign isel[g] = commit[g] && ((sel_a && rank == NW'(sel_a_unit)) ||
                                   (sel_b && rank == NW'(sel_b_unit)));
  end
  for (genvar g = 0; g < W; g++) begin : g_isel_addr
    assign isel_addr[g*XLEN +: XLEN] = isel[g] ? head_pc_i[g*XLEN +: XLEN] : '0;
  end

  // Cycles: the point's cycle, filtered by the sample's privilege (inputs' or OIR's). Committed
  // instructions: a selected instruction, filtered by the committing privilege (the inputs').
  assign priv_ok = trigger ? priv_filter[priv_i] : priv_filter[s_priv];
  assign fire    = trigger ? ((sel_a || sel_b) && priv_ok) : (sel_a && priv_ok);

  tiprof_interval #(
    .Units     (W),
    .NextDrawB (1'b1)
  ) u_interval (
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
    .n_i              (n_units),
    .clamp_one_i      (!trigger_next),
    .sel_a_o          (sel_a),
    .sel_a_unit_o     (sel_a_unit),
    .sel_b_o          (sel_b),
    .sel_b_unit_o     (sel_b_unit),
    .lfsr_o           (lfsr)
  );

  // ---------------------------------------------------------------- FIFO
  logic [SampleW-1:0] push_data, cmpl_data, head_data;
  logic               accept, pop, pop_empty, head_valid, fifo_full, fifo_pending;
  logic [CntW-1:0]    fifo_count;
  logic               unused_head_valid;

  // A FIFO entry as one vector (field offsets above); completion data has only the fields a
  // dispatch fills in.
  // An instruction sample is the Computing sample of the selected bank(s) only.
  assign push_data = trigger ? {isel_addr, s_ctx, s_priv, isel, s_bank, s_flags, cycle_i}
                             : {s_addr, s_ctx, s_priv, s_valid, s_bank, s_flags, cycle_i};
  assign cmpl_data = {c_addr, 16'd0, 2'd0, c_valid, c_bank, 5'd0, 64'd0};

  tiprof_fifo #(
    .Depth      (FifoDepth),
    .DataW      (SampleW),
    .Completion (1)
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
    .req_i            (req_i),
    .we_i             (we_i),
    .addr_i           (addr_i),
    .wdata_i          (wdata_i),
    .hit_o            (hit_o),
    .rdata_o          (rdata_o),
    .cycle_i          (cycle_i),
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
    .trigger_o        (trigger),
    .trigger_next_o   (trigger_next),
    .restart_o        (restart),
    .lfsr_we_o        (lfsr_we),
    .lfsr_wdata_o     (lfsr_wdata),
    .pop_o            (pop),
    .irq_o            (irq_o)
  );

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions (simulation only)
  // Sample assembly: a trigger always takes something, the sample's state is one of four.
  // (Checked once known: Icarus runs always_comb as always @*, which first evaluates when an
  // input changes, so these internal nets may be X in the first cycles there.)
  always @(posedge clk_i) begin
    if (rst_ni) begin
      if (!$isunknown({s_pending, cmpl, s_valid, s_flags})) begin
        assert (!any_commit || commit[youngest])
          else $fatal(1, "a_youngest_commits: youngest committing bank %0d does not commit", youngest);
        assert (s_pending || s_valid != '0)
          else $fatal(1, "a_sample_nonempty: a complete sample without a valid slot");
        assert (!(s_pending && cmpl))
          else $fatal(1, "a_pending_not_completed: a sample pending in the cycle that completes samples");
        assert (32'(s_flags[0]) + 32'(s_flags[1]) + 32'(|s_flags[4:2]) <= 1)
          else $fatal(1, "a_sample_one_state: sample flags 0x%h name more than one commit state", s_flags);
      end
      if (trigger && fire && !$isunknown(isel)) begin
        assert (isel != '0 && (isel & ~commit) == '0 && any_commit && !s_pending && s_flags == '0)
          else $fatal(1, "a_insn_sample: an instruction sample 0x%h not of committing banks 0x%h", isel, commit);
        assert ($countones(isel) <= 2)
          else $fatal(1, "a_insn_two: more than two instructions selected in one cycle (0x%h)", isel);
      end
      assert (!oir_exception || !(oir_mispred || oir_flush))
        else $fatal(1, "a_oir_exception_alone: the OIR holds an exception with other flags");
    end
  end
`endif

endmodule
