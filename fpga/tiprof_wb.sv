// SPDX-License-Identifier: Apache-2.0
// tiprof_wb: the unit's CSR port behind a Wishbone B4 (classic) slave, for soft cores in an
// SoC where adding CSRs to the core is hard (LiteX with VexRiscv or NaxRiscv: the unit is an
// ordinary LiteX peripheral on the main bus). docs/fpga.md "The MMIO wrapper".
//
// Address map (byte addresses inside the slave's window, data width = XLEN):
//   adr = {m, csr[11:0], 0...}: word index = {m, csr}, one XLEN-bit word per CSR number,
//   so CSR c of the S window is at byte offset c * XLEN/8, and at 4096 * XLEN/8 + c * XLEN/8 in
//   the M window. An access through the S window is made with privilege S (csr_priv_i = 1),
//   through the M window with privilege M (3): firmware (M mode) programs TIP_MENABLE through
//   the M window and keeps the window out of the OS's reach with a PMP entry, as it keeps the
//   M-mode CSRs; the OS maps the S window only. The register map, the access rules and the
//   reset values are the unit's (docs/registers.md): an access the unit calls illegal ends
//   with err_o instead of ack_o (reads 0, changes nothing), which the core turns into a
//   load/store access fault.
// Only whole-word accesses: sel_i must be all ones, else err_o and no access reaches the unit.
// Timing: the unit's port is sampled in the cycle cyc & stb (a single-cycle request); the read
// data and the verdict are registered and ack_o/err_o rise the next cycle (one wait state), so
// the bus adds no combinational path into the unit.
module tiprof_wb #(
  parameter int XLEN = 32            // [32,64] = the Wishbone data width
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Wishbone slave (word address: the byte address without its log2(XLEN/8) low bits)
  input  logic                 wb_cyc_i,
  input  logic                 wb_stb_i,
  input  logic                 wb_we_i,
  input  logic [12:0]          wb_adr_i,   // {m, csr[11:0]}
  input  logic [XLEN/8-1:0]    wb_sel_i,
  input  logic [XLEN-1:0]      wb_dat_i,
  output logic [XLEN-1:0]      wb_dat_o,
  output logic                 wb_ack_o,
  output logic                 wb_err_o,
  // to the unit's CSR port
  output logic                 csr_req_o,
  output logic                 csr_we_o,
  output logic [11:0]          csr_addr_o,
  output logic [XLEN-1:0]      csr_wdata_o,
  output logic [1:0]           csr_priv_o,
  input  logic [XLEN-1:0]      csr_rdata_i,
  input  logic                 csr_illegal_i
);
  logic busy_q;          // ack or err this cycle: the request was served
  logic whole;

  assign whole       = &wb_sel_i;
  assign csr_req_o   = wb_cyc_i && wb_stb_i && !busy_q && whole;
  assign csr_we_o    = wb_we_i;
  assign csr_addr_o  = wb_adr_i[11:0];
  assign csr_wdata_o = wb_dat_i;
  assign csr_priv_o  = wb_adr_i[12] ? 2'b11 : 2'b01;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q   <= 1'b0;
      wb_ack_o <= 1'b0;
      wb_err_o <= 1'b0;
      wb_dat_o <= '0;
    end else begin
      busy_q   <= wb_cyc_i && wb_stb_i && !busy_q;
      wb_ack_o <= csr_req_o && !csr_illegal_i;
      wb_err_o <= wb_cyc_i && wb_stb_i && !busy_q && (!whole || csr_illegal_i);
      wb_dat_o <= (csr_req_o && !csr_we_o && !csr_illegal_i) ? csr_rdata_i : '0;
    end
  end
endmodule
