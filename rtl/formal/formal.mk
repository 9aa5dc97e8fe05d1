# SPDX-License-Identifier: Apache-2.0
# rtl/formal/formal.mk - bounded model check of the TIP unit (Yosys + yosys-smtbmc + z3).
# Not in TEST_TARGETS: it takes about 10 minutes on the project's 2-core machine.
FORMAL_DEPTH ?= 10

## formal: bounded proofs of the TIP unit (W=2 XLEN=32 FIFO 3; no lost sample, FIFO order, OIR, state selection) and planted bugs that must fail
.PHONY: formal
formal:
	@YOSYS=$(YOSYS) rtl/formal/formal.sh $(FORMAL_DEPTH)
