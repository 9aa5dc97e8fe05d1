# SPDX-License-Identifier: Apache-2.0
# sim/fullsys/fs_link.mk - links the full-system machine build/fullsys/tiprof-fs with the TIP
# unit it runs behind its CSRs with --unit (sim/fullsys/fs_unit.c, docs/fullsys.md): sim/cosim's
# C-driven Verilator build of the unit (its pattern rule) at W=1 XLEN=64 FIFO 16 and the
# harness's lockstep core with the C model. Included after rtl/rtl.mk and sim/cosim/cosim.mk,
# whose variables and rules it uses.

FS_UNIT_VU := $(BUILD)/vu/1-64-16
# what links the unit into tiprof-fs (and into test-fullsys's mutants of it)
FS_UNIT_LINK = $(FS_OUT)/unit/harness.o $(FS_UNIT_VU)/vu.o $(FS_UNIT_VU)/libtiprof_vu.a \
	       $(CORE_LIB) $(TIPMODEL_LIB) $(VCD_LIB) $(TRACE_LIB) $(SAMPLE_LIB) $(ISS_LIB) $(ISA_LIB) \
	       -lm -lpthread

$(FS_OUT)/unit/harness.o: $(COSIM_DIR)/harness.c $(TIP_TB_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(TIP_CFLAGS) -c -o $@ $<

$(FS_BIN): $(FS_OBJS) $(FS_OUT)/unit/harness.o $(FS_UNIT_VU)/vu.o $(FS_UNIT_VU)/libtiprof_vu.a \
	   $(CORE_LIB) $(TIPMODEL_LIB) $(VCD_LIB) $(TRACE_LIB) $(SAMPLE_LIB) $(ISS_LIB) $(ISA_LIB)
	@mkdir -p $(@D)
	@echo "  LD      $@"
	@$(CXX) -o $@ $(FS_OBJS) $(FS_UNIT_LINK)

# The real driver on the real unit (tests/sim/fullsys/unit.sh): needs the system tier's cached
# kernel (make test-system), the riscv64 tiprof (make lbr-riscv64) and the host tiprof, which
# reads the guest's sample files back. Not in make test (several minutes; .ci/run runs it
# after the system tier).
## test-fullsys-unit: OpenSBI + Linux + tiprof_pmu.ko on tiprof-fs --unit (the Verilated TIP unit behind the hart's CSRs, C model in lockstep): probe, sysfs, tiprof record (user; user+kernel with lost samples), unload; the guest's sample files = the C model's samples, sample for sample
.PHONY: test-fullsys-unit
test-fullsys-unit: $(FS_BIN) $(TIPROF_BIN) lbr-riscv64
	@FS="$(FS_BIN)" OUT="$(FS_OUT)/unit-linux" TIPROF="$(TIPROF_BIN)" LBR_RV="$(LBR_RV_BUILD)" \
		CROSS_COMPILE="$(CROSS_COMPILE)" OPENSBI="$(FS_OPENSBI)" MAKE="$(MAKE)" \
		$(FS_TDIR)/unit.sh
