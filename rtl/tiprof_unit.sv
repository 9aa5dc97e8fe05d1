// SPDX-License-Identifier: Apache-2.0
// tiprof profiling unit top: hangs off a core's ROB interface. Thin by design (DESIGN.md): the
// optional input stage, the unit's cycle counter, the CSR access check with TIP_MENABLE, one
// subsystem per profiling block (TIP: tiprof_tip.sv; ProfileMe: tiprof_pm.sv when PmF > 0),
// their read data and interrupts ORed.
module tiprof_unit
#(
  parameter int W         = 4,    // [1,8] commit width = ROB banks (power of two)
  parameter int XLEN      = 64,   // [32,64] address and CSR data width
  parameter int FifoDepth = 8,    // [1,65535] sample FIFO entries
  parameter int RobIdxW   = 7,    // [1,16] width of a ROB index
  parameter int InputStage = 0,   // [0,1] register the ROB and ProfileMe event inputs once before use
  parameter int PmF       = 0,    // [0,1,2,4,8] ProfileMe fetch slots per cycle; 0 = no ProfileMe subsystem
  parameter int PmFifoDepth = 8,  // [1,65535] ProfileMe record FIFO entries
  parameter int PmTags    = 2,    // [1,2] ProfileMe tag ids (2 = paired sampling)
  localparam int BankW    = (W > 1) ? $clog2(W) : 1,
  localparam int PmFw     = (PmF > 0) ? PmF : 1   // ProfileMe port width (ports unused when PmF = 0)
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

  // ProfileMe interface (docs/profileme.md; spec pm_interface): fetch slots in, tags out, events
  // per tag id in. Tie to 0 (pm_tag_o reads 0) when PmF = 0. Out of Verilator's code coverage
  // (make test-tip-coverage measures a TIP build, where they are tied off; the ProfileMe benches
  // cover them).
  /* verilator coverage_off */
  input  logic [PmFw-1:0]      pm_fetch_valid_i,    // slot i holds a fetched instruction
  input  logic [PmFw*XLEN-1:0] pm_fetch_pc_i,       // its address (slot i at [i*XLEN +: XLEN])
  input  logic [PmFw-1:0]      pm_fetch_br_i,       // it is a conditional branch
  input  logic [15:0]          pm_fetch_hist_i,     // global branch history before slot 0
  input  logic                 pm_fetch_icmiss_i,   // the packet missed the I-cache
  input  logic                 pm_fetch_itlbmiss_i, // the packet missed the I-TLB
  input  logic [1:0]           pm_fetch_priv_i,     // privilege the packet is fetched in
  input  logic [15:0]          pm_fetch_ctx_i,      // address-space id the packet is fetched in
  output logic [2*PmFw-1:0]    pm_tag_o,            // slot i tagged: [2i] id 0, [2i+1] id 1 (combinational)
  input  logic [1:0]           pm_map_i,            // bit t: the instruction with tag t was mapped
  input  logic [1:0]           pm_ready_i,          // ... its last operand became ready
  input  logic [1:0]           pm_issue_i,          // ... it issued
  input  logic [1:0]           pm_mem_i,            // ... its data access went to the D-cache
  input  logic [1:0]           pm_complete_i,       // ... it completed
  input  logic [1:0]           pm_retire_i,         // ... it committed
  input  logic [1:0]           pm_abort_i,          // ... it left without committing
  input  logic [3:0]           pm_abort_reason_i,   // with abort: tag t at [2t +: 2]
  input  logic [1:0]           pm_load_i,           // it is a load
  input  logic [1:0]           pm_store_i,          // it is a store
  input  logic [1:0]           pm_br_valid_i,       // it resolved as a control transfer
  input  logic [1:0]           pm_br_taken_i,       // with br_valid: taken
  input  logic [1:0]           pm_br_mispred_i,     // with br_valid: mispredicted
  input  logic [1:0]           pm_ea_valid_i,       // pm_ea holds its data address
  input  logic [2*XLEN-1:0]    pm_ea_i,             // tag t at [t*XLEN +: XLEN]
  input  logic [1:0]           pm_dc_miss_i,        // its data access missed the L1 D-cache
  input  logic [1:0]           pm_dtlb_miss_i,      // its data access missed the L1 D-TLB
  /* verilator coverage_on */

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

