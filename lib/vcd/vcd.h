/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vcd.h - write VCD (Value Change Dump, IEEE 1364-2005 §18) waveforms.
 *
 * Two objects share one way of declaring signals:
 *   vcd_writer  streams a VCD to a FILE*: declare scopes and signals, end the
 *               definitions, then per time step vcd_time() and vcd_set_*();
 *               only values that changed since the last step are written.
 *   vcd_ring    keeps the last N samples of every signal in memory and writes
 *               them as a VCD only when asked (a harness that runs 10M cycles
 *               and wants a waveform only of the cycles before a failure).
 *
 * Conventions: every function that can fail returns 0 (or a handle >= 0) on
 * success and a negative VCD_E* code on failure; nothing is printed. After an
 * I/O error a writer is stuck: every later call returns VCD_EIO. There is no
 * global mutable state; distinct objects may be used from distinct threads.
 * Signal handles are small integers, dense from 0 in declaration order.
 */
#ifndef TIPROF_VCD_H
#define TIPROF_VCD_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes (all negative). vcd_strerror() gives a one-line text. */
enum {
	VCD_OK      =  0,
	VCD_EINVAL  = -1, /* bad argument: NULL, bad name, width, timescale, handle */
	VCD_ESTATE  = -2, /* call not allowed now (declare after end of defs...) */
	VCD_ETIME   = -3, /* time went backwards (ring: did not go forwards) */
	VCD_ERANGE  = -4, /* value has bits set above the signal's width */
	VCD_EDUP    = -5, /* a signal of that name already exists in this scope */
	VCD_EIO     = -6, /* writing, flushing, opening or closing the file failed */
	VCD_ENOMEM  = -7, /* out of memory */
};

#define VCD_MAX_WIDTH 4096u /* widest signal, in bits */

/* Text for a VCD_E* code; never NULL, "unknown error" for other values. */
const char *vcd_strerror(int err);

/* ------------------------------------------------------------------------ */
/* Streaming writer                                                          */

typedef struct vcd_writer vcd_writer;

/*
 * Create a writer on an open stream. timescale is "1|10|100" followed by
 * "s|ms|us|ns|ps|fs", with an optional space ("1ns", "10 ps"). The stream
 * stays the caller's: vcd_close() flushes it but does not close it.
 * Returns 0 and sets *out, or VCD_EINVAL / VCD_ENOMEM (*out set to NULL).
 * Nothing is written until vcd_end_defs().
 */
int vcd_open(vcd_writer **out, FILE *f, const char *timescale);

/*
 * As vcd_open(), on a file created (truncated) at path; the writer owns it
 * and vcd_close() closes it. Returns VCD_EIO if the file cannot be opened.
 */
int vcd_open_path(vcd_writer **out, const char *path, const char *timescale);

/*
 * Open a nested scope (a VCD "module") named name: printable ASCII without
 * spaces. Only before vcd_end_defs(), else VCD_ESTATE.
 */
int vcd_scope_begin(vcd_writer *w, const char *name);

/* Close the innermost open scope. VCD_ESTATE if none is open. */
int vcd_scope_end(vcd_writer *w);

/*
 * Declare a signal of width 1..VCD_MAX_WIDTH bits in the innermost open
 * scope (at least one must be open: VCD_ESTATE otherwise). name is printable
 * ASCII without spaces, unique within its scope (VCD_EDUP). Returns the
 * signal's handle (>= 0) or a negative code. Its value is x until set.
 */
int vcd_signal(vcd_writer *w, const char *name, unsigned width);

/*
 * End the definitions: writes the header ($version, $timescale, scopes and
 * $var lines, $enddefinitions). All scopes must be closed and at least one
 * signal declared (VCD_ESTATE). May return VCD_EIO.
 */
int vcd_end_defs(vcd_writer *w);

