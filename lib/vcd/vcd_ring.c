/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vcd_ring.c - keep the last N samples of a set of signals in memory and
 * write them as a VCD on demand. Recording is a store per set and one copy
 * of the value frame per commit, so a harness can record every cycle of a
 * 10M-cycle run and pay for a waveform only when a test fails. The dump
 * replays the samples through a vcd_writer, which drops unchanged values.
 */
#include <stdlib.h>
#include <string.h>

#include "vcd_int.h"

struct vcd_ring {
	struct vcd_defs defs; /* scopes and signals */
	unsigned depth;       /* samples kept */
	unsigned count;       /* samples held, 0..depth */
	unsigned head;        /* slot the next commit writes */
	uint64_t last_t;      /* time of the newest sample, if count > 0 */
	int any;              /* a sample was ever committed (orders last_t) */

	uint64_t *cur;        /* frame: the current values */
	uint8_t *cur_known;   /* per signal: cur is a value (1) or x (0) */
	uint64_t *times;      /* per slot: sample time */
	uint64_t *frames;     /* per slot: frame_words words */
	uint8_t *known;       /* per slot: nsigs known flags */
};

int vcd_ring_create(vcd_ring **out, unsigned depth)
{
	vcd_ring *r;

	if (out)
		*out = NULL;
	if (!out || depth == 0)
		return VCD_EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return VCD_ENOMEM;
	r->depth = depth;
	*out = r;
	return 0;
}

int vcd_ring_scope_begin(vcd_ring *r, const char *name)
{
	return r ? vcd_defs_scope_begin(&r->defs, name) : VCD_EINVAL;
}

int vcd_ring_scope_end(vcd_ring *r)
{
	return r ? vcd_defs_scope_end(&r->defs) : VCD_EINVAL;
}

int vcd_ring_signal(vcd_ring *r, const char *name, unsigned width)
{
	return r ? vcd_defs_signal(&r->defs, name, width) : VCD_EINVAL;
}

int vcd_ring_end_defs(vcd_ring *r)
{
	size_t fw, n;
	int err;

	if (!r)
		return VCD_EINVAL;
	err = vcd_defs_end(&r->defs);
	if (err)
		return err;
	fw = r->defs.frame_words;
	n = (size_t)r->defs.nsigs;
	if (fw > SIZE_MAX / sizeof(uint64_t) / r->depth || n > SIZE_MAX / r->depth)
		goto nomem;
	r->cur = calloc(fw, sizeof(uint64_t));
	r->cur_known = calloc(n, 1);
	r->times = calloc(r->depth, sizeof(uint64_t));
	r->frames = calloc(fw * r->depth, sizeof(uint64_t));
	r->known = calloc(n * r->depth, 1);
	if (r->cur && r->cur_known && r->times && r->frames && r->known)
		return 0;
nomem:
	/* Undo, so the ring stays in the "definitions not ended" state. */
	free(r->cur);
	free(r->cur_known);
	free(r->times);
	free(r->frames);
	free(r->known);
	r->cur = r->frames = r->times = NULL;
	r->cur_known = r->known = NULL;
	r->defs.ended = 0;
	return VCD_ENOMEM;
}

/* Common checks of the vcd_ring_set_*() calls: 0 or the code to return. */
static int set_check(const vcd_ring *r, int sig)
{
	if (!r)
		return VCD_EINVAL;
	if (!r->defs.ended)
		return VCD_ESTATE;
	if (sig < 0 || sig >= r->defs.nsigs)
		return VCD_EINVAL;
	return 0;
}

int vcd_ring_set_u64(vcd_ring *r, int sig, uint64_t value)
{
	const struct vcd_sig *s;
	int err = set_check(r, sig);

	if (!err)
		err = vcd_defs_check_u64(&r->defs, sig, value);
	if (err)
		return err;
	s = &r->defs.sigs[sig];
	r->cur[s->off] = value;
	if (s->nwords > 1)
		memset(r->cur + s->off + 1, 0, (s->nwords - 1) * sizeof(uint64_t));
	r->cur_known[sig] = 1;
	return 0;
}

