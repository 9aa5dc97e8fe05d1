/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_stop_sw.c - the software-breakpoint stopping mechanism ("int3"; on RISC-V `ebreak` /
 * `c.ebreak`): the tracer patches a breakpoint instruction (lbr_isa_bp_encode) over the code
 * at the stop address, in this process, and the CPU raises SIGTRAP when a thread reaches it.
 *
 * Patching: the code page is made RWX with mprotect, the breakpoint bytes written (the
 * original bytes are kept in the patch table), the page made R-X again, and the instruction
 * cache synchronised with __builtin___clear_cache (a no-op on x86-64; on RISC-V glibc's
 * __riscv_flush_icache, i.e. the riscv_flush_icache system call, which makes every hart
 * execute fence.i). Unpatching writes the original bytes back the same way.
 *
 * On SIGTRAP at a patched address A (lbr_sw_on_sigtrap, from the tracer's signal entry):
 *   - the thread's own armed stop: the PC is set back to A, the branch is evaluated and the
 *     trace continues (lbr_trace_stop_hit), which re-arms elsewhere: our patch at A is removed
 *     (the original bytes are restored when no other thread uses A) and A runs normally.
 *     When the trace wants to stop at A again (a loop whose only dynamic branch is A), A must
 *     first execute once: the new stop is deferred ("pending") and a one-shot step breakpoint
 *     is placed at the instruction that runs next (known: the branch was just evaluated);
 *     when the step breakpoint is hit it is removed and A patched again.
 *   - the thread's step breakpoint: removed, the pending stop patched, PC set back.
 *   - anything else (another thread's stop, or a trap while this thread already runs a tracer
 *     handler, e.g. in a libc function the program is traced in): the patch is *suspended*
 *     (original bytes back for everyone) and the PC set back. The owners' stops are lost, so
 *     their traces make no progress and end abandoned at their next sample; no record is
 *     ever wrong, only fewer stacks are collected.
 *   - no patch at A, but A was patched recently and holds no breakpoint now: a trap that
 *     raced with the removal of our patch; PC set back, the instruction runs.
 *   - otherwise the SIGTRAP is the program's (its own int3/ebreak, raise, kill): returned as
 *     not ours and chained to the program's disposition by lbr_trace.c/lbr_preload.c.
 *
 * Thread-safety caveats (documented in docs/lbr.md §3): a patched page is shared by every
 * thread, so another thread executing the patched instruction takes a foreign trap (handled
 * above by suspending the patch: cost, not wrong records); the RWX window lets other threads
 * keep executing the page while it is written (needs a kernel/LSM that allows RWX mprotect);
 * code pages are assumed to be R-X (ELF text) and are restored to R-X; every patched
 * file-backed page becomes a private copy. SIGTRAP must never be blocked while patches
 * exist (a blocked synchronous SIGTRAP kills the process): the tracer's handlers, its writer
 * thread and the program's wrapped handlers run with SIGTRAP unblocked, and the
 * sigprocmask/pthread_sigmask wrappers drop it from the program's masks. glibc itself runs
 * code with every signal blocked (thread start/exit, posix_spawn's child), so once the
 * program has threads only the main executable's code is patched (lbr_sw_multithreaded).
 *
 * Global mutable state: `sw_g` (the patch table, its lock, the recently-removed ring, the
 * executable's range and the multithreaded flag, counters),
 * shared by all threads' handlers. The lock is a spinlock taken only inside this file; code
 * run while holding it is this file's own (never patched: the tracer's range is never
 * traced) plus raw inline system calls, so a SIGTRAP can never arrive while it is held and
 * every handler is deadlock-free (handlers block every signal but SIGTRAP). */
#define _GNU_SOURCE
#include "lbr_trace.h"
#include "lbr_sys.h"

#include <errno.h>
#include <link.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>

int lbr_trace_stop_hit(struct lbr_thread *t, uint64_t pc, const void *uc);
struct lbr_thread *lbr_trace_current(void);
int lbr_sw_on_sigtrap(siginfo_t *si, void *uc);

#define SW_MAX_PATCH 512 /* live patches (<= 2 per traced thread) */
#define SW_RECENT 4096   /* ring of recently unpatched addresses (a trap can race with
                          * the removal of its patch by another thread: see lbr_sw_on_sigtrap) */

enum sw_state { SW_FREE = 0, SW_PATCHED, SW_SUSPENDED };

struct sw_patch {
	uint64_t addr;                /* patched instruction address */
	int refs;                     /* armed stops + step breakpoints using it */
	int state;                    /* enum sw_state */
	uint8_t len;                  /* breakpoint length */
	uint8_t orig[LBR_BP_MAX];     /* original bytes */
};

static struct {
	atomic_flag lock;
	uint64_t page;                    /* page size, set by the first thread_init */
	struct sw_patch p[SW_MAX_PATCH];
	uint64_t recent[SW_RECENT];
	unsigned recent_next;
	atomic_ulong patches, unpatches, suspends, foreign; /* statistics (tests, docs) */
	atomic_int threads;               /* traced threads initialised so far */
	atomic_int multi;                 /* the program is (about to be) multithreaded */
	uint64_t exe_lo, exe_hi;          /* executable code of the main program */
} sw_g = { .lock = ATOMIC_FLAG_INIT };

/* ---------------------------------------------------------------- raw system calls
 * libc's wrappers may themselves be patched (the program is traced through libc); the
 * locked window must execute no patched byte, so it issues system calls inline. */
static long raw_mprotect(uint64_t addr, uint64_t len, long prot)
{
	return lbr_sys3(SYS_mprotect, addr, len, prot);
}

static void lock(void)
{
	while (atomic_flag_test_and_set_explicit(&sw_g.lock, memory_order_acquire))
		;
}

static void unlock(void)
{
	atomic_flag_clear_explicit(&sw_g.lock, memory_order_release);
}

/* Write len bytes at code address a (page made RWX for the write, then R-X). Locked. */
static int code_write(uint64_t a, const uint8_t *bytes, size_t len)
{
	uint64_t lo = a & ~(sw_g.page - 1), hi = (a + len + sw_g.page - 1) & ~(sw_g.page - 1);
	if (raw_mprotect(lo, hi - lo, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
		return -1;
	volatile uint8_t *d = (volatile uint8_t *)(uintptr_t)a;
	for (size_t i = 0; i < len; i++)
		d[i] = bytes[i];
	raw_mprotect(lo, hi - lo, PROT_READ | PROT_EXEC);
	return 0;
}

/* Make the new bytes at [a, a+len) visible to instruction fetch on every CPU. Unlocked. */
static void code_sync(uint64_t a, size_t len)
{
	__builtin___clear_cache((char *)(uintptr_t)a, (char *)(uintptr_t)(a + len));
}

static struct sw_patch *find(uint64_t a)
{
	for (int i = 0; i < SW_MAX_PATCH; i++)
		if (sw_g.p[i].state != SW_FREE && sw_g.p[i].addr == a)
			return &sw_g.p[i];
	return NULL;
}

static void remember(uint64_t a)
{
	sw_g.recent[sw_g.recent_next++ % SW_RECENT] = a;
}

static int recent(uint64_t a)
{
	for (int i = 0; i < SW_RECENT; i++)
		if (sw_g.recent[i] == a)
			return 1;
	return 0;
}

/* Take a reference on a breakpoint at a, patching it if new. Returns 0 or -1. */
static int patch_get(uint64_t a)
{
	size_t len = 0;
	lock();
	struct sw_patch *e = find(a);
	if (e) {
		e->refs++;
		unlock();
		return 0;
	}
	for (int i = 0; i < SW_MAX_PATCH && !e; i++)
		if (sw_g.p[i].state == SW_FREE)
			e = &sw_g.p[i];
	if (!e) {
		unlock();
		return -1;
	}
	/* Under the lock the code bytes cannot change (only patched here): read them plainly.
	 * `a` was decoded by the tracer, so it is readable. */
	uint8_t orig[LBR_BP_MAX], bp[LBR_BP_MAX];
	const volatile uint8_t *src = (const volatile uint8_t *)(uintptr_t)a;
	orig[0] = src[0];
	orig[1] = orig[2] = orig[3] = 0;
	len = lbr_isa_bp_encode(orig, bp); /* the length depends on the first bytes only */
	for (size_t i = 1; i < len; i++)
		orig[i] = src[i];
	if (code_write(a, bp, len) < 0) {
		unlock();
		return -1;
	}
	e->addr = a;
	e->refs = 1;
	e->len = (uint8_t)len;
	memcpy(e->orig, orig, sizeof(orig));
	e->state = SW_PATCHED;
	unlock();
	atomic_fetch_add(&sw_g.patches, 1);
	code_sync(a, len);
	return 0;
}

/* Drop a reference on the breakpoint at a; the last one restores the original bytes. */
static void patch_put(uint64_t a)
{
	size_t len = 0;
	lock();
	struct sw_patch *e = find(a);
	if (e && --e->refs <= 0) {
		if (e->state == SW_PATCHED) {
			code_write(a, e->orig, e->len);
			len = e->len;
		}
		e->state = SW_FREE;
		remember(a);
	}
	unlock();
	if (len) {
		atomic_fetch_add(&sw_g.unpatches, 1);
		code_sync(a, len);
	}
}

/* Restore the original bytes at a for every thread (references stay until put). */
static void patch_suspend(struct sw_patch *e)
{
	size_t len = 0;
	if (e->state == SW_PATCHED && code_write(e->addr, e->orig, e->len) == 0) {
		e->state = SW_SUSPENDED;
		len = e->len;
		remember(e->addr);
	}
	uint64_t a = e->addr;
	unlock();
	if (len) {
		atomic_fetch_add(&sw_g.suspends, 1);
		code_sync(a, len);
	}
}

/* lbr_isa_code_view for decoders: show the original bytes under our patches. */
static void sw_code_view(uint8_t *buf, uint64_t addr, size_t len)
{
	lock();
	for (int i = 0; i < SW_MAX_PATCH; i++) {
		const struct sw_patch *e = &sw_g.p[i];
		if (e->state != SW_PATCHED || e->addr + e->len <= addr || e->addr >= addr + len)
			continue;
		for (unsigned k = 0; k < e->len; k++)
			if (e->addr + k >= addr && e->addr + k < addr + len)
				buf[e->addr + k - addr] = e->orig[k];
	}
	unlock();
}

/* ---------------------------------------------------------------- stop_ops */

/* The main program's executable segments (the first object dl_iterate_phdr reports). */
static int exe_range_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		uint64_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
		if (!sw_g.exe_lo || lo < sw_g.exe_lo)
			sw_g.exe_lo = lo;
		if (hi > sw_g.exe_hi)
			sw_g.exe_hi = hi;
	}
	return 1; /* the first object only */
}

/* Multithreaded programs: libc runs code with every signal blocked (thread start and exit,
 * posix_spawn's child), and a blocked SIGTRAP at a patch kills the process, so from now on
 * stops are only patched into the main program's own code (stops elsewhere end the stack).
 * Called by the pthread_create wrapper before a thread is created, and when a second
 * traced thread is initialised. */
void lbr_sw_multithreaded(void);
void lbr_sw_multithreaded(void)
{
	atomic_store(&sw_g.multi, 1);
}

static int sw_thread_init(struct lbr_thread *t)
{
	if (!sw_g.page) {
		unsigned long ps = getauxval(AT_PAGESZ);
		sw_g.page = ps ? ps : 4096;
		dl_iterate_phdr(exe_range_cb, NULL);
		lbr_isa_code_view = sw_code_view;
	}
	if (atomic_fetch_add(&sw_g.threads, 1) >= 1)
		lbr_sw_multithreaded();
	t->stop_fd = -1;
	t->stop_addr = t->sw_step = t->sw_pending = t->sw_at = 0;
	return 0;
}

static void sw_disarm(struct lbr_thread *t)
{
	if (t->stop_addr) {
		patch_put(t->stop_addr);
		t->stop_addr = 0;
	}
	if (t->sw_step) {
		patch_put(t->sw_step);
		t->sw_step = 0;
	}
	t->sw_pending = 0;
}

static void sw_thread_fini(struct lbr_thread *t)
{
	sw_disarm(t);
}

/* Arm t at pc. While t is stopped at sw_at, a stop at that same address is deferred until
 * the instruction there has executed once (step breakpoint, placed by lbr_sw_on_sigtrap). */
static int sw_arm(struct lbr_thread *t, uint64_t pc)
{
	if (t->sw_at && pc == t->sw_at) {
		sw_disarm(t);
		t->sw_pending = pc;
		return 0;
	}
	if (t->stop_addr == pc && !t->sw_step)
		return 0;
	sw_disarm(t);
	if (atomic_load(&sw_g.multi) && (pc < sw_g.exe_lo || pc >= sw_g.exe_hi))
		return -1;
	if (patch_get(pc) < 0)
		return -1;
	t->stop_addr = pc;
	return 0;
}

const struct lbr_stop_ops lbr_stop_sw = {
	.name = "int3",
	.thread_init = sw_thread_init,
	.thread_fini = sw_thread_fini,
	.arm = sw_arm,
	.disarm = sw_disarm,
	.enable = NULL,
};

/* ---------------------------------------------------------------- SIGTRAP */

/* Handle a SIGTRAP (lbr_trace.c's signal entry, int3 sessions only; every signal but SIGTRAP
 * blocked). Returns 1 if it was ours (the context is updated to resume correctly), 0 if it
 * belongs to the program. Async-signal-safe. */
int lbr_sw_on_sigtrap(siginfo_t *si, void *uc)
{
	if (si->si_code <= 0) /* sent by a process (kill, raise, sigqueue): the program's */
		return 0;
	uint64_t a = lbr_isa_bp_addr(uc);
	struct lbr_thread *t = lbr_trace_current();
	lock();
	struct sw_patch *e = find(a);
	if (!e) {
		int ours = 0;
		if (recent(a)) {
			uint8_t cur[LBR_BP_MAX] = { 0 }, bp[LBR_BP_MAX];
			size_t n = lbr_isa_bp_encode(cur, bp);
			if (lbr_isa_read(cur, a, n) == 0) {
				n = lbr_isa_bp_encode(cur, bp);
				ours = lbr_isa_read(cur, a, n) == 0 && memcmp(cur, bp, n) != 0;
			}
		}
		unlock();
		if (ours)
			lbr_isa_uc_set_pc(uc, a); /* raced with our unpatch: run the real instruction */
		return ours;
	}
	lbr_isa_uc_set_pc(uc, a);
	int own = t && !atomic_load(&t->in_handler) && atomic_load(&t->state) == LBR_SLOT_LIVE &&
		  (t->stop_addr == a || t->sw_step == a);
	if (!own) {
		atomic_fetch_add(&sw_g.foreign, 1);
		patch_suspend(e); /* unlocks */
		return 1;
	}
	unlock();
	atomic_store(&t->in_handler, 1);
	if (t->sw_step == a) {
		/* The deferred stop's instruction has executed: patch it again. */
		uint64_t p = t->sw_pending;
		patch_put(a);
		t->sw_step = 0;
		t->sw_pending = 0;
		if (p && patch_get(p) == 0)
			t->stop_addr = p;
		/* else: the trace waits for a stop that never comes; its next sample ends it. */
	} else {
		/* Where execution goes after A (for a step breakpoint if A is re-armed). */
		struct lbr_cpu cpu;
		uint64_t next = 0;
		lbr_isa_cpu_from_ucontext(&cpu, uc);
		int r = lbr_isa_eval(&t->armed_br, &cpu, &next);
		t->sw_at = a;
		if (!lbr_trace_stop_hit(t, a, uc))
			sw_disarm(t);
		t->sw_at = 0;
		if (t->stop_addr == a) /* not re-armed through sw_arm: do not trap again here */
			sw_disarm(t);
		if (t->sw_pending) {
			if (r >= 0 && next != a && (!atomic_load(&sw_g.multi) ||
			    (next >= sw_g.exe_lo && next < sw_g.exe_hi)) && patch_get(next) == 0)
				t->sw_step = next;
			else
				t->sw_pending = 0;
		}
	}
	atomic_store(&t->in_handler, 0);
	return 1;
}

/* In a child after fork (one thread, lbr_trace_fork_child): the patches in the table are
 * the parent's, copied into this address space with its memory. Put the original bytes back
 * and forget them; the child starts, if at all, with an empty table. */
void lbr_sw_forked_child(void);
void lbr_sw_forked_child(void)
{
	for (int i = 0; i < SW_MAX_PATCH; i++) {
		struct sw_patch *e = &sw_g.p[i];
		if (e->state == SW_PATCHED && code_write(e->addr, e->orig, e->len) == 0)
			code_sync(e->addr, e->len);
		e->state = SW_FREE;
		e->refs = 0;
	}
	atomic_flag_clear(&sw_g.lock); /* the parent may have held it in another thread */
	atomic_store(&sw_g.threads, 0);
	atomic_store(&sw_g.multi, 0);
}

/* Counters of this process's patching activity (tests and measurements). */
void lbr_sw_stats(unsigned long *patches, unsigned long *unpatches, unsigned long *suspends,
		  unsigned long *foreign);
void lbr_sw_stats(unsigned long *patches, unsigned long *unpatches, unsigned long *suspends,
		  unsigned long *foreign)
{
	*patches = atomic_load(&sw_g.patches);
	*unpatches = atomic_load(&sw_g.unpatches);
	*suspends = atomic_load(&sw_g.suspends);
	*foreign = atomic_load(&sw_g.foreign);
}
