# SPDX-License-Identifier: Apache-2.0
# sw/pm/pm_perfdata.mk - ProfileMe samples to perf.data (sw/pm/pm_perfdata.c over the shared
# perf.data writer sw/lib/perfdata_writer.c), linked into tiprof for `tiprof pm convert`, and
# its test with the real perf (tests/sw/pm/test_pm_perf.sh). Included by sw/sw.mk before the
# tiprof link rule (it appends to SW_LIB_SRCS).
## test-pm-perf: ProfileMe samples converted to perf.data: perf report shows the functions with exact sample shares, perf mem report the loads' latencies, levels, TLB and data symbols; a simulator recording of a PIE agrees with the sample file (~5 s)

PM_PERF_SRCS  := sw/pm/pm_perfdata.c
SW_LIB_SRCS   += $(PM_PERF_SRCS)
CFLAGS_sw/pm/pm_perfdata.c := $(SAMPLE_CFLAGS)
PM_PERF_TDIR  := tests/sw/pm
PM_PERF_TBINS := $(BUILD)/sw/pm/pm_perf_mk $(BUILD)/sw/pm/pm_perf_conv
PM_PERF_ELF   := $(BUILD)/workloads/ptrchase
PM_PERF_DYN   := $(BUILD)/workloads-dyn/ptrchase

.PHONY: test-pm-perf
# the workload ELF comes with the simulator's workloads (sim/workloads)
ifneq ($(TIPROF_SIM),0)
TEST_TARGETS  += test-pm-perf

$(BUILD)/sw/pm/pm_perf_mk: $(PM_PERF_TDIR)/pm_perf_mk.c $(SAMPLE_LIB) lib/sample/sample_file.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(SAMPLE_CFLAGS) -o $@ $< $(SAMPLE_LIB)

$(BUILD)/sw/pm/pm_perf_conv: $(PM_PERF_TDIR)/pm_perf_conv.c $(PM_PERF_SRCS) sw/pm/pm_perfdata.h \
			     sw/lib/perfdata_writer.c sw/lib/perfdata_writer.h $(SAMPLE_LIB)
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) $(SAMPLE_CFLAGS) -Isw/pm -o $@ $< $(PM_PERF_SRCS) \
	  sw/lib/perfdata_writer.c $(SAMPLE_SRCS) -lelf

test-pm-perf: $(PM_PERF_TBINS) $(PM_PERF_ELF) $(PM_PERF_DYN) $(TIPROF_BIN)
	@echo "== test-pm-perf: ProfileMe samples to perf.data, read by perf report and perf mem report"
	@CROSS_COMPILE=$(CROSS_COMPILE) $(PM_PERF_TDIR)/test_pm_perf.sh $(PM_PERF_TBINS) $(PM_PERF_ELF) \
	  $(BUILD)/sw/pm/tmp $(TIPROF_BIN) $(PM_PERF_DYN)
endif
