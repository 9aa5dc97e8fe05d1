# SPDX-License-Identifier: Apache-2.0
# sw/pm/pm.mk - ProfileMe analyses (issue 12, item 7; docs/pm-report.md): the estimator
# library sw/pm/pm_est (per-instruction, per-function and per-region estimates with confidence
# intervals, latency distributions, memory and path views, paired-sample concurrency) and its
# intervals (pm_ci), linked into tiprof. Included by sw/sw.mk (it appends to SW_LIB_SRCS).
## test-pm-report: the ProfileMe estimator under ASan/UBSan: intervals against published values, 95% coverage over 300 seeded synthetic runs (and two wrong estimators that must fail it), hand-worked pairs, views
PM_DIR        := sw/pm
PM_LIB_SRCS   := $(addprefix $(PM_DIR)/,pm_est.c pm_ci.c)
SW_LIB_SRCS   += $(PM_LIB_SRCS)
CFLAGS_sw/pm   = $(SW_INC)
PM_TEST_DIR   := tests/sw/pm_est
PM_TEST_BIN   := $(BUILD)/pm/test_pm_est
PM_TEST_REPS  ?= 300

.PHONY: test-pm-report
TEST_TARGETS  += test-pm-report

$(PM_TEST_BIN): $(PM_TEST_DIR)/test_pm_est.c tests/include/tcheck.h $(PM_LIB_SRCS) \
		$(wildcard $(PM_DIR)/*.h) include/tiprof/pm_sample.h include/tiprof/pm_latency.h
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) -Itests/include -I$(PM_DIR) -o $@ $< $(PM_LIB_SRCS) -lm

test-pm-report: $(PM_TEST_BIN)
	@echo "== test-pm-report: the ProfileMe estimator (sw/pm)"
	@echo "-- $(PM_TEST_BIN) $(PM_TEST_REPS)"; $(PM_TEST_BIN) $(PM_TEST_REPS)
