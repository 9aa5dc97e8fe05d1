/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_threads.c - traced test program: 16 threads, each running a data-dependent body
 * (seeded by its index) argv[1] times; the main thread joins them and prints a checksum
 * that does not depend on scheduling. Exits with status 5. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 16

struct job {
	long reps;   /* body repetitions */
	unsigned id; /* thread index: seeds the body */
	long result; /* checksum of the last repetition */
};

__attribute__((noipa)) static long body(unsigned id)
{
	unsigned s = id + 1;
	long acc = 0;
	for (int i = 0; i < 400; i++) {
		s = s * 1103515245u + 12345u;
		unsigned r = s >> 16;
		if (r % 3 == 0)
			acc += r;
		else if (r % 3 == 1)
			acc ^= i;
		else
			acc -= r >> 2;
	}
	return acc;
}

static void *worker(void *p)
{
	struct job *j = p;
	for (long r = 0; r < j->reps; r++)
		j->result = body(j->id);
	return NULL;
}

int main(int argc, char **argv)
{
	long reps = argc > 1 ? atol(argv[1]) : 1;
	pthread_t th[NTHREADS];
	struct job jobs[NTHREADS];
	for (unsigned i = 0; i < NTHREADS; i++) {
		jobs[i] = (struct job){ reps, i, 0 };
		if (pthread_create(&th[i], NULL, worker, &jobs[i]) != 0)
			return 1;
	}
	long sum = 0;
	for (unsigned i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], NULL);
		sum += jobs[i].result;
	}
	printf("threads %ld\n", sum);
	return 5;
}
