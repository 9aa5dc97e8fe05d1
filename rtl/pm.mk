# SPDX-License-Identifier: Apache-2.0
# rtl/pm.mk - RTL verification of the ProfileMe subsystem (docs/profileme.md "RTL",
# docs/verification.md): the C harness of tests/rtl/pm/ over DPI-C (Verilator, with --assert) and
# VPI (Icarus), random differential runs against the C model (sim/model/pm_model.c) and the
# directed scenes; lint configurations; planted bugs. Included by rtl/rtl.mk.

PM_DIR      := tests/rtl/pm
PM_TB_SV    := $(PM_DIR)/tiprof_pm_tb.sv
PM_TB_SRCS  := $(PM_DIR)/pm_harness.c
PM_TB_HDRS  := $(PM_DIR)/pm_harness.h $(PM_DIR)/pm_directed.c $(PM_DIR)/pm_core.c \
               $(PM_DIR)/tiprof_pm_wire.svh include/tiprof/tiprof_pm_wire.h $(PMMODEL_HDRS) \
               $(CORE_HDRS)
PM_CFLAGS    = $(ALL_CFLAGS) $(TIPMODEL_CFLAGS) $(CORE_INC) -I$(PM_DIR)
# The model-only runner and the Icarus (VPI) bridge are built without the core bench.
PM_NOCORE    = -DPM_TB_NO_CORE

# ProfileMe configurations linted by lint-rtl: pF-XLEN-DEPTH-TAGS[-s] (the unit with PmF = F).
PM_LINT_CONFIGS := p1-32-1-1 p2-64-16-2 p4-64-8-2 p8-64-3-2 p4-32-2-2-s p8-32-5-1
# Differential configurations F-XLEN-DEPTH-TAGS[-s] (-s: the unit's input stage): every F, both
# XLEN, FIFO depths 1..16, one and two tag ids, with and without the stage.
PM_CONFIGS  := 1-32-1-1 2-64-16-2 4-64-8-2 8-64-3-2 4-32-2-2-s 8-32-5-1
PM_RANDOM_CYCLES ?= 1700000
PM_SEED     ?= $(shell date +%s)
PM_OUT      := $(BUILD)/pm/logs
PM_ASSERT   ?= --assert

pmc_f = $(word 1,$(subst -, ,$(1)))
pmc_x = $(word 2,$(subst -, ,$(1)))
pmc_d = $(word 3,$(subst -, ,$(1)))
pmc_t = $(word 4,$(subst -, ,$(1)))
pmc_s = $(if $(filter s,$(word 5,$(subst -, ,$(1)))),1,0)

## test-pm: ProfileMe RTL against the C model every cycle: test-pm-model, test-pm-verilator, test-pm-icarus
## test-pm-model: the ProfileMe benches on the C model alone (loopback)
## test-pm-verilator: directed scenes and random differential runs (~10 M cycles) on six Verilator builds with assertions, and a RISC-V program on the core model driving the unit live (contract assertions on) on the F = 4 / 8 builds
## test-pm-icarus: the same benches on Icarus (VPI), shorter random runs
.PHONY: test-pm test-pm-model test-pm-verilator test-pm-icarus
TEST_TARGETS += test-pm

$(BUILD)/pm/pm_run_model: $(PM_DIR)/pm_run_model.c $(PM_TB_SRCS) $(PM_TB_HDRS) $(PMMODEL_LIB)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(PM_CFLAGS) $(PM_NOCORE) -o $@ $(PM_DIR)/pm_run_model.c $(PM_TB_SRCS) $(PMMODEL_LIB)

