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
