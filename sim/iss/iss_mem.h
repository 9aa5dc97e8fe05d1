/* SPDX-License-Identifier: Apache-2.0 */
/* Sparse paged guest memory: 4 KiB pages allocated on demand in a hash
 * table, with a direct-mapped lookup cache in front. A page may carry a
 * "code" block (the ISS's pre-decoded instructions for it): any write to
 * the page (a store, a system call or loader copy, iss_write_mem),
 * munmap, mmap over it or mprotect drops the block and bumps code_gen, so
 * cached decodings never outlive the bytes they came from. */
#ifndef TIPROF_ISS_MEM_H
#define TIPROF_ISS_MEM_H

#include <stddef.h>
#include <stdint.h>

#define ISS_PAGE_SHIFT 12
#define ISS_PAGE_SIZE  (1ull << ISS_PAGE_SHIFT)
#define ISS_PAGE_MASK  (ISS_PAGE_SIZE - 1)
#define ISS_TLB_SIZE   256

/* Page protection bits (recorded; mapped pages are always accessible). */
#define ISS_PROT_R 1
#define ISS_PROT_W 2
#define ISS_PROT_X 4

/* One page: its number, protection, code block and contents. */
struct iss_page {
	uint64_t vpn;
	unsigned prot;
	void *code;               /* decoded instructions (malloc'd), or NULL */
	uint8_t data[ISS_PAGE_SIZE];
};

/* A direct-mapped lookup cache entry. wdata is data when the page may be
 * written directly, NULL while it has a code block (writes then take the
 * slow path, which drops the block first). */
struct iss_tlb {
	uint64_t vpn;
	uint8_t *data;
	uint8_t *wdata;
};

/* The guest address space. */
struct iss_mem {
	struct iss_page **slots;  /* open-addressing hash table by vpn */
	size_t nslots;            /* power of two */
	size_t npages;
	uint64_t code_gen;        /* bumped whenever a code block is dropped */
	struct iss_tlb tlb[ISS_TLB_SIZE];
};

/* Initialise an empty address space. Returns 0 or -1 (out of memory). */
int iss_mem_init(struct iss_mem *m);

/* Release every page. */
void iss_mem_free(struct iss_mem *m);

/* Map zeroed pages covering [addr, addr+len) with prot; pages already
 * mapped keep their contents and get prot. Returns 0 or -1 (no memory). */
int iss_mem_map(struct iss_mem *m, uint64_t addr, uint64_t len, unsigned prot);

/* Unmap the pages covering [addr, addr+len). */
void iss_mem_unmap(struct iss_mem *m, uint64_t addr, uint64_t len);

/* Set the protection of mapped pages in [addr, addr+len). */
void iss_mem_protect(struct iss_mem *m, uint64_t addr, uint64_t len, unsigned prot);

/* 1 if every page of [addr, addr+len) is unmapped. */
int iss_mem_is_free(const struct iss_mem *m, uint64_t addr, uint64_t len);

/* Host pointer to the page holding addr, or NULL if unmapped. */
uint8_t *iss_mem_page_slow(struct iss_mem *m, uint64_t addr);

/* Same for writing: drops the page's code block first. */
uint8_t *iss_mem_wpage_slow(struct iss_mem *m, uint64_t addr);

/* The code block of the page holding addr, allocated zeroed (size bytes)
 * if it has none; *data is set to the page contents. NULL if the page is
 * unmapped or out of memory. */
void *iss_mem_code(struct iss_mem *m, uint64_t addr, size_t size, uint8_t **data);

/* Drop every code block (fence.i, riscv_flush_icache). */
void iss_mem_drop_code(struct iss_mem *m);

/* Host pointer for addr when [addr, addr+n) lies in one mapped page,
 * else NULL (unmapped or crossing a page: use the copy functions). */
static inline uint8_t *iss_mem_ptr(struct iss_mem *m, uint64_t addr, size_t n)
{
	uint64_t vpn = addr >> ISS_PAGE_SHIFT;
	struct iss_tlb *t = &m->tlb[vpn & (ISS_TLB_SIZE - 1)];
	uint8_t *p;

	if (((addr & ISS_PAGE_MASK) + n) > ISS_PAGE_SIZE)
		return NULL;
	if (t->vpn == vpn && t->data)
		return t->data + (addr & ISS_PAGE_MASK);
	p = iss_mem_page_slow(m, addr);
	return p ? p + (addr & ISS_PAGE_MASK) : NULL;
}

/* Host pointer for writing n bytes at addr, as iss_mem_ptr (a page with a
 * code block loses it). */
static inline uint8_t *iss_mem_wptr(struct iss_mem *m, uint64_t addr, size_t n)
{
	uint64_t vpn = addr >> ISS_PAGE_SHIFT;
	struct iss_tlb *t = &m->tlb[vpn & (ISS_TLB_SIZE - 1)];
	uint8_t *p;

	if (((addr & ISS_PAGE_MASK) + n) > ISS_PAGE_SIZE)
		return NULL;
	if (t->vpn == vpn && t->wdata)
		return t->wdata + (addr & ISS_PAGE_MASK);
	p = iss_mem_wpage_slow(m, addr);
	return p ? p + (addr & ISS_PAGE_MASK) : NULL;
}

/* Copy between guest and host memory across pages. Return 0 or -1 if any
 * page is unmapped (a partial copy may have happened). */
int iss_mem_read(struct iss_mem *m, uint64_t addr, void *out, size_t n);
int iss_mem_write(struct iss_mem *m, uint64_t addr, const void *in, size_t n);

/* Length of the NUL-terminated guest string at addr (at most max), or -1
 * if it runs into an unmapped page before the NUL. */
long iss_mem_strnlen(struct iss_mem *m, uint64_t addr, size_t max);

#endif /* TIPROF_ISS_MEM_H */
