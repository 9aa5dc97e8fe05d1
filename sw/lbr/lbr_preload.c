/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_preload.c - the LD_PRELOAD face of the tracer (libtiprof-lbr.so): a constructor that
 * starts a session when TIPROF_LBR_OUT is set, a destructor that flushes it, and wrappers that
 * keep the traced program's behaviour: pthread_create (new threads are traced), sigaction and
 * signal (the program's handlers are chained behind ours and abandon the current trace when
 * they run), sigprocmask and pthread_sigmask (our signal stays deliverable).
 *
 * Environment (set by `tiprof-lbr record`, documented in docs/lbr.md):
 *   TIPROF_LBR_OUT     records file (appended; the file header is written if it is empty)
 *   TIPROF_LBR_PID     trace only the process with this pid (children are left alone);
 *                      unset: forked children are traced too (a new session each)
 *   TIPROF_LBR_EVENT   task-clock (default), cpu-clock, cycles, instructions
 *   TIPROF_LBR_PERIOD  sampling period in event units (default 10000000 = 10 ms)
 *   TIPROF_LBR_DEPTH   taken branches per stack (default 16, at most LBR_MAX_DEPTH = 256)
 *   TIPROF_LBR_MECH    hwbp (default) or int3
 *   TIPROF_LBR_SIGNAL  realtime signal number used by the tracer (default SIGRTMAX-2)
 *
 * Global mutable state (needed because signal handlers and interposed libc entry points reach
 * nothing else): the program's handlers `user_act`, the real libc entry points, and `sess_sig`,
 * all written before or while the program installs handlers, as documented on each. */
#define _GNU_SOURCE
#include "lbr_trace.h"

#include <dirent.h>
#include <spawn.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

extern int (*lbr_real_pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
				      void *);
extern int (*lbr_real_sigaction)(int, const struct sigaction *, struct sigaction *);
extern int (*lbr_real_sigmask)(int, const sigset_t *, sigset_t *);
extern void (*lbr_chain_hook)(int sig, siginfo_t *si, void *uc);
extern char **environ;
void lbr_sw_multithreaded(void); /* lbr_stop_sw.c */

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef int (*sigmask_fn)(int, const sigset_t *, sigset_t *);
typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

/* Real libc entry points, resolved on first use (wrappers may run before our constructor). */
static sigaction_fn real_sigaction_p;
static sigmask_fn real_sigprocmask_p, real_pthread_sigmask_p;
static create_fn real_pthread_create_p;
typedef int (*spawn_fn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
			const posix_spawnattr_t *, char *const[], char *const[]);
typedef int (*system_fn)(const char *);
typedef FILE *(*popen_fn)(const char *, const char *);
static spawn_fn real_posix_spawn_p, real_posix_spawnp_p;
static system_fn real_system_p;
static popen_fn real_popen_p;
/* libc's vfork, called by our vfork (below) after it has quiesced the trace. */
void *lbr_real_vfork;
/* Forked children are traced (a new session) when TIPROF_LBR_PID is unset. */
static int follow_children;

/* The program's view of its signal dispositions for the signals whose kernel disposition we
 * replaced (user_set[sig] != 0): our signal, SIGTRAP (int3), and every signal with a handler.
 * Written by the sigaction wrapper; read by the handlers. */
static struct sigaction user_act[NSIG];
static volatile sig_atomic_t user_set[NSIG];
/* Session signals: the tracer's realtime signal and, with int3, SIGTRAP (0 = none). */
static int sess_sig, sess_trap;
static pthread_key_t exit_key;

static void resolve(void)
{
	if (!real_sigaction_p)
		real_sigaction_p = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
	if (!real_sigprocmask_p)
		real_sigprocmask_p = (sigmask_fn)dlsym(RTLD_NEXT, "sigprocmask");
	if (!real_pthread_sigmask_p)
		real_pthread_sigmask_p = (sigmask_fn)dlsym(RTLD_NEXT, "pthread_sigmask");
	if (!real_pthread_create_p)
		real_pthread_create_p = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
	if (!real_posix_spawn_p)
		real_posix_spawn_p = (spawn_fn)dlsym(RTLD_NEXT, "posix_spawn");
	if (!real_posix_spawnp_p)
		real_posix_spawnp_p = (spawn_fn)dlsym(RTLD_NEXT, "posix_spawnp");
	if (!real_system_p)
		real_system_p = (system_fn)dlsym(RTLD_NEXT, "system");
	if (!real_popen_p)
		real_popen_p = (popen_fn)dlsym(RTLD_NEXT, "popen");
	if (!lbr_real_vfork)
		lbr_real_vfork = dlsym(RTLD_NEXT, "vfork");
}

