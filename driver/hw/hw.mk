# SPDX-License-Identifier: Apache-2.0
# driver/hw/hw.mk - the kernel-independent hardware layer of the TIP unit
# (libtiprof_hw.a for user space; the Linux module compiles the same
# tiprof_hw.c in Kbuild). Included by the top Makefile, which defines CC,
# BUILD and ALL_CFLAGS.
#   $(TIPROF_HW_LIB)     static library: link it, compile with $(TIPROF_HW_CFLAGS)
#   $(TIPROF_HW_KCHECK)  proof that the layer builds like kernel code: compiled
#                        freestanding (-nostdinc -D__KERNEL__, stub <linux/*.h>
#                        from tests/driver/hw/kstub) with no undefined symbol but the
#                        memcpy/memset a compiler may emit

TIPROF_HW_DIR    := driver/hw
TIPROF_HW_LIB    := $(BUILD)/hw/libtiprof_hw.a
TIPROF_HW_CFLAGS := -I$(TIPROF_HW_DIR)
TIPROF_HW_SRCS   := $(TIPROF_HW_DIR)/tiprof_hw.c
TIPROF_HW_HDRS   := $(TIPROF_HW_DIR)/tiprof_hw.h $(TIPROF_HW_DIR)/tiprof_hw_types.h \
                    include/tiprof/tiprof_regs.h include/tiprof/sample.h
TIPROF_HW_KCHECK := $(BUILD)/hw/kernel-style.ok
# Kernel-like flags: gnu11, freestanding, no system headers, the kernel's own
# warnings that matter for shared code.
TIPROF_HW_KFLAGS := -std=gnu11 -ffreestanding -nostdinc -D__KERNEL__ -O2 -Wall -Wextra \
                    -Werror -Wdeclaration-after-statement -Wmissing-prototypes \
                    -Wstrict-prototypes -Wno-unused-parameter -Itests/driver/hw/kstub \
                    -I$(TIPROF_HW_DIR)/kcompat -I$(TIPROF_HW_DIR) -Iinclude

CFLAGS_driver/hw = $(TIPROF_HW_CFLAGS)

$(TIPROF_HW_LIB): $(call obj,$(TIPROF_HW_SRCS))
	@mkdir -p $(@D)
	@echo "  AR      $@"
	@rm -f $@ && $(AR) rcs $@ $^

$(TIPROF_HW_KCHECK): $(TIPROF_HW_SRCS) $(TIPROF_HW_HDRS) $(TIPROF_HW_DIR)/kcompat/stdint.h \
		     $(wildcard tests/driver/hw/kstub/linux/*.h)
	@mkdir -p $(@D)
	@echo "  KCHECK  $(TIPROF_HW_SRCS) (freestanding, -D__KERNEL__)"
	@$(CC) $(TIPROF_HW_KFLAGS) -c -o $(BUILD)/hw/tiprof_hw.kern.o $<
	@undef=$$(nm -u $(BUILD)/hw/tiprof_hw.kern.o | awk '{print $$2}' | grep -vx -e memcpy -e memset); \
	  if [ -n "$$undef" ]; then echo "driver/hw depends on: $$undef"; exit 1; fi
	@touch $@
