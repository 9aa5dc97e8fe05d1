// SPDX-License-Identifier: Apache-2.0
// ProfileMe subsystem (docs/profileme.md; Dean et al., MICRO 1997): the fetch counter (the
// shared interval block counting F fetch units per cycle) selects fetch slots, the selection
// logic drives the tags, two profiles collect the tagged instructions' stage events, a
// completing sample passes the filters into its own record FIFO, and the PM_* registers program
// it and read the records out. tiprof_unit instantiates it when PmF > 0, behind its CSR access
// check. The order of a cycle's steps is the spec's: pop, events of the open profiles, timeout,
// the pair's waiting second, completion, selection, register writes.
module tiprof_pm
#(
  parameter int F           = 4,    // [1,8] fetch slots per cycle (power of two)
  parameter int XLEN        = 64,   // [32,64] address and CSR data width
  parameter int PmFifoDepth = 8,    // [1,65535] record FIFO entries
  parameter int Tags        = 2     // [1,2] tag ids: 2 = paired sampling available
) (
  input  logic              clk_i,            // clock
  input  logic              rst_ni,           // asynchronous reset, active low

  // fetch slots (docs/profileme.md "Fetch slots")
  input  logic [F-1:0]      fetch_valid_i,    // slot i holds a fetched instruction
  input  logic [F*XLEN-1:0] fetch_pc_i,       // its address (slot i at [i*XLEN +: XLEN])
  input  logic [F-1:0]      fetch_br_i,       // it is a conditional branch
  input  logic [15:0]       fetch_hist_i,     // global history before slot 0
  input  logic              fetch_icmiss_i,   // the packet missed the I-cache
  input  logic              fetch_itlbmiss_i, // the packet missed the I-TLB
  input  logic [1:0]        fetch_priv_i,     // privilege of the packet
  input  logic [15:0]       fetch_ctx_i,      // address-space id of the packet
  output logic [2*F-1:0]    tag_o,            // slot i tagged: [2i] id 0, [2i+1] id 1

  // events, bit t = tag id t (docs/profileme.md "Events")
  input  logic [1:0]        map_i,
  input  logic [1:0]        ready_i,
  input  logic [1:0]        issue_i,
  input  logic [1:0]        mem_i,
  input  logic [1:0]        complete_i,
  input  logic [1:0]        retire_i,
  input  logic [1:0]        abort_i,
  input  logic [3:0]        abort_reason_i,   // tag t at [2t +: 2]
  input  logic [1:0]        load_i,
  input  logic [1:0]        store_i,
  input  logic [1:0]        br_valid_i,
  input  logic [1:0]        br_taken_i,
  input  logic [1:0]        br_mispred_i,
  input  logic [1:0]        ea_valid_i,
  input  logic [2*XLEN-1:0] ea_i,             // tag t at [t*XLEN +: XLEN]
  input  logic [1:0]        dc_miss_i,
  input  logic [1:0]        dtlb_miss_i,

  input  logic [63:0]       cycle_i,          // the unit's cycle counter

  // CSR access, already checked by the unit (privilege, read-only space, MENABLE)
  input  logic              req_i,            // a legal access to a ProfileMe register
  input  logic              we_i,             // it is a write
  input  logic [11:0]       addr_i,           // CSR number (also decoded without req_i for hit_o)
  input  logic [XLEN-1:0]   wdata_i,          // write data
  output logic              hit_o,            // addr_i is a ProfileMe register of this configuration
  output logic [XLEN-1:0]   rdata_o,          // read data (0 unless req_i & !we_i)

  output logic              irq_o             // PM_FIFO_COUNT reached PM_WATERMARK (with IRQ_EN)
);

  localparam int CntW    = $clog2(PmFifoDepth + 1);
  localparam int NW      = $clog2(F + 1);
  localparam int UnitW   = (F > 1) ? $clog2(F) : 1;
  localparam int SlotW   = (F > 1) ? $clog2(F) : 1;
  localparam int Words   = tiprof_reg_pkg::PM_REC_WORDS;
  localparam int ProfW   = 2 * XLEN + 55 + 64 + 37;
  localparam int EntryW  = 64 + 26 + Tags * ProfW;

  // ---------------------------------------------------------------- registers
  logic        en, unit, pair, restart, lfsr_we, unused_misc;
  logic [1:0]  mode, mode_next;
  logic [3:0]  priv_filter;
  logic [4:0]  rand_bits_next;
  logic [31:0] period, period_next, lfsr_wdata, lfsr, evfilt;
  logic [8:0]  window;
  logic [15:0] timeout;
  logic [19:0] latfilt;
  logic        pop, pop_empty, accept, fifo_full, head_valid;
  logic [CntW-1:0] fifo_count;
  logic [EntryW-1:0] push_data, head_data;
  logic [Words*64-1:0] head_words;
  logic        taken_inc, lost_inc, filt_inc, stray, timed_out;
  logic [1:0]  coll;

  // ---------------------------------------------------------------- the open sample
  logic        open_q, open_d;           // a sample is open
  logic        pair_q, pair_d;           // it is a pair
  logic        waiting_q, waiting_d;     // its second is not yet tagged
  logic [15:0] age_q, age_d;             // cycles since its selection
  logic [8:0]  remaining_q, remaining_d; // valid slots still to count for the second
  logic [8:0]  dist_q, dist_d;           // the pair's distance
  logic [63:0] scycle_q, scycle_d;       // cycle counter at its selection

  // ---------------------------------------------------------------- fetch counter and selection
  logic [NW-1:0]    n;
  logic             sel_a, sel_b;
  logic [UnitW-1:0] sel_a_unit, sel_b_unit;
  logic             take, empty, tag1, pair_open, sel_waiting, timeout_fire, kill;
  logic [2:0]       slot0, slot1;
  logic [15:0]      path0, path1;
  logic [8:0]       sel_dist, sel_remaining;

  assign timeout_fire = open_q && (age_q >= timeout);
  assign kill         = timeout_fire && waiting_q;   // the pair's second never came

  tiprof_interval #(
    .Units         (F),
    .LfsrReset     (tiprof_reg_pkg::PM_LFSR_SEED),
    .TargetReset   (tiprof_reg_pkg::PM_PERIOD_RESET - 32'd1),
    .RandBitsReset (tiprof_reg_pkg::PM_CTRL_RESET[12:8])
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
    .n_i              (n),
    .clamp_one_i      (1'b0),
    .sel_a_o          (sel_a),
    .sel_a_unit_o     (sel_a_unit),
    .sel_b_o          (sel_b),
    .sel_b_unit_o     (sel_b_unit),
    .lfsr_o           (lfsr)
  );

  tiprof_pm_select #(
    .F (F)
  ) u_select (
    .valid_i       (fetch_valid_i),
    .br_i          (fetch_br_i),
    .hist_i        (fetch_hist_i),
    .priv_i        (fetch_priv_i),
    .priv_filter_i (priv_filter),
    .unit_i        (unit),
    .pair_i        (pair),
    .window_i      (window),
    .lfsr_hi_i     (lfsr[31:16]),
    .open_i        (open_q),
    .waiting_i     (waiting_q && !timeout_fire),
    .remaining_i   (remaining_q),
    .n_o           (n),
    .sel_a_i       (sel_a),
    .sel_a_unit_i  (sel_a_unit),
    .sel_b_i       (sel_b),
    .sel_b_unit_i  (sel_b_unit),
    .take_o        (take),
    .empty_o       (empty),
    .slot0_o       (slot0),
    .path0_o       (path0),
    .coll_o        (coll),
    .tag1_o        (tag1),
    .slot1_o       (slot1),
    .path1_o       (path1),
    .pair_open_o   (pair_open),
    .dist_o        (sel_dist),
    .waiting_d_o   (sel_waiting),
    .remaining_d_o (sel_remaining),
    .tag_o         (tag_o)
  );

  // ---------------------------------------------------------------- profiles
  logic [1:0]  ev_en, p_open, p_ended, p_timed_out, any_ev;
  logic [15:0] p1_fetch, unused_p0_fetch;
  logic [2*XLEN-1:0] p_pc, p_ea;
  logic [127:0] p_info, p_stamp_a, p_stamp_b;   // record words of profile p at [64p +: 64]

  assign any_ev = map_i | ready_i | issue_i | mem_i | complete_i | retire_i | abort_i | load_i |
                  store_i | br_valid_i | ea_valid_i | dc_miss_i | dtlb_miss_i;
  assign ev_en[0] = open_q && p_open[0];
  assign ev_en[1] = open_q && p_open[1] && pair_q;
  // an event bit for a tag id whose profile was not open at the start of the cycle
  assign stray = (any_ev[0] && !ev_en[0]) || (Tags > 1 && any_ev[1] && !ev_en[1]);

  tiprof_pm_profile #(
    .XLEN (XLEN)
  ) u_prof0 (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .ev_en_i        (ev_en[0]),
    .age_i          (age_q),
    .map_i          (map_i[0]),
    .ready_i        (ready_i[0]),
    .issue_i        (issue_i[0]),
    .mem_i          (mem_i[0]),
    .complete_i     (complete_i[0]),
    .retire_i       (retire_i[0]),
    .abort_i        (abort_i[0]),
    .abort_reason_i (abort_reason_i[1:0]),
    .load_i         (load_i[0]),
    .store_i        (store_i[0]),
    .dc_miss_i      (dc_miss_i[0]),
    .dtlb_miss_i    (dtlb_miss_i[0]),
    .br_valid_i     (br_valid_i[0]),
    .br_taken_i     (br_taken_i[0]),
    .br_mispred_i   (br_mispred_i[0]),
    .ea_valid_i     (ea_valid_i[0]),
    .ea_i           (ea_i[0 +: XLEN]),
    .timeout_i      (timeout_fire),
    .kill_i         (1'b0),
    .clear_i        (1'b0),
    .tag_i          (take && !empty),
    .empty_i        (take && empty),
    .slot_i         (slot0),
    .pc_i           (fetch_pc_i[slot0[SlotW-1:0]*XLEN +: XLEN]),
    .priv_i         (fetch_priv_i),
    .ctx_i          (fetch_ctx_i),
    .path_i         (path0),
    .icmiss_i       (fetch_icmiss_i),
    .itlbmiss_i     (fetch_itlbmiss_i),
    .fetch_i        (16'd0),
    .open_o         (p_open[0]),
    .timed_out_o    (p_timed_out[0]),
    .ended_d_o      (p_ended[0]),
    .info_d_o       (p_info[63:0]),
    .stamp_a_d_o    (p_stamp_a[63:0]),
    .stamp_b_d_o    (p_stamp_b[63:0]),
    .pc_d_o         (p_pc[0 +: XLEN]),
    .ea_d_o         (p_ea[0 +: XLEN]),
    .fetch_o        (unused_p0_fetch)
  );

  if (Tags > 1) begin : g_second
    tiprof_pm_profile #(
      .XLEN (XLEN)
    ) u_prof1 (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      .ev_en_i        (ev_en[1]),
      .age_i          (age_q),
      .map_i          (map_i[1]),
      .ready_i        (ready_i[1]),
      .issue_i        (issue_i[1]),
      .mem_i          (mem_i[1]),
      .complete_i     (complete_i[1]),
      .retire_i       (retire_i[1]),
      .abort_i        (abort_i[1]),
      .abort_reason_i (abort_reason_i[3:2]),
      .load_i         (load_i[1]),
      .store_i        (store_i[1]),
      .dc_miss_i      (dc_miss_i[1]),
      .dtlb_miss_i    (dtlb_miss_i[1]),
      .br_valid_i     (br_valid_i[1]),
      .br_taken_i     (br_taken_i[1]),
      .br_mispred_i   (br_mispred_i[1]),
      .ea_valid_i     (ea_valid_i[1]),
      .ea_i           (ea_i[XLEN +: XLEN]),
      .timeout_i      (timeout_fire),
      .kill_i         (kill),
      .clear_i        (take),
      .tag_i          (tag1),
      .empty_i        (1'b0),
      .slot_i         (slot1),
      .pc_i           (fetch_pc_i[slot1[SlotW-1:0]*XLEN +: XLEN]),
      .priv_i         (fetch_priv_i),
      .ctx_i          (fetch_ctx_i),
      .path_i         (path1),
      .icmiss_i       (fetch_icmiss_i),
      .itlbmiss_i     (fetch_itlbmiss_i),
      .fetch_i        (take ? 16'd0 : age_q),
      .open_o         (p_open[1]),
      .timed_out_o    (p_timed_out[1]),
      .ended_d_o      (p_ended[1]),
      .info_d_o       (p_info[127:64]),
      .stamp_a_d_o    (p_stamp_a[127:64]),
      .stamp_b_d_o    (p_stamp_b[127:64]),
      .pc_d_o         (p_pc[XLEN +: XLEN]),
      .ea_d_o         (p_ea[XLEN +: XLEN]),
      .fetch_o        (p1_fetch)
    );
  end else begin : g_single
    logic unused_second;
    assign unused_second = ^{tag1, slot1, path1, kill, map_i[1], ready_i[1], issue_i[1], mem_i[1],
                             complete_i[1], retire_i[1], abort_i[1], abort_reason_i[3:2],
                             load_i[1], store_i[1], dc_miss_i[1], dtlb_miss_i[1], br_valid_i[1],
                             br_taken_i[1], br_mispred_i[1], ea_valid_i[1], ea_i[XLEN +: XLEN]};
    assign p_open[1]      = 1'b0;
    assign p_timed_out[1] = 1'b0;
    assign p_ended[1]     = 1'b0;
    assign p_info[127:64]      = '0;
    assign p_stamp_a[127:64]   = '0;
    assign p_stamp_b[127:64]   = '0;
    assign p_pc[XLEN +: XLEN] = '0;
    assign p_ea[XLEN +: XLEN] = '0;
    assign p1_fetch       = '0;
  end

  assign timed_out = timeout_fire && ((|p_timed_out) || kill);

  // ---------------------------------------------------------------- completion
  // An open sample completes when its last profile has ended (after this cycle's events and
  // timeout); an empty-slot selection completes in its own cycle. At most one per cycle.
  logic        done, complete, keep;
  logic [63:0] r_cycle;
  logic        r_pair;
  logic [8:0]  r_dist;
  logic [15:0] r_pair_cycles;
  logic [2*XLEN-1:0] r_pc, r_ea;
  logic [127:0] r_info, r_stamp_a, r_stamp_b;
  logic [63:0] empty_info;   // INFO of an empty-slot sample

  always_comb begin
    empty_info = '0;
    empty_info[tiprof_reg_pkg::PM_REC_INFO_EV_LSB + tiprof_reg_pkg::PM_EV_EMPTY] = 1'b1;
    empty_info[tiprof_reg_pkg::PM_REC_INFO_SLOT_LSB +: tiprof_reg_pkg::PM_REC_INFO_SLOT_W] = slot0;
    empty_info[tiprof_reg_pkg::PM_REC_INFO_PRIV_LSB +: tiprof_reg_pkg::PM_REC_INFO_PRIV_W] = fetch_priv_i;
    empty_info[tiprof_reg_pkg::PM_REC_INFO_CTX_LSB +: tiprof_reg_pkg::PM_REC_INFO_CTX_W]   = fetch_ctx_i;
  end

  assign done     = open_q && p_ended[0] && (!pair_q || p_ended[1]);
  assign complete = done || (take && empty);

  always_comb begin
    r_cycle       = scycle_q;
    r_pair        = pair_q;
    r_dist        = dist_q;
    r_pair_cycles = p_info[64 + tiprof_reg_pkg::PM_REC_INFO_TAGGED_LSB] ? p1_fetch : '0;
    r_pc          = p_pc;
    r_ea          = p_ea;
    r_info        = p_info;
    r_stamp_a     = p_stamp_a;
    r_stamp_b     = p_stamp_b;
    if (!open_q) begin
      // the empty-slot sample of this cycle's selection
      r_cycle       = cycle_i;
      r_pair        = 1'b0;
      r_dist        = '0;
      r_pair_cycles = '0;
      r_pc          = '0;
      r_ea          = '0;
      r_info        = {64'd0, empty_info};
      r_stamp_a     = '0;
      r_stamp_b     = '0;
    end
  end

  tiprof_pm_record #(
    .XLEN (XLEN),
    .Tags (Tags)
  ) u_record (
    .cycle_i       (r_cycle),
    .pair_i        (r_pair),
    .dist_i        (r_dist),
    .pair_cycles_i (r_pair_cycles),
    .pc_i          (r_pc),
    .ea_i          (r_ea),
    .info_i        (r_info),
    .stamp_a_i     (r_stamp_a),
    .stamp_b_i     (r_stamp_b),
    .evfilt_i      (evfilt),
    .latfilt_i     (latfilt),
    .entry_o       (push_data),
    .keep_o        (keep),
    .head_valid_i  (head_valid),
    .head_i        (head_data),
    .words_o       (head_words)
  );

  // ---------------------------------------------------------------- FIFO
  logic unused_pending;   // no pending entries without Completion

  tiprof_fifo #(
    .Depth      (PmFifoDepth),
    .DataW      (EntryW),
    .Completion (0)
  ) u_fifo (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .pop_i          (pop),
    .cmpl_i         (1'b0),
    .cmpl_data_i    ({EntryW{1'b0}}),
    .push_i         (complete && keep),
    .push_pending_i (1'b0),
    .push_data_i    (push_data),
    .accept_o       (accept),
    .pop_empty_o    (pop_empty),
    .head_valid_o   (head_valid),
    .head_data_o    (head_data),
    .count_o        (fifo_count),
    .full_o         (fifo_full),
    .pending_o      (unused_pending)
  );

  assign taken_inc = complete && keep && accept;
  assign lost_inc  = complete && keep && !accept;
  assign filt_inc  = complete && !keep;

  // ---------------------------------------------------------------- sample state
  always_comb begin
    open_d      = open_q && !done;
    pair_d      = pair_q;
    dist_d      = dist_q;
    scycle_d    = scycle_q;
    age_d       = open_d ? age_q + 16'd1 : age_q;
    waiting_d   = open_d && sel_waiting;
    remaining_d = sel_remaining;
    if (take && !empty) begin
      open_d    = 1'b1;
      pair_d    = pair_open;
      dist_d    = pair_open ? sel_dist : '0;
      scycle_d  = cycle_i;
      age_d     = 16'd1;
      waiting_d = sel_waiting;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      open_q      <= 1'b0;
      pair_q      <= 1'b0;
      waiting_q   <= 1'b0;
      age_q       <= '0;
      remaining_q <= '0;
      dist_q      <= '0;
      scycle_q    <= '0;
    end else begin
      open_q      <= open_d;
      pair_q      <= pair_d;
      waiting_q   <= waiting_d;
      age_q       <= age_d;
      remaining_q <= remaining_d;
      dist_q      <= dist_d;
      scycle_q    <= scycle_d;
    end
  end

  // ---------------------------------------------------------------- registers
  tiprof_pm_csr #(
    .F     (F),
    .XLEN  (XLEN),
    .Depth (PmFifoDepth),
    .Tags  (Tags)
  ) u_csr (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .req_i            (req_i),
    .we_i             (we_i),
    .addr_i           (addr_i),
    .wdata_i          (wdata_i),
    .hit_o            (hit_o),
    .rdata_o          (rdata_o),
    .lfsr_i           (lfsr),
    .fifo_count_i     (fifo_count),
    .fifo_full_i      (fifo_full),
    .busy_i           (open_q),
    .pair_wait_i      (waiting_q),
    .rec_i            (head_words),
    .taken_inc_i      (taken_inc),
    .lost_inc_i       (lost_inc),
    .filt_inc_i       (filt_inc),
    .coll_inc_i       (coll),
    .pop_empty_i      (pop_empty),
    .stray_i          (stray),
    .timeout_i        (timed_out),
    .en_o             (en),
    .mode_o           (mode),
    .priv_filter_o    (priv_filter),
    .unit_o           (unit),
    .pair_o           (pair),
    .period_o         (period),
    .window_o         (window),
    .timeout_o        (timeout),
    .evfilt_o         (evfilt),
    .latfilt_o        (latfilt),
    .mode_next_o      (mode_next),
    .rand_bits_next_o (rand_bits_next),
    .period_next_o    (period_next),
    .restart_o        (restart),
    .lfsr_we_o        (lfsr_we),
    .lfsr_wdata_o     (lfsr_wdata),
    .pop_o            (pop),
    .irq_o            (irq_o)
  );

  assign unused_misc = ^{unused_p0_fetch, unused_pending};

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions (simulation only)
  // Tags and samples (docs/profileme.md "Tags", "Taking a selection", "Timeout"): these hold for
  // any inputs, contract or not.
  logic [F-1:0] sva_tag0, sva_tag1;
  always_comb begin
    for (int s = 0; s < F; s++) begin
      sva_tag0[s] = tag_o[2*s];
      sva_tag1[s] = tag_o[2*s + 1];
    end
  end
  always @(posedge clk_i) begin
    if (rst_ni && !$isunknown({fetch_valid_i, fetch_priv_i})) begin
      assert ($countones(sva_tag0) <= 1 && $countones(sva_tag1) <= 1)
        else $fatal(1, "a_pm_tag_one_each: more than one slot carries a tag id (tags 0b%b)", tag_o);
      assert (((sva_tag0 | sva_tag1) & ~fetch_valid_i) == '0)
        else $fatal(1, "a_pm_tag_valid_slot: a tag on an invalid slot (tags 0b%b, valid 0b%b)", tag_o, fetch_valid_i);
      assert ((sva_tag0 & sva_tag1) == '0)
        else $fatal(1, "a_pm_tag_not_both: one slot carries both tag ids");
      assert (sva_tag0 == '0 || !open_q)
        else $fatal(1, "a_pm_tag_idle: tag id 0 driven while a sample is open");
      assert (sva_tag1 == '0 || (Tags > 1 && (pair_open || (open_q && pair_q && waiting_q))))
        else $fatal(1, "a_pm_tag1_pair: tag id 1 driven outside a waiting pair");
      assert (!waiting_q || (open_q && pair_q && remaining_q != '0))
        else $fatal(1, "a_pm_waiting_pair: a waiting second outside an open pair");
      assert (!pair_q || open_q || !waiting_q)
        else $fatal(1, "a_pm_pair_state: inconsistent pair state");
      assert (!(done && take && empty))
        else $fatal(1, "a_pm_one_completion: two samples completing in one cycle");
      assert (!(open_q && p_open[1] && !pair_q))
        else $fatal(1, "a_pm_second_in_pair: profile 1 open in a single sample");
    end
  end

  // The interface contract (docs/profileme.md "Rules of the contract"): events only for tag ids
  // whose profile is open. Unless a testbench clears this bit for cycles that break the contract
  // on purpose (stray events), a violation stops the simulation; the unit's answer (STRAY) is
  // defined either way.
  bit sva_pm_check = 1'b1;
  always @(posedge clk_i) begin
    if (rst_ni && sva_pm_check) begin
      assert (!stray)
        else $fatal(1, "a_pm_contract_no_stray: an event for a tag id with no open profile (events 0b%b, open 0b%b)",
                    any_ev, ev_en);
      assert (!(ev_en[0] && retire_i[0] && abort_i[0]) && !(ev_en[1] && retire_i[1] && abort_i[1]))
        else $fatal(1, "a_pm_contract_one_end: retire and abort of one tag in one cycle");
    end
  end

`ifndef __ICARUS__
  // A taken selection opens a sample (or completes an empty one) and ages it one per cycle.
  a_pm_age_step: assert property (@(posedge clk_i) disable iff (!rst_ni)
    open_q && !done |=> open_q && age_q == $past(age_q) + 16'd1)
    else $error("a_pm_age_step: the open sample's age did not advance");
  // A sample always ends by PM_TIMEOUT: nothing wedges the unit.
  a_pm_no_wedge: assert property (@(posedge clk_i) disable iff (!rst_ni)
    open_q && age_q >= timeout |-> done)
    else $error("a_pm_no_wedge: a sample at its timeout did not complete");
`endif
`endif

endmodule
