/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_file.h - the branch-records file of the software branch tracer (docs/lbr.md, "Records
 * file"): a 32-byte file header, then self-sized little-endian records (session, thread,
 * stack of {from,to}, per-thread statistics). Encoders write into caller memory and are
 * async-signal-safe; the decoder takes a buffer and a length and does no I/O. */
#ifndef TIPROF_LBR_FILE_H
#define TIPROF_LBR_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tiprof/file_magic.h"

#define LBR_FILE_MAGIC TIPROF_LBR_FILE_MAGIC   /* 8 bytes */
#define LBR_FILE_VERSION 2     /* 2: machine in the header, CTR-layout stacks; 1 still read */
#define LBR_FILE_VERSION_MIN 1
#define LBR_FILE_HDR_SIZE 32
/* ELF e_machine of the traced machine, in the file header (version 2; 0 in version 1). */
#define LBR_EM_X86_64 62
#define LBR_EM_RISCV 243
#if defined(__riscv)
#define LBR_EM_NATIVE LBR_EM_RISCV
#else
#define LBR_EM_NATIVE LBR_EM_X86_64
#endif

/* Record types. Every record starts with {u32 type, u32 size}; size counts the whole record
 * (header included) and is a multiple of 8. Unknown types are skipped by readers. */
enum lbr_rec_type {
	LBR_REC_SESSION = 1, /* one traced process image started */
	LBR_REC_THREAD = 2,  /* a thread started being traced */
	LBR_REC_STACK = 3,   /* one LBR stack: up to depth {from,to}, oldest first */
	LBR_REC_STATS = 4,   /* per-thread counters, written when tracing stops */
	LBR_REC_MMAP = 5,    /* an executable mapping of the process (start and stop snapshots) */
};

#define LBR_STACK_ABANDONED 1u /* stack ended before depth (untraceable transfer, signal...) */
/* The entries are RISC-V Control Transfer Records (lbr_ctr.h): 24 bytes each in the file,
 * {ctrsource = from | V, ctrtarget = to | MISP, ctrdata}; `data` and `misp` of every pair
 * are meaningful. Without it: 16-byte {from, to} entries (data = 0: no type known). */
#define LBR_STACK_CTR 2u
/* MISP was recorded (a source that knows mispredictions). Without it MISP is unknown: the
 * bit is 0, as in a CTR implementation whose MISP is read-only zero. Never set by the
 * software tracer, which cannot know what the branch predictor did. */
#define LBR_STACK_MISP 4u
/* What the native tracer writes: CTR entries on RISC-V. */
#if defined(__riscv)
#define LBR_STACK_NATIVE LBR_STACK_CTR
#else
#define LBR_STACK_NATIVE 0u
#endif

/* Sampling events (session.event). */
enum lbr_event { LBR_EV_TASK_CLOCK = 0, LBR_EV_CPU_CLOCK, LBR_EV_CYCLES, LBR_EV_INSTRUCTIONS };
/* Name of an event ("task-clock"...), or NULL. */
const char *lbr_event_name(unsigned ev);
/* Event number of a name, or -1. */
int lbr_event_parse(const char *name);

/* Defaults. */
#define LBR_DEFAULT_PERIOD 10000000ULL /* 10 ms of task-clock: 100 samples/s */
#define LBR_DEFAULT_DEPTH 16
/* The shortest time period (task-clock, cpu-clock; ns) `record` accepts with hwbp stops. A
 * stop costs 31-46 us of the program's CPU time in a VM (docs/lbr.md §7): at periods near it
 * the next sample fires while a stack's stops are still running, and with hwbp the program
 * made no progress (python3 at 20 us: 3 of 3 runs stuck for 60 s; 50 us and up finished). */
#define LBR_MIN_HWBP_TIME_PERIOD 100000ULL
#define LBR_DEFAULT_FILE "tiprof-lbr.data"	/* records file of record, read by the others */
/* Default stopping mechanism: perf hardware breakpoints on x86-64; software breakpoints
 * ("int3", i.e. ebreak/c.ebreak) on RISC-V, whose Linux has no perf hardware breakpoints. */
