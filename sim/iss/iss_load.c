/* SPDX-License-Identifier: Apache-2.0 */
/* ELF loading and the initial process image: PT_LOAD segments of the
 * program (and of its PT_INTERP interpreter, read from the sysroot), the
 * brk start, a stack mapped like QEMU 7.2 linux-user maps it, and the
 * initial stack contents (strings, AT_RANDOM bytes, auxv, envp, argv,
 * argc) in the order and alignment of QEMU's create_elf_tables, which
 * follows Linux's layout, so that register values match in lockstep runs.
 * Also the list of loaded objects (iss_objects).
 *
 * Placement (QEMU 7.2 linux-user, 4 KiB pages, observed with
 * `qemu-riscv64 -d page`): an ET_EXEC program sits at its link addresses;
 * a PIE (ET_DYN) is placed by the mmap search, which starts at
 * 0x4000000000, reserving its span plus 32 MiB for brk (released once
 * everything is loaded); then the stack (guard page + 8 MiB), then the
 * interpreter's span, then the signal-trampoline page. So a PIE loads at
 * 0x4000000000 and ld.so right above the stack (0x4002804000 for a small
 * program); a static program has the stack at 0x4000000000. */
#include <errno.h>
#include <fcntl.h>
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
#define ET_EXEC 2
#define ET_DYN 3
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
/* What QEMU 7.2 reserves above a main program for its brk (64-bit guests). */
#define ISS_BRK_RESERVE (32ull << 20)
#define PAGE_DOWN(x) ((x) & ~ISS_PAGE_MASK)
#define PAGE_UP(x) (((x) + ISS_PAGE_MASK) & ~ISS_PAGE_MASK)

/* One ELF file being loaded. */
struct image {
	const char *path;        /* host path, for messages and the object list */
	const uint8_t *e;
	size_t len;
	unsigned type, phnum;
	uint64_t lo, hi;         /* page-aligned start, end of the PT_LOAD span */
	uint64_t first;          /* p_vaddr - p_offset of the first PT_LOAD */
	const char *interp;      /* PT_INTERP string inside e, or NULL */
	/* results */
	uint64_t bias, entry, phdr;
};

/* Check the header of the ELF file path and scan its program headers. All sizes are checked
 * without overflow: a corrupt header gives a message naming path, never a read outside the
 * file. */
static int scan_image(struct iss *s, struct image *im)
{
	const uint8_t *e = im->e;
	size_t len = im->len;
	uint64_t phoff;
	unsigned phentsize, k;
	int have_load = 0;

	if (len < 64 || memcmp(e, "\177ELF", 4) || e[4] != 2 || e[5] != 1)
		return iss__fail(s, "%s: not a 64-bit little-endian ELF file", im->path), -1;
	if (rd16(e + 18) != EM_RISCV)
		return iss__fail(s, "%s: not a RISC-V ELF file (e_machine %u)", im->path,
				 rd16(e + 18)), -1;
	im->type = rd16(e + 16);
	if (im->type != ET_EXEC && im->type != ET_DYN)
		return iss__fail(s, "%s: not an executable (ELF type %u; ET_EXEC or ET_DYN needed)",
				 im->path, im->type), -1;
	phoff = rd64(e + 32);
	phentsize = rd16(e + 54);
	im->phnum = rd16(e + 56);
	im->entry = rd64(e + 24);
	im->interp = NULL;
	if (phentsize < 56 || phoff > len || (uint64_t)im->phnum * phentsize > len - phoff)
		return iss__fail(s, "%s: bad program header table (truncated or corrupt ELF)",
				 im->path), -1;
	for (k = 0; k < im->phnum; k++) {
		const uint8_t *ph = e + phoff + (uint64_t)k * phentsize;
		uint32_t type = rd32(ph);
		uint64_t off = rd64(ph + 8), va = rd64(ph + 16), fsz = rd64(ph + 32), msz = rd64(ph + 40);

		if (type == PT_INTERP) {
			if (off > len || fsz == 0 || fsz > len - off || fsz > ISS_PATH_MAX ||
			    e[off + fsz - 1] != '\0')
				return iss__fail(s, "%s: bad PT_INTERP (corrupt ELF)", im->path), -1;
			im->interp = (const char *)e + off;
		}
		if (type != PT_LOAD || msz == 0)
			continue;
		if (off > len || fsz > len - off || fsz > msz || (off & ISS_PAGE_MASK) != (va & ISS_PAGE_MASK))
			return iss__fail(s, "%s: PT_LOAD segment %u lies outside the file or is "
					 "misaligned (truncated or corrupt ELF)", im->path, k), -1;
		if (msz > ISS_MAX_SEGMENT || va + msz < va || va + msz > (1ull << 47))
			return iss__fail(s, "%s: PT_LOAD segment %u is larger than 1 GiB or lies "
					 "outside the user address space (corrupt ELF?)", im->path, k), -1;
		if (!have_load) {
			im->first = va - off;
			im->lo = PAGE_DOWN(va);
			im->hi = va + msz;
			have_load = 1;
		}
		if (PAGE_DOWN(va) < im->lo)
			im->lo = PAGE_DOWN(va);
		if (va + msz > im->hi)
			im->hi = va + msz;
	}
	if (!have_load)
		return iss__fail(s, "%s: no PT_LOAD segment", im->path), -1;
	im->phdr = im->first + phoff;
	return 0;
}

