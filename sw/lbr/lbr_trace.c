/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_trace.c - the software branch tracer engine (lbr_trace.h): per-thread perf_event
 * sampling delivered as a realtime signal to the thread (F_SETOWN_EX/F_OWNER_TID, F_SETSIG),
 * the trace state machine run in the signal handler, the decode cache, the per-thread output
 * buffers handed to the writer thread through lock-free queues, and session start/stop.
 *
 * Async-signal-safety: everything reachable from lbr_trace_on_signal uses only syscalls
 * (ioctl, process_vm_readv, clock_gettime, gettid), Zydis (pure computation), atomics and the
 * lock-free queues. No malloc, stdio or locks there (the int3 mechanism's patch spinlock is
 * held only around this library's own code and raw system calls; see lbr_stop_sw.c). errno
 * is saved and restored. */
#define _GNU_SOURCE
#include "lbr_trace.h"
#include "lbr_sys.h"
#include "lbr_ctr.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define LBR_MAX_THREADS 4096
#define LBR_BUFS_PER_THREAD 3
#define LBR_MAX_RSEQ 1024 /* rseq critical sections tracked */
#define LBR_FD_FLOOR 600 /* perf fds are moved at or above this, away from the program's */

/* ---------------------------------------------------------------- global state
 * The one tracer of this process. Written by lbr_trace_start before any handler can run
 * (fields marked "const after start"), then read by the handlers; the slot table grows with
 * atomic stores; `running`/`stopping` are the only flags flipped while handlers may run. */
static struct lbr_global {
	struct lbr_config cfg;           /* const after start */
	const struct lbr_stop_ops *stop; /* const after start */
	struct lbr_isa isa;              /* const after start (Zydis decoder is read-only) */
	uint64_t self_lo, self_hi;       /* our own code, never traced; const after start */
	pid_t pid;                       /* traced process; const after start */
	atomic_int running;              /* session started and not stopped */
	atomic_int stopping;             /* stop in progress: handlers only chain */
	atomic_int nslots;               /* used entries of slots[] */
	_Atomic(struct lbr_thread *) slots[LBR_MAX_THREADS];
	struct lbr_queue full;           /* buffers ready to be written (handlers -> writer) */
	struct lbr_queue free_bufs;      /* empty buffers (writer -> handlers) */
	pthread_t writer;                /* writer thread */
	atomic_int writer_quit;          /* ask the writer to drain and exit */
	atomic_int writer_tid;           /* its kernel thread id, 0 until it runs */
	atomic_ulong lost_bufs;          /* buffers dropped because the full queue was full */
	struct lbr_range rseq[LBR_MAX_RSEQ]; /* rseq critical sections, sorted; const after start */
	int nrseq;
	uint64_t ns0, tick0;             /* CLOCK_MONOTONIC and ticks() at start (conversion) */
	int emu;                         /* emulated windows on (TIPROF_LBR_EMU, x86-64 only) */
	unsigned emu_budget;             /* instructions per emulator run (TIPROF_LBR_EMU_BUDGET) */
	int emu_noconfirm;               /* test-only: record runs without their checkpoint check */
	int emu_watch;                   /* data checkpoints allowed (TIPROF_LBR_EMU_WATCH) */
} lbr_g;

/* The calling thread's slot (NULL for threads attached from outside, found by tid). */
static __thread struct lbr_thread *lbr_self __attribute__((tls_model("initial-exec")));

/* Entry points of the real libc functions the preload library wraps (set by lbr_preload.c
 * before start; NULL means "call libc directly"). */
int (*lbr_real_pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int (*lbr_real_sigaction)(int, const struct sigaction *, struct sigaction *);
int (*lbr_real_sigmask)(int, const sigset_t *, sigset_t *);
/* Called with signals that were not ours (set by lbr_preload.c; NULL: default action). */
void (*lbr_chain_hook)(int sig, siginfo_t *si, void *uc);

static int real_sigaction(int s, const struct sigaction *a, struct sigaction *o)
{
	return lbr_real_sigaction ? lbr_real_sigaction(s, a, o) : sigaction(s, a, o);
}

static int real_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	return lbr_real_sigmask ? lbr_real_sigmask(how, set, old)
				: pthread_sigmask(how, set, old);
}

/* The signals the tracer blocks in its own contexts: all of them except SIGTRAP, which is
 * synchronous: a SIGTRAP raised while blocked (an int3 patch reached, or a debugger's
 * single-step or breakpoint inside our handler) makes the kernel reset the program's SIGTRAP
 * disposition to the default and, for int3, kill the process. */
static void tracer_mask(sigset_t *set)
{
	sigfillset(set);
	sigdelset(set, SIGTRAP);
}

/* ---------------------------------------------------------------- small helpers */

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Handlers must not run code outside this library when they can avoid it: a stop armed in
 * libc or the vDSO (the program was traced there) fires again when the handler itself runs
 * that instruction - a queued signal per execution; with several calls per handler the queue
 * grows until the kernel falls back to SIGIO (fatal). So the handlers' clock and thread id
 * are inline system calls (lbr_sys.h), and durations use the CPU's counter (converted at
 * flush). CLOCK_MONOTONIC in a handler (no vDSO): */
