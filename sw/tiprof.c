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

/* Option-set lists of the table (several for lbr, whose subcommands parse their own). */
#define SETS(...) ((const struct opt_set *const[]){ __VA_ARGS__, NULL })

/* The subcommands, in the order `tiprof help` lists them. Usage texts say what a command
 * does; its options are listed from its option set (sw/opt.c has the vocabulary). */
const struct tiprof_cmd tiprof_cmds[] = {
#ifdef TIPROF_HAVE_SIM
	{ "accuracy", "judge TIP and the other policies against the Oracle on a RISC-V program",
	  "usage: tiprof accuracy [OPTIONS] [--] ELF [ARGS]\n"
	  "  Run ELF on the core model, sample it with the TIP unit's reference model (TIP's\n"
	  "  random interval: one sample at a random point in every P-cycle interval; without\n"
	  "  --period or --sweep, P = 16, 64 and 256 run side by side and the longest giving at\n"
	  "  least 100,000 samples is reported) and print each policy's instruction-level error\n"
	  "  against the Oracle, split into the statistical part (an ideal sampler applying the\n"
	  "  Oracle to the same cycles) and the systematic rest. Two independent Oracles must\n"
	  "  agree and TIP must equal the ideal sampler, or the command fails. Policies: TIP,\n"
	  "  TIP-ILP, NCI, NCI+ILP, LCI, Dispatch and Software. The program's standard streams\n"
	  "  are its own; the report goes to stderr (or -o FILE, '-o -' for stdout).",
	  cmd_accuracy, SETS(&opt_set_accuracy) },
#endif
#ifndef TIPROF_NO_DWARF
	{ "annotate", "annotated disassembly of a profiled function, with source lines",
	  "usage: tiprof annotate [OPTIONS] [FILE]\n"
	  "  Print every instruction of a function (default: the hottest) with its share of\n"
	  "  the samples in FILE (default tiprof.tps), its cycle-category mix and its source\n"
	  "  file:line (DWARF; build with -g). The ELF defaults to the path in the file's\n"
	  "  header; a build-id that differs from the recorded one is an error (docs/report.md).",
	  cmd_annotate, SETS(&opt_set_annotate) },
#endif
	{ "dump", "print a sample file's header, every sample and its trailer as text",
	  "usage: tiprof dump [FILE]\n"
	  "  Print the header (unit configuration, sampling setup, workload, clock), every\n"
	  "  sample in file order and the trailer (sample and lost counts) of FILE, a tiprof\n"
	  "  sample file (default tiprof.tps; '-' reads standard input). A damaged or foreign\n"
	  "  file stops the dump with one line on stderr naming the file and the problem (exit\n"
	  "  status 1).",
	  cmd_dump, SETS(&opt_set_dump) },
#ifdef TIPROF_HAVE_FDO	/* sw/fdo/fdo.mk: the builds that link GLPK */
	{ "fdo", "sample-based FDO: edge profiles from samples, min-cost-flow smoothing, overlap",
	  "usage: tiprof fdo overlap [FILE] --truth EXACT [--elf ELF] [-e EST] [--json]\n"
	  "       tiprof fdo smooth [FILE] -o OUT [--elf ELF] [-e EST]\n"
	  "       tiprof fdo llvm-prof|gcc-afdo [FILE] -o OUT [--elf ELF] [-e EST] [--json]\n"
	  "  Turn the samples of FILE (default tiprof.tps: TIP cycle or instruction samples, or\n"
	  "  ProfileMe records) into basic-block counts over the ELF's control-flow graph and\n"
	  "  edge counts, smoothed per function by a minimum-cost flow (GLPK) as Chen et al.\n"
	  "  (CGO 2010) do (docs/fdo.md).\n"
	  "  overlap the degree of overlap with the exact profile of the same run (tiprof iss\n"
	  "          --truth) at edge, function and block level, for raw, static estimate, MCF,\n"
	  "          MCF + heuristics and MCF with perfect classification\n"
	  "  smooth  write the smoothed profile (MCF + heuristics) as a profile file\n"
	  "  llvm-prof, gcc-afdo  write the profile for clang -fprofile-sample-use (LLVM text)\n"
	  "          or gcc -fauto-profile (GCC 12's AutoFDO format), keyed by DWARF source\n"
	  "          lines: from FILE's smoothed samples, a profile file (smooth's, or the exact\n"
	  "          one of tiprof iss --truth; with --elf) or branch records (tiprof lbr record,\n"
	  "          x86-64 or riscv64)",
	  cmd_fdo, SETS(&opt_set_fdo_overlap, &opt_set_fdo_smooth, &opt_set_fdo_llvm_prof,
			&opt_set_fdo_gcc_afdo) },
#endif
	{ "help", "list the commands, or show how to use one",
	  "usage: tiprof help [COMMAND]\n"
	  "       tiprof help --options   every option and the commands that take it",
	  cmd_help, SETS(&opt_set_help) },
#ifdef TIPROF_HAVE_SIM
	{ "iss", "run a riscv64 Linux program on the instruction-set simulator",
	  "usage: tiprof iss [OPTIONS] [--] PROG [ARGS]\n"
	  "  Run PROG with ARGS on the RV64GC user-mode ISS (the one the core model runs on);\n"
	  "  its output is ours and its exit status is ours. 127: PROG could not be loaded;\n"
	  "  126: an error.",
	  cmd_iss, SETS(&opt_set_iss) },
#endif
	{ "lbr", "software branch tracer: LBR-like branch records on any Linux, and their outputs",
	  "usage: tiprof lbr record [OPTIONS] -- CMD [ARGS...]\n"
	  "       tiprof lbr script [--no-tid] [FILE]\n"
	  "       tiprof lbr dump [FILE]\n"
	  "       tiprof lbr perf [FILE] [-o perf.data]\n"
	  "       tiprof lbr llvm-prof [FILE] [--elf EXE] [-o OUT]\n"
	  "       tiprof lbr afdo-text [FILE] [--elf EXE] [-o OUT]\n"
	  "       tiprof lbr edges [--blocks] [FILE] [-o OUT]\n"
	  "       tiprof lbr stat [OPTIONS] -- CMD [ARGS...]\n"
	  "  record     run CMD with the software branch tracer (libtiprof-lbr.so beside tiprof,\n"
	  "             or TIPROF_LBR_LIB) preloaded; its exit status is passed through\n"
	  "             (docs/lbr.md). FILE defaults to tiprof-lbr.data everywhere.\n"
	  "  script     print each stack as brstack text, newest branch first\n"
	  "  dump       print every record\n"
	  "  perf       write perf.data (branch stacks) for perf script/report, llvm-profgen\n"
	  "  llvm-prof  write an LLVM text sample profile of EXE (clang -fprofile-sample-use)\n"
	  "  afdo-text  write an AutoFDO text profile of EXE (create_llvm_prof --profiler=text)\n"
	  "  edges      print taken-branch (or --blocks: fall-through) counts, hottest first\n"
	  "  stat       run CMD untraced and traced R times: overhead, t, s, t/(1-s), cost per\n"
	  "             stop",
	  cmd_lbr, SETS(&opt_set_lbr_record, &opt_set_lbr_script, &opt_set_lbr_dump,
			&opt_set_lbr_perf, &opt_set_lbr_llvm_prof, &opt_set_lbr_afdo_text,
			&opt_set_lbr_edges, &opt_set_lbr_stat) },
#ifndef TIPROF_NO_DWARF
	{ "pm", "ProfileMe analyses: estimated event counts, latencies, memory, paths, pairs",
	  "usage: tiprof pm report|lat|mem|path|pairs [OPTIONS] [FILE]\n"
	  "       tiprof pm convert [FILE] -o OUT.perf.data\n"
	  "  Analyse the ProfileMe samples of FILE (default tiprof.tps; sample file 1.2) as the\n"
	  "  ProfileMe paper does (docs/pm-report.md). Each sample stands for PERIOD x\n"
	  "  (TAKEN+LOST)/n x Sel/(Sel-COLLIDED) fetches; counts are estimated as k x that with\n"
	  "  a 95% Clopper-Pearson interval.\n"
	  "  report  per function and instruction: samples and estimated counts of the events\n"
	  "  lat     latency per stage (fetch->map->ready->issue->complete->retire, memory, total)\n"
	  "  mem     loads by D-cache/D-TLB outcome with their latency, per instruction and 4 KiB\n"
	  "          data region (like perf mem report)\n"
	  "  path    the global branch histories each instruction was fetched with\n"
	  "  pairs   useful overlap and wasted issue slots from paired samples\n"
	  "  convert write perf.data for perf report / perf mem report (docs/pm-perf.md)",
	  cmd_pm, SETS(&opt_set_pm_report, &opt_set_pm_lat, &opt_set_pm_mem, &opt_set_pm_path,
		       &opt_set_pm_pairs, &opt_set_pm_convert) },
#endif
	{ "record", "profile a command with the TIP unit through the tiprof_pmu perf PMU",
	  "usage: tiprof record [OPTIONS] [--] CMD [ARGS]\n"
	  "       tiprof record --check FILE\n"
	  "  Run CMD with a tiprof_pmu sampling event enabled on exec (per task, its main\n"
	  "  thread), read the unit's samples from the perf AUX area and write the sample\n"
	  "  file (default tiprof.tps; lost samples counted in its trailer). The period is in\n"
	  "  cycles (default 100000). The exit status is CMD's.",
	  cmd_record, SETS(&opt_set_record) },
#ifndef TIPROF_NO_DWARF
	{ "report", "flat profile of a sample file: functions, blocks or instructions",
	  "usage: tiprof report [OPTIONS] [FILE]\n"
	  "  Attribute every sample of FILE (default tiprof.tps) time-proportionally (TIP:\n"
	  "  Computing 1/n to each committing instruction, Stalled to the oldest, Flushed to\n"
	  "  the flushing one, Drained to the next one) and print symbols hottest first with\n"
	  "  their time share and cycle-category mix. --cycle-stack prints cycle stacks\n"
	  "  instead: a bar per symbol split into execute, ALU/load/store stall, mispredict and\n"
	  "  other flush, front end, then the stack and hot instructions of the function\n"
	  "  (default: the hottest); --svg writes them as a chart (TIP paper, Figures 7, 13).",
	  cmd_report, SETS(&opt_set_report) },
#endif
#ifdef TIPROF_HAVE_SIM
	{ "sim", "run a RISC-V program on the out-of-order core model: cycles, IPC, cycle stack",
	  "usage: tiprof sim [OPTIONS] [--] ELF [ARGS]\n"
	  "  Run the riscv64 program ELF with ARGS on the timing model and report cycles,\n"
	  "  instructions, IPC and the Oracle cycle stack. The program's standard input,\n"
	  "  output and error are its own, byte for byte; the report goes to stderr, or to\n"
	  "  -o FILE ('-o -': stdout). The exit status is the program's; a missing or unusable\n"
	  "  ELF, or a simulation that cannot go on, gives one line on stderr and exit status 1.\n"
	  "  --profile records a TIP sample file: the unit's model is drained by the driver's\n"
	  "  hardware layer on its interrupt (period default 64); read it with tiprof report /\n"
	  "  annotate. --rtl runs tiprof-cosim-CONFIG from tiprof's directory (make\n"
	  "  tiprof-cosim).",
	  cmd_sim, SETS(&opt_set_sim) },
	{ "trace", "inspect a ROB trace file, or export a window of it as VCD",
	  "usage: tiprof trace info FILE | dump FILE [--from N] [--cycles M] |\n"
	  "                    vcd FILE -o OUT.vcd [--from N] [--cycles M]\n"
	  "  FILE is a per-cycle ROB-interface trace (tiprof sim --rob-trace, docs/rob-trace.md):\n"
	  "  info prints its header and length, dump the cycles from N (M of them) as text, vcd\n"
	  "  writes them as a VCD waveform for GTKWave.",
	  cmd_trace, SETS(&opt_set_trace) },
#endif
	{ "version", "print the version of tiprof and of the formats it reads",
	  "usage: tiprof version", cmd_version, SETS(&opt_set_version) },
	{ NULL, NULL, NULL, NULL, NULL },
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
	return c->run(argc - 1, argv + 1);
}
