# tests/report/report.mk - `tiprof sim --profile`, `tiprof report` (flat profile and cycle
# stacks) and `tiprof annotate` (docs/report.md): the attribution library's unit test under
# AddressSanitizer/UBSan, tests/report/run.sh on two small workloads, then every subcommand
# on bad input (tests/sw/bad_input.sh, partly under a sanitized build of tiprof), ~15 s.
# Included by the top Makefile after sw/sw.mk; uses CC, BUILD, ALL_CFLAGS, WORKLOAD_BINS,
# the tiprof source lists of sw/sw.mk and sim/iss/iss.mk, and appends to TEST_TARGETS.
REPORT_SANFLAGS ?= -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
REPORT_TATTR    := $(BUILD)/report/test_attrib
# tiprof with its own sources, the sample-file library and the ISS (the ELF loader) built
# with the sanitizers; the core, model, trace and hardware-layer libraries are linked as is.
REPORT_TSAN     := $(BUILD)/report/tiprof-san

.PHONY: test-report
TEST_TARGETS += test-report

$(REPORT_TATTR): tests/report/test_attrib.c sw/lib/attrib.c sw/lib/attrib.h
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(REPORT_SANFLAGS) -Isw/lib -o $@ $< sw/lib/attrib.c

$(REPORT_TSAN): $(SW_CMD_SRCS) $(SW_LIB_SRCS) $(ISS_SRCS) $(ISS_HDRS) $(SW_DIR)/tiprof.h \
		$(SW_LIB_HDRS) $(SW_SIM_DEPS)
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(SW_CFLAGS) $(SW_SIM_CFLAGS) $(REPORT_SANFLAGS) -frounding-math -o $@ \
	  $(SW_CMD_SRCS) $(SW_LIB_SRCS) $(ISS_SRCS) $(filter-out $(ISS_LIB),$(SW_SIM_LIBS)) \
	  $(LDFLAGS)

test-report: $(BUILD)/bin/tiprof $(WORKLOAD_BINS) $(REPORT_TATTR) $(REPORT_TSAN)
	@echo "== test-report: sim --profile, dump, report and annotate on workloads; bad inputs"
	@$(REPORT_TATTR)
	@BUILD=$(BUILD) tests/report/run.sh
	@echo "-- tests/sw/bad_input.sh: every subcommand on bad input"
	@tests/sw/bad_input.sh $(BUILD)/bin/tiprof $(REPORT_TSAN) $(BUILD)/workloads \
	  $(BUILD)/report-test/bad $(wildcard $(BUILD)/bin/tiprof-lbr)
