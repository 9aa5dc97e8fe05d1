/* SPDX-License-Identifier: Apache-2.0 */
/* Code map of a RISC-V ELF: functions from .symtab (.dynsym when stripped), basic blocks from decoding every
 * executable section with the project's RV64GC decoder (contracts in code_map.h). */
#include "code_map.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rv_isa.h"

/* Growable array of addresses. */
struct addrs {
	uint64_t *v;
	size_t n, cap;
};

static int addrs_push(struct addrs *a, uint64_t x)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 4096;
		uint64_t *v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			return -1;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = x;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_range(const void *a, const void *b)
{
	const struct code_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int fail(char *err, size_t errlen, const char *path, const char *what)
{
	snprintf(err, errlen, "%s: %s", path, what);
	return -1;
}

/* Read the whole file. */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	struct stat st;
	long size;

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {	/* ftell means nothing */
		fclose(f);
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)size)) && fread(buf, 1, (size_t)size, f) == (size_t)size) {
		*len = (size_t)size;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int code_map_load(struct code_map *m, const char *path, char *err, size_t errlen)
{
	struct addrs lead = { 0 };
	size_t len = 0, nsym = 0, strsz = 0;
	uint8_t *buf = slurp(path, &len);
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh, *symsh = NULL, *dynsh = NULL;
	const Elf64_Sym *sym = NULL;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	if (!buf) {
		struct stat st;

		if (stat(path, &st))
			snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		else if (!S_ISREG(st.st_mode))
			fail(err, errlen, path, "not a regular file, not an ELF file");
		else if (st.st_size == 0)
			fail(err, errlen, path, "the file is empty, not an ELF file");
		else
			fail(err, errlen, path, "cannot read the file");
		return -1;
	}
	eh = (const Elf64_Ehdr *)buf;
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB) {
		fail(err, errlen, path, "not a 64-bit little-endian ELF file");
		goto out;
	}
	if (eh->e_machine != EM_RISCV) {
		fail(err, errlen, path, "not a RISC-V ELF file");
		goto out;
	}
	if (eh->e_shoff > len || eh->e_shoff % 8 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shnum > (len - eh->e_shoff) / sizeof(Elf64_Shdr)) {
		fail(err, errlen, path, "section headers outside the file (truncated or corrupt ELF)");
		goto out;
	}
	sh = (const Elf64_Shdr *)(buf + eh->e_shoff);
	m->text_lo = UINT64_MAX;
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type == SHT_SYMTAB)
			symsh = &sh[i];
		if (sh[i].sh_type == SHT_DYNSYM && !dynsh)
			dynsh = &sh[i];
		if (sh[i].sh_type != SHT_PROGBITS || !(sh[i].sh_flags & SHF_EXECINSTR))
			continue;
		if (sh[i].sh_offset > len || sh[i].sh_size > len - sh[i].sh_offset) {
			fail(err, errlen, path, "an executable section lies outside the file (truncated or corrupt ELF)");
			goto out;
		}
		/* Decode the section: leaders after every control transfer and at static targets. */
		const uint8_t *code = buf + sh[i].sh_offset;
		uint64_t pc = sh[i].sh_addr, end = sh[i].sh_addr + sh[i].sh_size;

		if (pc < m->text_lo)
			m->text_lo = pc;
		if (end > m->text_hi)
			m->text_hi = end;
		if (addrs_push(&lead, pc))
			goto nomem;
		while (pc < end) {
			struct rv_insn in;
			int n = rv_decode(code + (pc - sh[i].sh_addr), (size_t)(end - pc), pc, &in);

			if (n <= 0) {
				pc += 2; /* data or padding: resynchronise at the next halfword */
				continue;
			}
			if (rv_is_control(&in)) {
				if (addrs_push(&lead, pc + (uint64_t)n))
					goto nomem;
				if (rv_has_target(&in) && addrs_push(&lead, in.target))
					goto nomem;
			}
			pc += (uint64_t)n;
		}
	}
	if (!symsh)	/* a stripped shared object: its dynamic symbols */
		symsh = dynsh;
	if (symsh) {
		const Elf64_Shdr *strsh;

		if (symsh->sh_link >= eh->e_shnum || symsh->sh_offset > len ||
		    symsh->sh_offset % 8 || symsh->sh_size > len - symsh->sh_offset) {
			fail(err, errlen, path, "symbol table outside the file (truncated or corrupt ELF)");
			goto out;
		}
		strsh = &sh[symsh->sh_link];
		if (strsh->sh_offset > len || strsh->sh_size > len - strsh->sh_offset) {
			fail(err, errlen, path, "string table outside the file (truncated or corrupt ELF)");
			goto out;
		}
		sym = (const Elf64_Sym *)(buf + symsh->sh_offset);
		nsym = symsh->sh_size / sizeof(Elf64_Sym);
		strsz = strsh->sh_size;
		m->strtab = malloc(strsz + 1);
		m->func = calloc(nsym ? nsym : 1, sizeof(*m->func));
		if (!m->strtab || !m->func)
			goto nomem;
		memcpy(m->strtab, buf + strsh->sh_offset, strsz);
		m->strtab[strsz] = '\0';
		for (size_t k = 0; k < nsym; k++) {
			if (ELF64_ST_TYPE(sym[k].st_info) != STT_FUNC || !sym[k].st_size ||
			    sym[k].st_name >= strsz)
				continue;
			m->func[m->nfunc].start = sym[k].st_value;
			m->func[m->nfunc].end = sym[k].st_value + sym[k].st_size;
			m->func[m->nfunc].name = m->strtab + sym[k].st_name;
			m->nfunc++;
			if (addrs_push(&lead, sym[k].st_value))
				goto nomem;
		}
		qsort(m->func, m->nfunc, sizeof(*m->func), cmp_range);
	}
	if (lead.n)	/* no code and no functions: lead.v is NULL, which qsort may not get */
		qsort(lead.v, lead.n, sizeof(*lead.v), cmp_u64);
	for (size_t k = 0; k < lead.n; k++)
		if (!m->nleader || lead.v[k] != lead.v[m->nleader - 1])
			lead.v[m->nleader++] = lead.v[k];
	m->leader = lead.v;
	lead.v = NULL;
	rc = 0;
	goto out;
nomem:
	fail(err, errlen, path, "out of memory");
out:
	free(lead.v);
	free(buf);
	if (rc)
		code_map_free(m);
	return rc;
}

void code_map_free(struct code_map *m)
{
	free(m->func);
	free(m->leader);
	free(m->strtab);
	memset(m, 0, sizeof(*m));
}

long code_map_func(const struct code_map *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nfunc;

	while (lo < hi) { /* last function starting at or before addr */
		size_t mid = (lo + hi) / 2;

		if (m->func[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* symbols may nest or alias: look back over a few candidates */
	for (size_t k = lo; k-- > 0 && lo - k <= 8;)
		if (addr < m->func[k].end)
			return (long)k;
	return -1;
}

uint64_t code_map_block(const struct code_map *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nleader;

	if (addr < m->text_lo || addr >= m->text_hi)
		return addr;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (m->leader[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? m->leader[lo - 1] : addr;
}

uint64_t code_map_key(const struct code_map *m, uint64_t addr, enum code_level level)
{
	long f;

	switch (level) {
	case LEVEL_BLOCK:
		return code_map_block(m, addr);
	case LEVEL_FUNCTION:
		f = code_map_func(m, addr);
		return f < 0 ? CODE_MAP_UNKNOWN : m->func[f].start;
	case LEVEL_INSTRUCTION:
	default:
		return addr;
	}
}
