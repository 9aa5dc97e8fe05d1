# SPDX-License-Identifier: Apache-2.0
# sw/sw.mk - the one `tiprof` command ($(BUILD)/bin/tiprof): sw/tiprof.c and its table of
# subcommands, one sw/cmd-*.c each (record, dump, report, annotate, lbr, help, version), over
# sw/lib/ (attribution, sample-file profiles, perf AUX decoding), the shared libraries of lib/
# and the branch tracer's converters (sw/lbr/). The simulator's subcommands (sim/cmd/cmd.mk:
# TIPROF_SIM_OBJS and TIPROF_SIM_LIBS) are linked in when the simulator is part of the build;
# `make BUILD=build/nosim TIPROF_SIM=0 tiprof` builds the board's tiprof without any of sim/.
# Tests: tests/sw (the command), tests/sw/lib (its library), tests/lib/sample, tests/driver/hw.
## tiprof: build the tiprof command (build/bin/tiprof; `tiprof help` lists its subcommands)
## test-sw: sample file (round trip, golden bytes, corruption), the driver's hardware layer on the C model, tiprof dump, perf AUX decoding
## test-cli: one option vocabulary (docs/options.md = tiprof help --options), aliases, the stream rule (program output byte-exact, report on stderr or -o), the progress line
## test-layering: product code never includes sim/ or tests/; tiprof (report, annotate, record, dump, lbr) builds and runs without the simulator

SW_DIR        := sw
SW_CMD_SRCS   := $(addprefix $(SW_DIR)/,tiprof.c opt.c cmd-help.c cmd-version.c cmd-dump.c cmd-record.c \
                   cmd-report.c cmd-annotate.c cmd-lbr.c)
SW_LIB_SRCS   := $(addprefix $(SW_DIR)/lib/,perf_aux.c attrib.c sfprof.c polcmp.c perfdata_writer.c \
                   kallsyms.c)
SW_INC         = -I$(SW_DIR) -I$(SW_DIR)/lbr $(SAMPLE_CFLAGS) $(SYMBOL_CFLAGS) $(CHART_CFLAGS) \
                 $(ISA_INC)
CFLAGS_sw      = $(SW_INC)
CFLAGS_sw/lib  = $(SW_INC)
CFLAGS_sw/lbr  = -I$(SW_DIR)/lbr
include $(SW_DIR)/pm/pm.mk
TIPROF_OBJS    = $(call obj,$(SW_CMD_SRCS) $(SW_LIB_SRCS) $(LBR_CLI_SRCS)) $(TIPROF_SIM_OBJS)
TIPROF_LIBS    = $(TIPROF_SIM_LIBS) $(SAMPLE_LIB) $(CHART_LIB) $(SYMBOL_LIBS) -lm
include $(SW_DIR)/pm/pm_perfdata.mk
include $(SW_DIR)/fdo/fdo.mk
include $(SW_DIR)/fdo/speedup.mk

SW_TEST_DIR   := tests/sw
SW_HW_CYCLES  ?= 2000000
SW_HW_PM_CYCLES ?= 400000
SW_TBINS      := $(BUILD)/sw/test_sample_file $(BUILD)/sw/test_hw $(BUILD)/sw/test_hw_pm \
                 $(BUILD)/sw/test_perf_aux

TEST_TARGETS  += test-sw test-layering
.PHONY: tiprof test-sw test-layering test-cli
ifneq ($(TIPROF_SIM),0)
TEST_TARGETS  += test-cli
endif

tiprof: $(TIPROF_BIN)

$(TIPROF_BIN): $(TIPROF_OBJS) $(filter %.a,$(TIPROF_LIBS))
	@mkdir -p $(@D)
	@echo "  LD      $@"
	@$(CC) -o $@ $(TIPROF_OBJS) $(TIPROF_LIBS) $(LDFLAGS)

