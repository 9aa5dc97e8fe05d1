# lib/lib.mk - the libraries several tiers share (the simulator, the tools, the tests), below
# them all: nothing here includes sim/, sw/ or tests/. Each has its tests under tests/lib/.
#   lib/isa     RV64GC decoder and disassembler      $(ISA_LIB)    -I$(ISA_DIR)
#   lib/vcd     VCD waveform writer                  $(VCD_LIB)    $(VCD_CFLAGS)
#   lib/symbol  ELF image + build-id, functions and basic blocks (code map), DWARF source lines
#                                                    $(SYMBOL_LIB) $(SYMBOL_CFLAGS); -ldw -lelf
#   lib/sample  the sample file format (docs/sample-file.md), read and written by every tool
#                                                    $(SAMPLE_LIB) $(SAMPLE_CFLAGS)
#   lib/chart   SVG charts (cycle stacks, accuracy)  $(CHART_LIB)  $(CHART_CFLAGS)
## libs: build every shared library under lib/
## test-libs: unit tests of lib/symbol, lib/sample and lib/chart (tests/lib/, under ASan/UBSan)

include lib/isa/isa.mk
include lib/vcd/vcd.mk

CFLAGS_lib/isa    := -Ilib/isa
CFLAGS_lib/vcd    := -Ilib/vcd
CFLAGS_lib/symbol := -Ilib/symbol -Ilib/isa
CFLAGS_lib/sample := -Ilib/sample
CFLAGS_lib/chart  := -Ilib/chart

SYMBOL_SRCS   := lib/symbol/code_map.c lib/symbol/elf_image.c lib/symbol/srcline.c
SYMBOL_LIB    := $(BUILD)/lib/libtiprof_symbol.a
SYMBOL_CFLAGS := -Ilib/symbol
# What a program using lib/symbol links after it.
SYMBOL_LIBS   := $(SYMBOL_LIB) $(ISA_LIB) -ldw -lelf

SAMPLE_SRCS   := lib/sample/sample_file.c
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