static uint64_t handler_ns(void)
{
	struct timespec ts = { 0, 0 };
	lbr_sys2(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The CPU's free-running counter (x86 TSC, RISC-V time CSR); 0 elsewhere. */
static inline uint64_t ticks(void)
{
#if defined(__x86_64__)
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
#elif defined(__riscv) && __riscv_xlen == 64
	uint64_t v;
	__asm__ volatile("rdtime %0" : "=r"(v));
	return v;
#else
	return 0;
#endif
}

static pid_t my_tid(void)
{
	return (pid_t)lbr_sys0(SYS_gettid);
}

/* errno's address on this thread, found outside handlers: `errno` is a call to libc's
 * __errno_location, and a stop armed on its `ret` (programs call it constantly) would fire
 * at every handler entry - with int3 a nested trap per entry, i.e. unbounded recursion. */
static __thread int *lbr_errno_p __attribute__((tls_model("initial-exec")));

static inline int *errp(void)
{
	int *p = lbr_errno_p;
	return p ? p : &errno;
}

void lbr_trace_set_self_range(uint64_t lo, uint64_t hi)
{
	lbr_g.self_lo = lo;
	lbr_g.self_hi = hi;
}

int lbr_trace_running(void)
{
	return atomic_load(&lbr_g.running);
}

static struct lbr_thread *find_slot(pid_t tid)
{
	int n = atomic_load_explicit(&lbr_g.nslots, memory_order_acquire);
	if (n > LBR_MAX_THREADS)
		n = LBR_MAX_THREADS;
	for (int i = n - 1; i >= 0; i--) {
		struct lbr_thread *t = atomic_load_explicit(&lbr_g.slots[i], memory_order_acquire);
		if (t && t->tid == tid && atomic_load(&t->state) == LBR_SLOT_LIVE)
			return t;
	}
	return NULL;
}

/* The slot of the calling thread, or NULL. Async-signal-safe. */
static struct lbr_thread *current_slot(void)
{
	struct lbr_thread *t = lbr_self;
	return t ? t : find_slot(my_tid());
}

/* ---------------------------------------------------------------- output buffers */

/* Append one encoded record to t's buffer, switching buffers when full. `enc` writes at most
 * `cap` bytes and returns the size (0 if it does not fit). Handler or owner context. */
typedef size_t (*enc_fn)(uint8_t *, size_t, const void *);

static int emit(struct lbr_thread *t, enc_fn enc, const void *rec)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		if (!t->buf)
			t->buf = lbr_queue_pop(&lbr_g.free_bufs);
		if (!t->buf)
			return -1;
		size_t n = enc(t->buf->data + t->buf->used, LBR_BUF_BYTES - t->buf->used, rec);
		if (n) {
			t->buf->used += (uint32_t)n;
			return 0;
		}
		/* Full: hand it to the writer and take a fresh one. */
		if (lbr_queue_push(&lbr_g.full, t->buf) < 0) {
			atomic_fetch_add(&lbr_g.lost_bufs, 1);
			t->buf->used = 0;
			continue;
		}
		t->buf = NULL;
	}
	return -1;
}

static size_t enc_stack(uint8_t *d, size_t c, const void *r) { return lbr_enc_stack(d, c, r); }
static size_t enc_thread(uint8_t *d, size_t c, const void *r) { return lbr_enc_thread(d, c, r); }
static size_t enc_stats(uint8_t *d, size_t c, const void *r) { return lbr_enc_stats(d, c, r); }
static size_t enc_session(uint8_t *d, size_t c, const void *r) { return lbr_enc_session(d, c, r); }

/* ---------------------------------------------------------------- decode cache */

static const struct lbr_branch *block_lookup(struct lbr_thread *t, uint64_t pc)
{
	uint64_t h = (pc * 0x9E3779B97F4A7C15ULL) >> (64 - 12);
	struct lbr_cache_ent *e = &t->cache[h & (LBR_CACHE_SIZE - 1)];
	if (e->start == pc) {
		t->st.cache_hits++;
		return &e->br;
	}
	t->st.cache_misses++;
	uint64_t t0 = ticks();
	int r = lbr_isa_decode_block(&lbr_g.isa, pc, 512, &e->br);
	t->st.decode_ns += ticks() - t0; /* ticks until flush */
	if (r < 0) {
		e->start = 0;
		return NULL;
	}
	e->start = pc;
	return &e->br;
}

/* ---------------------------------------------------------------- rseq */

/* True if the straight-line path [lo, hi] touches an rseq critical section. */
static int in_rseq(uint64_t lo, uint64_t hi)
{
	int a = 0, b = lbr_g.nrseq; /* first range whose end is above lo */
	while (a < b) {
		int m = (a + b) / 2;
		if (lbr_g.rseq[m].end <= lo)
			a = m + 1;
		else
			b = m;
	}
	return a < lbr_g.nrseq && lbr_g.rseq[a].start <= hi;
}

/* ---------------------------------------------------------------- trace state machine */

/* Commit a held stack to the output buffer. */
static void commit_held(struct lbr_thread *t)
{
	if (!t->held)
		return;
	if (t->cur.nr > 0) {
		if (emit(t, enc_stack, &t->cur) == 0) {
			t->st.stacks++;
			t->st.branches += t->cur.nr;
		} else {
			t->st.lost++;
		}
	}
	t->held = 0;
	t->cur.nr = 0;
}

/* End the current stack: disarm and hold it. It is committed at the next handler entry of
 * this thread (or at flush), after a program signal has had the chance to cut records that
 * look-ahead recorded but the thread never reached. */
static void trace_end(struct lbr_thread *t, int why)
{
	const int abandoned = why != LBR_END_FULL;
	t->ck = 0; /* an unconfirmed emulated window is dropped: never recorded */
	if (t->armed) {
		lbr_g.stop->disarm(t);
		t->armed = 0;
	}
	if (!t->active)
		return;
	t->st.end[why]++;
	if (abandoned)
		t->st.abandoned++;
	t->cur.flags = (uint16_t)((abandoned ? LBR_STACK_ABANDONED : 0) | LBR_STACK_NATIVE);
	t->cur.time_ns = handler_ns();
	t->active = 0;
	t->held = 1;
}

/* The thread was interrupted at pc: drop the records it had not reached. Records from
 * ncertain on were recorded ahead of execution; record i ends the straight-line path
 * [blk[i], from_i], so pc inside it means records i.. did not execute. */
static void trace_cut(struct lbr_thread *t, uint64_t pc)
{
	for (unsigned i = t->ncertain; i < t->cur.nr; i++) {
		if (pc >= t->blk[i] && pc <= t->cur.br[i].from) {
			t->cur.nr = (uint16_t)i;
			t->cur.flags = LBR_STACK_ABANDONED | LBR_STACK_NATIVE;
			return;
		}
	}
}

