/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vcd.c - the streaming VCD writer: header, per-step change detection and
 * value formatting. The header has no $date so that equal input gives a
 * byte-identical file (tests diff it). Each signal keeps its last written
 * value and its value in the current step; a step is written when the next
 * vcd_time() or vcd_close() comes, and only signals set in it are compared.
 */
#include <stdlib.h>
#include <string.h>

#include "vcd_int.h"

/* Identifier codes use the 94 printable ASCII characters '!'..'~'. */
#define ID_BASE  94
#define ID_FIRST 33
#define ID_MAX   8 /* enough for 94^8 signals, far above any int handle */

struct vcd_writer {
	struct vcd_defs defs; /* scopes and signals */
	FILE *f;              /* output stream */
	int owns_f;           /* vcd_open_path(): fclose() on close */
	int err;              /* first error met (sticky), or 0 */
	char timescale[16];   /* normalised, e.g. "1ns" */

	uint64_t *cur;        /* frame: values in the current step */
	uint64_t *last;       /* frame: values last written */
	uint8_t *cur_known;   /* per signal: cur is a value (1) or x (0) */
	uint8_t *last_known;  /* per signal: last is a value (1) or x (0) */
	uint8_t *dirty;       /* per signal: set in the current step */
	int *dirty_list;      /* the signals set in the current step, in order */
	int ndirty;
	char (*ids)[ID_MAX + 1]; /* per signal: identifier code, NUL-terminated */

	int started;          /* vcd_time() has been called */
	int dumped;           /* the $dumpvars block has been written */
	int step_written;     /* "#now" has been written */
	uint64_t now;         /* current step */
	char *line;           /* scratch for one value change line */
};

const char *vcd_strerror(int err)
{
	switch (err) {
	case VCD_OK:     return "success";
	case VCD_EINVAL: return "invalid argument";
	case VCD_ESTATE: return "call not allowed in this state";
	case VCD_ETIME:  return "time went backwards";
	case VCD_ERANGE: return "value wider than the signal";
	case VCD_EDUP:   return "duplicate signal name in scope";
	case VCD_EIO:    return "I/O error";
	case VCD_ENOMEM: return "out of memory";
	default:         return "unknown error";
	}
}

/* Write the identifier code of handle n into out: bijective base 94, so
 * 94 one-character codes, then 94^2 two-character codes, and so on. */
static void id_make(int n, char out[ID_MAX + 1])
{
	long v = n;
	int len = 0;

	do {
		out[len++] = (char)(ID_FIRST + v % ID_BASE);
		v = v / ID_BASE - 1;
	} while (v >= 0 && len < ID_MAX);
	out[len] = '\0';
}

/* Write len bytes; on a short write remember VCD_EIO. Returns w->err. */
static int put(vcd_writer *w, const char *s, size_t len)
{
	if (w->err)
		return w->err;
	if (fwrite(s, 1, len, w->f) != len)
		w->err = VCD_EIO;
	return w->err;
}

static int puts_w(vcd_writer *w, const char *s)
{
	return put(w, s, strlen(s));
}

/* Write "#t\n" for the current step once. */
static int put_time(vcd_writer *w)
{
	char buf[32];
	int n;

	if (w->step_written)
		return w->err;
	w->step_written = 1;
	n = snprintf(buf, sizeof(buf), "#%llu\n", (unsigned long long)w->now);
	return put(w, buf, (size_t)n);
}

/* Write one value change line for sig from the cur frame: "0!" for a 1-bit
 * signal, else "b<binary> <id>" with leading zeros dropped (VCD zero-extends
 * a vector whose leftmost bit is 0 or 1), "bx <id>" when unknown. */
static int put_value(vcd_writer *w, int sig)
{
	const struct vcd_sig *s = &w->defs.sigs[sig];
	const uint64_t *v = w->cur + s->off;
	char *p = w->line;
	int bit;

	if (s->width == 1) {
		*p++ = w->cur_known[sig] ? (char)('0' + (v[0] & 1)) : 'x';
	} else {
		*p++ = 'b';
		if (!w->cur_known[sig]) {
			*p++ = 'x';
		} else {
			bit = (int)s->width - 1;
			while (bit > 0 && !((v[bit / 64] >> (bit % 64)) & 1))
				bit--;
			for (; bit >= 0; bit--)
				*p++ = (char)('0' + ((v[bit / 64] >> (bit % 64)) & 1));
		}
		*p++ = ' ';
	}
	strcpy(p, w->ids[sig]);
	p += strlen(p);
	*p++ = '\n';
	return put(w, w->line, (size_t)(p - w->line));
}

