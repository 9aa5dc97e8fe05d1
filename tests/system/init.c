// SPDX-License-Identifier: Apache-2.0
/*
 * tests/system/init.c - PID 1 of the system-test initramfs (static riscv64).
 *
 * Mounts proc, sysfs and devtmpfs, runs the checks of the table below in
 * order, prints one line per check on the console:
 *
 *   TIPROF-CHECK <name> PASS|FAIL|SKIP <detail>
 *
 * then `TIPROF-DONE pass=<n> fail=<n> skip=<n>` and powers the machine off.
 * tests/system/run.sh parses these lines; a check that never prints (hang,
 * oops) is a failure there. The driver checks expect the QEMU virt machine
 * with a "tiprof,tip-v1" node added to its device tree but no TIP unit behind
 * the CSRs: the module must load, refuse the device with a message, register
 * no PMU, and unload.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "tiprof/aux_record.h"
#include "tiprof/sample.h"
#include "tiprof/tiprof_regs.h"
#include "tiprof_pmu_fake.h"	/* the fake's ProfileMe record generator */

#define MODULE_PATH	"/lib/modules/tiprof_pmu.ko"
#define MODULE_NAME	"tiprof_pmu"
#define PMU_SYSFS	"/sys/bus/event_source/devices/tiprof_pmu"
#define DRIVER_SYSFS	"/sys/bus/platform/drivers/tiprof_pmu"
#define KLOG_SIZE	(1 << 17)
#define PMU_DIR		"/sys/bus/event_source/devices/tiprof_pmu/"
/* what driver/tiprof_pmu_fake.h makes the fake unit report */
#define FAKE_CTX	0x42
#define FAKE_ADDR0	0x10000
#define AUX_PAGES	64

/* Result of one check: 0 pass, 1 fail, 2 skip; @detail says why. */
enum { CHECK_PASS, CHECK_FAIL, CHECK_SKIP };

struct check {
	const char *name;			/* printed name, no spaces */
	int (*run)(char *detail, size_t n);	/* returns CHECK_* */
};

static int fmt(char *detail, size_t n, int ret, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(detail, n, f, ap);
	va_end(ap);
	return ret;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Kernel log since boot into a static buffer (NUL-terminated), or NULL. */
static const char *klog_read(void)
{
	static char buf[KLOG_SIZE + 1];
	int len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, KLOG_SIZE);

	if (len < 0)
		return NULL;
	buf[len] = 0;
	return buf;
}

/* Lines of the kernel log that would mean the kernel is hurt. */
static const char *klog_bad(const char *log)
{
	static const char *const bad[] = {
		"Oops", "BUG:", "WARNING:", "Unable to handle", "Call Trace",
		"Kernel panic", "kernel BUG", "refcount_t",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (strstr(log, bad[i]))
			return bad[i];
	return NULL;
}

static int check_mounts(char *d, size_t n)
{
	if (mount("proc", "/proc", "proc", 0, NULL))
		return fmt(d, n, CHECK_FAIL, "mount /proc: %s", strerror(errno));
	if (mount("sysfs", "/sys", "sysfs", 0, NULL))
		return fmt(d, n, CHECK_FAIL, "mount /sys: %s", strerror(errno));
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) && errno != EBUSY)
		return fmt(d, n, CHECK_FAIL, "mount /dev: %s", strerror(errno));
	return fmt(d, n, CHECK_PASS, "proc sysfs devtmpfs");
}

static int check_sbi_pmu(char *d, size_t n)
{
	const char *log = klog_read();
	const char *p;

	if (!log)
		return fmt(d, n, CHECK_FAIL, "klogctl: %s", strerror(errno));
	p = strstr(log, "SBI PMU extension is available");
	if (!p)
		return fmt(d, n, CHECK_FAIL, "no SBI PMU message in the kernel log");
	p = strstr(log, "sscofpmf");
	return fmt(d, n, CHECK_PASS, "SBI PMU%s", p ? ", sscofpmf overflow irq" : "");
}

static int module_loaded(void)
{
	struct stat st;

	return stat("/sys/module/" MODULE_NAME, &st) == 0;
}

static int check_module_load(char *d, size_t n)
{
	int fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return fmt(d, n, CHECK_SKIP, "%s not in the initramfs", MODULE_PATH);
	ret = (int)syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	if (ret)
		return fmt(d, n, CHECK_FAIL, "finit_module: %s", strerror(errno));
	if (!module_loaded())
		return fmt(d, n, CHECK_FAIL, "no /sys/module/%s", MODULE_NAME);
	return fmt(d, n, CHECK_PASS, "loaded");
}

/* The node is there but no unit answers: probe must refuse, politely. */
static int check_module_refuses(char *d, size_t n)
{
	const char *log, *p, *bad;
	struct stat st;
	char line[160];
	size_t len;

	if (!module_loaded())
		return fmt(d, n, CHECK_SKIP, "module not loaded");
	log = klog_read();
	if (!log)
		return fmt(d, n, CHECK_FAIL, "klogctl: %s", strerror(errno));
	bad = klog_bad(log);
	if (bad)
		return fmt(d, n, CHECK_FAIL, "kernel log has \"%s\"", bad);
	if (stat(PMU_SYSFS, &st) == 0)
		return fmt(d, n, CHECK_FAIL, "a PMU registered without a unit");
	if (stat(DRIVER_SYSFS, &st))
		return fmt(d, n, CHECK_FAIL, "no %s", DRIVER_SYSFS);
	p = strstr(log, "tiprof_pmu");
	if (!p)
		return fmt(d, n, CHECK_FAIL, "no tiprof_pmu message in the log");
	/* last message of the driver: the refusal */
	while (strstr(p + 1, "tiprof_pmu"))
		p = strstr(p + 1, "tiprof_pmu");
	len = strcspn(p, "\n");
	if (len >= sizeof(line))
		len = sizeof(line) - 1;
	memcpy(line, p, len);
	line[len] = 0;
	if (!strstr(line, "no TIP unit"))
		return fmt(d, n, CHECK_FAIL, "unexpected: %s", line);
	return fmt(d, n, CHECK_PASS, "%s", line);
}

static int check_module_unload(char *d, size_t n)
{
	const char *log, *bad;

	if (!module_loaded())
		return fmt(d, n, CHECK_SKIP, "module not loaded");
	if (syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK))
		return fmt(d, n, CHECK_FAIL, "delete_module: %s", strerror(errno));
	if (module_loaded())
		return fmt(d, n, CHECK_FAIL, "/sys/module/%s still there", MODULE_NAME);
	log = klog_read();
	bad = log ? klog_bad(log) : NULL;
	if (bad)
		return fmt(d, n, CHECK_FAIL, "kernel log has \"%s\"", bad);
	return fmt(d, n, CHECK_PASS, "unloaded");
}

/* bounds of this program's code (linker-defined) */
extern char __executable_start[], etext[];

static volatile uint64_t sink;

/* Spin in user space for @secs seconds of wall time. */
static void busy(double secs)
{
	double end = now_s() + secs;
	uint64_t x = 1;
	int i;

	while (now_s() < end) {
		for (i = 0; i < 10000; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
		sink = x;
	}
}

/*
 * Sample @type/@config every @period on a busy loop of this process through
 * a mmap'ed ring buffer; count PERF_RECORD_SAMPLE records whose IP is in user
 * space.
 */
static int perf_sample(char *d, size_t n, uint32_t type, uint64_t config,
		       uint64_t period, double secs, int min)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pg;
	size_t pgsz = (size_t)sysconf(_SC_PAGESIZE), len = pgsz * 17;
	uint64_t head, tail, mask = pgsz * 16 - 1, lost = 0;
	int fd, samples = 0, user = 0;
	uint64_t first = 0;
	uint8_t *data;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.wakeup_events = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return fmt(d, n, CHECK_FAIL, "perf_event_open: %s", strerror(errno));
	pg = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED) {
		close(fd);
		return fmt(d, n, CHECK_FAIL, "mmap: %s", strerror(errno));
	}
	data = (uint8_t *)pg + pgsz;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	busy(secs);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	for (tail = pg->data_tail; tail < head;) {
		struct perf_event_header h;
		uint64_t ip;

		memcpy(&h, data + (tail & mask), sizeof(h));
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_SAMPLE) {
			uint8_t tmp[sizeof(h) + sizeof(ip)];
			size_t i;

			for (i = 0; i < sizeof(tmp); i++)
				tmp[i] = data[(tail + i) & mask];
			memcpy(&ip, tmp + sizeof(h), sizeof(ip));
			if (!samples++)
				first = ip;
			if (ip >= (uintptr_t)__executable_start &&
			    ip < (uintptr_t)etext)
				user++;
		} else if (h.type == PERF_RECORD_LOST) {
			lost++;
		}
		tail += h.size;
	}
	munmap(pg, len);
	close(fd);
	if (samples < min || user < samples / 2)
		return fmt(d, n, CHECK_FAIL, "%d samples (%d in the test binary, first ip %#llx), %llu lost; want >= %d",
			   samples, user, (unsigned long long)first,
			   (unsigned long long)lost, min);
	return fmt(d, n, CHECK_PASS, "%d samples in %.1f s (%d in the test binary)",
		   samples, secs, user);
}

