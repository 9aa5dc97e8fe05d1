# SPDX-License-Identifier: Apache-2.0
# Xtpsd, selective dispatch (docs/seldisp.md): its ISA tier. The encodings are in
# include/tiprof/seldisp.h, the decoder/disassembler in lib/isa, the semantics in sim/iss;
# the test programs and tools in tests/sim/iss/sd_*. Needs lib/isa/isa.mk and sim/iss/iss.mk.
## test-seldisp-isa: Xtpsd programs (C and asm) on the ISS with profiling on/off: profile counts = plain C counts, stdout = qemu-riscv64's on the build without the extension; decoder = objdump + the bit layouts (+200k random custom-0/1 words); 7 planted bugs in the ISS and the flag state machine caught

SD_OUT     := $(BUILD)/iss/sd
SD_TDIR    := tests/sim/iss
SD_INC     := -Iinclude
# sd_count: static (linked from the object the objdump check reads), dynamic (PIE), and the
# build without the extension that qemu-riscv64 runs; sd_asm: freestanding, static.
SD_BINS    := $(addprefix $(SD_OUT)/,sd_count sd_count_dyn sd_count_none sd_asm)
SD_TOOLS   := $(SD_OUT)/sd-dis $(SD_OUT)/sd-step
# Iterations of sd_count's workload per round.
SD_N       ?= 1000

.PHONY: test-seldisp-isa
TEST_TARGETS += test-seldisp-isa

$(SD_OUT)/sd_count.o: $(SD_TDIR)/sd_count.c include/tiprof/seldisp.h
	@mkdir -p $(@D)
	$(RV_CC) $(filter-out -static,$(RV_CFLAGS)) $(SD_INC) -c -o $@ $<
$(SD_OUT)/sd_count: $(SD_OUT)/sd_count.o
	$(RV_CC) -static -o $@ $<
$(SD_OUT)/sd_count_dyn: $(SD_TDIR)/sd_count.c include/tiprof/seldisp.h
	@mkdir -p $(@D)
	$(RV_CC) $(filter-out -static,$(RV_CFLAGS)) $(SD_INC) -o $@ $<
$(SD_OUT)/sd_count_none: $(SD_TDIR)/sd_count.c include/tiprof/seldisp.h
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) $(SD_INC) -DSD_NONE -o $@ $<
$(SD_OUT)/sd_asm.o: $(SD_TDIR)/sd_asm.S include/tiprof/seldisp.h
	@mkdir -p $(@D)
	$(RV_CC) $(SD_INC) -c -o $@ $<
$(SD_OUT)/sd_asm: $(SD_OUT)/sd_asm.o
	$(RV_CC) -nostdlib -static -o $@ $<

$(SD_OUT)/sd-dis: $(SD_TDIR)/sd_dis.c $(ISA_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ISA_INC) -o $@ $< $(ISA_LIB)
$(SD_OUT)/sd-step: $(SD_TDIR)/sd_step.c $(ISS_LIB) $(ISA_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ISS_INC) -o $@ $< $(ISS_LIB) $(ISA_LIB) -lm

test-seldisp-isa: $(SD_BINS) $(SD_OUT)/sd_count.o $(SD_OUT)/sd_asm.o $(SD_TOOLS) \
		  $(ISA_OUT)/isa-objdump-check $(TIPROF_BIN)
	@echo "== test-seldisp-isa: decoder vs $(RV_OBJDUMP) and the bit layouts"
	@set -e; for p in sd_count sd_asm; do \
		$(RV_OBJDUMP) -d -z $(SD_OUT)/$$p | $(ISA_OUT)/isa-objdump-check $$p > $(SD_OUT)/$$p.isa; \
		cat $(SD_OUT)/$$p.isa; grep -q ' [1-9][0-9]* Xtpsd agreed' $(SD_OUT)/$$p.isa; \
		$(PYTHON) $(SD_TDIR)/sd_objdump.py $(RV_OBJDUMP) $(CROSS_COMPILE)nm $(SD_OUT)/sd-dis \
			$(SD_OUT)/$$p $(SD_OUT)/$$p.o; \
	done
	@$(PYTHON) $(SD_TDIR)/sd_objdump.py --random $(SD_OUT)/sd-dis 200000
	@$(SD_OUT)/sd-dis --classify
	@echo "== test-seldisp-isa: profile counts on the ISS, profiling on and off"
	@set -e; $(QEMU_RISCV64) $(SD_OUT)/sd_count_none on $(SD_N) > $(SD_OUT)/qemu.out; \
	for p in sd_count sd_count_dyn; do for m in on off; do \
		$(TIPROF_BIN) iss $(SD_OUT)/$$p $$m $(SD_N) > $(SD_OUT)/$$p.$$m.out; \
		cmp $(SD_OUT)/qemu.out $(SD_OUT)/$$p.$$m.out; \
	done; done; \
	for m in on off; do \
		$(SD_OUT)/sd-step $(SD_OUT)/sd_count $$m $(SD_N) > $(SD_OUT)/step.$$m.out; \
		cmp $(SD_OUT)/qemu.out $(SD_OUT)/step.$$m.out; \
	done; \
	test "$$($(TIPROF_BIN) iss $(SD_OUT)/sd_asm)" = "sd_asm ok"; \
	$(SD_OUT)/sd-step $(SD_OUT)/sd_asm > /dev/null; \
	echo "sd_count: stdout equal to qemu-riscv64's (build without Xtpsd) with profiling on and off, static and dynamic, iss_run and iss_step"
	@echo "== test-seldisp-isa: planted bugs (ISS, flag state machine)"
	@sh $(SD_TDIR)/sd_mutants.sh "$(CC)" "$(CSTD) -O1 $(ISS_INC) -Iinclude -frounding-math" \
		$(SD_OUT)/mutants $(ISA_LIB) $(SD_OUT)/sd_count $(SD_OUT)/sd_asm
