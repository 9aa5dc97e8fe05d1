/* SPDX-License-Identifier: Apache-2.0 */
/* Self-modifying code for the ISS's decoded-instruction cache (test-iss
 * runs it on `tiprof iss` and on qemu-riscv64 and compares the output, and
 * lockstep-checks it): instructions are written into an executable mmap'd
 * page, executed, rewritten and executed again, made visible with fence.i,
 * with __builtin___clear_cache (glibc's __riscv_flush_icache: the
 * riscv_flush_icache system call), across mprotect, munmap + mmap at the
 * same address, as compressed instructions and as an instruction that
 * crosses a page boundary (its immediate in the second page). All of it
 * happens in the first ~50 000 instructions, inside the lockstep window. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

typedef long (*fn_t)(void);

#define PAGE 4096

static void fence_i(void)
{
	__asm__ volatile("fence.i" ::: "memory");
}

/* addi a0, zero, imm (imm in -2048..2047) */
static uint32_t li_a0(int imm)
{
	return ((uint32_t)imm & 0xfff) << 20 | 10 << 7 | 0x13;
}

#define RET 0x00008067u /* jalr zero, 0(ra) */

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, 2);
}

static long call(uint8_t *p)
{
	fn_t f;

	memcpy(&f, &p, sizeof(f));
	return f();
}

int main(void)
{
	uint8_t *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long sum = 0;
	int k;

	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* write, execute; rewrite, execute (fence.i) */
	put32(p, li_a0(42));
	put32(p + 4, RET);
	fence_i();
	printf("first: %ld\n", call(p));
	put32(p, li_a0(43));
	fence_i();
	printf("rewritten (fence.i): %ld\n", call(p));
	/* riscv_flush_icache */
	put32(p, li_a0(44));
	__builtin___clear_cache((char *)p, (char *)p + 8);
	printf("rewritten (clear_cache): %ld\n", call(p));
	/* a JIT-like loop: a new immediate every time, executed at once */
	for (k = 0; k < 1000; k++) {
		put32(p, li_a0(k - 500));
		fence_i();
		sum += call(p) * (k + 1);
	}
	printf("loop sum: %ld\n", sum);
	/* the code and the data it rewrites in the same page: a second
	 * function at +64 rewritten while the first keeps running */
	put32(p + 64, li_a0(7));
	put32(p + 68, RET);
	fence_i();
	sum = 0;
	for (k = 0; k < 100; k++) {
		sum += call(p) + call(p + 64);
		put32(p + 64, li_a0(k));
		fence_i();
	}
	printf("same page: %ld\n", sum);
	/* compressed: c.li a0, imm; c.jr ra */
	put16(p + 128, (uint16_t)(0x4501 | (5 << 2)));
	put16(p + 130, 0x8082);
	fence_i();
	printf("compressed: %ld\n", call(p + 128));
	put16(p + 128, (uint16_t)(0x4501 | (9 << 2)));
	fence_i();
	printf("compressed rewritten: %ld\n", call(p + 128));
	/* mprotect: RW to write, RX to run */
	if (mprotect(p, 2 * PAGE, PROT_READ | PROT_WRITE))
		return 1;
	put32(p, li_a0(99));
	if (mprotect(p, 2 * PAGE, PROT_READ | PROT_EXEC))
		return 1;
	fence_i();
	printf("after mprotect: %ld\n", call(p));
	/* munmap, mmap at the same address with other code */
	munmap(p, 2 * PAGE);
	if (mmap(p, 2 * PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != p)
		return 1;
	put32(p, li_a0(-77));
	put32(p + 4, RET);
	fence_i();
	printf("remapped: %ld\n", call(p));
	/* a 4-byte instruction across the page boundary: its immediate lies
	 * in the second page */
	put32(p + PAGE - 2, li_a0(300));
	put32(p + PAGE + 2, RET);
	fence_i();
	printf("cross-page: %ld\n", call(p + PAGE - 2));
	put32(p + PAGE - 2, li_a0(301));
	fence_i();
	printf("cross-page rewritten: %ld\n", call(p + PAGE - 2));
	/* QEMU's single-step log loses its last buffered part at exit: keep
	 * running long enough that everything above lies inside the
	 * lockstep window (the first 200 000 instructions) */
	{
		volatile long spin = 0;

		for (k = 0; k < 100000; k++)
			spin += k;
		printf("spin: %ld\n", spin);
	}
	return 0;
}
