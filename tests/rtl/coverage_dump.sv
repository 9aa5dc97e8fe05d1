// SPDX-License-Identifier: Apache-2.0
// Coverage build only (make test-tip-coverage): arranges for Verilator's line and toggle
// coverage counters to be written to +covfile=PATH (default coverage.dat) when the harness
// ends the process (tb_final() exits, so final blocks do not run). Bound into a testbench
// (tests/rtl/coverage_bind_tip.sv, tests/rtl/pm/coverage_bind_pm.sv) so neither the
// testbenches nor the RTL change.
module tiprof_cov_dump;
  import "DPI-C" function void tiprof_cov_arm(input string path);
  string path;
  initial begin
    if (!$value$plusargs("covfile=%s", path)) path = "coverage.dat";
    tiprof_cov_arm(path);
  end
endmodule
