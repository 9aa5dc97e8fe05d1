/* SPDX-License-Identifier: Apache-2.0 */
/* exact.c - test-only tool: the exact taken-branch trace of a program, by single-stepping
 * every thread under ptrace (PTRACE_SINGLESTEP, PTRACE_O_TRACECLONE, ASLR off). After each
 * step, the instruction just executed (decoded from the tracee's memory with Zydis, for its
 * length and class only) and the new PC say whether a branch was taken:
 *   control transfer and new PC != fall-through, or jmp/call  -> "TID FROM TO"
 *   a signal handler entered, or PC moved without a transfer -> "TID BREAK"
 * Independent of the tracer: outcomes come from the hardware, not from evaluation.
 * usage: lbr_exact OUT.trace CMD [ARGS...]   (the environment is passed unchanged) */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <Zydis/Zydis.h>

#define MAXT 256

struct thr {
	pid_t tid;       /* 0 = unused */
	uint64_t pc;     /* PC at the previous stop (0 = none yet) */
	int entering;    /* a signal was injected: the next stop is a handler entry */
	int free_run;    /* the tracer's writer thread: continued, not stepped */
};

static struct thr thr[MAXT];
static ZydisDecoder dec;

static struct thr *get(pid_t tid)
{
	for (int i = 0; i < MAXT; i++)
		if (thr[i].tid == tid)
			return &thr[i];
	for (int i = 0; i < MAXT; i++)
		if (!thr[i].tid) {
			thr[i].tid = tid;
			thr[i].pc = 0;
			thr[i].entering = 0;
			thr[i].free_run = 0;
			return &thr[i];
		}
	fprintf(stderr, "lbr_exact: too many threads\n");
	exit(2);
}

/* Class of the instruction at pc in tracee pid: 0 plain, 1 conditional, 2 jmp/call
 * (always taken), 3 other transfer (ret, indirect), 4 syscall. *len = its length. */
