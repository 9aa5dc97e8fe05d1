# sw/lbr/lbr.mk - the software branch tracer (x86-64): the preload library, the tiprof-lbr
# command, and its tests. Included by the top Makefile, which defines CC, BUILD, ALL_CFLAGS
# and TEST_TARGETS.
#   $(BUILD)/lib/libtiprof-lbr.so   LD_PRELOAD tracer (TIPROF_LBR_OUT=FILE starts it)
#   $(BUILD)/bin/tiprof-lbr         record / script / dump
#   test-lbr                        unit tests + traced test programs checked against objdump
#                                   and against an exact single-stepped trace (< 60 s)
# Debian packages: libzydis-dev (x86-64 decoder; add to scripts/deps.sh), binutils (objdump),
# python3, util-linux (setarch).

LBR_DIR     := sw/lbr
LBR_TDIR    := tests/lbr
LBR_OUT     := $(BUILD)/lbr
LBR_CFLAGS   = $(ALL_CFLAGS) -I$(LBR_DIR)
LBR_HDRS    := $(LBR_DIR)/lbr_isa.h $(LBR_DIR)/lbr_file.h $(LBR_DIR)/lbr_queue.h \
               $(LBR_DIR)/lbr_trace.h
LBR_CORE    := lbr_x86 lbr_file lbr_queue lbr_trace lbr_stop_hw lbr_stop_sw
LBR_PIC_OBJS := $(patsubst %,$(LBR_OUT)/pic/%.o,$(LBR_CORE) lbr_preload)
LBR_SO      := $(BUILD)/lib/libtiprof-lbr.so
LBR_BIN     := $(BUILD)/bin/tiprof-lbr
LBR_ZYDIS   := -lZydis

# Test programs (known control flow) are built -O1 -g, as the checks read their disassembly.
LBR_PROGS   := lbr_loops lbr_indirect lbr_recurse lbr_threads lbr_signal
LBR_PROG_BINS := $(patsubst %,$(LBR_OUT)/tests/%,$(LBR_PROGS))
LBR_TOOLS   := $(LBR_OUT)/tests/lbr_exact $(LBR_OUT)/tests/test_lbr_unit

.PHONY: lbr test-lbr bench-lbr
TEST_TARGETS  += test-lbr
BENCH_TARGETS += bench-lbr

lbr: $(LBR_SO) $(LBR_BIN)

$(LBR_OUT)/pic/%.o: $(LBR_DIR)/%.c $(LBR_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(LBR_CFLAGS) -fPIC -fvisibility=default -c -o $@ $<

$(LBR_SO): $(LBR_PIC_OBJS)
	@mkdir -p $(@D)
	@echo "  LD      $@"
	@$(CC) -shared -Wl,-z,now -Wl,-z,defs -o $@ $^ $(LBR_ZYDIS) -ldl -lpthread

$(LBR_BIN): $(LBR_DIR)/tiprof_lbr.c $(LBR_DIR)/lbr_file.c $(LBR_DIR)/lbr_file.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(LBR_CFLAGS) -o $@ $(LBR_DIR)/tiprof_lbr.c $(LBR_DIR)/lbr_file.c

$(LBR_OUT)/tests/lbr_%: $(LBR_TDIR)/lbr_%.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g -o $@ $< -lpthread

$(LBR_OUT)/tests/lbr_exact: $(LBR_TDIR)/exact.c $(LBR_DIR)/lbr_isa.h $(LBR_OUT)/pic/lbr_x86.o
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(LBR_CFLAGS) -o $@ $(LBR_TDIR)/exact.c $(LBR_OUT)/pic/lbr_x86.o $(LBR_ZYDIS)

$(LBR_OUT)/tests/test_lbr_unit: $(LBR_TDIR)/test_unit.c $(LBR_PIC_OBJS) $(LBR_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(LBR_CFLAGS) -o $@ $(LBR_TDIR)/test_unit.c \
	  $(filter-out %/lbr_preload.o,$(LBR_PIC_OBJS)) $(LBR_ZYDIS) -lpthread

test-lbr: $(LBR_SO) $(LBR_BIN) $(LBR_PROG_BINS) $(LBR_TOOLS)
	@echo "== test-lbr: software branch tracer (x86-64)"
	@BUILD=$(BUILD) timeout 120 $(LBR_TDIR)/run.sh

bench-lbr: $(LBR_SO) $(LBR_BIN) $(LBR_PROG_BINS)
	@echo "== bench-lbr: traced vs untraced run time"
	@BUILD=$(BUILD) $(LBR_TDIR)/bench.sh