/* Record a taken transfer reached along the path starting at blk. Returns 1 when full. */
static int trace_push(struct lbr_thread *t, uint64_t blk, const struct lbr_branch *br,
		      uint64_t from, uint64_t to)
{
	t->blk[t->cur.nr] = blk;
	t->cur.br[t->cur.nr].from = from;
	t->cur.br[t->cur.nr].to = to;
	/* The CTR fields (docs/lbr.md §5.1): type from the decoded instruction; MISP unknown
	 * (0, no LBR_STACK_MISP); no cycle count (CCV = 0): the time between two stops is the
	 * tracer's, not the program's. Written in the CTR layout where LBR_STACK_NATIVE says. */
	t->cur.br[t->cur.nr].data = (uint32_t)lbr_ctrdata(lbr_ctr_type_of(br));
	t->cur.br[t->cur.nr].misp = 0;
	t->cur.nr++;
	return t->cur.nr >= lbr_g.cfg.depth;
}

/* Look ahead from `pc`: record static transfers, stop at the first dynamic one. */
static void trace_advance(struct lbr_thread *t, uint64_t pc)
{
	for (;;) {
		if (pc >= lbr_g.self_lo && pc < lbr_g.self_hi) {
			trace_end(t, LBR_END_UNTRACEABLE); /* entering the tracer itself */
			return;
		}
		const struct lbr_branch *br = block_lookup(t, pc);
		if (!br) {
			t->st.decode_fail++;
			trace_end(t, LBR_END_UNTRACEABLE);
			return;
		}
		if (lbr_g.nrseq && in_rseq(pc, br->pc)) {
			/* A critical section: an abort would leave it without a branch, and a stop
			 * inside it would abort it on every attempt. The stack ends before it. */
			t->st.rseq_ends++;
			trace_end(t, LBR_END_RSEQ);
			return;
		}
		if (lbr_kind_is_static(br->kind)) {
			t->st.static_br++;
			if (trace_push(t, pc, br, br->pc, br->target)) {
				trace_end(t, LBR_END_FULL);
				return;
			}
			pc = br->target;
			continue;
		}
		if (br->kind == LBR_K_STOP) {
			trace_end(t, LBR_END_UNTRACEABLE);
			return;
		}
		t->armed_br = *br;
		t->armed = br->pc;
		if (lbr_g.stop->arm(t, br->pc) < 0) {
			t->armed = 0;
			trace_end(t, LBR_END_ARM);
		}
		return;
	}
}

/* Evaluate the dynamic transfer `br` at the real context cpu (cpu->pc == br->pc), record it
 * if taken, and look ahead from where it goes. */
static void trace_eval(struct lbr_thread *t, const struct lbr_branch *br, const struct lbr_cpu *cpu)
{
	uint64_t next;
	int r = lbr_isa_eval(br, cpu, &next);
	if (r < 0) {
		trace_end(t, LBR_END_UNTRACEABLE);
		return;
	}
	t->st.evaluated++;
	t->st.not_taken += r == 0;
	if (r == 1 && trace_push(t, cpu->pc, br, cpu->pc, next)) {
		trace_end(t, LBR_END_FULL);
		return;
	}
	trace_advance(t, next);
}

/* rseq and the tracer's own code: the emulator never enters them (nor stops there). */
static int emu_forbid(uint64_t pc)
{
	if (pc >= lbr_g.self_lo && pc < lbr_g.self_hi)
		return 1;
	return lbr_g.nrseq && in_rseq(pc, pc);
}

/* Continue the stack from the real context cpu (a sample, or a stop before cpu->pc runs).
 * With the emulator: run it, and arm the one stop at its checkpoint, where the branches it
 * found are recorded if the real registers match. Without a usable checkpoint (the very first
 * instruction is not emulated, or may not be stopped at): the breakpoint path from here -
 * a dynamic transfer at cpu->pc is evaluated now, anything else is looked ahead from. */
static void trace_go(struct lbr_thread *t, const struct lbr_cpu *cpu)
{
	if (t->emu) {
		uint64_t t0 = ticks();
		lbr_emu_run(t->emu, cpu, lbr_g.cfg.depth - t->cur.nr, t->ebr, &t->eo);
		t->st.emu_ns += ticks() - t0;
		t->st.emu_runs++;
		t->st.emu_insns += t->eo.insns;
		t->st.emu_end[t->eo.end]++;
		if (t->eo.ck_pc != cpu->pc || t->eo.ck_data) { /* a checkpoint past the start */
			if (lbr_g.emu_noconfirm) { /* test-only: what the check is there to catch */
				for (unsigned i = 0; i < t->eo.ck_nbr; i++) {
					struct lbr_branch b = { .ctr_type = t->ebr[i].ctr_type };
					t->st.emu_branches++;
					if (trace_push(t, t->ebr[i].from, &b, t->ebr[i].from,
						       t->ebr[i].to)) {
						trace_end(t, LBR_END_FULL);
						return;
					}
				}
				t->ncertain = t->cur.nr;
				trace_advance(t, t->eo.ck_pc);
				return;
			}
			t->ck = 1;
			t->armed = t->eo.ck_pc;
			t->st.emu_data_ck += t->eo.ck_data != 0;
			if ((t->eo.ck_data ? lbr_g.stop->arm_data(t, t->eo.ck_data)
					   : lbr_g.stop->arm(t, t->eo.ck_pc)) < 0) {
				t->armed = 0;
				trace_end(t, LBR_END_ARM);
			}
			return;
		}
	}
	const struct lbr_branch *br = NULL;
	if (!(cpu->pc >= lbr_g.self_lo && cpu->pc < lbr_g.self_hi))
		br = block_lookup(t, cpu->pc);
	if (br && br->pc == cpu->pc && !lbr_kind_is_static(br->kind) && br->kind != LBR_K_STOP &&
	    !(lbr_g.nrseq && in_rseq(cpu->pc, cpu->pc))) {
		t->armed_br = *br; /* copy: trace_eval's look-ahead may replace the cache entry */
		trace_eval(t, &t->armed_br, cpu);
		return;
	}
	trace_advance(t, cpu->pc);
}

/* The pc of the stop whose handler ended (and held) this thread's stack: a sample there
 * interrupted the thread before that stop's own transfer executed. */
static __thread uint64_t held_stop_pc __attribute__((tls_model("initial-exec")));

