# SPDX-License-Identifier: Apache-2.0
# lib/isa: RV64GC decoder + disassembler library (build/isa/librvisa.a), used by the ISS,
# the core model, the symbolizer, report/annotate and the riscv64 branch tracer; its tests are
# in tests/lib/isa. Included from lib/lib.mk.
## isa: build the RV64GC decoder/disassembler library (build/isa/librvisa.a)
## test-isa: decoder/disassembler equal to riscv64 objdump on 3 static binaries and 300k random words; fuzzing

ISA_DIR  := lib/isa
ISA_OUT  := $(BUILD)/isa
ISA_SRCS := $(addprefix $(ISA_DIR)/,rv_decode.c rv_decode_c.c rv_disasm.c rv_names.c)
ISA_OBJS := $(call obj,$(ISA_SRCS))
ISA_HDRS := $(addprefix $(ISA_DIR)/,rv_isa.h rv_isa_int.h rv_ops.def)
ISA_LIB  := $(ISA_OUT)/librvisa.a
# Users of the library add this to their compile flags.
ISA_INC  := -I$(ISA_DIR)

# RISC-V test programs: static glibc binaries, default -march (rv64gc).
ISA_PROGS    := prog_int prog_fp prog_atomic
ISA_RV_BINS  := $(addprefix $(ISA_OUT)/rv/,$(ISA_PROGS))
RV_CC        := $(CROSS_COMPILE)gcc
RV_OBJDUMP   := $(CROSS_COMPILE)objdump
RV_CFLAGS    := -O2 -static -Wall -Wextra

ISA_TOOLS := $(addprefix $(ISA_OUT)/,isa-objdump-check isa-test-classify isa-test-fuzz)

.PHONY: isa test-isa
TEST_TARGETS += test-isa

isa: $(ISA_LIB)

$(ISA_LIB): $(ISA_OBJS)
	@mkdir -p $(@D)
	@echo "  AR      $@"
	@rm -f $@ && $(AR) rcs $@ $^

$(ISA_OUT)/isa-objdump-check: tests/lib/isa/objdump_check.c $(ISA_LIB)
	$(CC) $(ALL_CFLAGS) $(ISA_INC) -o $@ $< $(ISA_LIB)
$(ISA_OUT)/isa-test-classify: tests/lib/isa/test_classify.c $(ISA_LIB)
	$(CC) $(ALL_CFLAGS) $(ISA_INC) -o $@ $< $(ISA_LIB)
$(ISA_OUT)/isa-test-fuzz: tests/lib/isa/test_fuzz.c $(ISA_LIB)
	$(CC) $(ALL_CFLAGS) $(ISA_INC) -o $@ $< $(ISA_LIB)

$(ISA_OUT)/rv/%: tests/lib/isa/%.c
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) -o $@ $< -lm -latomic

test-isa: $(ISA_TOOLS) $(ISA_RV_BINS)
	@echo "== test-isa: decoder vs $(RV_OBJDUMP) on $(notdir $(ISA_RV_BINS))"
	@set -o pipefail; for b in $(ISA_RV_BINS); do \
		$(RV_OBJDUMP) -d -z $$b | $(ISA_OUT)/isa-objdump-check $$(basename $$b) || exit 1; \
	done
	@$(ISA_OUT)/isa-test-fuzz --emit $(ISA_OUT)/random.bin 300000
	@set -o pipefail; $(RV_OBJDUMP) -D -b binary -m riscv:rv64 $(ISA_OUT)/random.bin | \
		$(ISA_OUT)/isa-objdump-check -x random-words
	@$(ISA_OUT)/isa-test-classify
	@$(ISA_OUT)/isa-test-fuzz 1000000
