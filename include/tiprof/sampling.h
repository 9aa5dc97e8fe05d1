/* SPDX-License-Identifier: (GPL-2.0-only OR Apache-2.0) */
/*
 * tiprof/sampling.h - choices about the unit's sampler that the driver, the simulator's
 * recorder and the tools share (docs/tip-unit.md, "The sampler").
 */
#ifndef TIPROF_SAMPLING_H
#define TIPROF_SAMPLING_H

#include <stdint.h>

/*
 * CTRL.RAND_BITS k for TIP's random interval at PERIOD p when the user names none. The unit
 * draws the sample point floor(r * p / 2^k) with r uniform on [0, 2^k): each of the p phases
 * gets floor or ceil of 2^k / p of the draws. A power of two p gets k = log2 p, every phase
 * exactly equally often; any other p gets 8 bits more than log2 p needs (at most 31), so that
 * every phase is reachable and no phase is more than 1/256 off uniform.
 */
static inline unsigned tiprof_random_bits(uint32_t p)
{
	unsigned k = 0;

	while (k < 31 && ((uint64_t)1 << k) < p)
		k++;
	if (p & (p - 1))
		k = k + 8 > 31 ? 31 : k + 8;
	return k;
}

#endif /* TIPROF_SAMPLING_H */
