# SPDX-License-Identifier: Apache-2.0
# rtl/rtl.mk - RTL verification of the TIP unit: the C harness over DPI-C (Verilator) and
# VPI (Icarus), directed benches, random differential runs against the C model, and lint.
# Verilator fixes parameters per build, so the random configurations are a fixed set of cached
# builds under $(BUILD)/vtip/W-XLEN-DEPTH/.

TIP_DIR      := tests/rtl
COSIM_DIR    := sim/cosim
TIP_RTL      := $(shell grep -v '^//' rtl/tiprof.f)
TIP_TB_SV    := $(TIP_DIR)/tiprof_tb.sv
# Included by the SystemVerilog around a unit without ProfileMe (found through -Irtl): its PM
# ports tied off, generated from spec/tiprof_regs.json (make regs).
TIP_SVH      := rtl/tiprof_pm_tieoff.svh
TIP_TB_SRCS  := $(COSIM_DIR)/harness.c $(TIP_DIR)/harness_bench.c $(TIP_DIR)/benches.c $(TIP_DIR)/bench_random.c \
                $(TIP_DIR)/bench_directed.c $(TIP_DIR)/bench_checks.c \
                $(TIP_DIR)/bench_replay.c $(TIP_DIR)/bench_violation.c sim/trace/rob_trace.c $(TIP_DIR)/bench_core.c \
                $(TIP_DIR)/bench_insn.c
TIP_TB_HDRS  := $(TIP_DIR)/bench_sva.h $(COSIM_DIR)/tb.h $(COSIM_DIR)/harness.h $(COSIM_DIR)/tb_wire.h $(TIPMODEL_HDRS) \
                lib/vcd/vcd.h sim/trace/rob_trace.h
TIP_CFLAGS    = $(ALL_CFLAGS) $(TIPMODEL_CFLAGS) $(VCD_CFLAGS) -I$(TIP_DIR) -I$(COSIM_DIR) -Isim/trace $(CORE_INC)
# The live co-simulation bench links the core model, the ISS and the decoder.
TIP_CORE_LIBS := $(CORE_LIB) $(SAMPLE_LIB) $(ISS_LIB) $(ISA_LIB)
VLT_INC      := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)/include
# W-XLEN-DEPTH of the cached builds: every W, both XLEN, depths 1..16 (power of two or not);
# a suffix -s builds the unit with its input stage (InputStage = 1; the C model's input_stage).
TIP_CONFIGS  := 1-32-1 2-64-16 4-64-8 8-64-16 4-32-3 8-32-2-s
TIP_RANDOM_CYCLES ?= 1800000
TIP_SEED     ?= $(shell date +%s)
TIP_OUT      := $(BUILD)/tip/logs
# The RTL's assertions run in every test build (docs/verification.md "Assertions");
# `make TIP_ASSERT= ...` builds without them (only to measure what they cost).
TIP_ASSERT   ?= --assert

cfg_w = $(word 1,$(subst -, ,$(1)))
cfg_x = $(word 2,$(subst -, ,$(1)))
cfg_d = $(word 3,$(subst -, ,$(1)))
cfg_s = $(if $(filter s,$(word 4,$(subst -, ,$(1)))),1,0)

## test-tip: RTL against the C model: test-tip-model, test-tip-verilator and test-tip-icarus
## test-tip-model: the benches on the C model alone
## test-tip-verilator: directed and random benches on six Verilator builds (DPI-C), RTL = C model every cycle, coverage bins
## test-tip-icarus: the same benches on Icarus (VPI)
## lint-rtl: Verilator -Wall, Icarus -g2012 and Yosys on all six TIP configurations and the ProfileMe ones (rtl/pm.mk)
.PHONY: test-tip test-tip-model test-tip-verilator test-tip-icarus lint-rtl
TEST_TARGETS += test-tip
LINT_TARGETS += lint-rtl

