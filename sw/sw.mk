# sw/sw.mk - the `tiprof` command ($(BUILD)/bin/tiprof: sw/tiprof.c, one sw/cmd-*.c per
# subcommand, over the libraries of sw/lib/) and the tests of sw/ and driver/hw.
# Included by the top Makefile after driver/hw/hw.mk and sim/model/model.mk; uses CC,
# BUILD, ALL_CFLAGS, TIPMODEL_LIB/TIPMODEL_CFLAGS, TIPROF_HW_* and TEST_TARGETS.
#   tiprof      build $(BUILD)/bin/tiprof
#   test-sw     sample file (round trip, golden bytes, truncation, corruption), the
#               hardware layer on the C reference model, `tiprof dump` exit codes and
#               messages, and the freestanding (kernel-style) build of driver/hw.
#               The unit tests run under AddressSanitizer/UBSan (SW_SANFLAGS).

SW_DIR        := sw
TIPROF_BIN    := $(BUILD)/bin/tiprof
SW_LIB        := $(BUILD)/sw/libtiprof_sw.a
SW_LIB_SRCS   := $(SW_DIR)/lib/sample_file.c
SW_LIB_HDRS   := $(SW_DIR)/lib/sample_file.h include/tiprof/sample.h include/tiprof/tiprof_regs.h
SW_CMD_SRCS   := $(SW_DIR)/tiprof.c $(SW_DIR)/cmd-help.c $(SW_DIR)/cmd-version.c \
                 $(SW_DIR)/cmd-dump.c
# `tiprof record` (docs/record.md): the tiprof_pmu perf PMU, AUX area to sample file.
SW_RECORD_SRCS := $(SW_DIR)/cmd-record.c $(SW_DIR)/lib/perf_aux.c $(SW_DIR)/lib/sample_file.c
SW_CMD_SRCS   += $(SW_DIR)/cmd-record.c $(SW_DIR)/lib/perf_aux.c
SW_LIB_HDRS   += $(SW_DIR)/lib/perf_aux.h
# the same command as a static riscv64 program for the system-test guest
TIPROF_RECORD_RV := $(BUILD)/riscv64/tiprof-record
SW_CFLAGS      = $(ALL_CFLAGS) -I$(SW_DIR)
# `tiprof sim` (sw/cmd-sim.c) when sim/core/core.mk, which defines CORE_LIB, is included
# before this fragment.
# `tiprof accuracy` (sw/cmd-accuracy.c) also needs the TIP model, the ROB-level policies
# (sim/policy) and the ROB trace writer (sim/trace).
ifdef CORE_LIB
SW_POLICY_SRCS := sim/policy/profile.c sim/policy/rob_policies.c sim/policy/code_map.c
SW_CMD_SRCS   += $(SW_DIR)/cmd-sim.c $(SW_DIR)/cmd-accuracy.c $(SW_POLICY_SRCS)
SW_SIM_CFLAGS := -DTIPROF_HAVE_SIM $(CORE_INC) -Isim/policy $(TRACE_CFLAGS) $(TIPMODEL_CFLAGS)
SW_SIM_DEPS   := $(CORE_TIPROF_DEPS) sim/policy/profile.h sim/policy/rob_policies.h \
                 sim/policy/code_map.h $(SW_POLICY_SRCS) \
                 $(TRACE_LIB) $(TIPMODEL_LIB)
SW_SIM_LIBS   := $(TRACE_LIB) $(TIPMODEL_LIB) $(CORE_LIBS)
# Dispatch and Software policies and the SVG charts of `tiprof accuracy` (docs/accuracy.md).
SW_CMD_SRCS   += sim/policy/fe_policies.c $(SW_DIR)/lib/svg.c
SW_SIM_DEPS   += sim/policy/fe_policies.h sim/policy/fe_policies.c $(SW_DIR)/lib/svg.h \
                 $(SW_DIR)/lib/svg.c
# `tiprof sim --profile` (sw/cmd-record-sim.c: the unit model drained by driver/hw),
# `tiprof report` and `tiprof annotate` (docs/report.md): ELF bytes and build-id (libelf),
# DWARF lines (libdw), time-proportional attribution.
SW_REPORT_SRCS := $(SW_DIR)/cmd-record-sim.c $(SW_DIR)/cmd-report.c $(SW_DIR)/cmd-annotate.c \
                  $(SW_DIR)/lib/elf_image.c $(SW_DIR)/lib/attrib.c $(SW_DIR)/lib/srcline.c \
                  $(SW_DIR)/lib/sfprof.c
