/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_sym.c - ELF symbolization of recorded addresses (contract in lbr_sym.h). */
#include "lbr_sym.h"

#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp_func(const void *a, const void *b)
{
	const struct lbr_func *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->size < y->size) - (x->size > y->size); /* sized first */
}

/* Function symbols of one symbol table section into o (appended). */
static int read_symtab(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct lbr_obj *o)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	if (!data || sh->sh_entsize == 0)
		return 0;
	size_t n = sh->sh_size / sh->sh_entsize, cnt = 0, bytes = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		if (!gelf_getsym(data, (int)i, &s))
			continue;
		int t = GELF_ST_TYPE(s.st_info);
		if ((t != STT_FUNC && t != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF || !s.st_value)
			continue;
		const char *nm = elf_strptr(elf, sh->sh_link, s.st_name);
		if (!nm || !*nm)
			continue;
		cnt++;
		bytes += strlen(nm) + 1;
	}
	if (!cnt)
		return 0;
	o->funcs = malloc(cnt * sizeof(*o->funcs));
	o->strs = malloc(bytes);
	if (!o->funcs || !o->strs)
		return -1;
	char *p = o->strs;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		if (!gelf_getsym(data, (int)i, &s))
			continue;
		int t = GELF_ST_TYPE(s.st_info);
		if ((t != STT_FUNC && t != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF || !s.st_value)
			continue;
		const char *nm = elf_strptr(elf, sh->sh_link, s.st_name);
		if (!nm || !*nm)
			continue;
		size_t l = strlen(nm) + 1;
		memcpy(p, nm, l);
		o->funcs[o->nfuncs++] = (struct lbr_func){ s.st_value, s.st_size, p };
		p += l;
	}
	qsort(o->funcs, o->nfuncs, sizeof(*o->funcs), cmp_func);
	/* One symbol per address (aliases: keep the first, a sized one). */
	size_t w = 0;
	for (size_t i = 0; i < o->nfuncs; i++)
		if (w == 0 || o->funcs[w - 1].addr != o->funcs[i].addr)
			o->funcs[w++] = o->funcs[i];
	o->nfuncs = w;
	return 0;
}

static void read_build_id(Elf *elf, struct lbr_obj *o)
{
	size_t n;
	if (elf_getphdrnum(elf, &n) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		Elf_Data *data = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR);
		if (!data)
			continue;
		size_t off = 0, name_off, desc_off;
		GElf_Nhdr nh;
		while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp((char *)data->d_buf + name_off, "GNU", 4) == 0 &&
			    nh.n_descsz > 0 && nh.n_descsz <= sizeof(o->build_id)) {
				memcpy(o->build_id, (char *)data->d_buf + desc_off, nh.n_descsz);
				o->build_id_len = nh.n_descsz;
				return;
			}
		}
	}
}

static int open_obj(struct lbr_obj *o)
{
	int fd = open(o->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0; /* gone or unreadable: addresses stay unresolved */
	struct stat sb;
	if (fstat(fd, &sb) == 0) {
		o->dev = sb.st_dev;
		o->ino = sb.st_ino;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	int rc = 0;
	size_t n, shstr;
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &n) != 0 ||
	    elf_getshdrstrndx(elf, &shstr) != 0)
		goto out;
	o->loads = calloc(n ? n : 1, sizeof(*o->loads));
	if (!o->loads) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (o->nloads == 0)
			o->base = ph.p_vaddr;
		o->loads[o->nloads++] = (struct lbr_load){ ph.p_offset, ph.p_filesz, ph.p_vaddr };
	}
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	GElf_Shdr sh_sym, sh_dyn, sh;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *nm = elf_strptr(elf, shstr, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB) {
			symtab = scn;
			sh_sym = sh;
		} else if (sh.sh_type == SHT_DYNSYM) {
			dynsym = scn;
			sh_dyn = sh;
		} else if (nm && strcmp(nm, ".debug_info") == 0) {
			o->has_dwarf = 1;
		}
	}
	if (symtab)
		rc = read_symtab(elf, symtab, &sh_sym, o);
	else if (dynsym)
		rc = read_symtab(elf, dynsym, &sh_dyn, o);
	read_build_id(elf, o);
	o->elf_ok = 1;
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return rc;
}

