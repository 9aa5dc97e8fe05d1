/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_mem.c - fault-free reads of the traced process's own memory (process_vm_readv on
 * ourselves), shared by every ISA back end; and the decoders' code-view hook.
 *
 * Kernels built without CONFIG_CROSS_MEMORY_ATTACH (tinyconfig, e.g. the system tier's riscv64
 * test kernel) answer process_vm_readv with ENOSYS: the reads then go through pread on
 * /proc/self/mem, just as fault-free (EIO, or a short count, at an unmapped address). That fd
 * is opened on first need with async-signal-safe calls only, moved at or above fd 600 like the
 * tracer's perf fds, and reopened in a forked child (it names the mm it was opened on).
 * Every system call here is inline (lbr_sys.h): these reads run inside the handlers and the
 * software-breakpoint mechanism's locked window, where a patched libc wrapper must not run. */
#define _GNU_SOURCE
#include "lbr_isa.h"
#include "lbr_sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

void (*lbr_isa_code_view)(uint8_t *buf, uint64_t addr, size_t len);

static atomic_int no_vm_readv;     /* process_vm_readv answered ENOSYS */
static _Atomic uint64_t mem_fd;    /* pid << 32 | (fd + 1) of /proc/self/mem; 0: none */

/* The /proc/self/mem fd of this process, or -1. */
static int self_mem(void)
{
	uint64_t pid = (uint64_t)lbr_sys0(SYS_getpid), v = atomic_load(&mem_fd);
	if (v && v >> 32 == pid)
		return (int)(uint32_t)v - 1;
	long fd = lbr_sys4(SYS_openat, AT_FDCWD, "/proc/self/mem", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	long hi = lbr_sys3(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 600);
	if (hi >= 0) {
		lbr_sys2(SYS_close, fd, 0);
		fd = hi;
	}
	if (!atomic_compare_exchange_strong(&mem_fd, &v, pid << 32 | (uint32_t)(fd + 1))) {
		lbr_sys2(SYS_close, fd, 0); /* another thread opened it first */
		return v >> 32 == pid ? (int)(uint32_t)v - 1 : -1;
	}
	if (v)
		lbr_sys2(SYS_close, (int)(uint32_t)v - 1, 0); /* the parent's, inherited through fork */
	return (int)fd;
}

/* Up to len bytes at addr into dst: the count read, or -1. */
static ssize_t read_self(void *dst, uint64_t addr, size_t len)
{
	if (!atomic_load(&no_vm_readv)) {
		struct iovec local = { dst, len };
		struct iovec remote = { (void *)(uintptr_t)addr, len };
		long n = lbr_sys6(SYS_process_vm_readv, lbr_sys0(SYS_getpid), (long)&local, 1,
				  (long)&remote, 1, 0);
		if (n != -ENOSYS)
			return n < 0 ? -1 : n;
		atomic_store(&no_vm_readv, 1);
	}
	int fd = self_mem();
	if (fd < 0 || addr > (uint64_t)INT64_MAX)
		return -1;
	long n = lbr_sys4(SYS_pread64, fd, dst, len, (long)addr);
	return n < 0 ? -1 : n;
}

int lbr_isa_read(void *dst, uint64_t addr, size_t len)
{
	return read_self(dst, addr, len) == (ssize_t)len ? 0 : -1;
}

size_t lbr_isa_read_partial(uint8_t *dst, uint64_t addr, size_t len)
{
	ssize_t n = read_self(dst, addr, len);
	if (n >= 0)
		return (size_t)n;
	/* The first page is unreadable or the range crosses into one: retry up to the page end. */
	uint64_t page_end = (addr | 4095) + 1;
	if (page_end - addr < len)
		return lbr_isa_read_partial(dst, addr, page_end - addr);
	return 0;
}
