# SPDX-License-Identifier: Apache-2.0
# sw/fdo/fdo.mk - sample-based FDO (issue 13, docs/fdo.md): the control-flow graph, profiles from
# sample files, min-cost-flow smoothing on GLPK (-lglpk, Debian libglpk-dev), the overlap metric
# (sw/fdo/*.c) and `tiprof fdo` (sw/cmd-fdo.c). Included by sw/sw.mk after TIPROF_OBJS: it adds
# its objects and GLPK to the tiprof link, and TIPROF_HAVE_FDO to sw/tiprof.c (other builds of
# the command's sources, without GLPK, leave `fdo` out of the table). The exact profile comes
# from the simulator (sim/fdo/fdo_truth.c, `tiprof iss --truth`).
## test-fdo: sample-based FDO: min-cost flow on hand-built CFGs (known optima, GLPK's two solvers agree), exact block/edge counts against known trip counts, the overlap metric on hand-worked profiles, bad inputs; < 60 s
## test-fdo-compiler: sample-based FDO to the compilers: LLVM text and GCC AutoFDO profiles (tiprof fdo llvm-prof / gcc-afdo) from riscv64 TIP samples and x86-64 branch records, read by gcc-12 and clang without a diagnostic and visible in their IR; two planted writer bugs caught; bad inputs; < 1 min
## bench-fdo-overlap: degree of overlap with the exact edge profile per source (TIP commit/cycles, ProfileMe) and stage (raw, static, MCF, MCF+heuristics, perfect), on the workloads and a Debian program (the paper's Figure 3)

FDO_DIR       := sw/fdo
FDO_SRCS      := $(addprefix $(FDO_DIR)/,fdo_cfg.c fdo_prof.c fdo_flow.c fdo_src.c)
FDO_CFLAGS    := -I$(FDO_DIR) $(SYMBOL_CFLAGS) $(SAMPLE_CFLAGS) $(ISA_INC)
CFLAGS_sw/fdo  = $(FDO_CFLAGS)
CFLAGS_sw/cmd-fdo.c := -I$(FDO_DIR)
CFLAGS_sw/tiprof.c += -DTIPROF_HAVE_FDO
TIPROF_OBJS   += $(call obj,$(FDO_SRCS) $(SW_DIR)/cmd-fdo.c)
TIPROF_LIBS   += -lglpk

# the source-level profile and its DWARF reader (sw/lib; linked into tiprof with the branch
# tracer's converters, LBR_OUT_SRCS): the unit test links them itself
FDO_SRCPROF_SRCS := sw/lib/srcprof.c sw/lib/dwarf_lines.c
FDO_TEST_DIR  := tests/sw/fdo
FDO_TEST_BIN  := $(BUILD)/fdo/test_fdo

.PHONY: test-fdo test-fdo-compiler bench-fdo-overlap
ifneq ($(TIPROF_SIM),0)
TEST_TARGETS  += test-fdo test-fdo-compiler
BENCH_TARGETS += bench-fdo-overlap
endif

$(FDO_TEST_BIN): $(FDO_TEST_DIR)/test_fdo.c tests/include/tcheck.h $(FDO_SRCS) $(FDO_DIR)/fdo.h \
		 $(FDO_SRCPROF_SRCS) \
		 $(SYMBOL_LIB) $(ISA_LIB) $(SAMPLE_LIB)
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) -Itests/include $(FDO_CFLAGS) -o $@ $< $(FDO_SRCS) \
	  $(FDO_SRCPROF_SRCS) $(SYMBOL_LIBS) $(SAMPLE_LIB) -lglpk -lm

test-fdo: $(FDO_TEST_BIN) $(TIPROF_BIN) $(WORKLOAD_BINS)
	@echo "== test-fdo: min-cost flow, exact truth, overlap metric, bad inputs"
	@TIPROF=$(TIPROF_BIN) TEST_FDO=$(FDO_TEST_BIN) WL_OUT=$(WL_OUT) TMP=$(BUILD)/fdo/tmp \
	  $(FDO_TEST_DIR)/run-tests.sh

bench-fdo-overlap: $(TIPROF_BIN) $(WORKLOAD_BINS)
	@echo "== bench-fdo-overlap: edge overlap with the exact profile (tests/sw/fdo/bench.py)"
	@TIPROF=$(TIPROF_BIN) WL_OUT=$(WL_OUT) PROGRAMS=$(BUILD)/programs OUT=$(BUILD)/fdo/bench \
	  $(PYTHON) $(FDO_TEST_DIR)/bench.py

# test-fdo-compiler's planted bugs: tiprof linked with sw/lib/srcprof.c mutated by
# tests/sw/fdo/mutant-NAME.sed (the mutation must change the source)
FDO_MUTANTS   := abs-lines big-endian
FDO_MUT_BINS  := $(patsubst %,$(BUILD)/fdo/mutant-%/tiprof,$(FDO_MUTANTS))

$(BUILD)/fdo/mutant-%/tiprof: $(FDO_TEST_DIR)/mutant-%.sed sw/lib/srcprof.c sw/lib/srcprof.h $(TIPROF_BIN)
	@mkdir -p $(@D)
	@echo "  CC      $@ (planted bug: $*)"
	@sed -f $< sw/lib/srcprof.c >$(@D)/srcprof.c
	@! cmp -s sw/lib/srcprof.c $(@D)/srcprof.c || { echo "$<: changes nothing"; exit 1; }
	@$(CC) $(ALL_CFLAGS) $(CFLAGS_sw/lib) -Isw/lib -c -o $(@D)/srcprof.o $(@D)/srcprof.c
	@$(CC) -o $@ $(filter-out $(call obj,sw/lib/srcprof.c),$(TIPROF_OBJS)) $(@D)/srcprof.o \
	  $(TIPROF_LIBS) $(LDFLAGS)

test-fdo-compiler: $(TIPROF_BIN) $(FDO_MUT_BINS)
	@echo "== test-fdo-compiler: LLVM and GCC AutoFDO profiles read and used by clang and gcc-12"
	@TIPROF=$(TIPROF_BIN) MUTANTS="$(FDO_MUT_BINS)" TMP=$(BUILD)/fdo/compiler \
	  timeout 120 $(FDO_TEST_DIR)/compiler.sh
