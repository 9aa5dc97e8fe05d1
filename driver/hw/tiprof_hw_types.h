/* SPDX-License-Identifier: GPL-2.0-only OR Apache-2.0 */
/*
 * tiprof_hw_types.h - the only environment dependency of the TIP hardware
 * layer: fixed-width integer types and errno codes, from the kernel's headers
 * when built into the Linux module (__KERNEL__), from the C library's headers
 * otherwise. The layer uses nothing else: no libc functions, no allocation,
 * no printing.
 */
#ifndef TIPROF_HW_TYPES_H
#define TIPROF_HW_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>	/* uint8_t .. uint64_t, size_t */
#include <linux/errno.h>	/* EIO, EINVAL, ENODEV, ... */
#else
#include <stddef.h>
#include <stdint.h>
#include <errno.h>		/* constants only, errno is never used */
#endif

#endif /* TIPROF_HW_TYPES_H */