static int classify(pid_t pid, uint64_t pc, unsigned *len)
{
	uint8_t buf[16];
	struct iovec l = { buf, sizeof(buf) }, r = { (void *)(uintptr_t)pc, sizeof(buf) };
	ssize_t n = process_vm_readv(pid, &l, 1, &r, 1, 0);
	if (n <= 0)
		return -1;
	ZydisDecodedInstruction in;
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&dec, NULL, buf, (size_t)n, &in)))
		return -1;
	*len = in.length;
	switch (in.meta.category) {
	case ZYDIS_CATEGORY_COND_BR: return 1;
	case ZYDIS_CATEGORY_UNCOND_BR:
	case ZYDIS_CATEGORY_CALL: return 2;
	case ZYDIS_CATEGORY_RET: return 3;
	case ZYDIS_CATEGORY_SYSCALL: return 4;
	default: return in.meta.branch_type != ZYDIS_BRANCH_TYPE_NONE ? 3 : 0;
	}
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: lbr_exact OUT.trace CMD [ARGS...]\n");
		return 2;
	}
	ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	FILE *out = fopen(argv[1], "w");
	if (!out) {
		fprintf(stderr, "lbr_exact: cannot write %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	pid_t pid = fork();
	if (pid == 0) {
		personality(ADDR_NO_RANDOMIZE);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		execv(argv[2], argv + 2);
		_exit(127);
	}
	int st;
	waitpid(pid, &st, 0); /* the SIGSTOP before exec */
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL);
	ptrace(PTRACE_CONT, pid, 0, 0);
	waitpid(pid, &st, 0); /* exec event */
	/* Run freely through the dynamic loader to the program's entry point (AT_ENTRY): an int3
	 * there, then step from it. Stacks recorded inside the loader are not checked. */
	uint64_t entry = 0;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/auxv", pid);
	FILE *ax = fopen(path, "rb");
	uint64_t kv[2];
	while (ax && fread(kv, sizeof(kv), 1, ax) == 1)
		if (kv[0] == 9 /* AT_ENTRY */)
			entry = kv[1];
	if (ax)
		fclose(ax);
	if (!entry) {
		fprintf(stderr, "lbr_exact: no AT_ENTRY\n");
		return 2;
	}
	errno = 0;
	long word = ptrace(PTRACE_PEEKTEXT, pid, (void *)(uintptr_t)entry, 0);
	ptrace(PTRACE_POKETEXT, pid, (void *)(uintptr_t)entry, (void *)((word & ~0xffL) | 0xcc));
	/* Threads created by constructors before the entry point stop at their first instruction
	 * (SIGSTOP) and are stepped from there; clone events are counted. */
	int live = 1;
	struct user_regs_struct r0;
	ptrace(PTRACE_CONT, pid, 0, 0);
	for (;;) {
		waitpid(pid, &st, __WALL);
		if (!WIFSTOPPED(st)) {
			fprintf(stderr, "lbr_exact: the program ended before its entry point\n");
			return 2;
		}
		ptrace(PTRACE_GETREGS, pid, 0, &r0);
		if ((st >> 16) == PTRACE_EVENT_CLONE)
			live++;
		else if (WSTOPSIG(st) == SIGTRAP && r0.rip == entry + 1)
			break;
		int sig = (st >> 16) || WSTOPSIG(st) == SIGTRAP ? 0 : WSTOPSIG(st);
		ptrace(PTRACE_CONT, pid, 0, sig);
	}
	ptrace(PTRACE_POKETEXT, pid, (void *)(uintptr_t)entry, (void *)word);
	r0.rip = entry;
	ptrace(PTRACE_SETREGS, pid, 0, &r0);
	fprintf(out, "# entry %#" PRIx64 "\n", entry);
	/* The mappings, so the checker knows the loader's and the executable's ranges. */
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	FILE *mp = fopen(path, "r");
	char line[512];
	while (mp && fgets(line, sizeof(line), mp))
		fprintf(out, "# map %s", line);
	if (mp)
		fclose(mp);
	get(pid)->pc = entry;
	ptrace(PTRACE_SINGLESTEP, pid, 0, 0);
	int code = 0;
	uint64_t steps = 0;
	while (live > 0) {
		pid_t t = waitpid(-1, &st, __WALL);
		if (t < 0)
			break;
		struct thr *th = get(t);
		if (getenv("EXACT_DEBUG") && (WIFEXITED(st) || WIFSIGNALED(st) || (st >> 16) ||
					       (WIFSTOPPED(st) && WSTOPSIG(st) != SIGTRAP)))
		{
			struct user_regs_struct rr;
			ptrace(PTRACE_GETREGS, t, 0, &rr);
			fprintf(stderr, "lbr_exact: tid %d status %#x live %d pc %#llx\n", t, st, live,
				(unsigned long long)rr.rip);
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (t == pid)
				code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			th->tid = 0;
			live--;
			continue;
		}
		if (!WIFSTOPPED(st))
			continue;
		int sig = WSTOPSIG(st), inject = 0;
		if (st >> 16) {
			/* ptrace event (clone): the new thread is counted when it first stops */
			if ((st >> 16) == PTRACE_EVENT_CLONE)
				live++;
		} else if (sig == SIGSTOP && th->pc == 0) {
			/* first stop of a new thread: the tracer's own writer runs freely */
			char path2[64], comm[32] = "";
			snprintf(path2, sizeof(path2), "/proc/%d/task/%d/comm", pid, t);
			FILE *cf = fopen(path2, "r");
			if (cf && fgets(comm, sizeof(comm), cf) && strncmp(comm, "tiprof-lbr-wr", 13) == 0)
				th->free_run = 1;
			if (cf)
				fclose(cf);
		} else if (sig != SIGTRAP) {
			inject = sig; /* deliver the program's signal */
		} else {
			siginfo_t si;
			if (ptrace(PTRACE_GETSIGINFO, t, 0, &si) == 0 && si.si_code <= 0)
				inject = sig; /* a SIGTRAP the program sent itself, not a step */
		}
		if (th->free_run) {
			ptrace(PTRACE_CONT, t, 0, inject);
			continue;
		}
		struct user_regs_struct regs;
		ptrace(PTRACE_GETREGS, t, 0, &regs);
		uint64_t q = regs.rip;
		if (th->entering) {
			/* handler entry (or an ignored signal): no transfer of the program's */
			fprintf(out, "%d BREAK\n", t);
			th->entering = 0;
		} else if (th->pc && q != th->pc) {
			unsigned len = 0;
			int c = classify(t, th->pc, &len);
			steps++;
			if (c == 2 || ((c == 1 || c == 3) && q != th->pc + len))
				fprintf(out, "%d %#" PRIx64 " %#" PRIx64 "\n", t, th->pc, q);
			else if (q != th->pc + len)
				fprintf(out, "%d BREAK\n", t);
		}
		th->pc = q;
		if (inject)
			th->entering = 1;
		ptrace(PTRACE_SINGLESTEP, t, 0, inject);
	}
	fprintf(out, "# steps %" PRIu64 " exit %d\n", steps, code);
	fclose(out);
	return code;
}