static int is_session_sig(int sig)
{
	return sig > 0 && (sig == sess_sig || sig == sess_trap);
}

/* ---------------------------------------------------------------- chaining */

/* Run the program's disposition for `sig` (not ours); a handler first ends the trace. */
static void call_user(int sig, siginfo_t *si, void *uc)
{
	if (sig <= 0 || sig >= NSIG || !user_set[sig] || user_act[sig].sa_handler == SIG_DFL) {
		struct sigaction dfl;
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		real_sigaction_p(sig, &dfl, NULL);
		syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), sig);
		return;
	}
	const struct sigaction *a = &user_act[sig];
	if (a->sa_handler == SIG_IGN)
		return;
	if (a->sa_flags & SA_RESETHAND)
		user_set[sig] = 0;
	lbr_thread_interrupted(lbr_isa_uc_pc(uc));
	if (a->sa_flags & SA_SIGINFO)
		a->sa_sigaction(sig, si, uc);
	else
		a->sa_handler(sig);
}

/* Installed in place of the program's handlers: its branches must not join a stack. */
static void user_sig_wrap(int sig, siginfo_t *si, void *uc)
{
	call_user(sig, si, uc);
}

/* ---------------------------------------------------------------- interposed libc */

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	resolve();
	if (sig <= 0 || sig >= NSIG || !lbr_trace_running() || sig == SIGKILL || sig == SIGSTOP)
		return real_sigaction_p(sig, act, old);
	struct sigaction prev;
	if (user_set[sig]) {
		prev = user_act[sig];
	} else if (real_sigaction_p(sig, NULL, &prev) < 0) {
		return -1;
	}
	if (act) {
		if (is_session_sig(sig)) {
			user_act[sig] = *act; /* kept for chaining; ours stays installed */
			user_set[sig] = 1;
		} else if (act->sa_handler == SIG_DFL || act->sa_handler == SIG_IGN) {
			user_set[sig] = 0;
			if (real_sigaction_p(sig, act, NULL) < 0)
				return -1;
		} else {
			struct sigaction w = *act;
			w.sa_sigaction = user_sig_wrap;
			w.sa_flags = (act->sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
			sigaddset(&w.sa_mask, sess_sig);
			if (sess_trap)
				sigdelset(&w.sa_mask, sess_trap); /* int3: SIGTRAP never blocked */
			user_act[sig] = *act;
			user_set[sig] = 1;
			if (real_sigaction_p(sig, &w, NULL) < 0) {
				user_set[sig] = 0;
				return -1;
			}
		}
	}
	if (old)
		*old = prev;
	return 0;
}

typedef void (*sighandler_fn)(int);

sighandler_fn signal(int sig, sighandler_fn h)
{
	struct sigaction a, o;
	memset(&a, 0, sizeof(a));
	a.sa_handler = h;
	a.sa_flags = SA_RESTART;
	sigemptyset(&a.sa_mask);
	sigaddset(&a.sa_mask, sig);
	if (sigaction(sig, &a, &o) < 0)
		return SIG_ERR;
	return (o.sa_flags & SA_SIGINFO) ? (sighandler_fn)(void (*)(void))o.sa_sigaction
					 : o.sa_handler;
}

/* Remove the session signals from a set the program wants to block. */
static const sigset_t *filter_mask(int how, const sigset_t *set, sigset_t *tmp)
{
	if (!set || how == SIG_UNBLOCK || !lbr_trace_running())
		return set;
	*tmp = *set;
	if (sess_sig)
		sigdelset(tmp, sess_sig);
	if (sess_trap)
		sigdelset(tmp, sess_trap);
	return tmp;
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	sigset_t tmp;
	resolve();
	return real_sigprocmask_p(how, filter_mask(how, set, &tmp), old);
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	sigset_t tmp;
	resolve();
	return real_pthread_sigmask_p(how, filter_mask(how, set, &tmp), old);
}

