/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_cli.h - helpers the tiprof-lbr subcommands share (lbr_cli.c): number parsing, finding
 * the preload library, reading a whole file. No output: callers report errors. */
#ifndef TIPROF_LBR_CLI_H
#define TIPROF_LBR_CLI_H

#include <stddef.h>
#include <stdint.h>

/* A non-negative integer (decimal, 0x hex or 0 octal) with nothing after it: 0, or -1. */
int lbr_cli_parse_u64(const char *s, uint64_t *v);

/* libtiprof-lbr.so into lib[cap]: $TIPROF_LBR_LIB, else ../lib/ next to this program's bin/,
 * else this program's own directory (the cross build's layout). 0 if readable; -1 with the
 * usual location (or the override) in lib, for the error message. */
int lbr_cli_find_lib(char *lib, size_t cap);

/* The whole file into a malloc'ed buffer: 0, or -errno (-EIO on a read error). */
int lbr_cli_read_file(const char *path, uint8_t **buf, size_t *len);

#endif
