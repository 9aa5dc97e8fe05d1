# SPDX-License-Identifier: Apache-2.0
# sw/seldisp: the Xtpsd instrumenter (tpsd_instrument.py over gcc -S output, the compiler
# wrapper tpsd-cc) and its runtime (tpsd_rt.c, RISC-V, linked into instrumented programs);
# docs/seldisp.md section 9. The tests run the ISS and the core model: included with the
# simulator (needs lib/isa/isa.mk, sim/iss, sim/workloads, sim/programs).
## test-seldisp-instr: instrumented program (blocks + call graph): stdout = qemu's uninstrumented run with profiling off/on/windowed (ISS, core model), counters = tiprof iss --truth, objdump = decoder, 5 planted bugs caught
## bench-seldisp: overhead in simulated cycles (4wide) of block and call-graph instrumentation, plain / decode filter / + each branch strategy / + flag predictor at windows 10/25/50 %, and each window's Manhattan distance to the full profile (~15 min)

SDI_DIR  := sw/seldisp
SDI_TDIR := tests/sim/seldisp
SDI_OUT  := $(BUILD)/seldisp-instr
SDI_ENV  := TIPROF=$(abspath $(TIPROF_BIN)) RV_CC=$(RV_CC) RV_OBJDUMP=$(RV_OBJDUMP) \
	    RV_NM=$(CROSS_COMPILE)nm QEMU=$(QEMU_RISCV64) \
	    OBJDUMP_CHECK=$(abspath $(ISA_OUT)/isa-objdump-check) INC=$(abspath include)

.PHONY: test-seldisp-instr bench-seldisp
TEST_TARGETS  += test-seldisp-instr
BENCH_TARGETS += bench-seldisp

test-seldisp-instr: $(TIPROF_BIN) $(ISA_OUT)/isa-objdump-check
	@echo "== test-seldisp-instr: instr_prog instrumented (sw/seldisp), ISS and core model"
	@$(SDI_ENV) bash $(SDI_TDIR)/instr-tests.sh $(SDI_OUT)/test $(SDI_DIR)
	@echo "== test-seldisp-instr: planted bugs in the instrumenter and the runtime"
	@$(SDI_ENV) bash $(SDI_TDIR)/instr-mutants.sh $(SDI_OUT)/mutants $(SDI_DIR)

bench-seldisp: $(TIPROF_BIN) workloads programs program-inputs
	@echo "== bench-seldisp: Xtpsd instrumentation on the 4-wide core model (docs/seldisp.md section 10)"
	@$(SDI_ENV) WL_DIR=$(abspath $(WL_DIR)) PROG_DIR=$(abspath sim/programs) \
		PROG_OUT=$(abspath $(PROG_OUT)) $(PYTHON) $(SDI_TDIR)/bench_instr.py $(SDI_OUT)/bench
