/* SPDX-License-Identifier: Apache-2.0 */
/* What a bench tells the RTL's assertions (the rtl/ modules, docs/verification.md "Assertions"). */
#ifndef TIPROF_BENCH_SVA_H
#define TIPROF_BENCH_SVA_H

/* Set by a bench in step() for the inputs it has just produced: nonzero when they break the ROB
 * contract on purpose (phases of arbitrary bits, traces of unknown origin). The testbench
 * (tests/rtl/tiprof_tb.sv, through tb_rob_contract() in dpi.c) turns the unit's ROB-contract
 * assertions off for that cycle; the unit's other assertions stay on. */
extern int tb_rob_contract_off;

#endif /* TIPROF_BENCH_SVA_H */
