/* SPDX-License-Identifier: Apache-2.0 */
/* Linux system-call emulation for riscv64 user programs. Files and
 * terminals pass through to the host; memory management, time, random
 * numbers, identities and signals are emulated deterministically. An
 * unknown call stops the run with an error naming it. */
#define _GNU_SOURCE	/* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/uio.h>
#include <unistd.h>

#include "iss_int.h"

/* riscv64 (asm-generic) system call numbers. */
enum {
	NR_getcwd = 17, NR_dup = 23, NR_dup3 = 24, NR_fcntl = 25, NR_ioctl = 29,
	NR_mkdirat = 34, NR_unlinkat = 35, NR_faccessat = 48, NR_chdir = 49,
	NR_openat = 56, NR_close = 57, NR_pipe2 = 59, NR_getdents64 = 61, NR_fadvise64 = 223,
	NR_lseek = 62, NR_read = 63, NR_write = 64, NR_readv = 65, NR_writev = 66,
	NR_pread64 = 67, NR_pwrite64 = 68, NR_readlinkat = 78, NR_newfstatat = 79,
	NR_fstat = 80, NR_fsync = 82, NR_exit = 93, NR_exit_group = 94,
	NR_set_tid_address = 96, NR_futex = 98, NR_set_robust_list = 99,
	NR_nanosleep = 101, NR_clock_gettime = 113, NR_clock_getres = 114,
	NR_clock_nanosleep = 115, NR_sched_getaffinity = 123, NR_sched_yield = 124,
	NR_kill = 129, NR_tkill = 130, NR_tgkill = 131, NR_sigaltstack = 132,
	NR_rt_sigaction = 134, NR_rt_sigprocmask = 135, NR_times = 153,
	NR_uname = 160, NR_getrlimit = 163, NR_getrusage = 165, NR_umask = 166,
	NR_prctl = 167, NR_gettimeofday = 169, NR_getpid = 172, NR_getppid = 173,
	NR_getuid = 174, NR_geteuid = 175, NR_getgid = 176, NR_getegid = 177,
	NR_gettid = 178, NR_sysinfo = 179, NR_brk = 214, NR_munmap = 215,
	NR_mremap = 216, NR_mmap = 222, NR_mprotect = 226, NR_msync = 227,
	NR_madvise = 233, NR_riscv_hwprobe = 258, NR_riscv_flush_icache = 259,
	NR_prlimit64 = 261, NR_getrandom = 278, NR_statx = 291, NR_rseq = 293,
	NR_faccessat2 = 439, NR_fchmod = 52, NR_fchmodat = 53, NR_fchownat = 54, NR_fchown = 55,
	NR_utimensat = 88,
};

#define GUEST_PID 4242
#define MAP_FIXED_ 0x10
#define MAP_ANON_ 0x20
#define MAP_FIXED_NOREPLACE_ 0x100000
#define MREMAP_MAYMOVE_ 1
#define MREMAP_FIXED_ 2
#define PAGE_UP(x) (((x) + ISS_PAGE_MASK) & ~ISS_PAGE_MASK)

/* Arguments of the call being emulated. */
struct sc {
	struct iss *s;
	uint64_t a[6];
};

static int64_t neg_errno(void) { return -(int64_t)errno; }

/* Copy a guest string into a fresh host buffer; NULL if unmapped. */
static char *guest_str(struct iss *s, uint64_t addr)
{
	long n = iss_mem_strnlen(&s->mem, addr, 4096);
	char *p;

	if (n < 0 || !(p = malloc((size_t)n + 1)))
		return NULL;
	iss_mem_read(&s->mem, addr, p, (size_t)n);
	p[n] = '\0';
	return p;
}

static int put_u64(struct iss *s, uint64_t addr, uint64_t v)
{
	return iss_mem_write(&s->mem, addr, &v, 8);
}

/* ---- paths and file descriptors -------------------------------------- */

/* Debian's riscv64 cross libc (package libc6-riscv64-cross), what
 * `qemu-riscv64 -L /usr/riscv64-linux-gnu` is given. */
#define ISS_DEFAULT_SYSROOT "/usr/riscv64-linux-gnu"

