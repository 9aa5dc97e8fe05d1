/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_rseq.c - restartable-sequence critical sections of the loaded objects (lbr_trace.h).
 *
 * A program (or a library such as librseq, tcmalloc) that uses rseq describes each critical
 * section with a `struct rseq_cs` {u32 version, u32 flags, u64 start_ip, u64
 * post_commit_offset, u64 abort_ip}; by convention the descriptors are emitted into an ELF
 * section `__rseq_cs` and pointers to them into `__rseq_cs_ptr_array`. If the thread is
 * preempted, migrated or signalled while its IP is in [start_ip, start_ip +
 * post_commit_offset), the kernel moves the IP to abort_ip: a discontinuity no branch record
 * shows, and a breakpoint stop inside the section would abort it on every attempt.
 *
 * For every object dl_iterate_phdr reports, the section headers are read from its file (the
 * main program through /proc/self/exe), and the descriptors are read from the object's
 * *memory* (dlpi_addr + sh_addr), where the dynamic loader has already relocated them (on
 * disk a PIE's pointers may be 0 with the value in a RELATIVE relocation). Memory reads go
 * through lbr_isa_read, so a bogus section cannot fault. Runs at session start (not in a
 * signal handler: it opens files). Code loaded later with dlopen is not scanned. */
#define _GNU_SOURCE
#include "lbr_trace.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct rseq_scan {
	struct lbr_range *out;
	int max, n, first;
};

static int pread_all(int fd, void *buf, size_t len, off_t off)
{
	return pread(fd, buf, len, off) == (ssize_t)len ? 0 : -1;
}

static void add_cs(struct rseq_scan *s, uint64_t desc)
{
	uint64_t f[4]; /* {version, flags}, start_ip, post_commit_offset, abort_ip */
	if (s->n >= s->max || lbr_isa_read(f, desc, sizeof(f)) < 0)
		return;
	uint64_t start = f[1], len = f[2];
	if (start == 0 || len == 0 || len > (1u << 20) || start + len < start)
		return;
	s->out[s->n].start = start;
	s->out[s->n].end = start + len;
	s->n++;
}

/* Scan one loaded object's file for the rseq sections. */
static void scan_object(struct rseq_scan *s, const char *path, uint64_t bias)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	Elf64_Ehdr eh;
	Elf64_Shdr *sh = NULL;
	char *names = NULL;
	if (pread_all(fd, &eh, sizeof(eh), 0) < 0 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_shnum == 0 || eh.e_shnum > 4096 || eh.e_shstrndx >= eh.e_shnum)
		goto out;
	sh = malloc(sizeof(*sh) * eh.e_shnum);
	if (!sh || pread_all(fd, sh, sizeof(*sh) * eh.e_shnum, (off_t)eh.e_shoff) < 0)
		goto out;
	const Elf64_Shdr *str = &sh[eh.e_shstrndx];
	if (str->sh_size == 0 || str->sh_size > (1u << 24))
		goto out;
	names = malloc(str->sh_size + 1);
	if (!names || pread_all(fd, names, str->sh_size, (off_t)str->sh_offset) < 0)
		goto out;
	names[str->sh_size] = 0;
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		if (sh[i].sh_name >= str->sh_size || !(sh[i].sh_flags & SHF_ALLOC) ||
		    sh[i].sh_type == SHT_NOBITS)
			continue;
		const char *nm = names + sh[i].sh_name;
		uint64_t a = bias + sh[i].sh_addr;
		if (strcmp(nm, "__rseq_cs") == 0) {
			for (uint64_t o = 0; o + 32 <= sh[i].sh_size; o += 32)
				add_cs(s, a + o);
		} else if (strcmp(nm, "__rseq_cs_ptr_array") == 0) {
			for (uint64_t o = 0; o + 8 <= sh[i].sh_size; o += 8) {
				uint64_t p;
				if (lbr_isa_read(&p, a + o, 8) == 0)
					add_cs(s, p);
			}
		}
	}
out:
	free(names);
	free(sh);
	close(fd);
}

static int scan_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct rseq_scan *s = data;
	const char *path = info->dlpi_name;
	if (s->first)
		path = "/proc/self/exe"; /* the main program (its name is "") */
	s->first = 0;
	if (path && path[0] == '/')
		scan_object(s, path, info->dlpi_addr);
	return 0;
}

static int cmp_range(const void *a, const void *b)
{
	const struct lbr_range *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

int lbr_rseq_scan(struct lbr_range *out, int max)
{
	struct rseq_scan s = { out, max, 0, 1 };
	dl_iterate_phdr(scan_cb, &s);
	if (s.n == 0)
		return 0;
	qsort(out, (size_t)s.n, sizeof(*out), cmp_range);
	int m = 0; /* merge overlaps and duplicates (both sections name the same descriptors) */
	for (int i = 0; i < s.n; i++) {
		if (m && out[i].start <= out[m - 1].end) {
			if (out[i].end > out[m - 1].end)
				out[m - 1].end = out[i].end;
		} else {
			out[m++] = out[i];
		}
	}
	return m;
}