# ------------------------------------------------------------------ model-only runner
$(BUILD)/tip/tip_run_model: $(TIP_DIR)/run_model.c $(TIP_TB_SRCS) $(TIP_TB_HDRS) \
			    $(TIPMODEL_LIB) $(VCD_LIB) $(TIP_CORE_LIBS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(TIP_CFLAGS) -o $@ $(TIP_DIR)/run_model.c $(TIP_TB_SRCS) $(TIPMODEL_LIB) $(VCD_LIB) \
	  $(TIP_CORE_LIBS) -lm

# ------------------------------------------------------------------ Verilator builds
# 1. verilate (generates Vtiprof_tb__Dpi.h), 2. compile the C harness with gcc against that
# header, 3. build and link the model with the harness library.
# $(call verilate_tb,DIR,CONFIG,SOURCES AND FLAGS): the testbench around the unit given by the
# sources, in DIR for configuration CONFIG (W-XLEN-DEPTH).
define verilate_tb
@echo "  VERILATE W=$(call cfg_w,$(2)) XLEN=$(call cfg_x,$(2)) DEPTH=$(call cfg_d,$(2)) STAGE=$(call cfg_s,$(2))$(4)"
@rm -rf $(1) && mkdir -p $(1)/harness
@$(VERILATOR) --cc --exe --main --timing -O3 --x-assign fast --x-initial fast \
	  -Wno-fatal -Mdir $(1) --top-module tiprof_tb -Irtl -LDFLAGS -lm \
	  -GW=$(call cfg_w,$(2)) -GXLEN=$(call cfg_x,$(2)) -GDEPTH=$(call cfg_d,$(2)) -GSTAGE=$(call cfg_s,$(2)) \
	  $(3) $(TIP_TB_SV) \
	  $(abspath $(1)/harness/libtiprof_tb.a) $(abspath $(TIPMODEL_LIB)) $(abspath $(VCD_LIB)) \
	  $(abspath $(TIP_CORE_LIBS)) \
	  > $(1)/verilate.log 2>&1 || { cat $(1)/verilate.log; exit 1; }
@for f in $(TIP_DIR)/dpi.c $(TIP_TB_SRCS); do \
	  $(CC) $(TIP_CFLAGS) -I$(1) -I$(VLT_INC)/vltstd -c -o $(1)/harness/$$(basename $$f .c).o $$f \
	  || exit 1; done
@$(AR) rcs $(1)/harness/libtiprof_tb.a $(1)/harness/*.o
@$(MAKE) -s -C $(1) -f Vtiprof_tb.mk OPT_FAST=-O2 OPT_SLOW=-O1 > $(1)/build.log 2>&1 \
	  || { tail -30 $(1)/build.log; exit 1; }
endef

$(BUILD)/vtip/%/Vtiprof_tb: $(TIP_RTL) $(TIP_TB_SV) $(TIP_SVH) rtl/lint/verilator.vlt \
			    $(TIP_DIR)/dpi.c $(TIP_TB_SRCS) $(TIP_TB_HDRS) $(TIPMODEL_LIB) $(VCD_LIB) $(TIP_CORE_LIBS)
	$(call verilate_tb,$(@D),$*,$(TIP_ASSERT) rtl/lint/verilator.vlt $(TIP_RTL))

# The benches on the C-driven RTL (run_model.c with -DTIP_RUN_VU); linked by g++ (C++ runtime).
$(BUILD)/vu/%/tip_run_vu: $(TIP_DIR)/run_model.c $(BUILD)/vu/%/vu.o $(TIP_TB_SRCS) $(TIP_TB_HDRS) \
			  $(TIPMODEL_LIB) $(VCD_LIB) $(TIP_CORE_LIBS)
	@echo "  LD      $@"
	@$(CC) $(TIP_CFLAGS) -DTIP_RUN_VU -c -o $(@D)/run_vu.o $(TIP_DIR)/run_model.c
	@for f in $(TIP_TB_SRCS); do \
	  $(CC) $(TIP_CFLAGS) -c -o $(@D)/tb_$$(basename $$f .c).o $$f || exit 1; done
	@$(CXX) -o $@ $(@D)/run_vu.o $(@D)/vu.o $(@D)/tb_*.o $(@D)/libtiprof_vu.a $(TIPMODEL_LIB) \
	  $(VCD_LIB) $(TIP_CORE_LIBS) -lm -lpthread

# ------------------------------------------------------------------ Icarus builds
$(BUILD)/itip/tiprof_vpi.vpi: $(TIP_DIR)/vpi.c tests/include/tvpi.h $(TIP_TB_SRCS) $(TIP_TB_HDRS) \
			      sim/model/tip_model.c $(VCD_SRCS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(TIP_CFLAGS) -DTIPROF_TB_NO_CORE -Itests/include -I$(VLT_INC)/vltstd -fPIC -shared -o $@ \
	  $(TIP_DIR)/vpi.c \
	  $(filter-out $(TIP_DIR)/bench_core.c,$(TIP_TB_SRCS)) \
	  sim/model/tip_model.c $(VCD_SRCS) -lm

# Icarus 11 simulates always_comb with a sensitivity that wakes this design's processes up
# forever at time 0 (the same source with always @* runs; see docs/verification.md), so the
# Icarus simulation compiles a copy in which only that keyword is respelled.
TIP_IRTL := $(patsubst rtl/%,$(BUILD)/itip/rtl/%,$(TIP_RTL))
.SECONDARY: $(TIP_IRTL)
$(BUILD)/itip/rtl/%.sv: rtl/%.sv
	@mkdir -p $(@D)
	@sed 's/\<always_comb\>/always @*/' $< > $@

$(BUILD)/itip/%.vvp: $(TIP_IRTL) $(TIP_TB_SV) $(TIP_SVH)
	@mkdir -p $(@D)
	@echo "  IVERILOG W=$(call cfg_w,$*) XLEN=$(call cfg_x,$*) DEPTH=$(call cfg_d,$*) STAGE=$(call cfg_s,$*)"
	@$(IVERILOG) -g2012 -DTIPROF_VPI -Irtl -o $@ -s tiprof_tb \
	  -Ptiprof_tb.W=$(call cfg_w,$*) -Ptiprof_tb.XLEN=$(call cfg_x,$*) \
	  -Ptiprof_tb.DEPTH=$(call cfg_d,$*) -Ptiprof_tb.STAGE=$(call cfg_s,$*) $(TIP_IRTL) $(TIP_TB_SV) > $@.log 2>&1 \
	  || { cat $@.log; exit 1; }

TIP_VBINS := $(foreach c,$(TIP_CONFIGS),$(BUILD)/vtip/$(c)/Vtiprof_tb)
TIP_IVVPS := $(foreach c,$(TIP_CONFIGS),$(BUILD)/itip/$(c).vvp)

# ------------------------------------------------------------------ test tiers
test-tip-model: $(BUILD)/tip/tip_run_model
	@mkdir -p $(TIP_OUT)
	@TIP_OUT=$(TIP_OUT) TIP_CONFIGS="$(TIP_CONFIGS)" $(TIP_DIR)/run.sh model $(BUILD)/tip/tip_run_model

test-tip-verilator: $(TIP_VBINS)
	@mkdir -p $(TIP_OUT)
	@TIP_OUT=$(TIP_OUT) TIP_SEED=$(TIP_SEED) TIP_RANDOM_CYCLES=$(TIP_RANDOM_CYCLES) \
	  TIP_CONFIGS="$(TIP_CONFIGS)" $(TIP_DIR)/run.sh verilator $(BUILD)/vtip

test-tip-icarus: $(BUILD)/itip/tiprof_vpi.vpi $(TIP_IVVPS)
	@mkdir -p $(TIP_OUT)
	@TIP_OUT=$(TIP_OUT) TIP_SEED=$(TIP_SEED) VVP=$(VVP) TIP_CONFIGS="$(TIP_CONFIGS)" \
	  $(TIP_DIR)/run.sh icarus $(BUILD)/itip

test-tip: test-tip-model test-tip-verilator test-tip-icarus

# ------------------------------------------------------------------ gate-level check
## test-tip-netlist: the Yosys netlist (generic synthesis, flattened) of two configurations in the testbench, compared with the C model every cycle
# What synthesis makes of the RTL is checked too: a construct Yosys reads differently from the
# simulators (it once refused every legal CTRL write) shows as a mismatch with the C model.
.PHONY: test-tip-netlist
TEST_TARGETS  += test-tip-netlist
TIP_NETLIST_CONFIGS ?= 2-64-16 4-32-3
.PRECIOUS: $(BUILD)/ntip-netlist/%.v
$(BUILD)/ntip-netlist/%.v: $(TIP_RTL)
	@mkdir -p $(@D)
	@echo "  SYNTH   $@ (Yosys generic, flattened)"
	@$(YOSYS) -q -l $(@D)/$*.log -p "read_verilog -sv $(TIP_RTL); chparam -set W $(call cfg_w,$*) \
	  -set XLEN $(call cfg_x,$*) -set FifoDepth $(call cfg_d,$*) tiprof_unit; \
	  synth -top tiprof_unit -flatten; rename tiprof_unit tiprof_unit_netlist; \
	  write_verilog -noattr $@" >/dev/null || { tail -20 $(@D)/$*.log; exit 1; }
$(BUILD)/ntip/%/Vtiprof_tb: $(BUILD)/ntip-netlist/%.v $(TIP_DIR)/tiprof_unit_netlist_shim.sv \
			    $(TIP_TB_SV) $(TIP_SVH) $(TIP_DIR)/dpi.c $(TIP_TB_SRCS) $(TIP_TB_HDRS) $(TIPMODEL_LIB) \
			    $(VCD_LIB) $(TIP_CORE_LIBS)
	$(call verilate_tb,$(@D),$*,+define+TIPROF_NETLIST $(TIP_DIR)/tiprof_unit_netlist_shim.sv \
	  $(BUILD)/ntip-netlist/$*.v, (netlist))
test-tip-netlist: $(foreach c,$(TIP_NETLIST_CONFIGS),$(BUILD)/ntip/$(c)/Vtiprof_tb)
	@mkdir -p $(TIP_OUT)/netlist
	@TIP_OUT=$(TIP_OUT)/netlist TIP_SEED=$(TIP_SEED) TIP_RANDOM_CYCLES=300000 TIP_ONLY_BUILT=1 \
	  TIP_CONFIGS="$(TIP_NETLIST_CONFIGS)" $(TIP_DIR)/run.sh verilator $(BUILD)/ntip

# ------------------------------------------------------------------ lint
lint-rtl:
	@$(TIP_DIR)/lint.sh "$(VERILATOR)" "$(IVERILOG)" "$(YOSYS)" "$(TIP_CONFIGS)" "$(PM_LINT_CONFIGS)"

# ------------------------------------------------------------------ assertions fire
## test-tip-assert: ROB-contract violations stop the Verilated RTL with the named assertion (docs/verification.md "Assertions")
.PHONY: test-tip-assert
TEST_TARGETS += test-tip-assert
test-tip-assert: $(BUILD)/vtip/2-64-16/Vtiprof_tb $(BUILD)/vtip/4-64-8/Vtiprof_tb
	@mkdir -p $(TIP_OUT)
	@$(TIP_DIR)/assert.sh $(BUILD)/vtip $(TIP_OUT)

# ------------------------------------------------------------------ mutation check
## test-tip-mutants: the 24 planted RTL bugs that apply to W=2 XLEN=64 FIFO 16, each must be caught (by a bench or an assertion)
.PHONY: test-tip-mutants
TEST_TARGETS += test-tip-mutants
test-tip-mutants: $(BUILD)/vtip/2-64-16/Vtiprof_tb
	@echo "== test-tip-mutants: planted RTL bugs must be caught"
	@$(TIP_DIR)/mutate.sh "$(VERILATOR)" $(BUILD)/vtip/2-64-16 $(abspath $(TIPMODEL_LIB) $(VCD_LIB) \
	  $(TIP_CORE_LIBS))

# Every mutant in every configuration it can affect (mutants.txt), with the kill matrix; builds
# cached under $(BUILD)/mutants/ (docs/verification.md "Mutation check").
## test-tip-mutant-matrix: every planted RTL bug built in 6 configurations (W 1-8, XLEN 32/64, depth 1/3/16), kill matrix; each must be killed wherever it can apply (slow: 130 builds)
.PHONY: test-tip-mutant-matrix
TIP_MUTANT_CFGS := 1-32-1 2-64-16 4-32-3 8-64-16 8-32-3 4-64-1
test-tip-mutant-matrix: $(foreach c,$(TIP_MUTANT_CFGS),$(BUILD)/vtip/$(c)/Vtiprof_tb)
	@echo "== test-tip-mutant-matrix: planted RTL bugs in $(TIP_MUTANT_CFGS) must be caught"
	@$(TIP_DIR)/mutant_matrix.sh "$(VERILATOR)" $(BUILD) "$(TIP_MUTANT_CFGS)" \
	  $(abspath $(TIPMODEL_LIB) $(VCD_LIB) $(TIP_CORE_LIBS))

# ------------------------------------------------------------------ code coverage
## test-tip-coverage: line and toggle coverage (verilator --coverage, a separate W=2 XLEN=64 FIFO 16 build) of the RTL over the directed benches and a random run, per module, floor enforced (docs/verification.md "Coverage")
# The normal builds stay without coverage instrumentation (their speed is unchanged).
.PHONY: test-tip-coverage
TEST_TARGETS += test-tip-coverage
TIP_COV_CFG    := 2-64-16
TIP_COV_CYCLES ?= 1800000
$(BUILD)/ctip/%/Vtiprof_tb: $(TIP_RTL) $(TIP_TB_SV) $(TIP_SVH) rtl/lint/verilator.vlt \
			    $(TIP_DIR)/dpi.c $(TIP_TB_SRCS) $(TIP_TB_HDRS) $(TIPMODEL_LIB) $(VCD_LIB) $(TIP_CORE_LIBS) \
			    $(TIP_DIR)/coverage_dump.sv $(TIP_DIR)/coverage_bind_tip.sv \
			    $(TIP_DIR)/coverage_dump.cpp $(TIP_DIR)/coverage_report.py
	@echo "  VERILATE W=$(call cfg_w,$*) XLEN=$(call cfg_x,$*) DEPTH=$(call cfg_d,$*) (line + toggle coverage)"
	@rm -rf $(@D) && mkdir -p $(@D)/harness
	@$(VERILATOR) --cc --exe --main --timing $(TIP_ASSERT) --coverage-line --coverage-toggle -O3 \
	  --x-assign fast --x-initial fast -Wno-fatal -Mdir $(@D) --top-module tiprof_tb -Irtl -LDFLAGS -lm \
	  -GW=$(call cfg_w,$*) -GXLEN=$(call cfg_x,$*) -GDEPTH=$(call cfg_d,$*) \
	  rtl/lint/verilator.vlt $(TIP_RTL) $(TIP_DIR)/coverage_dump.sv $(TIP_DIR)/coverage_bind_tip.sv \
	  $(TIP_TB_SV) \
	  $(abspath $(TIP_DIR)/coverage_dump.cpp) \
	  $(abspath $(@D)/harness/libtiprof_tb.a) $(abspath $(TIPMODEL_LIB)) $(abspath $(VCD_LIB)) \
	  $(abspath $(TIP_CORE_LIBS)) > $(@D)/verilate.log 2>&1 || { cat $(@D)/verilate.log; exit 1; }
	@for f in $(TIP_DIR)/dpi.c $(TIP_TB_SRCS); do \
	  $(CC) $(TIP_CFLAGS) -I$(@D) -I$(VLT_INC)/vltstd -c -o $(@D)/harness/$$(basename $$f .c).o $$f \
	  || exit 1; done
	@$(AR) rcs $(@D)/harness/libtiprof_tb.a $(@D)/harness/*.o
	@$(MAKE) -s -C $(@D) -f Vtiprof_tb.mk OPT_FAST=-O2 OPT_SLOW=-O1 > $(@D)/build.log 2>&1 \
	  || { tail -30 $(@D)/build.log; exit 1; }
test-tip-coverage: $(BUILD)/ctip/$(TIP_COV_CFG)/Vtiprof_tb
	@$(TIP_DIR)/coverage.sh tip $(BUILD)/ctip/$(TIP_COV_CFG) $(TIP_COV_CFG) $(TIP_OUT)/coverage $(TIP_COV_CYCLES)

# ------------------------------------------------------------------ speed
## bench-tip: simulation speed of the TIP unit: Verilated RTL + C model, C model alone
.PHONY: bench-tip
BENCH_TARGETS += bench-tip
bench-tip: $(BUILD)/vtip/4-64-8/Vtiprof_tb $(BUILD)/tip/tip_run_model
	@echo "== bench-tip: simulation speed of the TIP unit (random bench, W=4 XLEN=64 FIFO 8)"
	@mkdir -p $(TIP_OUT)
	@s=$$(date +%s.%N); $(BUILD)/vtip/4-64-8/Vtiprof_tb +bench=random +seed=1 +cycles=5000000 \
	  +outdir=$(TIP_OUT) > $(TIP_OUT)/bench-verilator.log; e=$$(date +%s.%N); \
	  echo "verilator RTL + C model (compared every cycle): $$(awk "BEGIN {printf \"%.2f\", 5000000 / ($$e - $$s) / 1e6}") M cycles/s"
	@s=$$(date +%s.%N); $(BUILD)/tip/tip_run_model --bench random --w 4 --xlen 64 --depth 8 --seed 1 \
	  --cycles 5000000 --outdir $(TIP_OUT) > $(TIP_OUT)/bench-model.log; e=$$(date +%s.%N); \
	  echo "C model alone (with the random bench):                $$(awk "BEGIN {printf \"%.2f\", 5000000 / ($$e - $$s) / 1e6}") M cycles/s"

# ------------------------------------------------------------------ live co-simulation
# The ISS and the out-of-order core model drive the Verilated RTL unit every cycle (bench
# "core"); the harness compares it with the C model every cycle. Every workload at its small
# size on the 4-wide core, one each on the 2-wide and 1-wide cores.
## test-cosim: workloads on the core model driving the Verilated RTL unit, RTL = C model every cycle (1-, 2-, 4-wide)
## bench-cosim: core model + TIP unit speed per CPU second: C model, Verilated RTL, both compared
.PHONY: test-cosim bench-cosim
TEST_TARGETS  += test-cosim
BENCH_TARGETS += bench-cosim
TIP_COSIM_CFGS := 4-64-8 2-64-16 1-32-1
test-cosim: $(foreach c,$(TIP_COSIM_CFGS),$(BUILD)/vtip/$(c)/Vtiprof_tb) $(WORKLOAD_BINS)
	@echo "== test-cosim: workloads on the core model driving the RTL unit, RTL = C model every cycle"
	@mkdir -p $(TIP_OUT)
	@pass=0; fail=0; for run in $(foreach w,$(WORKLOAD_SMALL),4-64-8:$(w)) 2-64-16:quicksort:3000 1-32-1:crc32:6; do \
	  cfg=$${run%%:*}; rest=$${run#*:}; w=$${rest%%:*}; a=$${rest#*:}; log=$(TIP_OUT)/cosim-$$cfg-$$w.log; \
	  if TIPROF_TB_ELF=$(BUILD)/workloads/$$w TIPROF_TB_ARGS=$$a $(BUILD)/vtip/$$cfg/Vtiprof_tb +bench=core \
	       +cycles=1000000000 +outdir=$(TIP_OUT) > $$log 2>&1 && grep -q "PASS core" $$log; then \
	    pass=$$((pass + 1)); echo "  ok    $$cfg $$w $$a: $$(grep '^core:' $$log | sed 's/^core: [^:]*: //')"; \
	  else fail=$$((fail + 1)); echo "  FAIL  $$cfg $$w $$a (log: $$log)"; grep FAIL $$log | sed 's/^/        /'; fi; \
	done; echo "test-cosim: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

# Every workload at its default size (≈ 240 M core cycles): RTL = C model on every cycle of
# full runs (test-cosim above checks the shortened runs).
## bench-cosim-full: every workload at default size through the RTL unit, RTL = C model every cycle (~3 min)
.PHONY: bench-cosim-full
BENCH_TARGETS += bench-cosim-full
bench-cosim-full: $(BUILD)/vtip/4-64-8/Vtiprof_tb $(WORKLOAD_BINS)
	@echo "== bench-cosim-full: every workload at its default size, RTL = C model every cycle (4-wide, W=4 FIFO 8)"
	@mkdir -p $(TIP_OUT)
	@pass=0; fail=0; for w in $(WORKLOADS); do log=$(TIP_OUT)/cosim-full-$$w.log; t0=$$(date +%s.%N); \
	  if TIPROF_TB_ELF=$(BUILD)/workloads/$$w TIPROF_TB_ARGS= $(BUILD)/vtip/4-64-8/Vtiprof_tb +bench=core \
	       +cycles=1000000000 +outdir=$(TIP_OUT) > $$log 2>&1 && grep -q "PASS core" $$log; then \
	    pass=$$((pass + 1)); echo "  ok    $$w (default size, $$(echo "$$(date +%s.%N) - $$t0" | bc | xargs printf '%.0f') s): $$(grep '^core:' $$log | sed 's/^core: [^:]*: //')"; \
	  else fail=$$((fail + 1)); echo "  FAIL  $$w (log: $$log)"; grep FAIL $$log | sed 's/^/        /'; fi; \
	done; echo "bench-cosim-full: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

bench-cosim: $(BUILD)/vtip/4-64-8/Vtiprof_tb $(BUILD)/vu/4-64-8/tip_run_vu $(BUILD)/tip/tip_run_model \
	     $(BUILD)/bin/tiprof $(BUILD)/bin/tiprof-cosim-4wide $(BUILD)/workloads/quicksort
	@echo "== bench-cosim: core model + TIP unit, simulated cycles per CPU second (quicksort 20000, 4-wide)"
	@$(TIP_DIR)/bench_cosim.sh $(BUILD)

include rtl/formal/formal.mk
include rtl/pm.mk
include rtl/sd.mk
