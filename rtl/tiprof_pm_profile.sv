// SPDX-License-Identifier: Apache-2.0
// One ProfileMe profile (docs/profileme.md "Events, stamps and the end of a profile"): the
// instruction that carries one tag id of the open sample. It is written when the instruction is
// tagged at fetch, takes the first occurrence of each stage event as a stamp relative to its own
// fetch, ORs the event bits, and ends by retire, abort or the timeout. Its fields after this
// cycle's events (the *_d view) are what a completing sample records.
module tiprof_pm_profile
#(
  parameter int XLEN = 64                  // [32,64] address width
) (
  input  logic            clk_i,           // clock
  input  logic            rst_ni,          // asynchronous reset, active low

  // step 1: this cycle's events (only while the profile was open at the start of the cycle)
  input  logic            ev_en_i,         // the profile is open and its tag id's events apply
  input  logic [15:0]     age_i,           // sample age at the start of the cycle
  input  logic            map_i, ready_i, issue_i, mem_i, complete_i,
  input  logic            retire_i, abort_i,
  input  logic [1:0]      abort_reason_i,
  input  logic            load_i, store_i, dc_miss_i, dtlb_miss_i,
  input  logic            br_valid_i, br_taken_i, br_mispred_i,
  input  logic            ea_valid_i,
  input  logic [XLEN-1:0] ea_i,
  // step 2: timeout of the open sample
  input  logic            timeout_i,       // end an open profile with TIMEOUT
  input  logic            kill_i,          // end an untagged pair's second with TIMEOUT only
  // step 3: a new profile replaces this one (at most one of these)
  input  logic            clear_i,         // idle, every field 0 (a new sample opens)
  input  logic            tag_i,           // tagged this cycle: open, fields from the fetch slot
  input  logic            empty_i,         // an empty-slot selection: ended, EV = EMPTY
  input  logic [2:0]      slot_i,          // fetch slot (tag, empty)
  input  logic [XLEN-1:0] pc_i,            // its address (tag)
  input  logic [1:0]      priv_i,          // pm_fetch_priv (tag, empty)
  input  logic [15:0]     ctx_i,           // pm_fetch_ctx (tag, empty)
  input  logic [15:0]     path_i,          // path history (tag)
  input  logic            icmiss_i,        // pm_fetch_icmiss (tag)
  input  logic            itlbmiss_i,      // pm_fetch_itlbmiss (tag)
  input  logic [15:0]     fetch_i,         // sample age of the fetch (tag)

  // state
  output logic            open_o,          // open at the start of the cycle
  output logic            timed_out_o,     // this cycle's timeout ended it
  output logic            ended_d_o,       // ended after steps 1-2
  // the fields after steps 1-2 (the record of a sample completing this cycle)
  output logic [63:0]     info_d_o,        // record word INFO
  output logic [63:0]     stamp_a_d_o,     // record word STAMP_A
  output logic [63:0]     stamp_b_d_o,     // record word STAMP_B
  output logic [XLEN-1:0] pc_d_o,
  output logic [XLEN-1:0] ea_d_o,
  output logic [15:0]     fetch_o          // sample age of its fetch (PAIR_CYCLES of a second)
);

  localparam int EvW = tiprof_reg_pkg::PM_EV_BITS;

  // stage indices into the stamps and seen bits (the record's SEEN order)
  localparam int SMap = 0, SReady = 1, SIssue = 2, SMem = 3, SComplete = 4;

  logic            open_q, open_d, ended_q, ended_d, ended_e, open_e;
  logic            tagged_q, tagged_d;
  logic [XLEN-1:0] pc_q, pc_d, ea_q, ea_d, ea_e;
  logic [EvW-1:0]  ev_q, ev_d, ev_e;
  logic [1:0]      reason_q, reason_d, reason_e;
  logic [1:0]      priv_q, priv_d;
  logic [2:0]      slot_q, slot_d;
  logic [15:0]     ctx_q, ctx_d, path_q, path_d, fetch_q, fetch_d;
  // stamps relative to the fetch, stage i at [16i +: 16]: 5 stages, end (one vector: Icarus 11's
  // always @* does not wake up on an unpacked array's elements, Yosys 0.23 reads no packed 2-D)
  logic [95:0] st_q, st_d, st_e;
  logic [4:0]      seen_q, seen_d, seen_e;
  logic [15:0]     rel;                     // this cycle's stamp: age - fetch
  logic [4:0]      stage;

  assign rel   = age_i - fetch_q;
  assign stage = {complete_i, mem_i, issue_i, ready_i, map_i};

  // steps 1 and 2: events, end, timeout
  always_comb begin
    open_e   = open_q;
    ended_e  = ended_q;
    ev_e     = ev_q;
    reason_e = reason_q;
    ea_e     = ea_q;
    seen_e   = seen_q;
    st_e     = st_q;
    timed_out_o = 1'b0;
    if (ev_en_i) begin
      for (int s = 0; s < 5; s++) begin
        if (stage[s] && !seen_q[s]) begin
          st_e[16*s +: 16]   = rel;
          seen_e[s] = 1'b1;
        end
      end
      if (load_i)      ev_e[tiprof_reg_pkg::PM_EV_LOAD]      = 1'b1;
      if (store_i)     ev_e[tiprof_reg_pkg::PM_EV_STORE]     = 1'b1;
      if (dc_miss_i)   ev_e[tiprof_reg_pkg::PM_EV_DC_MISS]   = 1'b1;
      if (dtlb_miss_i) ev_e[tiprof_reg_pkg::PM_EV_DTLB_MISS] = 1'b1;
      if (br_valid_i && !ev_q[tiprof_reg_pkg::PM_EV_CTRL]) begin
        ev_e[tiprof_reg_pkg::PM_EV_CTRL]       = 1'b1;
        ev_e[tiprof_reg_pkg::PM_EV_BR_TAKEN]   = br_taken_i;
        ev_e[tiprof_reg_pkg::PM_EV_BR_MISPRED] = br_mispred_i;
      end
      if (ea_valid_i && !ev_q[tiprof_reg_pkg::PM_EV_EA_VALID]) begin
        ev_e[tiprof_reg_pkg::PM_EV_EA_VALID] = 1'b1;
        ea_e = ea_i;
      end
      if (abort_i) begin
        ev_e[tiprof_reg_pkg::PM_EV_ABORTED] = 1'b1;
        if (abort_reason_i == tiprof_reg_pkg::PM_ABORT_TRAP[1:0]) ev_e[tiprof_reg_pkg::PM_EV_TRAP] = 1'b1;
        reason_e = abort_reason_i;
      end else if (retire_i) begin
        ev_e[tiprof_reg_pkg::PM_EV_RETIRED] = 1'b1;
      end
      if (abort_i || retire_i) begin
        st_e[16*5 +: 16] = rel;
        open_e  = 1'b0;
        ended_e = 1'b1;
      end
    end
    if (kill_i) begin   // an untagged second (idle, every field 0 since its sample opened)
      ev_e    = '0;
      ev_e[tiprof_reg_pkg::PM_EV_TIMEOUT] = 1'b1;
      ended_e = 1'b1;
    end
    if (timeout_i && open_e) begin
      ev_e[tiprof_reg_pkg::PM_EV_TIMEOUT] = 1'b1;
      st_e[16*5 +: 16]     = rel;
      open_e      = 1'b0;
      ended_e     = 1'b1;
      timed_out_o = 1'b1;
    end
  end

  // step 3: replaced by a new profile
  always_comb begin
    open_d   = open_e;
    ended_d  = ended_e;
    tagged_d = tagged_q;
    pc_d     = pc_q;
    ea_d     = ea_e;
    ev_d     = ev_e;
    reason_d = reason_e;
    priv_d   = priv_q;
    slot_d   = slot_q;
    ctx_d    = ctx_q;
    path_d   = path_q;
    fetch_d  = fetch_q;
    seen_d   = seen_e;
    st_d     = st_e;
    if (kill_i || clear_i || tag_i || empty_i) begin
      open_d   = 1'b0;
      ended_d  = 1'b0;
      tagged_d = 1'b0;
      pc_d     = '0;
      ea_d     = '0;
      ev_d     = '0;
      reason_d = '0;
      priv_d   = '0;
      slot_d   = '0;
      ctx_d    = '0;
      path_d   = '0;
      fetch_d  = '0;
      seen_d   = '0;
      st_d     = '0;
    end
    if (kill_i) begin
      ended_d = 1'b1;
      ev_d[tiprof_reg_pkg::PM_EV_TIMEOUT] = 1'b1;
    end
    if (tag_i) begin
      open_d   = 1'b1;
      tagged_d = 1'b1;
      pc_d     = pc_i;
      priv_d   = priv_i;
      slot_d   = slot_i;
      ctx_d    = ctx_i;
      path_d   = path_i;
      fetch_d  = fetch_i;
      ev_d[tiprof_reg_pkg::PM_EV_IC_MISS]   = icmiss_i;
      ev_d[tiprof_reg_pkg::PM_EV_ITLB_MISS] = itlbmiss_i;
    end
    if (empty_i) begin
      ended_d = 1'b1;
      priv_d  = priv_i;
      slot_d  = slot_i;
      ctx_d   = ctx_i;
      ev_d[tiprof_reg_pkg::PM_EV_EMPTY] = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      open_q   <= 1'b0;
      ended_q  <= 1'b0;
      tagged_q <= 1'b0;
      pc_q     <= '0;
      ea_q     <= '0;
      ev_q     <= '0;
      reason_q <= '0;
      priv_q   <= '0;
      slot_q   <= '0;
      ctx_q    <= '0;
      path_q   <= '0;
      fetch_q  <= '0;
      seen_q   <= '0;
      st_q     <= '0;
    end else begin
      open_q   <= open_d;
      ended_q  <= ended_d;
      tagged_q <= tagged_d;
      pc_q     <= pc_d;
      ea_q     <= ea_d;
      ev_q     <= ev_d;
      reason_q <= reason_d;
      priv_q   <= priv_d;
      slot_q   <= slot_d;
      ctx_q    <= ctx_d;
      path_q   <= path_d;
      fetch_q  <= fetch_d;
      seen_q   <= seen_d;
      st_q     <= st_d;
    end
  end

  assign open_o    = open_q;
  assign ended_d_o = ended_e;
  assign pc_d_o    = pc_q;
  assign ea_d_o    = ea_e;
  assign fetch_o   = fetch_q;

  // the record's words of this profile after steps 1-2 (stamps 0 unless seen; end 0 if untagged),
  // laid out by the generated field constants of tiprof_reg_pkg
  always_comb begin
    info_d_o = '0;
    info_d_o[tiprof_reg_pkg::PM_REC_INFO_EV_LSB +: tiprof_reg_pkg::PM_REC_INFO_EV_W]         = ev_e;
    info_d_o[tiprof_reg_pkg::PM_REC_INFO_REASON_LSB +: tiprof_reg_pkg::PM_REC_INFO_REASON_W] = reason_e;
    info_d_o[tiprof_reg_pkg::PM_REC_INFO_PRIV_LSB +: tiprof_reg_pkg::PM_REC_INFO_PRIV_W]     = priv_q;
    info_d_o[tiprof_reg_pkg::PM_REC_INFO_TAGGED_LSB]                                         = tagged_q;
    info_d_o[tiprof_reg_pkg::PM_REC_INFO_SLOT_LSB +: tiprof_reg_pkg::PM_REC_INFO_SLOT_W]     = slot_q;
    info_d_o[tiprof_reg_pkg::PM_REC_INFO_CTX_LSB +: tiprof_reg_pkg::PM_REC_INFO_CTX_W]       = ctx_q;
    info_d_o[tiprof_reg_pkg::PM_REC_INFO_PATH_LSB +: tiprof_reg_pkg::PM_REC_INFO_PATH_W]     = path_q;
    stamp_a_d_o = '0;
    stamp_a_d_o[tiprof_reg_pkg::PM_REC_STAMP_A_MAP_LSB +: 16]      = seen_e[SMap]      ? st_e[16*SMap +: 16]      : '0;
    stamp_a_d_o[tiprof_reg_pkg::PM_REC_STAMP_A_READY_LSB +: 16]    = seen_e[SReady]    ? st_e[16*SReady +: 16]    : '0;
    stamp_a_d_o[tiprof_reg_pkg::PM_REC_STAMP_A_ISSUE_LSB +: 16]    = seen_e[SIssue]    ? st_e[16*SIssue +: 16]    : '0;
    stamp_a_d_o[tiprof_reg_pkg::PM_REC_STAMP_A_COMPLETE_LSB +: 16] = seen_e[SComplete] ? st_e[16*SComplete +: 16] : '0;
    stamp_b_d_o = '0;
    stamp_b_d_o[tiprof_reg_pkg::PM_REC_STAMP_B_MEM_LSB +: 16] = seen_e[SMem] ? st_e[16*SMem +: 16] : '0;
    stamp_b_d_o[tiprof_reg_pkg::PM_REC_STAMP_B_END_LSB +: 16] = tagged_q ? st_e[16*5 +: 16] : '0;
    stamp_b_d_o[tiprof_reg_pkg::PM_REC_STAMP_B_SEEN_LSB +: tiprof_reg_pkg::PM_REC_STAMP_B_SEEN_W] = seen_e;
  end

`ifndef SYNTHESIS
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(open_q && ended_q))
        else $fatal(1, "a_pm_profile_state: a profile both open and ended");
      assert (!open_q || tagged_q)
        else $fatal(1, "a_pm_profile_open_tagged: an open profile without a tagged instruction");
      assert (32'(tag_i) + 32'(empty_i) + 32'(kill_i) <= 1)
        else $fatal(1, "a_pm_profile_one_write: tag %0d empty %0d kill %0d in one cycle", tag_i, empty_i, kill_i);
      assert (!kill_i || (!open_q && !ended_q && !tagged_q))
        else $fatal(1, "a_pm_profile_kill_idle: the timeout ended a second that was not idle");
    end
  end
`endif

endmodule
