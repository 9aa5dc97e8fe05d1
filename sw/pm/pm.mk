# SPDX-License-Identifier: Apache-2.0
# sw/pm/pm.mk - ProfileMe analyses, `tiprof pm` (issue 12, item 7; docs/pm-report.md): the
# estimator library sw/pm/pm_est (per-instruction, per-function and per-region estimates with
# confidence intervals, latency distributions, memory and path views, paired-sample
# concurrency) and its intervals (pm_ci), the file reader (pm_file), the views (pm_view*.c) and
# sw/cmd-pm.c. Included by sw/sw.mk (it appends to SW_LIB_SRCS and SW_CMD_SRCS).
## test-pm-report: tiprof pm: the estimator under ASan/UBSan (intervals against published values, 95% coverage over 300 seeded synthetic runs that two wrong estimators fail, hand-worked pairs and views), every view as text and JSON on a hand-worked file, bad input, also with a sanitized tiprof; ~20 s
PMSW_DIR      := sw/pm
PM_LIB_SRCS   := $(addprefix $(PMSW_DIR)/,pm_est.c pm_ci.c)
PM_VIEW_SRCS  := $(addprefix $(PMSW_DIR)/,pm_file.c pm_view.c pm_view_report.c pm_view_lat.c \
                   pm_view_mem.c pm_view_path.c pm_view_pairs.c)
SW_LIB_SRCS   += $(PM_LIB_SRCS) $(PM_VIEW_SRCS)
SW_CMD_SRCS   += $(SW_DIR)/cmd-pm.c
CFLAGS_sw/pm   = $(SW_INC)
PM_TEST_DIR   := tests/sw/pm_est
PM_TEST_BIN   := $(BUILD)/pm/test_pm_est
PM_TEST_REPS  ?= 300
PM_MKFILE     := $(BUILD)/pm/pm_mkfile
# tiprof without the simulator, every source built with the sanitizers (libisa as is)
PM_TSAN       := $(BUILD)/pm/tiprof-san
PM_TSAN_SRCS   = $(SW_CMD_SRCS) $(SW_LIB_SRCS) $(LBR_CLI_SRCS) $(SAMPLE_SRCS) $(SYMBOL_SRCS) \
                 $(CHART_SRCS)

.PHONY: test-pm-report
TEST_TARGETS  += test-pm-report

$(PM_TEST_BIN): $(PM_TEST_DIR)/test_pm_est.c tests/include/tcheck.h $(PM_LIB_SRCS) \
		$(wildcard $(PMSW_DIR)/*.h) include/tiprof/pm_sample.h include/tiprof/pm_latency.h
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) -Itests/include -I$(PMSW_DIR) -o $@ $< $(PM_LIB_SRCS) -lm

$(PM_MKFILE): $(PM_TEST_DIR)/pm_mkfile.c $(SAMPLE_LIB) lib/sample/sample_file.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(SAMPLE_CFLAGS) -o $@ $< $(SAMPLE_LIB)

$(PM_TSAN): $(PM_TSAN_SRCS) $(ISA_LIB) $(wildcard sw/*.h sw/lib/*.h sw/pm/*.h sw/lbr/*.h \
	    lib/*/*.h include/tiprof/*.h)
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized, without the simulator)"
	@$(CC) $(ALL_CFLAGS) $(SW_INC) $(SANFLAGS) -o $@ $(PM_TSAN_SRCS) $(ISA_LIB) -lm -ldw -lelf \
	  $(LDFLAGS)

PM_TEST_DEPS  := $(PM_TEST_BIN) $(PM_MKFILE) $(TIPROF_BIN) $(PM_TSAN)
ifneq ($(TIPROF_SIM),0)
PM_TEST_DEPS  += $(WORKLOAD_BINS)
endif

test-pm-report: $(PM_TEST_DEPS)
	@echo "== test-pm-report: tiprof pm (sw/pm)"
	@echo "-- $(PM_TEST_BIN) $(PM_TEST_REPS)"; $(PM_TEST_BIN) $(PM_TEST_REPS)
	@echo "-- $(PM_TEST_DIR)/cli.sh"; $(PM_TEST_DIR)/cli.sh $(TIPROF_BIN) $(PM_MKFILE) \
	  $(BUILD)/pm/cli $(PM_TSAN) $(BUILD)/workloads
