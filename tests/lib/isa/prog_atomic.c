/* SPDX-License-Identifier: Apache-2.0 */
/* Atomics and memory workload for the decoder and ISS tests: C11 atomics
 * of every width and ordering (AMOs, LR/SC loops), compare-exchange,
 * fences, heap growth through brk and mmap, and a small file round trip.
 * Deterministic output. */
#define _GNU_SOURCE /* mremap */
#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static _Atomic int32_t a32;
static _Atomic int64_t a64;
static _Atomic uint32_t u32;
static _Atomic uint64_t u64;
static _Atomic uint8_t a8;
static _Atomic uint16_t a16;

/* AMO min/max have no C11 spelling: issue them directly. */
#define AMO(insn, type, ptr, val) ({ type old_; \
	__asm__ volatile(insn " %0, %2, %1" : "=r"(old_), "+A"(*(ptr)) : "r"(val) : "memory"); old_; })

static uint64_t atomics(int n)
{
	uint64_t h = 0;
	int i;

	for (i = 0; i < n; i++) {
		h += (uint64_t)atomic_fetch_add(&a32, i);
		h += (uint64_t)atomic_fetch_sub_explicit(&a64, i * 3, memory_order_acquire);
		h += atomic_fetch_or_explicit(&u32, 1u << (i % 32), memory_order_release);
		h += atomic_fetch_and_explicit(&u64, ~(1ull << (i % 64)), memory_order_acq_rel);
		h += atomic_fetch_xor_explicit(&u32, (uint32_t)i * 2654435761u, memory_order_relaxed);
		h += atomic_exchange(&u64, h);
		h += atomic_fetch_add(&a8, 3);
		h += atomic_fetch_add(&a16, 7);
		{
			int64_t exp = atomic_load(&a64), want = exp * 3 + 1;
			while (!atomic_compare_exchange_weak(&a64, &exp, want))
				want = exp * 3 + 1;
		}
		{
			int32_t exp = i, ok = atomic_compare_exchange_strong(&a32, &exp, -i);
			h += (uint64_t)ok * 1000 + (uint64_t)exp;
		}
		h += (uint64_t)AMO("amomax.w.aqrl", int32_t, (int32_t *)&a32, i * 5 - 100);
		h += (uint64_t)AMO("amomin.d", int64_t, (int64_t *)&a64, (int64_t)i - 50);
		h += AMO("amomaxu.w.rl", uint32_t, (uint32_t *)&u32, (uint32_t)i * 77u);
		h += AMO("amominu.d.aq", uint64_t, (uint64_t *)&u64, (uint64_t)i << 40);
		h += (uint64_t)AMO("amomin.w", int32_t, (int32_t *)&a32, 50 - i);
		h += (uint64_t)AMO("amomax.d", int64_t, (int64_t *)&a64, (int64_t)i * 9);
		h += AMO("amominu.w", uint32_t, (uint32_t *)&u32, (uint32_t)i * 13u);
		h += AMO("amomaxu.d", uint64_t, (uint64_t *)&u64, (uint64_t)i << 50);
		atomic_thread_fence(memory_order_seq_cst);
		atomic_thread_fence(memory_order_acquire);
		atomic_thread_fence(memory_order_release);
	}
	return h ^ (uint64_t)atomic_load(&a32) ^ (uint64_t)atomic_load(&a64) ^ atomic_load(&u32) ^
	       atomic_load(&u64);
}

static uint64_t heap(void)
{
	uint64_t h = 0;
	char *blocks[64];
	int i;

	for (i = 0; i < 64; i++) {
		size_t sz = (size_t)(i * 4099) % 300000 + 16;
		blocks[i] = malloc(sz);
		memset(blocks[i], i, sz);
		h = h * 33 + (unsigned char)blocks[i][sz / 2];
	}
	for (i = 0; i < 64; i += 2)
		free(blocks[i]);
	for (i = 0; i < 64; i += 2) {
		blocks[i] = realloc(NULL, 1000 + (size_t)i);
		blocks[i][999] = (char)i;
		h = h * 33 + (unsigned char)blocks[i][999];
	}
	for (i = 0; i < 64; i++)
		free(blocks[i]);
	{
		size_t len = 3 << 20;
		unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return 1;
		p[0] = 1; p[len - 1] = 2; p[len / 2] = 3;
		h = h * 33 + p[0] + p[len - 1] + p[len / 2] + p[12345];
		p = mremap(p, len, len * 2, MREMAP_MAYMOVE);
		if (p == MAP_FAILED)
			return 2;
		h = h * 33 + p[len - 1] + p[len * 2 - 1];
		mprotect(p, 4096, PROT_READ);
		munmap(p, len * 2);
	}
	return h;
}

static uint64_t file_roundtrip(const char *path)
{
	char out[200], in[200];
	struct stat st;
	uint64_t h = 0;
	int fd, n;

	n = snprintf(out, sizeof(out), "tiprof file test %d\n", 42);
	fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
	if (fd < 0)
		return 0;
	h += (uint64_t)write(fd, out, (size_t)n);
	h += (uint64_t)lseek(fd, 0, SEEK_SET);
	h += (uint64_t)read(fd, in, sizeof(in));
	if (fstat(fd, &st) == 0)
		h += (uint64_t)st.st_size;
	close(fd);
	unlink(path);
	h += (uint64_t)memcmp(in, out, (size_t)n);
	return h;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5000;
	struct utsname u;

	printf("atomics %016" PRIx64 "\n", atomics(n));
	printf("heap %016" PRIx64 "\n", heap());
	if (argc > 2)
		printf("file %" PRIu64 "\n", file_roundtrip(argv[2]));
	if (uname(&u) == 0)
		printf("uname sysname %s\n", u.sysname);
	fputs("done\n", stderr);
	return 0;
}