/* Place and map the PT_LOAD segments of im as QEMU 7.2 does: an ET_DYN image goes where
 * the mmap search puts its span (plus the brk reserve for the main program), the whole
 * span is reserved (gaps stay mapped without access), and each segment maps whole pages
 * of the file, the tail of the last file page zeroed when the segment has bss. Records
 * the executable segments as objects. */
static int map_image(struct iss *s, struct image *im, enum iss_object_kind kind)
{
	const uint8_t *e = im->e, *ph;
	uint64_t phoff = rd64(e + 32), span = PAGE_UP(im->hi) - im->lo, base;
	unsigned phentsize = rd16(e + 54), k;

	im->bias = 0;
	if (im->type == ET_DYN) {
		base = iss__find_vma(s, im->lo, span + (kind == ISS_OBJ_MAIN ? ISS_BRK_RESERVE : 0));
		if (!base)
			return iss__fail(s, "%s: no room for the %llu-byte image", im->path,
					 (unsigned long long)span), -1;
		im->bias = base - im->lo;
	}
	if (iss_mem_map(&s->mem, im->lo + im->bias, span, 0))
		return iss__fail(s, "%s: out of memory loading the image", im->path), -1;
	for (k = 0; k < im->phnum; k++) {
		uint32_t type, flags;
		uint64_t off, va, fsz, msz, po, n;
		unsigned prot = 0;

		ph = e + phoff + (uint64_t)k * phentsize;
		type = rd32(ph);
		flags = rd32(ph + 4);
		off = rd64(ph + 8);
		va = rd64(ph + 16) + im->bias;
		fsz = rd64(ph + 32);
		msz = rd64(ph + 40);
		if (type != PT_LOAD || msz == 0)
			continue;
		if (flags & PF_R) prot |= ISS_PROT_R;
		if (flags & PF_W) prot |= ISS_PROT_W;
		if (flags & PF_X) prot |= ISS_PROT_X;
		po = va & ISS_PAGE_MASK;
		if (iss_mem_map(&s->mem, va - po, po + msz, prot))
			return iss__fail(s, "%s: out of memory loading segment %u", im->path, k), -1;
		if (fsz) {
			n = PAGE_UP(po + fsz);
			if (n > im->len - (off - po))
				n = im->len - (off - po);
			iss_mem_write(&s->mem, va - po, e + off - po, n);
			if (msz > fsz) {
				static const uint8_t zero[ISS_PAGE_SIZE];
				iss_mem_write(&s->mem, va + fsz, zero, PAGE_UP(va + fsz) - (va + fsz));
			}
		}
		if ((flags & PF_X) && iss__add_object(s, im->path, im->bias, va, va + msz, kind))
			return iss__fail(s, "out of memory"), -1;
	}
	im->entry += im->bias;
	im->phdr += im->bias;
	return 0;
}

