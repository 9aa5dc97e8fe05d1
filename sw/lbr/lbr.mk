# SPDX-License-Identifier: Apache-2.0
# sw/lbr/lbr.mk - the software branch tracer (x86-64): the preload library, the sources of
# `tiprof lbr` (sw/cmd-lbr.c, linked into tiprof by sw/sw.mk), and its tests (tests/sw/lbr).
# Included by the top Makefile, which defines CC, BUILD, ALL_CFLAGS and TEST_TARGETS.
#   $(BUILD)/lib/libtiprof-lbr.so   LD_PRELOAD tracer (TIPROF_LBR_OUT=FILE starts it)
#   tiprof lbr                      record / script / dump; perf / llvm-prof / afdo-text / edges;
#                                   stat (overhead and evaluation counters, lbr_stat.c)
## lbr: build the branch tracer's preload library and tiprof (tiprof lbr ...)
## test-lbr: branch tracer: every record checked against objdump and an exact single-stepped trace; outputs read by perf, llvm-profgen, clang, create_llvm_prof
## bench-lbr: branch tracer overhead on seven real programs and similarity to callgrind (~20 min)
## lbr-riscv64: the branch tracer and tiprof cross-built for riscv64 (the system tier's guest)
#   test-lbr                        unit tests + traced test programs (hwbp and int3) checked
#                                   against objdump and an exact single-stepped trace; RISC-V
#                                   adapter on the host vs riscv64 objdump; lbr-riscv64 (< 60 s);
#                                   then outputs.sh: every output format read by its consumer (< 5 s)
#   bench-lbr                       tests/sw/lbr/bench.sh: overhead on real programs (xz, gzip,
#                                   bzip2, python3, sqlite3, gcc, lbr_loops) and similarity to
#                                   callgrind (similarity.py); needs valgrind; ≈ 20 min
#   lbr-riscv64                     the same tracer cross-compiled for riscv64 (RV64GC back end
#                                   lbr_rv.c over lib/isa's decoder sources, software breakpoints):
#                                   $(BUILD)/lbr-riscv64/libtiprof-lbr.so and tiprof (help,
#                                   version, dump, record, lbr)
# Debian packages (bench-lbr also: valgrind, xz-utils, bzip2, sqlite3, gcc):
#   libzydis-dev (x86-64 decoder; add to scripts/deps.sh), binutils (objdump),
# python3, util-linux (setarch), gcc-riscv64-linux-gnu + binutils-riscv64-linux-gnu (RISC-V),
# libelf-dev + libdw-dev (the converters), and for outputs.sh the consumers: linux-perf, clang,
# llvm (llvm-profdata), llvm-14 (llvm-profgen), autofdo (create_llvm_prof).

LBR_DIR     := sw/lbr
LBR_TDIR    := tests/sw/lbr
LBR_OUT     := $(BUILD)/lbr
LBR_CFLAGS   = $(ALL_CFLAGS) -I$(LBR_DIR)
LBR_HDRS    := $(LBR_DIR)/lbr_isa.h $(LBR_DIR)/lbr_file.h $(LBR_DIR)/lbr_queue.h $(LBR_DIR)/lbr_ctr.h \
               $(LBR_DIR)/lbr_trace.h $(LBR_DIR)/lbr_rv.h $(LBR_DIR)/lbr_sys.h $(LBR_DIR)/lbr_emu.h
LBR_CORE    := lbr_x86 lbr_emu_x86 lbr_mem lbr_file lbr_queue lbr_trace lbr_stop_hw lbr_stop_sw lbr_rseq
LBR_PIC_OBJS := $(patsubst %,$(LBR_OUT)/pic/%.o,$(LBR_CORE) lbr_preload)
LBR_SO      := $(BUILD)/lib/libtiprof-lbr.so
LBR_BIN      = $(TIPROF_BIN)
LBR_STAT_SRC := $(LBR_DIR)/lbr_stat.c $(LBR_DIR)/lbr_probe.c $(LBR_DIR)/lbr_cli.c  # `stat` (overhead, evaluation counters); perf access probe
LBR_ZYDIS   := -lZydis

# Test programs (known control flow) are built -O1 -g, as the checks read their disassembly.
LBR_PROGS   := lbr_loops lbr_indirect lbr_recurse lbr_threads lbr_signal lbr_fork lbr_rseq
LBR_PROG_BINS := $(patsubst %,$(LBR_OUT)/tests/%,$(LBR_PROGS))
LBR_TOOLS   := $(LBR_OUT)/tests/lbr_exact $(LBR_OUT)/tests/test_lbr_unit $(LBR_OUT)/tests/lbr_emu_check \
               $(LBR_OUT)/tests/test_lbr_rv $(LBR_OUT)/rv/lbr_indirect $(LBR_OUT)/rv/lbr_loops \
               $(LBR_OUT)/tests/lbr_ctr_trace

