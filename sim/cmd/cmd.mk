# SPDX-License-Identifier: Apache-2.0
# sim/cmd/cmd.mk - the simulator's subcommands of `tiprof` (sim/cmd/cmd-*.c): `tiprof sim`
# (the program on the core model; --profile records a sample file through sim/record),
# `tiprof accuracy` (every policy against the Oracle), `tiprof iss` (the program on the ISS
# alone) and `tiprof trace` (ROB trace files: info, dump, VCD export). They join the `tiprof` binary that
# sw/sw.mk links (TIPROF_SIM_OBJS, TIPROF_SIM_LIBS); a build with TIPROF_SIM=0 leaves them
# and every simulator fragment out. Included after the sim/ and lib/ fragments, before sw.mk.

SIMCMD_INC := $(CORE_INC) -Isim/run -Isim/policy -Isim/record -Isim/pm -Isw/pm $(TRACE_CFLAGS) $(TIPMODEL_CFLAGS) $(VCD_CFLAGS) \
              $(TIPROF_HW_CFLAGS) $(SAMPLE_CFLAGS) $(SYMBOL_CFLAGS) $(CHART_CFLAGS)
CFLAGS_sim/cmd = $(SIMCMD_INC)
CFLAGS_sim/policy = -Isim/policy $(SYMBOL_CFLAGS)
CFLAGS_sim/run = -Isim/run -Isim/record $(CORE_INC) $(TRACE_CFLAGS)
CFLAGS_sim/pm = -Isim/pm $(CORE_INC) $(TIPMODEL_CFLAGS)
CFLAGS_sim/record = -Isim/record $(TIPMODEL_CFLAGS) $(TIPROF_HW_CFLAGS) $(SAMPLE_CFLAGS) \
                     $(SYMBOL_CFLAGS)

POLICY_SRCS    := sim/policy/profile.c sim/policy/rob_policies.c sim/policy/fe_policies.c
RECSIM_SRCS    := sim/record/recsim.c
PMSIM_SRCS     := sim/pm/pmsim.c sim/pm/pm_truth.c
SIMRUN_SRCS    := sim/run/sim_run.c sim/run/progress.c
SIMCMD_SRCS    := sim/cmd/cmd-sim.c sim/cmd/cmd-accuracy.c sim/cmd/accuracy_pm.c sim/cmd/cmd-iss.c sim/cmd/cmd-trace.c \
                  sim/cmd/cmd_out.c sim/cmd/sim_compare.c sim/cmd/run_opts.c
# the exact block/edge profile of `tiprof iss --truth` (docs/fdo.md), over sw/fdo's graph
FDOSIM_SRCS    := sim/fdo/fdo_truth.c
CFLAGS_sim/fdo  = -Isim/fdo -Isw/fdo $(ISS_INC) $(SYMBOL_CFLAGS)
CFLAGS_sim/cmd/cmd-iss.c := -Isim/fdo -Isw/fdo
TIPROF_SIM_OBJS := $(call obj,$(SIMCMD_SRCS) $(SIMRUN_SRCS) $(RECSIM_SRCS) $(PMSIM_SRCS) $(POLICY_SRCS) \
                   $(FDOSIM_SRCS))
TIPROF_SIM_LIBS := $(TRACE_LIB) $(VCD_LIB) $(TIPMODEL_LIB) $(PMMODEL_LIB) $(TIPROF_HW_LIB) $(SAMPLE_LIB) $(CHART_LIB) \
                   $(SYMBOL_LIB) $(CORE_LIBS)
# sw/tiprof.c lists the simulator's subcommands.
CFLAGS_sw/tiprof.c += -DTIPROF_HAVE_SIM