static void on_sample(struct lbr_thread *t, const ucontext_t *uc)
{
	t->st.samples++;
	/* A held stack whose look-ahead records the thread has not reached yet (the sample came
	 * first, at the last stop or inside a record's straight-line path): a program signal may
	 * be pending behind this one - raised by the system call that the last stop was on - and
	 * its handler would run before those records, which would then join the stack across
	 * the handler (lbr_signal with int3, docs/lbr.md section 6). Cut them, as the program's
	 * handler would have. */
	if (t->held) {
		uint64_t pc = lbr_isa_uc_pc(uc);
		if (pc == held_stop_pc && t->ncertain < t->cur.nr) {
			t->cur.nr = (uint16_t)t->ncertain;
			t->cur.flags = LBR_STACK_ABANDONED | LBR_STACK_NATIVE;
		} else {
			trace_cut(t, pc);
		}
	}
	commit_held(t);
	if (t->nostart) {
		if (t->nostart == 2)
			t->nostart = 0; /* vfork: this one sample is skipped */
		return;
	}
	if (t->active) {
		if (t->st.stops != t->stops_at_sample) {
			t->stops_at_sample = t->st.stops; /* still making progress: let it run */
			return;
		}
		trace_end(t, LBR_END_STUCK); /* stuck (blocked, or its stop is never reached) */
		/* Commit it now, without what it did not reach: held across the new stack's start,
		 * it was lost, and the new stack was committed half-way at the next sample (found
		 * by the riscv64 system tier: pairs split over two stacks with one sample pc). */
		trace_cut(t, lbr_isa_uc_pc(uc));
		commit_held(t);
	}
	uint64_t pc = lbr_isa_uc_pc(uc);
	t->active = 1;
	t->cur.nr = 0;
	t->ncertain = 0;
	t->cur.tid = (uint32_t)t->tid;
	t->cur.sample_pc = pc;
	t->stops_at_sample = t->st.stops;
	if (t->emu) {
		struct lbr_cpu cpu;
		lbr_isa_cpu_from_ucontext(&cpu, uc);
		trace_go(t, &cpu);
	} else {
		trace_advance(t, pc);
	}
}

/* A stop at `pc` with context uc. Returns 1 if it was the armed stop. */
static int on_stop(struct lbr_thread *t, uint64_t pc, const ucontext_t *uc)
{
	if (!t->active || !t->armed || pc != t->armed || atomic_load(&lbr_g.stopping) ||
	    atomic_load(&t->state) != LBR_SLOT_LIVE)
		return 0;
	t->st.stops++;
	held_stop_pc = pc;
	t->ncertain = t->cur.nr; /* reaching this stop proves every earlier record executed */
	struct lbr_cpu cpu;
	lbr_isa_cpu_from_ucontext(&cpu, uc);
	if (t->ck) {
		/* The checkpoint of an emulated window: its first real execution. The window's
		 * branches are recorded only if the real state is the predicted one. */
		t->ck = 0;
		if (!lbr_emu_confirm(&t->eo, &cpu)) {
			t->st.emu_mismatch++;
			trace_end(t, LBR_END_MISMATCH);
			return 1;
		}
		t->st.emu_confirmed++;
		for (unsigned i = 0; i < t->eo.ck_nbr; i++) {
			struct lbr_branch b = { .ctr_type = t->ebr[i].ctr_type };
			t->st.emu_branches++;
			if (trace_push(t, t->ebr[i].from, &b, t->ebr[i].from, t->ebr[i].to)) {
				t->ncertain = t->cur.nr; /* the window ran before this stop */
				trace_end(t, LBR_END_FULL);
				return 1;
			}
		}
		t->ncertain = t->cur.nr;
		trace_go(t, &cpu);
		return 1;
	}
	if (t->emu) {
		trace_go(t, &cpu); /* evaluates the armed transfer itself if it cannot emulate it */
		return 1;
	}
	trace_eval(t, &t->armed_br, &cpu);
	return 1;
}

/* Hooks for the stopping mechanisms. */
int lbr_trace_stop_hit(struct lbr_thread *t, uint64_t pc, const void *uc);
int lbr_trace_stop_hit(struct lbr_thread *t, uint64_t pc, const void *uc)
{
	return on_stop(t, pc, uc);
}
struct lbr_thread *lbr_trace_current(void);
struct lbr_thread *lbr_trace_current(void)
{
	return current_slot();
}
int lbr_sw_on_sigtrap(siginfo_t *si, void *uc); /* lbr_stop_sw.c */

int lbr_trace_on_signal(int sig, siginfo_t *si, void *ucv)
{
	int saved = *errp(), ours = 0;
	ucontext_t *uc = ucv;
	if (sig == SIGTRAP && lbr_g.cfg.mech == LBR_MECH_INT3 && lbr_g.stop == &lbr_stop_sw) {
		/* Before the `running` test: a trap at a patch removed by a stop must be resumed. */
		uint64_t t0 = ticks();
		ours = lbr_sw_on_sigtrap(si, uc);
		struct lbr_thread *t = ours ? lbr_self : NULL;
		if (t && atomic_load(&t->state) == LBR_SLOT_LIVE)
			t->st.stop_ns += ticks() - t0;
		*errp() = saved;
		return ours;
	}
	if (!atomic_load(&lbr_g.running)) {
		/* Not (or no longer) tracing: a late event signal of ours is swallowed. */
		ours = sig == lbr_g.cfg.signo && (si->si_code == POLL_IN || si->si_code == POLL_HUP) &&
		       si->si_fd >= LBR_FD_FLOOR;
		*errp() = saved;
		return ours;
	}
	struct lbr_thread *t = current_slot();
	/* POLL_IN: a stop (or a sample of an older kernel); POLL_HUP: a sample, whose event
	 * disabled itself after one overflow (PERF_EVENT_IOC_REFRESH, below). */
	if (sig != lbr_g.cfg.signo || (si->si_code != POLL_IN && si->si_code != POLL_HUP)) {
		*errp() = saved;
		return 0;
	}
	if (!t) {
		ours = si->si_fd >= LBR_FD_FLOOR;
		*errp() = saved;
		return ours;
	}
	atomic_store(&t->in_handler, 1);
	if (!atomic_load(&lbr_g.stopping) && atomic_load(&t->state) == LBR_SLOT_LIVE) {
		uint64_t t0 = ticks();
		if (si->si_fd == t->sample_fd) {
			on_sample(t, uc);
			/* The sampler stops after each overflow and is re-armed here: at most one
			 * sample is ever pending, however slow the handlers (no queue pile-up). */
			lbr_sys3(SYS_ioctl, t->sample_fd, PERF_EVENT_IOC_REFRESH, 1);
			t->st.sample_ns += ticks() - t0;
			ours = 1;
		} else if (t->stop_fd >= 0 && si->si_fd == t->stop_fd) {
			if (!on_stop(t, lbr_isa_uc_pc(uc), uc) && t->active && t->ck && t->eo.ck_data &&
			    t->stop_data) {
				/* The watched granule was accessed somewhere else than predicted: the
				 * real path left the emulated one. */
				t->st.stops++;
				t->st.emu_mismatch++;
				trace_end(t, LBR_END_MISMATCH);
			}
			t->st.stop_ns += ticks() - t0;
			ours = 1;
		}
	}
	if (!ours)
		ours = si->si_fd >= LBR_FD_FLOOR; /* another thread's or a stale event of ours */
	atomic_store(&t->in_handler, 0);
	*errp() = saved;
	return ours;
}

