/* SPDX-License-Identifier: Apache-2.0 */
/* Sparse paged guest memory (see iss_mem.h). */
#include <stdlib.h>
#include <string.h>

#include "iss_mem.h"

#define EMPTY ((struct iss_page *)0)
#define TOMB  ((struct iss_page *)1)

static size_t hash_vpn(uint64_t vpn, size_t nslots)
{
	return (size_t)((vpn * 0x9E3779B97F4A7C15ULL) >> 20) & (nslots - 1);
}

int iss_mem_init(struct iss_mem *m)
{
	memset(m, 0, sizeof(*m));
	m->nslots = 4096;
	m->slots = calloc(m->nslots, sizeof(*m->slots));
	return m->slots ? 0 : -1;
}

void iss_mem_free(struct iss_mem *m)
{
	size_t i;

	for (i = 0; i < m->nslots; i++)
		if (m->slots[i] > TOMB) {
			free(m->slots[i]->code);
			free(m->slots[i]);
		}
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

/* Slot index holding vpn, or -1. */
static long find_slot(const struct iss_mem *m, uint64_t vpn)
{
	size_t i = hash_vpn(vpn, m->nslots), n;

	for (n = 0; n < m->nslots; n++, i = (i + 1) & (m->nslots - 1)) {
		struct iss_page *p = m->slots[i];

		if (p == EMPTY)
			return -1;
		if (p != TOMB && p->vpn == vpn)
			return (long)i;
	}
	return -1;
}

static void insert_slot(struct iss_page **slots, size_t nslots, struct iss_page *pg)
{
	size_t i = hash_vpn(pg->vpn, nslots);

	while (slots[i] > TOMB)
		i = (i + 1) & (nslots - 1);
	slots[i] = pg;
}

/* Keep the load factor under 1/2. Returns 0 or -1. */
static int grow(struct iss_mem *m)
{
	size_t n = m->nslots * 2, i;
	struct iss_page **s;

	if ((m->npages + 1) * 2 < m->nslots)
		return 0;
	s = calloc(n, sizeof(*s));
	if (!s)
		return -1;
	for (i = 0; i < m->nslots; i++)
		if (m->slots[i] > TOMB)
			insert_slot(s, n, m->slots[i]);
	free(m->slots);
	m->slots = s;
	m->nslots = n;
	return 0;
}

/* Drop pg's code block; a cached write pointer becomes valid again. */
static void drop_code(struct iss_mem *m, struct iss_page *pg)
{
	struct iss_tlb *t = &m->tlb[pg->vpn & (ISS_TLB_SIZE - 1)];

	if (!pg->code)
		return;
	free(pg->code);
	pg->code = NULL;
	m->code_gen++;
	if (t->vpn == pg->vpn && t->data)
		t->wdata = t->data;
}

/* The page holding addr, now in the lookup cache, or NULL. */
static struct iss_page *page_fill(struct iss_mem *m, uint64_t addr)
{
	uint64_t vpn = addr >> ISS_PAGE_SHIFT;
	long i = find_slot(m, vpn);
	struct iss_tlb *t;
	struct iss_page *pg;

	if (i < 0)
		return NULL;
	pg = m->slots[i];
	t = &m->tlb[vpn & (ISS_TLB_SIZE - 1)];
	t->vpn = vpn;
	t->data = pg->data;
	t->wdata = pg->code ? NULL : pg->data;
	return pg;
}

uint8_t *iss_mem_page_slow(struct iss_mem *m, uint64_t addr)
{
	struct iss_page *pg = page_fill(m, addr);

	return pg ? pg->data : NULL;
}

uint8_t *iss_mem_wpage_slow(struct iss_mem *m, uint64_t addr)
{
	struct iss_page *pg = page_fill(m, addr);

	if (!pg)
		return NULL;
	drop_code(m, pg);
	return pg->data;
}

void *iss_mem_code(struct iss_mem *m, uint64_t addr, size_t size, uint8_t **data)
{
	struct iss_page *pg = page_fill(m, addr);

	if (!pg)
		return NULL;
	if (!pg->code) {
		pg->code = calloc(1, size);
		if (!pg->code)
			return NULL;
		m->tlb[pg->vpn & (ISS_TLB_SIZE - 1)].wdata = NULL;
	}
	*data = pg->data;
	return pg->code;
}

void iss_mem_drop_code(struct iss_mem *m)
{
	size_t i;

	for (i = 0; i < m->nslots; i++)
		if (m->slots[i] > TOMB)
			drop_code(m, m->slots[i]);
}

int iss_mem_map(struct iss_mem *m, uint64_t addr, uint64_t len, unsigned prot)
{
	uint64_t vpn = addr >> ISS_PAGE_SHIFT;
	uint64_t end = (addr + len + ISS_PAGE_MASK) >> ISS_PAGE_SHIFT;

	for (; vpn < end; vpn++) {
		long i = find_slot(m, vpn);
		struct iss_page *pg;

		if (i >= 0) {
			drop_code(m, m->slots[i]);
			m->slots[i]->prot = prot;
			continue;
		}
		if (grow(m))
			return -1;
		pg = calloc(1, sizeof(*pg));
		if (!pg)
			return -1;
		pg->vpn = vpn;
		pg->prot = prot;
		insert_slot(m->slots, m->nslots, pg);
		m->npages++;
	}
	return 0;
}

void iss_mem_unmap(struct iss_mem *m, uint64_t addr, uint64_t len)
{
	uint64_t vpn = addr >> ISS_PAGE_SHIFT;
	uint64_t end = (addr + len + ISS_PAGE_MASK) >> ISS_PAGE_SHIFT;

	for (; vpn < end; vpn++) {
		long i = find_slot(m, vpn);
		struct iss_tlb *t = &m->tlb[vpn & (ISS_TLB_SIZE - 1)];

		if (i < 0)
			continue;
		drop_code(m, m->slots[i]);
		if (t->vpn == vpn)
			t->data = t->wdata = NULL;
		free(m->slots[i]);
		m->slots[i] = TOMB;
		m->npages--;
	}
}

void iss_mem_protect(struct iss_mem *m, uint64_t addr, uint64_t len, unsigned prot)
{
	uint64_t vpn = addr >> ISS_PAGE_SHIFT;
	uint64_t end = (addr + len + ISS_PAGE_MASK) >> ISS_PAGE_SHIFT;

	for (; vpn < end; vpn++) {
		long i = find_slot(m, vpn);

		if (i >= 0) {
			drop_code(m, m->slots[i]);
			m->slots[i]->prot = prot;
		}
	}
}

int iss_mem_is_free(const struct iss_mem *m, uint64_t addr, uint64_t len)
{
	uint64_t vpn = addr >> ISS_PAGE_SHIFT;
	uint64_t end = (addr + len + ISS_PAGE_MASK) >> ISS_PAGE_SHIFT;

	for (; vpn < end; vpn++)
		if (find_slot(m, vpn) >= 0)
			return 0;
	return 1;
}

/* Copy n bytes between guest memory at addr and buf, page by page (to_guest: buf -> guest). */
static int iss_mem_copy(struct iss_mem *m, uint64_t addr, uint8_t *buf, size_t n, int to_guest)
{
	while (n) {
		size_t off = addr & ISS_PAGE_MASK, k = ISS_PAGE_SIZE - off;
		uint8_t *p = to_guest ? iss_mem_wptr(m, addr, 1) : iss_mem_ptr(m, addr, 1);

		if (!p)
			return -1;
		if (k > n)
			k = n;
		if (to_guest)
			memcpy(p, buf, k);
		else
			memcpy(buf, p, k);
		buf += k;
		addr += k;
		n -= k;
	}
	return 0;
}

int iss_mem_read(struct iss_mem *m, uint64_t addr, void *out, size_t n)
{
	return iss_mem_copy(m, addr, out, n, 0);
}

int iss_mem_write(struct iss_mem *m, uint64_t addr, const void *in, size_t n)
{
	return iss_mem_copy(m, addr, (uint8_t *)(uintptr_t)in, n, 1);
}

long iss_mem_strnlen(struct iss_mem *m, uint64_t addr, size_t max)
{
	size_t n = 0;

	while (n < max) {
		uint8_t *p = iss_mem_ptr(m, addr + n, 1);

		if (!p)
			return -1;
		if (*p == 0)
			return (long)n;
		n++;
	}
	return (long)max;
}
