/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tests/driver/hw/kstub/linux/types.h - stand-in for the kernel's <linux/types.h> in the
 * freestanding build check of driver/hw (driver/hw/hw.mk): only the types the layer
 * and the shared headers use, so any other dependency fails the check.
 */
#ifndef TIPROF_KSTUB_LINUX_TYPES_H
#define TIPROF_KSTUB_LINUX_TYPES_H

typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef __SIZE_TYPE__ size_t;

#define NULL ((void *)0)

#endif