void lbr_thread_interrupted(uint64_t pc)
{
	if (!atomic_load(&lbr_g.running))
		return;
	int saved = *errp();
	struct lbr_thread *t = current_slot();
	if (t && !atomic_load(&t->in_handler)) {
		atomic_store(&t->in_handler, 1);
		if ((t->active || t->held) && !atomic_load(&lbr_g.stopping) &&
		    atomic_load(&t->state) == LBR_SLOT_LIVE) {
			trace_cut(t, pc);
			trace_end(t, LBR_END_SIGNAL);
			commit_held(t);
		}
		atomic_store(&t->in_handler, 0);
	}
	*errp() = saved;
}

/* The single signal entry installed for cfg.signo (and SIGTRAP for int3). */
static void lbr_sig_entry(int sig, siginfo_t *si, void *uc)
{
	if (lbr_trace_on_signal(sig, si, uc))
		return;
	if (lbr_chain_hook) {
		lbr_chain_hook(sig, si, uc);
		return;
	}
	/* Nobody else wants it: take the default action. */
	int saved = *errp();
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	real_sigaction(sig, &dfl, NULL);
	syscall(SYS_tgkill, getpid(), my_tid(), sig);
	*errp() = saved;
}

/* ---------------------------------------------------------------- perf events */

static int perf_open(struct perf_event_attr *a, pid_t tid)
{
	int fd = (int)syscall(SYS_perf_event_open, a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	int hi = fcntl(fd, F_DUPFD_CLOEXEC, LBR_FD_FLOOR);
	if (hi >= 0) {
		close(fd);
		fd = hi;
	}
	return fd;
}

/* Route fd's overflow notifications to thread `tid` as cfg.signo. */
static int perf_route(int fd, pid_t tid)
{
	struct f_owner_ex o = { F_OWNER_TID, tid };
	if (fcntl(fd, F_SETOWN_EX, &o) < 0 || fcntl(fd, F_SETSIG, lbr_g.cfg.signo) < 0 ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC) < 0)
		return -errno;
	return 0;
}

/* Open the breakpoint event of thread t (used by lbr_stop_hw.c). */
int lbr_trace_open_route(struct perf_event_attr *a, pid_t tid);
int lbr_trace_open_route(struct perf_event_attr *a, pid_t tid)
{
	int fd = perf_open(a, tid);
	if (fd < 0)
		return fd;
	int r = perf_route(fd, tid);
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

static int open_sampler(pid_t tid)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	switch (lbr_g.cfg.event) {
	case LBR_EV_TASK_CLOCK: a.type = PERF_TYPE_SOFTWARE; a.config = PERF_COUNT_SW_TASK_CLOCK; break;
	case LBR_EV_CPU_CLOCK: a.type = PERF_TYPE_SOFTWARE; a.config = PERF_COUNT_SW_CPU_CLOCK; break;
	case LBR_EV_CYCLES: a.type = PERF_TYPE_HARDWARE; a.config = PERF_COUNT_HW_CPU_CYCLES; break;
	default: a.type = PERF_TYPE_HARDWARE; a.config = PERF_COUNT_HW_INSTRUCTIONS; break;
	}
	a.sample_period = lbr_g.cfg.period;
	a.wakeup_events = 1;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return lbr_trace_open_route(&a, tid);
}

/* ---------------------------------------------------------------- threads */

static int add_buffers(int n)
{
	for (int i = 0; i < n; i++) {
		struct lbr_buf *b = mmap(NULL, sizeof(*b), PROT_READ | PROT_WRITE,
					 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (b == MAP_FAILED)
			return -ENOMEM;
		b->used = 0;
		if (lbr_queue_push(&lbr_g.free_bufs, b) < 0) {
			munmap(b, sizeof(*b));
			return 0; /* pool large enough */
		}
	}
	return 0;
}

/* Create and register a slot for thread tid; its events are opened but not enabled. */
static struct lbr_thread *slot_new(pid_t tid, int *err)
{
	struct lbr_thread *t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED) {
		*err = -ENOMEM;
		return NULL;
	}
	t->tid = tid;
	t->stop_fd = -1;
	t->emu = NULL;
	if (lbr_emu_size()) {
		/* Lazily backed (a few pages per thread in use); kept for the slot's life. Mapped
		 * with the emulator off too, so that the process's layout does not depend on it
		 * (the tests compare runs with an exact run made with it on). */
		void *m = mmap(NULL, lbr_emu_size(), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m != MAP_FAILED && lbr_g.emu) {
			t->emu = m;
			lbr_emu_init(t->emu, &lbr_g.isa, emu_forbid, lbr_g.emu_budget);
			lbr_emu_set_watch(t->emu, lbr_g.stop->arm_data && lbr_g.emu_watch);
		}
	}
	t->sample_fd = open_sampler(tid);
	if (t->sample_fd < 0) {
		*err = t->sample_fd;
		munmap(t, sizeof(*t));
		return NULL;
	}
	*err = lbr_g.stop->thread_init(t);
	if (*err < 0) {
		close(t->sample_fd);
		munmap(t, sizeof(*t));
		return NULL;
	}
	add_buffers(LBR_BUFS_PER_THREAD);
	int i = atomic_fetch_add(&lbr_g.nslots, 1);
	if (i >= LBR_MAX_THREADS) {
		lbr_g.stop->thread_fini(t);
		close(t->sample_fd);
		munmap(t, sizeof(*t));
		*err = -EMFILE;
		return NULL;
	}
	struct lbr_thread_rec tr = { (uint32_t)lbr_g.pid, (uint32_t)tid, now_ns() };
	t->st.pid = (uint32_t)lbr_g.pid;
	t->st.tid = (uint32_t)tid;
	emit(t, enc_thread, &tr);
	atomic_store(&t->state, LBR_SLOT_LIVE);
	atomic_store_explicit(&lbr_g.slots[i], t, memory_order_release);
	return t;
}