static int check_perf_task_clock(char *d, size_t n)
{
	/* 1 ms of task clock over 0.5 s: ~500 samples, demand 100 */
	return perf_sample(d, n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
			   1000000, 0.5, 100);
}

static int check_perf_hw_cycles(char *d, size_t n)
{
	/* sscofpmf overflow interrupts through the SBI PMU */
	return perf_sample(d, n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
			   1000000, 0.5, 20);
}

/* Contents of sysfs file @path (first line) into @buf, or -1. */
static int read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, (int)n, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int check_fake_load(char *d, size_t n)
{
	int fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int ret;

	if (fd < 0)
		return fmt(d, n, CHECK_SKIP, "%s not in the initramfs", MODULE_PATH);
	ret = (int)syscall(SYS_finit_module, fd, "fake_unit=1", 0);
	close(fd);
	if (ret)
		return fmt(d, n, CHECK_FAIL, "finit_module fake_unit=1: %s", strerror(errno));
	if (stat(PMU_DIR, &st))
		return fmt(d, n, CHECK_FAIL, "no %s after loading with fake_unit=1", PMU_DIR);
	return fmt(d, n, CHECK_PASS, "PMU registered");
}

static int check_fake_sysfs(char *d, size_t n)
{
	static const char *const want[][2] = {
		{ PMU_DIR "format/mode", "config:0-1" },
		{ PMU_DIR "format/rand_bits", "config:8-12" },
		{ PMU_DIR "format/watermark", "config:16-31" },
		{ PMU_DIR "format/seed", "config1:0-31" },
		{ PMU_DIR "format/profileme", "config:63" },
		{ PMU_DIR "format/pair", "config:32" },
		{ PMU_DIR "format/unit", "config:33" },
		{ PMU_DIR "format/window", "config:40-48" },
		{ PMU_DIR "format/evfilt", "config1:32-63" },
		{ PMU_DIR "format/latfilt", "config2:0-19" },
		{ PMU_DIR "format/timeout", "config2:32-47" },
		{ PMU_DIR "format/insts", "config:2" },
		{ PMU_DIR "caps/commit_width", "2" },
		{ PMU_DIR "caps/xlen", "64" },
		{ PMU_DIR "caps/fifo_depth", "16" },
		{ PMU_DIR "caps/pm_fetch_width", "4" },
		{ PMU_DIR "caps/pm_fifo_depth", "8" },
		{ PMU_DIR "caps/pm_tags", "2" },
	};
	char buf[64], online[64], ver[16];
	size_t i;

	/* a unit on every online hart (a slow secondary may miss the boot) */
	if (read_line("/sys/devices/system/cpu/online", online, sizeof(online)) ||
	    read_line(PMU_DIR "cpumask", buf, sizeof(buf)))
		return fmt(d, n, CHECK_FAIL, "cannot read the online CPUs or %scpumask", PMU_DIR);
	if (strcmp(buf, online))
		return fmt(d, n, CHECK_FAIL, "cpumask is \"%s\", CPUs online \"%s\"", buf, online);

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		if (read_line(want[i][0], buf, sizeof(buf)))
			return fmt(d, n, CHECK_FAIL, "cannot read %s", want[i][0]);
		if (strcmp(buf, want[i][1]))
			return fmt(d, n, CHECK_FAIL, "%s is \"%s\", want \"%s\"",
				   want[i][0], buf, want[i][1]);
	}
	/* the register map's version, from the generated header (spec/tiprof_regs.json) */
	snprintf(ver, sizeof(ver), "%u.%u", TIPROF_TIP_ID_MAJOR, TIPROF_TIP_ID_MINOR);
	if (read_line(PMU_DIR "caps/version", buf, sizeof(buf)))
		return fmt(d, n, CHECK_FAIL, "cannot read %scaps/version", PMU_DIR);
	if (strcmp(buf, ver))
		return fmt(d, n, CHECK_FAIL, "%scaps/version is \"%s\", want \"%s\"", PMU_DIR,
			   buf, ver);
	return fmt(d, n, CHECK_PASS, "format, caps and cpumask as expected");
}

/* config bit of a ProfileMe event (format/profileme) */
#define PM_BIT	(1ull << 63)

/* perf_event_attr of a valid tiprof_pmu sampling event; 0 type on error */
static int fake_attr(struct perf_event_attr *attr)
{
	char buf[32];

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	if (read_line(PMU_DIR "type", buf, sizeof(buf)))
		return -1;
	attr->type = (uint32_t)atoi(buf);
	attr->sample_period = 1000;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	attr->disabled = 1;
	return 0;
}

static int check_fake_event_init(char *d, size_t n)
{
	static const struct {
		const char *what;	/* the mistake */
		int field;		/* which attr field to change */
		uint64_t val;		/* to this */
		int err;		/* expected errno, 0 = success */
	} cases[] = {
		{ "valid random-interval k=8", 0, 1 | 8 << 8, 0 },
		{ "frequency mode", 1, 1, EOPNOTSUPP },
		{ "counting (period 0)", 2, 0, EOPNOTSUPP },
		{ "reserved config bit", 0, 1 << 3, EINVAL },
		{ "instruction trigger (insts), random interval k=8", 0, 1 | 1 << 2 | 8 << 8, 0 },
		{ "instruction trigger, period 1 < W 2", 5, 1, EINVAL },
		{ "mode 3", 0, 3, EINVAL },
		{ "random interval, 2^k > period", 0, 1 | 20 << 8, 0 },
		{ "random period, 2^(k-1) >= period", 0, 2 | 20 << 8, EINVAL },
		{ "period > 2^32-1", 2, 1ull << 33, EINVAL },
		{ "reserved config1 bit", 3, 1ull << 40, EINVAL },
		{ "empty privilege filter", 4, 1, EINVAL },
	};
	struct perf_event_attr attr;
	size_t i;
	int fd, err;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (fake_attr(&attr))
			return fmt(d, n, CHECK_FAIL, "no %stype", PMU_DIR);
		switch (cases[i].field) {
		case 0:
			attr.config = cases[i].val;
			break;
		case 1:
			attr.freq = 1;
			attr.sample_freq = 1;	/* below any max_sample_rate perf core lowers it to */
			break;
		case 2:
			attr.sample_period = cases[i].val;
			break;
		case 3:
			attr.config1 = cases[i].val;
			break;
		case 4:
			attr.exclude_user = 1;
			break;
		case 5:
			attr.config = 1 << 2;	/* insts */
			attr.sample_period = cases[i].val;
			break;
		}
		fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
		err = fd < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		if (err != cases[i].err)
			return fmt(d, n, CHECK_FAIL, "%s: got \"%s\", want \"%s\"",
				   cases[i].what, strerror(err), strerror(cases[i].err));
	}
	return fmt(d, n, CHECK_PASS, "%zu cases, distinct errnos", i);
}

/* ProfileMe events (config bit 63): what opens and what is refused. */
static int check_fake_pm_event_init(char *d, size_t n)
{
	static const struct {
		const char *what;
		uint64_t config, config1, config2, period;
		int err;
	} cases[] = {
		{ "profileme, pair, window 8, k=8", PM_BIT | 1ull << 32 | 8ull << 40 | 1 | 8 << 8,
		  0, 0, 1000, 0 },
		{ "profileme, fetch slots, DC_MISS event filter, MEM latency >= 10, timeout 2000",
		  PM_BIT | 1ull << 33, (uint64_t)(1u << TIPROF_PM_EV_DC_MISS) * 0x10001u << 32,
		  6ull << 16 | 10 | 2000ull << 32, 1000, 0 },
		{ "pair without profileme", 1ull << 32, 0, 0, 1000, EINVAL },
		{ "evfilt without profileme", 0, 1ull << 40, 0, 1000, EINVAL },
		{ "timeout without profileme", 0, 0, 1ull << 32, 1000, EINVAL },
		{ "profileme window 257", PM_BIT | 257ull << 40, 0, 0, 1000, EINVAL },
		{ "profileme with insts (TIP's trigger)", PM_BIT | 1ull << 2, 0, 0, 1000, EINVAL },
		{ "profileme latfilt SEL 7", PM_BIT, 0, 7ull << 16, 1000, EINVAL },
		{ "profileme reserved config2 bit", PM_BIT, 0, 1ull << 20, 1000, EINVAL },
		{ "profileme period 2 < F 4", PM_BIT, 0, 0, 2, EINVAL },
		{ "profileme random period, 2^(k-1) + F > period", PM_BIT | 2 | 10 << 8, 0, 0, 515,
		  EINVAL },
	};
	struct perf_event_attr attr;
	size_t i;
	int fd, err;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (fake_attr(&attr))
			return fmt(d, n, CHECK_FAIL, "no %stype", PMU_DIR);
		attr.config = cases[i].config;
		attr.config1 = cases[i].config1;
		attr.config2 = cases[i].config2;
		attr.sample_period = cases[i].period;
		fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
		err = fd < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		if (err != cases[i].err)
			return fmt(d, n, CHECK_FAIL, "%s: got \"%s\", want \"%s\"",
				   cases[i].what, strerror(err), strerror(cases[i].err));
	}
	return fmt(d, n, CHECK_PASS, "%zu cases", i);
}

