# SPDX-License-Identifier: Apache-2.0
# sim/model/model.mk - the C reference model of the TIP unit (libtiprof_tipmodel.a)
# and its unit tests; included by the top Makefile, which defines CC, BUILD,
# ALL_CFLAGS and TEST_TARGETS.
#   $(TIPMODEL_LIB)   static library: link it and compile with $(TIPMODEL_CFLAGS)
#   test-tipmodel     unit tests: Figure 4 examples, commit-state paths and FIFO,
#                     CSR port, random sampling statistics and the LFSR period

TIPMODEL_DIR    := sim/model
TIPMODEL_LIB    := $(BUILD)/model/libtiprof_tipmodel.a
TIPMODEL_CFLAGS := -I$(TIPMODEL_DIR)
TIPMODEL_HDRS   := $(TIPMODEL_DIR)/tip_model.h include/tiprof/tiprof_regs.h \
                   include/tiprof/sample.h
TIPMODEL_TESTS  := fig4 paths csr random stage insn
TIPMODEL_TBINS  := $(TIPMODEL_TESTS:%=$(BUILD)/model/test_%)

## test-tipmodel: the TIP unit's C reference model: Figure 4 examples, commit-state paths, FIFO, CSR port, random-sampling statistics
TEST_TARGETS += test-tipmodel
.PHONY: test-tipmodel

CFLAGS_sim/model = $(TIPMODEL_CFLAGS)

$(TIPMODEL_LIB): $(call obj,$(TIPMODEL_DIR)/tip_model.c)
	@mkdir -p $(@D)
	@echo "  AR      $@"
	@rm -f $@ && $(AR) rcs $@ $^

# The model tests' check counting (tests/include/tsection.c, on tcheck.h), shared with test-pmmodel.
TSECTION_SRCS := tests/include/tsection.c
TSECTION_HDRS := tests/include/tsection.h tests/include/tcheck.h

$(BUILD)/model/tmt.o: tests/sim/model/tmt.c tests/sim/model/tmt.h $(TSECTION_HDRS) $(TIPMODEL_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(TIPMODEL_CFLAGS) -Itests/include -c -o $@ $<

$(BUILD)/model/tsection.o: $(TSECTION_SRCS) $(TSECTION_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) -Itests/include -c -o $@ $<

$(BUILD)/model/test_%: tests/sim/model/test_%.c tests/sim/model/tmt.h $(TSECTION_HDRS) \
		       $(BUILD)/model/tmt.o $(BUILD)/model/tsection.o $(TIPMODEL_LIB)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(TIPMODEL_CFLAGS) -Itests/include -o $@ $< $(BUILD)/model/tmt.o \
	  $(BUILD)/model/tsection.o $(TIPMODEL_LIB) -lm $(LDFLAGS)

test-tipmodel: $(TIPMODEL_TBINS)
	@echo "== test-tipmodel: TIP reference model"
	@set -e; for t in $(TIPMODEL_TBINS); do echo "-- $$t"; $$t; done

# ---- ProfileMe subsystem (docs/profileme.md) ----
#   $(PMMODEL_LIB)    static library of the ProfileMe reference model (compile with $(TIPMODEL_CFLAGS))
#   test-pmmodel      directed scenarios, selection statistics and records against a random
#                     core's truth, built with the sanitizers
PMMODEL_LIB   := $(BUILD)/model/libtiprof_pmmodel.a
PMMODEL_SRCS  := $(TIPMODEL_DIR)/pm_model.c tests/sim/model/pmt.c
PMMODEL_HDRS  := $(TIPMODEL_DIR)/pm_model.h tests/sim/model/pmt.h include/tiprof/tiprof_regs.h
PMMODEL_TESTS := pm_directed pm_random pm_truth
PMMODEL_TBINS := $(PMMODEL_TESTS:%=$(BUILD)/model/test_%)

## test-pmmodel: the ProfileMe unit's C reference model under ASan/UBSan: directed scenarios (one instruction's profile, squash, pairs, collisions, FIFO full, filters, timeout, CSR writes mid-flight, CSR map), selection statistics (chi-square), records against a random contract-keeping core's truth
TEST_TARGETS += test-pmmodel
.PHONY: test-pmmodel

$(PMMODEL_LIB): $(call obj,$(TIPMODEL_DIR)/pm_model.c)
	@mkdir -p $(@D)
	@echo "  AR      $@"
	@rm -f $@ && $(AR) rcs $@ $^

# A static pattern rule, so these win over the TIP tests' implicit test_% rule.
$(PMMODEL_TBINS): $(BUILD)/model/test_%: tests/sim/model/test_%.c $(PMMODEL_SRCS) $(PMMODEL_HDRS) \
		  $(TSECTION_SRCS) $(TSECTION_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) $(TIPMODEL_CFLAGS) -Itests/sim/model -Itests/include -o $@ $< \
	  $(PMMODEL_SRCS) $(TSECTION_SRCS) -lm $(LDFLAGS)

test-pmmodel: $(PMMODEL_TBINS) $(PMMODEL_LIB)
	@echo "== test-pmmodel: ProfileMe reference model (ASan/UBSan)"
	@set -e; for t in $(PMMODEL_TBINS); do echo "-- $$t"; $$t; done
