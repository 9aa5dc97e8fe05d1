/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tiprof.c - entry point of the `tiprof` command: finds the subcommand in the table
 * and runs it. Subcommands are in sw/cmd-*.c, their libraries in sw/lib/ and lib/; the
 * simulator's (its own cmd-*.c files) are in the table when the build links them in
 * (TIPROF_HAVE_SIM); a build without libdw/libelf (the riscv64 guest's, TIPROF_NO_DWARF)
 * has no report or annotate.
 */
#include <stdio.h>
#include <string.h>

#include "tiprof/cmd.h"

/* The subcommands, in the order `tiprof help` lists them. */
const struct tiprof_cmd tiprof_cmds[] = {
#ifdef TIPROF_HAVE_SIM
	{ "accuracy", "judge TIP and the other policies against the Oracle on a RISC-V program",
	  "usage: tiprof accuracy [--config C] [--period P] [--rand-bits K] [--periodic] [--json]\n"
	  "                       [--sweep P1,P2,...] [--svg DIR] [--skid L] [--rob-trace FILE]\n"
	  "                       [--policies P1,P2,...] ELF [ARGS]\n"
	  "  Run ELF on the core model (default 4wide), sample it with the TIP unit's reference\n"
	  "  model (TIP's random interval: one sample at a random point in every P-cycle\n"
	  "  interval, K random bits as for record; without --period or --sweep, P = 16, 64 and 256 run side by side and\n"
	  "  the longest giving at least 100,000 samples is reported) and print each policy's\n"
	  "  instruction-level error against the Oracle, split into the statistical part (an\n"
	  "  ideal sampler applying the Oracle to the same cycles) and the systematic rest.\n"
	  "  Two independent Oracles must agree and TIP must equal the ideal sampler, or the\n"
	  "  command fails. Policies: TIP, TIP-ILP, NCI, NCI+ILP, LCI, Dispatch and Software\n"
	  "  (interrupt skid L cycles, default 40); --policies reports only those listed.\n"
	  "  --sweep runs several periods on one run and\n"
	  "  --svg DIR writes the charts; --rob-trace records the ROB interface for replay\n"
	  "  through the RTL.",
	  cmd_accuracy },
#endif
#ifndef TIPROF_NO_DWARF
	{ "annotate", "annotated disassembly of a profiled function, with source lines",
	  "usage: tiprof annotate FILE [--elf ELF] [--function NAME]\n"
	  "  Print every instruction of NAME (default: the hottest function) with its share\n"
	  "  of the samples in FILE, its cycle-category mix and its source file:line (DWARF;\n"
	  "  build with -g). ELF defaults to the path in the file's header; a build-id that\n"
	  "  differs from the recorded one is an error (docs/report.md).",
	  cmd_annotate },
#endif
	{ "dump", "print a sample file's header, every sample and its trailer as text",
	  "usage: tiprof dump FILE\n"
	  "  Print the header (unit configuration, sampling setup, workload, clock), every\n"
	  "  sample in file order and the trailer (sample and lost counts) of FILE, a tiprof\n"
	  "  sample file ('-' reads standard input). A damaged or foreign file stops the\n"
	  "  dump with one line on stderr naming the file and the problem (exit status 1).",
	  cmd_dump },
	{ "help", "list the commands, or show how to use one",
	  "usage: tiprof help [COMMAND]", cmd_help },
#ifdef TIPROF_HAVE_SIM
	{ "iss", "run a static riscv64 Linux program on the instruction-set simulator",
	  "usage: tiprof iss [--count] [--trace] [--seed N] [--max-insns N] PROG [ARGS]\n"
	  "  Run PROG with ARGS on the RV64GC user-mode ISS (the one the core model runs on);\n"
	  "  its output is ours and its exit status is ours. --count prints the instructions\n"
	  "  retired, --trace every retired instruction (pc, bits, disassembly) on stderr,\n"
	  "  --seed N seeds AT_RANDOM and getrandom (default 1), --max-insns N stops after N\n"
	  "  instructions (exit status 124). 127: PROG could not be loaded; 126: an error.",
	  cmd_iss },
#endif
	{ "lbr", "software branch tracer: LBR-like branch records on any Linux, and their outputs",
	  "usage: tiprof lbr record [-o FILE] [--event E] [--period P] [--depth N] [--mech hwbp|int3] -- CMD [ARGS...]\n"
	  "       tiprof lbr script [--no-tid] FILE\n"
	  "       tiprof lbr dump FILE\n"
	  "       tiprof lbr perf FILE [-o perf.data]\n"
	  "       tiprof lbr llvm-prof FILE [--binary EXE] [-o OUT]\n"
	  "       tiprof lbr afdo-text FILE [--binary EXE] [-o OUT]\n"
	  "       tiprof lbr edges [--blocks] FILE [-o OUT]\n"
	  "       tiprof lbr stat [--period P] [--depth N] [--mech M] [--event E] [--reps R] [--json] [-o FILE] -- CMD [ARGS...]\n"
	  "  record  run CMD with the software branch tracer (libtiprof-lbr.so beside tiprof, or\n"
	  "          TIPROF_LBR_LIB) preloaded; its exit status is passed through (docs/lbr.md)\n"
	  "          -o FILE     records file (default tiprof-lbr.data)\n"
	  "          --event E   task-clock (default), cpu-clock, cycles, instructions\n"
	  "          --period P  event units between samples (default 10000000 ns = 100/s)\n"
	  "          --depth N   taken branches per stack, 1..256 (default 16)\n"
	  "          --mech M    how the tracer stops at the next branch: hwbp or int3\n"
	  "  script  print each stack as brstack text, newest branch first\n"
	  "  dump    print every record\n"
	  "  perf       write perf.data (branch stacks) for perf script/report, llvm-profgen\n"
	  "  llvm-prof  write an LLVM text sample profile of EXE (clang -fprofile-sample-use)\n"
	  "  afdo-text  write an AutoFDO text profile of EXE (create_llvm_prof --profiler=text)\n"
	  "  edges      print taken-branch (or --blocks: fall-through) counts, hottest first\n"
	  "  stat       run CMD untraced and traced R times (default 5): overhead, t, s, t/(1-s),\n"
	  "             cost per stop",
	  cmd_lbr },
	{ "record", "profile a command with the TIP unit through the tiprof_pmu perf PMU",
	  "usage: tiprof record [-o FILE] [--period P] [--random-bits K] [--user|--kernel]\n"
	  "                     [--aux-pages N] -- CMD [ARGS]\n"
	  "       tiprof record --check FILE\n"
	  "  Run CMD with a tiprof_pmu sampling event enabled on exec (per task, its main\n"
	  "  thread), read the unit's samples from the perf AUX area and write the sample\n"
	  "  file FILE (default tiprof.tps; lost samples counted in its trailer). P: period\n"
	  "  in cycles (default 100000); K: random-interval bits (default: log2 P for a power\n"
	  "  of two, else 8 more, at most 31: every phase equally likely; 0 = periodic);\n"
	  "  --user (default) or --kernel: privilege sampled. --aux-pages N: AUX area\n"
	  "  size in pages (power of two, default 256). The exit status is CMD's.\n"
	  "  --check FILE reads FILE back and prints its sample and lost counts.",
	  cmd_record },
#ifndef TIPROF_NO_DWARF
	{ "report", "flat profile of a sample file: functions, blocks or instructions",
	  "usage: tiprof report FILE [--elf ELF] [--level function|block|instruction]\n"
	  "                     [--json] [--oracle ORACLE] [--limit N]\n"
	  "                     [--cycle-stack] [--svg OUT.svg] [--function NAME]\n"
	  "  Attribute every sample of FILE time-proportionally (TIP: Computing 1/n to each\n"
	  "  committing instruction, Stalled to the oldest, Flushed to the flushing one,\n"
	  "  Drained to the next one) and print symbols hottest first with their time share\n"
	  "  and cycle-category mix. ELF defaults to the path in the file's header. --oracle\n"
	  "  adds the shares of an Oracle profile (tiprof sim --oracle); --json prints one\n"
	  "  object; --limit N shows N rows (default 25, 0 = all; JSON: all).\n"
	  "  --cycle-stack prints cycle stacks instead: a bar per symbol split into execute,\n"
	  "  ALU/load/store stall, mispredict and other flush, front end, then the stack and\n"
	  "  hot instructions of NAME (default: the hottest function); with --json as JSON.\n"
	  "  --svg OUT.svg also writes them as a chart (TIP paper, Figures 7 and 13).",
	  cmd_report },
#endif
#ifdef TIPROF_HAVE_SIM
	{ "sim", "run a RISC-V program on the out-of-order core model: cycles, IPC, cycle stack",
	  "usage: tiprof sim [--config 4wide|2wide|1wide] [--json] [--oracle FILE] [--profile FILE]\n"
	  "                  [--period P] [--rand-bits K] [--rtl] [--rob-trace FILE] ELF [ARGS]\n"
	  "  Run the static riscv64 program ELF with ARGS on the timing model (default 4wide,\n"
	  "  the TIP paper's BOOM) and print cycles, instructions, IPC and the Oracle cycle\n"
	  "  stack. --json prints one JSON object on stdout (the program's own output goes to\n"
	  "  stderr); --oracle writes the per-address Oracle profile to FILE (docs/core.md).\n"
	  "  A missing or unusable ELF gives one line on stderr and exit status 1.\n"
	  "  --profile FILE records a TIP sample file: the unit's model is drained by the\n"
	  "  driver's hardware layer on its interrupt (--period P, default 64; --rand-bits K,\n"
	  "  default as for record, 0 = periodic); read it with tiprof report / annotate. --rtl records\n"
	  "  through the Verilated RTL unit instead, compared with the C model every cycle\n"
	  "  (runs tiprof-cosim-CONFIG from tiprof's directory; make tiprof-cosim).\n"
	  "  --rob-trace FILE records the per-cycle ROB interface (docs/rob-trace.md) for\n"
	  "  tiprof-trace and for replay through the RTL unit.",
	  cmd_sim },
	{ "trace", "inspect a ROB trace file, or export a window of it as VCD",
	  "usage: tiprof trace info FILE | dump FILE [--from N] [--count M] |\n"
	  "                    vcd FILE -o OUT.vcd [--from N] [--count M]\n"
	  "  FILE is a per-cycle ROB-interface trace (tiprof sim --rob-trace, docs/rob-trace.md):\n"
	  "  info prints its header and length, dump the cycles from N (M of them) as text, vcd\n"
	  "  writes them as a VCD waveform for GTKWave.",
	  cmd_trace },
#endif
	{ "version", "print the version of tiprof and of the formats it reads",
	  "usage: tiprof version", cmd_version },
	{ NULL, NULL, NULL, NULL },
};

/* Contract in tiprof.h. */
const struct tiprof_cmd *tiprof_cmd_find(const char *name)
{
	for (const struct tiprof_cmd *c = tiprof_cmds; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

int main(int argc, char **argv)
{
	const struct tiprof_cmd *c;

	if (argc < 2) {
		char *help[] = { "help", NULL };

		cmd_help(1, help);
		return TIPROF_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return cmd_help(argc - 1, argv + 1);
	if (strcmp(argv[1], "--version") == 0)
		return cmd_version(argc - 1, argv + 1);
	c = tiprof_cmd_find(argv[1]);
	if (!c) {
		fprintf(stderr, "tiprof: '%s' is not a tiprof command; 'tiprof help' lists them\n",
			argv[1]);
		return TIPROF_EXIT_USAGE;
	}
	/* `tiprof CMD -h|--help` is `tiprof help CMD`, for every subcommand */
	if (argc == 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
		char *help[] = { "help", argv[1], NULL };

		return cmd_help(2, help);
	}
	return c->run(argc - 1, argv + 1);
}
