/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_signal.c - traced test program: its own signal handlers must keep working under the
 * tracer: SIGUSR1 raised every 50 iterations (handler does branchy work), a SIGTRAP handler
 * (raised once per repetition), and a handler for the realtime signal the tracer uses by
 * default (SIGRTMAX-2), raised once per repetition. argv[1] = repetitions. Prints the
 * handler counts and a checksum; exits with status 9. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile sig_atomic_t usr1, trap, rt;
static volatile long hacc;

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
	for (int i = 0; i < 20; i++)
		hacc += (i & 1) ? i : -i;
}

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	trap++;
}

static void on_rt(int sig)
{
	(void)sig;
	rt++;
}

__attribute__((noipa)) static long body(void)
{
	unsigned s = 3;
	long acc = 0;
	for (int i = 0; i < 500; i++) {
		s = s * 1103515245u + 12345u;
		if ((s >> 16) & 1)
			acc += i;
		else
			acc -= 2;
		if (i % 50 == 0)
			raise(SIGUSR1);
	}
	raise(SIGTRAP);
	raise(SIGRTMAX - 2);
	return acc;
}

/* argv[1] as a decimal number. Not atol: glibc's strtol takes digit-dependent paths, and the
 * exact run's argument (0002) is not the traced run's (1000): a stack from main's start
 * through strtol was no run of the exact trace (test-lbr compares every stack that touches
 * the executable, libc included, for this program). This loop's path depends on the
 * length only. */
__attribute__((noipa)) static long reps_of(const char *s)
{
	long n = 0;
	for (; *s >= '0' && *s <= '9'; s++)
		n = n * 10 + (*s - '0');
	return n;
}

int main(int argc, char **argv)
{
	long reps = argc > 1 ? reps_of(argv[1]) : 1, res = 0;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_sigaction = on_trap;
	/* SA_NODEFER: lbr_exact single-steps this handler, and a step trap while SIGTRAP is
	 * blocked makes the kernel reset SIGTRAP to its default action (the next raise kills). */
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGTRAP, &sa, NULL);
	signal(SIGRTMAX - 2, on_rt);
	for (long r = 0; r < reps; r++)
		res = body();
	/* Per-repetition counts only, so the output (and printf's path) is the same for any reps. */
	printf("signal %ld per-rep usr1=%ld trap=%ld rt=%ld\n", res, (long)usr1 / reps,
	       (long)trap / reps, (long)rt / reps);
	return 9;
}
