# SPDX-License-Identifier: Apache-2.0
# sim/core/core.mk - the out-of-order timing model (sim/core) and the Oracle (sim/oracle) as
# $(CORE_LIB), their test harness and mechanism microbenchmarks (tests/sim/core). Included by
# the top Makefile after sim/iss/iss.mk, sim/workloads/workloads.mk and sim/model/model.mk
# and before sw/sw.mk (which adds `tiprof sim` when CORE_LIB is defined);
# uses CC, CROSS_COMPILE, BUILD, ALL_CFLAGS, ISS_*/ISA_*, TIPMODEL_*, WORKLOAD_* and appends
# to TEST_TARGETS and BENCH_TARGETS.
#   test-core    mechanism microbenchmarks, Oracle unit test, ROB-interface contract and
#                exact Oracle accounting on every workload (small size, all configurations),
#                TIP model driven by the core and compared with the Oracle, a run under
#                ASan/UBSan, `tiprof sim` (~20 s)
#   bench-core   simulation speed (cycles/s) of the 4-wide model, and IPC and cycle stack of
#                every workload at its small and default size (docs/core.md records them)

CORE_DIR   := sim/core
ORACLE_DIR := sim/oracle
CORE_OUT   := $(BUILD)/core
CORE_LIB   := $(CORE_OUT)/libtiprof_core.a
CORE_INC   := -I$(CORE_DIR) -I$(ORACLE_DIR) $(ISS_INC) $(SAMPLE_CFLAGS)
CORE_HDRS  := $(CORE_DIR)/core.h $(ORACLE_DIR)/oracle.h $(ISS_HDRS) include/tiprof/tiprof_regs.h
# Everything a program using the core links, in order.
CORE_LIBS  := $(CORE_LIB) $(SAMPLE_LIB) $(ISS_LIB) $(ISA_LIB) -lm
# What $(BUILD)/bin/tiprof depends on for `tiprof sim` (sw/sw.mk); the stamp is new when
# this fragment is first included, so an older tiprof without `sim` is rebuilt.
CORE_SIM_STAMP := $(CORE_OUT)/tiprof-sim.stamp
CORE_TIPROF_DEPS := $(CORE_HDRS) $(CORE_LIB) $(ISS_LIB) $(ISA_LIB) $(CORE_SIM_STAMP)
CORE_TEST_DIR := tests/sim/core
CORE_RUN   := $(CORE_OUT)/core-run
CORE_RV_BINS := $(CORE_OUT)/rv/ubench $(CORE_OUT)/rv/illegal

## core: build the out-of-order timing model and the Oracle (build/core/libtiprof_core.a)
## test-core: timing-model mechanisms, ROB-interface contract, exact Oracle accounting on every workload, under ASan/UBSan too
## bench-core: simulation speed of the 4-wide model; IPC and cycle stack of every workload
.PHONY: core test-core bench-core
TEST_TARGETS  += test-core
BENCH_TARGETS += bench-core

core: $(CORE_LIB)

CFLAGS_sim/core   = $(CORE_INC)
CFLAGS_sim/oracle = $(CORE_INC)

$(CORE_LIB): $(call obj,$(CORE_DIR)/core.c $(CORE_DIR)/core_pm.c $(CORE_DIR)/core_sd.c \
			   $(ORACLE_DIR)/oracle.c)
	@mkdir -p $(@D)
	@echo "  AR      $@"
	@rm -f $@ && $(AR) rcs $@ $^

$(CORE_SIM_STAMP):
	@mkdir -p $(@D)
	@touch $@

$(CORE_RUN): $(CORE_TEST_DIR)/core_run.c $(CORE_HDRS) $(CORE_LIB) $(ISS_LIB) $(ISA_LIB) $(TIPMODEL_LIB)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(CORE_INC) $(TIPMODEL_CFLAGS) -o $@ $< $(TIPMODEL_LIB) $(CORE_LIBS)

# The Oracle's unit test, under AddressSanitizer/UBSan.
$(CORE_OUT)/test_oracle: $(CORE_TEST_DIR)/test_oracle.c $(ORACLE_DIR)/oracle.c $(ORACLE_DIR)/oracle.h \
			 lib/sample/oracle_profile.c lib/sample/oracle_profile.h
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) $(CORE_INC) -o $@ $< $(ORACLE_DIR)/oracle.c \
	  lib/sample/oracle_profile.c

# The harness with the model, the Oracle and the TIP model under ASan/UBSan.
$(CORE_OUT)/core-run-san: $(CORE_TEST_DIR)/core_run.c $(CORE_DIR)/core.c $(CORE_DIR)/core_pm.c \
			  $(CORE_DIR)/core_sd.c \
			  $(CORE_DIR)/core_int.h $(ORACLE_DIR)/oracle.c \
			  $(CORE_HDRS) $(TIPMODEL_HDRS) $(ISS_LIB) $(ISA_LIB)
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) $(CORE_INC) $(TIPMODEL_CFLAGS) -o $@ $< \
	  $(CORE_DIR)/core.c $(CORE_DIR)/core_pm.c $(CORE_DIR)/core_sd.c $(ORACLE_DIR)/oracle.c \
	  lib/sample/oracle_profile.c \
	  $(TIPMODEL_DIR)/tip_model.c $(ISS_LIB) $(ISA_LIB) -lm

