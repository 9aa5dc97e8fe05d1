# SPDX-License-Identifier: Apache-2.0
# rtl/sd.mk - the selective-dispatch front-end blocks (docs/seldisp-rtl.md): tiprof_sd_flags,
# tiprof_sd_filter, tiprof_sd_fpred. RTL = C model (sim/model/sd_model.c) every cycle over DPI-C
# (Verilator, with --assert) and VPI (Icarus), directed scenes and random runs (tests/rtl/sd/);
# lint on three tools; synthesis table (fpga/sd_synth.sh). Included by rtl/rtl.mk.

SD_DIR      := tests/rtl/sd
SD_RTL      := rtl/tiprof_sd_flags.sv rtl/tiprof_sd_filter.sv rtl/tiprof_sd_fpred.sv
SD_TB_SV    := $(SD_DIR)/tiprof_sd_tb.sv
SD_TB_SRCS  := $(SD_DIR)/sd_harness.c $(SD_DIR)/sd_directed.c $(SD_DIR)/sd_random.c sim/model/sd_model.c
SD_TB_HDRS  := $(SD_DIR)/sd_harness.h $(SD_DIR)/sd_bench.h sim/model/sd_model.h
SD_CFLAGS    = $(ALL_CFLAGS) -Isim/model -I$(SD_DIR)
# W-PCW-CKPT-ENTRIES-POPLAT: every W, both address widths, 1..16 checkpoints, 2..256 entries,
# with and without the poppf hazard.
SD_CONFIGS  := 1-32-1-2-0 2-32-4-16-2 4-64-8-64-0 8-32-16-256-1
SD_RANDOM_CYCLES ?= 400000
SD_SEED     ?= $(shell date +%s)
SD_OUT      := $(BUILD)/sd/logs
sdc = $(word $(2),$(subst -, ,$(1)))

## test-sd-rtl: selective-dispatch RTL (flag state, decode filter, flag predictor) = C model every cycle: directed scenes and random runs on the model alone, Verilator (4 builds, assertions) and Icarus (VPI)
## test-sd-model: the selective-dispatch benches on the C model alone (loopback)
## test-sd-verilator: selective-dispatch directed scenes and random differential runs on the four Verilator builds (assertions on)
## test-sd-icarus: the same benches on Icarus (VPI)
.PHONY: test-sd-rtl test-sd-model test-sd-verilator test-sd-icarus lint-sd-rtl synth-sd
TEST_TARGETS  += test-sd-rtl
LINT_TARGETS  += lint-sd-rtl
SYNTH_TARGETS += synth-sd

