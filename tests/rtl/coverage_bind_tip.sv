// SPDX-License-Identifier: Apache-2.0
// Coverage build of the TIP testbench only (make test-tip-coverage): tests/rtl/coverage_dump.sv
// bound into tiprof_tb.
bind tiprof_tb tiprof_cov_dump u_tiprof_cov_dump ();