#if defined(__riscv)
#define LBR_DEFAULT_MECH_NAME "int3"
#else
#define LBR_DEFAULT_MECH_NAME "hwbp"
#endif

/* Mechanisms (session.mech). */
enum lbr_mech { LBR_MECH_HWBP = 1, LBR_MECH_INT3 = 2 };

struct lbr_session {
	uint32_t pid;        /* traced process */
	uint32_t depth;      /* taken branches per stack (N) */
	uint64_t period;     /* sampling period in event units (ns for task-clock) */
	uint32_t event;      /* enum lbr_event (lbr_trace.h) */
	uint32_t mech;       /* enum lbr_mech */
	uint64_t start_ns;   /* CLOCK_MONOTONIC at start */
	char exe[256];       /* executable path (NUL-terminated, may be truncated) */
};

struct lbr_thread_rec {
	uint32_t pid, tid;
	uint64_t time_ns;
};

struct lbr_pair {
	uint64_t from, to;
	uint32_t data;       /* with LBR_STACK_CTR: ctrdata (TYPE, CCV, CCM, CCE; lbr_ctr.h) */
	uint32_t misp;       /* with LBR_STACK_CTR | LBR_STACK_MISP: ctrtarget.MISP */
};

#define LBR_MAX_DEPTH 256 /* stack records stay < 4.2 KB */

struct lbr_stack {
	uint32_t tid;
	uint16_t nr;         /* entries in `br` */
	uint16_t flags;      /* LBR_STACK_* */
	uint64_t time_ns;    /* CLOCK_MONOTONIC when the stack completed */
	uint64_t sample_pc;  /* PC of the sample that started it */
	struct lbr_pair br[LBR_MAX_DEPTH]; /* execution order: br[0] oldest */
};

/* Per-thread counters. */
struct lbr_stats {
	uint32_t pid, tid;
	uint64_t samples;      /* sampling signals handled */
	uint64_t stacks;       /* stacks committed */
	uint64_t branches;     /* {from,to} pairs committed */
	uint64_t stops;        /* breakpoint stops handled */
	uint64_t abandoned;    /* stacks ended early */
	uint64_t lost;         /* stacks dropped: no free buffer */
	uint64_t decode_fail;  /* blocks that could not be decoded */
	uint64_t cache_hits, cache_misses; /* decode cache; a miss decodes one block */
	/* Evaluation counters (record size 144; an old 88-byte record decodes them as 0). */
	uint64_t static_br;    /* direct jmp/call recorded by look-ahead, without a stop */
	uint64_t evaluated;    /* transfers evaluated at stops (cond, ret, indirect, syscall) */
	uint64_t not_taken;    /* ... of which fell through (not recorded) */
	uint64_t rseq_ends;    /* stacks ended at a restartable-sequence critical section */
	uint64_t sample_ns;    /* CLOCK_MONOTONIC ns spent in sample handlers */
	uint64_t stop_ns;      /* ... in stop handlers (excludes the kernel's #DB/#BP + signal) */
	uint64_t decode_ns;    /* ... decoding blocks (cache misses), part of the two above */
	/* Emulated windows and why stacks ended (record size 296; older records read as 0). */
	uint64_t emu_runs;     /* look-ahead emulator runs (lbr_emu.h) */
	uint64_t emu_insns;    /* instructions emulated */
	uint64_t emu_branches; /* taken branches recorded from emulated windows (confirmed) */
	uint64_t emu_confirmed;/* checkpoint stops whose registers matched the prediction */
	uint64_t emu_mismatch; /* ... that did not: the stack was cut there */
	uint64_t emu_ns;       /* ns emulating (part of sample_ns + stop_ns) */
	uint64_t emu_end[5];   /* runs by how they ended: enum lbr_emu_end (depth, insn, mem,
	                        * budget, forbid) */
	uint64_t end[8];       /* stacks by why they ended: enum lbr_end_reason */
	uint64_t emu_data_ck;  /* checkpoints that were data watchpoints (record size 304) */
};
#define LBR_STATS_SIZE_V0 88  /* stats record before the evaluation counters */
#define LBR_STATS_SIZE_V1 144 /* ... before the emulator and end-reason counters */
#define LBR_STATS_SIZE 304
#define LBR_STATS_NEND 8
/* Why a stack ended (lbr_stats.end[]). */
enum lbr_end_reason {
	LBR_END_FULL = 0,     /* depth reached */
	LBR_END_STUCK,        /* a sample found it without progress (blocked, stop never reached) */
	LBR_END_UNTRACEABLE,  /* undecodable code, a transfer that cannot be followed, the tracer */
	LBR_END_MISMATCH,     /* an emulated window's checkpoint did not match: cut, never guessed */
	LBR_END_SIGNAL,       /* a program signal handler ran */
	LBR_END_ARM,          /* the stop could not be armed */
	LBR_END_RSEQ,         /* an rseq critical section ahead */
	LBR_END_OTHER,        /* fork, exec, spawn, thread exit, end of the session */
};

