# SPDX-License-Identifier: Apache-2.0
# sim/workloads: the workload suite the simulated core and the profilers are
# judged on (TIP paper classes: compute-, flush- and stall-intensive). Static
# riscv64 glibc binaries in $(BUILD)/workloads/<name>. Included from the top
# Makefile, which defines CROSS_COMPILE, BUILD, QEMU_RISCV64, TEST_TARGETS and
# BENCH_TARGETS; paths relative to the repository root.
#   make workloads        build every workload
#   make test-workloads   run each under qemu-riscv64 at its small and default
#                         size: exit status 0 and an "<name>: OK" line
#   make bench-workloads  count dynamic instructions at the default size
#                         under qemu-riscv64 (~1 min) and check the 10M-60M
#                         range; the README records the counts

WL_DIR  := sim/workloads
WL_OUT  := $(BUILD)/workloads
WL_LOG  := $(BUILD)/workloads-test
WL_CC   := $(CROSS_COMPILE)gcc
WL_CFLAGS := -std=c11 -O2 -g -gdwarf-4 -static -Wall -Wextra -Werror

# name:small-size pairs (about 1M instructions each, for fast tests); the
# default size (10M-60M instructions) is built into each program. Other
# fragments may use WORKLOAD_SMALL, WORKLOADS and WORKLOAD_BINS.
WORKLOAD_SMALL := matmul:48 crc32:6 quicksort:5000 dispatch:35000 ceilfloor:20 \
                  ptrchase:16384 stream:16384
WORKLOADS     := $(foreach w,$(WORKLOAD_SMALL),$(firstword $(subst :, ,$(w))))
WORKLOAD_BINS := $(addprefix $(WL_OUT)/,$(WORKLOADS))

## workloads: build the seven self-checking RISC-V workloads (build/workloads/)
## test-workloads: every workload under qemu-riscv64 at its small and default size
## bench-workloads: dynamic instruction counts of the workloads at default size (qemu-riscv64)
.PHONY: workloads test-workloads bench-workloads
TEST_TARGETS  += test-workloads
BENCH_TARGETS += bench-workloads

workloads: $(WORKLOAD_BINS)

$(WORKLOAD_BINS): $(WL_OUT)/%: $(WL_DIR)/%.c $(WL_DIR)/wl.h
	@mkdir -p $(@D)
	@echo "  RVCC    $@"
	@$(WL_CC) $(WL_CFLAGS) -o $@ $< -lm

# The same workloads dynamically linked (PIE, the cross compiler's default: interpreter
# and libc from /usr/riscv64-linux-gnu), for the ISS's dynamic-loading tests.
WL_DYN_OUT := $(BUILD)/workloads-dyn
WORKLOAD_DYN_BINS := $(addprefix $(WL_DYN_OUT)/,$(WORKLOADS))
## workloads-dyn: the workloads as dynamically linked PIEs (build/workloads-dyn/), for the ISS tests
.PHONY: workloads-dyn
workloads-dyn: $(WORKLOAD_DYN_BINS)
$(WORKLOAD_DYN_BINS): $(WL_DYN_OUT)/%: $(WL_DIR)/%.c $(WL_DIR)/wl.h
	@mkdir -p $(@D)
	@echo "  RVCC    $@"
	@$(WL_CC) $(filter-out -static,$(WL_CFLAGS)) -o $@ $< -lm