struct lbr_start {
	void *(*fn)(void *);
	void *arg;
};

static void *lbr_thread_main(void *p)
{
	struct lbr_start s = *(struct lbr_start *)p;
	free(p);
	if (lbr_thread_begin() == 0)
		pthread_setspecific(exit_key, (void *)1);
	return s.fn(s.arg);
}

int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	resolve();
	if (!lbr_trace_running())
		return real_pthread_create_p(th, attr, fn, arg);
	lbr_sw_multithreaded(); /* int3: no more patches in libc (see lbr_stop_sw.c) */
	struct lbr_start *s = malloc(sizeof(*s));
	if (!s)
		return real_pthread_create_p(th, attr, fn, arg);
	s->fn = fn;
	s->arg = arg;
	int r = real_pthread_create_p(th, attr, lbr_thread_main, s);
	if (r != 0)
		free(s);
	return r;
}

/* ---------------------------------------------------------------- processes
 * fork: pthread_atfork handlers (lbr_trace_fork_*). posix_spawn, system and popen run a
 * vfork-like child (glibc: clone(CLONE_VM|CLONE_VFORK), every signal blocked) in our address
 * space: with int3 a patch reached there would kill it, and its branches would land in the
 * parent's stack. So the calling thread's stack is ended and no stack starts until the call
 * returns (no patch of this thread exists meanwhile; other threads' patches are then in the
 * executable only, which the spawn child does not run). vfork: the same, through an assembly
 * wrapper (a C function cannot return twice), and the next sample is skipped. */

static void fork_prepare(void) { lbr_trace_fork_prepare(); }
static void fork_parent(void) { lbr_trace_fork_parent(); }
static void fork_child(void) { lbr_trace_fork_child(follow_children); }

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
		const posix_spawnattr_t *at, char *const argv[], char *const envp[])
{
	resolve();
	lbr_thread_quiesce(1);
	int r = real_posix_spawn_p(pid, path, fa, at, argv, envp);
	lbr_thread_quiesce(0);
	return r;
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *at, char *const argv[], char *const envp[])
{
	resolve();
	lbr_thread_quiesce(1);
	int r = real_posix_spawnp_p(pid, file, fa, at, argv, envp);
	lbr_thread_quiesce(0);
	return r;
}

int system(const char *cmd)
{
	resolve();
	lbr_thread_quiesce(1);
	int r = real_system_p(cmd);
	lbr_thread_quiesce(0);
	return r;
}

FILE *popen(const char *cmd, const char *mode)
{
	resolve();
	lbr_thread_quiesce(1);
	FILE *r = real_popen_p(cmd, mode);
	lbr_thread_quiesce(0);
	return r;
}

/* exec*: the image is replaced without destructors, so the session is flushed and ended
 * first (lbr_trace_exec_prepare); the new image starts its own session if LD_PRELOAD and
 * TIPROF_LBR_OUT are still in its environment. If the exec fails, tracing resumes. glibc's
 * exec* functions call its internal execve, so each is wrapped. */
typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);

static int do_exec(int which, const char *path, int fd, char *const argv[], char *const envp[])
{
	static execve_fn r_execve, r_execvpe;
	static fexecve_fn r_fexecve;
	if (!r_execve)
		r_execve = (execve_fn)dlsym(RTLD_NEXT, "execve");
	if (!r_execvpe)
		r_execvpe = (execve_fn)dlsym(RTLD_NEXT, "execvpe");
	if (!r_fexecve)
		r_fexecve = (fexecve_fn)dlsym(RTLD_NEXT, "fexecve");
	int was = lbr_trace_exec_prepare();
	int r = which == 0 ? r_execve(path, argv, envp)
		: which == 1 ? r_execvpe(path, argv, envp) : r_fexecve(fd, argv, envp);
	int e = errno;
	if (was)
		lbr_trace_exec_failed();
	errno = e;
	return r;
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	return do_exec(0, path, -1, argv, envp);
}