/* Copy sig's current value to its last-written value. */
static void commit_sig(vcd_writer *w, int sig)
{
	const struct vcd_sig *s = &w->defs.sigs[sig];

	memcpy(w->last + s->off, w->cur + s->off, s->nwords * sizeof(uint64_t));
	w->last_known[sig] = w->cur_known[sig];
}

/* 1 if sig's current value differs from the one last written. */
static int sig_changed(const vcd_writer *w, int sig)
{
	const struct vcd_sig *s = &w->defs.sigs[sig];

	if (w->cur_known[sig] != w->last_known[sig])
		return 1;
	if (!w->cur_known[sig])
		return 0;
	return memcmp(w->last + s->off, w->cur + s->off, s->nwords * sizeof(uint64_t)) != 0;
}

/* Write the current step: the whole $dumpvars block for the first step,
 * else the signals set in it whose value changed. */
static int flush_step(vcd_writer *w)
{
	int i, sig;

	if (!w->dumped) {
		w->dumped = 1;
		put_time(w);
		puts_w(w, "$dumpvars\n");
		for (sig = 0; sig < w->defs.nsigs; sig++) {
			put_value(w, sig);
			commit_sig(w, sig);
		}
		puts_w(w, "$end\n");
	} else {
		for (i = 0; i < w->ndirty; i++) {
			sig = w->dirty_list[i];
			if (!sig_changed(w, sig))
				continue;
			put_time(w);
			put_value(w, sig);
			commit_sig(w, sig);
		}
	}
	for (i = 0; i < w->ndirty; i++)
		w->dirty[w->dirty_list[i]] = 0;
	w->ndirty = 0;
	return w->err;
}

int vcd_open(vcd_writer **out, FILE *f, const char *timescale)
{
	vcd_writer *w;
	char ts[16];

	if (out)
		*out = NULL;
	if (!out || !f || vcd_timescale_norm(timescale, ts))
		return VCD_EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return VCD_ENOMEM;
	w->f = f;
	memcpy(w->timescale, ts, sizeof(ts));
	*out = w;
	return 0;
}

int vcd_open_path(vcd_writer **out, const char *path, const char *timescale)
{
	char ts[16];
	FILE *f;
	int err;

	if (out)
		*out = NULL;
	if (!out || !path || vcd_timescale_norm(timescale, ts))
		return VCD_EINVAL;
	f = fopen(path, "w");
	if (!f)
		return VCD_EIO;
	err = vcd_open(out, f, timescale);
	if (err) {
		fclose(f);
		return err;
	}
	(*out)->owns_f = 1;
	return 0;
}

int vcd_scope_begin(vcd_writer *w, const char *name)
{
	if (!w)
		return VCD_EINVAL;
	if (w->err)
		return w->err;
	return vcd_defs_scope_begin(&w->defs, name);
}

int vcd_scope_end(vcd_writer *w)
{
	if (!w)
		return VCD_EINVAL;
	if (w->err)
		return w->err;
	return vcd_defs_scope_end(&w->defs);
}

int vcd_signal(vcd_writer *w, const char *name, unsigned width)
{
	if (!w)
		return VCD_EINVAL;
	if (w->err)
		return w->err;
	return vcd_defs_signal(&w->defs, name, width);
}

int vcd_end_defs(vcd_writer *w)
{
	const struct vcd_defs *d;
	size_t i, n, widest = 1;
	char buf[64];
	int err, sig;

	if (!w)
		return VCD_EINVAL;
	if (w->err)
		return w->err;
	err = vcd_defs_end(&w->defs);
	if (err)
		return err;
	d = &w->defs;
	n = (size_t)d->nsigs;
	w->cur = calloc(d->frame_words, sizeof(uint64_t));
	w->last = calloc(d->frame_words, sizeof(uint64_t));
	w->cur_known = calloc(n, 1);
	w->last_known = calloc(n, 1);
	w->dirty = calloc(n, 1);
	w->dirty_list = calloc(n, sizeof(int));
	w->ids = calloc(n, sizeof(*w->ids));
	for (sig = 0; sig < d->nsigs; sig++)
		if (d->sigs[sig].width > widest)
			widest = d->sigs[sig].width;
	w->line = malloc(widest + ID_MAX + 8);
	if (!w->cur || !w->last || !w->cur_known || !w->last_known ||
	    !w->dirty || !w->dirty_list || !w->ids || !w->line)
		return w->err = VCD_ENOMEM;
	for (sig = 0; sig < d->nsigs; sig++)
		id_make(sig, w->ids[sig]);

	puts_w(w, "$version tiprof vcd $end\n$timescale ");
	puts_w(w, w->timescale);
	puts_w(w, " $end\n");
	for (i = 0; i < d->nitems; i++) {
		const struct vcd_item *it = &d->items[i];
		const struct vcd_sig *s;

		switch (it->kind) {
		case VCD_ITEM_SCOPE_BEGIN:
			puts_w(w, "$scope module ");
			puts_w(w, it->name);
			puts_w(w, " $end\n");
			break;
		case VCD_ITEM_SCOPE_END:
			puts_w(w, "$upscope $end\n");
			break;
		case VCD_ITEM_SIGNAL:
			s = &d->sigs[it->sig];
			snprintf(buf, sizeof(buf), "$var wire %u ", s->width);
			puts_w(w, buf);
			puts_w(w, w->ids[it->sig]);
			puts_w(w, " ");
			puts_w(w, it->name);
			/* The range makes GTKWave show "name[7:0]"; readers
			 * that key on the reference name ignore it. */
			if (s->width > 1) {
				snprintf(buf, sizeof(buf), " [%u:0]", s->width - 1);
				puts_w(w, buf);
			}
			puts_w(w, " $end\n");
			break;
		}
	}
	return puts_w(w, "$enddefinitions $end\n");
}

