/* SPDX-License-Identifier: (GPL-2.0-only OR Apache-2.0) */
/*
 * tiprof/file_magic.h - the first bytes of every file format tiprof writes, in one place:
 * each format's own module writes and checks its magic, and the sample-file reader names a
 * foreign file it is handed by them (docs/sample-file.md, docs/lbr.md, docs/rob-trace.md,
 * docs/core.md).
 */
#ifndef TIPROF_FILE_MAGIC_H
#define TIPROF_FILE_MAGIC_H

#define TIPROF_SAMPLE_FILE_MAGIC	"\x7fTIPROF\n"	/* sample file, 8 bytes (lib/sample) */
#define TIPROF_LBR_FILE_MAGIC		"TIPRLBR\0"	/* branch records, 8 bytes (sw/lbr) */
#define TIPROF_ROB_TRACE_MAGIC		"TIPROBT\n"	/* ROB trace, 8 bytes (sim/trace) */
#define TIPROF_ORACLE_MAGIC		"tiprof-oracle"	/* Oracle profile, text (sim/oracle) */

#endif /* TIPROF_FILE_MAGIC_H */
