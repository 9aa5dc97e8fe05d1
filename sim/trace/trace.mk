# sim/trace/trace.mk - ROB traces: the compact per-cycle ROB-interface file (docs/rob-trace.md),
# the tiprof-trace tool (info, dump, VCD export), and their tests, including recording a random
# run of the RTL harness and replaying the trace through the RTL again.

TRACE_DIR    := sim/trace
TRACE_LIB    := $(BUILD)/trace/libtiprof_trace.a
TRACE_CFLAGS := -I$(TRACE_DIR)

$(BUILD)/trace/rob_trace.o: $(TRACE_DIR)/rob_trace.c $(TRACE_DIR)/rob_trace.h include/tiprof/tiprof_regs.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(TRACE_CFLAGS) -c -o $@ $<

$(TRACE_LIB): $(BUILD)/trace/rob_trace.o
	@rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/bin/tiprof-trace: $(TRACE_DIR)/tiprof_trace.c $(TRACE_LIB) $(VCD_LIB)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(TRACE_CFLAGS) $(VCD_CFLAGS) -o $@ $< $(TRACE_LIB) $(VCD_LIB)

$(BUILD)/trace/test_rob_trace: $(TRACE_DIR)/tests/test_rob_trace.c $(TRACE_LIB)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(TRACE_CFLAGS) -o $@ $< $(TRACE_LIB)

.PHONY: test-trace
TEST_TARGETS += test-trace
test-trace: $(BUILD)/trace/test_rob_trace $(BUILD)/bin/tiprof-trace $(BUILD)/vtip/4-64-8/Vtiprof_tb $(BUILD)/vtip/2-64-16/Vtiprof_tb \
            $(BUILD)/bin/tiprof $(BUILD)/workloads/quicksort
	@echo "== test-trace: ROB trace format, record and replay through the RTL, VCD export"
	@$(BUILD)/trace/test_rob_trace
	@BUILD=$(BUILD) VCD2FST=$(VCD2FST) $(TRACE_DIR)/tests/replay.sh
