/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sfprof.c - sample file to per-address profile (contract in sfprof.h).
 *
 * Sections: objects (records, lazy loading, resolving an address); keys and names; functions;
 * loading the file.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rv_isa.h"
#include "sfprof.h"

/* Key of the addresses of object o outside its functions, at function level ("[NAME]"):
 * just below CODE_MAP_UNKNOWN, far above any user-space address. */
#define SFPROF_OBJ_KEY(o) (CODE_MAP_UNKNOWN - 1 - (uint64_t)(o))

/* ---- objects */

/* Keep a warning about an object without symbols (the first SFPROF_WARN_MAX). */
static void sfprof_warn(struct sfprof *p, const char *why, const char *name)
{
	if (p->nwarn < SFPROF_WARN_MAX)
		snprintf(p->warn[p->nwarn++], sizeof(p->warn[0]), "%.380s; its samples are shown "
			 "as [%.60s]+offset", why, name);
}

/* Load shared object o's bytes and symbols (once). Returns 1 if usable, else 0. */
static int sfprof_obj_load(struct sfprof *p, long o)
{
	struct sfprof_obj *ob = &p->obj[o];
	char why[512], want[2 * SF_BUILD_ID_MAX + 1], have[2 * SF_BUILD_ID_MAX + 1];

	if (ob->main)
		return p->map_ok;
	if (ob->state)
		return ob->state > 0;
	ob->state = -1;
	if (!ob->rec.path_len) {
		sfprof_warn(p, "an object record has no path", "");
		return 0;
	}
	if (elf_image_load(&ob->img, ob->rec.path, why, sizeof(why))) {
		sfprof_warn(p, why, ob->name);
		return 0;
	}
	if (ob->rec.build_id_len && (ob->rec.build_id_len != ob->img.build_id_len ||
	    memcmp(ob->rec.build_id, ob->img.build_id, ob->rec.build_id_len))) {
		elf_image_hex(ob->rec.build_id, ob->rec.build_id_len, want, sizeof(want));
		elf_image_hex(ob->img.build_id, ob->img.build_id_len, have, sizeof(have));
		snprintf(why, sizeof(why), "%.200s: recorded from build-id %.128s but the file has "
			 "build-id %.128s", ob->rec.path, want, have[0] ? have : "(none)");
		sfprof_warn(p, why, ob->name);
		elf_image_free(&ob->img);
		return 0;
	}
	if (code_map_load(&ob->map, ob->rec.path, why, sizeof(why))) {
		sfprof_warn(p, why, ob->name);
		elf_image_free(&ob->img);
		return 0;
	}
	ob->state = 1;
	return 1;
}

/* Contract in sfprof.h. */
const struct code_map *sfprof_obj_map(struct sfprof *p, long o)
{
	if (o < 0 || (size_t)o >= p->nobj || !sfprof_obj_load(p, o))
		return NULL;
	return p->obj[o].main ? &p->map : &p->obj[o].map;
}

/* Contract in sfprof.h. */
const struct elf_image *sfprof_obj_img(struct sfprof *p, long o)
{
	if (o < 0 || (size_t)o >= p->nobj || !sfprof_obj_load(p, o))
		return NULL;
	return p->obj[o].main ? &p->img : &p->obj[o].img;
}

/* Contract in sfprof.h. */
const char *sfprof_obj_path(const struct sfprof *p, long o)
{
	if (o < 0 || (size_t)o >= p->nobj || p->obj[o].main)
		return p->elf;
	return p->obj[o].rec.path;
}

/* Index of the object holding run-time address rt, or -1: the last record whose range
 * holds it; else the main program when it has bias 0 (as in a file without records). */
static long sfprof_obj_of(const struct sfprof *p, uint64_t rt)
{
	for (size_t i = p->nobj; i-- > 0;)
		if (rt >= p->obj[i].rec.start && rt < p->obj[i].rec.end)
			return (long)i;
	if (p->main_obj >= 0 && p->obj[p->main_obj].rec.bias == 0)
		return p->main_obj;
	return -1;
}