int iss__set_sysroot(struct iss *s, const char *sysroot)
{
	char buf[ISS_PATH_MAX];
	size_t n;

	if (!sysroot || !sysroot[0])
		sysroot = ISS_DEFAULT_SYSROOT;
	if (realpath(sysroot, buf))	/* absolute, no symlinks; kept as given if missing */
		sysroot = buf;
	n = strlen(sysroot);
	if (n >= sizeof(s->sysroot))
		return -1;
	while (n > 0 && sysroot[n - 1] == '/')
		n--;			/* "/" becomes "": no remapping */
	memcpy(s->sysroot, sysroot, n);
	s->sysroot[n] = '\0';
	return 0;
}

/* QEMU 7.2's path(): absolute guest paths are looked up in the sysroot
 * first (util/path.c; QEMU caches each answer, we look every time). */
const char *iss__host_path(const struct iss *s, const char *guest, char *buf, size_t n)
{
	if (!s->sysroot[0] || guest[0] != '/')
		return guest;
	if (snprintf(buf, n, "%s%s", s->sysroot, guest) >= (int)n || access(buf, F_OK))
		return guest;
	return buf;
}

/* Remember (or forget, path NULL) where the host fd fd came from. */
static void set_fd_path(struct iss *s, int fd, const char *path)
{
	char real[ISS_PATH_MAX];

	if (fd < 0 || fd >= ISS_MAX_FDS)
		return;
	free(s->fd_path[fd]);
	s->fd_path[fd] = NULL;
	if (path)
		s->fd_path[fd] = strdup(realpath(path, real) ? real : path);
}

/* fd2 is now a duplicate of fd (dup, dup3, fcntl F_DUPFD). */
static int64_t dup_fd_path(struct iss *s, int fd, int64_t fd2)
{
	if (fd2 >= 0 && fd2 < ISS_MAX_FDS && fd2 != fd) {
		free(s->fd_path[fd2]);
		s->fd_path[fd2] = fd >= 0 && fd < ISS_MAX_FDS && s->fd_path[fd] ?
			strdup(s->fd_path[fd]) : NULL;
	}
	return fd2;
}

/* ---- files ------------------------------------------------------------ */

static int64_t sys_read_write(struct sc *c, int is_write, int positional)
{
	uint64_t len = c->a[2], done = 0;
	char *buf = malloc(len > (1u << 20) ? (1u << 20) : (len ? len : 1));

	if (!buf)
		return -ENOMEM;
	while (done < len) {
		size_t k = len - done > (1u << 20) ? (1u << 20) : (size_t)(len - done);
		ssize_t r;
		off_t off = (off_t)(c->a[3] + done);

		if (is_write) {
			if (iss_mem_read(&c->s->mem, c->a[1] + done, buf, k)) {
				free(buf);
				return done ? (int64_t)done : -EFAULT;
			}
			r = positional ? pwrite((int)c->a[0], buf, k, off) : write((int)c->a[0], buf, k);
		} else {
			r = positional ? pread((int)c->a[0], buf, k, off) : read((int)c->a[0], buf, k);
			if (r > 0 && iss_mem_write(&c->s->mem, c->a[1] + done, buf, (size_t)r)) {
				free(buf);
				return -EFAULT;
			}
		}
		if (r < 0) {
			int e = errno;
			free(buf);
			return done ? (int64_t)done : -(int64_t)e;
		}
		done += (uint64_t)r;
		if ((size_t)r < k)
			break;
	}
	free(buf);
	return (int64_t)done;
}

static int64_t sys_readv_writev(struct sc *c, int is_write)
{
	uint64_t iov = c->a[1], n = c->a[2], i;
	int64_t total = 0;

	for (i = 0; i < n; i++) {
		uint64_t base, len;
		struct sc one = *c;
		int64_t r;

		if (iss_mem_read(&c->s->mem, iov + 16 * i, &base, 8) ||
		    iss_mem_read(&c->s->mem, iov + 16 * i + 8, &len, 8))
			return -EFAULT;
		one.a[1] = base;
		one.a[2] = len;
		r = sys_read_write(&one, is_write, 0);
		if (r < 0)
			return total ? total : r;
		total += r;
		if ((uint64_t)r < len)
			break;
	}
	return total;
}

