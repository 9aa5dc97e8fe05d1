/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_outcmd.h - the output subcommands of `tiprof-lbr` (argument parsing and one-line
 * errors; the converters are lbr_perfdata.c, lbr_edges.c, lbr_llvmprof.c, lbr_afdo.c):
 *   perf FILE [-o perf.data]                   perf.data with branch stacks
 *   llvm-prof FILE [--binary EXE] [-o OUT]     LLVM text sample profile
 *   afdo-text FILE [--binary EXE] [-o OUT]     AutoFDO text profile (create_llvm_prof)
 *   edges [--blocks] FILE                      aggregated branch / block counts
 * Each takes argv from the subcommand name on and returns the exit status (2: bad use or
 * bad input). */
#ifndef TIPROF_LBR_OUTCMD_H
#define TIPROF_LBR_OUTCMD_H

int lbr_cmd_perf(int argc, char **argv);
int lbr_cmd_llvm_prof(int argc, char **argv);
int lbr_cmd_afdo_text(int argc, char **argv);
int lbr_cmd_edges(int argc, char **argv);

#endif
