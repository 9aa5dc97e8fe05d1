/* SPDX-License-Identifier: (GPL-2.0-only OR Apache-2.0) */
/* One TIP sample as the unit delivers it (TIP_S_* registers), shared by the C reference model,
 * the driver's hardware layer, the sample file and the tools. */
#ifndef TIPROF_SAMPLE_H
#define TIPROF_SAMPLE_H

#include <stdint.h>

#include "tiprof/tiprof_regs.h"

/* Commit-state flags of a sample: TIP_S_INFO bits 4..0. No flag set means Computing. */
#define TIPROF_SF_STALLED   (1u << TIPROF_TIP_S_INFO_STALLED_SHIFT)
#define TIPROF_SF_FRONTEND  (1u << TIPROF_TIP_S_INFO_FRONTEND_SHIFT)
#define TIPROF_SF_MISPRED   (1u << TIPROF_TIP_S_INFO_MISPRED_SHIFT)
#define TIPROF_SF_FLUSH     (1u << TIPROF_TIP_S_INFO_FLUSH_SHIFT)
#define TIPROF_SF_EXCEPTION (1u << TIPROF_TIP_S_INFO_EXCEPTION_SHIFT)

struct tiprof_sample {
	uint64_t cycle;                      /* cycle counter in the sampled cycle */
	uint8_t flags;                       /* TIPROF_SF_* */
	uint8_t bank;                        /* oldest bank (Computing/Stalled) or dispatch bank (Drained) */
	uint8_t valid;                       /* bit i: addr[i] is an attributed instruction */
	uint8_t priv;                        /* privilege of the attributed instruction(s) */
	uint16_t ctx;                        /* address-space id */
	uint64_t addr[TIPROF_MAX_BANKS];     /* instruction addresses per bank; 0 where not valid */
};

/* Pack the flag, bank, valid and priv fields into the TIP_S_INFO register layout. */
static inline uint32_t tiprof_sample_info(const struct tiprof_sample *s)
{
	return (uint32_t)s->flags |
	       ((uint32_t)s->bank << TIPROF_TIP_S_INFO_BANK_SHIFT) |
	       ((uint32_t)s->valid << TIPROF_TIP_S_INFO_VALID_SHIFT) |
	       ((uint32_t)s->priv << TIPROF_TIP_S_INFO_PRIV_SHIFT);
}

/* Unpack a TIP_S_INFO register value into s (flags, bank, valid, priv). */
static inline void tiprof_sample_set_info(struct tiprof_sample *s, uint32_t info)
{
	s->flags = (uint8_t)(info & 0x1fu);
	s->bank = (uint8_t)((info & TIPROF_TIP_S_INFO_BANK_MASK) >> TIPROF_TIP_S_INFO_BANK_SHIFT);
	s->valid = (uint8_t)((info & TIPROF_TIP_S_INFO_VALID_MASK) >> TIPROF_TIP_S_INFO_VALID_SHIFT);
	s->priv = (uint8_t)((info & TIPROF_TIP_S_INFO_PRIV_MASK) >> TIPROF_TIP_S_INFO_PRIV_SHIFT);
}

#endif /* TIPROF_SAMPLE_H */