int execv(const char *path, char *const argv[])
{
	return do_exec(0, path, -1, argv, environ);
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
	return do_exec(1, file, -1, argv, envp);
}

int execvp(const char *file, char *const argv[])
{
	return do_exec(1, file, -1, argv, environ);
}

int fexecve(int fd, char *const argv[], char *const envp[])
{
	return do_exec(2, NULL, fd, argv, envp);
}

/* execl, execlp, execle: the variadic list into an array (as glibc does, on the stack). */
#define EXEC_ARGS(arg0, ap, argv, n)                                                      \
	size_t n = 1;                                                                     \
	va_list ap;                                                                       \
	va_start(ap, arg0);                                                               \
	while (va_arg(ap, char *) != NULL)                                                \
		n++;                                                                      \
	va_end(ap);                                                                       \
	if (n > 65536) {                                                                  \
		errno = E2BIG;                                                            \
		return -1;                                                                \
	}                                                                                 \
	char *argv[n + 1];                                                                \
	argv[0] = (char *)arg0;                                                           \
	va_start(ap, arg0);                                                               \
	for (size_t i = 1; i <= n; i++)                                                   \
		argv[i] = va_arg(ap, char *);

int execl(const char *path, const char *arg0, ...)
{
	EXEC_ARGS(arg0, ap, argv, n)
	va_end(ap);
	return do_exec(0, path, -1, argv, environ);
}

int execlp(const char *file, const char *arg0, ...)
{
	EXEC_ARGS(arg0, ap, argv, n)
	va_end(ap);
	return do_exec(1, file, -1, argv, environ);
}

int execle(const char *path, const char *arg0, ...)
{
	EXEC_ARGS(arg0, ap, argv, n)
	char *const *envp = va_arg(ap, char *const *);
	va_end(ap);
	return do_exec(0, path, -1, argv, envp);
}

/* Called by the vfork wrapper: returns libc's vfork to jump to. */
void *lbr_vfork_prepare(void);
void *lbr_vfork_prepare(void)
{
	resolve();
	lbr_thread_quiesce(2);
	return lbr_real_vfork ? lbr_real_vfork : (void *)fork; /* fork is a valid vfork */
}

#if defined(__x86_64__)
/* vfork: quiesce, then tail-jump to libc's vfork with the caller's stack untouched. */
__asm__(".text\n"
	".globl vfork\n"
	".type vfork, @function\n"
	"vfork:\n"
	"	sub $8, %rsp\n"
	"	call lbr_vfork_prepare@PLT\n"
	"	add $8, %rsp\n"
	"	jmp *%rax\n"
	".size vfork, .-vfork\n");
#endif

static void exit_key_dtor(void *v)
{
	(void)v;
	lbr_thread_end();
}

/* ---------------------------------------------------------------- constructor */

static int self_range_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	uint64_t me = (uint64_t)(uintptr_t)data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		uint64_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
		if (me >= lo && me < hi) {
			lbr_trace_set_self_range(lo, hi);
			return 1;
		}
	}
	return 0;
}

static int env_u64(const char *name, uint64_t def, uint64_t *out)
{
	const char *v = getenv(name);
	if (!v || !*v) {
		*out = def;
		return 0;
	}
	char *end;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (errno || *end || v[0] == '-')
		return -1;
	*out = x;
	return 0;
}

static void warn(const char *what, const char *detail)
{
	fprintf(stderr, "tiprof-lbr: %s%s%s; the program runs untraced\n", what,
		detail ? ": " : "", detail ? detail : "");
}

