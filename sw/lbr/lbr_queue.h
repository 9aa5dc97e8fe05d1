/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_queue.h - bounded lock-free multi-producer multi-consumer queue of pointers (Vyukov's
 * sequence-numbered ring), used to hand buffers between traced threads' signal handlers and
 * the writer thread. Push and pop never block and never allocate, so both are
 * async-signal-safe; a push interrupted by a handler on the same thread does not deadlock
 * (the handler takes the next cell), a pop may report empty while an interrupted push has
 * reserved but not yet published its cell. */
#ifndef TIPROF_LBR_QUEUE_H
#define TIPROF_LBR_QUEUE_H

#include <stdatomic.h>
#include <stddef.h>

#define LBR_QUEUE_CAP 4096 /* cells; power of two */

struct lbr_queue_cell {
	atomic_size_t seq; /* lap-tagged sequence number of the cell */
	void *val;         /* payload, valid when seq == position + 1 */
};

struct lbr_queue {
	struct lbr_queue_cell cell[LBR_QUEUE_CAP];
	_Alignas(64) atomic_size_t head; /* next position to pop */
	_Alignas(64) atomic_size_t tail; /* next position to push */
};

/* Make q empty. Not thread-safe: call before any push or pop. */
void lbr_queue_init(struct lbr_queue *q);
/* Append v (non-NULL). Returns 0, or -1 if the queue is full. */
int lbr_queue_push(struct lbr_queue *q, void *v);
/* Remove the oldest pointer; NULL when empty. */
void *lbr_queue_pop(struct lbr_queue *q);

#endif
