// SPDX-License-Identifier: Apache-2.0
// Ordered RTL source list of the tiprof unit; every tool (Verilator, Icarus, Yosys) reads it.
// Shared blocks first, then the TIP subsystem, the ProfileMe subsystem, then the unit top.
rtl/tiprof_reg_pkg.sv
rtl/tiprof_bank_order.sv
rtl/tiprof_interval.sv
rtl/tiprof_fifo.sv
rtl/tiprof_tip_oir.sv
rtl/tiprof_tip_select.sv
rtl/tiprof_tip_csr.sv
rtl/tiprof_tip.sv
rtl/tiprof_pm_select.sv
rtl/tiprof_pm_profile.sv
rtl/tiprof_pm_record.sv
rtl/tiprof_pm_csr.sv
rtl/tiprof_pm.sv
rtl/tiprof_unit.sv
