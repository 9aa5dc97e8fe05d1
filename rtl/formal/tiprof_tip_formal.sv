// SPDX-License-Identifier: Apache-2.0
// Formal properties of the TIP unit (rtl/formal/formal.sh, `make formal`). Instantiated inside
// tiprof_unit by tiprof_tip_formal_hook.svh (Yosys 0.23 parses `bind` but does not elaborate it,
// so the flow inserts that include into a copy of the unit under build/formal/). It sees the
// unit's ports and internal nets, keeps its own reference state written from docs/tip-unit.md
// (not from the RTL) and asserts:
//   P1 no sample lost silently: every trigger either takes a FIFO entry (TAKEN) or counts in LOST
//   P2 FIFO: count within [0, Depth], pop only removes a complete oldest entry, push order kept
//   P3 the OIR holds the youngest committed (or last trapping) instruction
//   P4 the sample of every cycle is the Computing/Stalled/Flushed/Drained sample of the table
//   P5 (ROB contract only) pending Drained entries are always the youngest
// Defines: FORMAL_NO_ROB_CONTRACT drops the ROB-contract assumptions, FORMAL_NO_P5 drops P5.
module tiprof_tip_formal #(
  parameter int W        = 2,
  parameter int XLEN     = 32,
  parameter int Depth    = 3,
  parameter int CntW     = 2,
  parameter int SampleW  = 156,
  parameter int OffCycle = 0,
  parameter int OffFlags = 64,
  parameter int OffBank  = 69,
  parameter int OffValid = 72,
  parameter int OffPriv  = 74,
  parameter int OffCtx   = 76,
  parameter int OffAddr  = 92,
  localparam int BankW   = (W > 1) ? $clog2(W) : 1,
  localparam int GW      = 8                    // ghost counter width (BMC depth < 256)
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  // ROB interface (the unit's inputs)
  input logic [W-1:0]         head_valid_i,
  input logic [W-1:0]         head_commit_i,
  input logic [W*XLEN-1:0]    head_pc_i,
  input logic [W-1:0]         head_mispred_i,
  input logic [W-1:0]         head_flush_i,
  input logic [BankW-1:0]     head_bank_i,
  input logic                 exception_i,
  input logic [W-1:0]         disp_valid_i,
  input logic [W*XLEN-1:0]    disp_pc_i,
  input logic [1:0]           priv_i,
  input logic [15:0]          ctx_i,
  // CSR port
  input logic                 csr_req_i,
  input logic                 csr_we_i,
  input logic [11:0]          csr_addr_i,
  input logic [XLEN-1:0]      csr_rdata_i,
  input logic                 csr_illegal_i,
  // the unit's internal nets
  input logic                 trigger_i,        // CTRL.TRIGGER in effect
  input logic                 fire_i,           // the sampler's trigger this cycle
  input logic                 pop_i,            // legal write to TIP_POP
  input logic                 pop_empty_i,      // the FIFO refused the pop
  input logic                 head_ok_i,        // the FIFO's oldest entry exists and is complete
  input logic [SampleW-1:0]   head_data_i,      // that entry
  input logic [CntW-1:0]      fifo_count_i,     // complete entries
  input logic                 fifo_full_i,
  input logic                 fifo_pending_i,
  input logic [XLEN-1:0]      oir_addr_i,
  input logic                 oir_mispred_i,
  input logic                 oir_flush_i,
  input logic                 oir_exception_i,
  input logic [1:0]           oir_priv_i,
  input logic [15:0]          oir_ctx_i,
  input logic [4:0]           s_flags_i,        // the sample a trigger in this cycle takes
  input logic [2:0]           s_bank_i,
  input logic [W-1:0]         s_valid_i,
  input logic [W*XLEN-1:0]    s_addr_i,
  input logic [1:0]           s_priv_i,
  input logic [15:0]          s_ctx_i,
  input logic                 s_pending_i
);

  // ------------------------------------------------------------------ reset and time
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always_comb if (init_q) assume (!rst_ni);      // the run starts in reset

  // ------------------------------------------------------------------ ROB order helpers
  // dist(b): position of bank b in ROB order (0 = the head bank).
  function automatic int dist(input int b, input logic [BankW-1:0] head);
    dist = (b + W - 32'(head)) % W;
  endfunction

  logic [W-1:0] cm;                              // committing entries (valid and commit)
  logic         any_c, empty, trap, any_d;
  logic [W-1:0] young_oh, first_oh;              // youngest committing / first dispatched bank
  assign cm    = head_valid_i & head_commit_i;
  assign any_c = |cm;
  assign empty = !head_valid_i[head_bank_i];
  assign trap  = exception_i && !empty && !any_c;
  assign any_d = |disp_valid_i;

  // Youngest committer: a committing bank with no committing bank farther from the head.
  // First dispatched: a dispatching bank with no dispatching bank nearer to the head.
  always_comb begin
    for (int b = 0; b < W; b++) begin
      young_oh[b] = cm[b];
      first_oh[b] = disp_valid_i[b];
      for (int c = 0; c < W; c++) begin
        if (cm[c] && dist(c, head_bank_i) > dist(b, head_bank_i)) young_oh[b] = 1'b0;
        if (disp_valid_i[c] && dist(c, head_bank_i) < dist(b, head_bank_i)) first_oh[b] = 1'b0;
      end
    end
  end

  function automatic logic [XLEN-1:0] pick(input logic [W*XLEN-1:0] v, input logic [W-1:0] oh);
    pick = '0;
    for (int b = 0; b < W; b++) if (oh[b]) pick = pick | v[b*XLEN +: XLEN];
  endfunction

  function automatic logic [2:0] bank_of(input logic [W-1:0] oh);
    bank_of = '0;
    for (int b = 0; b < W; b++) if (oh[b]) bank_of = bank_of | 3'(b);
  endfunction

  // ------------------------------------------------------------------ ROB contract (DESIGN.md)
`ifndef FORMAL_NO_ROB_CONTRACT
  always_comb begin
    if (!init_q) begin
      for (int b = 0; b < W; b++) begin
        // C1 the W oldest entries sit in head_bank, head_bank+1, ... (wrapping): the valid
        //    heads form a run that starts at the head bank
        if (head_valid_i[b] && dist(b, head_bank_i) > 0)
          assume (head_valid_i[(b + W - 1) % W]);
        // C2 an entry commits only if it holds an instruction, and commit is in order
        if (head_commit_i[b]) assume (head_valid_i[b]);
        if (cm[b] && dist(b, head_bank_i) > 0) assume (cm[(b + W - 1) % W]);
      end
      // C3 only the oldest entry traps, and it does not commit in the same cycle
      if (exception_i) assume (!empty && !any_c);
    end
  end
`endif

  // Driver-side assumption for P1: software does not overwrite the counters being checked.
  always_comb begin
    if (csr_req_i && csr_we_i)
      assume (csr_addr_i != tiprof_reg_pkg::TIP_TAKEN_ADDR && csr_addr_i != tiprof_reg_pkg::TIP_LOST_ADDR &&
              csr_addr_i != tiprof_reg_pkg::TIP_TAKENH_ADDR && csr_addr_i != tiprof_reg_pkg::TIP_LOSTH_ADDR);
    // The proofs cover the cycle trigger (P4's reference is the four-state table): CTRL.TRIGGER
    // stays 0 (reset value; so no CTRL write sets it). The instruction trigger is checked
    // against the C model in simulation (docs/verification.md).
    assume (!trigger_i);
  end

  // ------------------------------------------------------------------ P3 reference OIR
  logic [XLEN-1:0] r_addr;
  logic            r_mis, r_fl, r_exc;
  logic [1:0]      r_priv;
  logic [15:0]     r_ctx;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      {r_addr, r_mis, r_fl, r_exc, r_priv, r_ctx} <= '0;
    end else if (any_c) begin                    // the youngest instruction committing now
      r_addr <= pick(head_pc_i, young_oh);
      r_mis  <= |(head_mispred_i & young_oh);
      r_fl   <= |(head_flush_i & young_oh);
      r_exc  <= 1'b0;
      r_priv <= priv_i;
      r_ctx  <= ctx_i;
    end else if (trap) begin                     // the oldest entry traps
      r_addr <= head_pc_i[head_bank_i*XLEN +: XLEN];
      {r_mis, r_fl, r_exc} <= 3'b001;
      r_priv <= priv_i;
      r_ctx  <= ctx_i;
    end
  end

  always_comb begin
    if (rst_ni) begin
      p3_oir: assert (oir_addr_i == r_addr && oir_mispred_i == r_mis && oir_flush_i == r_fl &&
                      oir_exception_i == r_exc && oir_priv_i == r_priv && oir_ctx_i == r_ctx);
    end
  end

  // ------------------------------------------------------------------ P4 reference selection
  // TIP §3.1: Computing (something commits), Stalled (ROB not empty), Flushed (empty after a
  // mispredict/flush/trap: the OIR says so), Drained (empty, front end starved).
  localparam logic [1:0] COMPUTING = 2'd0, STALLED = 2'd1, FLUSHED = 2'd2, DRAINED = 2'd3;
  logic [1:0]        st;
  logic [4:0]        e_flags;                    // {exception, flush, mispred, frontend, stalled}
  logic [2:0]        e_bank;
  logic [W-1:0]      e_valid;
  logic [W*XLEN-1:0] e_addr;
  logic [1:0]        e_priv;
  logic [15:0]       e_ctx;
  logic              e_pending;

  assign st = any_c ? COMPUTING : !empty ? STALLED : (r_mis || r_fl || r_exc) ? FLUSHED : DRAINED;

  always_comb begin
    e_pending = 1'b0;
    e_priv    = priv_i;
    e_ctx     = ctx_i;
    e_addr    = '0;
    case (st)
      COMPUTING: begin e_flags = 5'b00000; e_bank = 3'(head_bank_i); e_valid = cm; end
      STALLED:   begin e_flags = 5'b00001; e_bank = 3'(head_bank_i); e_valid = head_valid_i; end
      FLUSHED:   begin
        e_flags = {r_exc, r_fl, r_mis, 2'b00}; e_bank = 3'd0; e_valid = W'(1);
        e_priv = r_priv; e_ctx = r_ctx;
      end
      default:   begin                           // DRAINED
        e_flags = 5'b00010; e_bank = any_d ? bank_of(first_oh) : 3'd0; e_valid = first_oh;
        e_priv = r_priv; e_ctx = r_ctx; e_pending = !any_d;
      end
    endcase
    for (int i = 0; i < W; i++) begin
      if (e_valid[i])
        e_addr[i*XLEN +: XLEN] = (st == FLUSHED) ? r_addr :
                                 (st == DRAINED) ? disp_pc_i[i*XLEN +: XLEN] : head_pc_i[i*XLEN +: XLEN];
    end
  end

  always_comb begin
    if (rst_ni) begin
      p4_select: assert (s_flags_i == e_flags && s_bank_i == e_bank && s_valid_i == e_valid &&
                         s_addr_i == e_addr && s_priv_i == e_priv && s_ctx_i == e_ctx &&
                         s_pending_i == e_pending);
    end
  end

  // Completion of pending Drained samples in this cycle (reference): the first instruction
  // dispatched into an empty ROB, or the head entry when the ROB is not empty.
  logic              c_now;
  logic [2:0]        c_bank;
  logic [W-1:0]      c_valid;
  logic [W*XLEN-1:0] c_addr;
  always_comb begin
    c_now   = (empty && any_d) || !empty;
    c_valid = !empty ? (W'(1) << head_bank_i) : (any_d ? first_oh : '0);
    c_bank  = !empty ? 3'(head_bank_i) : bank_of(first_oh);
    c_addr  = '0;
    for (int i = 0; i < W; i++)
      if (c_valid[i]) c_addr[i*XLEN +: XLEN] = !empty ? head_pc_i[i*XLEN +: XLEN] : disp_pc_i[i*XLEN +: XLEN];
  end

  // ------------------------------------------------------------------ P1/P2 reference FIFO accounting
  logic [GW-1:0] g_cycle, g_used, g_taken, g_lost, g_pushn, g_popn;
  logic          popped, room, take;
  assign popped = pop_i && head_ok_i;                          // a pop removes the oldest entry
  assign room   = (32'(g_used) - 32'(popped)) < 32'(Depth);    // space after this cycle's pop
  assign take   = fire_i && room;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      {g_cycle, g_used, g_taken, g_lost, g_pushn, g_popn} <= '0;
    end else begin
      g_cycle <= g_cycle + 1'b1;
      g_used  <= g_used - GW'(popped) + GW'(take);
      g_taken <= g_taken + GW'(take);
      g_lost  <= g_lost + GW'(fire_i && !room);
      g_pushn <= g_pushn + GW'(take);
      g_popn  <= g_popn + GW'(popped);
    end
  end

  logic rd_ok;
  assign rd_ok = csr_req_i && !csr_we_i && !csr_illegal_i;
  always_comb begin
    if (rst_ni) begin
      // P1: TAKEN counts the triggers that found room, LOST the others (TAKEN + LOST = triggers),
      // and the FIFO holds exactly the taken samples not yet popped.
      if (rd_ok && csr_addr_i == tiprof_reg_pkg::TIP_TAKEN_ADDR) p1_taken: assert (csr_rdata_i == XLEN'(g_taken));
      if (rd_ok && csr_addr_i == tiprof_reg_pkg::TIP_LOST_ADDR)  p1_lost:  assert (csr_rdata_i == XLEN'(g_lost));
      p1_held: assert (fifo_full_i == (32'(g_used) == 32'(Depth)) && 32'(fifo_count_i) <= 32'(g_used) &&
                       fifo_pending_i == (32'(fifo_count_i) != 32'(g_used)));
      // P2: counts within [0, Depth]; a pop removes an entry only if a complete one is there
      p2_count: assert (32'(fifo_count_i) <= 32'(Depth) && 32'(g_used) <= 32'(Depth));
      p2_pop:   assert (pop_empty_i == (pop_i && !head_ok_i) && (!head_ok_i || fifo_count_i != '0));
    end
  end

  // P2 order: follow one arbitrary accepted sample (number tag_k since reset). It must be the
  // oldest entry exactly when tag_k samples have been popped before it, and hold what was taken.
  (* anyconst *) logic [GW-1:0] tag_k;
  logic              t_have, t_wait;
  logic [GW-1:0]     t_cycle;
  logic [4:0]        t_flags;
  logic [2:0]        t_bank;
  logic [W-1:0]      t_valid;
  logic [W*XLEN-1:0] t_addr;
  logic [1:0]        t_priv;
  logic [15:0]       t_ctx;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      t_have <= 1'b0;
      t_wait <= 1'b0;
    end else if (take && g_pushn == tag_k) begin
      t_have  <= 1'b1;
      t_wait  <= e_pending;
      t_cycle <= g_cycle;
      t_flags <= e_flags;
      t_bank  <= e_bank;
      t_valid <= e_valid;
      t_addr  <= e_addr;
      t_priv  <= e_priv;
      t_ctx   <= e_ctx;
    end else if (t_wait && c_now) begin          // the pending sample completes
      t_wait  <= 1'b0;
      t_bank  <= c_bank;
      t_valid <= c_valid;
      t_addr  <= c_addr;
    end
  end

  always_comb begin
    if (rst_ni && t_have && g_popn == tag_k) begin
      p2_order: assert (t_wait ? !head_ok_i :
                        (head_ok_i && (head_data_i[OffCycle +: 64] == 64'(t_cycle) &&
                                        head_data_i[OffFlags +: 5] == t_flags &&
                                        head_data_i[OffBank +: 3] == t_bank &&
                                        head_data_i[OffValid +: W] == t_valid &&
                                        head_data_i[OffPriv +: 2] == t_priv &&
                                        head_data_i[OffCtx +: 16] == t_ctx &&
                                        head_data_i[OffAddr +: W*XLEN] == t_addr)));
    end
  end

`ifndef FORMAL_NO_P5
  // P5: with the ROB contract, pending (Drained) entries are the youngest: a complete entry
  // never waits behind a pending oldest one.
  always_comb begin
    if (rst_ni) p5_pending_young: assert (fifo_count_i == '0 || head_ok_i);
  end
`endif

  // ------------------------------------------------------------------ covers (not vacuous)
  always_comb begin
    if (rst_ni) begin
      c_fire:    cover (fire_i);
      c_take2:   cover (g_taken == GW'(2));
      c_lost:    cover (fire_i && !room && popped == 1'b0 && g_taken != '0);
      c_fullpop: cover (fire_i && fifo_full_i && popped);
      c_order:   cover (t_have && g_popn == tag_k && popped && tag_k == GW'(2));
      c_drained: cover (take && st == DRAINED && e_pending);
      c_cmpl:    cover (t_have && !t_wait && g_popn == tag_k && head_ok_i && t_flags == 5'b00010);
      c_flushed: cover (take && st == FLUSHED);
    end
  end

endmodule
