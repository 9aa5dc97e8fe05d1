/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tests/driver/hw/kstub/linux/errno.h - stand-in for the kernel's <linux/errno.h> in the
 * freestanding build check of driver/hw; the values are the kernel's (asm-generic).
 */
#ifndef TIPROF_KSTUB_LINUX_ERRNO_H
#define TIPROF_KSTUB_LINUX_ERRNO_H

#define EIO		5
#define EAGAIN		11
#define EBUSY		16
#define ENODEV		19
#define EINVAL		22
#define EPROTO		71
#define EOPNOTSUPP	95
#define EREMOTEIO	121

#endif