SW_CMD_SRCS   += $(SW_REPORT_SRCS)
SW_SIM_CFLAGS += $(TIPROF_HW_CFLAGS)
SW_SIM_DEPS   += $(SW_DIR)/cmd-record-sim.h $(SW_DIR)/lib/elf_image.h $(SW_DIR)/lib/attrib.h \
                 $(SW_DIR)/lib/srcline.h $(SW_DIR)/lib/sfprof.h $(TIPROF_HW_LIB) $(TIPROF_HW_HDRS)
SW_SIM_LIBS   += $(TIPROF_HW_LIB) -ldw -lelf
endif
SW_SANFLAGS   ?= -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SW_TEST_DIR   := tests/sw
SW_HW_CYCLES  ?= 2000000
SW_TBINS      := $(BUILD)/sw/test_sample_file $(BUILD)/sw/test_hw

TEST_TARGETS  += test-sw
.PHONY: tiprof test-sw tiprof-record-riscv64

tiprof: $(TIPROF_BIN)

tiprof-record-riscv64: $(TIPROF_RECORD_RV)

$(TIPROF_RECORD_RV): $(SW_RECORD_SRCS) $(SW_DIR)/tiprof.h $(SW_LIB_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@ (static riscv64)"
	@$(CROSS_COMPILE)gcc -static $(CSTD) $(CWARN) -O2 -Iinclude -I$(SW_DIR) \
	  -DTIPROF_RECORD_MAIN -o $@ $(SW_RECORD_SRCS)

$(BUILD)/sw/%.o: $(SW_DIR)/lib/%.c $(SW_LIB_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(SW_CFLAGS) -c -o $@ $<

$(SW_LIB): $(SW_LIB_SRCS:$(SW_DIR)/lib/%.c=$(BUILD)/sw/%.o)
	@echo "  AR      $@"
	@rm -f $@
	@$(AR) rcs $@ $^

$(TIPROF_BIN): $(SW_CMD_SRCS) $(SW_DIR)/tiprof.h $(SW_LIB_HDRS) $(SW_LIB) $(SW_SIM_DEPS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(SW_CFLAGS) $(SW_SIM_CFLAGS) -o $@ $(SW_CMD_SRCS) $(SW_LIB) $(SW_SIM_LIBS) $(LDFLAGS)

# ---- tests (sanitized builds compile the library sources themselves)
$(BUILD)/sw/test_sample_file: $(SW_TEST_DIR)/test_sample_file.c $(SW_TEST_DIR)/tcheck.h \
			      $(SW_LIB_SRCS) $(SW_LIB_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(SW_CFLAGS) $(SW_SANFLAGS) -I$(SW_DIR)/lib -o $@ $< $(SW_LIB_SRCS)

$(BUILD)/sw/test_hw: $(SW_TEST_DIR)/test_hw.c $(SW_TEST_DIR)/tcheck.h $(TIPROF_HW_SRCS) \
		     $(TIPROF_HW_HDRS) $(TIPMODEL_LIB)
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SW_SANFLAGS) $(TIPROF_HW_CFLAGS) $(TIPMODEL_CFLAGS) -o $@ $< \
	  $(TIPROF_HW_SRCS) $(TIPMODEL_LIB)

$(BUILD)/sw/sf_mkfile: $(SW_TEST_DIR)/sf_mkfile.c $(SW_LIB) $(SW_LIB_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(SW_CFLAGS) -I$(SW_DIR)/lib -o $@ $< $(SW_LIB)

test-sw: $(SW_TBINS) $(TIPROF_BIN) $(BUILD)/sw/sf_mkfile $(TIPROF_HW_KCHECK)
	@echo "== test-sw: sample file, hardware layer, tiprof command"
	@echo "-- driver/hw builds freestanding as kernel code: ok"
	@set -e; echo "-- $(BUILD)/sw/test_sample_file"; $(BUILD)/sw/test_sample_file $(BUILD)/sw/tmp
	@set -e; echo "-- $(BUILD)/sw/test_hw"; $(BUILD)/sw/test_hw $(SW_HW_CYCLES)
	@set -e; echo "-- $(SW_TEST_DIR)/test_dump.sh"; \
	  $(SW_TEST_DIR)/test_dump.sh $(TIPROF_BIN) $(BUILD)/sw/sf_mkfile $(BUILD)/sw/tmp