$(BUILD)/sd/sd_run_model: $(SD_DIR)/sd_run_model.c $(SD_TB_SRCS) $(SD_TB_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(SD_CFLAGS) -o $@ $(SD_DIR)/sd_run_model.c $(SD_TB_SRCS)

# 1. verilate (generates Vtiprof_sd_tb__Dpi.h), 2. compile the harness against it, 3. build.
# $(call sd_verilate,DIR,CONFIG,SOURCES AND FLAGS)
define sd_verilate
@echo "  VERILATE selective dispatch W=$(call sdc,$(2),1) PCW=$(call sdc,$(2),2) CKPT=$(call sdc,$(2),3) ENTRIES=$(call sdc,$(2),4) POPLAT=$(call sdc,$(2),5)$(4)"
@rm -rf $(1) && mkdir -p $(1)/harness
@$(VERILATOR) --cc --exe --main --timing -O3 --x-assign fast --x-initial fast --assert \
	  -Wno-fatal -Mdir $(1) --top-module tiprof_sd_tb \
	  -GW=$(call sdc,$(2),1) -GPCW=$(call sdc,$(2),2) -GCKPT=$(call sdc,$(2),3) \
	  -GENTRIES=$(call sdc,$(2),4) -GPOPLAT=$(call sdc,$(2),5) \
	  $(3) $(SD_TB_SV) $(abspath $(1)/harness/libsd_tb.a) \
	  > $(1)/verilate.log 2>&1 || { cat $(1)/verilate.log; exit 1; }
@for f in $(SD_DIR)/sd_dpi.c $(SD_TB_SRCS); do \
	  $(CC) $(SD_CFLAGS) -I$(1) -I$(VLT_INC)/vltstd -c -o $(1)/harness/$$(basename $$f .c).o $$f \
	  || exit 1; done
@$(AR) rcs $(1)/harness/libsd_tb.a $(1)/harness/*.o
@$(MAKE) -s -C $(1) -f Vtiprof_sd_tb.mk OPT_FAST=-O2 OPT_SLOW=-O1 > $(1)/build.log 2>&1 \
	  || { tail -30 $(1)/build.log; exit 1; }
endef

$(BUILD)/vsd/%/Vtiprof_sd_tb: $(SD_RTL) $(SD_TB_SV) $(SD_DIR)/sd_dpi.c $(SD_TB_SRCS) $(SD_TB_HDRS)
	$(call sd_verilate,$(@D),$*,$(SD_RTL))

$(BUILD)/isd/tiprof_sd_vpi.vpi: $(SD_DIR)/sd_vpi.c tests/include/tvpi.h $(SD_TB_SRCS) $(SD_TB_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(SD_CFLAGS) -Itests/include -I$(VLT_INC)/vltstd -fPIC -shared -o $@ \
	  $(SD_DIR)/sd_vpi.c $(SD_TB_SRCS)

# Icarus 11 and always_comb: the simulation compiles a copy with always @* (as rtl/rtl.mk does).
SD_IRTL := $(patsubst rtl/%,$(BUILD)/isd/rtl/%,$(SD_RTL))
.SECONDARY: $(SD_IRTL)
$(BUILD)/isd/rtl/%.sv: rtl/%.sv
	@mkdir -p $(@D)
	@sed 's/\<always_comb\>/always @*/' $< > $@

$(BUILD)/isd/%.vvp: $(SD_IRTL) $(SD_TB_SV)
	@mkdir -p $(@D)
	@echo "  IVERILOG selective dispatch $*"
	@$(IVERILOG) -g2012 -DTIPROF_VPI -o $@ -s tiprof_sd_tb \
	  -Ptiprof_sd_tb.W=$(call sdc,$*,1) -Ptiprof_sd_tb.PCW=$(call sdc,$*,2) \
	  -Ptiprof_sd_tb.CKPT=$(call sdc,$*,3) -Ptiprof_sd_tb.ENTRIES=$(call sdc,$*,4) \
	  -Ptiprof_sd_tb.POPLAT=$(call sdc,$*,5) $(SD_IRTL) $(SD_TB_SV) > $@.log 2>&1 \
	  || { cat $@.log; exit 1; }

test-sd-model: $(BUILD)/sd/sd_run_model
	@mkdir -p $(SD_OUT)
	@SD_OUT=$(SD_OUT) SD_SEED=$(SD_SEED) SD_CONFIGS="$(SD_CONFIGS)" $(SD_DIR)/run.sh model $<

test-sd-verilator: $(foreach c,$(SD_CONFIGS),$(BUILD)/vsd/$(c)/Vtiprof_sd_tb)
	@mkdir -p $(SD_OUT)
	@SD_OUT=$(SD_OUT) SD_SEED=$(SD_SEED) SD_RANDOM_CYCLES=$(SD_RANDOM_CYCLES) \
	  SD_CONFIGS="$(SD_CONFIGS)" $(SD_DIR)/run.sh verilator $(BUILD)/vsd

test-sd-icarus: $(BUILD)/isd/tiprof_sd_vpi.vpi $(foreach c,$(SD_CONFIGS),$(BUILD)/isd/$(c).vvp)
	@mkdir -p $(SD_OUT)
	@SD_OUT=$(SD_OUT) SD_SEED=$(SD_SEED) VVP=$(VVP) SD_CONFIGS="$(SD_CONFIGS)" \
	  $(SD_DIR)/run.sh icarus $(BUILD)/isd

test-sd-rtl: test-sd-model test-sd-verilator test-sd-icarus

## lint-sd-rtl: Verilator -Wall, Icarus -g2012 and Yosys (synth, check -assert, no latches) on each selective-dispatch block at the smallest and largest parameters
lint-sd-rtl:
	@$(SD_DIR)/lint.sh "$(VERILATOR)" "$(IVERILOG)" "$(YOSYS)"

## synth-sd: Yosys generic cells and flip-flops, and Xilinx LUTs/FFs, of each selective-dispatch block at two parameter points
synth-sd:
	@YOSYS=$(YOSYS) fpga/sd_synth.sh

## test-sd-mutants: 20 planted selective-dispatch RTL bugs (tests/rtl/sd/mutants.txt) at W=2 PcW=32 Ckpt=4 Entries=16 PopLat=2, each must be killed by a bench or an assertion
.PHONY: test-sd-mutants
SD_MUT_CFG := 2-32-4-16-2
test-sd-mutants: $(BUILD)/vsd/$(SD_MUT_CFG)/Vtiprof_sd_tb
	@echo "== test-sd-mutants: planted selective-dispatch RTL bugs must be caught"
	@$(SD_DIR)/mutate.sh "$(VERILATOR)" $(BUILD)/vsd $(SD_MUT_CFG)

# ------------------------------------------------------------------ gate-level check
## test-sd-netlist: the Yosys netlists (generic synthesis, flattened) of the three blocks at two configurations in the testbench, compared with the C model every cycle
.PHONY: test-sd-netlist
SD_NETLIST_CONFIGS ?= 2-32-4-16-2 4-64-8-64-0
.PRECIOUS: $(BUILD)/nsd-netlist/%.v
$(BUILD)/nsd-netlist/%.v: $(SD_RTL)
	@mkdir -p $(@D)
	@echo "  SYNTH   $@ (Yosys generic, flattened)"
	@rm -f $@ && for b in "flags -set Rw $(call sdc,$*,1) -set Ckpt $(call sdc,$*,3)" \
	  "filter -set W $(call sdc,$*,1) -set PcW $(call sdc,$*,2) -set PopLat $(call sdc,$*,5)" \
	  "fpred -set Entries $(call sdc,$*,4) -set PcW $(call sdc,$*,2) -set W $(call sdc,$*,1)"; do \
	  set -- $$b; m=tiprof_sd_$$1; shift; \
	  $(YOSYS) -q -l $(@D)/$*-$$m.log -p "read_verilog -sv rtl/$$m.sv; chparam $$* $$m; \
	    synth -top $$m -flatten; write_verilog -noattr $(@D)/$*-$$m.v" >/dev/null \
	    || { tail -20 $(@D)/$*-$$m.log; exit 1; }; \
	  cat $(@D)/$*-$$m.v >> $@; done
$(BUILD)/nsd/%/Vtiprof_sd_tb: $(BUILD)/nsd-netlist/%.v $(SD_TB_SV) $(SD_DIR)/sd_dpi.c $(SD_TB_SRCS) $(SD_TB_HDRS)
	$(call sd_verilate,$(@D),$*,+define+TIPROF_SD_NETLIST $(BUILD)/nsd-netlist/$*.v, (netlist))
test-sd-netlist: $(foreach c,$(SD_NETLIST_CONFIGS),$(BUILD)/nsd/$(c)/Vtiprof_sd_tb)
	@mkdir -p $(SD_OUT)/netlist
	@SD_OUT=$(SD_OUT)/netlist SD_SEED=$(SD_SEED) SD_RANDOM_CYCLES=200000 \
	  SD_CONFIGS="$(SD_NETLIST_CONFIGS)" $(SD_DIR)/run.sh verilator $(BUILD)/nsd
