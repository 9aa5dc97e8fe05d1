// SPDX-License-Identifier: Apache-2.0
// Record FIFO, one instance per subsystem (TIP samples, ProfileMe records): records in order.
// With Completion = 1, an entry may be pushed pending (a TIP Drained sample) and is completed,
// with every other pending entry, when its instruction dispatches; with Completion = 0 there is
// no pending state (cmpl_i, cmpl_data_i and push_pending_i are ignored). Pop, completion, then
// allocation.
module tiprof_fifo #(
  parameter int Depth      = 8,             // [1,65535] entries
  parameter int DataW      = 64,            // [1,..] bits per entry
  parameter int Completion = 1,             // [0,1] entries may be pushed pending
  localparam int PtrW = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int CntW = $clog2(Depth + 1)
) (
  input  logic             clk_i,          // clock
  input  logic             rst_ni,         // asynchronous reset, active low

  input  logic             pop_i,          // remove the oldest entry if it is complete
  input  logic             cmpl_i,         // complete every pending entry ...
  input  logic [DataW-1:0] cmpl_data_i,    // ... by OR-ing these bits into it
  input  logic             push_i,         // allocate an entry for a new sample
  input  logic             push_pending_i, // the new sample is pending
  input  logic [DataW-1:0] push_data_i,    // the new sample (pending: completion fields zero)

  output logic             accept_o,       // push_i found space (after this cycle's pop)
  output logic             pop_empty_o,    // pop_i found no complete oldest entry
  output logic             head_valid_o,   // the oldest entry exists and is complete
  output logic [DataW-1:0] head_data_o,    // the oldest entry (0 unless head_valid_o)
  output logic [CntW-1:0]  count_o,        // complete entries
  output logic             full_o,         // every entry is allocated
  output logic             pending_o       // some entry is pending
);

  (* mem2reg *) logic [DataW-1:0] mem_q [Depth]; // entry storage: one register per entry
  logic [PtrW-1:0]  rd_q, rd_d, wr_ptr;
  logic [CntW-1:0]  used_q, used_d, pend_q, pend_d, used_after_pop;
  logic [Depth-1:0] pbit_q, pbit_d;    // per-entry pending bit
  logic             do_pop;

  function automatic logic [PtrW-1:0] ptr_add(input logic [PtrW-1:0] p, input logic [CntW-1:0] n);
    logic [31:0] s;
    s = 32'(p) + 32'(n);
    if (s >= Depth) s = s - Depth;
    ptr_add = PtrW'(s);
  endfunction

  assign head_valid_o = (used_q != '0) && !pbit_q[rd_q];
  // Read port: a mux over the entries (rd_q < Depth always holds).
  assign head_data_o  = head_valid_o ? mem_q[rd_q] : '0;
  assign count_o      = used_q - pend_q;
  assign full_o       = (used_q == CntW'(Depth));
  assign pending_o    = (pend_q != '0);

  assign do_pop         = pop_i && head_valid_o;
  assign pop_empty_o    = pop_i && !head_valid_o;
  assign used_after_pop = used_q - CntW'(do_pop);
  assign accept_o       = push_i && (used_after_pop != CntW'(Depth));
  assign wr_ptr         = ptr_add(rd_q, used_q);

  always_comb begin
    rd_d   = do_pop ? ptr_add(rd_q, CntW'(1)) : rd_q;
    used_d = used_after_pop + CntW'(accept_o);
  end

  logic             cmpl, push_pending;   // completion in effect (0 without Completion)
  logic [DataW-1:0] cmpl_data;

  if (Completion != 0) begin : g_completion
    assign cmpl         = cmpl_i;
    assign cmpl_data    = cmpl_data_i;
    assign push_pending = push_pending_i;
    always_comb begin
      pend_d = cmpl ? '0 : pend_q;
      if (accept_o && push_pending) pend_d = pend_d + CntW'(1);
    end
    // Per entry: written by a push, or completed while pending. Pending entries are normally the
    // youngest; inputs that break the ROB contract can queue a complete sample behind one.
    for (genvar i = 0; i < Depth; i++) begin : g_entry
      assign pbit_d[i] = (accept_o && wr_ptr == PtrW'(i)) ? push_pending : (pbit_q[i] && !cmpl);
    end
  end else begin : g_no_completion
    logic unused_cmpl;
    assign unused_cmpl  = ^{cmpl_i, cmpl_data_i, push_pending_i};
    assign cmpl         = 1'b0;
    assign cmpl_data    = '0;
    assign push_pending = 1'b0;
    assign pend_d       = '0;
    assign pbit_d       = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q   <= '0;
      used_q <= '0;
      pend_q <= '0;
      pbit_q <= '0;
    end else begin
      rd_q   <= rd_d;
      used_q <= used_d;
      pend_q <= pend_d;
      pbit_q <= pbit_d;
    end
  end

  // Entry storage needs no reset: an entry is read only after it has been written. Each entry
  // is a register with an enable (written only when pushed or completed), which is also what
  // keeps a deep FIFO cheap to simulate: idle entries are not recomputed every cycle.
  always_ff @(posedge clk_i) begin
    for (int unsigned i_wr = 0; i_wr < Depth; i_wr++) begin
      if (accept_o && wr_ptr == PtrW'(i_wr)) begin
        mem_q[i_wr] <= push_data_i;
      end else if (cmpl && pbit_q[i_wr]) begin
        mem_q[i_wr] <= mem_q[i_wr] | cmpl_data;
      end
    end
  end

`ifndef SYNTHESIS
  // Invariants of the occupancy counters, checked every cycle in simulation (every simulator).
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (32'(used_q) <= 32'(Depth))
        else $fatal(1, "a_fifo_used_bound: %0d entries allocated in a FIFO of %0d", used_q, Depth);
      assert (32'(rd_q) < 32'(Depth))
        else $fatal(1, "a_fifo_rd_bound: read pointer %0d in a FIFO of %0d", rd_q, Depth);
      assert (pend_q <= used_q)
        else $fatal(1, "a_fifo_pend_bound: %0d pending entries but only %0d allocated", pend_q, used_q);
      assert (32'(pend_q) == 32'($countones(pbit_q)))
        else $fatal(1, "a_fifo_pend_bits: pending count %0d disagrees with the pending bits", pend_q);
      assert (32'(count_o) <= 32'(Depth))
        else $fatal(1, "a_fifo_count_bound: FIFO_COUNT %0d above the depth %0d", count_o, Depth);
      assert (!do_pop || (used_q != '0 && !pbit_q[rd_q]))
        else $fatal(1, "a_fifo_pop_nonempty: a pop removed a missing or pending entry");
      assert (!(push_i && full_o && !do_pop) || !accept_o)
        else $fatal(1, "a_fifo_no_push_full: a sample was accepted into a full FIFO");
      assert (!(push_i && !accept_o) || (full_o && !do_pop))
        else $fatal(1, "a_fifo_refuse_only_full: a sample was refused with %0d of %0d entries used",
                    used_after_pop, Depth);
      if (push_i && accept_o && push_pending) begin
        assert (!cmpl)
          else $fatal(1, "a_fifo_pending_no_cmpl: a new pending entry and a completion in one cycle");
      end
    end
  end

`ifndef __ICARUS__
  // Occupancy moves only by this cycle's pop and push.
  a_fifo_used_step: assert property (@(posedge clk_i) disable iff (!rst_ni)
    $past(rst_ni) |-> used_q == $past(used_q) - CntW'($past(do_pop)) + CntW'($past(accept_o)))
    else $error("a_fifo_used_step: %0d entries after %0d, pop %0d, push %0d", used_q,
                $past(used_q), $past(do_pop), $past(accept_o));
  // A completion leaves nothing pending (unless a new pending sample arrives with it).
  a_fifo_cmpl_all: assert property (@(posedge clk_i) disable iff (!rst_ni)
    cmpl && !(accept_o && push_pending) |=> pend_q == '0)
    else $error("a_fifo_cmpl_all: %0d entries still pending after a completion", pend_q);
`endif
`endif

endmodule
