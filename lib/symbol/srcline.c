/* SPDX-License-Identifier: Apache-2.0 */
/*
 * srcline.c - DWARF line lookup via libdw (contract in srcline.h).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "srcline.h"

struct srcline {
	int fd;		/* the ELF, open while dbg lives */
	Dwarf *dbg;	/* libdw handle */
	char path[4096];	/* the last file name returned, made absolute */
};

/* Contract in srcline.h. */
struct srcline *srcline_open(const char *path, char *err, size_t errlen)
{
	struct srcline *sl = calloc(1, sizeof(*sl));

	if (!sl) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	sl->fd = open(path, O_RDONLY);
	if (sl->fd < 0) {
		snprintf(err, errlen, "cannot open %s", path);
		free(sl);
		return NULL;
	}
	sl->dbg = dwarf_begin(sl->fd, DWARF_C_READ);
	if (!sl->dbg) {
		snprintf(err, errlen, "%s has no usable DWARF (%s); rebuild it with -g",
			 path, dwarf_errmsg(-1));
		close(sl->fd);
		free(sl);
		return NULL;
	}
	return sl;
}

/* Contract in srcline.h. */
int srcline_find(struct srcline *sl, uint64_t addr, const char **file, int *line)
{
	Dwarf_Die cu;
	Dwarf_Line *l;
	Dwarf_Attribute at;
	const char *f, *dir;

	if (!sl || !dwarf_addrdie(sl->dbg, (Dwarf_Addr)addr, &cu))
		return -1;
	l = dwarf_getsrc_die(&cu, (Dwarf_Addr)addr);
	if (!l || dwarf_lineno(l, line) != 0)
		return -1;
	f = dwarf_linesrc(l, NULL, NULL);
	if (!f)
		return -1;
	/* a relative name is relative to the compilation directory */
	dir = f[0] == '/' ? NULL : dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &at));
	if (dir)
		snprintf(sl->path, sizeof(sl->path), "%s/%s", dir, f);
	else
		snprintf(sl->path, sizeof(sl->path), "%s", f);
	*file = sl->path;
	return 0;
}

/* Contract in srcline.h. */
void srcline_close(struct srcline *sl)
{
	if (!sl)
		return;
	dwarf_end(sl->dbg);
	close(sl->fd);
	free(sl);
}
