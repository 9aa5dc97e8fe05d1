// SPDX-License-Identifier: Apache-2.0
// ProfileMe selection and tagging, combinational (docs/profileme.md "Selection: the fetch
// counter", "Taking a selection", "The pair"): the fetch units this cycle counts, which fetch slots
// the interval block's selections fall on, whether the first is taken or they collide, and the
// tags driven onto the packet: id 0 on a taken selection's slot, id 1 on the pair's second,
// which is the d-th valid slot after the first in fetch order, in this packet or a later one.
// pm_tag_o depends only on fetch_valid, fetch_priv and registers (never on the PCs or events).
module tiprof_pm_select
#(
  parameter int F     = 4,                  // [1,8] fetch slots per cycle
  localparam int NW   = $clog2(F + 1),
  localparam int UnitW = (F > 1) ? $clog2(F) : 1
) (
  // fetch packet
  input  logic [F-1:0]     valid_i,         // pm_fetch_valid
  input  logic [F-1:0]     br_i,            // pm_fetch_br
  input  logic [15:0]      hist_i,          // pm_fetch_hist
  input  logic [1:0]       priv_i,          // pm_fetch_priv
  // configuration and state at the start of the cycle
  input  logic [3:0]       priv_filter_i,   // PM_CTRL.PRIV
  input  logic             unit_i,          // PM_CTRL.UNIT
  input  logic             pair_i,          // PM_CTRL.PAIR
  input  logic [8:0]       window_i,        // PM_PAIR.WINDOW
  input  logic [15:0]      lfsr_hi_i,       // bits 31:16 of this cycle's LFSR value
  input  logic             open_i,          // a sample is open
  input  logic             waiting_i,       // its second waits to be tagged (and is not timed out now)
  input  logic [8:0]       remaining_i,     // valid slots still to count for it
  // the interval block's selections among this cycle's units
  output logic [NW-1:0]    n_o,             // counted units
  input  logic             sel_a_i,
  input  logic [UnitW-1:0] sel_a_unit_i,
  input  logic             sel_b_i,
  input  logic [UnitW-1:0] sel_b_unit_i,

  output logic             take_o,          // a selection is taken: a sample opens
  output logic             empty_o,         // ... on an invalid slot (an empty-slot sample)
  output logic [2:0]       slot0_o,         // its slot
  output logic [15:0]      path0_o,         // its path history
  output logic [1:0]       coll_o,          // selections not taken (collisions)
  output logic             tag1_o,          // the pair's second is tagged this cycle ...
  output logic [2:0]       slot1_o,         // ... in this slot
  output logic [15:0]      path1_o,         //     with this path history
  output logic             pair_open_o,     // the taken sample is a pair
  output logic [8:0]       dist_o,          // its distance d
  output logic             waiting_d_o,     // a second waits after this cycle
  output logic [8:0]       remaining_d_o,   // valid slots still to count for it
  output logic [2*F-1:0]   tag_o            // pm_tag_o: slot i at [2i +: 2]
);

  localparam int SlotIdxW = (F > 1) ? $clog2(F) : 1;

  // Slot of the k-th (0-based) set bit of m (m must hold more than k set bits).
  function automatic logic [2:0] nth_slot(input logic [F-1:0] m, input logic [8:0] k);
    logic [8:0] c;
    nth_slot = '0;
    c        = '0;
    for (int s = 0; s < F; s++) begin
      if (m[s]) begin
        if (c == k) nth_slot = 3'(s);
        c = c + 9'd1;
      end
    end
  endfunction

  // Path history of slot s: the packet's history shifted by the valid branches below s. (Every
  // input is an argument: Icarus 11's always @* does not see what a function reads otherwise.)
  function automatic logic [15:0] path_of(input logic [F-1:0] valid, input logic [F-1:0] br,
                                          input logic [15:0] hist, input logic [2:0] s);
    logic [F-1:0] below;
    below   = valid & br & F'((1 << s) - 1);
    path_of = hist << $countones(below);
  endfunction

  logic [F-1:0] cnt, above, second_mask;
  logic         priv_ok, first_sel, second_ok;
  logic [UnitW-1:0] first_unit;
  logic [8:0]   m, v, d, need;
  logic [24:0]  prod;
  assign priv_ok = priv_filter_i[priv_i];
  assign cnt     = !priv_ok ? '0 : (unit_i ? '1 : valid_i);
  assign n_o     = NW'($countones(cnt));

  always_comb begin
    first_sel  = sel_a_i || sel_b_i;
    first_unit = sel_a_i ? sel_a_unit_i : sel_b_unit_i;
    take_o     = first_sel && !open_i;
    coll_o     = 2'(32'(sel_a_i) + 32'(sel_b_i) - 32'(take_o));
    slot0_o    = nth_slot(cnt, 9'(first_unit));
    empty_o    = take_o && !valid_i[slot0_o[SlotIdxW-1:0]];
    path0_o    = path_of(valid_i, br_i, hist_i, slot0_o);

    // the pair's distance: d = 1 + floor(LFSR[31:16] * WINDOW / 2^16)
    prod        = 25'(lfsr_hi_i) * 25'(window_i);
    d           = 9'd1 + 9'(prod >> 16);
    pair_open_o = take_o && !empty_o && pair_i;
    dist_o      = d;
    // slots a second may take this cycle: above the first in its own cycle, else every valid slot
    above       = '0;
    for (int s = 0; s < F; s++) above[s] = (32'(s) > 32'(slot0_o));
    second_mask = pair_open_o ? (valid_i & above) : valid_i;
    need        = pair_open_o ? d : remaining_i;
    m           = 9'($countones(second_mask));
    v           = m;
    second_ok   = (pair_open_o || waiting_i) && (need <= v);
    tag1_o      = second_ok;
    slot1_o     = nth_slot(second_mask, need - 9'd1);
    path1_o     = path_of(valid_i, br_i, hist_i, slot1_o);
    waiting_d_o = (pair_open_o || waiting_i) && !second_ok;
    remaining_d_o = waiting_d_o ? need - v : '0;

    tag_o = '0;
    if (take_o && !empty_o) tag_o[2*slot0_o[SlotIdxW-1:0]] = 1'b1;
    if (tag1_o)             tag_o[2*slot1_o[SlotIdxW-1:0] + 1] = 1'b1;
  end

endmodule