# ---- tests (sanitized builds compile the library sources themselves)
$(BUILD)/sw/test_sample_file: tests/lib/sample/test_sample_file.c tests/include/tcheck.h \
			      $(SAMPLE_SRCS) lib/sample/sample_file.h
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) -Itests/include $(SAMPLE_CFLAGS) -o $@ $< $(SAMPLE_SRCS)

$(BUILD)/sw/test_hw: tests/driver/hw/test_hw.c tests/include/tcheck.h $(TIPROF_HW_SRCS) \
		     $(TIPROF_HW_HDRS) $(TIPMODEL_LIB)
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) -Itests/include $(TIPROF_HW_CFLAGS) $(TIPMODEL_CFLAGS) \
	  -o $@ $< $(TIPROF_HW_SRCS) $(TIPMODEL_LIB)

$(BUILD)/sw/test_hw_pm: tests/driver/hw/test_hw_pm.c tests/include/tcheck.h $(TIPROF_HW_SRCS) \
			$(TIPROF_HW_HDRS) include/tiprof/pm_sample.h $(PMMODEL_LIB)
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) -Itests/include $(TIPROF_HW_CFLAGS) $(TIPMODEL_CFLAGS) \
	  -o $@ $< $(TIPROF_HW_SRCS) $(PMMODEL_LIB)

# perf_aux.c is compiled by the test itself (#included: its sysfs root becomes a variable).
$(BUILD)/sw/test_perf_aux: tests/sw/lib/test_perf_aux.c tests/include/tcheck.h \
			   $(SW_DIR)/lib/perf_aux.c $(SW_DIR)/lib/perf_aux.h \
			   include/tiprof/aux_record.h include/tiprof/sample.h
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) -Itests/include -I$(SW_DIR)/lib -o $@ $<

$(BUILD)/sw/sf_mkfile: $(SW_TEST_DIR)/sf_mkfile.c $(SAMPLE_LIB) lib/sample/sample_file.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(SAMPLE_CFLAGS) -o $@ $< $(SAMPLE_LIB)

test-sw: $(SW_TBINS) $(TIPROF_BIN) $(BUILD)/sw/sf_mkfile $(TIPROF_HW_KCHECK)
	@echo "== test-sw: sample file, hardware layer, tiprof command"
	@echo "-- driver/hw builds freestanding as kernel code: ok"
	@set -e; echo "-- $(BUILD)/sw/test_sample_file"; $(BUILD)/sw/test_sample_file $(BUILD)/sw/tmp
	@set -e; echo "-- $(BUILD)/sw/test_hw"; $(BUILD)/sw/test_hw $(SW_HW_CYCLES)
	@set -e; echo "-- $(BUILD)/sw/test_hw_pm"; $(BUILD)/sw/test_hw_pm $(SW_HW_PM_CYCLES)
	@set -e; echo "-- $(BUILD)/sw/test_perf_aux"; $(BUILD)/sw/test_perf_aux $(BUILD)/sw/tmp/perf_aux
	@set -e; echo "-- $(SW_TEST_DIR)/test_dump.sh"; \
	  $(SW_TEST_DIR)/test_dump.sh $(TIPROF_BIN) $(BUILD)/sw/sf_mkfile $(BUILD)/sw/tmp

# The dependency rule of the layout (docs/layout.md), checked on the sources and on a build:
# tiprof without the simulator, in its own build folder.
test-layering: $(TIPROF_BIN) $(WORKLOAD_BINS)
	@echo "== test-layering: product code includes no simulator or test code; tiprof builds without sim/"
	@BUILD=$(BUILD) MAKE="$(MAKE)" $(SW_TEST_DIR)/layering.sh

test-cli: $(TIPROF_BIN) $(WORKLOAD_BINS)
	@echo "== test-cli: options, streams, progress (tests/sw/cli.sh)"
	@tests/sw/cli.sh $(TIPROF_BIN) $(BUILD)/workloads $(BUILD)/cli-test
