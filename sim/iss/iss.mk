# sim/iss: RV64GC instruction-set simulator library (build/iss/libiss.a),
# the tiprof-iss command and their tests. Needs sim/isa/isa.mk first.
#   make test-iss    output/exit status equal to qemu-riscv64 on the test
#                    programs, and per-instruction lockstep against QEMU
#   make bench-iss   ISS speed in MIPS next to qemu-riscv64

ISS_DIR  := sim/iss
ISS_OUT  := $(BUILD)/iss
ISS_SRCS := $(addprefix $(ISS_DIR)/,iss_core.c iss_fp.c iss_mem.c iss_syscall.c iss_load.c)
ISS_OBJS := $(patsubst $(ISS_DIR)/%.c,$(ISS_OUT)/%.o,$(ISS_SRCS))
ISS_HDRS := $(addprefix $(ISS_DIR)/,iss.h iss_int.h iss_mem.h) $(ISA_HDRS)
ISS_LIB  := $(ISS_OUT)/libiss.a
ISS_INC  := -I$(ISS_DIR) $(ISA_INC)
ISS_BIN  := $(BUILD)/bin/tiprof-iss
ISS_LOCKSTEP := $(ISS_OUT)/iss-lockstep
# Instructions compared per program in lockstep.
ISS_LOCKSTEP_N ?= 200000

.PHONY: iss test-iss bench-iss
TEST_TARGETS  += test-iss
BENCH_TARGETS += bench-iss

iss: $(ISS_BIN)

# FP semantics depend on the run-time rounding mode: keep the compiler
# from folding or moving FP operations across fesetround().
$(ISS_OUT)/iss_fp.o: ISS_EXTRA_CFLAGS := -frounding-math

$(ISS_OUT)/%.o: $(ISS_DIR)/%.c $(ISS_HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ISS_EXTRA_CFLAGS) $(ISS_INC) -c -o $@ $<

$(ISS_LIB): $(ISS_OBJS)
	rm -f $@ && ar rcs $@ $^

$(ISS_BIN): $(ISS_DIR)/iss_main.c $(ISS_LIB) $(ISA_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ISS_INC) -o $@ $< $(ISS_LIB) $(ISA_LIB) -lm

$(ISS_LOCKSTEP): $(ISS_DIR)/tests/iss_lockstep.c $(ISS_LIB) $(ISA_LIB)
	$(CC) $(ALL_CFLAGS) $(ISS_INC) -o $@ $< $(ISS_LIB) $(ISA_LIB) -lm

$(ISS_OUT)/iss-api-test: $(ISS_DIR)/tests/iss_api_test.c $(ISS_LIB) $(ISA_LIB)
	$(CC) $(ALL_CFLAGS) $(ISS_INC) -o $@ $< $(ISS_LIB) $(ISA_LIB) -lm

$(ISS_OUT)/at_random: $(ISS_DIR)/tests/at_random.c
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) -o $@ $<

test-iss: $(ISS_BIN) $(ISS_LOCKSTEP) $(ISS_OUT)/iss-api-test $(ISS_OUT)/at_random $(ISA_RV_BINS)
	@$(ISS_OUT)/iss-api-test $(ISA_OUT)/rv/prog_atomic 2000
	@QEMU_RISCV64="$(QEMU_RISCV64)" ISS="$(ISS_BIN)" LOCKSTEP="$(ISS_LOCKSTEP)" \
		N="$(ISS_LOCKSTEP_N)" OUT="$(ISS_OUT)" $(ISS_DIR)/tests/run-tests.sh $(ISA_RV_BINS)

bench-iss: $(ISS_BIN) $(ISA_RV_BINS)
	@QEMU_RISCV64="$(QEMU_RISCV64)" ISS="$(ISS_BIN)" $(ISS_DIR)/tests/bench.sh $(ISA_OUT)/rv/prog_int
