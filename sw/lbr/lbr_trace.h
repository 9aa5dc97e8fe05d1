/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_trace.h - the software branch tracer engine: per-thread sampling state, the trace state
 * machine run by the signal handler (sample -> look-ahead decode -> stop at the first
 * unresolved transfer -> evaluate -> record -> ... -> N taken branches), the stopping
 * mechanisms, the buffers handed to the writer thread, and start/stop of a tracing session.
 *
 * Global mutable state: exactly one tracer per process, `lbr_g` (lbr_trace.c), because the
 * signal handlers can reach nothing else; and a thread-local pointer to the current thread's
 * slot (initial-exec TLS, so reading it is async-signal-safe). Both are documented there. */
#ifndef TIPROF_LBR_TRACE_H
#define TIPROF_LBR_TRACE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "lbr_file.h"
#include "lbr_isa.h"
#include "lbr_emu.h"
#include "lbr_queue.h"

/* Session configuration. */
struct lbr_config {
	unsigned event;       /* enum lbr_event */
	uint64_t period;      /* event units between samples (ns for the clocks); > 0 */
	unsigned depth;       /* taken branches per stack, 1..LBR_MAX_DEPTH */
	unsigned mech;        /* enum lbr_mech */
	int signo;            /* realtime signal used for samples and breakpoint stops */
	int out_fd;           /* records file, opened O_APPEND; owned by the tracer */
};


/* ---------------------------------------------------------------- buffers */

#define LBR_BUF_BYTES (64 * 1024 - 16)
struct lbr_buf {
	uint32_t used;                 /* bytes of whole records in data */
	uint32_t pad;
	uint8_t data[LBR_BUF_BYTES];
};

/* ---------------------------------------------------------------- decode cache */

#define LBR_CACHE_SIZE 4096 /* entries per thread; power of two */
struct lbr_cache_ent {
	uint64_t start;          /* block start address; 0 = empty */
	struct lbr_branch br;    /* the transfer that ends the block */
};

/* ---------------------------------------------------------------- per-thread slot */

enum lbr_slot_state { LBR_SLOT_FREE = 0, LBR_SLOT_LIVE, LBR_SLOT_DONE };

struct lbr_thread {
	atomic_int state;            /* enum lbr_slot_state; LIVE->DONE by exactly one flusher */
	atomic_int in_handler;       /* 1 while this thread runs our signal handler */
	pid_t tid;                   /* kernel thread id */
	int sample_fd;               /* sampling perf event (signals this thread) */
	int stop_fd;                 /* breakpoint perf event (LBR_MECH_HWBP), else -1 */
	uint64_t stop_addr;          /* where the stop mechanism points now (0 = parked) */
	int stop_data;               /* ... and it is a data watchpoint there (hwbp) */
	uint64_t sw_step;            /* int3: one-shot step breakpoint address, 0 = none */
	uint64_t sw_pending;         /* int3: stop deferred until sw_step is reached, 0 = none */
	uint64_t sw_at;              /* int3: address of the stop being handled, 0 = none */
	/* trace state (touched only by this thread's handler, or by the flusher after DONE) */
	int active;                  /* a stack is being collected */
	uint64_t armed;              /* address of the armed stop, 0 = none */
	struct lbr_branch armed_br;  /* the transfer at `armed` */
	uint64_t stops_at_sample;    /* st.stops when the last sample arrived mid-trace */
	struct lbr_stack cur;        /* stack under construction, or held (below) */
	uint64_t blk[LBR_MAX_DEPTH]; /* start of the straight-line path ending at cur.br[i].from */
	unsigned ncertain;           /* cur.br[0..ncertain) have certainly executed */
	int held;                    /* cur is finished but not yet committed: its look-ahead
	                              * tail may still be cut by a signal (see trace_cut) */
	int nostart;                 /* samples start no stack: 1 while a posix_spawn-like call
	                              * runs, 2 = skip the next sample (vfork) */
	/* emulated windows (lbr_emu.h; NULL emu: breakpoints only) */
	struct lbr_emu *emu;         /* per-thread emulator state (mmap'ed at thread start) */
	int ck;                      /* the armed stop is the checkpoint of run `eo` */
	struct lbr_emu_out eo;       /* the last run: checkpoint and prediction */
	struct lbr_emu_br ebr[LBR_MAX_DEPTH]; /* its branches, recorded once confirmed */
	struct lbr_buf *buf;         /* current output buffer, NULL when none free */
	struct lbr_stats st;         /* counters */
	struct lbr_cache_ent cache[LBR_CACHE_SIZE];
};

/* ---------------------------------------------------------------- stopping mechanism */

