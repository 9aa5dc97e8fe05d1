# SPDX-License-Identifier: Apache-2.0
# lib/lib.mk - the libraries several tiers share (the simulator, the tools, the tests), below
# them all: nothing here includes sim/, sw/ or tests/. Each has its tests under tests/lib/.
#   lib/isa     RV64GC decoder and disassembler      $(ISA_LIB)    -I$(ISA_DIR)
#   lib/vcd     VCD waveform writer                  $(VCD_LIB)    $(VCD_CFLAGS)
#   lib/symbol  ELF image + build-id, functions and basic blocks (code map), DWARF source lines
#                                                    $(SYMBOL_LIB) $(SYMBOL_CFLAGS); -ldw -lelf
#   lib/sample  the sample file format (docs/sample-file.md), read and written by every tool, and
#               the Oracle profile file (docs/core.md) the simulator writes and report reads
#                                                    $(SAMPLE_LIB) $(SAMPLE_CFLAGS)
#   lib/chart   SVG charts (cycle stacks, accuracy)  $(CHART_LIB)  $(CHART_CFLAGS)
## libs: build every shared library under lib/
## test-libs: unit tests of lib/symbol (against binutils on the RISC-V workloads) and lib/chart (read back by xmllint, rsvg-convert), under ASan/UBSan

include lib/isa/isa.mk
include lib/vcd/vcd.mk

CFLAGS_lib/isa    := -Ilib/isa
CFLAGS_lib/vcd    := -Ilib/vcd
CFLAGS_lib/symbol := -Ilib/symbol -Ilib/isa
CFLAGS_lib/sample := -Ilib/sample
CFLAGS_lib/chart  := -Ilib/chart

SYMBOL_SRCS   := lib/symbol/code_map.c lib/symbol/elf_build_id.c lib/symbol/elf_image.c lib/symbol/srcline.c
SYMBOL_LIB    := $(BUILD)/lib/libtiprof_symbol.a
SYMBOL_CFLAGS := -Ilib/symbol
# What a program using lib/symbol links after it.
SYMBOL_LIBS   := $(SYMBOL_LIB) $(ISA_LIB) -ldw -lelf

SAMPLE_SRCS   := lib/sample/sample_file.c lib/sample/oracle_profile.c lib/sample/policy_profile.c
SAMPLE_LIB    := $(BUILD)/lib/libtiprof_sample.a
SAMPLE_CFLAGS := -Ilib/sample

CHART_SRCS    := lib/chart/svg.c
CHART_LIB     := $(BUILD)/lib/libtiprof_chart.a
CHART_CFLAGS  := -Ilib/chart

.PHONY: libs test-libs
libs: $(ISA_LIB) $(VCD_LIB) $(SYMBOL_LIB) $(SAMPLE_LIB) $(CHART_LIB)

$(SYMBOL_LIB): $(call obj,$(SYMBOL_SRCS))
$(SAMPLE_LIB): $(call obj,$(SAMPLE_SRCS))
$(CHART_LIB): $(call obj,$(CHART_SRCS))
$(SYMBOL_LIB) $(SAMPLE_LIB) $(CHART_LIB):
	@mkdir -p $(@D)
	@echo "  AR      $@"
	@rm -f $@ && $(AR) rcs $@ $^

# ---- tests (tests/lib/<library>; sanitized builds compile the library sources themselves;
# lib/sample's test runs in test-sw)
XMLLINT        ?= xmllint
RSVG_CONVERT   ?= rsvg-convert
LIB_TEST_DIR   := $(BUILD)/lib/tests
SYMBOL_TEST    := $(LIB_TEST_DIR)/test_symbol
CHART_TEST     := $(LIB_TEST_DIR)/test_svg
ORACLE_PROFILE_TEST := $(LIB_TEST_DIR)/test_oracle_profile
# Static riscv64 ELFs built with -g that test_symbol checks against binutils (tests/lib/symbol/
# run.sh also builds two tiny ones, enough without the simulator's workloads).
ifneq ($(TIPROF_SIM),0)
SYMBOL_TEST_ELFS := $(BUILD)/workloads/crc32 $(BUILD)/workloads/dispatch
endif

TEST_TARGETS += test-libs

$(SYMBOL_TEST): tests/lib/symbol/test_symbol.c tests/include/tcheck.h $(SYMBOL_SRCS) \
		lib/symbol/code_map.h lib/symbol/elf_build_id.h lib/symbol/elf_image.h lib/symbol/srcline.h $(ISA_SRCS) $(ISA_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) -Itests/include $(CFLAGS_lib/symbol) -o $@ $< \
	  $(SYMBOL_SRCS) $(ISA_SRCS) -ldw -lelf

$(CHART_TEST): tests/lib/chart/test_svg.c tests/include/tcheck.h $(CHART_SRCS) lib/chart/svg.h
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) -Itests/include $(CHART_CFLAGS) -o $@ $< $(CHART_SRCS) -lm

$(ORACLE_PROFILE_TEST): tests/lib/sample/test_oracle_profile.c tests/include/tcheck.h \
		       lib/sample/oracle_profile.c lib/sample/oracle_profile.h
	@mkdir -p $(@D)
	@echo "  CC      $@ (sanitized)"
	@$(CC) $(ALL_CFLAGS) $(SANFLAGS) -Itests/include $(SAMPLE_CFLAGS) -o $@ $< \
	  lib/sample/oracle_profile.c

test-libs: $(SYMBOL_TEST) $(CHART_TEST) $(ORACLE_PROFILE_TEST) $(SYMBOL_TEST_ELFS)
	@echo "== test-libs: lib/symbol against binutils, lib/chart read back by xmllint and rsvg-convert"
	@set -e; echo "-- $(SYMBOL_TEST)"; CROSS_COMPILE=$(CROSS_COMPILE) \
	  tests/lib/symbol/run.sh $(SYMBOL_TEST) $(LIB_TEST_DIR)/symbol $(SYMBOL_TEST_ELFS)
	@set -e; echo "-- $(CHART_TEST)"; rm -rf $(LIB_TEST_DIR)/chart; \
	  XMLLINT=$(XMLLINT) RSVG_CONVERT=$(RSVG_CONVERT) $(CHART_TEST) $(LIB_TEST_DIR)/chart
	@set -e; echo "-- $(ORACLE_PROFILE_TEST)"; mkdir -p $(LIB_TEST_DIR)/oracle; \
	  $(ORACLE_PROFILE_TEST) $(LIB_TEST_DIR)/oracle
