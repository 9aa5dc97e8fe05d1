/* SPDX-License-Identifier: Apache-2.0 */
/* ELF loading and the initial process image: PT_LOAD segments, the brk
 * start, a stack mapped like QEMU 7.2 linux-user maps it, and the initial
 * stack contents (strings, AT_RANDOM bytes, auxv, envp, argv, argc) in
 * the order and alignment of QEMU's create_elf_tables, which follows
 * Linux's layout, so that register values match in lockstep runs. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iss_int.h"

/* ELF64 constants and layouts used here. */
#define EM_RISCV 243
#define PT_LOAD 1
#define PT_INTERP 3
#define PF_X 1
#define PF_W 2
#define PF_R 4

enum {
	AT_NULL = 0, AT_PHDR = 3, AT_PHENT = 4, AT_PHNUM = 5, AT_PAGESZ = 6,
	AT_BASE = 7, AT_FLAGS = 8, AT_ENTRY = 9, AT_UID = 11, AT_EUID = 12,
	AT_GID = 13, AT_EGID = 14, AT_HWCAP = 16, AT_CLKTCK = 17,
	AT_SECURE = 23, AT_RANDOM = 25, AT_EXECFN = 31,
};

/* misa-style HWCAP letters I, M, A, F, D, C (what QEMU reports). */
#define HWCAP_RV64GC ((1u << ('I' - 'A')) | (1u << ('M' - 'A')) | (1u << ('A' - 'A')) | \
		      (1u << ('F' - 'A')) | (1u << ('D' - 'A')) | (1u << ('C' - 'A')))

static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }

/* Read a whole file; returns a malloc'd buffer or NULL (errno set). */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Largest PT_LOAD segment accepted: memory is mapped eagerly, so a corrupt p_memsz must
 * not exhaust the host. */
#define ISS_MAX_SEGMENT (1ull << 30)

/* Map the PT_LOAD segments of path; sets the entry, phdr address and brk. All sizes are
 * checked without overflow: a corrupt header gives a message naming path, never a read
 * outside the file. */
static int load_segments(struct iss *s, const char *path, const uint8_t *e, size_t len,
			 uint64_t *phdr_addr)
{
	uint64_t phoff = rd64(e + 32), end = 0, load_addr = 0;
	unsigned phentsize = rd16(e + 54), phnum = rd16(e + 56), k;
	int have_load = 0;

	if (phentsize < 56 || phoff > len || (uint64_t)phnum * phentsize > len - phoff)
		return iss__fail(s, "%s: bad program header table (truncated or corrupt ELF)",
				 path), -1;
	for (k = 0; k < phnum; k++) {
		const uint8_t *ph = e + phoff + (uint64_t)k * phentsize;
		uint32_t type = rd32(ph), flags = rd32(ph + 4);
		uint64_t off = rd64(ph + 8), va = rd64(ph + 16), fsz = rd64(ph + 32), msz = rd64(ph + 40);
		unsigned prot = 0;

		if (type == PT_INTERP)
			return iss__fail(s, "%s: dynamically linked programs are not supported (link "
					 "with -static)", path), -1;
		if (type != PT_LOAD || msz == 0)
			continue;
		if (off > len || fsz > len - off || fsz > msz)
			return iss__fail(s, "%s: PT_LOAD segment %u lies outside the file (truncated "
					 "or corrupt ELF)", path, k), -1;
		if (msz > ISS_MAX_SEGMENT || va + msz < va)
			return iss__fail(s, "%s: PT_LOAD segment %u is larger than 1 GiB or wraps "
					 "around (corrupt ELF?)", path, k), -1;
		if (flags & PF_R) prot |= ISS_PROT_R;
		if (flags & PF_W) prot |= ISS_PROT_W;
		if (flags & PF_X) prot |= ISS_PROT_X;
		if (iss_mem_map(&s->mem, va & ~ISS_PAGE_MASK, (va & ISS_PAGE_MASK) + msz, prot) ||
		    iss_mem_write(&s->mem, va, e + off, fsz))
			return iss__fail(s, "%s: out of memory loading segment %u", path, k), -1;
		if (!have_load) {
			load_addr = va - off;
			have_load = 1;
		}
		if (va + msz > end)
			end = va + msz;
	}
	if (!have_load)
		return iss__fail(s, "%s: no PT_LOAD segment", path), -1;
	*phdr_addr = load_addr + phoff;
	s->brk_start = s->brk_cur = (end + ISS_PAGE_MASK) & ~ISS_PAGE_MASK;
	return 0;
}

/* Push the NUL-terminated strings v[n-1]..v[0] downward from *p (each
 * string keeps its order in memory); returns the address of v[0]. */
static uint64_t push_strings(struct iss *s, uint64_t *p, char *const v[], size_t n)
{
	size_t k;

	for (k = n; k-- > 0;) {
		size_t l = strlen(v[k]) + 1;
		*p -= l;
		iss_mem_write(&s->mem, *p, v[k], l);
	}
	return *p;
}

static size_t count(char *const v[])
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

