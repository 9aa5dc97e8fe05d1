# SPDX-License-Identifier: Apache-2.0
# sw/report.mk - `tiprof sim --profile`, `tiprof report` (flat profile and cycle
# stacks) and `tiprof annotate` (docs/report.md): the attribution library's unit test under
# AddressSanitizer/UBSan (tests/sw/lib), tests/sw/report.sh on two small workloads, then every
# subcommand on bad input (tests/sw/bad_input.sh, partly under a sanitized build of tiprof),
# ~15 s. Included by the top Makefile after sw/sw.mk; uses the source lists of sw/sw.mk,
# lib/lib.mk, sim/cmd/cmd.mk and sim/iss/iss.mk.
## test-report: sim --profile, report (flat, cycle stacks, SVG) and annotate on workloads, static and dynamically linked; every subcommand on bad input, partly under ASan/UBSan
REPORT_TATTR    := $(BUILD)/report/test_attrib
# tiprof with its own sources, the sample-file library and the ISS (the ELF loader) built
# with the sanitizers; the core, model, trace and hardware-layer libraries are linked as is.
REPORT_TSAN     := $(BUILD)/report/tiprof-san

.PHONY: test-report
TEST_TARGETS += test-report

$(REPORT_TATTR): tests/sw/lib/test_attrib.c sw/lib/attrib.c sw/lib/attrib.h
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) -Isw/lib -o $@ $< sw/lib/attrib.c

REPORT_TSAN_SRCS = $(SW_CMD_SRCS) $(SW_LIB_SRCS) $(LBR_CLI_SRCS) $(SIMCMD_SRCS) $(SIMRUN_SRCS) $(RECSIM_SRCS) \
                   $(PMSIM_SRCS) $(FDOSIM_SRCS) $(FDO_SRCS) $(POLICY_SRCS) $(SAMPLE_SRCS) $(SYMBOL_SRCS) \
                   $(CHART_SRCS) $(ISS_SRCS)
$(REPORT_TSAN): $(REPORT_TSAN_SRCS) $(VCD_LIB) $(TRACE_LIB) $(TIPMODEL_LIB) $(PMMODEL_LIB) $(TIPROF_HW_LIB) \
		$(CORE_LIB) $(ISA_LIB) \
		$(wildcard sw/*.h sw/lib/*.h sw/lbr/*.h sw/*/*.h sim/*/*.h lib/*/*.h include/tiprof/*.h)
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SW_INC) $(SIMCMD_INC) $(ISS_INC) -Isim/fdo -Isw/fdo -DTIPROF_HAVE_SIM \
	  $(SANFLAGS) -frounding-math -o $@ $(REPORT_TSAN_SRCS) $(TRACE_LIB) $(TIPMODEL_LIB) \
	  $(PMMODEL_LIB) $(TIPROF_HW_LIB) $(CORE_LIB) $(VCD_LIB) $(ISA_LIB) -lglpk -lm -ldw -lelf $(LDFLAGS)

test-report: $(BUILD)/bin/tiprof $(LBR_SO) $(WORKLOAD_BINS) $(WORKLOAD_DYN_BINS) $(REPORT_TATTR) $(REPORT_TSAN)
	@echo "== test-report: sim --profile, dump, report and annotate on workloads; bad inputs"
	@$(REPORT_TATTR)
	@BUILD=$(BUILD) tests/sw/report.sh
	@echo "-- tests/sw/bad_input.sh: every subcommand on bad input"
	@tests/sw/bad_input.sh $(BUILD)/bin/tiprof $(REPORT_TSAN) $(BUILD)/workloads \
	  $(BUILD)/report-test/bad $(LBR_SO)
