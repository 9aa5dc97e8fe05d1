# tests/report/report.mk - `tiprof sim --profile`, `tiprof report` and `tiprof annotate`
# (docs/report.md): the attribution library's unit test under AddressSanitizer/UBSan, then
# tests/report/run.sh on two small workloads (~2 s). Included by the top Makefile after
# sw/sw.mk; uses CC, BUILD, ALL_CFLAGS, WORKLOAD_BINS and appends to TEST_TARGETS.
REPORT_SANFLAGS ?= -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
REPORT_TATTR    := $(BUILD)/report/test_attrib

.PHONY: test-report
TEST_TARGETS += test-report

$(REPORT_TATTR): tests/report/test_attrib.c sw/lib/attrib.c sw/lib/attrib.h
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(REPORT_SANFLAGS) -Isw/lib -o $@ $< sw/lib/attrib.c

test-report: $(BUILD)/bin/tiprof $(WORKLOAD_BINS) $(REPORT_TATTR)
	@echo "== test-report: sim --profile, dump, report and annotate on workloads; bad inputs"
	@$(REPORT_TATTR)
	@BUILD=$(BUILD) tests/report/run.sh
