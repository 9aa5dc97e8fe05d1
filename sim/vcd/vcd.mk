# sim/vcd/vcd.mk - the VCD waveform writer library (libtiprof_vcd.a) and its
# tests; included by the top Makefile, which defines CC, BUILD, ALL_CFLAGS,
# PYTHON, IVERILOG, VVP and TEST_TARGETS.
#   $(VCD_LIB)   static library: link it and compile with $(VCD_CFLAGS)
#   test-vcd     unit tests, then every produced VCD read back by our checker
#                and by GTKWave's reader (vcd2fst + fst2vcd), and the checker
#                itself validated on a VCD written by Icarus

VCD2FST ?= vcd2fst
FST2VCD ?= fst2vcd

VCD_DIR    := sim/vcd
VCD_SRCS   := $(VCD_DIR)/vcd.c $(VCD_DIR)/vcd_defs.c $(VCD_DIR)/vcd_ring.c
VCD_HDRS   := $(VCD_DIR)/vcd.h $(VCD_DIR)/vcd_int.h
VCD_OBJS   := $(patsubst $(VCD_DIR)/%.c,$(BUILD)/vcd/%.o,$(VCD_SRCS))
VCD_LIB    := $(BUILD)/vcd/libtiprof_vcd.a
VCD_CFLAGS := -I$(VCD_DIR)
VCD_TEST   := $(BUILD)/vcd/test_vcd

TEST_TARGETS += test-vcd
.PHONY: test-vcd

$(BUILD)/vcd/%.o: $(VCD_DIR)/%.c $(VCD_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(VCD_CFLAGS) -c -o $@ $<

$(VCD_LIB): $(VCD_OBJS)
	@echo "  AR      $@"
	@rm -f $@
	@$(AR) rcs $@ $^

$(VCD_TEST): $(VCD_DIR)/tests/test_vcd.c $(VCD_DIR)/vcd.h $(VCD_LIB)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(VCD_CFLAGS) -o $@ $< $(VCD_LIB)

test-vcd: $(VCD_TEST)
	@echo "== test-vcd: VCD writer and ring"
	@BUILD_DIR=$(BUILD)/vcd TEST_BIN=$(VCD_TEST) PYTHON=$(PYTHON) \
	  IVERILOG=$(IVERILOG) VVP=$(VVP) VCD2FST=$(VCD2FST) FST2VCD=$(FST2VCD) \
	  $(VCD_DIR)/tests/run.sh
