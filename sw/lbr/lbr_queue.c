/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_queue.c - the bounded lock-free MPMC pointer queue of lbr_queue.h. */
#include "lbr_queue.h"

void lbr_queue_init(struct lbr_queue *q)
{
	for (size_t i = 0; i < LBR_QUEUE_CAP; i++) {
		atomic_store_explicit(&q->cell[i].seq, i, memory_order_relaxed);
		q->cell[i].val = NULL;
	}
	atomic_store_explicit(&q->head, 0, memory_order_relaxed);
	atomic_store_explicit(&q->tail, 0, memory_order_release);
}

int lbr_queue_push(struct lbr_queue *q, void *v)
{
	size_t pos = atomic_load_explicit(&q->tail, memory_order_relaxed);
	for (;;) {
		struct lbr_queue_cell *c = &q->cell[pos & (LBR_QUEUE_CAP - 1)];
		size_t seq = atomic_load_explicit(&c->seq, memory_order_acquire);
		long dif = (long)seq - (long)pos;
		if (dif == 0) {
			if (atomic_compare_exchange_weak_explicit(&q->tail, &pos, pos + 1,
								  memory_order_relaxed,
								  memory_order_relaxed)) {
				c->val = v;
				atomic_store_explicit(&c->seq, pos + 1, memory_order_release);
				return 0;
			}
		} else if (dif < 0) {
			return -1; /* full */
		} else {
			pos = atomic_load_explicit(&q->tail, memory_order_relaxed);
		}
	}
}

void *lbr_queue_pop(struct lbr_queue *q)
{
	size_t pos = atomic_load_explicit(&q->head, memory_order_relaxed);
	for (;;) {
		struct lbr_queue_cell *c = &q->cell[pos & (LBR_QUEUE_CAP - 1)];
		size_t seq = atomic_load_explicit(&c->seq, memory_order_acquire);
		long dif = (long)seq - (long)(pos + 1);
		if (dif == 0) {
			if (atomic_compare_exchange_weak_explicit(&q->head, &pos, pos + 1,
								  memory_order_relaxed,
								  memory_order_relaxed)) {
				void *v = c->val;
				atomic_store_explicit(&c->seq, pos + LBR_QUEUE_CAP,
						      memory_order_release);
				return v;
			}
		} else if (dif < 0) {
			return NULL; /* empty (or the oldest push is not yet published) */
		} else {
			pos = atomic_load_explicit(&q->head, memory_order_relaxed);
		}
	}
}
