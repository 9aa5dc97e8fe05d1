# SPDX-License-Identifier: Apache-2.0
# tiprof top-level Makefile: the targets show the flow.
#   make demo   run the main job on the built-in default workload
#   make test   run every test tier (what CI runs)
#   make help   list every target (each fragment documents its own with '## target: what')
# Tool paths can be overridden: make CC=clang VERILATOR=/opt/verilator/bin/verilator
#
# Layout: every component has a fragment beside its sources (lib/isa/isa.mk, sim/core/core.mk,
# sw/sw.mk, rtl/rtl.mk, ...) that builds it and defines its test target; a component's tests
# live under tests/ at the same path (lib/isa -> tests/lib/isa, sim/core -> tests/sim/core).

.DEFAULT_GOAL := help
SHELL := /bin/bash

ifeq ($(origin CC),default)
CC            := gcc
endif
CROSS_COMPILE ?= riscv64-linux-gnu-
VERILATOR     ?= verilator
IVERILOG      ?= iverilog
VVP           ?= vvp
YOSYS         ?= yosys
NEXTPNR_ICE40 ?= nextpnr-ice40
PYTHON        ?= python3
QEMU_RISCV64  ?= qemu-riscv64

BUILD    ?= build
CSTD     := -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L
CWARN    := -Wall -Wextra -Werror
CFLAGS   ?= -O2 -g
ALL_CFLAGS = $(CSTD) $(CWARN) $(CFLAGS) -Iinclude -I$(BUILD)/gen
# The one sanitizer set of every sanitized test build.
SANFLAGS ?= -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# Header dependencies: every object built by the rule below has a .d file beside it.
DEPFLAGS := -MMD -MP

# One rule compiles every library and command source into $(BUILD)/obj/<its path>.o. A
# fragment gives a folder its include flags with CFLAGS_<folder> (e.g. CFLAGS_lib/symbol) and
# a single file extra flags with CFLAGS_<file>.
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(CFLAGS_$(patsubst %/,%,$(dir $<))) $(CFLAGS_$<) -c -o $@ $<
obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

# The one command (sw/sw.mk links it; other fragments' tests run it).
TIPROF_BIN := $(BUILD)/bin/tiprof

# Component fragments append to these lists.
TEST_TARGETS  :=
LINT_TARGETS  :=
BENCH_TARGETS :=
SYNTH_TARGETS :=

## demo: the main job: the TIP unit RTL on the paper's examples, then a RISC-V workload on the core model: cycle stacks, every policy against the Oracle, the RTL on its ROB stream, ProfileMe's estimates and wasted issue slots
## test: every test tier (what CI runs, with test-system after it)
## lint: lint the RTL on Verilator -Wall, Icarus -g2012 and Yosys
## synth: synthesis table (Yosys generic, Xilinx, iCE40 + nextpnr) and storage per component
## bench: every benchmark (speed, accuracy, overhead); each prints its figures
## deps: install the missing Debian 12 packages (or print the apt-get line when not root)
## clean: remove build/ (cached kernel and Verilator builds included)
.PHONY: help demo test lint synth bench deps clean
## help: list every target with what it does (this list)
help:
	@echo "tiprof: make TARGET, where TARGET is one of (fragments under their folders say more):"
	@grep -h '^## ' $(MAKEFILE_LIST) | sed 's/^## //' | \
	  awk -F': ' '{ printf "  %-22s %s\n", $$1, substr($$0, length($$1) + 3) }'

# TIPROF_SIM=0 leaves the simulator (sim/, rtl/ co-simulation) out: the board's tiprof.
TIPROF_SIM ?= 1
include spec/spec.mk
include lib/lib.mk
include driver/hw/hw.mk
include driver/driver.mk
ifneq ($(TIPROF_SIM),0)
include sim/iss/iss.mk
include sim/iss/seldisp.mk
include sim/fullsys/fullsys.mk
include sim/workloads/workloads.mk
include sim/model/model.mk
include sim/trace/trace.mk
include sim/core/core.mk
include sim/policy/policy.mk
include sim/cmd/cmd.mk
include rtl/rtl.mk
include sim/cosim/cosim.mk
include sim/fullsys/fs_link.mk
include sim/programs/programs.mk
include sim/campaign/campaign.mk
include sw/seldisp/seldisp.mk
endif
include sw/lbr/lbr.mk
include sw/sw.mk
include sw/report.mk
include fpga/fpga.mk
include scripts/fresh.mk

deps:
	@scripts/deps.sh

