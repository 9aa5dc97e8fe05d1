// SPDX-License-Identifier: Apache-2.0
// Ordered RTL source list of the tiprof unit; every tool (Verilator, Icarus, Yosys) reads it.
rtl/tiprof_reg_pkg.sv
rtl/tiprof_bank_order.sv
rtl/tiprof_tip_oir.sv
rtl/tiprof_tip_select.sv
rtl/tiprof_tip_sampler.sv
rtl/tiprof_tip_fifo.sv
rtl/tiprof_tip_csr.sv
rtl/tiprof_unit.sv
