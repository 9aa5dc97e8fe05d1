/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim_compare.c - the comparison profiles of `tiprof sim --profile` (contract in sim_compare.h).
 */
#include "sim_compare.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"
#include "elf_image.h"
#include "policy_profile.h"
#include "recsim.h"

/* Contract in sim_compare.h. */
int sim_compare_init(struct sim_compare *c, struct recsim *rec, unsigned w)
{
	memset(c, 0, sizeof(*c));
	c->rec = rec;
	if (rob_policies_init(&c->rp, w))
		return -1;
	if (fe_policies_init(&c->fe, FE_DEFAULT_SKID)) {
		rob_policies_free(&c->rp);
		return -1;
	}
	c->inited = 1;
	return 0;
}

/* Contract in sim_compare.h. */
void sim_compare_free(struct sim_compare *c)
{
	if (!c->inited)
		return;
	rob_policies_free(&c->rp);
	fe_policies_free(&c->fe);
	c->inited = 0;
}

static int compare_cycle(void *ctx, uint64_t cyc, const struct core_cycle_out *o, char *err,
			 size_t errlen)
{
	struct sim_compare *c = ctx;
	int fired = recsim_fired(c->rec);

	(void)err, (void)errlen;
	rob_policies_cycle(&c->rp, &o->rob, fired);
	if (fired) {
		fe_policies_sample(&c->fe, cyc);
		c->sampled++;
	}
	for (unsigned k = 0; k < o->n_retired; k++)
		fe_policies_retire(&c->fe, o->retired[k]->pc, o->retired[k]->t_fetch,
				   o->retired[k]->t_dispatch,
				   !(o->retired[k]->events & CORE_EV_EXCEPTION));
	return 0;
}

static int compare_finish(void *ctx, char *err, size_t errlen)
{
	struct sim_compare *c = ctx;

	fe_policies_finish(&c->fe);
	for (int i = 0; i < POL_COUNT; i++)
		if (c->rp.prof[i].oom)
			goto nomem;
	if (c->fe.oom || c->fe.disp.oom || c->fe.sw.oom)
		goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory for the comparison profiles");
	return -1;
}

/* Contract in sim_compare.h. */
struct sim_consumer sim_consumer_compare(struct sim_compare *c)
{
	return (struct sim_consumer){ compare_cycle, compare_finish, c };
}

struct ent {
	uint64_t pc;
	double w;
};

static int ent_cmp(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* One policy's lines, by address. Returns 0 or -1. */
static int write_policy(FILE *f, const char *name, const struct profile *p)
{
	struct ent *e = malloc((p->n ? p->n : 1) * sizeof(*e));
	size_t n = 0;
	int bad;

	if (!e)
		return -1;
	for (size_t i = 0; i < p->cap; i++)
		if (p->used[i])
			e[n++] = (struct ent){ p->key[i], p->val[i] };
	qsort(e, n, sizeof(*e), ent_cmp);
	bad = policy_profile_write_policy(f, name, p->total);
	for (size_t i = 0; i < n && !bad; i++)
		bad = policy_profile_write_ent(f, e[i].pc, e[i].w);
	free(e);
	return bad;
}

/* Contract in sim_compare.h. */
int sim_compare_write(struct sim_compare *c, const char *path, const char *elf, char *err,
		      size_t errlen)
{
	static const int rob[] = { POL_ORACLE, POL_IDEAL, POL_LCI, POL_NCI, POL_NCI_ILP };
	struct policy_profile_hdr h;
	struct elf_image im;
	char tmp[4096];
	FILE *f;
	int bad;

	memset(&h, 0, sizeof(h));
	h.sampled = c->sampled;
	if (elf_image_load(&im, elf, err, errlen))
		return -1;
	h.build_id_len = im.build_id_len < sizeof(h.build_id) ? im.build_id_len : 0;
	memcpy(h.build_id, im.build_id, h.build_id_len);
	elf_image_free(&im);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
		return -1;
	}
	bad = policy_profile_write_hdr(f, &h);
	for (size_t i = 0; i < sizeof(rob) / sizeof(rob[0]) && !bad; i++)
		bad = write_policy(f, rob_policy_name[rob[i]], &c->rp.prof[rob[i]]);
	if (!bad)
		bad = write_policy(f, "Dispatch", &c->fe.disp);
	if (!bad)
		bad = write_policy(f, "Software", &c->fe.sw);
	if (fclose(f) || bad || rename(tmp, path)) {
		unlink(tmp);
		snprintf(err, errlen, "cannot write the comparison profiles %s", path);
		return -1;
	}
	return 0;
}