/* Resolve the absolute guest path p inside root (a host directory, "" for the host root),
 * following symbolic links with absolute targets taken relative to root, as the program
 * would see them on a riscv64 system. Writes root+resolved into out (n bytes) and returns
 * 0 if the file exists, else -1. */
static int resolve_in_root(const char *root, const char *p, char *out, size_t n)
{
	char cur[ISS_PATH_MAX] = "", rest[ISS_PATH_MAX], link[ISS_PATH_MAX], host[3 * ISS_PATH_MAX];
	int links = 0;

	if (snprintf(rest, sizeof(rest), "%s", p) >= (int)sizeof(rest))
		return -1;
	for (;;) {
		char *r = rest, comp[ISS_PATH_MAX];
		size_t l;
		struct stat st;
		ssize_t m;

		while (*r == '/')
			r++;
		if (!*r)
			break;
		l = strcspn(r, "/");
		memcpy(comp, r, l);
		comp[l] = '\0';
		memmove(rest, r + l, strlen(r + l) + 1);
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			char *slash = strrchr(cur, '/');
			if (slash)
				*slash = '\0';
			continue;
		}
		if (strlen(cur) + 1 + l >= sizeof(cur))
			return -1;
		if (snprintf(host, sizeof(host), "%s%s/%s", root, cur, comp) >= (int)sizeof(host) ||
		    lstat(host, &st))
			return -1;
		if (!S_ISLNK(st.st_mode)) {
			strcat(cur, "/");
			strcat(cur, comp);
			continue;
		}
		if (++links > 40 || (m = readlink(host, link, sizeof(link) - 1)) <= 0)
			return -1;
		link[m] = '\0';
		if (strlen(link) + 1 + strlen(rest) >= sizeof(rest))
			return -1;
		memmove(rest + m + 1, rest, strlen(rest) + 1);
		memcpy(rest, link, (size_t)m);
		rest[m] = '/';
		if (link[0] == '/')
			cur[0] = '\0';
	}
	if (snprintf(out, n, "%s%s", root, cur[0] ? cur : "/") >= (int)n)
		return -1;
	return access(out, F_OK);
}