/* AUX record of driver/tiprof_pmu_drv.c (docs/driver.md) */
struct aux_rec {
	uint16_t type;
	uint16_t size;
	uint32_t reserved;
	union {
		struct tiprof_sample sample;
		uint64_t lost;
	};
};

static int check_fake_aux_sampling(char *d, size_t n)
{
	size_t pgsz = (size_t)sysconf(_SC_PAGESIZE), rlen = pgsz * 9;
	struct perf_event_mmap_page *pg;
	struct perf_event_attr attr;
	uint64_t head, off, next = 0, lost = 0, aux_recs = 0, collide = 0;
	uint8_t *aux, *ring;
	int fd, samples = 0, ret = CHECK_FAIL;

	cpu_set_t cpu0;

	/* each hart has its own unit (and fake sequence): stay on one */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		return fmt(d, n, CHECK_FAIL, "sched_setaffinity: %s", strerror(errno));
	if (fake_attr(&attr))
		return fmt(d, n, CHECK_FAIL, "no %stype", PMU_DIR);
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return fmt(d, n, CHECK_FAIL, "perf_event_open: %s", strerror(errno));
	pg = mmap(NULL, rlen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED) {
		close(fd);
		return fmt(d, n, CHECK_FAIL, "mmap ring: %s", strerror(errno));
	}
	ring = (uint8_t *)pg + pgsz;
	pg->aux_offset = rlen;
	pg->aux_size = AUX_PAGES * pgsz;
	aux = mmap(NULL, AUX_PAGES * pgsz, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)rlen);
	if (aux == MAP_FAILED) {
		fmt(d, n, CHECK_FAIL, "mmap AUX: %s", strerror(errno));
		goto out_ring;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	busy(0.3);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	head = __atomic_load_n(&pg->aux_head, __ATOMIC_ACQUIRE);
	if (head > AUX_PAGES * pgsz) {
		fmt(d, n, CHECK_FAIL, "AUX area wrapped (%llu bytes)", (unsigned long long)head);
		goto out_aux;
	}
	for (off = 0; off + 8 <= head;) {
		struct aux_rec r;

		memcpy(&r, aux + off, 8);
		if (r.size < 16 || off + r.size > head || r.size > sizeof(r)) {
			fmt(d, n, CHECK_FAIL, "bad record at %llu: type %u size %u",
			    (unsigned long long)off, r.type, r.size);
			goto out_aux;
		}
		memcpy(&r, aux + off, r.size);
		off += r.size;
		if (r.type == 2) {
			lost += r.lost;
			continue;
		}
		if (r.type != 1 || r.size != sizeof(r)) {
			fmt(d, n, CHECK_FAIL, "unknown record type %u size %u", r.type, r.size);
			goto out_aux;
		}
		if (r.sample.valid != 1 || r.sample.ctx != FAKE_CTX ||
		    r.sample.addr[0] < FAKE_ADDR0 ||
		    (next && r.sample.addr[0] != next)) {
			fmt(d, n, CHECK_FAIL, "sample %d: valid %#x ctx %#x addr %#llx, want addr %#llx",
			    samples, r.sample.valid, r.sample.ctx,
			    (unsigned long long)r.sample.addr[0], (unsigned long long)next);
			goto out_aux;
		}
		next = r.sample.addr[0] + 4;
		samples++;
	}
	/* PERF_RECORD_AUX in the ring: the lost samples set COLLISION */
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	for (off = pg->data_tail; off < head;) {
		struct perf_event_header h;
		uint64_t rec[4];

		memcpy(&h, ring + (off & (pgsz * 8 - 1)), sizeof(h));
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_AUX && h.size >= sizeof(h) + 24) {
			size_t i;

			for (i = 0; i < sizeof(rec); i++)
				((uint8_t *)rec)[i] = ring[(off + sizeof(h) + i) & (pgsz * 8 - 1)];
			aux_recs++;
			if (rec[2] & PERF_AUX_FLAG_COLLISION)
				collide++;
		}
		off += h.size;
	}
	if (samples < 100 || !lost || !aux_recs || !collide)
		fmt(d, n, CHECK_FAIL, "%d samples, %llu lost, %llu AUX records (%llu COLLISION)",
		    samples, (unsigned long long)lost, (unsigned long long)aux_recs,
		    (unsigned long long)collide);
	else
		ret = fmt(d, n, CHECK_PASS, "%d consecutive samples, %llu lost, %llu AUX records (%llu COLLISION)",
			  samples, (unsigned long long)lost, (unsigned long long)aux_recs,
			  (unsigned long long)collide);
out_aux:
	munmap(aux, AUX_PAGES * pgsz);
out_ring:
	munmap(pg, rlen);
	close(fd);
	return ret;
}

/*
 * ProfileMe through the driver: a per-task profileme event (pairs, window 8,
 * event filter dropping aborted instructions) over a busy loop. The fake makes
 * record g = tiprof_fake_pm_record(g) (tiprof_pmu_fake.h), so every PM_SAMPLE
 * record is recomputed and compared word for word; the numbers g must rise,
 * records the filter drops (g % 7 == 3) must never arrive, and the PM_COUNTS
 * records must account for everything: taken = records delivered + lost on
 * the software path, and every number missing between the first and the last
 * record is one the counts call filtered or lost.
 */
#define PM_WINDOW	8
#define PM_EVFILT_NO_ABORT	(1u << TIPROF_PM_EV_ABORTED)	/* MASK ABORTED, MATCH 0 */

