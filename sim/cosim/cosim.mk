# SPDX-License-Identifier: Apache-2.0
# sim/cosim/cosim.mk - the Verilated RTL unit inside the simulator: the C-driven speed builds of
# the unit (libtiprof_vu.a + vu.c, no testbench), the lockstep checker (harness.c: RTL against the
# C model every cycle, VCD of the last cycles on a difference) and tiprof-cosim-Nwide, which
# `tiprof sim --profile --rtl` runs. Included after rtl/rtl.mk (TIP_RTL, TIP_CFLAGS, cfg_w...).
## tiprof-cosim: build tiprof-cosim-{1,2,4}wide (tiprof sim --profile --rtl: the RTL unit records the samples)
## test-cosim-record: tiprof sim --profile --rtl writes the same sample file as the C model; a planted difference stops it

# ------------------------------------------------------------------ C-driven speed builds
# sim/cosim/tiprof_vu.sv (the unit behind input registers, no testbench) as a Verilator library
# (--lib-create): C owns the loop and clocks it through Verilator's generated DPI-C entry points
# (sim/cosim/vu.c; sim/cosim/vu_proto.awk turns the generated tiprof_vu.cpp into C prototypes).
# With the RTL's assertions (--assert, as every simulation of the unit: docs/verification.md
# "Assertions"); no --timing, no testbench process. Used by bench-cosim (tip_run_vu) and by
# tiprof-cosim-Nwide. `make TIP_ASSERT= ...` builds without them (only to measure their cost).
TIP_VU_VFLAGS  = --cc --lib-create tiprof_vu -O3 --x-assign fast --x-initial fast -Wno-fatal $(TIP_ASSERT)
TIP_VU_CXXOPT ?= -O3 -march=native
.SECONDARY: $(foreach c,4-64-8 1-64-64 2-64-64 4-64-64,$(BUILD)/vu/$(c)/libtiprof_vu.a \
	    $(BUILD)/vu/$(c)/vu.o)
$(BUILD)/vu/%/libtiprof_vu.a: $(TIP_RTL) $(COSIM_DIR)/tiprof_vu.sv $(TIP_SVH) rtl/lint/verilator.vlt \
			      $(COSIM_DIR)/cosim.mk $(COSIM_DIR)/vu_proto.awk
	@echo "  VERILATE (C-driven, speed) W=$(call cfg_w,$*) XLEN=$(call cfg_x,$*) DEPTH=$(call cfg_d,$*)"
	@rm -rf $(@D) && mkdir -p $(@D)
	@$(VERILATOR) $(TIP_VU_VFLAGS) -Mdir $(@D) --top-module tiprof_vu -Irtl \
	  -GW=$(call cfg_w,$*) -GXLEN=$(call cfg_x,$*) -GDEPTH=$(call cfg_d,$*) \
	  rtl/lint/verilator.vlt $(TIP_RTL) $(COSIM_DIR)/tiprof_vu.sv > $(@D)/verilate.log 2>&1 \
	  || { cat $(@D)/verilate.log; exit 1; }
	@awk -f $(COSIM_DIR)/vu_proto.awk $(@D)/tiprof_vu.cpp > $(@D)/tiprof_vu_proto.h
	@$(MAKE) -s -C $(@D) -f Vtiprof_vu.mk libtiprof_vu.a OPT_FAST="$(TIP_VU_CXXOPT)" OPT_SLOW=-O1 \
	  > $(@D)/build.log 2>&1 || { tail -30 $(@D)/build.log; exit 1; }

$(BUILD)/vu/%/vu.o: $(COSIM_DIR)/vu.c $(COSIM_DIR)/vu.h $(TIP_TB_HDRS) $(BUILD)/vu/%/libtiprof_vu.a
	@$(CC) $(TIP_CFLAGS) -I$(@D) -I$(VLT_INC)/vltstd -DVU_W=$(call cfg_w,$*) \
	  -DVU_XLEN=$(call cfg_x,$*) -DVU_DEPTH=$(call cfg_d,$*) -c -o $@ $<


# ------------------------------------------------------------------ tiprof-cosim-Nwide
# `tiprof sim --rtl` execs $(BUILD)/bin/tiprof-cosim-<config>: sim/cmd/cmd-sim.c and the recorder
# (sim/record/recsim.c, driver/hw, sample-file writer) linked with the C-driven RTL unit of
# width N, XLEN 64, FIFO 64 (sim/cosim/cosim.c) and the harness's lockstep core (harness.c).
TIP_COSIM_SRCS := $(COSIM_DIR)/cosim.c $(COSIM_DIR)/harness.c sim/cmd/cmd-sim.c sim/run/sim_run.c \
                  sim/run/progress.c sim/record/recsim.c sim/cmd/cmd_out.c sim/cmd/run_opts.c sw/opt.c \
                  sim/cmd/sim_compare.c $(POLICY_SRCS) $(PMSIM_SRCS)
TIP_COSIM_HDRS := $(COSIM_DIR)/cosim.h $(COSIM_DIR)/vu.h $(TIP_TB_HDRS) sim/record/recsim.h sim/run/sim_run.h \
                  sim/run/progress.h lib/symbol/elf_image.h lib/sample/sample_file.h include/tiprof/cmd.h \
                  include/tiprof/opt.h
.PHONY: tiprof-cosim
tiprof-cosim: $(BUILD)/bin/tiprof-cosim-4wide $(BUILD)/bin/tiprof-cosim-2wide \
	      $(BUILD)/bin/tiprof-cosim-1wide
$(BUILD)/bin/tiprof-cosim-%wide: $(BUILD)/vu/%-64-64/vu.o $(TIP_COSIM_SRCS) $(TIP_COSIM_HDRS) \
				 $(SAMPLE_LIB) $(SYMBOL_LIB) $(TIPROF_HW_LIB) $(TRACE_LIB) \
				 $(TIPMODEL_LIB) $(PMMODEL_LIB) $(VCD_LIB) $(TIP_CORE_LIBS)
	@mkdir -p $(@D) $(BUILD)/vu/$*-64-64/cosim
	@echo "  LD      $@"
	@for f in $(TIP_COSIM_SRCS); do \
	  $(CC) $(TIP_CFLAGS) $(SIMCMD_INC) -DTIPROF_COSIM \
	    -c -o $(BUILD)/vu/$*-64-64/cosim/$$(basename $$f .c).o $$f || exit 1; done
	@$(CXX) -o $@ $(BUILD)/vu/$*-64-64/cosim/*.o $(BUILD)/vu/$*-64-64/vu.o \
	  $(BUILD)/vu/$*-64-64/libtiprof_vu.a $(SAMPLE_LIB) $(SYMBOL_LIB) $(TIPROF_HW_LIB) \
	  $(TRACE_LIB) $(TIPMODEL_LIB) $(PMMODEL_LIB) $(VCD_LIB) $(CORE_LIBS) -ldw -lelf -lpthread

# The recording path through the RTL: same file as the C model's, mismatch report, speed build
# on the benches (tests/rtl/cosim_record.sh, ~15 s).
.PHONY: test-cosim-record
TEST_TARGETS += test-cosim-record
test-cosim-record: $(BUILD)/bin/tiprof-cosim-4wide $(BUILD)/vu/4-64-64/tip_run_vu \
		   $(BUILD)/bin/tiprof $(WORKLOAD_BINS)
	@echo "== test-cosim-record: tiprof sim --profile --rtl (Verilated RTL, C model in lockstep)"
	@$(TIP_DIR)/cosim_record.sh $(BUILD)