static void slot_enable(struct lbr_thread *t, int on)
{
	if (lbr_g.stop->enable)
		lbr_g.stop->enable(t, on);
	if (on)
		ioctl(t->sample_fd, PERF_EVENT_IOC_REFRESH, 1); /* one overflow, then re-armed */
	else
		ioctl(t->sample_fd, PERF_EVENT_IOC_DISABLE, 0);
}

int lbr_thread_begin(void)
{
	if (!atomic_load(&lbr_g.running) || atomic_load(&lbr_g.stopping) || getpid() != lbr_g.pid)
		return 0;
	int err = 0;
	lbr_errno_p = &errno;
	struct lbr_thread *t = slot_new(my_tid(), &err);
	if (!t)
		return err;
	lbr_self = t;
	slot_enable(t, 1);
	return 0;
}

int lbr_thread_attach(pid_t tid)
{
	int err = 0;
	struct lbr_thread *t = slot_new(tid, &err);
	if (!t)
		return err;
	slot_enable(t, 1);
	return 0;
}

/* Flush slot t (its thread is gone, or not in our handler and stopped). Exactly one caller
 * wins the LIVE -> DONE transition. Returns 1 if this call flushed it. */
static int slot_flush(struct lbr_thread *t)
{
	int live = LBR_SLOT_LIVE;
	if (!atomic_compare_exchange_strong(&t->state, &live, LBR_SLOT_DONE))
		return 0;
	slot_enable(t, 0);
	if (t->active)
		trace_end(t, LBR_END_OTHER);
	else if (t->armed)
		lbr_g.stop->disarm(t);
	commit_held(t);
	struct lbr_stats st = t->st; /* the durations were counted in ticks: to ns */
	uint64_t dn = now_ns() - lbr_g.ns0, dt = ticks() - lbr_g.tick0;
	double ns_per_tick = dt ? (double)dn / (double)dt : 0;
	st.sample_ns = (uint64_t)((double)st.sample_ns * ns_per_tick);
	st.stop_ns = (uint64_t)((double)st.stop_ns * ns_per_tick);
	st.decode_ns = (uint64_t)((double)st.decode_ns * ns_per_tick);
	st.emu_ns = (uint64_t)((double)st.emu_ns * ns_per_tick);
	emit(t, enc_stats, &st);
	if (t->buf && t->buf->used) {
		if (lbr_queue_push(&lbr_g.full, t->buf) < 0)
			atomic_fetch_add(&lbr_g.lost_bufs, 1);
		t->buf = NULL;
	}
	lbr_g.stop->thread_fini(t);
	close(t->sample_fd);
	t->sample_fd = -1;
	return 1;
}

void lbr_thread_end(void)
{
	struct lbr_thread *t = lbr_self;
	if (!t || atomic_load(&lbr_g.stopping))
		return;
	sigset_t all, old;
	tracer_mask(&all);
	real_sigmask(SIG_BLOCK, &all, &old);
	slot_flush(t);
	lbr_self = NULL;
	real_sigmask(SIG_SETMASK, &old, NULL);
	/* The slot memory stays (the stop path may still scan it); it is small next to a stack. */
}

/* ---------------------------------------------------------------- writer */

static void write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

