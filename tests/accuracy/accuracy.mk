# tests/accuracy/accuracy.mk - `tiprof accuracy` on real workloads and the RTL on a workload's
# recorded ROB stream (tests/accuracy/run.sh).
.PHONY: test-accuracy
TEST_TARGETS += test-accuracy
test-accuracy: $(BUILD)/bin/tiprof $(WORKLOAD_BINS) $(BUILD)/vtip/4-64-8/Vtiprof_tb
	@echo "== test-accuracy: policies against two Oracles on workloads, RTL on a workload trace"
	@BUILD=$(BUILD) tests/accuracy/run.sh
