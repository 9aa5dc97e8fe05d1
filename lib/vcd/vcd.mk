# SPDX-License-Identifier: Apache-2.0
# lib/vcd/vcd.mk - the VCD waveform writer library (libtiprof_vcd.a) and its tests
# (tests/lib/vcd); included from lib/lib.mk.
#   $(VCD_LIB)   static library: link it and compile with $(VCD_CFLAGS)
## test-vcd: VCD writer unit tests; every VCD read back by our checker and by GTKWave's reader

VCD2FST ?= vcd2fst
FST2VCD ?= fst2vcd

VCD_DIR    := lib/vcd
VCD_SRCS   := $(VCD_DIR)/vcd.c $(VCD_DIR)/vcd_defs.c $(VCD_DIR)/vcd_ring.c
VCD_HDRS   := $(VCD_DIR)/vcd.h $(VCD_DIR)/vcd_int.h
VCD_OBJS   := $(call obj,$(VCD_SRCS))
VCD_LIB    := $(BUILD)/vcd/libtiprof_vcd.a
VCD_CFLAGS := -I$(VCD_DIR)
VCD_TEST   := $(BUILD)/vcd/test_vcd

TEST_TARGETS += test-vcd
.PHONY: test-vcd

$(VCD_LIB): $(VCD_OBJS)
	@mkdir -p $(@D)
	@echo "  AR      $@"
	@rm -f $@
	@$(AR) rcs $@ $^

$(VCD_TEST): tests/lib/vcd/test_vcd.c $(VCD_DIR)/vcd.h $(VCD_LIB)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(VCD_CFLAGS) -o $@ $< $(VCD_LIB)

test-vcd: $(VCD_TEST)
	@echo "== test-vcd: VCD writer and ring"
	@BUILD_DIR=$(BUILD)/vcd TEST_BIN=$(VCD_TEST) PYTHON=$(PYTHON) \
	  IVERILOG=$(IVERILOG) VVP=$(VVP) VCD2FST=$(VCD2FST) FST2VCD=$(FST2VCD) \
	  tests/lib/vcd/run.sh