# Small and default runs of all workloads, in parallel (each log under
# $(WL_LOG)), then one verdict per run.
test-workloads: $(WORKLOAD_BINS)
	@echo "== test-workloads: $(words $(WORKLOADS)) workloads under $(QEMU_RISCV64), small and default sizes"
	@rm -rf $(WL_LOG) && mkdir -p $(WL_LOG)
	@for p in $(WORKLOAD_SMALL); do \
		w=$${p%%:*}; s=$${p##*:}; \
		( $(QEMU_RISCV64) $(WL_OUT)/$$w $$s > $(WL_LOG)/$$w.small.out 2>&1; \
		  echo $$? > $(WL_LOG)/$$w.small.rc ) & \
		( $(QEMU_RISCV64) $(WL_OUT)/$$w > $(WL_LOG)/$$w.default.out 2>&1; \
		  echo $$? > $(WL_LOG)/$$w.default.rc ) & \
	done; wait
	@fail=0; for p in $(WORKLOAD_SMALL); do \
		w=$${p%%:*}; for run in small default; do \
			f=$(WL_LOG)/$$w.$$run; \
			if [ "$$(cat $$f.rc)" = 0 ] && [ "$$(wc -l < $$f.out)" = 1 ] && \
			   grep -q "^$$w: OK size=[0-9]* checksum=0x[0-9a-f]* reference=0x[0-9a-f]*$$" $$f.out; then \
				printf '  PASS  %-8s %s\n' $$run "$$(cat $$f.out)"; \
			else \
				printf '  FAIL  %-8s %s (exit %s)\n' $$run "$$(cat $$f.out)" "$$(cat $$f.rc)"; fail=1; \
			fi; \
		done; \
	done; exit $$fail

# Dynamic instructions at the default size, counted from QEMU's translation
# block log (count_insns.sh says how), each checked against the 10M-60M
# range the simulator runs are sized for.
WL_MIN_INSNS := 10000000
WL_MAX_INSNS := 60000000
bench-workloads: $(WORKLOAD_BINS)
	@echo "== bench-workloads: dynamic instructions at the default size ($(QEMU_RISCV64) -d nochain,exec,in_asm)"
	@set -o pipefail; WL_QEMU=$(QEMU_RISCV64) $(WL_DIR)/count_insns.sh $(WORKLOAD_BINS) | \
		awk '{ ok = $$2 ~ /^[0-9]+$$/ && $$2 >= $(WL_MIN_INSNS) && $$2 <= $(WL_MAX_INSNS) && $$NF == "0)"; \
		       print $$0 (ok ? "" : "  <-- outside $(WL_MIN_INSNS)..$(WL_MAX_INSNS) or failed"); bad += !ok } \
		     END { exit bad != 0 }'

# The ISS against qemu-riscv64 on every workload at its small size: whole-run stdout/exit
# status, and register-for-register lockstep over the first $(ISS_LOCKSTEP_N) instructions
# (make bench-iss-workloads runs a longer lockstep).
## test-iss-workloads: the ISS against qemu-riscv64 on every workload: whole-run output and 200k-instruction lockstep
## bench-iss-workloads: the same with a 2M-instruction lockstep
.PHONY: test-iss-workloads bench-iss-workloads
TEST_TARGETS  += test-iss-workloads
BENCH_TARGETS += bench-iss-workloads
test-iss-workloads: $(ISS_BIN) $(ISS_LOCKSTEP) $(ISS_OUT)/at_random $(WORKLOAD_BINS)
	@env $(foreach w,$(WORKLOAD_SMALL),ARGS_$(firstword $(subst :, ,$(w)))=$(lastword $(subst :, ,$(w)))) \
	  QEMU_RISCV64="$(QEMU_RISCV64)" ISS="$(ISS_CMD)" LOCKSTEP="$(ISS_LOCKSTEP)" AT_RANDOM_BIN=$(ISS_OUT)/at_random \
	  N="$(ISS_LOCKSTEP_N)" OUT="$(BUILD)/iss-workloads" tests/sim/iss/run-tests.sh $(WORKLOAD_BINS)

bench-iss-workloads: $(ISS_BIN) $(ISS_LOCKSTEP) $(ISS_OUT)/at_random $(WORKLOAD_BINS)
	@env $(foreach w,$(WORKLOAD_SMALL),ARGS_$(firstword $(subst :, ,$(w)))=$(lastword $(subst :, ,$(w)))) \
	  QEMU_RISCV64="$(QEMU_RISCV64)" ISS="$(ISS_CMD)" LOCKSTEP="$(ISS_LOCKSTEP)" AT_RANDOM_BIN=$(ISS_OUT)/at_random \
	  N=2000000 OUT="$(BUILD)/iss-workloads-bench" tests/sim/iss/run-tests.sh $(WORKLOAD_BINS)