$(CORE_OUT)/rv/%: $(CORE_TEST_DIR)/%.c
	@mkdir -p $(@D)
	@echo "  RVCC    $@"
	@$(CROSS_COMPILE)gcc -std=c11 -O2 -static -Wall -Wextra -Werror -o $@ $<

test-core: $(CORE_RUN) $(CORE_OUT)/core-run-san $(CORE_OUT)/test_oracle $(CORE_RV_BINS) $(WORKLOAD_BINS) $(BUILD)/bin/tiprof
	@echo "== test-core: timing-model mechanisms, ROB contract, Oracle accounting"
	@RUN=$(CORE_RUN) UB=$(CORE_OUT)/rv/ubench ILLEGAL=$(CORE_OUT)/rv/illegal \
		WL_OUT=$(WL_OUT) TIPROF=$(BUILD)/bin/tiprof \
		TEST_ORACLE=$(CORE_OUT)/test_oracle RUN_SAN=$(CORE_OUT)/core-run-san \
		WORKLOAD_SMALL="$(WORKLOAD_SMALL)" $(CORE_TEST_DIR)/run-tests.sh

bench-core: $(CORE_RUN) $(WORKLOAD_BINS)
	@echo "== bench-core: speed of the 4-wide model and the workload table"
	@RUN=$(CORE_RUN) WL_OUT=$(WL_OUT) WORKLOAD_SMALL="$(WORKLOAD_SMALL)" \
		$(CORE_TEST_DIR)/bench.sh

# ---- selective dispatch (Xtpsd) on the core model: docs/core.md "Selective dispatch" ----
## test-seldisp-core: Xtpsd programs on the core model in every selective-dispatch mode (plain, filter, 3 branch strategies, flag predictor): output = ISS, ROB contract, filtered never in the ROB; exact BDT mispredictions, filter drops, strategies, poppf hazard
## bench-seldisp-core: cycles of sd_count, quicksort instrumented by hand (sd_qsort) and sd_core with plain instrumentation, the decode filter, + each branch strategy, + the profile flag predictor, profiling on and off
.PHONY: test-seldisp-core bench-seldisp-core
TEST_TARGETS  += test-seldisp-core
BENCH_TARGETS += bench-seldisp-core
SDC_DIR  := tests/sim/seldisp
SDC_CORE := $(CORE_OUT)/rv/sd_core
# quicksort instrumented by hand (block and call-graph counters), and its build without them
SDC_QS   := $(CORE_OUT)/rv/sd_qsort $(CORE_OUT)/rv/sd_qsort_none

$(SDC_CORE): $(SDC_DIR)/sd_core.S include/tiprof/seldisp.h
	@mkdir -p $(@D)
	@echo "  RVAS    $@"
	@$(CROSS_COMPILE)gcc -Iinclude -nostdlib -static -o $@ $<
$(CORE_OUT)/rv/sd_qsort: $(SDC_DIR)/sd_qsort.c include/tiprof/seldisp.h $(WL_DIR)/wl.h
	@mkdir -p $(@D)
	@echo "  RVCC    $@"
	@$(CROSS_COMPILE)gcc -std=c11 -O2 -static -Wall -Wextra -Werror -Iinclude -I$(WL_DIR) -o $@ $<
$(CORE_OUT)/rv/sd_qsort_none: $(SDC_DIR)/sd_qsort.c include/tiprof/seldisp.h $(WL_DIR)/wl.h
	@mkdir -p $(@D)
	@echo "  RVCC    $@"
	@$(CROSS_COMPILE)gcc -std=c11 -O2 -static -Wall -Wextra -Werror -Iinclude -I$(WL_DIR) \
	  -DSD_NONE -o $@ $<

test-seldisp-core: $(CORE_RUN) $(CORE_OUT)/core-run-san $(SDC_CORE) $(SDC_QS) $(WORKLOAD_BINS) \
		   $(BUILD)/iss/sd/sd_count \
		   $(BUILD)/iss/sd/sd_asm $(BUILD)/bin/tiprof
	@echo "== test-seldisp-core: selective dispatch on the core model"
	@RUN=$(CORE_RUN) RUN_SAN=$(CORE_OUT)/core-run-san TIPROF=$(BUILD)/bin/tiprof \
		SD_COUNT=$(BUILD)/iss/sd/sd_count SD_ASM=$(BUILD)/iss/sd/sd_asm SD_CORE=$(SDC_CORE) \
		SD_QSORT=$(CORE_OUT)/rv/sd_qsort WL_OUT=$(WL_OUT) WORKLOAD_SMALL="$(WORKLOAD_SMALL)" \
		$(SDC_DIR)/run-tests.sh

bench-seldisp-core: $(CORE_RUN) $(SDC_CORE) $(SDC_QS) $(BUILD)/iss/sd/sd_count \
		    $(BUILD)/iss/sd/sd_count_none
	@echo "== bench-seldisp-core: cycles per selective-dispatch mode"
	@RUN=$(CORE_RUN) SD_COUNT=$(BUILD)/iss/sd/sd_count SD_CORE=$(SDC_CORE) \
		SD_QSORT=$(CORE_OUT)/rv/sd_qsort \
		$(SDC_DIR)/bench.sh
