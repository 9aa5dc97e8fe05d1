/* lbr_mem.c - fault-free reads of the traced process's own memory (process_vm_readv on
 * ourselves), shared by every ISA back end; and the decoders' code-view hook. */
#define _GNU_SOURCE
#include "lbr_isa.h"

#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

void (*lbr_isa_code_view)(uint8_t *buf, uint64_t addr, size_t len);

int lbr_isa_read(void *dst, uint64_t addr, size_t len)
{
	struct iovec local = { dst, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };
	ssize_t n = syscall(SYS_process_vm_readv, getpid(), &local, 1UL, &remote, 1UL, 0UL);
	return n == (ssize_t)len ? 0 : -1;
}

size_t lbr_isa_read_partial(uint8_t *dst, uint64_t addr, size_t len)
{
	struct iovec local = { dst, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };
	ssize_t n = syscall(SYS_process_vm_readv, getpid(), &local, 1UL, &remote, 1UL, 0UL);
	if (n >= 0)
		return (size_t)n;
	/* The first page is unreadable or the range crosses into one: retry up to the page end. */
	uint64_t page_end = (addr | 4095) + 1;
	if (page_end - addr < len)
		return lbr_isa_read_partial(dst, addr, page_end - addr);
	return 0;
}
