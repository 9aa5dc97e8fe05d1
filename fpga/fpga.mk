# SPDX-License-Identifier: Apache-2.0
# fpga/fpga.mk - synthesis: Yosys area table for W = 1, 2, 4, 8 at XLEN = 64, flip-flops per
# component and storage outside the FIFO, and iCE40 place-and-route maximum frequency.
SYNTH_FIFO_DEPTH ?= 8
## synth-table: the synthesis table alone (make synth installs the packages first)
.PHONY: synth-table
SYNTH_TARGETS += synth-table
synth-table:
	@echo "== synth: Yosys $(shell $(YOSYS) -V 2>/dev/null | cut -d' ' -f2), FIFO depth $(SYNTH_FIFO_DEPTH)"
	@YOSYS=$(YOSYS) NEXTPNR_ICE40=$(NEXTPNR_ICE40) fpga/synth.sh $(SYNTH_FIFO_DEPTH)

# The Wishbone wrapper (fpga/tiprof_wb.sv) with the unit behind it: its self-checking bench on
# Icarus, then the same bench on three planted bugs in a copy of the wrapper, each of which must
# fail it (docs/fpga.md section 3).
FPGA_OUT    := $(BUILD)/fpga
FPGA_WB_SRC := fpga/tiprof_wb.sv fpga/tiprof_wb_unit.sv tests/fpga/tb_tiprof_wb.sv
FPGA_RTL     = $(shell grep -v '^//' rtl/tiprof.f)
## test-fpga-wb: the Wishbone wrapper + unit bench on Icarus (register map, access rules, ack/err timing, sampling end to end) and 3 planted wrapper bugs it must catch
.PHONY: test-fpga-wb
TEST_TARGETS += test-fpga-wb
test-fpga-wb:
	@mkdir -p $(FPGA_OUT)
	@echo "== test-fpga-wb: fpga/tiprof_wb.sv on Icarus (tests/fpga/tb_tiprof_wb.sv)"
	@$(IVERILOG) -g2012 -Irtl -o $(FPGA_OUT)/tb_wb -s tb_tiprof_wb $(FPGA_RTL) $(FPGA_WB_SRC) \
	  >$(FPGA_OUT)/tb_wb.log 2>&1 || { cat $(FPGA_OUT)/tb_wb.log; exit 1; }
	@$(VVP) $(FPGA_OUT)/tb_wb | grep -E '^tb_tiprof_wb: [0-9]+ passed, 0 failed$$' \
	  || { $(VVP) $(FPGA_OUT)/tb_wb | tail -3; exit 1; }
	@set -e; n=0; for m in "s/2'b11 : 2'b01/2'b11 : 2'b11/" \
	    "s/busy_q   <= wb_cyc_i \&\& wb_stb_i \&\& !busy_q;/busy_q   <= 1'b0;/" \
	    "s/(!whole || csr_illegal_i)/(!whole)/"; do \
	  n=$$((n + 1)); sed "$$m" fpga/tiprof_wb.sv >$(FPGA_OUT)/wb_mut$$n.sv; \
	  cmp -s fpga/tiprof_wb.sv $(FPGA_OUT)/wb_mut$$n.sv && { echo "  FAIL  mutant $$n did not apply: $$m"; exit 1; }; \
	  $(IVERILOG) -g2012 -Irtl -o $(FPGA_OUT)/tb_wb_mut$$n -s tb_tiprof_wb $(FPGA_RTL) \
	    $(FPGA_OUT)/wb_mut$$n.sv fpga/tiprof_wb_unit.sv tests/fpga/tb_tiprof_wb.sv >/dev/null 2>&1; \
	  if $(VVP) $(FPGA_OUT)/tb_wb_mut$$n 2>&1 | grep -q '0 failed'; then \
	    echo "  FAIL  planted bug $$n not caught: $$m"; exit 1; fi; \
	  echo "  ok    planted bug $$n caught: $$($(VVP) $(FPGA_OUT)/tb_wb_mut$$n 2>&1 | grep -m1 -o 'FAIL.*')"; \
	done

## fpga-pnr: the Wishbone peripheral on an iCE40 HX8K: synth_ice40, nextpnr-ice40, icepack, icetime (fpga/pnr.sh; figures in docs/fpga.md)
.PHONY: fpga-pnr
fpga-pnr:
	@fpga/pnr.sh