/* Build the stack and return the initial sp. */
static uint64_t build_stack(struct iss *s, const char *path, char *const argv[],
			    char *const envp[], uint64_t phdr, unsigned phnum, uint64_t entry)
{
	const uint64_t guard = ISS_PAGE_SIZE, size = s->cfg.stack_size;
	uint64_t base = iss__find_vma(s, 0, size + guard);
	uint64_t p, u_rand, u_execfn, u_env, u_arg, sp, words, a;
	size_t argc = count(argv), envc = count(envp), k;
	char *const file[1] = { (char *)path };
	uint64_t aux[17][2], rnd[2];

	/* The guard page stays unmapped below the stack. QEMU 7.2 then maps
	 * its signal-trampoline page; we reserve the same page (empty: signals
	 * are not delivered) so later mmap addresses agree. */
	iss_mem_map(&s->mem, base + guard, size, ISS_PROT_R | ISS_PROT_W);
	iss_mem_map(&s->mem, iss__find_vma(s, 0, ISS_PAGE_SIZE), ISS_PAGE_SIZE,
		    ISS_PROT_R | ISS_PROT_X);
	p = base + guard + size - 8;
	u_execfn = push_strings(s, &p, file, 1);
	u_env = push_strings(s, &p, envp, envc);
	u_arg = push_strings(s, &p, argv, argc);
	p &= ~15ull;
	p -= 16;
	u_rand = p;
	if (s->cfg.have_at_random) {
		iss_mem_write(&s->mem, u_rand, s->cfg.at_random, 16);
	} else {
		rnd[0] = iss__random(s);
		rnd[1] = iss__random(s);
		iss_mem_write(&s->mem, u_rand, rnd, 16);
	}
	k = 0;
#define AUX(t, v) (aux[k][0] = (t), aux[k][1] = (uint64_t)(v), k++)
	AUX(AT_PHDR, phdr);
	AUX(AT_PHENT, 56);
	AUX(AT_PHNUM, phnum);
	AUX(AT_PAGESZ, ISS_PAGE_SIZE);
	AUX(AT_BASE, 0);
	AUX(AT_FLAGS, 0);
	AUX(AT_ENTRY, entry);
	AUX(AT_UID, getuid());
	AUX(AT_EUID, geteuid());
	AUX(AT_GID, getgid());
	AUX(AT_EGID, getegid());
	AUX(AT_HWCAP, HWCAP_RV64GC);
	AUX(AT_CLKTCK, 100);
	AUX(AT_RANDOM, u_rand);
	AUX(AT_SECURE, 0);
	AUX(AT_EXECFN, u_execfn);
	AUX(AT_NULL, 0);
#undef AUX
	words = 2 * k + envc + 1 + argc + 1 + 1;
	sp = (p - words * 8) & ~15ull;
	a = sp;
	iss_mem_write(&s->mem, a, &(uint64_t){ argc }, 8);
	a += 8;
	for (k = 0; k < argc; k++, a += 8) {
		iss_mem_write(&s->mem, a, &u_arg, 8);
		u_arg += strlen(argv[k]) + 1;
	}
	iss_mem_write(&s->mem, a, &(uint64_t){ 0 }, 8);
	a += 8;
	for (k = 0; k < envc; k++, a += 8) {
		iss_mem_write(&s->mem, a, &u_env, 8);
		u_env += strlen(envp[k]) + 1;
	}
	iss_mem_write(&s->mem, a, &(uint64_t){ 0 }, 8);
	a += 8;
	iss_mem_write(&s->mem, a, aux, sizeof(aux));
	return sp;
}

int iss__load(struct iss *s, const char *path, char *const argv[], char *const envp[])
{
	size_t len = 0;
	uint8_t *e = NULL;
	uint64_t phdr = 0, entry;
	unsigned phnum;
	int r = -1;
	struct stat st;

	if (!stat(path, &st) && !S_ISREG(st.st_mode))	/* a directory, device or FIFO */
		return iss__fail(s, "%s: not a regular file, not an ELF file", path), -1;
	errno = 0;
	e = slurp(path, &len);

	if (!e) {
		int err = errno;

		if (stat(path, &st))
			return iss__fail(s, "%s: cannot open: %s", path, strerror(errno)), -1;
		if (st.st_size == 0)
			return iss__fail(s, "%s: the file is empty, not an ELF file", path), -1;
		return iss__fail(s, "%s: cannot read: %s", path, strerror(err ? err : EIO)), -1;
	}
	if (len < 64 || memcmp(e, "\177ELF", 4) || e[4] != 2 || e[5] != 1) {
		iss__fail(s, "%s: not a 64-bit little-endian ELF file", path);
		goto out;
	}
	if (rd16(e + 18) != EM_RISCV) {
		iss__fail(s, "%s: not a RISC-V ELF file (e_machine %u)", path, rd16(e + 18));
		goto out;
	}
	if (rd16(e + 16) != 2) {
		iss__fail(s, "%s: only static executables (ET_EXEC) are supported", path);
		goto out;
	}
	entry = rd64(e + 24);
	phnum = rd16(e + 56);
	if (load_segments(s, path, e, len, &phdr))
		goto out;
	if (!realpath(path, s->exe))
		snprintf(s->exe, sizeof(s->exe), "%s", path);
	s->x[2] = build_stack(s, path, argv, envp, phdr, phnum, entry);
	s->pc = entry;
	r = 0;
out:
	free(e);
	return r;
}