static int check_fake_pm_aux_sampling(char *d, size_t n)
{
	size_t pgsz = (size_t)sysconf(_SC_PAGESIZE), rlen = pgsz * 9;
	struct perf_event_mmap_page *pg;
	struct perf_event_attr attr;
	struct tiprof_pm_counts sum;
	uint64_t head, off, prev = 0, pairs = 0, loads = 0, miss = 0, aborted = 0;
	uint64_t gap_filtered = 0, gap_lost = 0, counts_recs = 0, g, x;
	uint8_t *aux;
	int fd, samples = 0, ret = CHECK_FAIL;

	if (fake_attr(&attr))
		return fmt(d, n, CHECK_FAIL, "no %stype", PMU_DIR);
	attr.config = PM_BIT | 1ull << 32 | (uint64_t)PM_WINDOW << 40;
	attr.config1 = (uint64_t)PM_EVFILT_NO_ABORT << 32;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return fmt(d, n, CHECK_FAIL, "perf_event_open: %s", strerror(errno));
	pg = mmap(NULL, rlen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED) {
		close(fd);
		return fmt(d, n, CHECK_FAIL, "mmap ring: %s", strerror(errno));
	}
	pg->aux_offset = rlen;
	pg->aux_size = AUX_PAGES * pgsz;
	aux = mmap(NULL, AUX_PAGES * pgsz, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)rlen);
	if (aux == MAP_FAILED) {
		fmt(d, n, CHECK_FAIL, "mmap AUX: %s", strerror(errno));
		goto out_ring;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	busy(0.3);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	memset(&sum, 0, sizeof(sum));
	head = __atomic_load_n(&pg->aux_head, __ATOMIC_ACQUIRE);
	if (head > AUX_PAGES * pgsz) {
		fmt(d, n, CHECK_FAIL, "AUX area wrapped (%llu bytes)", (unsigned long long)head);
		goto out_aux;
	}
	for (off = 0; off + 8 <= head;) {
		struct tiprof_aux_rec r;
		struct tiprof_pm_sample want;

		memcpy(&r, aux + off, 8);
		if (r.size < 16 || off + r.size > head || r.size > sizeof(r)) {
			fmt(d, n, CHECK_FAIL, "bad record at %llu: type %u size %u",
			    (unsigned long long)off, r.type, r.size);
			goto out_aux;
		}
		memcpy(&r, aux + off, r.size);
		off += r.size;
		if (r.type == TIPROF_AUX_REC_PM_COUNTS && r.size == TIPROF_AUX_REC_PM_COUNTS_SIZE) {
			sum.taken += r.pm_counts.taken;
			sum.lost += r.pm_counts.lost;
			sum.filtered += r.pm_counts.filtered;
			sum.collided += r.pm_counts.collided;
			sum.lost_sw += r.pm_counts.lost_sw;
			counts_recs++;
			continue;
		}
		if (r.type != TIPROF_AUX_REC_PM_SAMPLE || r.size != TIPROF_AUX_REC_PM_SAMPLE_SIZE) {
			fmt(d, n, CHECK_FAIL, "unexpected record type %u size %u", r.type, r.size);
			goto out_aux;
		}
		g = (r.pm.w[TIPROF_PM_REC_PC] - TIPROF_FAKE_PM_PC0) / 4;
		tiprof_fake_pm_record(g, TIPROF_PM_CTRL_PAIR_MASK, PM_WINDOW,
				      (uint32_t)attr.sample_period, &want);
		if (memcmp(&want, &r.pm, sizeof(want))) {
			for (x = 0; x < TIPROF_PM_REC_WORDS && want.w[x] == r.pm.w[x]; x++)
				;
			fmt(d, n, CHECK_FAIL, "record %d (g %llu) word %llu: %#llx, want %#llx",
			    samples, (unsigned long long)g, (unsigned long long)x,
			    (unsigned long long)r.pm.w[x], (unsigned long long)want.w[x]);
			goto out_aux;
		}
		if (g % 7 == 3 || (samples && g <= prev)) {
			fmt(d, n, CHECK_FAIL, "record %d: g %llu after %llu (filtered: g %% 7 = 3)",
			    samples, (unsigned long long)g, (unsigned long long)prev);
			goto out_aux;
		}
		for (x = samples ? prev + 1 : g; x < g; x++) {
			if (x % 7 == 3)
				gap_filtered++;
			else
				gap_lost++;
		}
		prev = g;
		samples++;
		pairs += r.pm.w[TIPROF_PM_REC_SINFO] >> TIPROF_PM_REC_SINFO_PAIR_SHIFT & 1;
		loads += r.pm.w[TIPROF_PM_REC_INFO] >> TIPROF_PM_EV_LOAD & 1;
		miss += r.pm.w[TIPROF_PM_REC_INFO] >> TIPROF_PM_EV_DC_MISS & 1;
		aborted += r.pm.w[TIPROF_PM_REC_INFO] >> TIPROF_PM_EV_ABORTED & 1;
	}
	/* at the ends: at most one tick's records (20) made before the first or after the last */
	if (samples < 100 || !pairs || !miss || aborted || !counts_recs ||
	    sum.taken != (uint64_t)samples + sum.lost_sw || !sum.lost || !sum.filtered ||
	    !sum.collided || gap_filtered > sum.filtered || gap_lost > sum.lost + sum.lost_sw ||
	    sum.filtered + sum.lost + sum.lost_sw - gap_filtered - gap_lost > 2 * 20)
		fmt(d, n, CHECK_FAIL, "%d records (%llu pairs, %llu loads, %llu misses, %llu aborted), "
		    "%llu counts records: taken %llu lost %llu filtered %llu collided %llu lost_sw %llu; "
		    "gaps: %llu filtered, %llu lost",
		    samples, (unsigned long long)pairs, (unsigned long long)loads,
		    (unsigned long long)miss, (unsigned long long)aborted,
		    (unsigned long long)counts_recs, (unsigned long long)sum.taken,
		    (unsigned long long)sum.lost, (unsigned long long)sum.filtered,
		    (unsigned long long)sum.collided, (unsigned long long)sum.lost_sw,
		    (unsigned long long)gap_filtered, (unsigned long long)gap_lost);
	else
		ret = fmt(d, n, CHECK_PASS, "%d records equal the fake's (%llu pairs, %llu D-cache "
			  "misses), taken %llu = delivered + lost_sw %llu; lost %llu, filtered %llu, "
			  "collided %llu; gaps %llu filtered + %llu lost",
			  samples, (unsigned long long)pairs, (unsigned long long)miss,
			  (unsigned long long)sum.taken, (unsigned long long)sum.lost_sw,
			  (unsigned long long)sum.lost, (unsigned long long)sum.filtered,
			  (unsigned long long)sum.collided, (unsigned long long)gap_filtered,
			  (unsigned long long)gap_lost);
out_aux:
	munmap(aux, AUX_PAGES * pgsz);
out_ring:
	munmap(pg, rlen);
	close(fd);
	return ret;
}

/* An open event holds the module: unloading must fail, not pull the PMU. */
static int check_fake_unload_busy(char *d, size_t n)
{
	struct perf_event_attr attr;
	int fd, ret, err;

	if (fake_attr(&attr))
		return fmt(d, n, CHECK_FAIL, "no %stype", PMU_DIR);
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return fmt(d, n, CHECK_FAIL, "perf_event_open: %s", strerror(errno));
	ret = (int)syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK);
	err = errno;
	close(fd);
	if (!ret)
		return fmt(d, n, CHECK_FAIL, "module unloaded under an open event");
	if (!module_loaded())
		return fmt(d, n, CHECK_FAIL, "module gone");
	return fmt(d, n, CHECK_PASS, "delete_module refused: %s", strerror(err));
}

static int check_fake_unload(char *d, size_t n)
{
	struct stat st;
	int ret = check_module_unload(d, n);

	if (ret != CHECK_PASS)
		return ret;
	if (stat(PMU_DIR, &st) == 0)
		return fmt(d, n, CHECK_FAIL, "%s still there", PMU_DIR);
	return fmt(d, n, CHECK_PASS, "unloaded, PMU gone");
}

/* The one riscv64 tiprof (help, version, dump, record, lbr; static). */
#define TIPROF_BIN	"/bin/tiprof"

/*
 * Run @argv (stdout and stderr into @out, NUL-terminated, cut at @n); returns
 * the exit status (128 + signal), or -1 if it could not be started. All of
 * the output is kept (run_capture keeps its first line only).
 */