/* Write a host struct stat in the riscv64 (asm-generic) layout. */
static int64_t put_stat(struct iss *s, uint64_t addr, const struct stat *st)
{
	uint8_t b[128];
	uint64_t q;
	uint32_t w;

	memset(b, 0, sizeof(b));
#define Q(off, v) (q = (uint64_t)(v), memcpy(b + (off), &q, 8))
#define W(off, v) (w = (uint32_t)(v), memcpy(b + (off), &w, 4))
	Q(0, st->st_dev); Q(8, st->st_ino); W(16, st->st_mode); W(20, st->st_nlink);
	W(24, st->st_uid); W(28, st->st_gid); Q(32, st->st_rdev); Q(48, st->st_size);
	W(56, st->st_blksize); Q(64, st->st_blocks);
	Q(72, st->st_atim.tv_sec); Q(80, st->st_atim.tv_nsec);
	Q(88, st->st_mtim.tv_sec); Q(96, st->st_mtim.tv_nsec);
	Q(104, st->st_ctim.tv_sec); Q(112, st->st_ctim.tv_nsec);
#undef Q
#undef W
	return iss_mem_write(&s->mem, addr, b, sizeof(b)) ? -EFAULT : 0;
}

static int64_t sys_fstatat(struct sc *c, int is_fstat)
{
	struct stat st;
	char *path = NULL;
	int r;

	if (is_fstat) {
		r = fstat((int)c->a[0], &st);
	} else {
		char buf[ISS_PATH_MAX];

		if (!(path = guest_str(c->s, c->a[1])))
			return -EFAULT;
		r = fstatat((int)c->a[0], iss__host_path(c->s, path, buf, sizeof(buf)), &st,
			    (int)c->a[3]);
		free(path);
	}
	if (r < 0)
		return neg_errno();
	return put_stat(c->s, is_fstat ? c->a[1] : c->a[2], &st);
}

static int64_t sys_openat(struct sc *c)
{
	char *path = guest_str(c->s, c->a[1]), buf[ISS_PATH_MAX];
	const char *host;
	int fd;

	if (!path)
		return -EFAULT;
	host = iss__host_path(c->s, path, buf, sizeof(buf));
	fd = openat((int)c->a[0], host, (int)c->a[2], (mode_t)c->a[3]);
	if (fd < 0) {
		free(path);
		return neg_errno();
	}
	set_fd_path(c->s, fd, host);
	free(path);
	return fd;
}

static int64_t sys_readlinkat(struct sc *c)
{
	char *path = guest_str(c->s, c->a[1]), out[4096], buf[ISS_PATH_MAX];
	ssize_t n;

	if (!path)
		return -EFAULT;
	if (!strcmp(path, "/proc/self/exe")) {
		const char *exe = c->s->cfg.exe_path ? c->s->cfg.exe_path : c->s->exe;

		n = (ssize_t)strnlen(exe, sizeof(out));
		memcpy(out, exe, (size_t)n);
	} else {
		n = readlinkat((int)c->a[0], iss__host_path(c->s, path, buf, sizeof(buf)), out,
			       sizeof(out));
	}
	free(path);
	if (n < 0)
		return neg_errno();
	if ((uint64_t)n > c->a[3])
		n = (ssize_t)c->a[3];
	return iss_mem_write(&c->s->mem, c->a[2], out, (size_t)n) ? -EFAULT : n;
}

static int64_t sys_ioctl(struct sc *c)
{
	int fd = (int)c->a[0];
	unsigned long req = (unsigned long)c->a[1];
	uint8_t buf[64];

	if (req != 0x5401 /* TCGETS */ && req != 0x5413 /* TIOCGWINSZ */)
		return -ENOTTY;
	if (ioctl(fd, req, buf) < 0)
		return neg_errno();
	return iss_mem_write(&c->s->mem, c->a[2], buf, req == 0x5401 ? 36 : 8) ? -EFAULT : 0;
}

/* utimensat(dirfd, path or NULL, times or NULL, flags): the timestamps a program copies to a
 * file it wrote (zstd -o, cp -p). struct timespec is two 64-bit words on rv64 as on the host. */
