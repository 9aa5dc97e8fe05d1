# SPDX-License-Identifier: Apache-2.0
# sim/programs: real third-party programs, cross-built for riscv64 from pinned Debian 12 source
# packages (sim/programs/build.sh, sim/programs/programs.lock, one recipe per program in
# sim/programs/recipes/), run on tiprof iss and tiprof sim against qemu-riscv64
# (tests/sim/programs/). Included from the top Makefile, which defines BUILD, CROSS_COMPILE,
# QEMU_RISCV64, TIPROF_BIN and TEST_TARGETS; paths relative to the repository root.
# The fetched sources, objects and binaries are cached under $(BUILD)/programs/ (build.sh
# rebuilds only when the lock, a recipe, build.sh or the compiler change).
## programs: fetch the pinned Debian 12 source packages (private apt, no root) and cross-build the real programs (build/programs/bin/zstd-static, zstd-dynamic)
## test-programs: real programs (zstd 1.5.4) on tiprof iss and tiprof sim against qemu-riscv64: identical output and exit status

PROG_DIR := sim/programs
PROG_OUT := $(BUILD)/programs
PROG_GEN := $(PROG_OUT)/gen-input

.PHONY: programs test-programs
TEST_TARGETS += test-programs

programs:
	@BUILD="$(BUILD)" CROSS_COMPILE="$(CROSS_COMPILE)" $(PROG_DIR)/build.sh

$(PROG_GEN): $(PROG_DIR)/gen_input.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $<

test-programs: programs $(PROG_GEN) $(TIPROF_BIN)
	@TIPROF="$(TIPROF_BIN)" PROGRAMS="$(PROG_OUT)/bin" GEN="$(PROG_GEN)" OUT="$(PROG_OUT)/test" \
	  QEMU_RISCV64="$(QEMU_RISCV64)" CROSS_COMPILE="$(CROSS_COMPILE)" tests/sim/programs/test_zstd.sh
