# SPDX-License-Identifier: Apache-2.0
# sim/iss: RV64GC instruction-set simulator library (build/iss/libiss.a; `tiprof iss` is
# sim/cmd/cmd-iss.c) and its tests (tests/sim/iss). Needs lib/isa/isa.mk first.
## iss: build the ISS library (build/iss/libiss.a); `tiprof iss PROG` runs a program on it
## test-iss: ISS output/exit status equal to qemu-riscv64 on the test programs, static and dynamic (+3 dynamic workloads); per-instruction lockstep against QEMU; loaded-object list and loader errors
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
# The riscv64 root dynamic programs get their interpreter and libraries from (the ISS's
# default, and what qemu-riscv64 -L is given).
ISS_SYSROOT ?= /usr/riscv64-linux-gnu
# Dynamically linked (PIE) builds of the lib/isa test programs, and of three workloads
# (sim/workloads/workloads.mk builds $(BUILD)/workloads-dyn/<name>; ceilfloor uses libm).
ISS_DYN_BINS := $(addprefix $(ISS_OUT)/dyn/,$(ISA_PROGS))
ISS_DYN_WL   := $(addprefix $(BUILD)/workloads-dyn/,quicksort dispatch ceilfloor)
# Self-modifying code (static): writes, rewrites and runs instructions in an
# executable mmap'd page; its output and lockstep must equal QEMU's.
ISS_SMC := $(ISS_OUT)/smc
# A dynamic program whose interpreter does not exist (error-message test).
ISS_NOINTERP := $(ISS_OUT)/dyn/no_interp

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

$(ISS_OUT)/iss-objects-test: tests/sim/iss/iss_objects_test.c $(ISS_LIB) $(ISA_LIB)
	$(CC) $(ALL_CFLAGS) $(ISS_INC) -o $@ $< $(ISS_LIB) $(ISA_LIB) -lm

$(ISS_DYN_BINS): $(ISS_OUT)/dyn/%: tests/lib/isa/%.c
	@mkdir -p $(@D)
	$(RV_CC) $(filter-out -static,$(RV_CFLAGS)) -o $@ $< -lm -latomic

$(ISS_NOINTERP): tests/sim/iss/at_random.c
	@mkdir -p $(@D)
	$(RV_CC) $(filter-out -static,$(RV_CFLAGS)) -Wl,--dynamic-linker=/lib/ld-tiprof-missing.so.1 -o $@ $<

$(ISS_SMC): tests/sim/iss/smc.c
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) -o $@ $<

$(ISS_OUT)/at_random: tests/sim/iss/at_random.c
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) -o $@ $<

test-iss: $(ISS_BIN) $(ISS_LOCKSTEP) $(ISS_OUT)/iss-api-test $(ISS_OUT)/iss-objects-test \
	  $(ISS_OUT)/at_random $(ISA_RV_BINS) $(ISS_DYN_BINS) $(ISS_DYN_WL) $(ISS_NOINTERP) $(ISS_SMC)
	@$(ISS_OUT)/iss-api-test $(ISA_OUT)/rv/prog_atomic 2000
	@$(ISS_OUT)/iss-api-test $(ISS_OUT)/dyn/prog_atomic 2000
	@$(ISS_OUT)/iss-objects-test $(ISA_OUT)/rv/prog_int 100
	@$(ISS_OUT)/iss-objects-test --sysroot $(ISS_SYSROOT) $(ISS_OUT)/dyn/prog_atomic 100 $(ISS_OUT)/runs-atomic.tmp
	@$(ISS_OUT)/iss-objects-test --expect-error /lib/ld-tiprof-missing.so.1 $(ISS_NOINTERP)
	@$(ISS_OUT)/iss-objects-test --expect-error /nonexistent/riscv64-root --sysroot /nonexistent/riscv64-root \
		$(ISS_OUT)/dyn/prog_int
	@env $(foreach w,$(WORKLOAD_SMALL),ARGS_$(firstword $(subst :, ,$(w)))=$(lastword $(subst :, ,$(w)))) \
		QEMU_RISCV64="$(QEMU_RISCV64)" ISS="$(ISS_CMD)" LOCKSTEP="$(ISS_LOCKSTEP)" \
		SYSROOT="$(ISS_SYSROOT)" READELF="$(CROSS_COMPILE)readelf" \
		N="$(ISS_LOCKSTEP_N)" OUT="$(ISS_OUT)" tests/sim/iss/run-tests.sh $(ISA_RV_BINS) \
		$(ISS_SMC) $(ISS_DYN_BINS) $(ISS_DYN_WL)

bench-iss: $(ISS_BIN) $(ISA_RV_BINS)
	@QEMU_RISCV64="$(QEMU_RISCV64)" ISS="$(ISS_CMD)" tests/sim/iss/bench.sh $(ISA_OUT)/rv/prog_int