static int64_t sys_utimensat(struct sc *c)
{
	struct timespec ts[2];
	uint64_t raw[4] = { 0, 0, 0, 0 };
	char *path = NULL;
	int r;

	if (c->a[2] && iss_mem_read(&c->s->mem, c->a[2], raw, sizeof(raw)))
		return -EFAULT;
	for (int i = 0; i < 2; i++) {
		ts[i].tv_sec = (time_t)raw[2 * i];
		ts[i].tv_nsec = (long)raw[2 * i + 1];
	}
	if (c->a[1] && !(path = guest_str(c->s, c->a[1])))
		return -EFAULT;
	if (path)
		r = utimensat((int)c->a[0], path, c->a[2] ? ts : NULL, (int)c->a[3]);
	else	/* futimens: the file open on dirfd */
		r = futimens((int)c->a[0], c->a[2] ? ts : NULL);
	free(path);
	return r < 0 ? neg_errno() : 0;
}

/* fchmod, fchown and their *at forms (a program giving its output the input's mode). */
static int64_t sys_chmod_chown(struct sc *c, int nr)
{
	char *path = NULL;
	int r;

	if ((nr == NR_fchmodat || nr == NR_fchownat) && !(path = guest_str(c->s, c->a[1])))
		return -EFAULT;
	switch (nr) {
	case NR_fchmod: r = fchmod((int)c->a[0], (mode_t)c->a[1]); break;
	case NR_fchown: r = fchown((int)c->a[0], (uid_t)c->a[1], (gid_t)c->a[2]); break;
	case NR_fchmodat: r = fchmodat((int)c->a[0], path, (mode_t)c->a[2], 0); break;
	default: r = fchownat((int)c->a[0], path, (uid_t)c->a[2], (gid_t)c->a[3], (int)c->a[4]);
	}
	free(path);
	return r < 0 ? neg_errno() : 0;
}

static int64_t sys_path_call(struct sc *c, int nr)
{
	char *path = guest_str(c->s, nr == NR_chdir ? c->a[0] : c->a[1]), buf[ISS_PATH_MAX];
	const char *host;
	int r;

	if (!path)
		return -EFAULT;
	switch (nr) {
	case NR_chdir: r = chdir(path); break;
	case NR_mkdirat: r = mkdirat((int)c->a[0], path, (mode_t)c->a[2]); break;
	case NR_unlinkat: r = unlinkat((int)c->a[0], path, (int)c->a[2]); break;
	default:
		/* QEMU 7.2 does not look for faccessat paths in the sysroot */
		host = c->s->cfg.qemu_compat ? path : iss__host_path(c->s, path, buf, sizeof(buf));
		r = faccessat((int)c->a[0], host, (int)c->a[2], nr == NR_faccessat2 ? (int)c->a[3] : 0);
		break;
	}
	free(path);
	return r < 0 ? neg_errno() : 0;
}

/* ---- memory management ------------------------------------------------- */

uint64_t iss__find_vma(struct iss *s, uint64_t hint, uint64_t len)
{
	uint64_t a = hint ? hint & ~ISS_PAGE_MASK : s->mmap_next;
	uint64_t start = a, limit = 1ull << 47;

	for (; a + len <= limit; a += ISS_PAGE_SIZE) {
		if (iss_mem_is_free(&s->mem, a, len)) {
			if (start == s->mmap_next)
				s->mmap_next = a + len;
			return a;
		}
	}
	return 0;
}

static unsigned prot_of(uint64_t p) { return (unsigned)p & 7; }

static int64_t sys_mmap(struct sc *c)
{
	struct iss *s = c->s;
	uint64_t addr = c->a[0], len = PAGE_UP(c->a[1]), flags = c->a[3];
	int fd = (int)c->a[4];

	if (len == 0 || (c->a[5] & ISS_PAGE_MASK))
		return -EINVAL;
	if (flags & (MAP_FIXED_ | MAP_FIXED_NOREPLACE_)) {
		if (addr & ISS_PAGE_MASK)
			return -EINVAL;
		if ((flags & MAP_FIXED_NOREPLACE_) && !iss_mem_is_free(&s->mem, addr, len))
			return -EEXIST;
		iss_mem_unmap(&s->mem, addr, len);
		iss__drop_objects(s, addr, len);
	} else {
		addr = iss__find_vma(s, addr, len);
		if (!addr)
			return -ENOMEM;
	}
	if (iss_mem_map(&s->mem, addr, len, prot_of(c->a[2])))
		return -ENOMEM;
	if (!(flags & MAP_ANON_)) { /* private copy of the file contents */
		uint64_t done = 0;
		char buf[65536];

		/* whole pages of the file, as a host mapping holds them */
		while (done < len) {
			size_t k = len - done > sizeof(buf) ? sizeof(buf) : (size_t)(len - done);
			ssize_t r = pread(fd, buf, k, (off_t)(c->a[5] + done));

			if (r < 0) {
				int e = errno;
				iss_mem_unmap(&s->mem, addr, len);
				return -(int64_t)e;
			}
			if (r == 0)
				break;
			iss_mem_write(&s->mem, addr + done, buf, (size_t)r);
			done += (uint64_t)r;
		}
		if (c->a[2] & ISS_PROT_X)
			iss__map_object(s, fd, addr, c->a[1], c->a[5]);
	}
	return (int64_t)addr;
}