# 1. verilate (generates Vtiprof_pm_tb__Dpi.h), 2. compile the harness against it, 3. build.
$(BUILD)/vpm/%/Vtiprof_pm_tb: $(TIP_RTL) $(PM_TB_SV) rtl/lint/verilator.vlt $(PM_DIR)/pm_dpi.c \
			      $(PM_TB_SRCS) $(PM_TB_HDRS) $(PMMODEL_LIB) $(TIP_CORE_LIBS)
	@echo "  VERILATE ProfileMe F=$(call pmc_f,$*) XLEN=$(call pmc_x,$*) DEPTH=$(call pmc_d,$*) TAGS=$(call pmc_t,$*) STAGE=$(call pmc_s,$*)"
	@rm -rf $(@D) && mkdir -p $(@D)/harness
	@$(VERILATOR) --cc --exe --main --timing -O3 --x-assign fast --x-initial fast $(PM_ASSERT) \
	  -Wno-fatal -Mdir $(@D) --top-module tiprof_pm_tb -I$(PM_DIR) -LDFLAGS -lm \
	  -GPMF=$(call pmc_f,$*) -GXLEN=$(call pmc_x,$*) -GDEPTH=$(call pmc_d,$*) \
	  -GTAGS=$(call pmc_t,$*) -GSTAGE=$(call pmc_s,$*) \
	  rtl/lint/verilator.vlt $(TIP_RTL) $(PM_TB_SV) \
	  $(abspath $(@D)/harness/libpm_tb.a) $(abspath $(PMMODEL_LIB)) $(abspath $(TIP_CORE_LIBS)) \
	  > $(@D)/verilate.log 2>&1 || { cat $(@D)/verilate.log; exit 1; }
	@for f in $(PM_DIR)/pm_dpi.c $(PM_TB_SRCS); do \
	  $(CC) $(PM_CFLAGS) -I$(@D) -I$(VLT_INC)/vltstd -c -o $(@D)/harness/$$(basename $$f .c).o $$f \
	  || exit 1; done
	@$(AR) rcs $(@D)/harness/libpm_tb.a $(@D)/harness/*.o
	@$(MAKE) -s -C $(@D) -f Vtiprof_pm_tb.mk OPT_FAST=-O2 OPT_SLOW=-O1 > $(@D)/build.log 2>&1 \
	  || { tail -30 $(@D)/build.log; exit 1; }

$(BUILD)/ipm/tiprof_pm_vpi.vpi: $(PM_DIR)/pm_vpi.c tests/include/tvpi.h $(PM_TB_SRCS) $(PM_TB_HDRS) \
				sim/model/pm_model.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(PM_CFLAGS) $(PM_NOCORE) -Itests/include -I$(VLT_INC)/vltstd -fPIC -shared -o $@ \
	  $(PM_DIR)/pm_vpi.c \
	  $(PM_TB_SRCS) \
	  sim/model/pm_model.c -lm

$(BUILD)/ipm/%.vvp: $(TIP_IRTL) $(PM_TB_SV) $(PM_DIR)/tiprof_pm_wire.svh
	@mkdir -p $(@D)
	@echo "  IVERILOG ProfileMe F=$(call pmc_f,$*) XLEN=$(call pmc_x,$*) DEPTH=$(call pmc_d,$*) TAGS=$(call pmc_t,$*) STAGE=$(call pmc_s,$*)"
	@$(IVERILOG) -g2012 -DTIPROF_VPI -I$(PM_DIR) -o $@ -s tiprof_pm_tb \
	  -Ptiprof_pm_tb.PMF=$(call pmc_f,$*) -Ptiprof_pm_tb.XLEN=$(call pmc_x,$*) \
	  -Ptiprof_pm_tb.DEPTH=$(call pmc_d,$*) -Ptiprof_pm_tb.TAGS=$(call pmc_t,$*) \
	  -Ptiprof_pm_tb.STAGE=$(call pmc_s,$*) $(TIP_IRTL) $(PM_TB_SV) > $@.log 2>&1 \
	  || { cat $@.log; exit 1; }

PM_VBINS := $(foreach c,$(PM_CONFIGS),$(BUILD)/vpm/$(c)/Vtiprof_pm_tb)
PM_IVVPS := $(foreach c,$(PM_CONFIGS),$(BUILD)/ipm/$(c).vvp)

test-pm-model: $(BUILD)/pm/pm_run_model
	@mkdir -p $(PM_OUT)
	@PM_OUT=$(PM_OUT) PM_SEED=$(PM_SEED) PM_CONFIGS="$(PM_CONFIGS)" $(PM_DIR)/run.sh model $(BUILD)/pm/pm_run_model

test-pm-verilator: $(PM_VBINS) $(WORKLOAD_BINS)
	@mkdir -p $(PM_OUT)
	@PM_OUT=$(PM_OUT) PM_SEED=$(PM_SEED) PM_RANDOM_CYCLES=$(PM_RANDOM_CYCLES) \
	  PM_CORE_ELF=$(WL_OUT)/quicksort PM_CORE_ARGS=3000 \
	  PM_CONFIGS="$(PM_CONFIGS)" $(PM_DIR)/run.sh verilator $(BUILD)/vpm

test-pm-icarus: $(BUILD)/ipm/tiprof_pm_vpi.vpi $(PM_IVVPS)
	@mkdir -p $(PM_OUT)
	@PM_OUT=$(PM_OUT) PM_SEED=$(PM_SEED) VVP=$(VVP) PM_CONFIGS="$(PM_CONFIGS)" \
	  $(PM_DIR)/run.sh icarus $(BUILD)/ipm

test-pm: test-pm-model test-pm-verilator test-pm-icarus

## test-pm-mutants: 10 planted ProfileMe RTL bugs (tests/rtl/pm/mutants.txt) at F=4 XLEN=64 FIFO 8, each must be killed by a bench or an assertion
.PHONY: test-pm-mutants
PM_MUT_CFG := 4-64-8-2
test-pm-mutants: $(BUILD)/vpm/$(PM_MUT_CFG)/Vtiprof_pm_tb
	@echo "== test-pm-mutants: planted ProfileMe RTL bugs must be caught"
	@$(PM_DIR)/mutate.sh "$(VERILATOR)" $(BUILD)/vpm $(PM_MUT_CFG) $(abspath $(PMMODEL_LIB))

# ------------------------------------------------------------------ code coverage
## test-pm-coverage: line and toggle coverage of the ProfileMe RTL (a separate 4-64-8-2 coverage build) over the directed scenes and a random differential run, per module, floor enforced
# The coverage build is the Verilator build above, made by a sub-make under its own BUILD with
# the coverage flags and the counter dump bound into the testbench (tests/rtl/coverage_dump.sv).
# Not in `make test` (the coverage build takes ~2 min of CPU); measured figures and the uncovered
# points in docs/verification.md "ProfileMe".
.PHONY: test-pm-coverage
PM_COV_CFG    := 4-64-8-2
PM_COV_CYCLES ?= 600000
PM_COV_BUILD  := $(BUILD)/cpm
PM_COV_SV     := $(TIP_DIR)/coverage_dump.sv $(PM_DIR)/coverage_bind_pm.sv
$(PM_COV_BUILD)/vpm/$(PM_COV_CFG)/Vtiprof_pm_tb: $(TIP_RTL) $(PM_TB_SV) $(PM_COV_SV) \
		$(TIP_DIR)/coverage_dump.cpp $(PM_DIR)/pm_dpi.c $(PM_TB_SRCS) $(PM_TB_HDRS)
	@$(MAKE) -s BUILD=$(PM_COV_BUILD) PM_ASSERT="--assert --coverage-line --coverage-toggle" \
	  PM_TB_SV="$(PM_TB_SV) $(PM_COV_SV) $(abspath $(TIP_DIR)/coverage_dump.cpp)" $@
test-pm-coverage: $(PM_COV_BUILD)/vpm/$(PM_COV_CFG)/Vtiprof_pm_tb
	@$(TIP_DIR)/coverage.sh pm $(<D) $(PM_COV_CFG) $(BUILD)/pm/coverage $(PM_COV_CYCLES)
