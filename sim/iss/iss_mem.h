/* SPDX-License-Identifier: Apache-2.0 */
/* Sparse paged guest memory: 4 KiB pages allocated on demand in a hash
 * table, with a direct-mapped lookup cache in front. */
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

/* One page: its number, protection and contents. */
struct iss_page {
	uint64_t vpn;
	unsigned prot;
	uint8_t data[ISS_PAGE_SIZE];
};

/* A direct-mapped lookup cache entry. */
struct iss_tlb {
	uint64_t vpn;
	uint8_t *data;
};

/* The guest address space. */
struct iss_mem {
	struct iss_page **slots;  /* open-addressing hash table by vpn */
	size_t nslots;            /* power of two */
	size_t npages;
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

/* Copy between guest and host memory across pages. Return 0 or -1 if any
 * page is unmapped (a partial copy may have happened). */
int iss_mem_read(struct iss_mem *m, uint64_t addr, void *out, size_t n);
int iss_mem_write(struct iss_mem *m, uint64_t addr, const void *in, size_t n);

/* Length of the NUL-terminated guest string at addr (at most max), or -1
 * if it runs into an unmapped page before the NUL. */
long iss_mem_strnlen(struct iss_mem *m, uint64_t addr, size_t max);

#endif /* TIPROF_ISS_MEM_H */