# Sampled simulation (`tiprof accuracy --windows W,D,U`; docs/accuracy.md "Sampled simulation").
## test-sampled: sampled simulation: off = unchanged, warming = detailed state exactly, instruction accounting, warming warms (vs cold), bad values
## bench-sampled: error sampled simulation introduces vs full detail (Oracle distance, policy errors), speed-up
.PHONY: test-sampled bench-sampled
TEST_TARGETS  += test-sampled
BENCH_TARGETS += bench-sampled

SAMPLED_WARM_EXACT := $(BUILD)/sampled/warm_exact

# warming vs detailed simulation of the same instructions, built with core.c itself
$(SAMPLED_WARM_EXACT): tests/sim/sampled/warm_exact.c $(CORE_DIR)/core.c $(CORE_DIR)/core_pm.c $(CORE_DIR)/core_sd.c 		       $(CORE_DIR)/core_int.h $(CORE_HDRS) $(ISS_LIB) $(ISA_LIB)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(CORE_INC) -o $@ $< $(CORE_DIR)/core_pm.c $(CORE_DIR)/core_sd.c $(ISS_LIB) $(ISA_LIB) -lm

test-sampled: $(BUILD)/bin/tiprof $(WORKLOAD_BINS) $(SAMPLED_WARM_EXACT) $(BUILD)/vtip/4-64-8/Vtiprof_tb
	@echo "== test-sampled: sampled simulation (functional warming, measured windows)"
	@TIPROF=$(BUILD)/bin/tiprof WL_OUT=$(WL_OUT) WARM_EXACT=$(SAMPLED_WARM_EXACT) \
		VTIP=$(BUILD)/vtip/4-64-8/Vtiprof_tb tests/sim/sampled/run-tests.sh

bench-sampled: $(BUILD)/bin/tiprof $(WORKLOAD_BINS)
	@echo "== bench-sampled: sampled vs full detailed runs"
	@TIPROF=$(BUILD)/bin/tiprof WL_OUT=$(WL_OUT) PROGRAMS=$(BUILD)/programs \
		tests/sim/sampled/bench.sh

# The ProfileMe unit on the core model (`tiprof sim -e profileme`, sim/pm, sim/core/core_pm.c).
## test-pm-sim: ProfileMe on the core model: it only observes, every record = the core's truth (3 presets x workloads, single/paired), the truth's books close, bad options
.PHONY: test-pm-sim
TEST_TARGETS += test-pm-sim
test-pm-sim: $(BUILD)/bin/tiprof $(WORKLOAD_BINS)
	@echo "== test-pm-sim: ProfileMe on the core model (tests/sim/pm/run-tests.sh)"
	@TIPROF=$(BUILD)/bin/tiprof WL_OUT=$(WL_OUT) tests/sim/pm/run-tests.sh

## test-insn-sim: TIP's instruction trigger on the core model: one selection per PERIOD committed instructions, per-instruction estimates against the Oracle's exact commit counts, bad options
.PHONY: test-insn-sim
TEST_TARGETS += test-insn-sim
test-insn-sim: $(BUILD)/bin/tiprof $(WORKLOAD_BINS)
	@TIPROF=$(BUILD)/bin/tiprof WL_OUT=$(WL_OUT) tests/sim/insn/run-tests.sh

## bench-pm-accuracy: ProfileMe estimates vs the core's truth: 95% interval coverage, error vs samples k (1/sqrt(k), SVG chart), wasted issue slots from pairs, on workloads and Debian programs
.PHONY: bench-pm-accuracy
BENCH_TARGETS += bench-pm-accuracy
bench-pm-accuracy: $(BUILD)/bin/tiprof $(WORKLOAD_BINS)
	@echo "== bench-pm-accuracy: ProfileMe estimates against the truth (tests/sim/pm/accuracy.py)"
	@TIPROF=$(BUILD)/bin/tiprof WL_OUT=$(WL_OUT) PROGRAMS=$(BUILD)/programs \
	  SVG=$(BUILD)/pm-accuracy/error-vs-k.svg $(PYTHON) tests/sim/pm/accuracy.py
