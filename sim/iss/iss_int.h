/* SPDX-License-Identifier: Apache-2.0 */
/* Internal state of the ISS shared by its source files (not for users of
 * the library, who see only iss.h). */
#ifndef TIPROF_ISS_INT_H
#define TIPROF_ISS_INT_H

#include "iss.h"
#include "iss_mem.h"

#define ISS_NSIG 65
#define ISS_MAX_FDS 1024       /* host fds whose path is remembered */
#define ISS_PATH_MAX 4096

/* Decoded instructions of one guest page (its iss_mem code block), one
 * slot per 2-byte offset, decoded on first execution. The block is
 * dropped on any write to the page, munmap, mmap over it, mprotect,
 * fence.i and riscv_flush_icache (iss_mem.h), so self-modifying code and
 * JITs see their new bytes. An instruction that crosses into the next
 * page is never cached. Each slot has the full lib/isa decoding (for
 * iss_step's description and the uncommon instructions) and a compact
 * form for iss_run: a handler (enum iss_fh, 0 = not decoded yet) and the
 * operands it needs. */
#define ISS_CODE_SLOTS (ISS_PAGE_SIZE / 2)
#define ISS_CTLB_SIZE 64

struct iss_fast {
	uint8_t h;               /* enum iss_fh (iss_core.c); 0: not decoded */
	uint8_t rd, rs1, rs2;
	uint8_t len;             /* 2 or 4 */
	int64_t imm;
};

struct iss_code {
	struct iss_fast fast[ISS_CODE_SLOTS];
	struct rv_insn insn[ISS_CODE_SLOTS];
};

/* A recorded (never delivered) signal action: the guest's 4 words. */
struct iss_sigaction {
	uint64_t handler, flags, restorer, mask;
};

/* A loaded object and whether it is still mapped. */
struct iss_objrec {
	struct iss_object o;     /* o.path is malloc'd, freed by iss_destroy */
	int live;
};

struct iss {
	/* architectural state */
	uint64_t x[32];
	uint64_t f[32];          /* raw FP registers (singles NaN-boxed) */
	uint64_t pc;
	unsigned fflags;         /* accrued exceptions (NV DZ OF UF NX) */
	unsigned frm;            /* dynamic rounding mode */
	uint64_t instret;
	int res_valid;           /* LR reservation */
	uint64_t res_addr;
	uint64_t pfstate;        /* Xtpsd flags, stack, overflow count (the pfstate CSR's
	                            canonical value, include/tiprof/seldisp.h) */

	/* host FP environment cache */
	int host_rm;             /* current host rounding mode (-1 unknown) */

	/* process */
	struct iss_mem mem;
	struct iss_config cfg;
	uint64_t brk_start, brk_cur;
	uint64_t mmap_next;      /* next address the mmap search starts at */
	uint64_t rng;            /* getrandom state */
	uint64_t sigmask;
	struct iss_sigaction sigact[ISS_NSIG];
	uint64_t tid_address;
	char exe[ISS_PATH_MAX];  /* absolute program path (/proc/self/exe) */
	char sysroot[ISS_PATH_MAX]; /* "" = no path remapping */
	char *fd_path[ISS_MAX_FDS]; /* host path each open guest fd came from */
	struct iss_objrec *objs; /* loaded objects, oldest first */
	size_t nobjs, cap_objs;
	int exit_code;
	int exited;

	/* fetch: code blocks of recently executed pages (direct-mapped by
	 * vpn), an entry valid while its gen == mem.code_gen */
	struct iss_ctlb {
		uint64_t vpn;
		uint64_t gen;
		struct iss_code *code;
	} ctlb[ISS_CTLB_SIZE];
	struct rv_insn xinsn;    /* a page-crossing instruction (not cached) */

	/* full-system mode (iss.h): the machine's hooks, NULL in user mode; the exception the
	 * failing instruction raised (0 = none: an illegal instruction) */
	const struct iss_sys_ops *sys;
	void *sys_ctx;
	uint64_t exc_cause, exc_tval;
	int fp_off;              /* mstatus.FS = Off (iss_set_fp_off) */
	uint64_t fvpn, fppn;     /* the last fetch page's translation (fvpn = UINT64_MAX:
	                            none; dropped by iss_sys_flush) */

	/* last error */
	char err[1024];
};

/* Record an error message (printf-style) and return ISS_ERROR. */
int iss__fail(struct iss *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Execute the FP instruction i (op-specific semantics, fflags, NaN
 * rules). Returns ISS_OK or ISS_ERROR (invalid rounding mode). */
int iss__exec_fp(struct iss *s, const struct rv_insn *i);

/* Emulate the system call in a7 with arguments a0..a5; writes a0.
 * Returns ISS_OK, ISS_EXITED or ISS_ERROR (unknown system call). */
int iss__syscall(struct iss *s, const struct rv_insn *i);

/* Load the ELF at path and build the initial stack and registers.
 * Returns 0 or -1 with s->err set. */
int iss__load(struct iss *s, const char *path, char *const argv[], char *const envp[]);

/* Find a free range of len bytes for mmap, searching up from the hint
 * (or s->mmap_next), as QEMU 7.2's mmap_find_vma does. Returns the
 * address or 0 if none. */
uint64_t iss__find_vma(struct iss *s, uint64_t hint, uint64_t len);

/* Set s->sysroot from the configured one (NULL or "" = the default,
 * "/" = none). Returns 0 or -1 (too long). */
int iss__set_sysroot(struct iss *s, const char *sysroot);

/* The host path for a guest path, by QEMU's -L rule: an absolute path
 * whose sysroot+path exists (access F_OK) is written as that into buf
 * (n bytes) and buf is returned; otherwise guest itself is returned. */
const char *iss__host_path(const struct iss *s, const char *guest, char *buf, size_t n);

/* Record a loaded object (path is copied). Returns 0 or -1 (no memory). */
int iss__add_object(struct iss *s, const char *path, uint64_t bias, uint64_t lo,
		    uint64_t hi, enum iss_object_kind kind);

/* Drop the objects whose executable range overlaps [addr, addr+len). */
void iss__drop_objects(struct iss *s, uint64_t addr, uint64_t len);

/* Record an executable file mapping made by mmap at addr (len bytes of
 * host fd from offset off) as an object, reading the ELF program headers
 * from fd for the bias and executable range. */
void iss__map_object(struct iss *s, int fd, uint64_t addr, uint64_t len, uint64_t off);

/* Next value of the deterministic random stream (splitmix64). */
uint64_t iss__random(struct iss *s);

/* Simulated time in nanoseconds since the epoch. */
uint64_t iss__time_ns(const struct iss *s);

#endif /* TIPROF_ISS_INT_H */
