/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_fork.c - traced test program: processes. argv[1] = repetitions of the body, argv[2] =
 * stage. Stage 0: fork() 4 children that run the body (seeded by their index) and exit() with
 * a status derived from the result; posix_spawn("/bin/true"); vfork() + execve("/bin/true");
 * system("exit 3"); the body in the parent; then execv() of itself as stage 1, which runs
 * the body and exits with status 6. Every status is printed by the parent, so the output
 * (deterministic, scheduling-independent) and the final status show any change. */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

__attribute__((noipa)) static long body(unsigned id)
{
	unsigned s = id * 7 + 1;
	long acc = 0;
	for (int i = 0; i < 500; i++) {
		s = s * 1103515245u + 12345u;
		unsigned r = s >> 16;
		if (r & 1)
			acc += r % 1000;
		else
			acc -= i;
		for (unsigned k = r % 4; k > 0; k--)
			acc ^= (long)k << (i & 5);
	}
	return acc;
}

static long run(unsigned id, long reps)
{
	long res = 0;
	for (long r = 0; r < reps; r++)
		res = body(id);
	return res;
}

static void report(const char *what, int st)
{
	if (WIFEXITED(st))
		printf("%s: exit %d\n", what, WEXITSTATUS(st));
	else
		printf("%s: signal %d\n", what, WTERMSIG(st));
}

int main(int argc, char **argv)
{
	long reps = argc > 1 ? atol(argv[1]) : 1;
	int stage = argc > 2 ? atoi(argv[2]) : 0;
	if (stage == 1) {
		printf("exec stage: %ld\n", run(9, reps));
		return 6;
	}
	pid_t kids[4];
	fflush(stdout);
	for (unsigned i = 0; i < 4; i++) {
		kids[i] = fork();
		if (kids[i] < 0) {
			perror("fork");
			return 1;
		}
		if (kids[i] == 0)
			exit(10 + (int)((unsigned long)run(i + 1, reps) % 50));
	}
	for (unsigned i = 0; i < 4; i++) {
		int st;
		char what[32];
		waitpid(kids[i], &st, 0);
		snprintf(what, sizeof(what), "child %u", i);
		report(what, st);
	}
	char *tv[] = { "/bin/true", NULL };
	pid_t p;
	int st;
	if (posix_spawn(&p, "/bin/true", NULL, NULL, tv, environ) != 0 || waitpid(p, &st, 0) < 0)
		return 1;
	report("posix_spawn /bin/true", st);
	p = vfork();
	if (p == 0) {
		execve("/bin/true", tv, environ);
		_exit(127);
	}
	waitpid(p, &st, 0);
	report("vfork /bin/true", st);
	report("system exit 3", system("exit 3"));
	printf("parent: %ld\n", run(5, reps));
	fflush(stdout);
	char rs[32];
	snprintf(rs, sizeof(rs), "%ld", reps);
	char *av[] = { argv[0], rs, "1", NULL };
	execv("/proc/self/exe", av);
	perror("execv");
	return 1;
}