/* An executable mapping, from /proc/self/maps: [start, end) maps `path` from file offset
 * `pgoff`. Written after the session record and again when tracing stops, so code mapped
 * or unmapped in between (dlopen/dlclose) is known; readers take the union. */
struct lbr_mmap {
	uint32_t pid;
	uint32_t prot;       /* LBR_PROT_* */
	uint64_t start, end, pgoff;
	char path[256];      /* file path or "[vdso]"..., NUL-terminated, may be truncated */
};
#define LBR_PROT_R 1u
#define LBR_PROT_W 2u
#define LBR_PROT_X 4u

struct lbr_rec {
	uint32_t type; /* enum lbr_rec_type, or another value for skipped unknown records */
	union {
		struct lbr_session session;
		struct lbr_thread_rec thread;
		struct lbr_stack stack;
		struct lbr_stats stats;
		struct lbr_mmap mmap;
	} u;
};

/* Write the file header into dst[LBR_FILE_HDR_SIZE] (version 2, this machine). */
void lbr_file_header(uint8_t *dst);
/* The same for another machine (tests, converters of other sources). */
void lbr_file_header_for(uint8_t *dst, unsigned machine);
/* Check a file header (version 1 or 2): 0 if valid, -1 otherwise. */
int lbr_file_check_header(const uint8_t *src, size_t len);
/* The ELF e_machine a valid header names (0: version 1, not recorded). */
unsigned lbr_file_machine(const uint8_t *src);

/* Encoders: write one record at dst (at most `cap` bytes); return its size, or 0 if it does
 * not fit. Async-signal-safe. */
size_t lbr_enc_session(uint8_t *dst, size_t cap, const struct lbr_session *s);
size_t lbr_enc_thread(uint8_t *dst, size_t cap, const struct lbr_thread_rec *t);
size_t lbr_enc_stack(uint8_t *dst, size_t cap, const struct lbr_stack *s);
size_t lbr_enc_stats(uint8_t *dst, size_t cap, const struct lbr_stats *s);
size_t lbr_enc_mmap(uint8_t *dst, size_t cap, const struct lbr_mmap *m);
/* Size a stack record of `nr` entries takes. */
static inline size_t lbr_stack_size(unsigned nr)
{
	return 8 + 24 + 16 * (size_t)nr;
}
/* ... and with `flags` (LBR_STACK_CTR: 24-byte entries). */
static inline size_t lbr_stack_size_f(unsigned nr, unsigned flags)
{
	return 8 + 24 + ((flags & LBR_STACK_CTR) ? 24 : 16) * (size_t)nr;
}

/* Decode one record from buf[0..len). Returns bytes consumed (> 0), LBR_NEED_MORE if the
 * record is incomplete, or LBR_BAD if it is malformed. */
#define LBR_NEED_MORE (-1)
#define LBR_BAD (-2)
long lbr_dec_record(const uint8_t *buf, size_t len, struct lbr_rec *out);

/* Text dump of one record (for tests and debugging). */
void lbr_rec_dump(FILE *f, const struct lbr_rec *r);

#endif
