/* SPDX-License-Identifier: Apache-2.0 */
/* fe_policies.c - Dispatch and Software policies from retired records (contracts in
 * fe_policies.h). */
#include "fe_policies.h"

#include <stdlib.h>
#include <string.h>

/* Append v; returns -1 when the queue cannot grow. */
static int q_push(struct fe_queue *q, uint64_t v)
{
	if (q->n == q->cap) {
		size_t ncap = q->cap ? 2 * q->cap : 64;
		uint64_t *nv = malloc(ncap * sizeof(*nv));

		if (!nv)
			return -1;
		for (size_t i = 0; i < q->n; i++)
			nv[i] = q->v[(q->head + i) % q->cap];
		free(q->v);
		q->v = nv;
		q->cap = ncap;
		q->head = 0;
	}
	q->v[(q->head + q->n) % q->cap] = v;
	q->n++;
	return 0;
}

static uint64_t q_front(const struct fe_queue *q)
{
	return q->v[q->head];
}

static void q_pop(struct fe_queue *q)
{
	q->head = (q->head + 1) % q->cap;
	q->n--;
}

int fe_policies_init(struct fe_policies *fp, uint64_t skid)
{
	memset(fp, 0, sizeof(*fp));
	fp->skid = skid;
	if (profile_init(&fp->disp) || profile_init(&fp->sw)) {
		fe_policies_free(fp);
		return -1;
	}
	return 0;
}

void fe_policies_free(struct fe_policies *fp)
{
	profile_free(&fp->disp);
	profile_free(&fp->sw);
	free(fp->dq.v);
	free(fp->sq.v);
	memset(fp, 0, sizeof(*fp));
}

void fe_policies_sample(struct fe_policies *fp, uint64_t t)
{
	fp->samples++;
	if (q_push(&fp->dq, t) || q_push(&fp->sq, t + fp->skid))
		fp->oom = 1;
}

void fe_policies_retire(struct fe_policies *fp, uint64_t pc, uint64_t t_fetch,
			uint64_t t_dispatch, int committed)
{
	/* DISPATCH: every waiting sample taken at or before this dispatch tags this record
	 * (earlier records were dispatched before the sample). */
	while (fp->dq.n && q_front(&fp->dq) <= t_dispatch) {
		if (committed) {
			profile_add(&fp->disp, pc, 1.0);
			fp->disp_attributed++;
		} else {
			fp->disp_dropped++;
		}
		q_pop(&fp->dq);
	}
	/* SOFTWARE: a new fetch group closes the previous one for targets before it. */
	if (!fp->have_group || t_fetch != fp->group_t) {
		while (fp->sq.n && q_front(&fp->sq) < t_fetch) {
			/* before the very first fetch, the first instruction is the front end's */
			profile_add(&fp->sw, fp->have_group ? fp->group_pc : pc, 1.0);
			q_pop(&fp->sq);
		}
		fp->have_group = 1;
		fp->group_t = t_fetch;
		fp->group_pc = pc;
	}
}

void fe_policies_finish(struct fe_policies *fp)
{
	for (; fp->sq.n; q_pop(&fp->sq))
		if (fp->have_group)
			profile_add(&fp->sw, fp->group_pc, 1.0);
	fp->disp_unresolved += fp->dq.n;
	fp->dq.n = 0;
}