/* Contract in sfprof.h. */
long sfprof_resolve(struct sfprof *p, uint64_t rt, struct sfprof_loc *loc)
{
	long o = sfprof_obj_of(p, rt);

	memset(loc, 0, sizeof(*loc));
	loc->obj = o;
	loc->link = rt;
	if (o < 0)
		return -1;
	loc->link = rt - p->obj[o].rec.bias;
	loc->map = sfprof_obj_map(p, o);
	loc->img = sfprof_obj_img(p, o);
	return o;
}

/* ---- keys and names */

/* Contract in sfprof.h. */
long sfprof_ksym(const struct sfprof *p, uint64_t rt)
{
	return p->ks.n ? kallsyms_find(&p->ks, rt) : -1;
}

/* Contract in sfprof.h. */
uint64_t sfprof_key(struct sfprof *p, uint64_t rt, enum code_level level)
{
	struct sfprof_loc l;
	uint64_t k;
	long ki = sfprof_ksym(p, rt);

	if (ki >= 0)
		return level == LEVEL_INSTRUCTION ? rt : p->ks.sym[ki].addr;
	if (sfprof_resolve(p, rt, &l) < 0)
		return level == LEVEL_FUNCTION ? CODE_MAP_UNKNOWN : rt;
	if (!l.map)	/* no symbols: per object, or per address */
		return level == LEVEL_FUNCTION ? SFPROF_OBJ_KEY(l.obj) : rt;
	k = code_map_key(l.map, l.link, level);
	if (k == CODE_MAP_UNKNOWN)
		return p->obj[l.obj].main ? CODE_MAP_UNKNOWN : SFPROF_OBJ_KEY(l.obj);
	return k + p->obj[l.obj].rec.bias;
}

/* Object index of a "[NAME]" key, or -1. */
static long sfprof_objkey(const struct sfprof *p, uint64_t key)
{
	if (key >= CODE_MAP_UNKNOWN || key < CODE_MAP_UNKNOWN - p->nobj)
		return -1;
	return (long)(CODE_MAP_UNKNOWN - 1 - key);
}

/* Contract in sfprof.h. */
const char *sfprof_key_object(struct sfprof *p, uint64_t key)
{
	long o = sfprof_objkey(p, key);

	if (key == CODE_MAP_UNKNOWN)
		return NULL;
	if (o < 0 && sfprof_ksym(p, key) >= 0)
		return "[kernel.kallsyms]";
	if (o < 0)
		o = sfprof_obj_of(p, key);
	return o < 0 ? NULL : p->obj[o].name;
}

/* Contract in sfprof.h. */
void sfprof_name(struct sfprof *p, uint64_t key, char *buf, size_t len)
{
	struct sfprof_loc l;
	long f, o = sfprof_objkey(p, key);
	const char *fn;
	char at[300] = "";

	if (key == CODE_MAP_UNKNOWN) {
		snprintf(buf, len, "[unknown]");
		return;
	}
	if (o >= 0) {
		snprintf(buf, len, "[%s]", p->obj[o].name);
		return;
	}
	if ((f = sfprof_ksym(p, key)) >= 0) {
		if (key == p->ks.sym[f].addr)
			snprintf(buf, len, "[k] %s", p->ks.sym[f].name);
		else
			snprintf(buf, len, "[k] %s+0x%" PRIx64, p->ks.sym[f].name,
				 key - p->ks.sym[f].addr);
		return;
	}
	if (sfprof_resolve(p, key, &l) < 0) {
		snprintf(buf, len, "[0x%" PRIx64 "]", key);
		return;
	}
	f = l.map ? code_map_func(l.map, l.link) : -1;
	if (!p->obj[l.obj].main)
		snprintf(at, sizeof(at), "@%s", p->obj[l.obj].name);
	if (f < 0) {
		if (p->obj[l.obj].main)
			snprintf(buf, len, "[0x%" PRIx64 "]", l.link);
		else
			snprintf(buf, len, "[%s]+0x%" PRIx64, p->obj[l.obj].name, l.link);
		return;
	}
	fn = l.map->func[f].name ? l.map->func[f].name : "?";
	if (l.link == l.map->func[f].start)
		snprintf(buf, len, "%s%s", fn, at);
	else
		snprintf(buf, len, "%s+0x%" PRIx64 "%s", fn, l.link - l.map->func[f].start, at);
}

/* ---- functions */

