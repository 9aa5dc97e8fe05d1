/* SPDX-License-Identifier: Apache-2.0 */
/* RV64GC instruction-set simulator with user-level Linux emulation of
 * riscv64 glibc binaries: static executables, and dynamically linked ones
 * (PIE or not) whose interpreter and libraries come from a sysroot, as
 * `qemu-riscv64 -L` runs them. A timing model drives it one instruction
 * at a time with iss_step(); the CLI (tiprof iss) runs whole programs.
 * Decoding goes through lib/isa (rv_isa.h): there is no second decoder. */
#ifndef TIPROF_ISS_H
#define TIPROF_ISS_H

#include <stddef.h>
#include <stdint.h>

#include "rv_isa.h"

struct iss;

/* How to build the process. Zero-initialise and set what you need. */
struct iss_config {
	uint64_t seed;           /* seeds AT_RANDOM and getrandom (0 = 1) */
	int have_at_random;      /* use at_random[] verbatim for AT_RANDOM */
	uint8_t at_random[16];
	uint64_t ns_per_insn;    /* simulated time per instruction (0 = 1 ns) */
	uint64_t time_base_ns;   /* simulated wall-clock time at start
	                            (0 = 2024-01-01T00:00:00Z) */
	uint64_t stack_size;     /* bytes (0 = 8 MiB, QEMU's default) */
	uint64_t mmap_base;      /* first mmap address (0 = 0x4000000000,
	                            QEMU 7.2's TASK_UNMAPPED_BASE on rv64) */
	int qemu_compat;         /* behave like qemu-riscv64 7.2 where it
	                            departs from Linux or from determinism:
	                            sysinfo from the host, set_robust_list
	                            fails with ENOSYS, faccessat does not
	                            look in the sysroot (for lockstep runs) */
	const char *exe_path;    /* what readlink("/proc/self/exe") answers (NULL: the
	                            program file's absolute path, as Linux and QEMU do); a fixed
	                            name makes a run independent of where the file lies */
	const char *sysroot;     /* riscv64 root for the program interpreter
	                            and absolute paths (NULL or "" =
	                            "/usr/riscv64-linux-gnu", Debian's cross
	                            libc). The string is copied. A path the
	                            guest opens, stats or reads a link of is
	                            looked up as sysroot+path first and as the
	                            host path if that does not exist (QEMU's
	                            -L rule); "/" means no remapping. */
};

/* What one retired instruction did. */
struct iss_retired {
	uint64_t pc;             /* address of the instruction */
	uint64_t next_pc;        /* address of the next instruction */
	uint32_t raw;            /* instruction bits */
	struct rv_insn insn;     /* decoded instruction */
	uint64_t mem_addr;       /* effective address of a load/store/AMO */
	uint8_t mem_size;        /* bytes accessed, 0 if no memory access */
	uint8_t taken;           /* control transfer: 1 if it redirected */
	uint64_t target;         /* where a taken transfer went */
	uint8_t is_syscall;      /* ecall */
	int64_t syscall_nr;      /* a7 at the ecall */
};

/* iss_step results. */
enum iss_status {
	ISS_OK = 0,       /* instruction retired */
	ISS_EXITED = 1,   /* the program called exit/exit_group */
	ISS_ERROR = -1,   /* stopped: see iss_error() */
};

/* Create a simulator for the RISC-V ELF executable at path with argv/envp
 * (NULL-terminated). ET_EXEC programs load at their link addresses; a PIE
 * (ET_DYN) at 0x4000000000 and its PT_INTERP interpreter (read from the
 * sysroot) after the stack, where qemu-riscv64 7.2 puts them; execution
 * starts at the interpreter's entry. Returns NULL and writes a one-line
 * message into err (errlen bytes) on failure, e.g. naming the missing
 * interpreter path. */
struct iss *iss_create(const char *path, char *const argv[], char *const envp[],
		       const struct iss_config *cfg, char *err, size_t errlen);

/* Free everything the simulator owns (host files it opened stay open). */
void iss_destroy(struct iss *s);

/* Execute one instruction and describe it in *info (may be NULL).
 * Returns ISS_OK, ISS_EXITED (info describes the exiting ecall) or
 * ISS_ERROR (nothing retired; iss_error() says why: PC, instruction bits
 * and what is missing). */
int iss_step(struct iss *s, struct iss_retired *info);

/* Execute up to max_insns instructions without describing them (the
 * functional mode: same state changes as iss_step(s, NULL) repeated, at
 * a fraction of the per-instruction cost). Returns ISS_OK after
 * max_insns instructions, or ISS_EXITED / ISS_ERROR as iss_step would for
 * the instruction that ended the run; iss_instret() tells how many
 * retired. */
int iss_run(struct iss *s, uint64_t max_insns);

/* Last error message ("" if none). */
const char *iss_error(const struct iss *s);

/* Exit status passed to exit/exit_group (valid after ISS_EXITED). */
int iss_exit_code(const struct iss *s);

/* Instructions retired so far. */
uint64_t iss_instret(const struct iss *s);

/* Architectural state access (for lockstep checks and timing models). */
uint64_t iss_pc(const struct iss *s);
uint64_t iss_xreg(const struct iss *s, unsigned r);
uint64_t iss_freg(const struct iss *s, unsigned r);   /* raw 64 bits */
void iss_set_xreg(struct iss *s, unsigned r, uint64_t v);
unsigned iss_fcsr(const struct iss *s);
/* Xtpsd (selective dispatch, docs/seldisp.md): the pfstate CSR - profile flags in bits 3:0,
 * stack depth, overflow count, error bit and stack (include/tiprof/seldisp.h). A profile
 * instruction's flag is unchanged by it, so after iss_step the value tells whether it
 * executed. Setting it applies the CSR's WARL rules. */