int vcd_time(vcd_writer *w, uint64_t t)
{
	if (!w)
		return VCD_EINVAL;
	if (w->err)
		return w->err;
	if (!w->defs.ended)
		return VCD_ESTATE;
	if (w->started) {
		if (t < w->now)
			return VCD_ETIME;
		if (t == w->now)
			return 0;
		if (flush_step(w))
			return w->err;
	}
	w->started = 1;
	w->now = t;
	w->step_written = 0;
	return 0;
}

/* Common checks of the vcd_set_*() calls: 0 or the code to return. */
static int set_check(const vcd_writer *w, int sig)
{
	if (!w)
		return VCD_EINVAL;
	if (w->err)
		return w->err;
	if (!w->started)
		return VCD_ESTATE;
	if (sig < 0 || sig >= w->defs.nsigs)
		return VCD_EINVAL;
	return 0;
}

/* Mark sig as set in the current step. */
static void mark_dirty(vcd_writer *w, int sig)
{
	if (!w->dirty[sig]) {
		w->dirty[sig] = 1;
		w->dirty_list[w->ndirty++] = sig;
	}
}

int vcd_set_raw(vcd_writer *w, int sig, const uint64_t *words, int known)
{
	const struct vcd_sig *s;
	int err = set_check(w, sig);

	if (err)
		return err;
	s = &w->defs.sigs[sig];
	if (known)
		memcpy(w->cur + s->off, words, s->nwords * sizeof(uint64_t));
	w->cur_known[sig] = known != 0;
	mark_dirty(w, sig);
	return 0;
}

int vcd_set_u64(vcd_writer *w, int sig, uint64_t value)
{
	const struct vcd_sig *s;
	int err = set_check(w, sig);

	if (err)
		return err;
	err = vcd_defs_check_u64(&w->defs, sig, value);
	if (err)
		return err;
	s = &w->defs.sigs[sig];
	w->cur[s->off] = value;
	if (s->nwords > 1)
		memset(w->cur + s->off + 1, 0, (s->nwords - 1) * sizeof(uint64_t));
	w->cur_known[sig] = 1;
	mark_dirty(w, sig);
	return 0;
}

int vcd_set_bits(vcd_writer *w, int sig, const uint64_t *words, unsigned width)
{
	int err = set_check(w, sig);

	if (err)
		return err;
	err = vcd_defs_check_bits(&w->defs, sig, words, width);
	if (err)
		return err;
	return vcd_set_raw(w, sig, words, 1);
}

int vcd_set_x(vcd_writer *w, int sig)
{
	return vcd_set_raw(w, sig, NULL, 0);
}

int vcd_close(vcd_writer *w)
{
	int err;

	if (!w)
		return 0;
	if (!w->defs.ended && !w->err)
		w->err = VCD_ESTATE;
	if (w->started && !w->err) {
		flush_step(w);
		put_time(w);
	}
	/* Flush (and close) even after an error, so the caller gets as much
	 * of the waveform as could be written. */
	if (fflush(w->f) != 0 && !w->err)
		w->err = VCD_EIO;
	if (ferror(w->f) && !w->err)
		w->err = VCD_EIO;
	if (w->owns_f && fclose(w->f) != 0 && !w->err)
		w->err = VCD_EIO;
	err = w->err;
	vcd_defs_free(&w->defs);
	free(w->cur);
	free(w->last);
	free(w->cur_known);
	free(w->last_known);
	free(w->dirty);
	free(w->dirty_list);
	free(w->ids);
	free(w->line);
	free(w);
	return err;
}