__attribute__((constructor)) static void lbr_preload_init(void)
{
	resolve();
	const char *out = getenv("TIPROF_LBR_OUT");
	if (!out || !*out)
		return;
	uint64_t pid, period, depth, signo;
	if (env_u64("TIPROF_LBR_PID", 0, &pid) < 0 || (pid && (pid_t)pid != getpid()))
		return;
	struct lbr_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	const char *ev = getenv("TIPROF_LBR_EVENT");
	int e = lbr_event_parse(ev && *ev ? ev : "task-clock");
	if (e < 0) {
		warn("unknown TIPROF_LBR_EVENT", ev);
		return;
	}
	cfg.event = (unsigned)e;
	if (env_u64("TIPROF_LBR_PERIOD", LBR_DEFAULT_PERIOD, &period) < 0 || period == 0) {
		warn("TIPROF_LBR_PERIOD must be a positive integer", getenv("TIPROF_LBR_PERIOD"));
		return;
	}
	if (env_u64("TIPROF_LBR_DEPTH", LBR_DEFAULT_DEPTH, &depth) < 0 || depth == 0 ||
	    depth > LBR_MAX_DEPTH) {
		warn("TIPROF_LBR_DEPTH must be 1..256", getenv("TIPROF_LBR_DEPTH"));
		return;
	}
	if (env_u64("TIPROF_LBR_SIGNAL", (uint64_t)(SIGRTMAX - 2), &signo) < 0 ||
	    (int)signo < SIGRTMIN || (int)signo > SIGRTMAX) {
		warn("TIPROF_LBR_SIGNAL must be a realtime signal", getenv("TIPROF_LBR_SIGNAL"));
		return;
	}
	const char *mech = getenv("TIPROF_LBR_MECH");
	if (!mech || !*mech)
		mech = LBR_DEFAULT_MECH_NAME;
	if (!mech || !*mech || strcmp(mech, "hwbp") == 0)
		cfg.mech = LBR_MECH_HWBP;
	else if (strcmp(mech, "int3") == 0)
		cfg.mech = LBR_MECH_INT3;
	else
		{
		warn("TIPROF_LBR_MECH must be hwbp or int3", mech);
		return;
	}
	cfg.period = period;
	cfg.depth = (unsigned)depth;
	cfg.signo = (int)signo;

	int fd = open(out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		warn("cannot open TIPROF_LBR_OUT", strerror(errno));
		return;
	}
	int hi = fcntl(fd, F_DUPFD_CLOEXEC, 600);
	if (hi >= 0) {
		close(fd);
		fd = hi;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && st.st_size == 0) {
		uint8_t h[LBR_FILE_HDR_SIZE];
		lbr_file_header(h);
		if (write(fd, h, sizeof(h)) != (ssize_t)sizeof(h)) {
			close(fd);
			warn("cannot write TIPROF_LBR_OUT", strerror(errno));
			return;
		}
	}
	cfg.out_fd = fd;

	dl_iterate_phdr(self_range_cb, (void *)(uintptr_t)lbr_preload_init);
	lbr_real_pthread_create = real_pthread_create_p;
	lbr_real_sigaction = real_sigaction_p;
	lbr_real_sigmask = real_pthread_sigmask_p;
	lbr_chain_hook = call_user;
	if (pthread_key_create(&exit_key, exit_key_dtor) != 0) {
		close(fd);
		warn("cannot create a thread key", NULL);
		return;
	}
	/* The program's current dispositions of the session signals, for chaining. */
	sess_sig = cfg.signo;
	sess_trap = cfg.mech == LBR_MECH_INT3 ? SIGTRAP : 0;
	real_sigaction_p(sess_sig, NULL, &user_act[sess_sig]);
	user_set[sess_sig] = 1;
	if (sess_trap) {
		real_sigaction_p(sess_trap, NULL, &user_act[sess_trap]);
		user_set[sess_trap] = 1;
	}
	int r = lbr_trace_start(&cfg);
	if (r < 0) {
		sess_sig = sess_trap = 0;
		close(fd);
		warn("cannot start tracing", strerror(-r));
		return;
	}
	const char *pidenv = getenv("TIPROF_LBR_PID");
	follow_children = !pidenv || !*pidenv;
	pthread_atfork(fork_prepare, fork_parent, fork_child); /* once per image */
	/* Threads that exist already (created by earlier constructors). */
	DIR *d = opendir("/proc/self/task");
	if (d) {
		struct dirent *de;
		pid_t me = (pid_t)syscall(SYS_gettid);
		while ((de = readdir(d)) != NULL) {
			pid_t tid = (pid_t)atoi(de->d_name);
			if (tid > 0 && tid != me && tid != getpid() && tid != lbr_trace_writer_tid())
				lbr_thread_attach(tid);
		}
		closedir(d);
	}
}

__attribute__((destructor)) static void lbr_preload_fini(void)
{
	lbr_trace_stop();
}
