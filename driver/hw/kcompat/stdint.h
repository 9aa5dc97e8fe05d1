/* SPDX-License-Identifier: GPL-2.0-only OR Apache-2.0 */
/*
 * kcompat/stdint.h - kernel builds only (the module's Kbuild adds -I for this
 * directory). The shared headers include/tiprof/tiprof_regs.h and sample.h
 * include <stdint.h>, which a kernel build (-nostdinc) does not have; the
 * kernel's <linux/types.h> defines the same uint8_t .. uint64_t types.
 * User-space builds never see this directory.
 */
#ifndef TIPROF_KCOMPAT_STDINT_H
#define TIPROF_KCOMPAT_STDINT_H

#ifndef __KERNEL__
#error "driver/hw/kcompat is for kernel builds only"
#endif

#include <linux/types.h>

#endif /* TIPROF_KCOMPAT_STDINT_H */
