// SPDX-License-Identifier: Apache-2.0
// ProfileMe record, combinational (docs/profileme.md "Completion, filters and the FIFO", "The
// record"): packs a completing sample into a FIFO entry that holds only the record's defined
// bits, judges it with the event and latency filters, and unpacks the oldest entry into the
// record's 64-bit words for PM_R/PM_RH. Layout from tiprof_reg_pkg's generated PM_REC_* word
// indices and field constants (the package's pm_rec_<word>_t structs describe the same words;
// they are not used here because Icarus 11 aborts on package-scoped struct types and Yosys 0.23
// reads neither a package import nor a local alias of them).
module tiprof_pm_record
#(
  parameter int XLEN = 64,                  // [32,64] address width
  parameter int Tags = 2,                   // [1,2] profiles stored per entry
  localparam int InfoW  = 55,               // INFO's defined bits: EV..PATH without reserved bits
  localparam int StampBW = 37,              // STAMP_B's defined bits
  localparam int ProfW  = 2 * XLEN + InfoW + 64 + StampBW,
  localparam int EntryW = 64 + 26 + Tags * ProfW,
  localparam int Words  = tiprof_reg_pkg::PM_REC_WORDS
) (
  // the completing sample
  input  logic [63:0]       cycle_i,        // cycle counter at its selection
  input  logic              pair_i,         // it is a pair
  input  logic [8:0]        dist_i,         // the pair's distance
  input  logic [15:0]       pair_cycles_i,  // the second's fetch age (0 if untagged)
  input  logic [2*XLEN-1:0] pc_i,           // profile p at [p*XLEN +: XLEN]
  input  logic [2*XLEN-1:0] ea_i,
  input  logic [127:0]      info_i,         // INFO word of profile p at [64p +: 64]
  input  logic [127:0]      stamp_a_i,      // STAMP_A word of profile p
  input  logic [127:0]      stamp_b_i,      // STAMP_B word of profile p
  // filters (start-of-cycle register values)
  input  logic [31:0]       evfilt_i,       // PM_EVFILT
  input  logic [19:0]       latfilt_i,      // PM_LATFILT
  output logic [EntryW-1:0] entry_o,        // the FIFO entry
  output logic              keep_o,         // it passes both filters

  // the oldest entry, as record words
  input  logic              head_valid_i,   // the FIFO holds an entry
  input  logic [EntryW-1:0] head_i,         // the oldest entry (0 when the FIFO is empty)
  output logic [Words*64-1:0] words_o       // word k at [64k +: 64]
);

  localparam int Stride = tiprof_reg_pkg::PM_REC_PROFILE_STRIDE;

  // ---------------------------------------------------------------- pack
  // A profile's defined bits in an entry, LSB first: PC, EA, the INFO fields without the
  // reserved bits, STAMP_A whole, STAMP_B's defined bits.
  function automatic logic [InfoW-1:0] info_pack(input logic [63:0] w);
    info_pack = {w[tiprof_reg_pkg::PM_REC_INFO_PATH_LSB +: tiprof_reg_pkg::PM_REC_INFO_PATH_W],
                 w[tiprof_reg_pkg::PM_REC_INFO_CTX_LSB +: tiprof_reg_pkg::PM_REC_INFO_CTX_W],
                 w[tiprof_reg_pkg::PM_REC_INFO_SLOT_LSB +: tiprof_reg_pkg::PM_REC_INFO_SLOT_W],
                 w[tiprof_reg_pkg::PM_REC_INFO_TAGGED_LSB],
                 w[tiprof_reg_pkg::PM_REC_INFO_PRIV_LSB +: tiprof_reg_pkg::PM_REC_INFO_PRIV_W],
                 w[tiprof_reg_pkg::PM_REC_INFO_REASON_LSB +: tiprof_reg_pkg::PM_REC_INFO_REASON_W],
                 w[tiprof_reg_pkg::PM_REC_INFO_EV_LSB +: tiprof_reg_pkg::PM_REC_INFO_EV_W]};
  endfunction
  function automatic logic [63:0] info_unpack(input logic [InfoW-1:0] b);
    info_unpack = '0;
    {info_unpack[tiprof_reg_pkg::PM_REC_INFO_PATH_LSB +: tiprof_reg_pkg::PM_REC_INFO_PATH_W],
     info_unpack[tiprof_reg_pkg::PM_REC_INFO_CTX_LSB +: tiprof_reg_pkg::PM_REC_INFO_CTX_W],
     info_unpack[tiprof_reg_pkg::PM_REC_INFO_SLOT_LSB +: tiprof_reg_pkg::PM_REC_INFO_SLOT_W],
     info_unpack[tiprof_reg_pkg::PM_REC_INFO_TAGGED_LSB],
     info_unpack[tiprof_reg_pkg::PM_REC_INFO_PRIV_LSB +: tiprof_reg_pkg::PM_REC_INFO_PRIV_W],
     info_unpack[tiprof_reg_pkg::PM_REC_INFO_REASON_LSB +: tiprof_reg_pkg::PM_REC_INFO_REASON_W],
     info_unpack[tiprof_reg_pkg::PM_REC_INFO_EV_LSB +: tiprof_reg_pkg::PM_REC_INFO_EV_W]} = b;
  endfunction

  logic [ProfW-1:0] prof0, prof1;   // a profile's defined bits
  logic unused_rsvd;                // the record words' reserved bits are 0 and not stored

  assign unused_rsvd = ^{info_i[63:55], info_i[127:119], stamp_b_i[63:StampBW], stamp_b_i[127:64+StampBW]};
  assign prof0 = {stamp_b_i[StampBW-1:0], stamp_a_i[63:0], info_pack(info_i[63:0]),
                  ea_i[0 +: XLEN], pc_i[0 +: XLEN]};
  assign prof1 = {stamp_b_i[64 +: StampBW], stamp_a_i[127:64], info_pack(info_i[127:64]),
                  ea_i[XLEN +: XLEN], pc_i[XLEN +: XLEN]};

  always_comb begin
    entry_o = '0;
    entry_o[63:0]  = cycle_i;
    entry_o[64]    = pair_i;
    entry_o[73:65] = pair_i ? dist_i : '0;
    entry_o[89:74] = pair_i ? pair_cycles_i : '0;
    entry_o[90 +: ProfW] = prof0;
    if (Tags > 1 && pair_i) entry_o[EntryW-1 -: ProfW] = prof1;
  end

  // ---------------------------------------------------------------- filters (profile 0)
  logic [15:0] ev0, mask, match;
  logic [15:0] lat, lx, ly;
  logic        lat_valid, tagged0, retired0;
  logic [4:0]  seen0;
  logic [15:0] s_map, s_ready, s_issue, s_cmpl, s_mem, s_end;   // profile 0's stamps
  logic [15:0] thresh;
  logic [2:0]  sel;
  logic        inv;

  assign ev0      = 16'(info_i[tiprof_reg_pkg::PM_REC_INFO_EV_LSB +: tiprof_reg_pkg::PM_REC_INFO_EV_W]);
  assign mask     = evfilt_i[tiprof_reg_pkg::PM_EVFILT_MASK_LSB +: 16];
  assign match    = evfilt_i[tiprof_reg_pkg::PM_EVFILT_MATCH_LSB +: 16];
  assign thresh   = latfilt_i[tiprof_reg_pkg::PM_LATFILT_THRESH_LSB +: 16];
  assign sel      = latfilt_i[tiprof_reg_pkg::PM_LATFILT_SEL_LSB +: 3];
  assign inv      = latfilt_i[tiprof_reg_pkg::PM_LATFILT_INV_LSB];
  assign seen0    = stamp_b_i[tiprof_reg_pkg::PM_REC_STAMP_B_SEEN_LSB +: tiprof_reg_pkg::PM_REC_STAMP_B_SEEN_W];
  assign tagged0  = info_i[tiprof_reg_pkg::PM_REC_INFO_TAGGED_LSB];
  assign retired0 = info_i[tiprof_reg_pkg::PM_REC_INFO_EV_LSB + tiprof_reg_pkg::PM_EV_RETIRED];
  assign s_map    = stamp_a_i[tiprof_reg_pkg::PM_REC_STAMP_A_MAP_LSB +: 16];
  assign s_ready  = stamp_a_i[tiprof_reg_pkg::PM_REC_STAMP_A_READY_LSB +: 16];
  assign s_issue  = stamp_a_i[tiprof_reg_pkg::PM_REC_STAMP_A_ISSUE_LSB +: 16];
  assign s_cmpl   = stamp_a_i[tiprof_reg_pkg::PM_REC_STAMP_A_COMPLETE_LSB +: 16];
  assign s_mem    = stamp_b_i[tiprof_reg_pkg::PM_REC_STAMP_B_MEM_LSB +: 16];
  assign s_end    = stamp_b_i[tiprof_reg_pkg::PM_REC_STAMP_B_END_LSB +: 16];

  // the latency table (stamps of profile 0 are relative to its fetch; x - y saturates at 0)
  always_comb begin
    lx = '0;
    ly = '0;
    lat_valid = 1'b0;
    unique case (sel)
      tiprof_reg_pkg::PM_LAT_TOTAL[2:0]: begin
        lat_valid = tagged0; lx = s_end;
      end
      tiprof_reg_pkg::PM_LAT_FETCH_MAP[2:0]: begin
        lat_valid = seen0[0]; lx = s_map;
      end
      tiprof_reg_pkg::PM_LAT_MAP_READY[2:0]: begin
        lat_valid = seen0[0] && seen0[1]; lx = s_ready; ly = s_map;
      end
      tiprof_reg_pkg::PM_LAT_READY_ISSUE[2:0]: begin
        lat_valid = seen0[1] && seen0[2]; lx = s_issue; ly = s_ready;
      end
      tiprof_reg_pkg::PM_LAT_ISSUE_COMPLETE[2:0]: begin
        lat_valid = seen0[2] && seen0[4]; lx = s_cmpl; ly = s_issue;
      end
      tiprof_reg_pkg::PM_LAT_COMPLETE_RETIRE[2:0]: begin
        lat_valid = seen0[4] && retired0; lx = s_end; ly = s_cmpl;
      end
      tiprof_reg_pkg::PM_LAT_MEM[2:0]: begin
        lat_valid = seen0[3] && seen0[4]; lx = s_cmpl; ly = s_mem;
      end
      default: ;   // SEL = 7 never reaches the register
    endcase
    lat = (lx > ly) ? lx - ly : '0;
    keep_o = (((ev0 ^ match) & mask) == '0) &&
             ((thresh == '0) || (lat_valid && ((lat >= thresh) != inv)));
  end

  // ---------------------------------------------------------------- unpack
  logic [63:0] sinfo;

  always_comb begin
    sinfo = '0;
    sinfo[tiprof_reg_pkg::PM_REC_SINFO_FMT_LSB +: tiprof_reg_pkg::PM_REC_SINFO_FMT_W] =
      head_valid_i ? tiprof_reg_pkg::PM_REC_FMT[3:0] : 4'd0;
    sinfo[tiprof_reg_pkg::PM_REC_SINFO_PAIR_LSB] = head_i[64];
    sinfo[tiprof_reg_pkg::PM_REC_SINFO_PAIR_DIST_LSB +: tiprof_reg_pkg::PM_REC_SINFO_PAIR_DIST_W] = head_i[73:65];
    sinfo[tiprof_reg_pkg::PM_REC_SINFO_PAIR_CYCLES_LSB +: tiprof_reg_pkg::PM_REC_SINFO_PAIR_CYCLES_W] = head_i[89:74];
  end

  // Profile p's words, in place in the record (Icarus 11's always @* does not wake up on an
  // unpacked array, so no per-profile array: one function applied in the process).
  function automatic logic [64*Words-1:0] prof_words(input logic [ProfW-1:0] pr, input int p);
    prof_words = '0;
    prof_words[(tiprof_reg_pkg::PM_REC_PC_IDX + p*Stride)*64 +: 64]      = 64'(pr[0 +: XLEN]);
    prof_words[(tiprof_reg_pkg::PM_REC_EA_IDX + p*Stride)*64 +: 64]      = 64'(pr[XLEN +: XLEN]);
    prof_words[(tiprof_reg_pkg::PM_REC_INFO_IDX + p*Stride)*64 +: 64]    = info_unpack(pr[2*XLEN +: InfoW]);
    prof_words[(tiprof_reg_pkg::PM_REC_STAMP_A_IDX + p*Stride)*64 +: 64] = pr[2*XLEN + InfoW +: 64];
    prof_words[(tiprof_reg_pkg::PM_REC_STAMP_B_IDX + p*Stride)*64 +: 64] = 64'(pr[2*XLEN + InfoW + 64 +: StampBW]);
  endfunction

  always_comb begin
    words_o = '0;
    words_o[tiprof_reg_pkg::PM_REC_CYCLE_IDX*64 +: 64] = head_i[63:0];
    words_o[tiprof_reg_pkg::PM_REC_SINFO_IDX*64 +: 64] = sinfo;
    for (int p = 0; p < Tags; p++) words_o = words_o | prof_words(head_i[90 + p*ProfW +: ProfW], p);
  end

endmodule