/* Contract in sfprof.h. */
long sfprof_func_at(struct sfprof *p, uint64_t rt, long *obj)
{
	struct sfprof_loc l;

	*obj = sfprof_resolve(p, rt, &l);
	return l.map ? code_map_func(l.map, l.link) : -1;
}

/* Contract in sfprof.h. */
void sfprof_func_name(struct sfprof *p, long o, long fi, char *buf, size_t len)
{
	const struct code_map *m = sfprof_obj_map(p, o);
	const char *fn = m && fi >= 0 && m->func[fi].name ? m->func[fi].name : "?";

	if (o < 0 || p->obj[o].main)
		snprintf(buf, len, "%s", fn);
	else
		snprintf(buf, len, "%s@%s", fn, p->obj[o].name);
}

/* Index of the function called name in m, or -1. */
static long map_find(const struct code_map *m, const char *name, size_t n)
{
	for (size_t i = 0; m && i < m->nfunc; i++)
		if (m->func[i].name && strlen(m->func[i].name) == n &&
		    !strncmp(m->func[i].name, name, n))
			return (long)i;
	return -1;
}

/* Does object o answer to obj (its file name or its path)? */
static int obj_is(const struct sfprof *p, long o, const char *obj)
{
	return !strcmp(p->obj[o].name, obj) || !strcmp(sfprof_obj_path(p, o), obj);
}

/* Contract in sfprof.h. */
int sfprof_find_func(struct sfprof *p, const char *name, long *o, long *fi, char *err,
		     size_t errlen)
{
	const char *at = strrchr(name, '@');
	size_t n = at ? (size_t)(at - name) : strlen(name);
	long found = -1, ff = -1;
	char also[256] = "";

	*o = -1;
	*fi = -1;
	if (at) {	/* NAME@OBJ */
		for (size_t i = 0; i < p->nobj; i++)
			if (obj_is(p, (long)i, at + 1) && (ff = map_find(sfprof_obj_map(p, (long)i),
								 name, n)) >= 0) {
				*o = (long)i;
				*fi = ff;
				return 0;
			}
		if (!(at + 1 == name + strlen(name))) {
			snprintf(err, errlen, "no function '%.200s' in an object named '%.200s' of "
				 "the profile; tiprof report lists the sampled ones", name, at + 1);
			return -1;
		}
	}
	/* NAME: the main program first, then the one shared object that has it */
	n = strlen(name);
	if (p->map_ok && (ff = map_find(&p->map, name, n)) >= 0) {
		*o = p->main_obj;
		*fi = ff;
		return 0;
	}
	for (size_t i = 0; i < p->nobj; i++) {
		long f;

		if (p->obj[i].main || (f = map_find(sfprof_obj_map(p, (long)i), name, n)) < 0)
			continue;
		if (found >= 0 && strcmp(p->obj[found].name, p->obj[i].name)) {
			snprintf(also, sizeof(also), "%.100s and %.100s", p->obj[found].name,
				 p->obj[i].name);
			break;
		}
		if (found < 0) {
			found = (long)i;
			ff = f;
		}
	}
	if (also[0]) {
		snprintf(err, errlen, "function '%.200s' is in %s; name one as %.200s@OBJECT",
			 name, also, name);
		return -1;
	}
	if (found < 0) {
		snprintf(err, errlen, "no function '%.200s' in %.400s%s; tiprof report lists the "
			 "sampled ones", name, p->elf, p->nrec > 1 ? " or its shared objects" : "");
		return -1;
	}
	*o = found;
	*fi = ff;
	return 0;
}

/* Contract in sfprof.h. */
int sfprof_hottest(struct sfprof *p, long *o, long *fi)
{
	struct attr_prof fp;
	double best = 0;
	uint64_t bk = 0;

	attr_prof_init(&fp);
	for (size_t i = 0; i < p->prof.n; i++) {
		uint64_t k = sfprof_key(p, p->prof.ent[i].key, LEVEL_FUNCTION);

		if (k == CODE_MAP_UNKNOWN || sfprof_objkey(p, k) >= 0 || sfprof_ksym(p, k) >= 0)
			continue;
		if (attr_prof_add(&fp, k, 0, p->prof.ent[i].total)) {
			attr_prof_free(&fp);
			return -1;
		}
	}
	for (size_t i = 0; i < fp.n; i++)
		if (fp.ent[i].total > best || (fp.ent[i].total == best && fp.ent[i].key < bk)) {
			best = fp.ent[i].total;
			bk = fp.ent[i].key;
		}
	attr_prof_free(&fp);
	if (!(best > 0))
		return -1;
	*fi = sfprof_func_at(p, bk, o);
	return *fi < 0 ? -1 : 0;
}