static int64_t sys_mremap(struct sc *c)
{
	struct iss *s = c->s;
	uint64_t old = c->a[0], olen = PAGE_UP(c->a[1]), nlen = PAGE_UP(c->a[2]);
	uint64_t flags = c->a[3], dst;
	uint8_t *buf;

	if ((old & ISS_PAGE_MASK) || nlen == 0)
		return -EINVAL;
	if (nlen <= olen) {
		iss_mem_unmap(&s->mem, old + nlen, olen - nlen);
		return (int64_t)old;
	}
	if (flags & MREMAP_FIXED_)
		return -EINVAL;
	if (!(flags & MREMAP_MAYMOVE_)) {
		if (!iss_mem_is_free(&s->mem, old + olen, nlen - olen))
			return -ENOMEM;
		return iss_mem_map(&s->mem, old + olen, nlen - olen, ISS_PROT_R | ISS_PROT_W)
			? -ENOMEM : (int64_t)old;
	}
	/* QEMU 7.2 always moves a MAYMOVE remap to a fresh area. */
	dst = iss__find_vma(s, 0, nlen);
	if (!dst || !(buf = malloc(olen)))
		return -ENOMEM;
	if (iss_mem_read(&s->mem, old, buf, olen) ||
	    iss_mem_map(&s->mem, dst, nlen, ISS_PROT_R | ISS_PROT_W)) {
		free(buf);
		return -EFAULT;
	}
	iss_mem_write(&s->mem, dst, buf, olen);
	free(buf);
	iss_mem_unmap(&s->mem, old, olen);
	return (int64_t)dst;
}

static int64_t sys_brk(struct iss *s, uint64_t want)
{
	uint64_t have = PAGE_UP(s->brk_cur);

	if (want == 0 || want < s->brk_start)
		return (int64_t)s->brk_cur;
	if (PAGE_UP(want) > have) {
		if (!iss_mem_is_free(&s->mem, have, PAGE_UP(want) - have) ||
		    iss_mem_map(&s->mem, have, PAGE_UP(want) - have, ISS_PROT_R | ISS_PROT_W))
			return (int64_t)s->brk_cur;
	}
	if (want > s->brk_cur) { /* memory above the old break reads as zero */
		uint64_t a;
		for (a = s->brk_cur; a < want && a < have; a++) {
			uint8_t z = 0;
			iss_mem_write(&s->mem, a, &z, 1);
		}
	}
	s->brk_cur = want;
	return (int64_t)want;
}

/* ---- time, identity, misc --------------------------------------------- */

static int64_t put_timespec(struct iss *s, uint64_t addr, uint64_t ns, uint64_t div)
{
	uint64_t t[2] = { ns / 1000000000ull, (ns % 1000000000ull) / div };

	if (!addr)
		return 0;
	return iss_mem_write(&s->mem, addr, t, 16) ? -EFAULT : 0;
}

static int64_t sys_clock_gettime(struct sc *c)
{
	uint64_t ns = iss__time_ns(c->s);

	if (c->a[0] != 0 && c->a[0] != 5 && c->a[0] != 8) /* not REALTIME(_COARSE), BOOTTIME */
		ns -= c->s->cfg.time_base_ns - 1000ull * 1000000000ull; /* monotonic from 1000 s */
	return put_timespec(c->s, c->a[1], ns, 1);
}

