# SPDX-License-Identifier: Apache-2.0
# sim/iss: RV64GC instruction-set simulator library (build/iss/libiss.a; `tiprof iss` is
# sim/cmd/cmd-iss.c) and its tests (tests/sim/iss). Needs lib/isa/isa.mk first.
## iss: build the ISS library (build/iss/libiss.a); `tiprof iss PROG` runs a program on it
## test-iss: ISS output/exit status equal to qemu-riscv64 on the test programs; per-instruction lockstep against QEMU
## bench-iss: ISS speed in MIPS next to qemu-riscv64

ISS_DIR  := sim/iss
ISS_OUT  := $(BUILD)/iss
ISS_SRCS := $(addprefix $(ISS_DIR)/,iss_core.c iss_fp.c iss_mem.c iss_syscall.c iss_load.c)
ISS_OBJS := $(call obj,$(ISS_SRCS))
ISS_HDRS := $(addprefix $(ISS_DIR)/,iss.h iss_int.h iss_mem.h) $(ISA_HDRS)
ISS_LIB  := $(ISS_OUT)/libiss.a
ISS_INC  := -I$(ISS_DIR) $(ISA_INC)
# `tiprof iss` as the scripts run it
ISS_BIN  := $(TIPROF_BIN)
ISS_CMD   = $(TIPROF_BIN) iss
ISS_LOCKSTEP := $(ISS_OUT)/iss-lockstep
# Instructions compared per program in lockstep.
ISS_LOCKSTEP_N ?= 200000

.PHONY: iss test-iss bench-iss
TEST_TARGETS  += test-iss
BENCH_TARGETS += bench-iss

iss: $(ISS_LIB)

CFLAGS_sim/iss = $(ISS_INC)
# FP semantics depend on the run-time rounding mode: keep the compiler
# from folding or moving FP operations across fesetround().
CFLAGS_sim/iss/iss_fp.c := -frounding-math

$(ISS_LIB): $(ISS_OBJS)
	@mkdir -p $(@D)
	@echo "  AR      $@"
	@rm -f $@ && $(AR) rcs $@ $^

$(ISS_LOCKSTEP): tests/sim/iss/iss_lockstep.c $(ISS_LIB) $(ISA_LIB)
	$(CC) $(ALL_CFLAGS) $(ISS_INC) -o $@ $< $(ISS_LIB) $(ISA_LIB) -lm

$(ISS_OUT)/iss-api-test: tests/sim/iss/iss_api_test.c $(ISS_LIB) $(ISA_LIB)
	$(CC) $(ALL_CFLAGS) $(ISS_INC) -o $@ $< $(ISS_LIB) $(ISA_LIB) -lm

$(ISS_OUT)/at_random: tests/sim/iss/at_random.c
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) -o $@ $<

test-iss: $(ISS_BIN) $(ISS_LOCKSTEP) $(ISS_OUT)/iss-api-test $(ISS_OUT)/at_random $(ISA_RV_BINS)
	@$(ISS_OUT)/iss-api-test $(ISA_OUT)/rv/prog_atomic 2000
	@QEMU_RISCV64="$(QEMU_RISCV64)" ISS="$(ISS_CMD)" LOCKSTEP="$(ISS_LOCKSTEP)" \
		N="$(ISS_LOCKSTEP_N)" OUT="$(ISS_OUT)" tests/sim/iss/run-tests.sh $(ISA_RV_BINS)

bench-iss: $(ISS_BIN) $(ISA_RV_BINS)
	@QEMU_RISCV64="$(QEMU_RISCV64)" ISS="$(ISS_CMD)" tests/sim/iss/bench.sh $(ISA_OUT)/rv/prog_int
