# tiprof top-level Makefile: the targets show the flow.
#   make demo   run the main job on the built-in default workload
#   make test   run every test tier (what CI runs)
#   make lint   lint RTL on Verilator, Icarus and Yosys
#   make synth  synthesis table (Yosys generic, Xilinx, iCE40 + nextpnr)
#   make bench  speed and accuracy benchmarks (print their figures)
#   make deps   install missing Debian 12 packages (or print the apt-get line)
# Tool paths can be overridden: make CC=clang VERILATOR=/opt/verilator/bin/verilator

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

BUILD    := build
CSTD     := -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L
CWARN    := -Wall -Wextra -Werror
CFLAGS   ?= -O2 -g
ALL_CFLAGS = $(CSTD) $(CWARN) $(CFLAGS) -Iinclude -I$(BUILD)/gen

# Component fragments append to these lists.
TEST_TARGETS  :=
LINT_TARGETS  :=
BENCH_TARGETS :=
SYNTH_TARGETS :=

.PHONY: help demo test lint synth bench deps clean
help:
	@sed -n '2,9p' Makefile | sed 's/^# \{0,1\}//'

include spec/spec.mk
include sim/vcd/vcd.mk
include sim/isa/isa.mk
include sim/iss/iss.mk
include sim/workloads/workloads.mk
include sim/model/model.mk
include sim/trace/trace.mk
include tests/tip/tip.mk
include driver/hw/hw.mk
include sim/core/core.mk
include sw/sw.mk
include sw/lbr/lbr.mk
include tests/accuracy/accuracy.mk
include fpga/fpga.mk

deps:
	@scripts/deps.sh

# The main job (until the simulated core lands): the Verilated TIP unit on the TIP paper's
# worked examples, a sample in every cycle, drained through the CSR port and printed.
DEMO_CFG := 2-64-16
demo: deps
	@$(MAKE) --no-print-directory $(BUILD)/vtip/$(DEMO_CFG)/Vtiprof_tb
	@mkdir -p $(BUILD)/demo
	@echo "== demo: TIP unit RTL (Verilator, W=2 XLEN=64 FIFO 16) on the TIP paper's examples"
	@$(BUILD)/vtip/$(DEMO_CFG)/Vtiprof_tb +bench=demo +outdir=$(BUILD)/demo

test: deps $(TEST_TARGETS)
	@echo "test: $(words $(TEST_TARGETS)) passed, 0 failed (test tiers)"

lint: deps $(LINT_TARGETS)
	@echo "== lint clean"

synth: deps $(SYNTH_TARGETS)

bench: deps $(BENCH_TARGETS)

clean:
	rm -rf $(BUILD)