/* Contract in sfprof.h. */
size_t sfprof_read(struct sfprof *p, uint64_t rt, uint8_t *buf, size_t len)
{
	struct sfprof_loc l;

	if (sfprof_resolve(p, rt, &l) < 0 || !l.img)
		return 0;
	return elf_image_read(l.img, l.link, buf, len);
}

/* Contract in sfprof.h. */
int sfprof_kind(void *ctx, uint64_t addr)
{
	uint8_t b[4];
	size_t n = sfprof_read(ctx, addr, b, sizeof(b));
	struct rv_insn in;

	if (!n || rv_decode(b, n, addr, &in) < 0)
		return ATTR_KIND_ALU;
	/* as the core model classifies them: loads, LR, AMOs wait for a read */
	return rv_is_load(&in) ? ATTR_KIND_LOAD : rv_is_store(&in) ? ATTR_KIND_STORE :
	       ATTR_KIND_ALU;
}

/* Contract in sfprof.h. */
const char *sfprof_mode_name(const struct sf_header *h)
{
	return h->mode == TIPROF_MODE_PERIODIC ? "periodic" :
	       h->mode == TIPROF_MODE_RANDOM_INTERVAL ? "random-interval" : "random-period";
}

/* ---- loading the file */

/* Append object record o. Returns 0 or -1 (out of memory). */
static int sfprof_add_obj(struct sfprof *p, const struct sf_object *o)
{
	struct sfprof_obj *no = realloc(p->obj, (p->nobj + 1) * sizeof(*no));
	struct sfprof_obj *ob;
	const char *slash;

	if (!no)
		return -1;
	p->obj = no;
	ob = &p->obj[p->nobj];
	memset(ob, 0, sizeof(*ob));
	ob->rec = *o;
	slash = strrchr(ob->rec.path, '/');
	ob->name = slash && slash[1] ? slash + 1 : ob->rec.path;
	ob->main = o->kind == SF_OBJ_MAIN;
	if (ob->main && p->main_obj < 0)
		p->main_obj = (long)p->nobj;
	p->nobj++;
	return 0;
}

/* Fix the names of the objects (realloc moved them) and add the main program when no
 * record names it (a 1.0 file): every address, bias 0. Returns 0 or -1. */
static int sfprof_objects_done(struct sfprof *p)
{
	p->nrec = p->nobj;
	for (size_t i = 0; i < p->nobj; i++) {
		const char *slash = strrchr(p->obj[i].rec.path, '/');

		p->obj[i].name = slash && slash[1] ? slash + 1 : p->obj[i].rec.path;
	}
	if (p->main_obj < 0) {
		struct sf_object m;

		memset(&m, 0, sizeof(m));
		m.start = 0;
		m.end = UINT64_MAX;
		m.kind = SF_OBJ_MAIN;
		snprintf(m.path, sizeof(m.path), "%s", p->elf);
		m.path_len = (uint16_t)strlen(m.path);
		if (p->nobj) {	/* records without the program: it goes first, lowest priority */
			if (sfprof_add_obj(p, &m))
				return -1;
			memmove(&p->obj[1], &p->obj[0], (p->nobj - 1) * sizeof(p->obj[0]));
			memset(&p->obj[0], 0, sizeof(p->obj[0]));
			p->obj[0].rec = m;
			p->obj[0].main = 1;
			p->main_obj = 0;
			for (size_t i = 0; i < p->nobj; i++) {
				const char *slash = strrchr(p->obj[i].rec.path, '/');

				p->obj[i].name = slash && slash[1] ? slash + 1 : p->obj[i].rec.path;
			}
		} else if (sfprof_add_obj(p, &m)) {
			return -1;
		}
	}
	return 0;
}

