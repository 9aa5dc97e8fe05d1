# SPDX-License-Identifier: Apache-2.0
# spec/: the one machine-readable register map and ROB signal list, and the check that
# every generated copy (SystemVerilog package, C header, docs table) agrees with it.

REGMAP_SRC := spec/tiprof_regs.json
REGMAP_GEN := rtl/tiprof_reg_pkg.sv include/tiprof/tiprof_regs.h docs/registers.md \
              include/tiprof/tiprof_pm_wire.h tests/rtl/pm/tiprof_pm_wire.svh rtl/tiprof_pm_tieoff.svh

## regs: regenerate the SystemVerilog package, C header and docs table from spec/tiprof_regs.json
## test-regmap: the generated register-map files agree with spec/tiprof_regs.json; the C header compiles
.PHONY: regs test-regmap
regs:
	@echo "== generating register map from $(REGMAP_SRC)"
	$(PYTHON) scripts/gen_regs.py $(REGMAP_SRC) .

# The committed copies must equal a fresh generation, and the C header must compile warning-free.
test-regmap:
	@echo "== regmap: generated files agree with $(REGMAP_SRC)"
	@rm -rf $(BUILD)/regcheck && mkdir -p $(BUILD)/regcheck
	@$(PYTHON) scripts/gen_regs.py $(REGMAP_SRC) $(BUILD)/regcheck
	@for f in $(REGMAP_GEN); do \
	  diff -u $$f $(BUILD)/regcheck/$$f >/dev/null || { echo "regmap: $$f is stale: run 'make regs'"; exit 1; }; done
	@printf '#include "tiprof/tiprof_regs.h"\nint main(void){return (int)tiprof_reg_table[0].addr != TIPROF_TIP_CTRL;}\n' > $(BUILD)/regcheck/hdr.c
	@$(CC) $(ALL_CFLAGS) -o $(BUILD)/regcheck/hdr $(BUILD)/regcheck/hdr.c && $(BUILD)/regcheck/hdr
	@echo "regmap: $(words $(REGMAP_GEN)) generated files current"

TEST_TARGETS += test-regmap