static int64_t sys_uname(struct sc *c)
{
	static const char *const f[6] = { "Linux", "tiprof", "6.1.0", "#1 SMP tiprof-iss",
		"riscv64", "(none)" };
	char u[6 * 65];
	int k;

	memset(u, 0, sizeof(u));
	for (k = 0; k < 6; k++)
		strcpy(u + 65 * k, f[k]);
	return iss_mem_write(&c->s->mem, c->a[0], u, sizeof(u)) ? -EFAULT : 0;
}

static int64_t sys_getrandom(struct sc *c)
{
	uint64_t i;

	for (i = 0; i < c->a[1]; i++) {
		uint8_t b = (uint8_t)iss__random(c->s);
		if (iss_mem_write(&c->s->mem, c->a[0] + i, &b, 1))
			return -EFAULT;
	}
	return (int64_t)c->a[1];
}

static int64_t sys_prlimit(struct sc *c, uint64_t resource, uint64_t old)
{
	uint64_t inf = ~0ull, v[2] = { inf, inf };

	if (resource == 3) /* RLIMIT_STACK */
		v[0] = c->s->cfg.stack_size;
	else if (resource == 7) /* RLIMIT_NOFILE */
		v[0] = 1024, v[1] = 4096;
	if (old && iss_mem_write(&c->s->mem, old, v, 16))
		return -EFAULT;
	return 0;
}

static int64_t sys_rt_sigaction(struct sc *c)
{
	struct iss *s = c->s;
	uint64_t sig = c->a[0];
	uint64_t w[4];

	if (sig == 0 || sig >= ISS_NSIG)
		return -EINVAL;
	if (c->a[2]) {
		const struct iss_sigaction *o = &s->sigact[sig];
		uint64_t ow[4] = { o->handler, o->flags, o->restorer, o->mask };
		if (iss_mem_write(&s->mem, c->a[2], ow, 32))
			return -EFAULT;
	}
	if (c->a[1]) {
		if (iss_mem_read(&s->mem, c->a[1], w, 32))
			return -EFAULT;
		s->sigact[sig].handler = w[0];
		s->sigact[sig].flags = w[1];
		s->sigact[sig].restorer = w[2];
		s->sigact[sig].mask = w[3];
	}
	return 0;
}

static int64_t sys_rt_sigprocmask(struct sc *c)
{
	struct iss *s = c->s;
	uint64_t set;

	if (c->a[2] && put_u64(s, c->a[2], s->sigmask))
		return -EFAULT;
	if (c->a[1]) {
		if (iss_mem_read(&s->mem, c->a[1], &set, 8))
			return -EFAULT;
		switch (c->a[0]) {
		case 0: s->sigmask |= set; break;  /* SIG_BLOCK */
		case 1: s->sigmask &= ~set; break; /* SIG_UNBLOCK */
		case 2: s->sigmask = set; break;   /* SIG_SETMASK */
		default: return -EINVAL;
		}
	}
	return 0;
}

/* ---- dispatch --------------------------------------------------------- */