/* Contract in sfprof.h. */
int sfprof_load(struct sfprof *p, const char *file, const char *elf, char *err, size_t errlen)
{
	struct sf_reader r;
	struct sf_record *rec = malloc(sizeof(*rec));
	char want[2 * SF_BUILD_ID_MAX + 1], have[2 * SF_BUILD_ID_MAX + 1];
	char why[512];
	int n, ret = -1;

	memset(p, 0, sizeof(*p));
	p->main_obj = -1;
	attr_prof_init(&p->prof);
	if (!rec) {
		snprintf(err, errlen, "%s: out of memory", file);
		return -1;
	}
	if (sf_reader_open(&r, file)) {
		snprintf(err, errlen, "%s", sf_reader_error(&r));
		sf_reader_close(&r);
		free(rec);
		return -1;
	}
	p->hdr = r.hdr;
	if (!elf && !p->hdr.elf_path_len) {
		snprintf(err, errlen, "%s: the file names no workload ELF; pass --elf ELF", file);
		goto out;
	}
	snprintf(p->elf, sizeof(p->elf), "%s", elf ? elf : p->hdr.elf_path);
	if (elf_image_load(&p->img, p->elf, why, sizeof(why))) {
		snprintf(err, errlen, "%s%s", why, elf ? "" : " (named by the sample file; "
			 "pass --elf ELF if it moved)");
		goto out;
	}
	if (p->hdr.build_id_len && (p->hdr.build_id_len != p->img.build_id_len ||
	    memcmp(p->hdr.build_id, p->img.build_id, p->hdr.build_id_len))) {
		elf_image_hex(p->hdr.build_id, p->hdr.build_id_len, want, sizeof(want));
		elf_image_hex(p->img.build_id, p->img.build_id_len, have, sizeof(have));
		snprintf(err, errlen, "%s: recorded from build-id %s but %s has build-id %s; pass "
			 "--elf with the profiled binary", file, want, p->elf,
			 have[0] ? have : "(none)");
		goto out;
	}
	if (code_map_load(&p->map, p->elf, why, sizeof(why))) {
		snprintf(err, errlen, "%s", why);
		goto out;
	}
	p->map_ok = 1;
	/* samples at their run-time addresses, every stall as ALU until the objects are known */
	while ((n = sf_reader_next_record(&r, rec)) == 1) {
		if (rec->type == SF_REC_OBJECT ? sfprof_add_obj(p, &rec->object) :
		    rec->type == SF_REC_SAMPLE &&
		    attr_sample(&p->prof, p->hdr.w, &rec->sample, NULL, NULL)) {
			snprintf(err, errlen, "%s: out of memory", file);
			goto out;
		}
	}
	if (n < 0) {
		snprintf(err, errlen, "%s", sf_reader_error(&r));
		goto out;
	}
	if (sfprof_objects_done(p)) {
		snprintf(err, errlen, "%s: out of memory", file);
		goto out;
	}
	attr_prof_retype(&p->prof, sfprof_kind, p);
	p->trailer = r.trailer;
	ret = 0;
out:
	sf_reader_close(&r);
	free(rec);
	return ret;
}

/* Contract in sfprof.h. */
int sfprof_load_kallsyms(struct sfprof *p, const char *file, const char *path, char *err,
			 size_t errlen)
{
	kallsyms_free(&p->ks);
	p->ks_path[0] = '\0';
	if (path)
		snprintf(p->ks_path, sizeof(p->ks_path), "%s", path);
	else if (snprintf(p->ks_path, sizeof(p->ks_path), "%s.kallsyms", file) >=
		 (int)sizeof(p->ks_path) || access(p->ks_path, F_OK)) {
		p->ks_path[0] = '\0';	/* no FILE.kallsyms: kernel addresses stay unknown */
		return 0;
	}
	if (kallsyms_load(&p->ks, p->ks_path, err, errlen)) {
		kallsyms_free(&p->ks);
		return -1;
	}
	return 0;
}

/* Contract in sfprof.h. */
void sfprof_free(struct sfprof *p)
{
	kallsyms_free(&p->ks);
	attr_prof_free(&p->prof);
	elf_image_free(&p->img);
	if (p->map_ok)
		code_map_free(&p->map);
	p->map_ok = 0;
	for (size_t i = 0; i < p->nobj; i++)
		if (p->obj[i].state > 0) {
			elf_image_free(&p->obj[i].img);
			code_map_free(&p->obj[i].map);
		}
	free(p->obj);
	p->obj = NULL;
	p->nobj = 0;
}