# RISC-V back end: lib/isa's decoder sources compiled into the tracer (no copy), and the
# cross build of the whole tracer with $(CROSS_COMPILE)gcc.
LBR_RVISA_DIR  := lib/isa
LBR_RVISA_SRCS := $(LBR_RVISA_DIR)/rv_decode.c $(LBR_RVISA_DIR)/rv_decode_c.c
LBR_RVISA_HDRS := $(addprefix $(LBR_RVISA_DIR)/,rv_isa.h rv_isa_int.h rv_ops.def)
LBR_RV_CC      := $(CROSS_COMPILE)gcc
LBR_RV_OBJDUMP := $(CROSS_COMPILE)objdump
LBR_RV_BUILD   := $(BUILD)/lbr-riscv64
LBR_RV_CORE    := lbr_rv lbr_mem lbr_file lbr_queue lbr_trace lbr_stop_hw lbr_stop_sw lbr_rseq lbr_preload
LBR_RV_OBJS    := $(patsubst %,$(LBR_RV_BUILD)/pic/%.o,$(LBR_RV_CORE)) \
                  $(LBR_RV_BUILD)/pic/rv_decode.o $(LBR_RV_BUILD)/pic/rv_decode_c.o
LBR_RV_SO      := $(LBR_RV_BUILD)/libtiprof-lbr.so
LBR_RV_BIN     := $(LBR_RV_BUILD)/tiprof

.PHONY: lbr lbr-riscv64 test-lbr bench-lbr
TEST_TARGETS  += test-lbr
BENCH_TARGETS += bench-lbr

lbr: $(LBR_SO) $(LBR_BIN)

# `tiprof lbr record` preloads the library: building tiprof builds it.
$(TIPROF_BIN): | $(LBR_SO)

lbr-riscv64: $(LBR_RV_SO) $(LBR_RV_BIN)

$(LBR_RV_BUILD)/pic/%.o: $(LBR_DIR)/%.c $(LBR_HDRS) $(LBR_RVISA_HDRS)
	@mkdir -p $(@D)
	@echo "  RVCC    $@"
	@$(LBR_RV_CC) $(LBR_CFLAGS) -I$(LBR_RVISA_DIR) -fPIC -fvisibility=default -c -o $@ $<

$(LBR_RV_BUILD)/pic/%.o: $(LBR_RVISA_DIR)/%.c $(LBR_RVISA_HDRS)
	@mkdir -p $(@D)
	@echo "  RVCC    $@"
	@$(LBR_RV_CC) $(ALL_CFLAGS) -I$(LBR_RVISA_DIR) -fPIC -c -o $@ $<

$(LBR_RV_SO): $(LBR_RV_OBJS)
	@echo "  RVLD    $@"
	@$(LBR_RV_CC) -shared -Wl,-z,now -Wl,-z,defs -o $@ $^ -ldl -lpthread

# tiprof for riscv64, static (it starts as fast as the static recorder did, which the system
# tier's timing checks rely on; the preload library stays dynamic): help, version, dump, record
# and lbr (no libelf/libdw for riscv64 here, so
# no report/annotate, and the lbr output subcommands say so: lbr_outcmd_none.c).
LBR_RV_TIPROF_SRCS := sw/tiprof.c sw/opt.c sw/cmd-help.c sw/cmd-version.c sw/cmd-dump.c sw/cmd-record.c \
                      sw/cmd-lbr.c sw/lib/perf_aux.c sw/lib/kallsyms.c lib/sample/sample_file.c \
                      lib/symbol/elf_build_id.c \
                      $(LBR_DIR)/lbr_file.c \
                      $(LBR_DIR)/lbr_outcmd_none.c $(LBR_STAT_SRC)
