# tests/accuracy/accuracy.mk - `tiprof accuracy` on real workloads and the RTL on a workload's
# recorded ROB stream (tests/accuracy/run.sh), after the directed tests of the Dispatch and
# Software policies (tests/accuracy/test_fe_policies.c, under AddressSanitizer/UBSan).
ACC_SANFLAGS ?= -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ACC_TFE      := $(BUILD)/accuracy/test_fe_policies

.PHONY: test-accuracy
TEST_TARGETS += test-accuracy

$(ACC_TFE): tests/accuracy/test_fe_policies.c sim/policy/fe_policies.c sim/policy/fe_policies.h \
	    sim/policy/profile.c sim/policy/profile.h
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(ACC_SANFLAGS) -Isim/policy -o $@ $< sim/policy/fe_policies.c \
	  sim/policy/profile.c

test-accuracy: $(BUILD)/bin/tiprof $(WORKLOAD_BINS) $(BUILD)/vtip/4-64-8/Vtiprof_tb $(ACC_TFE)
	@echo "== test-accuracy: policies against two Oracles on workloads, RTL on a workload trace"
	@$(ACC_TFE)
	@BUILD=$(BUILD) tests/accuracy/run.sh
