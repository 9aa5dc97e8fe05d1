# SPDX-License-Identifier: Apache-2.0
# sim/programs: real third-party programs, cross-built for riscv64 from pinned Debian 12 source
# packages (sim/programs/build.sh, sim/programs/programs.lock, one recipe per program in
# sim/programs/recipes/), run on tiprof iss and tiprof sim against qemu-riscv64
# (tests/sim/programs/): the suite of sim/programs/suite.txt, with inputs made by
# sim/programs/inputs.sh in $(BUILD)/programs/inputs/. Included from the top Makefile, which
# defines BUILD, CROSS_COMPILE, QEMU_RISCV64, TIPROF_BIN and TEST_TARGETS; paths relative to
# the repository root.
# The fetched sources, objects and binaries are cached under $(BUILD)/programs/ (build.sh
# rebuilds only when the lock, a recipe, build.sh, a driver or the compiler change).
## programs: fetch the pinned Debian 12 source packages (private apt, no root) and cross-build the real programs (build/programs/bin/: zstd, bzip2, minigzip, brotli, xz, lua, luac, cjson-bench, pcre2grep, sqlite3)
## program-inputs: make the real-program suite's inputs in build/programs/inputs/ (sim/programs/inputs.sh; the suite is sim/programs/suite.txt)
## test-programs: real programs on tiprof iss and tiprof sim against qemu-riscv64: zstd's cases, then every program of sim/programs/suite.txt at its short input: identical output and exit status
## test-programs-full: every program of sim/programs/suite.txt at its full input on qemu-riscv64 and tiprof iss: identical output, at least 10^9 instructions each (not in make test; about 4 min)
PROG_DIR := sim/programs
PROG_OUT := $(BUILD)/programs
PROG_GEN := $(PROG_OUT)/gen-input

PROG_INPUTS := $(PROG_OUT)/inputs
PROG_SUITE_ENV = TIPROF="$(TIPROF_BIN)" PROGRAMS="$(PROG_OUT)/bin" INPUTS="$(PROG_INPUTS)" \
	QEMU_RISCV64="$(QEMU_RISCV64)" SUITE=$(PROG_DIR)/suite.txt

.PHONY: programs program-inputs test-programs test-programs-full
TEST_TARGETS += test-programs

programs:
	@BUILD="$(BUILD)" CROSS_COMPILE="$(CROSS_COMPILE)" $(PROG_DIR)/build.sh

$(PROG_GEN): $(PROG_DIR)/gen_input.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $<

program-inputs: $(PROG_GEN)
	@$(PROG_DIR)/inputs.sh $(PROG_GEN) $(PROG_INPUTS)

test-programs: programs program-inputs $(TIPROF_BIN)
	@TIPROF="$(TIPROF_BIN)" PROGRAMS="$(PROG_OUT)/bin" GEN="$(PROG_GEN)" OUT="$(PROG_OUT)/test" \
	  QEMU_RISCV64="$(QEMU_RISCV64)" CROSS_COMPILE="$(CROSS_COMPILE)" tests/sim/programs/test_zstd.sh
	@echo "== test-suite-short: sim/programs/suite.txt, short inputs, on tiprof iss and tiprof sim against $(QEMU_RISCV64)"
	@$(PROG_SUITE_ENV) OUT="$(PROG_OUT)/suite-short" tests/sim/programs/run_suite.sh short "iss sim"

test-programs-full: programs program-inputs $(TIPROF_BIN)
	@echo "== test-programs-full: sim/programs/suite.txt, full inputs, on tiprof iss against $(QEMU_RISCV64)"
	@$(PROG_SUITE_ENV) OUT="$(PROG_OUT)/suite-full" MIN_INSNS=1000000000 tests/sim/programs/run_suite.sh full iss
