/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vcd_defs.c - the declaration list shared by the VCD writer and the ring:
 * validates scope and signal names, widths and nesting, and lays every
 * signal's value out in a frame of 64-bit words. No I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "vcd_int.h"

/* Grow *p (of *cap elements of size sz) to hold at least need elements.
 * 0 or VCD_ENOMEM (then *p is unchanged). */
static int grow(void **p, size_t *cap, size_t need, size_t sz)
{
	size_t n;
	void *q;

	if (need <= *cap)
		return 0;
	n = *cap ? *cap * 2 : 16;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * sz);
	if (!q)
		return VCD_ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

/* A name is 1..255 printable ASCII characters other than space (VCD tokens
 * are whitespace-separated, so a space would split it). 1 if ok. */
static int name_ok(const char *name)
{
	size_t n = 0;

	if (!name || !*name)
		return 0;
	for (; name[n]; n++)
		if (name[n] < 33 || name[n] > 126 || n >= 255)
			return 0;
	return 1;
}

/* Append an item, taking a copy of name (may be NULL). 0 or VCD_ENOMEM. */
static int add_item(struct vcd_defs *d, enum vcd_item_kind kind,
		    const char *name, int sig)
{
	char *copy = NULL;
	int err;

	err = grow((void **)&d->items, &d->cap_items, d->nitems + 1, sizeof(*d->items));
	if (err)
		return err;
	if (name) {
		copy = strdup(name);
		if (!copy)
			return VCD_ENOMEM;
	}
	d->items[d->nitems].kind = kind;
	d->items[d->nitems].name = copy;
	d->items[d->nitems].sig = sig;
	d->nitems++;
	return 0;
}

int vcd_defs_scope_begin(struct vcd_defs *d, const char *name)
{
	size_t cap;
	int err;

	if (!d || !name_ok(name))
		return VCD_EINVAL;
	if (d->ended)
		return VCD_ESTATE;
	cap = (size_t)d->cap_depth;
	err = grow((void **)&d->stack, &cap, (size_t)d->depth + 1, sizeof(*d->stack));
	if (err)
		return err;
	d->cap_depth = (int)cap;
	err = add_item(d, VCD_ITEM_SCOPE_BEGIN, name, -1);
	if (err)
		return err;
	d->stack[d->depth++] = d->nscopes++;
	return 0;
}

int vcd_defs_scope_end(struct vcd_defs *d)
{
	int err;

	if (!d)
		return VCD_EINVAL;
	if (d->ended || d->depth == 0)
		return VCD_ESTATE;
	err = add_item(d, VCD_ITEM_SCOPE_END, NULL, -1);
	if (err)
		return err;
	d->depth--;
	return 0;
}

int vcd_defs_signal(struct vcd_defs *d, const char *name, unsigned width)
{
	struct vcd_sig *s;
	int scope, i, err;

	if (!d || !name_ok(name) || width < 1 || width > VCD_MAX_WIDTH)
		return VCD_EINVAL;
	if (d->ended || d->depth == 0)
		return VCD_ESTATE;
	scope = d->stack[d->depth - 1];
	/* Linear: declarations are made once, before the run. */
	for (i = 0; i < d->nsigs; i++)
		if (d->sigs[i].scope == scope && strcmp(d->sigs[i].name, name) == 0)
			return VCD_EDUP;
	err = grow((void **)&d->sigs, &d->cap_sigs, (size_t)d->nsigs + 1, sizeof(*d->sigs));
	if (err)
		return err;
	err = add_item(d, VCD_ITEM_SIGNAL, name, d->nsigs);
	if (err)
		return err;
	s = &d->sigs[d->nsigs];
	s->width = width;
	s->nwords = (width + 63) / 64;
	s->off = d->frame_words;
	s->scope = scope;
	s->name = d->items[d->nitems - 1].name;
	d->frame_words += s->nwords;
	return d->nsigs++;
}

int vcd_defs_end(struct vcd_defs *d)
{
	if (!d)
		return VCD_EINVAL;
	if (d->ended || d->depth != 0 || d->nsigs == 0)
		return VCD_ESTATE;
	d->ended = 1;
	return 0;
}

void vcd_defs_free(struct vcd_defs *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->nitems; i++)
		free(d->items[i].name);
	free(d->items);
	free(d->sigs);
	free(d->stack);
	memset(d, 0, sizeof(*d));
}

int vcd_defs_check_bits(const struct vcd_defs *d, int sig,
			const uint64_t *words, unsigned width)
{
	const struct vcd_sig *s;
	unsigned top;

	if (!d || sig < 0 || sig >= d->nsigs || !words)
		return VCD_EINVAL;
	s = &d->sigs[sig];
	if (width != s->width)
		return VCD_EINVAL;
	top = width % 64;
	if (top && (words[s->nwords - 1] >> top) != 0)
		return VCD_ERANGE;
	return 0;
}

int vcd_defs_check_u64(const struct vcd_defs *d, int sig, uint64_t value)
{
	unsigned width;

	if (!d || sig < 0 || sig >= d->nsigs)
		return VCD_EINVAL;
	width = d->sigs[sig].width;
	if (width < 64 && (value >> width) != 0)
		return VCD_ERANGE;
	return 0;
}

int vcd_timescale_norm(const char *ts, char out[16])
{
	static const char *const units[] = { "s", "ms", "us", "ns", "ps", "fs" };
	const char *num, *unit;
	size_t i;

	if (!ts)
		return VCD_EINVAL;
	if (strncmp(ts, "100", 3) == 0)
		num = "100";
	else if (strncmp(ts, "10", 2) == 0)
		num = "10";
	else if (strncmp(ts, "1", 1) == 0)
		num = "1";
	else
		return VCD_EINVAL;
	unit = ts + strlen(num);
	if (*unit == ' ')
		unit++;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(unit, units[i]) == 0) {
			strcpy(out, num);
			strcat(out, units[i]);
			return 0;
		}
	}
	return VCD_EINVAL;
}