/* Read a whole file into im (e, len) with a message naming path on failure. */
static int read_image(struct iss *s, struct image *im, const char *path)
{
	struct stat st;
	uint8_t *e;

	im->path = path;
	if (!stat(path, &st) && !S_ISREG(st.st_mode))	/* a directory, device or FIFO */
		return iss__fail(s, "%s: not a regular file, not an ELF file", path), -1;
	errno = 0;
	e = slurp(path, &im->len);
	if (!e) {
		int err = errno;

		if (stat(path, &st))
			return iss__fail(s, "%s: cannot open: %s", path, strerror(errno)), -1;
		if (st.st_size == 0)
			return iss__fail(s, "%s: the file is empty, not an ELF file", path), -1;
		return iss__fail(s, "%s: cannot read: %s", path, strerror(err ? err : EIO)), -1;
	}
	im->e = e;
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

/* Map the stack (below it an unmapped guard page) and return its top. */
static uint64_t map_stack(struct iss *s)
{
	const uint64_t guard = ISS_PAGE_SIZE, size = s->cfg.stack_size;
	uint64_t base = iss__find_vma(s, 0, size + guard);

	iss_mem_map(&s->mem, base + guard, size, ISS_PROT_R | ISS_PROT_W);
	return base + guard + size;
}

/* Fill the stack below top and return the initial sp. */
static uint64_t build_stack(struct iss *s, uint64_t top, const char *path, char *const argv[],
			    char *const envp[], const struct image *main, uint64_t interp_base)
{
	uint64_t p, u_rand, u_execfn, u_env, u_arg, sp, words, a;
	size_t argc = count(argv), envc = count(envp), k;
	char *const file[1] = { (char *)path };
	uint64_t aux[17][2], rnd[2];

	p = top - 8;
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
	AUX(AT_PHDR, main->phdr);
	AUX(AT_PHENT, 56);
	AUX(AT_PHNUM, main->phnum);
	AUX(AT_PAGESZ, ISS_PAGE_SIZE);
	AUX(AT_BASE, interp_base);
	AUX(AT_FLAGS, 0);
	AUX(AT_ENTRY, main->entry);
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

/* Find the interpreter named by PT_INTERP: inside the sysroot (symbolic links resolved
 * there), else on the host as QEMU's -L rule would. Writes the host path into out. */
static int find_interp(struct iss *s, const char *prog, const char *interp, char *out, size_t n)
{
	const char *root = s->sysroot[0] ? s->sysroot : "/";
	struct stat st;

	if (interp[0] == '/' && !resolve_in_root(s->sysroot, interp, out, n))
		return 0;
	if (!access(interp, F_OK) && snprintf(out, n, "%s", interp) < (int)n)
		return 0;
	if (stat(root, &st) || !S_ISDIR(st.st_mode))
		return iss__fail(s, "%s: needs the interpreter %s but the sysroot %s does not exist "
				 "(set the sysroot to the riscv64 root, e.g. -L DIR)", prog, interp,
				 root), -1;
	return iss__fail(s, "%s: interpreter %s not found: no %s%s in the sysroot %s (is the "
			 "riscv64 libc installed there?)", prog, interp, s->sysroot, interp, root), -1;
}

int iss__load(struct iss *s, const char *path, char *const argv[], char *const envp[])
{
	struct image main = { 0 }, in = { 0 };
	char interp_path[ISS_PATH_MAX], interp_real[ISS_PATH_MAX];
	uint64_t top;
	int r = -1;

	if (read_image(s, &main, path))
		return -1;
	if (scan_image(s, &main))
		goto out;
	if (!realpath(path, s->exe))
		snprintf(s->exe, sizeof(s->exe), "%s", path);
	main.path = s->exe;
	if (main.interp) {
		if (find_interp(s, path, main.interp, interp_path, sizeof(interp_path)))
			goto out;
		if (!realpath(interp_path, interp_real))
			snprintf(interp_real, sizeof(interp_real), "%s", interp_path);
		if (read_image(s, &in, interp_real))
			goto out;
		if (scan_image(s, &in))
			goto out;
		if (in.interp) {
			iss__fail(s, "%s: the interpreter %s has an interpreter itself", path, interp_real);
			goto out;
		}
	}
	if (map_image(s, &main, ISS_OBJ_MAIN))
		goto out;
	s->brk_start = s->brk_cur = PAGE_UP(main.hi + main.bias);
	top = map_stack(s);
	if (main.interp && map_image(s, &in, ISS_OBJ_INTERP))
		goto out;
	/* QEMU 7.2 maps its signal-trampoline page next; we reserve the same
	 * page (empty: signals are not delivered) so later mmap addresses agree. */
	iss_mem_map(&s->mem, iss__find_vma(s, 0, ISS_PAGE_SIZE), ISS_PAGE_SIZE,
		    ISS_PROT_R | ISS_PROT_X);
	s->x[2] = build_stack(s, top, path, argv, envp, &main, main.interp ? in.lo + in.bias : 0);
	s->pc = main.interp ? in.entry : main.entry;
	r = 0;
out:
	free((void *)main.e);
	free((void *)in.e);
	return r;
}

/* ---- loaded objects ---------------------------------------------------- */

int iss__add_object(struct iss *s, const char *path, uint64_t bias, uint64_t lo,
		    uint64_t hi, enum iss_object_kind kind)
{
	struct iss_objrec *o;

	if (s->nobjs == s->cap_objs) {
		size_t cap = s->cap_objs ? 2 * s->cap_objs : 8;
		struct iss_objrec *n = realloc(s->objs, cap * sizeof(*n));

		if (!n)
			return -1;
		s->objs = n;
		s->cap_objs = cap;
	}
	o = &s->objs[s->nobjs];
	if (!(o->o.path = strdup(path)))
		return -1;
	o->o.bias = bias;
	o->o.exec_lo = lo;
	o->o.exec_hi = hi;
	o->o.kind = kind;
	o->live = 1;
	s->nobjs++;
	return 0;
}

void iss__drop_objects(struct iss *s, uint64_t addr, uint64_t len)
{
	size_t k;

	for (k = 0; k < s->nobjs; k++)
		if (s->objs[k].live && s->objs[k].o.exec_lo < addr + len && addr < s->objs[k].o.exec_hi)
			s->objs[k].live = 0;
}

void iss__map_object(struct iss *s, int fd, uint64_t addr, uint64_t len, uint64_t off)
{
	uint8_t eh[64], ph[56];
	char buf[ISS_PATH_MAX], proc[64];
	const char *path = fd >= 0 && fd < ISS_MAX_FDS ? s->fd_path[fd] : NULL;
	uint64_t phoff;
	unsigned phentsize, phnum, k;
	int found = 0;

	if (!path) {
		ssize_t m;

		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		m = readlink(proc, buf, sizeof(buf) - 1);
		buf[m > 0 ? m : 0] = '\0';
		path = m > 0 ? buf : proc;
	}
	if (pread(fd, eh, sizeof(eh), 0) == (ssize_t)sizeof(eh) && !memcmp(eh, "\177ELF", 4) &&
	    eh[4] == 2 && eh[5] == 1) {
		phoff = rd64(eh + 32);
		phentsize = rd16(eh + 54);
		phnum = rd16(eh + 56);
		for (k = 0; phentsize >= 56 && k < phnum; k++) {
			uint64_t po, va, pf, msz;

			if (pread(fd, ph, sizeof(ph), (off_t)(phoff + (uint64_t)k * phentsize)) !=
			    (ssize_t)sizeof(ph))
				break;
			po = rd64(ph + 8);
			va = rd64(ph + 16);
			pf = rd64(ph + 32);
			msz = rd64(ph + 40);
			/* an executable PT_LOAD whose file bytes this mapping holds */
			if (rd32(ph) != PT_LOAD || !(rd32(ph + 4) & PF_X) || PAGE_DOWN(po) < off ||
			    po + pf > off + PAGE_UP(len))
				continue;
			found = 1;
			iss__add_object(s, path, addr + (po - off) - va, addr + (po - off),
					addr + (po - off) + msz, ISS_OBJ_MAPPED);
		}
	}
	if (!found)	/* not an ELF object: the mapping itself */
		iss__add_object(s, path, addr - off, addr, addr + len, ISS_OBJ_MAPPED);
}

size_t iss_objects(const struct iss *s, struct iss_object *out, size_t n)
{
	size_t k, m = 0;

	for (k = 0; k < s->nobjs; k++) {
		if (!s->objs[k].live)
			continue;
		if (m < n)
			out[m] = s->objs[k].o;
		m++;
	}
	return m;
}

int iss_object_at(const struct iss *s, uint64_t addr, struct iss_object *out)
{
	size_t k;

	for (k = s->nobjs; k-- > 0;) {
		if (s->objs[k].live && addr >= s->objs[k].o.exec_lo && addr < s->objs[k].o.exec_hi) {
			if (out)
				*out = s->objs[k].o;
			return 1;
		}
	}
	return 0;
}
