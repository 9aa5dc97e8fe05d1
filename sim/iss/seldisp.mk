# SPDX-License-Identifier: Apache-2.0
# Xtpsd, selective dispatch (docs/seldisp.md): its ISA tier. The encodings are in
# include/tiprof/seldisp.h, the decoder/disassembler in lib/isa, the semantics in sim/iss;
# the test programs and tools in tests/sim/iss/sd_*. Needs lib/isa/isa.mk and sim/iss/iss.mk.
## test-seldisp-isa: Xtpsd programs (C and asm) on the ISS with profiling on/off: profile counts = plain C counts, stdout = qemu-riscv64's on the build without the extension; decoder = objdump + the bit layouts (+200k random custom-0/1 words); 7 planted bugs in the ISS and the flag state machine caught

SDISA_OUT     := $(BUILD)/iss/sd
SDISA_TDIR    := tests/sim/iss
SDISA_INC     := -Iinclude
# sd_count: static (linked from the object the objdump check reads), dynamic (PIE), and the
# build without the extension that qemu-riscv64 runs; sd_asm: freestanding, static.
SDISA_BINS    := $(addprefix $(SDISA_OUT)/,sd_count sd_count_dyn sd_count_none sd_asm)
SDISA_TOOLS   := $(SDISA_OUT)/sd-dis $(SDISA_OUT)/sd-step
# Iterations of sd_count's workload per round.
SDISA_N       ?= 1000

.PHONY: test-seldisp-isa
TEST_TARGETS += test-seldisp-isa

$(SDISA_OUT)/sd_count.o: $(SDISA_TDIR)/sd_count.c include/tiprof/seldisp.h
	@mkdir -p $(@D)
	$(RV_CC) $(filter-out -static,$(RV_CFLAGS)) $(SDISA_INC) -c -o $@ $<
$(SDISA_OUT)/sd_count: $(SDISA_OUT)/sd_count.o
	$(RV_CC) -static -o $@ $<
$(SDISA_OUT)/sd_count_dyn: $(SDISA_TDIR)/sd_count.c include/tiprof/seldisp.h
	@mkdir -p $(@D)
	$(RV_CC) $(filter-out -static,$(RV_CFLAGS)) $(SDISA_INC) -o $@ $<
$(SDISA_OUT)/sd_count_none: $(SDISA_TDIR)/sd_count.c include/tiprof/seldisp.h
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) $(SDISA_INC) -DSD_NONE -o $@ $<
$(SDISA_OUT)/sd_asm.o: $(SDISA_TDIR)/sd_asm.S include/tiprof/seldisp.h
	@mkdir -p $(@D)
	$(RV_CC) $(SDISA_INC) -c -o $@ $<
$(SDISA_OUT)/sd_asm: $(SDISA_OUT)/sd_asm.o
	$(RV_CC) -nostdlib -static -o $@ $<

$(SDISA_OUT)/sd-dis: $(SDISA_TDIR)/sd_dis.c $(ISA_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ISA_INC) -o $@ $< $(ISA_LIB)
$(SDISA_OUT)/sd-step: $(SDISA_TDIR)/sd_step.c $(ISS_LIB) $(ISA_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ISS_INC) -o $@ $< $(ISS_LIB) $(ISA_LIB) -lm

test-seldisp-isa: $(SDISA_BINS) $(SDISA_OUT)/sd_count.o $(SDISA_OUT)/sd_asm.o $(SDISA_TOOLS) \
		  $(ISA_OUT)/isa-objdump-check $(TIPROF_BIN)
	@echo "== test-seldisp-isa: decoder vs $(RV_OBJDUMP) and the bit layouts"
	@set -e; for p in sd_count sd_asm; do \
		$(RV_OBJDUMP) -d -z $(SDISA_OUT)/$$p | $(ISA_OUT)/isa-objdump-check $$p > $(SDISA_OUT)/$$p.isa; \
		cat $(SDISA_OUT)/$$p.isa; grep -q ' [1-9][0-9]* Xtpsd agreed' $(SDISA_OUT)/$$p.isa; \
		$(PYTHON) $(SDISA_TDIR)/sd_objdump.py $(RV_OBJDUMP) $(CROSS_COMPILE)nm $(SDISA_OUT)/sd-dis \
			$(SDISA_OUT)/$$p $(SDISA_OUT)/$$p.o; \
	done
	@$(PYTHON) $(SDISA_TDIR)/sd_objdump.py --random $(SDISA_OUT)/sd-dis 200000
	@$(SDISA_OUT)/sd-dis --classify
	@echo "== test-seldisp-isa: profile counts on the ISS, profiling on and off"
	@set -e; $(QEMU_RISCV64) $(SDISA_OUT)/sd_count_none on $(SDISA_N) > $(SDISA_OUT)/qemu.out; \
	for p in sd_count sd_count_dyn; do for m in on off; do \
		$(TIPROF_BIN) iss $(SDISA_OUT)/$$p $$m $(SDISA_N) > $(SDISA_OUT)/$$p.$$m.out; \
		cmp $(SDISA_OUT)/qemu.out $(SDISA_OUT)/$$p.$$m.out; \
	done; done; \
	for m in on off; do \
		$(SDISA_OUT)/sd-step $(SDISA_OUT)/sd_count $$m $(SDISA_N) > $(SDISA_OUT)/step.$$m.out; \
		cmp $(SDISA_OUT)/qemu.out $(SDISA_OUT)/step.$$m.out; \
	done; \
	test "$$($(TIPROF_BIN) iss $(SDISA_OUT)/sd_asm)" = "sd_asm ok"; \
	$(SDISA_OUT)/sd-step $(SDISA_OUT)/sd_asm > /dev/null; \
	echo "sd_count: stdout equal to qemu-riscv64's (build without Xtpsd) with profiling on and off, static and dynamic, iss_run and iss_step"
	@echo "== test-seldisp-isa: planted bugs (ISS, flag state machine)"
	@sh $(SDISA_TDIR)/sd_mutants.sh "$(CC)" "$(CSTD) -O1 $(ISS_INC) -Iinclude -frounding-math" \
		$(SDISA_OUT)/mutants $(ISA_LIB) $(SDISA_OUT)/sd_count $(SDISA_OUT)/sd_asm
