/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_out.h - where a command that runs a program prints its report. The program's standard
 * input, output and error are its own (the ISS passes them through byte for byte), so the
 * report goes to standard error by default, to FILE with -o FILE, or to standard output with
 * -o - (docs/options.md, "Streams"). A report file that could not be completed is removed.
 */
#ifndef TIPROF_CMD_OUT_H
#define TIPROF_CMD_OUT_H

#include <stddef.h>
#include <stdio.h>

struct cmd_out {
	FILE *f;		/* the report's stream */
	const char *path;	/* -o FILE, or NULL for stderr/stdout */
};

/* Open the report: path NULL = stderr, "-" = stdout, else FILE (created now, so that an
 * unwritable path fails before the simulation). Returns 0, or -1 with err set. */
int cmd_out_open(struct cmd_out *o, const char *path, char *err, size_t errlen);

/* Flush and close; keep = 0 (a failed run) removes a report file. Returns 0, or -1 with err
 * set when the report could not be written (the file is then removed too). */
int cmd_out_close(struct cmd_out *o, int keep, char *err, size_t errlen);

#endif /* TIPROF_CMD_OUT_H */
