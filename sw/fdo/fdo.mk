# SPDX-License-Identifier: Apache-2.0
# sw/fdo/fdo.mk - sample-based FDO (issue 13, docs/fdo.md): the control-flow graph, profiles from
# sample files, min-cost-flow smoothing on GLPK (-lglpk, Debian libglpk-dev), the overlap metric
# (sw/fdo/*.c) and `tiprof fdo` (sw/cmd-fdo.c). Included by sw/sw.mk after TIPROF_OBJS: it adds
# its objects and GLPK to the tiprof link, and TIPROF_HAVE_FDO to sw/tiprof.c (other builds of
# the command's sources, without GLPK, leave `fdo` out of the table). The exact profile comes
# from the simulator (sim/fdo/fdo_truth.c, `tiprof iss --truth`).
## test-fdo: sample-based FDO: min-cost flow on hand-built CFGs (known optima, GLPK's two solvers agree), exact block/edge counts against known trip counts, the overlap metric on hand-worked profiles, bad inputs; < 60 s
## bench-fdo-overlap: degree of overlap with the exact edge profile per source (TIP commit/cycles, ProfileMe) and stage (raw, static, MCF, MCF+heuristics, perfect), on the workloads and a Debian program (the paper's Figure 3)

FDO_DIR       := sw/fdo
FDO_SRCS      := $(addprefix $(FDO_DIR)/,fdo_cfg.c fdo_prof.c fdo_flow.c)
FDO_CFLAGS    := -I$(FDO_DIR) $(SYMBOL_CFLAGS) $(SAMPLE_CFLAGS) $(ISA_INC)
CFLAGS_sw/fdo  = $(FDO_CFLAGS)
CFLAGS_sw/cmd-fdo.c := -I$(FDO_DIR)
CFLAGS_sw/tiprof.c += -DTIPROF_HAVE_FDO
TIPROF_OBJS   += $(call obj,$(FDO_SRCS) $(SW_DIR)/cmd-fdo.c)
TIPROF_LIBS   += -lglpk

FDO_TEST_DIR  := tests/sw/fdo
FDO_TEST_BIN  := $(BUILD)/fdo/test_fdo

.PHONY: test-fdo bench-fdo-overlap
ifneq ($(TIPROF_SIM),0)
TEST_TARGETS  += test-fdo
BENCH_TARGETS += bench-fdo-overlap
endif

$(FDO_TEST_BIN): $(FDO_TEST_DIR)/test_fdo.c tests/include/tcheck.h $(FDO_SRCS) $(FDO_DIR)/fdo.h \
		 $(SYMBOL_LIB) $(ISA_LIB) $(SAMPLE_LIB)
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) -Itests/include $(FDO_CFLAGS) -o $@ $< $(FDO_SRCS) \
	  $(SYMBOL_LIBS) $(SAMPLE_LIB) -lglpk -lm

test-fdo: $(FDO_TEST_BIN) $(TIPROF_BIN) $(WORKLOAD_BINS)
	@echo "== test-fdo: min-cost flow, exact truth, overlap metric, bad inputs"
	@TIPROF=$(TIPROF_BIN) TEST_FDO=$(FDO_TEST_BIN) WL_OUT=$(WL_OUT) TMP=$(BUILD)/fdo/tmp \
	  $(FDO_TEST_DIR)/run-tests.sh

bench-fdo-overlap: $(TIPROF_BIN) $(WORKLOAD_BINS)
	@echo "== bench-fdo-overlap: edge overlap with the exact profile (tests/sw/fdo/bench.py)"
	@TIPROF=$(TIPROF_BIN) WL_OUT=$(WL_OUT) PROGRAMS=$(BUILD)/programs OUT=$(BUILD)/fdo/bench \
	  $(PYTHON) $(FDO_TEST_DIR)/bench.py
