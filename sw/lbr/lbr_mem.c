/* lbr_mem.c - fault-free reads of the traced process's own memory (process_vm_readv on
 * ourselves), shared by every ISA back end; and the decoders' code-view hook.
 *
 * Kernels built without CONFIG_CROSS_MEMORY_ATTACH (tinyconfig, e.g. the system tier's riscv64
 * test kernel) answer process_vm_readv with ENOSYS: the reads then go through pread on
 * /proc/self/mem, just as fault-free (EIO, or a short count, at an unmapped address). That fd
 * is opened on first need with async-signal-safe calls only, moved at or above fd 600 like the
 * tracer's perf fds, and reopened in a forked child (it names the mm it was opened on). */
#define _GNU_SOURCE
#include "lbr_isa.h"

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
	uint64_t pid = (uint64_t)getpid(), v = atomic_load(&mem_fd);
	if (v && v >> 32 == pid)
		return (int)(uint32_t)v - 1;
	int fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int hi = fcntl(fd, F_DUPFD_CLOEXEC, 600);
	if (hi >= 0) {
		close(fd);
		fd = hi;
	}
	if (!atomic_compare_exchange_strong(&mem_fd, &v, pid << 32 | (uint32_t)(fd + 1))) {
		close(fd); /* another thread opened it first */
		return v >> 32 == pid ? (int)(uint32_t)v - 1 : -1;
	}
	if (v)
		close((int)(uint32_t)v - 1); /* the parent's, inherited through fork */
	return fd;
}

/* Up to len bytes at addr into dst: the count read, or -1. */
static ssize_t read_self(void *dst, uint64_t addr, size_t len)
{
	if (!atomic_load(&no_vm_readv)) {
		struct iovec local = { dst, len };
		struct iovec remote = { (void *)(uintptr_t)addr, len };
		ssize_t n = syscall(SYS_process_vm_readv, getpid(), &local, 1UL, &remote, 1UL, 0UL);
		if (n >= 0 || errno != ENOSYS)
			return n;
		atomic_store(&no_vm_readv, 1);
	}
	int fd = self_mem();
	if (fd < 0 || addr > (uint64_t)INT64_MAX)
		return -1;
	return pread(fd, dst, len, (off_t)addr);
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
