# SPDX-License-Identifier: Apache-2.0
# driver/driver.mk - the Linux kernel driver (tiprof_pmu.ko) and the system
# test tier. Included by the top Makefile (BUILD, CROSS_COMPILE). None of
# these targets is in TEST_TARGETS or LINT_TARGETS: they build a riscv64
# kernel first (scripts/kernel/build.sh, ~3.5 min on 2 cores, then cached).
## kernel: Linux 6.1 for riscv64 from Debian's linux-source (cached under build/kernel/)
## driver: build the tiprof_pmu.ko kernel module (W=1, -Werror) against that kernel or KDIR=
## lint-driver: checkpatch --strict and sparse on the driver
## test-system: boot riscv64 Linux under QEMU with OpenSBI: the module, perf sampling, tiprof record and the riscv64 branch tracer (CI runs it after make test)
#   make kernel        Linux 6.1 Image + modules tree from Debian's
#                      linux-source-6.1 (build/kernel/current/obj)
#   make driver        build/driver/tiprof_pmu.ko against it (W=1, -Werror);
#                      KDIR=<dir> builds against another kernel
#   make lint-driver   checkpatch --strict and sparse on the driver
#   make test-system   boot under QEMU, load/refuse/unload the module, perf
#                      sampling smoke tests, the riscv64 software branch tracer
#                      on test programs, its records checked on the host
#                      (tests/system/run.sh)

KERNEL_BUILD   := scripts/kernel/build.sh
KDIR           ?= $(CURDIR)/$(BUILD)/kernel/current/obj
DRIVER_OUT     := $(CURDIR)/$(BUILD)/driver
CHECKPATCH_OPTS := --no-tree --strict --quiet -f

.PHONY: kernel driver lint-driver test-system
kernel:
	@BUILD=$(CURDIR)/$(BUILD) CROSS_COMPILE=$(CROSS_COMPILE) $(KERNEL_BUILD)

driver: $(if $(filter command line environment,$(origin KDIR)),,kernel)
	@echo "  KBUILD  $(DRIVER_OUT)/tiprof_pmu.ko (KDIR=$(KDIR), W=1)"
	@$(MAKE) --no-print-directory -s -C driver KDIR=$(KDIR) OUT=$(DRIVER_OUT) \
	  CROSS_COMPILE=$(CROSS_COMPILE) W=1 KCFLAGS=-Werror

lint-driver: kernel
	@echo "  CHECKPATCH driver/tiprof_pmu_drv.c driver/tiprof_pmu_fake.[ch]"
	@$(KDIR)/source/scripts/checkpatch.pl $(CHECKPATCH_OPTS) driver/tiprof_pmu_drv.c \
	  driver/tiprof_pmu_fake.c driver/tiprof_pmu_fake.h
	@echo "  SPARSE  driver/tiprof_pmu_drv.c driver/tiprof_pmu_fake.c driver/hw/tiprof_hw.c"
	@out=$$($(MAKE) --no-print-directory -s -C driver KDIR=$(KDIR) OUT=$(DRIVER_OUT) \
	  CROSS_COMPILE=$(CROSS_COMPILE) C=2 CHECK=$(CURDIR)/scripts/kernel/sparse.sh 2>&1) \
	  || { echo "$$out"; exit 1; }; \
	  echo "$$out" | grep -v '^  [A-Z]' || true; \
	  ! echo "$$out" | grep -q 'warning:\|error:'

# lbr-riscv64 (sw/lbr/lbr.mk): tiprof (record, lbr, dump) and the software branch tracer's
# library for riscv64, run and checked in the guest.
test-system: lbr-riscv64
	@BUILD=$(CURDIR)/$(BUILD) CROSS_COMPILE=$(CROSS_COMPILE) LBR_RV=$(CURDIR)/$(LBR_RV_BUILD) \
	  tests/system/run.sh
