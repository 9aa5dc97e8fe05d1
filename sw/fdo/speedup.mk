# SPDX-License-Identifier: Apache-2.0
# sw/fdo/speedup.mk - the speed-up of FDO on the 4-wide core model (issue 13 item 6, docs/fdo.md
# "Measured: speed-up"): -O2, instrumented FDO (-fprofile-generate run on tiprof iss, checked
# against qemu-riscv64) and sample-based FDO (-fauto-profile from tiprof fdo) per sample source,
# on Debian programs (sim/programs' recipes) and workloads, training input != evaluation input.
# Included by sw/sw.mk after sw/fdo/fdo.mk. Builds and runs are cached in build/fdo/speedup.
## bench-fdo-speedup: FDO speed-up on the 4-wide core model: -O2 vs instrumented FDO vs AutoFDO from each sample source (TIP instruction trigger, TIP cycles, ProfileMe, ...), 10 programs; about 90 min cold on the loaded 2-core machine (80 builds), seconds when cached (not in make bench)
## bench-fdo-speedup-x86: the x86-64 half: clang -O2 vs -fprofile-instr-generate/use vs -fprofile-sample-use from tiprof lbr records (tiprof fdo llvm-prof), CPU time, medians of 7 runs, 6 programs (not in make bench)

FDOSPEED_OUT := $(BUILD)/fdo/speedup

.PHONY: bench-fdo-speedup bench-fdo-speedup-x86

bench-fdo-speedup: programs program-inputs $(TIPROF_BIN)
	@echo "== bench-fdo-speedup: FDO speed-up per profile source (tests/sw/fdo/speedup.py)"
	@TIPROF=$(TIPROF_BIN) PROGRAMS=$(PROG_OUT) OUT=$(FDOSPEED_OUT) CROSS_COMPILE=$(CROSS_COMPILE) \
	  QEMU=$(QEMU_RISCV64) \
	  $(PYTHON) tests/sw/fdo/speedup.py

bench-fdo-speedup-x86: programs program-inputs $(TIPROF_BIN) $(LBR_SO)
	@echo "== bench-fdo-speedup-x86: clang FDO speed-up on x86-64, CPU time (tests/sw/fdo/speedup.py --x86)"
	@TIPROF=$(TIPROF_BIN) PROGRAMS=$(PROG_OUT) OUT=$(FDOSPEED_OUT) $(PYTHON) tests/sw/fdo/speedup.py --x86