uint64_t iss_pfstate(const struct iss *s);
void iss_set_pfstate(struct iss *s, uint64_t v);

/* Copy n bytes of guest memory at addr into out / from in. Return 0, or
 * -1 if a page is unmapped. */
int iss_read_mem(struct iss *s, uint64_t addr, void *out, size_t n);
int iss_write_mem(struct iss *s, uint64_t addr, const void *in, size_t n);

/* Full-system mode (sim/fullsys, docs/fullsys.md): the ISS executes a privileged hart whose
 * privileged state, address translation and devices belong to a machine that supplies these
 * hooks. Guest memory (iss_read_mem/iss_write_mem, the decoded-instruction cache) is then
 * *physical* memory; every load, store and fetch goes through xlate (a virtual address to a
 * physical one, or an exception cause), and a physical address with no RAM page through io.
 * A CSR the ISS does not implement itself (it keeps fflags/frm/fcsr and pfstate) goes to csr;
 * ecall, ebreak, mret, sret, wfi and sfence.vma go to sys. An exception (a fault, an illegal
 * instruction - anything the user-mode ISS would stop on) is delivered through trap, which
 * returns the handler's pc; iss_step then returns ISS_TRAP (nothing retired). Interrupts are
 * the machine's: it takes them between steps with iss_set_pc. iss_run steps one instruction
 * at a time (no threaded fast path yet). */
enum iss_acc { ISS_ACC_R = 0, ISS_ACC_W = 1, ISS_ACC_X = 2 };

struct iss_sys_ops {
	/* virtual -> physical for an access of kind acc; 0 or an exception cause */
	int (*xlate)(void *ctx, uint64_t va, enum iss_acc acc, uint64_t *pa);
	/* device access (n = 1/2/4/8 bytes) at a physical address without RAM; 0 or a cause */
	int (*io)(void *ctx, uint64_t pa, unsigned n, int write, uint64_t *v);
	/* CSR read / write; 0, or -1 = illegal instruction */
	int (*csr_read)(void *ctx, unsigned csr, uint64_t *v);
	int (*csr_write)(void *ctx, unsigned csr, uint64_t v);
	/* ecall, ebreak, mret, sret, wfi, sfence.vma (i at pc): 0 with *next set (the pc after
	 * it, possibly changed), or an exception cause */
	int (*sys)(void *ctx, const struct rv_insn *i, uint64_t pc, uint64_t *next);
	/* take exception cause (tval) at pc; returns the pc of its handler */
	uint64_t (*trap)(void *ctx, uint64_t cause, uint64_t tval, uint64_t pc);
};

#define ISS_TRAP 2   /* iss_step in full-system mode: the instruction trapped */

/* An empty hart for full-system mode (no program, no process): registers zero, pc 0. ops
 * and ctx stay the caller's. NULL on out of memory. */
struct iss *iss_create_sys(const struct iss_sys_ops *ops, void *ctx);
void iss_set_pc(struct iss *s, uint64_t pc);
/* The hart's instruction translation may have changed (satp write, sfence.vma, a change of
 * privilege): forget the last fetch page's translation. */
void iss_sys_flush(struct iss *s);
/* mstatus.FS = Off: F/D instructions and the FP CSRs raise illegal instruction. */
void iss_set_fp_off(struct iss *s, int off);
/* Forget the LR reservation (a trap, or another agent's store). */
void iss_clear_reservation(struct iss *s);
/* Map zeroed RAM at [pa, pa+len) (full-system mode: physical memory). 0 or -1. */
int iss_map_ram(struct iss *s, uint64_t pa, uint64_t len);

/* A loaded ELF object, for symbolizing guest addresses. */
enum iss_object_kind {
	ISS_OBJ_MAIN = 0,    /* the program given to iss_create */
	ISS_OBJ_INTERP = 1,  /* its PT_INTERP interpreter (ld.so) */
	ISS_OBJ_MAPPED = 2,  /* a file the guest mapped with PROT_EXEC (a shared
	                        library the interpreter or dlopen loaded) */
};

struct iss_object {
	const char *path;    /* host file it was read from (absolute when it
	                        could be resolved); owned by the simulator, valid
	                        until iss_destroy */
	uint64_t bias;       /* load bias: guest address = ELF address + bias
	                        (0 for ET_EXEC) */
	uint64_t exec_lo;    /* guest addresses [exec_lo, exec_hi) of its
	                        executable segment */
	uint64_t exec_hi;
	enum iss_object_kind kind;
};

/* The loaded objects, oldest first: the main program, the interpreter if
 * any, then executable file mappings in the order the guest made them
 * (an object with several executable segments appears once per segment;
 * an object whose executable range the guest unmapped or mapped over is
 * dropped). Copies at most n entries into out (which may be NULL when n is
 * 0) and returns how many there are. The list changes only at system
 * calls. */
size_t iss_objects(const struct iss *s, struct iss_object *out, size_t n);

/* The object whose executable range holds addr: copies it into *out (may
 * be NULL) and returns 1, or returns 0. */
int iss_object_at(const struct iss *s, uint64_t addr, struct iss_object *out);

#endif /* TIPROF_ISS_H */
