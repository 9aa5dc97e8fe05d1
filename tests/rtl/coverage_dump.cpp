// SPDX-License-Identifier: Apache-2.0
// Coverage build only: the DPI-C function of tests/rtl/coverage_dump.sv. The harness ends the
// simulation with exit() (tests/rtl/dpi.c tb_final), so the counters are written by an atexit
// handler, while the simulation context still exists.
#include <cstdlib>
#include <string>

#include "verilated.h"
#include "verilated_cov.h"

static VerilatedContext* cov_context;
static std::string cov_path;

static void cov_write() {
    if (cov_context) cov_context->coveragep()->write(cov_path.c_str());
}

extern "C" void tiprof_cov_arm(const char* path) {
    if (!cov_context) std::atexit(cov_write);
    cov_context = Verilated::threadContextp();
    cov_path = path;
}