static void *writer_main(void *arg)
{
	(void)arg;
	lbr_errno_p = &errno;
	atomic_store(&lbr_g.writer_tid, my_tid());
	for (;;) {
		struct lbr_buf *b;
		int any = 0;
		while ((b = lbr_queue_pop(&lbr_g.full)) != NULL) {
			write_all(lbr_g.cfg.out_fd, b->data, b->used);
			b->used = 0;
			if (lbr_queue_push(&lbr_g.free_bufs, b) < 0)
				munmap(b, sizeof(*b));
			any = 1;
		}
		if (!any && atomic_load(&lbr_g.writer_quit))
			return NULL;
		if (!any) {
			struct timespec ts = { 0, 5 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
}

pid_t lbr_trace_writer_tid(void)
{
	for (int spin = 0; spin < 1000000 && atomic_load(&lbr_g.running); spin++) {
		pid_t t = atomic_load(&lbr_g.writer_tid);
		if (t)
			return t;
		sched_yield();
	}
	return atomic_load(&lbr_g.writer_tid);
}

/* ---------------------------------------------------------------- session */

/* Parse a hex number at *p, advance past it. */
static uint64_t hex_at(const char **p)
{
	uint64_t v = 0;
	for (;; (*p)++) {
		char c = **p;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			return v;
		v = v << 4 | (uint64_t)d;
	}
}

/* One /proc/self/maps line ("start-end perms offset dev inode   path") into an mmap record
 * if the mapping is executable; 0 if it is not (or does not parse). */
static int parse_maps_line(const char *l, struct lbr_mmap *m)
{
	memset(m, 0, sizeof(*m));
	m->start = hex_at(&l);
	if (*l++ != '-')
		return 0;
	m->end = hex_at(&l);
	if (*l++ != ' ' || strlen(l) < 5)
		return 0;
	m->prot = (l[0] == 'r' ? LBR_PROT_R : 0) | (l[1] == 'w' ? LBR_PROT_W : 0) |
		  (l[2] == 'x' ? LBR_PROT_X : 0);
	if (!(m->prot & LBR_PROT_X))
		return 0;
	l += 4;
	while (*l == ' ')
		l++;
	m->pgoff = hex_at(&l);
	for (int field = 0; field < 2; field++) { /* dev, inode */
		while (*l == ' ')
			l++;
		while (*l && *l != ' ')
			l++;
	}
	while (*l == ' ')
		l++;
	size_t n = strcspn(l, "\n");
	if (n > sizeof(m->path) - 1)
		n = sizeof(m->path) - 1;
	memcpy(m->path, l, n);
	m->path[n] = 0;
	m->pid = (uint32_t)lbr_g.pid;
	return 1;
}

/* Write an mmap record for every executable mapping of the process (start and stop; not from
 * handlers: it allocates). Lines are whole in each read of /proc/self/maps. */
static void emit_maps(int fd)
{
	int mf = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (mf < 0)
		return;
	size_t cap = 1 << 16, len = 0;
	char *text = malloc(cap + 1);
	for (ssize_t r = 1; text && r > 0;) {
		if (cap - len < 4096) {
			char *bigger = realloc(text, 2 * cap + 1);
			if (!bigger)
				break;
			text = bigger;
			cap *= 2;
		}
		r = read(mf, text + len, cap - len);
		if (r > 0)
			len += (size_t)r;
	}
	close(mf);
	if (!text)
		return;
	text[len] = 0;
	for (char *l = text; *l;) {
		char *nl = strchr(l, '\n');
		struct lbr_mmap m;
		uint8_t rec[512];
		if (parse_maps_line(l, &m)) {
			size_t sz = lbr_enc_mmap(rec, sizeof(rec), &m);
			write_all(fd, rec, sz);
		}
		if (!nl)
			break;
		l = nl + 1;
	}
	free(text);
}

int lbr_trace_start(const struct lbr_config *cfg)
{
	if (atomic_load(&lbr_g.running))
		return -EBUSY;
	if (cfg->period == 0 || cfg->depth == 0 || cfg->depth > LBR_MAX_DEPTH)
		return -EINVAL;
	lbr_g.cfg = *cfg;
	lbr_g.stop = cfg->mech == LBR_MECH_INT3 ? &lbr_stop_sw : &lbr_stop_hw;
	lbr_g.pid = getpid();
	if (lbr_isa_init(&lbr_g.isa) < 0)
		return -EINVAL;
	/* Emulated windows (docs/lbr.md §2): on by default on x86-64. TIPROF_LBR_EMU: 0 = the
	 * breakpoint-only tracer; test-only, one character like the others so that test
	 * environments keep one length: P = a planted emulator bug (je testing CF, not ZF) that
	 * the checkpoint check must catch, U = the same bug with windows recorded unchecked
	 * (what the check is there for: the exact-trace test must then fail).
	 * TIPROF_LBR_EMU_BUDGET: instructions per run (default 4096). */
	const char *ev = getenv("TIPROF_LBR_EMU");
#if defined(__x86_64__)
	lbr_g.emu = !(ev && ev[0] == '0');
#else
	lbr_g.emu = 0;
#endif
	lbr_emu_plant = ev && (ev[0] == 'P' || ev[0] == 'U');
	lbr_g.emu_noconfirm = ev && ev[0] == 'U';
	const char *ew = getenv("TIPROF_LBR_EMU_WATCH");
	lbr_g.emu_watch = !(ew && ew[0] == '0');
	const char *eb = getenv("TIPROF_LBR_EMU_BUDGET");
	lbr_g.emu_budget = eb && atoi(eb) > 0 ? (unsigned)atoi(eb) : 4096;
	lbr_queue_init(&lbr_g.full);
	lbr_queue_init(&lbr_g.free_bufs);

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = lbr_sig_entry;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	tracer_mask(&sa.sa_mask);
	if (real_sigaction(cfg->signo, &sa, NULL) < 0)
		return -errno;
	/* int3: SA_NODEFER, as a trap at a patch inside our own handler (or the program's
	 * SIGTRAP handler, chained from it) must be deliverable, never blocked. */
	sa.sa_flags |= SA_NODEFER;
	if (cfg->mech == LBR_MECH_INT3 && real_sigaction(SIGTRAP, &sa, NULL) < 0)
		return -errno;

	/* Session record first, through a temporary slot-less buffer. */
	struct lbr_session s;
	memset(&s, 0, sizeof(s));
	s.pid = (uint32_t)lbr_g.pid;
	s.depth = cfg->depth;
	s.period = cfg->period;
	s.event = cfg->event;
	s.mech = cfg->mech;
	s.start_ns = now_ns();
	lbr_g.ns0 = s.start_ns;
	lbr_g.tick0 = ticks();
	ssize_t n = readlink("/proc/self/exe", s.exe, sizeof(s.exe) - 1);
	s.exe[n > 0 ? n : 0] = 0;
	uint8_t rec[512];
	size_t sz = enc_session(rec, sizeof(rec), &s);
	write_all(cfg->out_fd, rec, sz);
	emit_maps(cfg->out_fd);
	lbr_g.nrseq = lbr_rseq_scan(lbr_g.rseq, LBR_MAX_RSEQ);

	/* Writer thread, with every signal blocked so the program's signals go elsewhere. */
	sigset_t all, old;
	tracer_mask(&all);
	real_sigmask(SIG_BLOCK, &all, &old);
	int (*create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *) =
		lbr_real_pthread_create ? lbr_real_pthread_create : pthread_create;
	int r = create(&lbr_g.writer, NULL, writer_main, NULL);
	real_sigmask(SIG_SETMASK, &old, NULL);
	if (r != 0)
		return -r;
	pthread_setname_np(lbr_g.writer, "tiprof-lbr-wr"); /* visible in top, skipped by tests */
	atomic_store(&lbr_g.running, 1);
	r = lbr_thread_begin();
	if (r < 0) {
		lbr_trace_stop();
		return r;
	}
	return 0;
}

static int stop_keep_fd; /* lbr_trace_exec_prepare: keep the records file open */

void lbr_trace_stop(void)
{
	if (!atomic_load(&lbr_g.running) || getpid() != lbr_g.pid)
		return;
	if (atomic_exchange(&lbr_g.stopping, 1))
		return;
	int n = atomic_load(&lbr_g.nslots);
	if (n > LBR_MAX_THREADS)
		n = LBR_MAX_THREADS;
	/* Silence every event, then wait for handlers already running to leave. */
	for (int i = 0; i < n; i++) {
		struct lbr_thread *t = atomic_load(&lbr_g.slots[i]);
		if (t && atomic_load(&t->state) == LBR_SLOT_LIVE)
			slot_enable(t, 0);
	}
	for (int i = 0; i < n; i++) {
		struct lbr_thread *t = atomic_load(&lbr_g.slots[i]);
		for (int spin = 0; t && atomic_load(&t->in_handler) && spin < 100000; spin++)
			sched_yield();
	}
	sigset_t all, old;
	tracer_mask(&all);
	real_sigmask(SIG_BLOCK, &all, &old);
	for (int i = 0; i < n; i++) {
		struct lbr_thread *t = atomic_load(&lbr_g.slots[i]);
		if (t)
			slot_flush(t);
	}
	atomic_store(&lbr_g.writer_quit, 1);
	pthread_join(lbr_g.writer, NULL);
	atomic_store(&lbr_g.running, 0);
	emit_maps(lbr_g.cfg.out_fd);
	if (!stop_keep_fd)
		close(lbr_g.cfg.out_fd);
	real_sigmask(SIG_SETMASK, &old, NULL);
}

int lbr_trace_exec_prepare(void)
{
	if (!atomic_load(&lbr_g.running) || atomic_load(&lbr_g.stopping) || getpid() != lbr_g.pid)
		return 0;
	stop_keep_fd = 1;
	lbr_trace_stop();
	stop_keep_fd = 0;
	return 1;
}

void lbr_trace_exec_failed(void)
{
	struct lbr_config cfg = lbr_g.cfg;
	atomic_store(&lbr_g.stopping, 0);
	atomic_store(&lbr_g.writer_quit, 0);
	atomic_store(&lbr_g.writer_tid, 0);
	lbr_self = NULL;
	if (lbr_trace_start(&cfg) < 0)
		close(cfg.out_fd);
}

/* ---------------------------------------------------------------- fork, vfork, spawn */

/* End t's stack keeping only what certainly executed (t's signals blocked or in_handler). */
static void quiesce_slot(struct lbr_thread *t)
{
	if (t->active || t->held) {
		if (t->active) {
			t->cur.nr = (uint16_t)t->ncertain; /* the rest was look-ahead */
			trace_end(t, LBR_END_OTHER);
		}
		commit_held(t);
	} else if (t->armed) {
		trace_end(t, LBR_END_OTHER);
	}
}

void lbr_thread_quiesce(int nostart)
{
	if (!atomic_load(&lbr_g.running) || atomic_load(&lbr_g.stopping) || getpid() != lbr_g.pid)
		return;
	struct lbr_thread *t = current_slot();
	if (!t)
		return;
	sigset_t all, old;
	tracer_mask(&all);
	real_sigmask(SIG_BLOCK, &all, &old);
	if (!atomic_load(&t->in_handler) && atomic_load(&t->state) == LBR_SLOT_LIVE) {
		atomic_store(&t->in_handler, 1);
		quiesce_slot(t);
		t->nostart = nostart;
		atomic_store(&t->in_handler, 0);
	}
	real_sigmask(SIG_SETMASK, &old, NULL);
}

/* The forking thread's signal mask before fork_prepare (restored by parent and child). */
static __thread sigset_t fork_mask __attribute__((tls_model("initial-exec")));
static __thread int fork_masked __attribute__((tls_model("initial-exec")));

void lbr_trace_fork_prepare(void)
{
	fork_masked = 0;
	if (!atomic_load(&lbr_g.running) || getpid() != lbr_g.pid)
		return;
	sigset_t all;
	tracer_mask(&all);
	real_sigmask(SIG_BLOCK, &all, &fork_mask);
	fork_masked = 1;
	struct lbr_thread *t = current_slot();
	if (t && !atomic_load(&lbr_g.stopping) && !atomic_load(&t->in_handler) &&
	    atomic_load(&t->state) == LBR_SLOT_LIVE)
		quiesce_slot(t); /* int3: no patch of this thread is inherited mid-stop */
}

void lbr_trace_fork_parent(void)
{
	if (fork_masked)
		real_sigmask(SIG_SETMASK, &fork_mask, NULL);
	fork_masked = 0;
}

void lbr_sw_forked_child(void); /* lbr_stop_sw.c */

void lbr_trace_fork_child(int follow)
{
	if (!fork_masked)
		return; /* no session in the parent (or fork called before it started) */
	/* Everything inherited belongs to the parent: its perf events (fds closed here; the
	 * events themselves stay the parent's), its slots, buffers and writer thread (which does
	 * not exist here). The memory is left as it is (a copy). */
	int n = atomic_load(&lbr_g.nslots);
	if (n > LBR_MAX_THREADS)
		n = LBR_MAX_THREADS;
	for (int i = 0; i < n; i++) {
		struct lbr_thread *t = atomic_load(&lbr_g.slots[i]);
		atomic_store(&lbr_g.slots[i], NULL);
		if (!t || atomic_load(&t->state) != LBR_SLOT_LIVE)
			continue;
		atomic_store(&t->state, LBR_SLOT_DONE);
		if (t->sample_fd >= 0)
			close(t->sample_fd);
		if (t->stop_fd >= 0)
			close(t->stop_fd);
	}
	lbr_self = NULL;
	atomic_store(&lbr_g.nslots, 0);
	atomic_store(&lbr_g.running, 0);
	if (lbr_g.stop == &lbr_stop_sw)
		lbr_sw_forked_child(); /* the parent's patches, copied into this memory: removed */
	lbr_queue_init(&lbr_g.full);
	lbr_queue_init(&lbr_g.free_bufs);
	atomic_store(&lbr_g.writer_quit, 0);
	atomic_store(&lbr_g.writer_tid, 0);
	atomic_store(&lbr_g.lost_bufs, 0);
	int stopping = atomic_load(&lbr_g.stopping);
	if (follow && !stopping) {
		struct lbr_config cfg = lbr_g.cfg;
		if (lbr_trace_start(&cfg) < 0)
			atomic_store(&lbr_g.running, 0); /* the child runs untraced */
	} else {
		close(lbr_g.cfg.out_fd);
	}
	real_sigmask(SIG_SETMASK, &fork_mask, NULL);
	fork_masked = 0;
}