int iss__syscall(struct iss *s, const struct rv_insn *i)
{
	struct sc c = { s, { s->x[10], s->x[11], s->x[12], s->x[13], s->x[14], s->x[15] } };
	int64_t nr = (int64_t)s->x[17], r;

	switch (nr) {
	case NR_read: r = sys_read_write(&c, 0, 0); break;
	case NR_write: r = sys_read_write(&c, 1, 0); break;
	case NR_pread64: r = sys_read_write(&c, 0, 1); break;
	case NR_pwrite64: r = sys_read_write(&c, 1, 1); break;
	case NR_readv: r = sys_readv_writev(&c, 0); break;
	case NR_writev: r = sys_readv_writev(&c, 1); break;
	case NR_openat: r = sys_openat(&c); break;
	case NR_close:
		/* Keep the host's standard streams open for the simulator. */
		r = c.a[0] <= 2 ? 0 : (close((int)c.a[0]) < 0 ? neg_errno() : 0);
		if (r == 0 && c.a[0] > 2)
			set_fd_path(s, (int)c.a[0], NULL);
		break;
	case NR_lseek: {
		off_t o = lseek((int)c.a[0], (off_t)c.a[1], (int)c.a[2]);
		r = o < 0 ? neg_errno() : (int64_t)o;
		break;
	}
	case NR_fstat: r = sys_fstatat(&c, 1); break;
	case NR_newfstatat: r = sys_fstatat(&c, 0); break;
	case NR_readlinkat: r = sys_readlinkat(&c); break;
	case NR_ioctl: r = sys_ioctl(&c); break;
	case NR_fcntl: {
		int k = (int)c.a[1];
		if (k != 0 && k != 1 && k != 2 && k != 3 && k != 4 && k != 1030) {
			r = -EINVAL;
			break;
		}
		r = fcntl((int)c.a[0], k, (long)c.a[2]);
		r = r < 0 ? neg_errno() : r;
		if (k == 0 || k == 1030)	/* F_DUPFD, F_DUPFD_CLOEXEC */
			dup_fd_path(s, (int)c.a[0], r);
		break;
	}
	case NR_dup: r = dup((int)c.a[0]); r = r < 0 ? neg_errno() : dup_fd_path(s, (int)c.a[0], r); break;
	case NR_dup3:
		r = dup2((int)c.a[0], (int)c.a[1]);
		r = r < 0 ? neg_errno() : dup_fd_path(s, (int)c.a[0], r);
		break;
	case NR_pipe2: {
		/* a host pipe: the program's descriptors are the host's, as for openat; the flag
		 * bits O_NONBLOCK and O_CLOEXEC have the same values on riscv64 and the host */
		int fds[2], fl = (int)c.a[1];

		if (fl & ~(O_NONBLOCK | O_CLOEXEC)) {
			r = -EINVAL;
			break;
		}
		if (pipe2(fds, fl) < 0) {
			r = neg_errno();
			break;
		}
		r = iss_mem_write(&s->mem, c.a[0], fds, sizeof(fds)) ? -EFAULT : 0;
		if (r) {
			close(fds[0]);
			close(fds[1]);
		}
		break;
	}
	case NR_fadvise64: /* advice only: the host's answer (0, or EBADF/EINVAL/ESPIPE) */
		r = -posix_fadvise((int)c.a[0], (off_t)c.a[1], (off_t)c.a[2], (int)c.a[3]);
		break;
	case NR_getdents64: r = -ENOSYS; break; /* directory listing is not emulated */
	case NR_fsync: r = 0; break;
	case NR_getcwd: {
		char buf[4096];
		if (!getcwd(buf, sizeof(buf))) { r = neg_errno(); break; }
		r = (int64_t)strlen(buf) + 1;
		if ((uint64_t)r > c.a[1]) { r = -ERANGE; break; }
		r = iss_mem_write(&s->mem, c.a[0], buf, (size_t)r) ? -EFAULT : r;
		break;
	}
	case NR_chdir: case NR_mkdirat: case NR_unlinkat: case NR_faccessat: case NR_faccessat2:
		r = sys_path_call(&c, (int)nr);
		break;
	case NR_utimensat: r = sys_utimensat(&c); break;
	case NR_fchmod: case NR_fchown: case NR_fchmodat: case NR_fchownat:
		r = sys_chmod_chown(&c, (int)nr);
		break;
	case NR_exit:
	case NR_exit_group:
		s->exit_code = (int)(c.a[0] & 0xff);
		s->exited = 1;
		return ISS_EXITED;
	case NR_set_tid_address: s->tid_address = c.a[0]; r = GUEST_PID; break;
	case NR_set_robust_list: r = s->cfg.qemu_compat ? -ENOSYS : 0; break;
	case NR_futex: r = (c.a[1] & 0x7f) == 0 ? -EAGAIN : 0; break;
	case NR_rseq: case NR_statx: case NR_riscv_hwprobe: r = -ENOSYS; break;
	case NR_riscv_flush_icache:
		iss_mem_drop_code(&s->mem);
		r = 0;
		break;
	case NR_clock_gettime: r = sys_clock_gettime(&c); break;
	case NR_clock_getres: r = put_timespec(s, c.a[1], 1, 1); break;
	case NR_gettimeofday: r = put_timespec(s, c.a[0], iss__time_ns(s), 1000); break;
	case NR_nanosleep: case NR_clock_nanosleep: case NR_sched_yield: r = 0; break;
	case NR_times: r = (int64_t)(s->instret / 10000000); break;
	case NR_uname: r = sys_uname(&c); break;
	case NR_getrandom: r = sys_getrandom(&c); break;
	case NR_getpid: case NR_gettid: r = GUEST_PID; break;
	case NR_getppid: r = GUEST_PID - 1; break;
	case NR_getuid: r = getuid(); break;
	case NR_geteuid: r = geteuid(); break;
	case NR_getgid: r = getgid(); break;
	case NR_getegid: r = getegid(); break;
	case NR_umask: r = 022; break;
	case NR_prctl: r = -EINVAL; break;
	case NR_sched_getaffinity: {
		uint64_t mask = 1;
		r = c.a[1] < 8 ? -EINVAL : (iss_mem_write(&s->mem, c.a[2], &mask, 8) ? -EFAULT : 8);
		break;
	}
	case NR_sysinfo: {
		/* struct sysinfo: uptime, loads[3], RAM sizes, procs, mem_unit */
		uint8_t b[112];
		uint64_t up = s->instret * s->cfg.ns_per_insn / 1000000000ull, q;
		uint16_t procs = 1;
		uint32_t unit = 1;
		memset(b, 0, sizeof(b));
		if (s->cfg.qemu_compat) {
			struct sysinfo si;
			if (sysinfo(&si) < 0) { r = neg_errno(); break; }
			/* x86-64 and riscv64 share the 64-bit layout */
			memcpy(b, &si, sizeof(b) < sizeof(si) ? sizeof(b) : sizeof(si));
			r = iss_mem_write(&s->mem, c.a[0], b, sizeof(b)) ? -EFAULT : 0;
			break;
		}
		memcpy(b, &up, 8);
		q = 4ull << 30; memcpy(b + 32, &q, 8);  /* totalram */
		q = 2ull << 30; memcpy(b + 40, &q, 8);  /* freeram */
		memcpy(b + 80, &procs, 2);
		memcpy(b + 104, &unit, 4);
		r = iss_mem_write(&s->mem, c.a[0], b, sizeof(b)) ? -EFAULT : 0;
		break;
	}
	case NR_getrlimit: r = sys_prlimit(&c, c.a[0], c.a[1]); break;
	case NR_prlimit64: r = sys_prlimit(&c, c.a[1], c.a[3]); break;
	case NR_getrusage: {
		uint8_t z[144];
		memset(z, 0, sizeof(z));
		r = iss_mem_write(&s->mem, c.a[1], z, sizeof(z)) ? -EFAULT : 0;
		break;
	}
	case NR_rt_sigaction: r = sys_rt_sigaction(&c); break;
	case NR_rt_sigprocmask: r = sys_rt_sigprocmask(&c); break;
	case NR_sigaltstack: r = 0; break;
	case NR_kill: case NR_tkill: case NR_tgkill:
		return iss__fail(s, "pc %#llx: insn %08x: program raised signal %llu (signal delivery is not emulated)",
				 (unsigned long long)s->pc, i->raw,
				 (unsigned long long)(nr == NR_tgkill ? c.a[2] : c.a[1]));
	case NR_brk: r = sys_brk(s, c.a[0]); break;
	case NR_mmap: r = sys_mmap(&c); break;
	case NR_munmap:
		if (c.a[0] & ISS_PAGE_MASK) { r = -EINVAL; break; }
		iss_mem_unmap(&s->mem, c.a[0], c.a[1]);
		iss__drop_objects(s, c.a[0], PAGE_UP(c.a[1]));
		r = 0;
		break;
	case NR_mremap: r = sys_mremap(&c); break;
	case NR_mprotect:
		iss_mem_protect(&s->mem, c.a[0], c.a[1], prot_of(c.a[2]));
		r = 0;
		break;
	case NR_madvise: case NR_msync: r = 0; break;
	default:
		return iss__fail(s, "pc %#llx: insn %08x: unknown system call %lld (a0=%#llx a1=%#llx a2=%#llx)",
				 (unsigned long long)s->pc, i->raw, (long long)nr,
				 (unsigned long long)c.a[0], (unsigned long long)c.a[1],
				 (unsigned long long)c.a[2]);
	}
	s->x[10] = (uint64_t)r;
	return ISS_OK;
}