int vcd_ring_set_bits(vcd_ring *r, int sig, const uint64_t *words, unsigned width)
{
	const struct vcd_sig *s;
	int err = set_check(r, sig);

	if (!err)
		err = vcd_defs_check_bits(&r->defs, sig, words, width);
	if (err)
		return err;
	s = &r->defs.sigs[sig];
	memcpy(r->cur + s->off, words, s->nwords * sizeof(uint64_t));
	r->cur_known[sig] = 1;
	return 0;
}

int vcd_ring_set_x(vcd_ring *r, int sig)
{
	int err = set_check(r, sig);

	if (err)
		return err;
	r->cur_known[sig] = 0;
	return 0;
}

int vcd_ring_commit(vcd_ring *r, uint64_t t)
{
	size_t fw, n;

	if (!r)
		return VCD_EINVAL;
	if (!r->defs.ended)
		return VCD_ESTATE;
	if (r->any && t <= r->last_t)
		return VCD_ETIME;
	fw = r->defs.frame_words;
	n = (size_t)r->defs.nsigs;
	r->times[r->head] = t;
	memcpy(r->frames + (size_t)r->head * fw, r->cur, fw * sizeof(uint64_t));
	memcpy(r->known + (size_t)r->head * n, r->cur_known, n);
	r->head = r->head + 1 == r->depth ? 0 : r->head + 1;
	if (r->count < r->depth)
		r->count++;
	r->last_t = t;
	r->any = 1;
	return 0;
}

unsigned vcd_ring_count(const vcd_ring *r)
{
	return r ? r->count : 0;
}

/* Declare r's scopes and signals on w, in the order they were made on r, so
 * that the handles agree; then end the definitions. */
static int replay_defs(const vcd_ring *r, vcd_writer *w)
{
	size_t i;
	int err = 0;

	for (i = 0; i < r->defs.nitems && err >= 0; i++) {
		const struct vcd_item *it = &r->defs.items[i];

		switch (it->kind) {
		case VCD_ITEM_SCOPE_BEGIN:
			err = vcd_scope_begin(w, it->name);
			break;
		case VCD_ITEM_SCOPE_END:
			err = vcd_scope_end(w);
			break;
		case VCD_ITEM_SIGNAL:
			err = vcd_signal(w, it->name, r->defs.sigs[it->sig].width);
			break;
		}
	}
	return err < 0 ? err : vcd_end_defs(w);
}

/* Write r's samples on the open writer w (not closed here). */
static int dump_on(const vcd_ring *r, vcd_writer *w)
{
	size_t fw = r->defs.frame_words, n = (size_t)r->defs.nsigs;
	unsigned i, slot;
	int sig, err;

	err = replay_defs(r, w);
	slot = (r->head + r->depth - r->count) % r->depth;
	for (i = 0; i < r->count && !err; i++) {
		const uint64_t *frame = r->frames + (size_t)slot * fw;
		const uint8_t *known = r->known + (size_t)slot * n;

		err = vcd_time(w, r->times[slot]);
		for (sig = 0; sig < r->defs.nsigs && !err; sig++)
			err = vcd_set_raw(w, sig, frame + r->defs.sigs[sig].off, known[sig]);
		slot = slot + 1 == r->depth ? 0 : slot + 1;
	}
	return err;
}

int vcd_ring_dump(const vcd_ring *r, FILE *f, const char *timescale)
{
	vcd_writer *w;
	int err, cerr;

	if (!r || !f)
		return VCD_EINVAL;
	if (!r->defs.ended)
		return VCD_ESTATE;
	err = vcd_open(&w, f, timescale);
	if (err)
		return err;
	err = dump_on(r, w);
	cerr = vcd_close(w);
	return err ? err : cerr;
}

int vcd_ring_dump_path(const vcd_ring *r, const char *path, const char *timescale)
{
	vcd_writer *w;
	int err, cerr;

	if (!r || !path)
		return VCD_EINVAL;
	if (!r->defs.ended)
		return VCD_ESTATE;
	err = vcd_open_path(&w, path, timescale);
	if (err)
		return err;
	err = dump_on(r, w);
	cerr = vcd_close(w);
	return err ? err : cerr;
}

void vcd_ring_free(vcd_ring *r)
{
	if (!r)
		return;
	vcd_defs_free(&r->defs);
	free(r->cur);
	free(r->cur_known);
	free(r->times);
	free(r->frames);
	free(r->known);
	free(r);
}