/*
 * Start the time step t (in timescale units). Values set before the next
 * vcd_time() belong to step t. t must not be less than the current step
 * (VCD_ETIME); equal is a no-op. The first call writes "#t" and a $dumpvars
 * block with every signal's value at the end of that first step; later steps
 * write "#t" and the signals whose value differs from the last written one,
 * only if there is at least one. Only after vcd_end_defs() (VCD_ESTATE).
 */
int vcd_time(vcd_writer *w, uint64_t t);

/*
 * Set signal sig to value in the current step (the last set in a step wins).
 * value must fit in the signal's width (VCD_ERANGE); signals wider than 64
 * bits are zero-extended. Only after the first vcd_time() (VCD_ESTATE).
 */
int vcd_set_u64(vcd_writer *w, int sig, uint64_t value);

/*
 * Set signal sig from words[0..(width+63)/64), least significant word first.
 * width must equal the signal's declared width (VCD_EINVAL); bits of the top
 * word above width must be zero (VCD_ERANGE).
 */
int vcd_set_bits(vcd_writer *w, int sig, const uint64_t *words, unsigned width);

/* Set signal sig to unknown (all x) in the current step. */
int vcd_set_x(vcd_writer *w, int sig);

/*
 * Write the pending step and, if the last vcd_time() step wrote nothing, its
 * "#t" line (so viewers show the whole window); flush; close the file if
 * the writer owns it; free the writer. Always frees, even on error. Returns
 * the first error the writer met (an I/O error, or VCD_ESTATE if the
 * definitions were never ended), else 0. NULL is a no-op returning 0.
 */
int vcd_close(vcd_writer *w);

/* ------------------------------------------------------------------------ */
/* Ring of the last N samples, dumped on demand                              */

typedef struct vcd_ring vcd_ring;

/*
 * Create a ring keeping the last depth (>= 1) samples. Returns 0 and sets
 * *out, or VCD_EINVAL / VCD_ENOMEM (*out set to NULL).
 */
int vcd_ring_create(vcd_ring **out, unsigned depth);

/* As vcd_scope_begin(), vcd_scope_end() and vcd_signal(), for a ring. */
int vcd_ring_scope_begin(vcd_ring *r, const char *name);
int vcd_ring_scope_end(vcd_ring *r);
int vcd_ring_signal(vcd_ring *r, const char *name, unsigned width);

/*
 * End the definitions and allocate the sample storage (depth samples of
 * every signal). All scopes must be closed and a signal declared
 * (VCD_ESTATE); may return VCD_ENOMEM.
 */
int vcd_ring_end_defs(vcd_ring *r);

/*
 * Set a signal's current value, which holds until set again; same argument
 * rules as vcd_set_u64() / vcd_set_bits() / vcd_set_x(). Cost: a store.
 * Only after vcd_ring_end_defs() (VCD_ESTATE).
 */
int vcd_ring_set_u64(vcd_ring *r, int sig, uint64_t value);
int vcd_ring_set_bits(vcd_ring *r, int sig, const uint64_t *words, unsigned width);
int vcd_ring_set_x(vcd_ring *r, int sig);

/*
 * Record the current values of all signals as the sample at time t, which
 * must be greater than the previous sample's (VCD_ETIME). When the ring is
 * full the oldest sample is dropped. Cost: one copy of the values.
 */
int vcd_ring_commit(vcd_ring *r, uint64_t t);

/* Number of samples held now (0..depth). */
unsigned vcd_ring_count(const vcd_ring *r);

/*
 * Write the held samples, oldest first, as a VCD on f (not closed) or on a
 * file created at path. The ring is unchanged and may go on recording. With
 * no sample held the VCD has definitions only. Returns 0, VCD_ESTATE before
 * vcd_ring_end_defs(), VCD_EIO or VCD_ENOMEM.
 */
int vcd_ring_dump(const vcd_ring *r, FILE *f, const char *timescale);
int vcd_ring_dump_path(const vcd_ring *r, const char *path, const char *timescale);

/* Free the ring. NULL is a no-op. */
void vcd_ring_free(vcd_ring *r);

#ifdef __cplusplus
}
#endif

#endif /* TIPROF_VCD_H */
