/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_sys.h - system calls issued inline, without libc's wrappers. The tracer's handlers and
 * the software-breakpoint mechanism's locked window must not execute code the program may be
 * traced through: a stop armed in libc fires again when the handler itself runs that
 * instruction (a queued signal per execution, or a trap inside the locked window). So every
 * system call on those paths goes through lbr_sys6. Returns the kernel's value: >= 0, or
 * -errno (errno is not touched). x86-64 and RV64 Linux. */
#ifndef TIPROF_LBR_SYS_H
#define TIPROF_LBR_SYS_H

#include <sys/syscall.h>

static inline long lbr_sys6(long nr, long a, long b, long c, long d, long e, long f)
{
#if defined(__x86_64__)
	long ret;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
#elif defined(__riscv) && __riscv_xlen == 64
	register long a0 __asm__("a0") = a;
	register long a1 __asm__("a1") = b;
	register long a2 __asm__("a2") = c;
	register long a3 __asm__("a3") = d;
	register long a4 __asm__("a4") = e;
	register long a5 __asm__("a5") = f;
	register long a7 __asm__("a7") = nr;
	__asm__ volatile("ecall"
			 : "+r"(a0)
			 : "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5), "r"(a7)
			 : "memory");
	return a0;
#else
#error "lbr_sys.h: inline system calls for this architecture"
#endif
}

#define lbr_sys0(nr) lbr_sys6((nr), 0, 0, 0, 0, 0, 0)
#define lbr_sys2(nr, a, b) lbr_sys6((nr), (long)(a), (long)(b), 0, 0, 0, 0)
#define lbr_sys3(nr, a, b, c) lbr_sys6((nr), (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define lbr_sys4(nr, a, b, c, d) lbr_sys6((nr), (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)

#endif