static int run_capture_all(char *const argv[], char *out, size_t n)
{
	size_t len = 0;
	int p[2], status;
	pid_t pid;
	ssize_t r;

	out[0] = 0;
	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		execv(argv[0], argv);
		_exit(126);
	}
	close(p[1]);
	while ((r = read(p[0], out + len, n - 1 - len)) > 0 || (r < 0 && errno == EINTR)) {
		if (r > 0)
			len += (size_t)r;
		if (len == n - 1)
			break;
	}
	out[len] = 0;
	close(p[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* run_capture_all, with the first line of the output only (for details). */
static int run_capture(char *const argv[], char *out, size_t n)
{
	int code = run_capture_all(argv, out, n);

	out[strcspn(out, "\n")] = 0;
	return code;
}

/* No PMU (module unloaded): tiprof record refuses with the documented line. */
static int check_record_pmu_absent(char *d, size_t n)
{
	char *const argv[] = { TIPROF_BIN, "record", "-o", "/absent.tps", "--", "/init", "busy", "0.05", NULL };
	char out[512];
	struct stat st;
	int st_code;

	if (stat(TIPROF_BIN, &st))
		return fmt(d, n, CHECK_SKIP, "%s not in the initramfs", TIPROF_BIN);
	st_code = run_capture(argv, out, sizeof(out));
	if (st_code == 0 || st_code < 0)
		return fmt(d, n, CHECK_FAIL, "exit %d: %s", st_code, out);
	if (!strstr(out, "no tiprof PMU: load tiprof_pmu.ko"))
		return fmt(d, n, CHECK_FAIL, "exit %d, unexpected: %s", st_code, out);
	if (stat("/absent.tps", &st) == 0)
		return fmt(d, n, CHECK_FAIL, "a sample file was written without a PMU");
	return fmt(d, n, CHECK_PASS, "exit %d: %s", st_code, out);
}

/* fake_unit=1: record a busy program with an AUX area of @aux_pages, read the file
 * back with the sample-file library: >= @min consecutive samples (and lost ones
 * counted if @need_lost). */
static int record_fake(char *d, size_t n, const char *aux_pages, const char *secs, int min,
		       int need_lost)
{
	char *const rec[] = { TIPROF_BIN, "record", "-o", "/rec.tps", "--period", "1000", "--random-bits",
			      "4", "--aux-pages", (char *)aux_pages, "--", "/init", "busy",
			      (char *)secs, NULL };
	char *const chk[] = { TIPROF_BIN, "record", "--check", "/rec.tps", NULL };
	unsigned long long samples = 0, lost_unit = 0, first = 0, last = 0;
	char out[512], *p;
	int code;

	code = run_capture(rec, out, sizeof(out));
	/* its first line is the summary, unless a warning came before it */
	if (code || !strstr(out, " samples written to /rec.tps"))
		return fmt(d, n, CHECK_FAIL, "record exit %d: %s", code, out);
	code = run_capture(chk, out, sizeof(out));
	if (code)
		return fmt(d, n, CHECK_FAIL, "--check exit %d: %s", code, out);
	p = strstr(out, "samples=");
	if (p)
		samples = strtoull(p + 8, NULL, 10);
	p = strstr(out, "lost_unit=");
	if (p)
		lost_unit = strtoull(p + 10, NULL, 10);
	p = strstr(out, "addr=");
	if (p)
		first = strtoull(p + 5, &p, 0);
	if (p && strncmp(p, "..", 2) == 0)
		last = strtoull(p + 2, NULL, 0);
	if ((int)samples < min || (need_lost && !lost_unit) || !strstr(out, "lost_sw=0 W=2 XLEN=64 period=1000 mode=1 rand_bits=4 source=2"))
		return fmt(d, n, CHECK_FAIL, "want >= %d samples,%s lost_sw 0: %s", min,
			   need_lost ? " lost_unit > 0," : "", out);
	/* the fake numbers its samples 0x10000 + 4n: none dropped or repeated on the way */
	if (first < FAKE_ADDR0 || last != first + 4 * (samples - 1))
		return fmt(d, n, CHECK_FAIL, "addresses not consecutive: %s", out);
	return fmt(d, n, CHECK_PASS, "%s", out);
}

static int check_record_fake(char *d, size_t n)
{
	return record_fake(d, n, "256", "0.3", 100, 1);
}

/* Value of "key=" in @s (0 if absent). */
static unsigned long long kv(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? strtoull(p + strlen(key), NULL, 0) : 0;
}

/*
 * tiprof record -e profileme with the fake unit: the file holds the PM
 * config, >= 100 PM samples (pairs among them) and the counts record, and the
 * counts account for every record: taken = samples + lost_sw; the fake's PCs
 * rise (PC0 + 4g).
 */
static int check_record_pm_fake(char *d, size_t n)
{
	char *const rec[] = { TIPROF_BIN, "record", "-e", "profileme:pair=1,window=8,evfilt=0x2",
			      "-o", "/pm.tps", "--period", "1000", "--random-bits", "8",
			      "--", "/init", "busy", "0.3", NULL };
	char *const chk[] = { TIPROF_BIN, "record", "--check", "/pm.tps", NULL };
	unsigned long long pm, pairs, taken, lost, filtered, collided, lost_sw, first, last;
	char out[1024], *line;
	int code;

	code = run_capture(rec, out, sizeof(out));
	if (code || !strstr(out, " ProfileMe samples (") || !strstr(out, "written to /pm.tps"))
		return fmt(d, n, CHECK_FAIL, "record exit %d: %s", code, out);
	code = run_capture_all(chk, out, sizeof(out));
	line = strstr(out, "pm_samples=");
	if (code || !line)
		return fmt(d, n, CHECK_FAIL, "--check exit %d: %s", code, out);
	pm = kv(line, "pm_samples=");
	pairs = kv(line, "pairs=");
	taken = kv(line, "taken=");
	lost = kv(line, "lost=");
	filtered = kv(line, "filtered=");
	collided = kv(line, "collided=");
	lost_sw = kv(line, "lost_sw=");
	first = kv(line, "pc=");
	last = strstr(line, "..") ? strtoull(strstr(line, "..") + 2, NULL, 0) : 0;
	line[strcspn(line, "\n")] = 0;
	if (pm < 100 || !pairs || !kv(line, "counts=") || taken != pm + lost_sw || !lost ||
	    !filtered || !collided || !strstr(out, "samples=0 ") ||
	    !strstr(line, "F=4 tags=2 fifo=8 ctrl=0x481b period=1000 window=8 timeout=65535 "
			  "evfilt=0x2 latfilt=0") ||
	    first < TIPROF_FAKE_PM_PC0 || last < first + 4 * (pm - 1))
		return fmt(d, n, CHECK_FAIL, "%s", line);
	return fmt(d, n, CHECK_PASS, "%s", line);
}

/*
 * A 64 KiB AUX area over more records than it holds: it wraps, records
 * straddle its end. The quarter-full wakeups switch the recorder in often, and
 * the fake restarts its 50-tick overflow cycle on every start: lost_unit may
 * be 0. An unloaded host gives ~1500 samples (~180 KiB) in 0.5 s; a loaded
 * one far fewer, so the run is 0.8 s and the bar is 800 samples (~96 KiB,
 * 1.5 times the area), which still wraps it.
 */
static int check_record_aux_wrap(char *d, size_t n)
{
	return record_fake(d, n, "16", "0.8", 800, 0);
}

static void sleep_s(double secs)
{
	struct timespec ts = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * The recorder falls behind: it is stopped (SIGSTOP) 0.05 s into a 1 s run for
 * 0.4 s, while the fake unit fills the 16 KiB AUX area (~136 records) many
 * times over. The driver counts what it has no room for (lost_sw, a TRUNCATED
 * region) and stops the unit until the area has room again (the next
 * schedule-in restarts it; the recorder also re-enables the event in case perf
 * core disabled it). Checked: the run ends normally, the losses are counted,
 * the recorder warns that the area filled, and sampling went on after the
 * recorder caught up (the first 0.05 s plus one area hold < 300 samples; the
 * file must hold >= 600).
 */
/* Wait up to @secs for a child of @parent whose command name is "init" (it has exec'ed
 * /init); 0 when seen, -1 on time-out. Reads /proc/PID/stat: "pid (comm) state ppid". */
static int exec_wait(pid_t parent, double secs)
{
	double end = now_s() + secs;
	char path[300], buf[256], *c;
	struct dirent *e;
	DIR *dir;
	int fd;
	ssize_t r;

	while (now_s() < end) {
		dir = opendir("/proc");
		while (dir && (e = readdir(dir))) {
			if (e->d_name[0] < '1' || e->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			r = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			if (r <= 0)
				continue;
			buf[r] = 0;
			c = strrchr(buf, ')');
			if (c && strstr(buf, "(init)") && atoi(c + 4) == parent) {
				closedir(dir);
				return 0;
			}
		}
		if (dir)
			closedir(dir);
		sleep_s(0.01);
	}
	return -1;
}

static int check_record_aux_full(char *d, size_t n)
{
	char *const rec[] = { TIPROF_BIN, "record", "-o", "/full.tps", "--period", "1000", "--random-bits",
			      "4", "--aux-pages", "4", "--", "/init", "busy", "1.0", NULL };
	char *const chk[] = { TIPROF_BIN, "record", "--check", "/full.tps", NULL };
	unsigned long long samples = 0, lost_sw = 0;
	char out[1024], *p;
	size_t len = 0;
	int pp[2], status, code;
	pid_t pid;
	ssize_t r;

	if (pipe2(pp, O_CLOEXEC))
		return fmt(d, n, CHECK_FAIL, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		dup2(pp[1], STDOUT_FILENO);
		dup2(pp[1], STDERR_FILENO);
		execv(rec[0], rec);
		_exit(126);
	}
	close(pp[1]);
	if (pid < 0) {
		close(pp[0]);
		return fmt(d, n, CHECK_FAIL, "fork: %s", strerror(errno));
	}
	/* stop the recorder once the command runs (its child has exec'ed /init): setting up
	 * one event per CPU takes longer than the 0.05 s this once waited blindly */
	exec_wait(pid, 3.0);
	sleep_s(0.05);
	kill(pid, SIGSTOP);
	sleep_s(0.4);
	kill(pid, SIGCONT);
	while ((r = read(pp[0], out + len, sizeof(out) - 1 - len)) > 0 ||
	       (r < 0 && errno == EINTR))
		if (r > 0 && (len += (size_t)r) == sizeof(out) - 1)
			break;
	out[len] = 0;
	close(pp[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return fmt(d, n, CHECK_FAIL, "record status %d: %s", status, out);
	if (!strstr(out, "warning: the AUX area filled"))
		return fmt(d, n, CHECK_FAIL, "no AUX-full warning: %s", out);
	code = run_capture(chk, out, sizeof(out));
	if (code)
		return fmt(d, n, CHECK_FAIL, "--check exit %d: %s", code, out);
	p = strstr(out, "samples=");
	if (p)
		samples = strtoull(p + 8, NULL, 10);
	p = strstr(out, "lost_sw=");
	if (p)
		lost_sw = strtoull(p + 8, NULL, 10);
	if (samples < 600 || !lost_sw)
		return fmt(d, n, CHECK_FAIL, "want >= 600 samples (sampling resumed) and lost_sw > 0: %s",
			   out);
	return fmt(d, n, CHECK_PASS, "%s", out);
}

/* The command's exit status passes through; a missing command is one line and 127. */
/*
 * `/init threads`: a known split of work over three threads running at once:
 * thread k (1..3) spins in user space until it has seen k * 100 millisecond
 * boundaries of CLOCK_MONOTONIC go by while running (a jump over several, when the
 * host starved the vCPU, counts once). That is the stand-in unit's own clock: it
 * takes its samples on a 1 ms timer while the thread's event is on, and skips the
 * ticks a starved vCPU missed in the same way; CPU time (which the guest keeps
 * charging while the host has the vCPU descheduled) drifted from it by up to 0.12
 * of a share at load 17. On an idle host this is 0.1, 0.2, 0.3 s of CPU time. The
 * main thread joins them and prints `threads: TID1 TID2 TID3 cpu C1 C2 C3` (work
 * 1:2:3). It first undoes the CPU 0 affinity the init leaves to its children, so
 * the threads spread over the CPUs.
 */
static pid_t thr_tid[3];
static double thr_cpu[3];

static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *thr_work(void *arg)
{
	int k = (int)(intptr_t)arg, i, ticks = 0;
	uint64_t x = (uint64_t)k;
	long long ms, last = (long long)(now_s() * 1000.0);

	thr_tid[k] = (pid_t)syscall(SYS_gettid);
	while (ticks < 100 * (k + 1)) {
		for (i = 0; i < 200; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
		sink = x;
		ms = (long long)(now_s() * 1000.0);
		if (ms != last) {
			ticks++;
			last = ms;
		}
	}
	thr_cpu[k] = thread_cpu_s();
	return NULL;
}

static int threads_main(void)
{
	pthread_t t[3];
	cpu_set_t all;
	int k;

	/* PID 1 pinned itself to CPU 0 (fake_unit_aux_sampling) and its children inherit
	 * that: let the threads run on every CPU */
	CPU_ZERO(&all);
	for (k = 0; k < CPU_SETSIZE; k++)
		CPU_SET(k, &all);
	if (sched_setaffinity(0, sizeof(all), &all))
		return 1;
	for (k = 0; k < 3; k++)
		if (pthread_create(&t[k], NULL, thr_work, (void *)(intptr_t)k))
			return 1;
	for (k = 0; k < 3; k++)
		pthread_join(t[k], NULL);
	printf("threads: %d %d %d cpu %.3f %.3f %.3f\n", thr_tid[0], thr_tid[1], thr_tid[2],
	       thr_cpu[0], thr_cpu[1], thr_cpu[2]);
	return 0;
}

/* The per-thread counts of `tiprof record`'s line "N threads: TID:S ...; CPUs: C:S ...":
 * the samples of @tid (0 if absent), and the sum over all threads in @total. */
static unsigned long long thread_samples(const char *out, int tid, unsigned long long *total)
{
	const char *p = strstr(out, " threads:"), *e;
	unsigned long long s, got = 0;
	char *end;
	long t;

	*total = 0;
	if (!p)
		return 0;
	e = strchr(p, ';');
	for (p += 9; e && p < e; p = end) {
		t = strtol(p, &end, 10);
		if (end == p || *end != ':')
			break;
		s = strtoull(end + 1, &end, 10);
		*total += s;
		if (t == tid)
			got = s;
	}
	return got;
}

/*
 * tiprof record follows every thread of the command: three threads with 1:2:3
 * units of work (running time in the stand-in's ticks) hold between them >= 90 % of the samples (the main
 * thread only starts and joins them), split 1:2:3 within 0.06 of each share (1/6,
 * 2/6, 3/6) and >= 100 samples in all. Samples are counted per thread by the TID of
 * the PERF_RECORD_AUX announcing them (docs/record.md). With no inherit, only the
 * main thread would be sampled.
 */
static int check_record_threads(char *d, size_t n)
{
	char *const rec[] = { TIPROF_BIN, "record", "-o", "/thr.tps", "--period", "1000", "--",
			      "/init", "threads", NULL };
	static char out[4096];
	unsigned long long s[3], total, all = 0;
	int tid[3], code, k;
	double cpu[3], share;
	const char *p;

	code = run_capture_all(rec, out, sizeof(out));
	p = strstr(out, "threads: ");
	if (code || !p || sscanf(p, "threads: %d %d %d cpu %lf %lf %lf", &tid[0], &tid[1], &tid[2],
				 &cpu[0], &cpu[1], &cpu[2]) != 6 || !strstr(out, " threads:"))
		return fmt(d, n, CHECK_FAIL, "exit %d: %.200s", code, out);
	for (k = 0; k < 3; k++) {
		s[k] = thread_samples(out, tid[k], &total);
		all += s[k];
	}
	p = strstr(out, "tiprof record: ");
	p = p ? strstr(p + 1, "tiprof record: ") : NULL;	/* the threads line */
	if (all < 100 || all * 100 < total * 90)
		return fmt(d, n, CHECK_FAIL, "workers %llu of %llu samples: %.180s", all, total,
			   p ? p : out);
	for (k = 0; k < 3; k++) {
		share = (double)s[k] / (double)all;
		if (share < (k + 1) / 6.0 - 0.06 || share > (k + 1) / 6.0 + 0.06)
			return fmt(d, n, CHECK_FAIL, "thread %d (work %d/6) has %.3f of the samples: "
				   "%llu %llu %llu (cpu %.2f %.2f %.2f s)", tid[k], k + 1, share,
				   s[0], s[1], s[2], cpu[0], cpu[1], cpu[2]);
	}
	p = strstr(out, "; CPUs:");
	return fmt(d, n, CHECK_PASS, "work 1:2:3 -> samples %llu %llu %llu (%.3f %.3f %.3f) of %llu; "
		   "cpu %.2f %.2f %.2f s%.*s", s[0], s[1], s[2], (double)s[0] / all,
		   (double)s[1] / all, (double)s[2] / all, total, cpu[0], cpu[1], cpu[2],
		   p ? (int)strcspn(p, "\n") : 0, p ? p : "");
}

/*
 * -C 1: only the event on CPU 1 is opened; the three threads (on two CPUs) are
 * sampled only there: the CPUs list names CPU 1 alone, with samples. A bad list is
 * refused with exit 2.
 */
static int check_record_cpu_filter(char *d, size_t n)
{
	char *const rec[] = { TIPROF_BIN, "record", "-C", "1", "-o", "/cpu.tps", "--period", "1000",
			      "--", "/init", "threads", NULL };
	char *const bad[] = { TIPROF_BIN, "record", "-C", "1-x", "--", "/init", "busy", "0", NULL };
	static char out[4096];
	const char *p;
	int code;

	code = run_capture_all(rec, out, sizeof(out));
	p = strstr(out, "; CPUs:");
	if (code || !p || strncmp(p, "; CPUs: 1:", 10) || strtoull(p + 10, NULL, 10) == 0 ||
	    p[10 + strspn(p + 10, "0123456789")] != '\n')
		return fmt(d, n, CHECK_FAIL, "exit %d: %.200s", code, p ? p : out);
	code = run_capture(bad, out, sizeof(out));
	if (code != 2 || !strstr(out, "bad CPU list '1-x'"))
		return fmt(d, n, CHECK_FAIL, "-C 1-x: exit %d: %s", code, out);
	return fmt(d, n, CHECK_PASS, "-C 1: samples on CPU 1 only; -C 1-x refused (exit 2)");
}

/*
 * The privilege filter: no option = U, --kernel = S, --user --kernel (either order) = U
 * and S. Each recording opens (the driver takes the filter) and the header says it
 * (`priv=` of --check). The stand-in does not filter its samples by privilege.
 */
static int check_record_priv_filter(char *d, size_t n)
{
	static const struct {
		const char *a, *b, *want;
	} cases[] = {
		{ NULL, NULL, "priv=0x1" }, { "--kernel", NULL, "priv=0x2" },
		{ "--user", "--kernel", "priv=0x3" }, { "--kernel", "--user", "priv=0x3" },
	};
	char *const chk[] = { TIPROF_BIN, "record", "--check", "/priv.tps", NULL };
	char out[512];
	size_t i;
	int code;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *rec[13] = { TIPROF_BIN, "record", "-o", "/priv.tps", "--period", "1000" };
		int k = 6;

		if (cases[i].a)
			rec[k++] = (char *)cases[i].a;
		if (cases[i].b)
			rec[k++] = (char *)cases[i].b;
		rec[k++] = "--";
		rec[k++] = "/init";
		rec[k++] = "busy";
		rec[k++] = "0.05";
		rec[k] = NULL;
		code = run_capture(rec, out, sizeof(out));
		if (code)
			return fmt(d, n, CHECK_FAIL, "%s %s: exit %d: %s", cases[i].a ? cases[i].a : "",
				   cases[i].b ? cases[i].b : "", code, out);
		code = run_capture(chk, out, sizeof(out));
		if (code || !strstr(out, cases[i].want))
			return fmt(d, n, CHECK_FAIL, "%s %s: want %s: %s", cases[i].a ? cases[i].a : "",
				   cases[i].b ? cases[i].b : "", cases[i].want, out);
	}
	return fmt(d, n, CHECK_PASS, "U 0x1, --kernel 0x2, --user --kernel and --kernel --user 0x3");
}

/*
 * Kernel symbols: record --kernel copies /proc/kallsyms to OUT.kallsyms (addresses, text
 * symbols); with kernel.kptr_restrict=2 (every address 0 even for root) it writes none, says
 * so in one line and removes the earlier copy.
 */
static int check_record_kallsyms(char *d, size_t n)
{
	char *const rec[] = { TIPROF_BIN, "record", "-o", "/ks.tps", "--period", "1000", "--kernel",
			      "--", "/init", "busy", "0.05", NULL };
	char out[2048], line[512], old[16] = "";
	unsigned long long a;
	long text = 0;
	struct stat st;
	FILE *f;
	int code;

	code = run_capture_all(rec, out, sizeof(out));
	if (code || !(f = fopen("/ks.tps.kallsyms", "r")))
		return fmt(d, n, CHECK_FAIL, "exit %d, no /ks.tps.kallsyms: %.300s", code, out);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx", &a) == 1 && a && strstr(line, " T "))
			text++;
	fclose(f);
	if (text < 100)
		return fmt(d, n, CHECK_FAIL, "/ks.tps.kallsyms: %ld global text symbols with an "
			   "address", text);
	if (!(f = fopen("/proc/sys/kernel/kptr_restrict", "r+")))
		return fmt(d, n, CHECK_PASS, "%ld text symbols copied (no kptr_restrict sysctl: "
			   "the hidden case not checked)", text);
	if (!fgets(old, sizeof(old), f) || fseek(f, 0, SEEK_SET) || fputs("2\n", f) < 0 ||
	    fclose(f))
		return fmt(d, n, CHECK_FAIL, "cannot set kernel.kptr_restrict=2");
	code = run_capture_all(rec, out, sizeof(out));
	if ((f = fopen("/proc/sys/kernel/kptr_restrict", "w"))) {
		fputs(old, f);
		fclose(f);
	}
	if (code || !strstr(out, "every address as 0") || stat("/ks.tps.kallsyms", &st) == 0)
		return fmt(d, n, CHECK_FAIL, "kptr_restrict=2: exit %d, copy %s: %.300s", code,
			   stat("/ks.tps.kallsyms", &st) == 0 ? "left" : "absent", out);
	return fmt(d, n, CHECK_PASS, "%ld global text symbols copied; kptr_restrict=2: no copy, "
		   "one line said so", text);
}

static int check_record_exit_status(char *d, size_t n)
{
	char *const rec[] = { TIPROF_BIN, "record", "-o", "/rec3.tps", "--period", "1000", "--",
			      "/init", "busy", "0.05", "3", NULL };
	char *const missing[] = { TIPROF_BIN, "record", "-o", "/rec4.tps", "--", "/no/such/cmd", NULL };
	char out[512];
	struct stat st;
	int code;

	code = run_capture(rec, out, sizeof(out));
	if (code != 3)
		return fmt(d, n, CHECK_FAIL, "command exit 3 gave %d: %s", code, out);
	code = run_capture(missing, out, sizeof(out));
	if (code != 127 || !strstr(out, "cannot run '/no/such/cmd'"))
		return fmt(d, n, CHECK_FAIL, "missing command gave %d: %s", code, out);
	if (stat("/rec4.tps", &st) == 0)
		return fmt(d, n, CHECK_FAIL, "a sample file was left for a missing command");
	return fmt(d, n, CHECK_PASS, "exit 3 passed through; missing command: 127, %s", out);
}

/*
 * The software branch tracer's riscv64 build (sw/lbr/, docs/lbr.md section 9)
 * on dynamically linked, non-PIE riscv64 builds of tests/sw/lbr/lbr_*.c, traced
 * with software breakpoints (ebreak/c.ebreak, the RISC-V default) and
 * task-clock sampling. The guest only runs them; each program's records go to
 * the console between `TIPROF-LBR-BEGIN <name>` and `TIPROF-LBR-END <name>
 * <lines>` as `TIPROF-LBR <tiprof lbr dump line>` lines, and
 * tests/system/check_lbr_rv.py checks every {from,to} on the host against
 * riscv64 objdump and an exact (single-stepped) trace.
 */
#define LBR_PERIOD	"1000000"	/* ns of task clock between samples */
#define LBR_MIN_STACKS	10
#define LBR_DUMP_MAX	(1 << 20)

static const struct lbr_prog {
	const char *name;	/* /bin/<name>, records in /tmp/<name>.lbr */
	const char *reps;	/* argv[1]: bodies to run (~0.1 s untraced) */
} lbr_progs[] = {
	{ "lbr_loops", "2000" },
	{ "lbr_indirect", "1500" },
	{ "lbr_recurse", "1000" },
	{ "lbr_signal", "300" },
	{ "lbr_threads", "20000" },	/* 16 threads x 20000 bodies (a few ms of CPU each under TCG at 300) */
};

#define LBR_NPROGS	(sizeof(lbr_progs) / sizeof(lbr_progs[0]))

/* @text's first line, at most @n - 1 bytes, into @line */
static const char *first_line(const char *text, char *line, size_t n)
{
	size_t len = strcspn(text, "\n");

	if (len >= n)
		len = n - 1;
	memcpy(line, text, len);
	line[len] = 0;
	return line;
}

/* The traced runs print the same and exit the same as untraced ones. */
static int check_lbr_rv_traced(char *d, size_t n)
{
	static char a[4096], b[4096];
	char path[64], file[64], la[100], lb[100];
	size_t i, used = 0;
	double t0, t1, t2;
	struct stat st;
	int ca, cb;

	if (stat(TIPROF_BIN, &st))
		return fmt(d, n, CHECK_SKIP, "%s not in the initramfs", TIPROF_BIN);
	for (i = 0; i < LBR_NPROGS; i++) {
		const struct lbr_prog *p = &lbr_progs[i];
		char *const ref[] = { path, (char *)p->reps, NULL };
		char *const rec[] = { TIPROF_BIN, "lbr", "record", "-o", file, "--period", LBR_PERIOD,
				      "--", path, (char *)p->reps, NULL };

		snprintf(path, sizeof(path), "/bin/%s", p->name);
		snprintf(file, sizeof(file), "/tmp/%s.lbr", p->name);
		if (stat(path, &st))
			return fmt(d, n, CHECK_SKIP, "%s not in the initramfs", path);
		t0 = now_s();
		ca = run_capture_all(ref, a, sizeof(a));
		t1 = now_s();
		cb = run_capture_all(rec, b, sizeof(b));
		t2 = now_s();
		if (ca < 0 || cb < 0)
			return fmt(d, n, CHECK_FAIL, "cannot run %s (%d) or %s (%d)", path, ca,
				   TIPROF_BIN " lbr", cb);
		if (ca != cb || strcmp(a, b))
			return fmt(d, n, CHECK_FAIL, "%s: traced exit %d \"%s\"; untraced exit %d \"%s\"",
				   path, cb, first_line(b, lb, sizeof(lb)), ca,
				   first_line(a, la, sizeof(la)));
		used += (size_t)snprintf(d + used, n - used, "%s%s %s: exit %d, %.2f s -> %.2f s",
					 i ? "; " : "", p->name, p->reps, ca, t1 - t0, t2 - t1);
		if (used >= n)
			break;
	}
	return CHECK_PASS;
}

/* Value of " key=<u64>" in @line, or 0. */
static unsigned long long field(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* The records, dumped to the console for the host-side check. */
static int check_lbr_rv_records(char *d, size_t n)
{
	static char buf[LBR_DUMP_MAX];
	unsigned long long samples = 0, stops = 0, abandoned = 0, branches = 0;
	int code, lines = 0, stacks = 0, mmaps = 0, few = 0;
	char file[64], *p, *nl, l1[100];
	struct stat st;
	size_t i;

	for (i = 0; i < LBR_NPROGS; i++) {
		char *const dump[] = { TIPROF_BIN, "lbr", "dump", file, NULL };
		int sessions = 0, pstacks = 0, plines = 0;

		snprintf(file, sizeof(file), "/tmp/%s.lbr", lbr_progs[i].name);
		if (stat(file, &st))
			return fmt(d, n, CHECK_SKIP, "no %s (the traced run did not happen)", file);
		code = run_capture_all(dump, buf, sizeof(buf));
		if (code)
			return fmt(d, n, CHECK_FAIL, "%s dump %s: exit %d: %s", TIPROF_BIN " lbr", file, code,
				   first_line(buf, l1, sizeof(l1)));
		if (strlen(buf) == sizeof(buf) - 1)
			return fmt(d, n, CHECK_FAIL, "dump of %s (%lld bytes) over %d bytes", file,
				   (long long)st.st_size, LBR_DUMP_MAX);
		printf("TIPROF-LBR-BEGIN %s\n", lbr_progs[i].name);
		for (p = buf; *p; p = nl + 1) {
			nl = strchr(p, '\n');
			if (!nl)
				nl = p + strlen(p) - 1;
			else
				*nl = 0;
			printf("TIPROF-LBR %s\n", p);
			plines++;
			if (strncmp(p, "stack ", 6) == 0) {
				pstacks++;
			} else if (strncmp(p, "session ", 8) == 0) {
				sessions++;
			} else if (strncmp(p, "mmap ", 5) == 0) {
				mmaps++;
			} else if (strncmp(p, "stats ", 6) == 0) {
				samples += field(p, " samples=");
				stops += field(p, " stops=");
				abandoned += field(p, " abandoned=");
				branches += field(p, " branches=");
			}
		}
		printf("TIPROF-LBR-END %s %d\n", lbr_progs[i].name, plines);
		fflush(stdout);
		tcdrain(STDOUT_FILENO);
		if (sessions != 1 || pstacks < LBR_MIN_STACKS)
			few += fmt(d, n, 1, "%s: %d sessions, %d stacks (want 1, >= %d)",
				   file, sessions, pstacks, LBR_MIN_STACKS);
		stacks += pstacks;
		lines += plines;
	}
	if (few)
		return CHECK_FAIL;
	return fmt(d, n, CHECK_PASS, "%zu programs: %d stacks, %llu branches, %llu stops, %llu samples (%llu abandoned), %d mmap records; %d lines to the host check",
		   LBR_NPROGS, stacks, branches, stops, samples, abandoned, mmaps, lines);
}

/*
 * Commands fpga/bringup.sh needs that the initramfs has no binary for (no busybox):
 * `/init insmod FILE [PARAMS...]`, `/init rmmod NAME`, `/init dmesg`. The check sets
 * TIPROF_INSMOD etc. to them (the script is parameterized by its environment only).
 */
static int applet(int argc, char **argv)
{
	char params[512] = "";
	int fd, i;

	if (strcmp(argv[1], "insmod") == 0 && argc >= 3) {
		for (i = 3; i < argc; i++)
			snprintf(params + strlen(params), sizeof(params) - strlen(params), "%s%s",
				 i > 3 ? " " : "", argv[i]);
		fd = open(argv[2], O_RDONLY | O_CLOEXEC);
		if (fd < 0 || syscall(SYS_finit_module, fd, params, 0)) {
			fprintf(stderr, "insmod: %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		return 0;
	}
	if (strcmp(argv[1], "rmmod") == 0 && argc == 3) {
		if (syscall(SYS_delete_module, argv[2], O_NONBLOCK)) {
			fprintf(stderr, "rmmod: %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		return 0;
	}
	if (strcmp(argv[1], "dmesg") == 0 && argc == 2) {
		const char *log = klog_read(), *e;

		if (!log)
			return 1;
		for (; *log; log = *e ? e + 1 : e) {	/* as dmesg prints it: no <level> */
			e = log + strcspn(log, "\n");
			if (*log == '<' && strchr("01234567", log[1]) && log[2] == '>')
				log += 3;
			printf("%.*s\n", (int)(e - log), log);
		}
		return 0;
	}
	return -1;
}

/*
 * The FPGA bring-up script, fpga/bringup.sh, unchanged, under /bin/sh (the initramfs's
 * POSIX shell, tests/system/sh) against the stand-in unit: it loads the module itself
 * (fake_unit=1), checks the versions, reads the identification registers back, records
 * the known loop and a workload and unloads. Every step PASS except the two the stand-in
 * cannot do (the hot instruction: its addresses are synthetic; the interrupt line: it
 * calls the handler from a timer), which must SKIP for that reason. Then a planted
 * mismatch (TIPROF_EXPECT_W=4 for the W=2 stand-in) must fail the script (exit 1,
 * `registers FAIL`). Every line of the first run goes to the console (TIPROF-BRINGUP).
 */
static int bringup_run(char *out, size_t n, const char *expect_w)
{
	char *const argv[] = { "/bin/sh", "/bin/bringup.sh", NULL };
	static const char *const env[][2] = {
		{ "TIPROF", TIPROF_BIN }, { "TIPROF_HOTLOOP", "/bin/tiprof-hotloop" },
		{ "TIPROF_MODULE", MODULE_PATH }, { "TIPROF_MODULE_PARAMS", "fake_unit=1" },
		{ "TIPROF_INSMOD", "/init insmod" }, { "TIPROF_RMMOD", "/init rmmod" },
		{ "TIPROF_DMESG", "/init dmesg" }, { "TIPROF_EXPECT_SBI", "SBI specification v" },
		{ "TIPROF_OUT", "/tmp" }, { "TIPROF_PERIOD", "1000" }, { "TIPROF_SECS", "1" },
	};
	size_t i;
	int code;

	for (i = 0; i < sizeof(env) / sizeof(env[0]); i++)
		setenv(env[i][0], env[i][1], 1);
	if (expect_w)
		setenv("TIPROF_EXPECT_W", expect_w, 1);
	code = run_capture_all(argv, out, n);
	for (i = 0; i < sizeof(env) / sizeof(env[0]); i++)
		unsetenv(env[i][0]);
	unsetenv("TIPROF_EXPECT_W");
	return code;
}

static int check_fpga_bringup(char *d, size_t n)
{
	static const char *const pass[] = { "kernel", "firmware", "tiprof", "module", "registers",
					    "record", "unload" };
	static char out[16384];
	char want[64], *line, *save = NULL;
	struct stat st;
	size_t i;
	int code;

	if (stat("/bin/sh", &st) || stat("/bin/bringup.sh", &st))
		return fmt(d, n, CHECK_FAIL, "/bin/sh or /bin/bringup.sh not in the initramfs");
	code = bringup_run(out, sizeof(out), NULL);
	for (i = 0; i < sizeof(pass) / sizeof(pass[0]); i++) {
		snprintf(want, sizeof(want), "bringup: %s PASS ", pass[i]);
		if (!strstr(out, want))
			break;
	}
	{
		int ok = code == 0 && i == sizeof(pass) / sizeof(pass[0]) &&
			 strstr(out, "bringup: hot_loop SKIP ") && strstr(out, "the stand-in unit's") &&
			 strstr(out, "bringup: irq_rate SKIP ") &&
			 strstr(out, "bringup: done pass=7 fail=0 skip=2");

		for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			printf("TIPROF-BRINGUP %s\n", line);
		fflush(stdout);
		tcdrain(STDOUT_FILENO);
		if (!ok)
			return fmt(d, n, CHECK_FAIL, "exit %d; want %s PASS, hot_loop and irq_rate SKIP "
				   "(TIPROF-BRINGUP lines above)", code,
				   i < sizeof(pass) / sizeof(pass[0]) ? pass[i] : "all");
	}
	code = bringup_run(out, sizeof(out), "4");
	if (code != 1 || !strstr(out, "bringup: registers FAIL ") || !strstr(out, "W=2, want 4"))
		return fmt(d, n, CHECK_FAIL, "TIPROF_EXPECT_W=4 on the W=2 stand-in: exit %d, not "
			   "refused", code);
	return fmt(d, n, CHECK_PASS, "7 steps pass, hot_loop and irq_rate skip (stand-in); "
		   "EXPECT_W=4 refused (exit 1)");
}

static const struct check checks[] = {
	{ "mounts", check_mounts },
	{ "sbi_pmu", check_sbi_pmu },
	{ "perf_task_clock_sampling", check_perf_task_clock },
	{ "perf_hw_cycles_sampling", check_perf_hw_cycles },
	{ "module_load", check_module_load },
	{ "module_refuses_absent_unit", check_module_refuses },
	{ "module_unload", check_module_unload },
	{ "record_pmu_absent", check_record_pmu_absent },
	{ "fake_unit_load", check_fake_load },
	{ "fake_unit_sysfs", check_fake_sysfs },
	{ "fake_unit_event_init_errnos", check_fake_event_init },
	{ "fake_unit_aux_sampling", check_fake_aux_sampling },
	{ "fake_unit_pm_event_init_errnos", check_fake_pm_event_init },
	{ "fake_unit_pm_aux_sampling", check_fake_pm_aux_sampling },
	{ "record_fake_unit", check_record_fake },
	{ "record_pm_fake_unit", check_record_pm_fake },
	{ "record_aux_wrap", check_record_aux_wrap },
	{ "record_aux_full_resumes", check_record_aux_full },
	{ "record_exit_status", check_record_exit_status },
	{ "record_threads", check_record_threads },
	{ "record_cpu_filter", check_record_cpu_filter },
	{ "record_priv_filter", check_record_priv_filter },
	{ "record_kallsyms", check_record_kallsyms },
	{ "fake_unit_unload_while_open", check_fake_unload_busy },
	{ "fake_unit_unload", check_fake_unload },
	{ "fpga_bringup", check_fpga_bringup },
	{ "lbr_rv_traced_unchanged", check_lbr_rv_traced },
	{ "lbr_rv_records", check_lbr_rv_records },
};

int main(int argc, char **argv)
{
	int count[3] = { 0, 0, 0 };
	char detail[256];
	size_t i;
	int r;

	/* `/init busy SECS [STATUS]`: the workload the record checks profile */
	if (getpid() != 1 && argc >= 3 && strcmp(argv[1], "busy") == 0) {
		busy(atof(argv[2]));
		return argc >= 4 ? atoi(argv[3]) : 0;
	}
	if (getpid() != 1 && argc >= 2 && strcmp(argv[1], "threads") == 0)
		return threads_main();
	if (getpid() != 1 && argc >= 2 && (r = applet(argc, argv)) >= 0)
		return r;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TIPROF-INIT start %zu checks\n", sizeof(checks) / sizeof(checks[0]));
	fflush(stdout);
	tcdrain(STDOUT_FILENO);
	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		detail[0] = 0;
		r = checks[i].run(detail, sizeof(detail));
		count[r]++;
		printf("TIPROF-CHECK %s %s %s\n", checks[i].name,
		       r == CHECK_PASS ? "PASS" : r == CHECK_FAIL ? "FAIL" : "SKIP",
		       detail);
		/*
		 * Let the UART send the line before the next check can make
		 * the kernel print: console messages bypass the tty buffer
		 * and would land in the middle of it.
		 */
		fflush(stdout);
		tcdrain(STDOUT_FILENO);
	}
	printf("TIPROF-DONE pass=%d fail=%d skip=%d\n", count[0], count[1], count[2]);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