int lbr_sym_init(struct lbr_symtab *st, const struct lbr_data *d, char *err, size_t errlen)
{
	memset(st, 0, sizeof(*st));
	st->d = d;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "libelf is unusable: %s", elf_errmsg(-1));
		return -1;
	}
	st->mmap_obj = malloc((d->nmmaps ? d->nmmaps : 1) * sizeof(int));
	st->objs = calloc(d->nmmaps ? d->nmmaps : 1, sizeof(*st->objs));
	if (!st->mmap_obj || !st->objs)
		goto oom;
	for (size_t i = 0; i < d->nmmaps; i++) {
		const char *p = d->mmaps[i].m.path;
		st->mmap_obj[i] = -1;
		if (p[0] != '/')
			continue; /* [vdso], [vsyscall], anonymous */
		size_t k;
		for (k = 0; k < st->nobjs; k++)
			if (strcmp(st->objs[k].path, p) == 0)
				break;
		if (k == st->nobjs) {
			snprintf(st->objs[k].path, sizeof(st->objs[k].path), "%s", p);
			st->nobjs++;
			if (open_obj(&st->objs[k]) < 0)
				goto oom;
		}
		st->mmap_obj[i] = (int)k;
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory reading symbols");
	lbr_sym_free(st);
	return -1;
}

void lbr_sym_free(struct lbr_symtab *st)
{
	for (size_t i = 0; i < st->nobjs; i++) {
		free(st->objs[i].funcs);
		free(st->objs[i].strs);
		free(st->objs[i].loads);
	}
	free(st->objs);
	free(st->mmap_obj);
	memset(st, 0, sizeof(*st));
}

struct lbr_loc lbr_sym_resolve(const struct lbr_symtab *st, size_t sess, uint64_t addr)
{
	struct lbr_loc l = { -1, addr };
	const struct lbr_data *d = st->d;
	for (size_t i = 0; i < d->nmmaps; i++) {
		const struct lbr_data_mmap *m = &d->mmaps[i];
		if (m->sess != sess || addr < m->m.start || addr >= m->m.end)
			continue;
		int k = st->mmap_obj[i];
		if (k < 0 || !st->objs[k].elf_ok)
			return l;
		const struct lbr_obj *o = &st->objs[k];
		uint64_t off = addr - m->m.start + m->m.pgoff;
		for (size_t j = 0; j < o->nloads; j++)
			if (off >= o->loads[j].off && off < o->loads[j].off + o->loads[j].filesz) {
				l.obj = k;
				l.vaddr = off - o->loads[j].off + o->loads[j].vaddr;
				return l;
			}
		return l;
	}
	return l;
}

const struct lbr_func *lbr_sym_func(const struct lbr_obj *o, uint64_t vaddr)
{
	size_t lo = 0, hi = o->nfuncs;
	while (lo < hi) { /* first function above vaddr */
		size_t mid = (lo + hi) / 2;
		if (o->funcs[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct lbr_func *f = &o->funcs[lo - 1];
	if (f->size && vaddr >= f->addr + f->size)
		return NULL;
	return f;
}

const struct lbr_func *lbr_sym_func_at(const struct lbr_obj *o, uint64_t vaddr)
{
	const struct lbr_func *f = lbr_sym_func(o, vaddr);
	return f && f->addr == vaddr ? f : NULL;
}

void lbr_sym_format(const struct lbr_symtab *st, struct lbr_loc l, char *buf, size_t n)
{
	if (l.obj < 0) {
		snprintf(buf, n, "0x%" PRIx64, l.vaddr);
		return;
	}
	const struct lbr_obj *o = &st->objs[l.obj];
	const struct lbr_func *f = lbr_sym_func(o, l.vaddr);
	if (f) {
		snprintf(buf, n, "%s+0x%" PRIx64, f->name, l.vaddr - f->addr);
		return;
	}
	const char *base = strrchr(o->path, '/');
	snprintf(buf, n, "%s+0x%" PRIx64, base ? base + 1 : o->path, l.vaddr - o->base);
}

int lbr_sym_find_obj(const struct lbr_symtab *st, const char *path)
{
	struct stat sb;
	int have = stat(path, &sb) == 0;
	for (size_t i = 0; i < st->nobjs; i++) {
		const struct lbr_obj *o = &st->objs[i];
		if (have && o->elf_ok && o->dev == sb.st_dev && o->ino == sb.st_ino)
			return (int)i;
		if (strcmp(o->path, path) == 0)
			return (int)i;
	}
	return -1;
}
