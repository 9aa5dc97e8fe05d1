// SPDX-License-Identifier: Apache-2.0
// Coverage build of the ProfileMe testbench only (make test-pm-coverage):
// tests/rtl/coverage_dump.sv bound into tiprof_pm_tb.
bind tiprof_pm_tb tiprof_cov_dump u_tiprof_cov_dump ();