/* How the tracer stops a thread at an address. Implementations: lbr_stop_hw.c (perf hardware
 * breakpoint, signal = cfg.signo with si_fd == stop_fd) and lbr_stop_sw.c (int3 patching,
 * SIGTRAP). `arm` and `disarm` run in the thread's signal handler: async-signal-safe. */
struct lbr_stop_ops {
	const char *name;
	/* Prepare thread t (non-signal context). Returns 0 or a negative errno. */
	int (*thread_init)(struct lbr_thread *t);
	/* Release what thread_init took (non-signal context, t's signals blocked or t gone). */
	void (*thread_fini)(struct lbr_thread *t);
	/* Stop t before it next executes `pc` (replacing any armed stop). Returns 0 or -1. */
	int (*arm)(struct lbr_thread *t, uint64_t pc);
	/* Stop t right after its next access (read or write) to the 8-byte granule at addr,
	 * replacing any armed stop (a data checkpoint, lbr_emu.h). NULL: not available. */
	int (*arm_data)(struct lbr_thread *t, uint64_t addr);
	/* Cancel t's armed stop. */
	void (*disarm)(struct lbr_thread *t);
	/* Enable/disable t's stop events around the session (may be NULL). */
	void (*enable)(struct lbr_thread *t, int on);
};

extern const struct lbr_stop_ops lbr_stop_hw;
extern const struct lbr_stop_ops lbr_stop_sw;

/* ---------------------------------------------------------------- session */

/* Start tracing this process with `cfg` (the calling thread is traced). Installs the signal
 * handlers, starts the writer thread, writes the session record. Returns 0 or a negative
 * errno (then nothing is left installed except harmless handlers). */
int lbr_trace_start(const struct lbr_config *cfg);

/* Trace the calling thread (non-signal context). Returns 0 or a negative errno. */
int lbr_thread_begin(void);

/* Trace thread `tid` of this process from another thread (threads existing at start). */
int lbr_thread_attach(pid_t tid);

/* The calling thread is exiting: flush and release its slot. */
void lbr_thread_end(void);

/* A program signal handler is about to run on this thread, which was at `pc`: cut the records
 * recorded by look-ahead that `pc` shows were not executed, and abandon the trace (the
 * handler's branches would otherwise interleave with the stack). Async-signal-safe. */
void lbr_thread_interrupted(uint64_t pc);

/* End the calling thread's stack (keeping only the records that certainly executed) before
 * the thread leaves the traced code in a way the tracer cannot follow (fork, vfork,
 * posix_spawn), and set its `nostart` mode (0, 1 or 2, see struct lbr_thread). Not from a
 * signal handler. */
void lbr_thread_quiesce(int nostart);

/* fork(2) (pthread_atfork handlers). prepare: block the tracer's signals on the forking
 * thread and end its stack; parent: unblock; child (one thread, inherited tracer state whose
 * perf events belong to the parent): drop the parent's state (close its event fds, remove
 * inherited int3 patches), then start a new session for the child if `follow` (same
 * configuration and records file, new session record), else stay disabled; unblock. */
void lbr_trace_fork_prepare(void);
void lbr_trace_fork_parent(void);
void lbr_trace_fork_child(int follow);

/* exec: flush and end the session before the image is replaced (records buffered in this
 * process would be lost, as no destructor runs); returns 1 if a session was ended. If the
 * exec fails, lbr_trace_exec_failed starts a new session on the calling thread (other
 * threads stay untraced). Not from a signal handler. */
int lbr_trace_exec_prepare(void);
void lbr_trace_exec_failed(void);

/* Restartable sequences: [start, end) of every critical section (`__rseq_cs` descriptors
 * and `__rseq_cs_ptr_array` of the objects loaded at start; lbr_rseq.c). Look-ahead never
 * records or stops inside one: an abort would jump to its abort handler without a branch,
 * and a stop there would abort it every time. Non-signal context. Returns the number of
 * ranges written to out[0..max), sorted and merged. */
struct lbr_range {
	uint64_t start, end;
};
int lbr_rseq_scan(struct lbr_range *out, int max);

/* Stop tracing: disable every thread's events, flush partial stacks and buffers (including
 * those of exited threads), write per-thread statistics, join the writer, close the file.
 * Idempotent. */
void lbr_trace_stop(void);

/* True while a session is running in this process. */
int lbr_trace_running(void);

/* Our signal handler for cfg.signo (and SIGTRAP for int3). Returns 1 if the signal was ours,
 * 0 if it must be passed on to the program's handler. */
int lbr_trace_on_signal(int sig, siginfo_t *si, void *uc);

/* Thread id of the writer thread (never traced); waits until it is known. */
pid_t lbr_trace_writer_tid(void);

/* Address range [lo, hi) of the tracer's own code (never traced). */
void lbr_trace_set_self_range(uint64_t lo, uint64_t hi);

#endif
