/* SPDX-License-Identifier: Apache-2.0
 * dispatch - flush-intensive: argv[1] indirect calls (default 1000000;
 * 35000 for tests) through a table of eight handlers, the handler chosen by
 * random data, as in an interpreter's dispatch loop or a virtual call on
 * objects of mixed types.
 *
 * The hot loop (run_ops) takes three bits of a 64-bit random word as the
 * opcode and calls handlers[op]. The target of that indirect call
 * (jalr) is uniformly random over 8 addresses, so a BTB-style indirect
 * predictor misses about 7 times in 8, and each miss flushes the front end.
 * A profile should charge those cycles to the jalr in run_ops (Flushed), and
 * the handler bodies should look cheap.
 *
 * Self-check: each handler adds its own multiple of its operand to its own
 * accumulator, so the final accumulators are fixed by the per-opcode sums of
 * the operands alone. check_ops replays the random sequence and computes
 * those sums with plain array indexing: no calls and no data-dependent
 * branches. */
#include <stdio.h>
#include <stdlib.h>

#include "wl.h"

#define NOPS 8

struct vm {
	uint64_t acc[NOPS]; /* one accumulator per handler */
};

/* Each handler adds a different multiple of x to its own accumulator, each
 * written its own way; K[op] is that multiple, for the reference. */
static void op0(struct vm *v, uint64_t x) { v->acc[0] += x; }
static void op1(struct vm *v, uint64_t x) { v->acc[1] += x << 3; }
static void op2(struct vm *v, uint64_t x) { v->acc[2] -= x; }
static void op3(struct vm *v, uint64_t x) { v->acc[3] += x * 0x9e3779b97f4a7c15ull; }
static void op4(struct vm *v, uint64_t x) { v->acc[4] += (x << 5) - x; }
static void op5(struct vm *v, uint64_t x) { v->acc[5] -= x << 1; }
static void op6(struct vm *v, uint64_t x) { v->acc[6] += x * 1000003; }
static void op7(struct vm *v, uint64_t x) { v->acc[7] += x + (x << 7); }

static const uint64_t K[NOPS] = { 1, 8, (uint64_t)-1, 0x9e3779b97f4a7c15ull, 31,
				  (uint64_t)-2, 1000003, 129 };

static void (*const handlers[NOPS])(struct vm *, uint64_t) = {
	op0, op1, op2, op3, op4, op5, op6, op7,
};

/* The measured loop: n indirect calls; each random word supplies the
 * opcodes of 21 calls, three bits each, and the argument is the call's index. */
static void __attribute__((noinline)) run_ops(struct vm *v, uint64_t seed, long n)
{
	uint64_t r = 0;
	int left = 0;

	for (long i = 0; i < n; i++) {
		if (left-- == 0) {
			r = wl_rand(&seed);
			left = 20;
		}
		handlers[r & 7](v, (uint64_t)i);
		r >>= 3;
	}
}

/* The reference: the sum of the arguments per opcode, by indexing. */
static void check_ops(struct vm *v, uint64_t seed, long n)
{
	uint64_t sum[NOPS] = { 0 };

	for (long i = 0; i < n; i += 21) {
		uint64_t r = wl_rand(&seed);

		for (long k = i; k < i + 21 && k < n; k++, r >>= 3)
			sum[r & 7] += (uint64_t)k;
	}
	for (int op = 0; op < NOPS; op++)
		v->acc[op] = sum[op] * K[op];
}

static uint64_t vm_hash(const struct vm *v)
{
	uint64_t h = 0;

	for (int op = 0; op < NOPS; op++)
		h = (h << 13 | h >> 51) ^ v->acc[op];
	return h;
}

int main(int argc, char **argv)
{
	long n = wl_size(argc, argv, 1000000, 1000000000);
	struct vm got = { { 0 } }, want = { { 0 } };

	run_ops(&got, 4, n);
	check_ops(&want, 4, n);
	return wl_report("dispatch", n, vm_hash(&got), vm_hash(&want), NULL);
}
