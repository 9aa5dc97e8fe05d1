# SPDX-License-Identifier: Apache-2.0
# sim/policy/policy.mk - the profiler policies and the profile error (sim/policy, linked into
# `tiprof accuracy` by sim/cmd/cmd.mk) and their tests (tests/sim/policy): the directed tests of
# the Dispatch and Software policies (under AddressSanitizer/UBSan), then `tiprof accuracy` on
# real workloads and the RTL on a workload's recorded ROB stream (tests/sim/policy/run.sh).
## test-accuracy: every policy against two Oracles on the workloads; TIP = ideal sampler; RTL on a workload's ROB trace
ACC_TFE      := $(BUILD)/accuracy/test_fe_policies

.PHONY: test-accuracy
TEST_TARGETS += test-accuracy

$(ACC_TFE): tests/sim/policy/test_fe_policies.c sim/policy/fe_policies.c sim/policy/fe_policies.h \
	    sim/policy/profile.c sim/policy/profile.h $(SYMBOL_LIB) $(ISA_LIB)
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) -Isim/policy $(SYMBOL_CFLAGS) -o $@ $< sim/policy/fe_policies.c \
	  sim/policy/profile.c $(SYMBOL_LIB) $(ISA_LIB)

test-accuracy: $(BUILD)/bin/tiprof $(WORKLOAD_BINS) $(BUILD)/vtip/4-64-8/Vtiprof_tb $(ACC_TFE)
	@echo "== test-accuracy: policies against two Oracles on workloads, RTL on a workload trace"
	@$(ACC_TFE)
	@BUILD=$(BUILD) tests/sim/policy/run.sh
