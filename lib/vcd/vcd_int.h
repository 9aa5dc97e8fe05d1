/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vcd_int.h - library-internal parts shared by the VCD writer and the ring:
 * the declaration list (scopes and signals with their value layout), name
 * and timescale checks, and value validation. Not installed; not for users.
 */
#ifndef TIPROF_VCD_INT_H
#define TIPROF_VCD_INT_H

#include <stddef.h>
#include <stdint.h>

#include "vcd.h"

/* Kinds of declaration item, in the order the user made them. */
enum vcd_item_kind {
	VCD_ITEM_SCOPE_BEGIN,
	VCD_ITEM_SCOPE_END,
	VCD_ITEM_SIGNAL,
};

struct vcd_item {
	enum vcd_item_kind kind; /* what was declared */
	char *name;              /* scope or signal name (owned); NULL for SCOPE_END */
	int sig;                 /* handle, for VCD_ITEM_SIGNAL */
};

struct vcd_sig {
	unsigned width;  /* bits, 1..VCD_MAX_WIDTH */
	unsigned nwords; /* (width + 63) / 64 */
	size_t off;      /* first word of this signal in a value frame */
	int scope;       /* id of the scope that holds it (ids dense from 0) */
	const char *name;/* points into the item's name */
};

struct vcd_defs {
	struct vcd_item *items; /* declarations in order */
	size_t nitems, cap_items;
	struct vcd_sig *sigs;   /* signals by handle */
	int nsigs;
	size_t cap_sigs;
	int *stack;             /* ids of the open scopes, innermost last */
	int depth, cap_depth;
	int nscopes;            /* scope ids handed out */
	size_t frame_words;     /* words in a frame holding every signal's value */
	int ended;              /* vcd_defs_end() succeeded */
};

/* Definitions API: same contracts as vcd_scope_begin/_end, vcd_signal and
 * the checks of vcd_end_defs() in vcd.h. vcd_defs_free() releases the lists
 * of a zero-initialised or used vcd_defs (the struct itself is the caller's). */
int vcd_defs_scope_begin(struct vcd_defs *d, const char *name);
int vcd_defs_scope_end(struct vcd_defs *d);
int vcd_defs_signal(struct vcd_defs *d, const char *name, unsigned width);
int vcd_defs_end(struct vcd_defs *d);
void vcd_defs_free(struct vcd_defs *d);

/* Check the (sig, words, width) of a vcd_set_bits()-style call against d:
 * 0, VCD_EINVAL or VCD_ERANGE. */
int vcd_defs_check_bits(const struct vcd_defs *d, int sig,
			const uint64_t *words, unsigned width);

/* Check the (sig, value) of a vcd_set_u64()-style call against d. */
int vcd_defs_check_u64(const struct vcd_defs *d, int sig, uint64_t value);

/* Normalise a timescale ("10 ns" -> "10ns") into out[16]. 0 or VCD_EINVAL. */
int vcd_timescale_norm(const char *ts, char out[16]);

/* Set sig's value in the writer's current step from a frame-layout word
 * array (known != 0) or to x (known == 0), without argument checks: the
 * ring's dump uses it with values it has already checked. */
int vcd_set_raw(vcd_writer *w, int sig, const uint64_t *words, int known);

#endif /* TIPROF_VCD_INT_H */