# The main job: the TIP unit's RTL on the TIP paper's worked examples, then a real RISC-V
# workload on the out-of-order core model: its Oracle cycle stack, the cycle stacks of its
# TIP samples per function and hot instruction (text, and an SVG chart under build/demo/),
# every policy judged against the Oracle, the workload's ROB stream replayed through the
# RTL (RTL = C model every cycle), and the ProfileMe unit's view of the same program.
DEMO_CFG      := 2-64-16
DEMO_WORKLOAD ?= quicksort
DEMO_ARGS     ?= 20000
# The program runs with an empty environment (env -i) and sees itself as /demo/<name> in
# /proc/self/exe (glibc reads it at start-up: a longer checkout path would move its heap): what
# it sees, and so every figure the demo prints, does not depend on who runs make or where the
# checkout lies (README quotes them; make test-readme checks).
DEMO_PROG     := --exe-path /demo/$(DEMO_WORKLOAD) $(BUILD)/workloads/$(DEMO_WORKLOAD) $(DEMO_ARGS)
demo: deps
	@$(MAKE) --no-print-directory $(BUILD)/vtip/$(DEMO_CFG)/Vtiprof_tb $(BUILD)/vtip/4-64-8/Vtiprof_tb \
	  $(BUILD)/bin/tiprof $(BUILD)/workloads/$(DEMO_WORKLOAD)
	@mkdir -p $(BUILD)/demo
	@echo "== 1. TIP unit RTL (Verilator, W=2 XLEN=64 FIFO 16) on the TIP paper's examples, a sample every cycle"
	@$(BUILD)/vtip/$(DEMO_CFG)/Vtiprof_tb +bench=demo +outdir=$(BUILD)/demo | grep -v "^tip-harness: coverage"
	@echo
	@echo "== 2. $(DEMO_WORKLOAD) $(DEMO_ARGS) on the 4-wide out-of-order core model, the TIP unit's C model recording samples"
	@env -i $(BUILD)/bin/tiprof sim --profile $(BUILD)/demo/$(DEMO_WORKLOAD).tps $(DEMO_PROG)
	@echo
	@echo "== 3. cycle stacks from the TIP samples, hottest function first (chart: $(BUILD)/demo/$(DEMO_WORKLOAD)-cycle-stack.svg)"
	@$(BUILD)/bin/tiprof report $(BUILD)/demo/$(DEMO_WORKLOAD).tps --cycle-stack --limit 5 \
	  --svg $(BUILD)/demo/$(DEMO_WORKLOAD)-cycle-stack.svg
	@echo
	@echo "== 4. every policy against the Oracle (TIP unit's C model sampling the same run)"
	@env -i $(BUILD)/bin/tiprof accuracy --rob-trace $(BUILD)/demo/$(DEMO_WORKLOAD).rbt \
	  $(DEMO_PROG) >/dev/null
	@echo
	@echo "== 5. the same run's ROB interface through the RTL unit (W=4), compared with the C model every cycle"
	@TIPROF_TB_TRACE=$(BUILD)/demo/$(DEMO_WORKLOAD).rbt $(BUILD)/vtip/4-64-8/Vtiprof_tb +bench=replay \
	  +cycles=1000000000 +outdir=$(BUILD)/demo | grep -E "^replay:|PASS|FAIL"
	@echo
	@echo "== 6. ProfileMe on the same program: instructions tagged at fetch (wrong path too), pairs within 256, every record checked against the core"
	@set -o pipefail; env -i $(BUILD)/bin/tiprof sim --profile $(BUILD)/demo/$(DEMO_WORKLOAD)-pm.tps \
	  -e profileme --period 1024 --pair 256 $(DEMO_PROG) 2>&1 >/dev/null | \
	  grep -E "ProfileMe samples|^tiprof sim: [^0-9]"
	@$(BUILD)/bin/tiprof pm report $(BUILD)/demo/$(DEMO_WORKLOAD)-pm.tps --limit 4
	@$(BUILD)/bin/tiprof pm pairs $(BUILD)/demo/$(DEMO_WORKLOAD)-pm.tps --limit 4 | sed -n '/^Instructions/,$$p'

## test-readme: README's demo figures (every policy's error on quicksort) equal what make demo prints
.PHONY: test-readme
ifneq ($(TIPROF_SIM),0)
TEST_TARGETS += test-readme
endif
test-readme: $(BUILD)/bin/tiprof $(BUILD)/workloads/$(DEMO_WORKLOAD)
	@echo "== test-readme: README's figures from make demo (step 4) against a fresh run"
	@mkdir -p $(BUILD)/readme
	@env -i $(BUILD)/bin/tiprof accuracy -o $(BUILD)/readme/accuracy.txt $(DEMO_PROG) >/dev/null
	@tests/docs/readme_figures.sh README.md $(BUILD)/readme/accuracy.txt

test: deps $(TEST_TARGETS)
	@echo "test: $(words $(TEST_TARGETS)) passed, 0 failed (test tiers)"

lint: deps $(LINT_TARGETS)
	@echo "== lint clean"

synth: deps $(SYNTH_TARGETS)

bench: deps $(BENCH_TARGETS)

clean:
	rm -rf $(BUILD)

# Header dependencies of everything built by the generic rule.
-include $(shell find $(BUILD)/obj -name "*.d" 2>/dev/null)
