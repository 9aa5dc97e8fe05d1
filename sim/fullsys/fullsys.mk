# SPDX-License-Identifier: Apache-2.0
# sim/fullsys: the full-system RISC-V machine (docs/fullsys.md) - a privileged hart on the ISS
# (sim/iss's full-system hooks), CLINT, PLIC, NS16550 UART, SiFive test device, the device
# tree sim/fullsys/tiprof-fs.dts - as build/fullsys/tiprof-fs; its tests in tests/sim/fullsys.
# Needs lib/isa/isa.mk and sim/iss/iss.mk first; tiprof-fs is linked (with the Verilated TIP
# unit, --unit) by sim/fullsys/fs_link.mk, included after sim/cosim/cosim.mk.
## fullsys: build the full-system machine (build/fullsys/tiprof-fs) and its device tree
## test-fullsys: bare-metal M/S/U programs (traps, delegation, Sv39 faults and A/D, timer and software interrupts, atomics, misaligned; the TIP unit behind the CSRs with --unit) on the full-system machine, UART output = qemu-system-riscv64's, 24 planted hart and unit-wiring bugs caught; Debian's OpenSBI fw_jump prints its banner and reaches the payload; with the system tier's cached kernel, OpenSBI + Linux boot to a user-space init that powers off

FS_DIR   := sim/fullsys
FS_OUT   := $(BUILD)/fullsys
FS_SRCS  := $(addprefix $(FS_DIR)/,fs_hart.c fs_dev.c fs_main.c fs_unit.c)
FS_OBJS  := $(call obj,$(FS_SRCS))
FS_BIN   := $(FS_OUT)/tiprof-fs
FS_DTB   := $(FS_OUT)/tiprof-fs.dtb
FS_TDIR  := tests/sim/fullsys
# the bare-metal programs (tests/sim/fullsys/*.S, linked at 0x80000000)
FS_PROGS := $(basename $(notdir $(wildcard $(FS_TDIR)/bm_*.S)))
FS_ELFS  := $(addprefix $(FS_OUT)/bm/,$(addsuffix .elf,$(FS_PROGS)))
FS_OPENSBI ?= /usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
QEMU_SYSTEM_RISCV64 ?= qemu-system-riscv64

.PHONY: fullsys test-fullsys
TEST_TARGETS += test-fullsys

# fs_unit.c uses sim/cosim's harness (the C model in lockstep), the sample-file dumper and
# the core model's latencies (its ROB feed holds a divide at the head for them)
CFLAGS_sim/fullsys = -I$(FS_DIR) $(ISS_INC) -I$(COSIM_DIR) $(TRACE_CFLAGS) $(TIPMODEL_CFLAGS) \
		     $(VCD_CFLAGS) $(SAMPLE_CFLAGS) $(CORE_INC)

fullsys: $(FS_BIN) $(FS_DTB)

$(FS_DTB): $(FS_DIR)/tiprof-fs.dts
	@mkdir -p $(@D)
	@echo "  DTC     $@"
	@dtc -q -I dts -O dtb -o $@ $<

$(FS_OUT)/bm/%.elf: $(FS_TDIR)/%.S $(FS_TDIR)/bm.h $(FS_TDIR)/bm.ld
	@mkdir -p $(@D)
	@echo "  RVAS    $@"
	@$(RV_CC) -nostdlib -nostartfiles -static -no-pie -fno-pic -Wl,--build-id=none -march=rv64gc -mabi=lp64d -I$(FS_TDIR) \
		-T $(FS_TDIR)/bm.ld -o $@ $<

test-fullsys: $(FS_BIN) $(FS_DTB) $(FS_ELFS) $(ISS_LIB) $(ISA_LIB)
	@FS="$(FS_BIN)" DTB="$(FS_DTB)" QEMU="$(QEMU_SYSTEM_RISCV64)" OPENSBI="$(FS_OPENSBI)" \
		OUT="$(FS_OUT)" CROSS_COMPILE="$(CROSS_COMPILE)" $(FS_TDIR)/run.sh $(FS_ELFS)
	@LINK="$(CXX)" $(FS_TDIR)/mutants.sh "$(CC)" "$(CSTD) -O1 $(ISS_INC) -Iinclude" $(FS_OUT) \
		$(call obj,$(FS_DIR)/fs_unit.c) $(FS_UNIT_LINK) -- $(FS_ELFS)

# fpga/bringup.sh, unchanged, on the simulated board (tests/sim/fullsys/bringup.sh): the system
# tier's cached kernel (make test-system), the riscv64 tiprof (make lbr-riscv64), Go for the
# guest's /bin/sh. Not in make test (minutes of tiprof-fs --unit).
## test-fullsys-bringup: fpga/bringup.sh unchanged on tiprof-fs --unit (Verilated unit, real driver, the Go /bin/sh): every step PASS, hot_loop and irq_rate included (they SKIP on the system tier's stand-in)
.PHONY: test-fullsys-bringup
test-fullsys-bringup: $(FS_BIN) lbr-riscv64
	@FS="$(FS_BIN)" OUT="$(FS_OUT)/bringup-linux" LBR_RV="$(LBR_RV_BUILD)" BUILD="$(BUILD)" \
		CROSS_COMPILE="$(CROSS_COMPILE)" OPENSBI="$(FS_OPENSBI)" MAKE="$(MAKE)" \
		$(FS_TDIR)/bringup.sh
