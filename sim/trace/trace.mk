# SPDX-License-Identifier: Apache-2.0
# sim/trace/trace.mk - ROB traces: the compact per-cycle ROB-interface file (docs/rob-trace.md;
# `tiprof trace` info/dump/VCD export is sim/cmd/cmd-trace.c), and their tests (tests/sim/trace),
# including recording a random run of the RTL harness and replaying the trace through the RTL.
## test-trace: ROB trace format; record a workload's ROB stream and replay it through the RTL; VCD export

TRACE_DIR    := sim/trace
TRACE_LIB    := $(BUILD)/trace/libtiprof_trace.a
TRACE_CFLAGS := -I$(TRACE_DIR)

CFLAGS_sim/trace = $(TRACE_CFLAGS)

$(TRACE_LIB): $(call obj,$(TRACE_DIR)/rob_trace.c)
	@mkdir -p $(@D)
	@echo "  AR      $@"
	@rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/trace/test_rob_trace: tests/sim/trace/test_rob_trace.c $(TRACE_LIB)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(TRACE_CFLAGS) -o $@ $< $(TRACE_LIB)

.PHONY: test-trace
TEST_TARGETS += test-trace
test-trace: $(BUILD)/trace/test_rob_trace $(TIPROF_BIN) $(BUILD)/vtip/4-64-8/Vtiprof_tb $(BUILD)/vtip/2-64-16/Vtiprof_tb \
            $(BUILD)/bin/tiprof $(BUILD)/workloads/quicksort
	@echo "== test-trace: ROB trace format, record and replay through the RTL, VCD export"
	@$(BUILD)/trace/test_rob_trace $(BUILD)/trace
	@BUILD=$(BUILD) VCD2FST=$(VCD2FST) tests/sim/trace/replay.sh
