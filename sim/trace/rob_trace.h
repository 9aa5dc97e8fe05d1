/* SPDX-License-Identifier: Apache-2.0 */
/* ROB traces: the per-cycle ROB interface (struct tiprof_rob_if) in a compact, documented binary
 * file (docs/rob-trace.md), so the RTL unit can be driven from recorded traces — from the
 * simulator or exported from another core's RTL simulation — and windows exported as VCD.
 * The encoder and decoder work on memory buffers and do no I/O; the file helpers wrap them. */
#ifndef TIPROF_ROB_TRACE_H
#define TIPROF_ROB_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tiprof/file_magic.h"
#include "tiprof/tiprof_regs.h"

#define ROB_TRACE_MAGIC TIPROF_ROB_TRACE_MAGIC   /* 8 bytes at offset 0 */
#define ROB_TRACE_VERSION 2u	/* 2: an end record closes the trace; 1 is still read */
#define ROB_TRACE_HEADER_SIZE 16u

/* Status codes (negative). */
enum {
	ROB_TRACE_NEED_MORE = -1, /* the buffer ends inside a record */
	ROB_TRACE_BAD_MAGIC = -2, /* not a ROB trace */
	ROB_TRACE_BAD_VERSION = -3, /* a version this reader does not know */
	ROB_TRACE_BAD_RECORD = -4, /* a record that cannot be valid */
	ROB_TRACE_IO = -5,        /* reading or writing the file failed */
	ROB_TRACE_NOMEM = -6,     /* out of memory */
};

/* The configuration a trace was recorded for (the file header). */
struct rob_trace_hdr {
	unsigned w;        /* commit width / banks, 1..8 */
	unsigned xlen;     /* address width, 32 or 64 */
	unsigned robidx_w; /* width of disp_idx, 1..16 */
};

/* Encoder/decoder state: the previous cycle, which records are relative to. */
struct rob_trace_state {
	struct rob_trace_hdr hdr;     /* configuration */
	unsigned version;             /* the file's format version (decoder) */
	struct tiprof_rob_if prev;    /* the previous cycle's values */
	uint64_t repeat;              /* decoder: cycles still to repeat prev */
	uint64_t cycles;              /* cycles encoded or decoded so far */
};

/* One line of text for a status code. */
const char *rob_trace_strerror(int err);

/* Write the 16-byte header for hdr into out (at least ROB_TRACE_HEADER_SIZE bytes) and reset
 * st. Returns the bytes written, or ROB_TRACE_BAD_RECORD for an impossible configuration. */
int rob_trace_encode_header(const struct rob_trace_hdr *hdr, struct rob_trace_state *st,
			    uint8_t *out);

/* Parse a header from buf; on success fill st (reset) and return the bytes consumed. */
int rob_trace_decode_header(const uint8_t *buf, size_t len, struct rob_trace_state *st);

/* Encode one cycle into out (at least ROB_TRACE_MAX_RECORD bytes). A cycle equal to the
 * previous one is not written at once but counted; rob_trace_flush_repeat() writes the run.
 * Returns the bytes written (possibly 0). Fields beyond the configuration (banks >= W, address
 * bits >= XLEN, index bits >= robidx_w) are dropped, and so are the addresses of banks
 * without a valid head entry (head_pc) or dispatch (disp_pc, disp_idx): they decode as the
 * last value recorded for that bank. */
#define ROB_TRACE_MAX_RECORD (3 + 10 + 10 + 2 * 8 * 10 + 8 * 3 + 3 + 10)
int rob_trace_encode(struct rob_trace_state *st, const struct tiprof_rob_if *rob,
		     uint8_t *out);

/* Write a pending run of repeated cycles (call before closing the trace). */
int rob_trace_flush_repeat(struct rob_trace_state *st, uint8_t *out);

/* Write a pending repeat run and the end record (tag 0xFF, LEB128 count of the cycles): the
 * last bytes of a version-2 trace, so that a trace cut at a record boundary is still known to
 * be truncated. out needs ROB_TRACE_MAX_END bytes. Returns the bytes written. */
#define ROB_TRACE_MAX_END (2 * 11)
int rob_trace_encode_end(struct rob_trace_state *st, uint8_t *out);

/* Decode the next cycle from buf into rob. Returns bytes consumed (0 when a repeat run
 * supplied the cycle), ROB_TRACE_NEED_MORE, or ROB_TRACE_BAD_RECORD. At the end of the data
 * the caller sees NEED_MORE with len == 0. */
int rob_trace_decode(struct rob_trace_state *st, const uint8_t *buf, size_t len,
		     struct tiprof_rob_if *rob);

/* ------------------------------------------------------------------ files */

/* A trace being written to a file. */
struct rob_trace_writer {
	FILE *f;                    /* the stream (owned) */
	struct rob_trace_state st;  /* encoder state */
	int err;                    /* first error, 0 if none */
};

/* Create path and write the header. Returns 0 or a negative status. */
int rob_trace_writer_open(struct rob_trace_writer *w, const char *path,
			  const struct rob_trace_hdr *hdr);
/* Append one cycle. */
int rob_trace_writer_cycle(struct rob_trace_writer *w, const struct tiprof_rob_if *rob);
/* Flush and close; returns the first error of the writer's life, or 0. */
int rob_trace_writer_close(struct rob_trace_writer *w);

/* A whole trace file read into memory. */
struct rob_trace_reader {
	uint8_t *buf;               /* file contents */
	size_t len, pos;            /* size and read position */
	int ended;                  /* the end record was read */
	struct rob_trace_state st;  /* decoder state */
};

/* Read path. Returns 0 or a negative status (with the reader empty). */
int rob_trace_reader_open(struct rob_trace_reader *r, const char *path);
/* Next cycle: returns 1 with rob filled, 0 at the clean end of the trace, or a negative
 * status (a truncated or corrupt trace). */
int rob_trace_reader_next(struct rob_trace_reader *r, struct tiprof_rob_if *rob);
void rob_trace_reader_close(struct rob_trace_reader *r);

#endif /* TIPROF_ROB_TRACE_H */