`ifndef SYNTHESIS
  initial begin
    assert (W == 1 || W == 2 || W == 4 || W == 8) else $fatal(1, "tiprof_unit: W must be 1, 2, 4 or 8");
    assert (XLEN == 32 || XLEN == 64) else $fatal(1, "tiprof_unit: XLEN must be 32 or 64");
    assert (FifoDepth >= 1 && FifoDepth <= 65535) else $fatal(1, "tiprof_unit: FifoDepth out of [1,65535]");
    assert (RobIdxW >= 1 && RobIdxW <= 16) else $fatal(1, "tiprof_unit: RobIdxW out of [1,16]");
    assert (InputStage == 0 || InputStage == 1) else $fatal(1, "tiprof_unit: InputStage must be 0 or 1");
    assert (PmF == 0 || PmF == 1 || PmF == 2 || PmF == 4 || PmF == 8) else $fatal(1, "tiprof_unit: PmF must be 0, 1, 2, 4 or 8");
    assert (PmFifoDepth >= 1 && PmFifoDepth <= 65535) else $fatal(1, "tiprof_unit: PmFifoDepth out of [1,65535]");
    assert (PmTags == 1 || PmTags == 2) else $fatal(1, "tiprof_unit: PmTags must be 1 or 2");
  end
`endif

  // ---------------------------------------------------------------- input stage
  // With InputStage = 1 every ROB input passes one register first, so that no path runs from
  // the core's commit logic into the unit within one cycle; the unit then judges each cycle on
  // the previous cycle's ROB inputs (every sample one cycle later; the CSR port is not delayed).
  // r_*: the ROB inputs as the unit uses them.
  logic [W-1:0]         r_head_valid, r_head_commit, r_head_mispred, r_head_flush, r_disp_valid;
  logic [W*XLEN-1:0]    r_head_pc, r_disp_pc;
  logic [W*RobIdxW-1:0] r_disp_idx;
  logic [BankW-1:0]     r_head_bank;
  logic                 r_exception;
  logic [1:0]           r_priv;
  logic [15:0]          r_ctx_id;

  if (InputStage != 0) begin : g_input_stage
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        r_head_valid   <= '0;
        r_head_commit  <= '0;
        r_head_mispred <= '0;
        r_head_flush   <= '0;
        r_head_pc      <= '0;
        r_head_bank    <= '0;
        r_exception    <= '0;
        r_disp_valid   <= '0;
        r_disp_pc      <= '0;
        r_disp_idx     <= '0;
        r_priv         <= '0;
        r_ctx_id       <= '0;
      end else begin
        r_head_valid   <= rob_head_valid_i;
        r_head_commit  <= rob_head_commit_i;
        r_head_mispred <= rob_head_mispred_i;
        r_head_flush   <= rob_head_flush_i;
        r_head_pc      <= rob_head_pc_i;
        r_head_bank    <= rob_head_bank_i;
        r_exception    <= rob_exception_i;
        r_disp_valid   <= rob_disp_valid_i;
        r_disp_pc      <= rob_disp_pc_i;
        r_disp_idx     <= rob_disp_idx_i;
        r_priv         <= priv_i;
        r_ctx_id       <= ctx_id_i;
      end
    end
  end else begin : g_no_input_stage
    assign r_head_valid   = rob_head_valid_i;
    assign r_head_commit  = rob_head_commit_i;
    assign r_head_mispred = rob_head_mispred_i;
    assign r_head_flush   = rob_head_flush_i;
    assign r_head_pc      = rob_head_pc_i;
    assign r_head_bank    = rob_head_bank_i;
    assign r_exception    = rob_exception_i;
    assign r_disp_valid   = rob_disp_valid_i;
    assign r_disp_pc      = rob_disp_pc_i;
    assign r_disp_idx     = rob_disp_idx_i;
    assign r_priv         = priv_i;
    assign r_ctx_id       = ctx_id_i;
  end

  // ---------------------------------------------------------------- cycle counter
  // One timestamp for every subsystem's records.
  logic [63:0] cycle_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cycle_q <= '0;
    else         cycle_q <= cycle_q + 64'd1;
  end

  // ---------------------------------------------------------------- CSR access check
  // The unit's one CSR space: a subsystem's registers (hit decoded from the address alone) or
  // TIP_MENABLE, which gates S-mode access to all of them as mcounteren does.
  logic            menable_q, menable_d;
  logic            tip_hit, is_menable, access_ok, csr_legal;
  logic [XLEN-1:0] tip_rdata;
  /* verilator coverage_off */
  logic            pm_hit;      // the ProfileMe subsystem's (constant 0 without it)
  logic [XLEN-1:0] pm_rdata;
  /* verilator coverage_on */

  assign is_menable    = (csr_addr_i == tiprof_reg_pkg::TIP_MENABLE_ADDR);
  assign access_ok     = !(csr_we_i && csr_addr_i[11:10] == 2'b11) &&
                         (csr_priv_i >= csr_addr_i[9:8]) &&
                         (csr_priv_i == 2'b11 || menable_q);
  assign csr_legal     = csr_req_i && (tip_hit || pm_hit || is_menable) && access_ok;
  assign csr_illegal_o = csr_req_i && !csr_legal;

  always_comb begin
    menable_d = menable_q;
    if (csr_legal && csr_we_i && is_menable) menable_d = csr_wdata_i[0];
    csr_rdata_o = tip_rdata | pm_rdata;
    if (csr_legal && !csr_we_i && is_menable) csr_rdata_o = XLEN'(menable_q);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) menable_q <= 1'b0;
    else         menable_q <= menable_d;
  end

  // ---------------------------------------------------------------- subsystems
  logic tip_irq;
  /* verilator coverage_off */
  logic pm_irq;
  /* verilator coverage_on */
  logic unused_disp_idx;

  assign unused_disp_idx = ^r_disp_idx;   // ProfileMe carries tags, not ROB indices

  tiprof_tip #(
    .W         (W),
    .XLEN      (XLEN),
    .FifoDepth (FifoDepth)
  ) u_tip (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .head_valid_i   (r_head_valid),
    .head_commit_i  (r_head_commit),
    .head_pc_i      (r_head_pc),
    .head_mispred_i (r_head_mispred),
    .head_flush_i   (r_head_flush),
    .head_bank_i    (r_head_bank),
    .exception_i    (r_exception),
    .disp_valid_i   (r_disp_valid),
    .disp_pc_i      (r_disp_pc),
    .priv_i         (r_priv),
    .ctx_i          (r_ctx_id),
    .cycle_i        (cycle_q),
    .req_i          (csr_legal && tip_hit),
    .we_i           (csr_we_i),
    .addr_i         (csr_addr_i),
    .wdata_i        (csr_wdata_i),
    .hit_o          (tip_hit),
    .rdata_o        (tip_rdata),
    .irq_o          (tip_irq)
  );

  // ProfileMe: the event ports pass the input stage with the ROB inputs (e_*); the fetch ports
  // do not: pm_tag_o must tag the packet that is presented in this cycle (docs/profileme.md
  // "RTL"), so with InputStage = 1 every event reaches the unit one cycle later than the core
  // reports it (each stamp one cycle later relative to the fetch).
  if (PmF > 0) begin : g_pm
    logic [1:0]        e_map, e_ready, e_issue, e_mem, e_complete, e_retire, e_abort, e_load;
    logic [1:0]        e_store, e_br_valid, e_br_taken, e_br_mispred, e_ea_valid, e_dc_miss;
    logic [1:0]        e_dtlb_miss;
    logic [3:0]        e_abort_reason;
    logic [2*XLEN-1:0] e_ea;

    if (InputStage != 0) begin : g_pm_stage
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          e_map <= '0; e_ready <= '0; e_issue <= '0; e_mem <= '0; e_complete <= '0;
          e_retire <= '0; e_abort <= '0; e_abort_reason <= '0; e_load <= '0; e_store <= '0;
          e_br_valid <= '0; e_br_taken <= '0; e_br_mispred <= '0; e_ea_valid <= '0;
          e_ea <= '0; e_dc_miss <= '0; e_dtlb_miss <= '0;
        end else begin
          e_map <= pm_map_i; e_ready <= pm_ready_i; e_issue <= pm_issue_i; e_mem <= pm_mem_i;
          e_complete <= pm_complete_i; e_retire <= pm_retire_i; e_abort <= pm_abort_i;
          e_abort_reason <= pm_abort_reason_i; e_load <= pm_load_i; e_store <= pm_store_i;
          e_br_valid <= pm_br_valid_i; e_br_taken <= pm_br_taken_i;
          e_br_mispred <= pm_br_mispred_i; e_ea_valid <= pm_ea_valid_i; e_ea <= pm_ea_i;
          e_dc_miss <= pm_dc_miss_i; e_dtlb_miss <= pm_dtlb_miss_i;
        end
      end
    end else begin : g_pm_no_stage
      assign e_map = pm_map_i;           assign e_ready = pm_ready_i;
      assign e_issue = pm_issue_i;       assign e_mem = pm_mem_i;
      assign e_complete = pm_complete_i; assign e_retire = pm_retire_i;
      assign e_abort = pm_abort_i;       assign e_abort_reason = pm_abort_reason_i;
      assign e_load = pm_load_i;         assign e_store = pm_store_i;
      assign e_br_valid = pm_br_valid_i; assign e_br_taken = pm_br_taken_i;
      assign e_br_mispred = pm_br_mispred_i;
      assign e_ea_valid = pm_ea_valid_i; assign e_ea = pm_ea_i;
      assign e_dc_miss = pm_dc_miss_i;   assign e_dtlb_miss = pm_dtlb_miss_i;
    end

    tiprof_pm #(
      .F           (PmF),
      .XLEN        (XLEN),
      .PmFifoDepth (PmFifoDepth),
      .Tags        (PmTags)
    ) u_pm (
      .clk_i            (clk_i),
      .rst_ni           (rst_ni),
      .fetch_valid_i    (pm_fetch_valid_i),
      .fetch_pc_i       (pm_fetch_pc_i),
      .fetch_br_i       (pm_fetch_br_i),
      .fetch_hist_i     (pm_fetch_hist_i),
      .fetch_icmiss_i   (pm_fetch_icmiss_i),
      .fetch_itlbmiss_i (pm_fetch_itlbmiss_i),
      .fetch_priv_i     (pm_fetch_priv_i),
      .fetch_ctx_i      (pm_fetch_ctx_i),
      .tag_o            (pm_tag_o),
      .map_i            (e_map),
      .ready_i          (e_ready),
      .issue_i          (e_issue),
      .mem_i            (e_mem),
      .complete_i       (e_complete),
      .retire_i         (e_retire),
      .abort_i          (e_abort),
      .abort_reason_i   (e_abort_reason),
      .load_i           (e_load),
      .store_i          (e_store),
      .br_valid_i       (e_br_valid),
      .br_taken_i       (e_br_taken),
      .br_mispred_i     (e_br_mispred),
      .ea_valid_i       (e_ea_valid),
      .ea_i             (e_ea),
      .dc_miss_i        (e_dc_miss),
      .dtlb_miss_i      (e_dtlb_miss),
      .cycle_i          (cycle_q),
      .req_i            (csr_legal && pm_hit),
      .we_i             (csr_we_i),
      .addr_i           (csr_addr_i),
      .wdata_i          (csr_wdata_i),
      .hit_o            (pm_hit),
      .rdata_o          (pm_rdata),
      .irq_o            (pm_irq)
    );
  end else begin : g_no_pm
    /* verilator coverage_off */
    logic unused_pm;
    assign unused_pm = ^{pm_fetch_valid_i, pm_fetch_pc_i, pm_fetch_br_i, pm_fetch_hist_i,
                         pm_fetch_icmiss_i, pm_fetch_itlbmiss_i, pm_fetch_priv_i, pm_fetch_ctx_i,
                         pm_map_i, pm_ready_i, pm_issue_i, pm_mem_i, pm_complete_i, pm_retire_i,
                         pm_abort_i, pm_abort_reason_i, pm_load_i, pm_store_i, pm_br_valid_i,
                         pm_br_taken_i, pm_br_mispred_i, pm_ea_valid_i, pm_ea_i, pm_dc_miss_i,
                         pm_dtlb_miss_i};
    assign pm_tag_o = '0;
    assign pm_hit   = 1'b0;
    assign pm_rdata = '0;
    assign pm_irq   = 1'b0;
    /* verilator coverage_on */
  end

  assign irq_o = tip_irq | pm_irq;

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions (simulation only)
  // docs/verification.md "Assertions" lists every property, where it runs and what it costs.
  // Immediate assertions in clocked blocks run on every simulator (Icarus 11 included); the
  // concurrent ones (assert property) are left out on Icarus, which has no concurrent SVA.

  // ROB-contract checks are on unless a testbench clears this bit for the cycles whose ROB inputs
  // break the contract on purpose (the random bench's phases of arbitrary bits, replayed traces
  // of unknown origin); the unit's answer to such inputs is still defined (docs/tip-unit.md).
  bit sva_rob_check = 1'b1;
  // The properties below judge the ROB inputs as the unit uses them (r_*): with InputStage, the
  // previous cycle's, so the testbench's bit is delayed with them.
  bit sva_rob_check_q = 1'b1;
  bit sva_rob_on;
  always @(posedge clk_i) sva_rob_check_q <= sva_rob_check;
  assign sva_rob_on = (InputStage != 0) ? sva_rob_check_q : sva_rob_check;

  // Known values once out of reset (meaningful on 4-state simulators), and the CSR port rules.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!$isunknown(irq_o))
        else $fatal(1, "a_irq_known: irq_o is X/Z after reset");
      assert (!$isunknown(csr_illegal_o))
        else $fatal(1, "a_csr_illegal_known: csr_illegal_o is X/Z after reset");
      if (!$isunknown({csr_req_i, csr_we_i, csr_addr_i, csr_priv_i})) begin
        assert (!$isunknown(csr_rdata_o))
          else $fatal(1, "a_csr_rdata_known: csr_rdata_o is X/Z for a known request to 0x%h", csr_addr_i);
      end
      assert (csr_req_i || (csr_rdata_o == '0 && !csr_illegal_o))
        else $fatal(1, "a_csr_idle: read data or illegal flag without a request");
      assert (!(csr_illegal_o || (csr_req_i && csr_we_i)) || csr_rdata_o == '0)
        else $fatal(1, "a_csr_rdata_zero: an illegal access or a write returned data 0x%h", csr_rdata_o);
      assert (!(csr_req_i && !tip_hit && !pm_hit && !is_menable) || csr_illegal_o)
        else $fatal(1, "a_csr_unmapped: access to unmapped CSR 0x%h not illegal", csr_addr_i);
      assert (!(csr_req_i && csr_we_i && csr_addr_i[11:10] == 2'b11) || csr_illegal_o)
        else $fatal(1, "a_csr_ro_write: write to read-only CSR 0x%h not illegal", csr_addr_i);
      assert (!(csr_req_i && csr_priv_i < csr_addr_i[9:8]) || csr_illegal_o)
        else $fatal(1, "a_csr_priv: access to CSR 0x%h from privilege %0d not illegal", csr_addr_i, csr_priv_i);
      assert (!(csr_req_i && !csr_we_i && csr_addr_i == tiprof_reg_pkg::TIP_POP_ADDR) || csr_rdata_o == '0)
        else $fatal(1, "a_csr_pop_reads_zero: a read of TIP_POP returned 0x%h", csr_rdata_o);
    end
  end

`ifndef __ICARUS__
  // The cycle counter counts every cycle.
  a_sampler_cycle_step: assert property (@(posedge clk_i) disable iff (!rst_ni)
    $past(rst_ni) |-> cycle_q == $past(cycle_q) + 64'd1)
    else $error("a_sampler_cycle_step: cycle went from %0d to %0d", $past(cycle_q), cycle_q);

  // ROB contract (DESIGN.md "The ROB interface"; docs/tip-unit.md "Inputs"). Masks rotated into
  // ROB order: bit k is bank (head_bank + k) mod W, so the oldest entry is bit 0.
  function automatic logic [W-1:0] sva_rot(input logic [W-1:0] m, input logic [BankW-1:0] s);
    for (int k = 0; k < W; k++) sva_rot[k] = m[(32'(s) + 32'(k)) % W];
  endfunction
  // A mask of the form 0..01..1: the set bits are the first ones in ROB order, without gaps.
  function automatic logic sva_prefix(input logic [W-1:0] m);
    sva_prefix = (m & (m + W'(1))) == '0;
  endfunction

  // the ROB-side decode of tiprof_tip.sv, for the properties
  logic [W-1:0]     commit;
  logic             empty, any_commit, exc;
  assign commit     = r_head_valid & r_head_commit;
  assign empty      = !r_head_valid[r_head_bank];
  assign any_commit = |commit;
  assign exc        = r_exception && !empty && !any_commit;

  logic [W-1:0]     sva_valid_rot, sva_commit_rot, sva_disp_rot, sva_redirect_rot;
  logic [BankW-1:0] sva_next_head;
  logic             sva_redirect, sva_keeps_entry, sva_prev_checked;
  logic [XLEN-1:0]  sva_next_head_pc;

  always_comb begin
    sva_valid_rot    = sva_rot(r_head_valid, r_head_bank);
    sva_commit_rot   = sva_rot(commit, r_head_bank);
    sva_disp_rot     = sva_rot(r_disp_valid, r_head_bank);
    sva_redirect_rot = sva_rot(commit & r_head_flush, r_head_bank);
    sva_redirect     = |(commit & (r_head_mispred | r_head_flush));
    // the first entry in ROB order that does not commit (the oldest in the next cycle)
    sva_keeps_entry  = (r_head_valid & ~commit) != '0;
    sva_next_head    = BankW'((32'(r_head_bank) + 32'($countones(commit))) % W);
    sva_next_head_pc = r_head_pc[sva_next_head*XLEN +: XLEN];
  end

  // The previous cycle was out of reset with the ROB-contract checks on (for properties that
  // relate two cycles: a phase of arbitrary inputs leaves no consistent previous cycle).
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sva_prev_checked <= 1'b0;
    else         sva_prev_checked <= sva_rob_on;
  end

  // Only an entry that holds an instruction commits.
  a_rob_commit_valid: assert property (@(posedge clk_i) disable iff (!rst_ni || !sva_rob_on)
    (r_head_commit & ~r_head_valid) == '0)
    else $error("a_rob_commit_valid: commit 0b%b in banks without a head entry (valid 0b%b)",
                r_head_commit, r_head_valid);
  // The W oldest entries sit in consecutive banks from rob_head_bank (wrapping).
  a_rob_valid_in_order: assert property (@(posedge clk_i) disable iff (!rst_ni || !sva_rob_on)
    sva_prefix(sva_valid_rot))
    else $error("a_rob_valid_in_order: head entries 0b%b are not consecutive from bank %0d",
                r_head_valid, r_head_bank);
  // Entries commit oldest first: the committing banks are the first ones from rob_head_bank.
  a_rob_commit_in_order: assert property (@(posedge clk_i) disable iff (!rst_ni || !sva_rob_on)
    sva_prefix(sva_commit_rot))
    else $error("a_rob_commit_in_order: commit 0b%b is not the oldest entries from bank %0d",
                r_head_commit, r_head_bank);
  // A commit that flushes the pipeline is the youngest commit of its cycle.
  a_rob_flush_youngest: assert property (@(posedge clk_i) disable iff (!rst_ni || !sva_rob_on)
    (sva_redirect_rot & (sva_commit_rot >> 1)) == '0)
    else $error("a_rob_flush_youngest: a younger entry commits with a flushing one (commit 0b%b flush 0b%b)",
                r_head_commit, r_head_flush);
  // A trap is the oldest entry's: the ROB holds one, and it does not also commit.
  a_rob_exception_oldest: assert property (@(posedge clk_i) disable iff (!rst_ni || !sva_rob_on)
    r_exception |-> !empty && !any_commit)
    else $error("a_rob_exception_oldest: exception with %s", empty ? "an empty ROB" : "a commit in the same cycle");
  // Into an empty ROB, instructions enter rob_head_bank first, then the following banks.
  a_rob_empty_dispatch: assert property (@(posedge clk_i) disable iff (!rst_ni || !sva_rob_on)
    empty |-> sva_prefix(sva_disp_rot))
    else $error("a_rob_empty_dispatch: dispatch 0b%b into an empty ROB does not start at bank %0d",
                r_disp_valid, r_head_bank);
  // The oldest entry leaves only by committing or trapping: otherwise it is still the oldest.
  a_rob_head_holds: assert property (@(posedge clk_i) disable iff (!rst_ni || !sva_rob_on)
    sva_prev_checked && $past(!empty && !any_commit && !r_exception) |->
      r_head_bank == $past(r_head_bank) && !empty &&
      r_head_pc[r_head_bank*XLEN +: XLEN] == $past(r_head_pc[r_head_bank*XLEN +: XLEN]))
    else $error("a_rob_head_holds: the oldest entry (bank %0d) vanished without a commit or trap",
                $past(r_head_bank));
  // After n entries commit (no flush, no mispredict) with older entries left, the first entry
  // that did not commit is the oldest, n banks on.
  a_rob_head_advances: assert property (@(posedge clk_i) disable iff (!rst_ni || !sva_rob_on)
    sva_prev_checked && $past(any_commit && !sva_redirect && sva_keeps_entry) |->
      r_head_bank == $past(sva_next_head) && !empty &&
      r_head_pc[r_head_bank*XLEN +: XLEN] == $past(sva_next_head_pc))
    else $error("a_rob_head_advances: after %0d commits from bank %0d the oldest entry is not in bank %0d",
                $past($countones(commit)), $past(r_head_bank), $past(sva_next_head));
  // Privilege and context change only across a trap or a flush (docs/tip-unit.md, "Drained
  // samples and privilege"): after an instruction commits without one, the oldest entry runs at
  // its privilege and in its context. This is why a Drained sample may take them from the OIR.
  // sva_last_*: the last commit group (or trap) seen with the checks on.
  logic        sva_last_known, sva_last_flagged;
  logic [1:0]  sva_last_priv;
  logic [15:0] sva_last_ctx;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sva_last_known <= 1'b0;
    end else if (!sva_rob_on) begin
      sva_last_known <= 1'b0;
    end else if (any_commit || exc) begin
      sva_last_known   <= 1'b1;
      sva_last_flagged <= exc || sva_redirect;
      sva_last_priv    <= r_priv;
      sva_last_ctx     <= r_ctx_id;
    end
  end
  a_rob_priv_same: assert property (@(posedge clk_i) disable iff (!rst_ni || !sva_rob_on)
    !empty && sva_last_known && !sva_last_flagged |->
      r_priv == sva_last_priv && r_ctx_id == sva_last_ctx)
    else $error("a_rob_priv_same: privilege/context %0d/%0d of the oldest entry differ from %0d/%0d of the last commit, which neither trapped nor flushed",
                r_priv, r_ctx_id, sva_last_priv, sva_last_ctx);
`endif
`endif

endmodule
