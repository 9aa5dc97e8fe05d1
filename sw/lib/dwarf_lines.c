/* SPDX-License-Identifier: Apache-2.0 */
/* dwarf_lines.c - DWARF source positions and inline stacks (contract in dwarf_lines.h). */
#include "dwarf_lines.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef DW_AT_GNU_discriminator
#define DW_AT_GNU_discriminator 0x2136
#endif

struct dwl {
	int fd;
	Dwarf *dbg;
	Dwarf_Die *cus;     /* every compilation unit (for files without .debug_aranges) */
	size_t ncus;
};

/* The unit containing addr: .debug_aranges when present (dwarf_addrdie), else the units'
 * own ranges (clang emits no .debug_aranges by default). */
static int find_cu(struct dwl *dw, uint64_t addr, Dwarf_Die *cu)
{
	if (dwarf_addrdie(dw->dbg, addr, cu))
		return 0;
	for (size_t i = 0; i < dw->ncus; i++)
		if (dwarf_haspc(&dw->cus[i], addr) > 0) {
			*cu = dw->cus[i];
			return 0;
		}
	return -1;
}

static void list_cus(struct dwl *dw)
{
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0;
	while (dwarf_nextcu(dw->dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die die;
		if (dwarf_offdie(dw->dbg, off + hsize, &die)) {
			if (dw->ncus == cap) {
				size_t nc = cap ? cap * 2 : 16;
				Dwarf_Die *n = realloc(dw->cus, nc * sizeof(*n));
				if (!n)
					return; /* fewer units: fewer lines, not an error */
				dw->cus = n;
				cap = nc;
			}
			dw->cus[dw->ncus++] = die;
		}
		off = next;
	}
}

struct dwl *dwl_open(const char *path, char *err, size_t errlen)
{
	struct dwl *dw = calloc(1, sizeof(*dw));
	if (!dw) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	dw->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (dw->fd < 0) {
		snprintf(err, errlen, "cannot open %s", path);
		free(dw);
		return NULL;
	}
	dw->dbg = dwarf_begin(dw->fd, DWARF_C_READ);
	if (!dw->dbg) {
		snprintf(err, errlen, "%s has no usable DWARF (%s); rebuild it with -g", path,
			 dwarf_errmsg(-1));
		close(dw->fd);
		free(dw);
		return NULL;
	}
	list_cus(dw);
	if (!dw->ncus) {
		snprintf(err, errlen, "%s has no DWARF compilation unit (built without -g, or "
			 "stripped?)", path);
		dwl_close(dw);
		return NULL;
	}
	return dw;
}

void dwl_close(struct dwl *dw)
{
	if (!dw)
		return;
	dwarf_end(dw->dbg);
	free(dw->cus);
	close(dw->fd);
	free(dw);
}

/* LLVM's base discriminator (DILocation::getBaseDiscriminatorFromDiscriminator). */
static unsigned llvm_base_discr(unsigned d)
{
	if (d & 1)
		return 0;
	d >>= 1;
	return (d & 0x20) ? (((d >> 1) & 0xfe0) | (d & 0x1f)) : (d & 0x1f);
}

static int is_clang(Dwarf_Die *cu)
{
	Dwarf_Attribute at;
	const char *p = dwarf_formstring(dwarf_attr(cu, DW_AT_producer, &at));
	return p && strstr(p, "clang") != NULL;
}

static const char *func_name(Dwarf_Die *die)
{
	Dwarf_Attribute at;
	const char *n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &at));
	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at));
	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &at));
	return n;
}

static unsigned udata(Dwarf_Die *die, unsigned name)
{
	Dwarf_Attribute at;
	Dwarf_Word w;
	if (dwarf_attr(die, name, &at) && dwarf_formudata(&at, &w) == 0)
		return (unsigned)w;
	return 0;
}

/* The function DIEs physically containing pc under parent, outermost first, appended to
 * fs (the out-of-line subprogram, then each inlined_subroutine). dwarf_getscopes is not
 * used: past an inlined instance it follows the abstract origin, not the caller. Returns 1
 * when a containing function was found. */
static int descend(Dwarf_Die *parent, uint64_t pc, Dwarf_Die *fs, int *nf, int max)
{
	Dwarf_Die child;
	if (dwarf_child(parent, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_namespace || tag == DW_TAG_module || tag == DW_TAG_class_type ||
		    tag == DW_TAG_structure_type) {
			if (descend(&child, pc, fs, nf, max))
				return 1;
		} else if ((tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
			    tag == DW_TAG_lexical_block) && dwarf_haspc(&child, pc) > 0) {
			if (tag != DW_TAG_lexical_block) {
				if (*nf >= max)
					return 1;
				fs[(*nf)++] = child;
			}
			descend(&child, pc, fs, nf, max);
			return 1;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

int dwl_frames(struct dwl *dw, uint64_t vaddr, struct dwl_frame *fr, int max)
{
	Dwarf_Die cu;
	if (find_cu(dw, vaddr, &cu) < 0)
		return 0;
	Dwarf_Line *l = dwarf_getsrc_die(&cu, vaddr);
	int line;
	unsigned discr = 0;
	if (!l || dwarf_lineno(l, &line) != 0 || line <= 0)
		return 0;
	dwarf_linediscriminator(l, &discr);
	int clang = is_clang(&cu);
	Dwarf_Die fs[DWL_MAX_FRAMES];
	int nf = 0;
	if (!descend(&cu, vaddr, fs, &nf, DWL_MAX_FRAMES) || nf == 0 || nf > max)
		return 0;
	/* Frame k's line is the call line of frame k+1, or the code's line for the last. */
	for (int k = 0; k < nf; k++) {
		fr[k].name = func_name(&fs[k]);
		int dl = 0;
		fr[k].decl_line = dwarf_decl_line(&fs[k], &dl) == 0 ? dl : 0;
		if (k == nf - 1) {
			fr[k].line = line;
			fr[k].discr = discr;
		} else {
			fr[k].line = (int)udata(&fs[k + 1], DW_AT_call_line);
			fr[k].discr = udata(&fs[k + 1], DW_AT_GNU_discriminator);
		}
		if (clang)
			fr[k].discr = llvm_base_discr(fr[k].discr);
		fr[k].clang = clang;
		if (!fr[k].name)
			return 0;
	}
	return nf;
}

void dwl_rows(struct dwl *dw, uint64_t begin, uint64_t end,
		    void (*fn)(void *arg, uint64_t a), void *arg)
{
	fn(arg, begin);
	Dwarf_Die cu;
	Dwarf_Lines *lines;
	size_t n;
	if (find_cu(dw, begin, &cu) < 0 || dwarf_getsrclines(&cu, &lines, &n) != 0)
		return;
	/* Rows are sorted by address: the first above begin, then up to end. */
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		Dwarf_Addr a = 0;
		dwarf_lineaddr(dwarf_onesrcline(lines, mid), &a);
		if (a <= begin)
			lo = mid + 1;
		else
			hi = mid;
	}
	uint64_t last = begin;
	for (size_t i = lo; i < n; i++) {
		Dwarf_Addr a = 0;
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		dwarf_lineaddr(l, &a);
		if (a > end)
			break;
		bool eseq = false;
		dwarf_lineendsequence(l, &eseq);
		if (a != last && !eseq) {
			fn(arg, a);
			last = a;
		}
	}
}