$(LBR_RV_BIN): $(LBR_RV_TIPROF_SRCS) $(wildcard $(LBR_DIR)/*.h sw/lib/*.h include/tiprof/*.h)
	@mkdir -p $(@D)
	@echo "  RVCC    $@"
	@$(LBR_RV_CC) -static $(LBR_CFLAGS) -Isw $(SAMPLE_CFLAGS) $(SYMBOL_CFLAGS) -DTIPROF_NO_DWARF -o $@ $(LBR_RV_TIPROF_SRCS)

# Host unit test of the RISC-V adapter (the decoder runs on the host).
$(LBR_OUT)/tests/test_lbr_rv: $(LBR_TDIR)/test_rv.c $(LBR_DIR)/lbr_rv.c $(LBR_HDRS) \
                              $(LBR_RVISA_SRCS) $(LBR_RVISA_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(LBR_CFLAGS) -I$(LBR_RVISA_DIR) -o $@ $(LBR_TDIR)/test_rv.c $(LBR_DIR)/lbr_rv.c \
	  $(LBR_RVISA_SRCS) $(LBR_RVISA_DIR)/rv_disasm.c $(LBR_RVISA_DIR)/rv_names.c

# RISC-V records in the CTR layout from a qemu-riscv64 single-step trace (the back end and
# the records encoder on the host; outputs.sh checks them and their perf.data).
$(LBR_OUT)/tests/lbr_ctr_trace: $(LBR_TDIR)/ctr_trace.c $(LBR_DIR)/lbr_rv.c $(LBR_DIR)/lbr_file.c \
                                $(LBR_HDRS) $(LBR_RVISA_SRCS) $(LBR_RVISA_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(LBR_CFLAGS) -I$(LBR_RVISA_DIR) -o $@ $(LBR_TDIR)/ctr_trace.c $(LBR_DIR)/lbr_rv.c \
	  $(LBR_DIR)/lbr_file.c $(LBR_RVISA_SRCS)

# A static riscv64 program whose every control transfer the host test decodes.
$(LBR_OUT)/rv/lbr_%: $(LBR_TDIR)/lbr_%.c
	@mkdir -p $(@D)
	@echo "  RVCC    $@"
	@$(LBR_RV_CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g -static -o $@ $< -lpthread

$(LBR_OUT)/pic/%.o: $(LBR_DIR)/%.c $(LBR_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(LBR_CFLAGS) -fPIC -fvisibility=default -c -o $@ $<

$(LBR_SO): $(LBR_PIC_OBJS)
	@mkdir -p $(@D)
	@echo "  LD      $@"
	@$(CC) -shared -Wl,-z,now -Wl,-z,defs -o $@ $^ $(LBR_ZYDIS) -ldl -lpthread

# The output converters (docs/lbr.md "Outputs"): perf.data, LLVM/AutoFDO profiles, edges;
# with the records file reader and `stat`, what `tiprof lbr` links (sw/sw.mk). The DWARF reader
# and the source-level profile (sw/lib/dwarf_lines.c, srcprof.c) are shared with tiprof fdo.
LBR_OUT_SRCS := $(patsubst %,$(LBR_DIR)/%.c,lbr_outcmd lbr_data lbr_sym lbr_agg lbr_edges \
                  lbr_perfdata lbr_llvmprof lbr_afdo) sw/lib/dwarf_lines.c sw/lib/srcprof.c
LBR_CLI_SRCS := $(LBR_DIR)/lbr_file.c $(LBR_OUT_SRCS) $(LBR_STAT_SRC)

$(LBR_OUT)/tests/deny_perf.so: $(LBR_TDIR)/deny_perf.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) -std=c11 -Wall -Wextra -Werror -O1 -shared -fPIC -o $@ $< -ldl

$(LBR_OUT)/tests/lbr_%: $(LBR_TDIR)/lbr_%.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g -o $@ $< -lpthread

$(LBR_OUT)/tests/lbr_exact: $(LBR_TDIR)/exact.c $(LBR_DIR)/lbr_isa.h $(LBR_OUT)/pic/lbr_x86.o $(LBR_OUT)/pic/lbr_mem.o
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(LBR_CFLAGS) -o $@ $(LBR_TDIR)/exact.c $(LBR_OUT)/pic/lbr_x86.o $(LBR_OUT)/pic/lbr_mem.o $(LBR_ZYDIS)

# The look-ahead emulator against single-stepped hardware (its own memory reader: the tracee).
$(LBR_OUT)/tests/lbr_emu_check: $(LBR_TDIR)/emu_check.c $(LBR_HDRS) $(LBR_OUT)/pic/lbr_emu_x86.o $(LBR_OUT)/pic/lbr_x86.o
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(LBR_CFLAGS) -o $@ $(LBR_TDIR)/emu_check.c $(LBR_OUT)/pic/lbr_emu_x86.o $(LBR_OUT)/pic/lbr_x86.o $(LBR_ZYDIS)

$(LBR_OUT)/tests/test_lbr_unit: $(LBR_TDIR)/test_unit.c $(LBR_PIC_OBJS) $(LBR_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(LBR_CFLAGS) -o $@ $(LBR_TDIR)/test_unit.c \
	  $(filter-out %/lbr_preload.o,$(LBR_PIC_OBJS)) $(LBR_ZYDIS) -lpthread

test-lbr: $(LBR_SO) $(LBR_BIN) $(LBR_PROG_BINS) $(LBR_TOOLS) $(LBR_OUT)/tests/deny_perf.so $(LBR_RV_SO) $(LBR_RV_BIN)
	@echo "== test-lbr: software branch tracer (x86-64; RISC-V back end on the host)"
	@BUILD=$(BUILD) RV_OBJDUMP=$(LBR_RV_OBJDUMP) timeout 300 $(LBR_TDIR)/run.sh
	@echo "== test-lbr: output formats (perf.data, LLVM and AutoFDO profiles, edges) with their consumers"
	@BUILD=$(BUILD) timeout 180 $(LBR_TDIR)/outputs.sh

# The system tier (driver/driver.mk) converts the guest's riscv64 records with the host's
# tiprof lbr perf (tests/sw/lbr/ctr_perf.py).
test-system: $(LBR_BIN)

bench-lbr: $(LBR_SO) $(LBR_BIN) $(LBR_PROG_BINS)
	@echo "== bench-lbr: traced vs untraced run time"
	@BUILD=$(BUILD) $(LBR_TDIR)/bench.sh
