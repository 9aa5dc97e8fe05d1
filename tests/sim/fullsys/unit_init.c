// SPDX-License-Identifier: Apache-2.0
/*
 * tests/sim/fullsys/unit_init.c - PID 1 of the initramfs that runs the real driver on the
 * real unit: tiprof-fs --unit (the Verilated TIP unit behind the hart's CSRs, the C model in
 * lockstep; docs/fullsys.md). Static riscv64. It loads tiprof_pmu.ko (no fake unit), checks
 * the probe and the sysfs attributes against the unit's parameters (W=1, XLEN=64, FIFO 16),
 * records `/init work N` three times with /bin/tiprof record (user mode at period 1000; user and
 * kernel at a short period, where the unit loses samples; user and kernel at period 100, below
 * the driver's drain cost: an interrupt storm the driver must bound and throttle, docs/driver.md),
 * reads each file back, prints each
 * sample file on the console in base64 between markers, unloads the module and powers off.
 * Lines:
 *   TIPROF-FS-UNIT <check> PASS|FAIL <detail>
 *   TIPROF-FS-UNIT-FILE <path> <bytes>, TIPROF-B64 <76 base64 characters>..., TIPROF-FS-UNIT-END
 *   TIPROF-FS-UNIT-DONE pass=<n> fail=<n>
 * tests/sim/fullsys/unit.sh checks them on the host, and compares the files with the samples
 * the unit's C model gave up (tiprof-fs --unit-log): sample for sample.
 *   /init work N K   the workload: N rounds of a loop in work() (a known hot spot), then K
 *                    long lines into the kernel log (interrupts-off stretches)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tiprof/tiprof_regs.h"

#define MODULE_PATH	"/lib/modules/tiprof_pmu.ko"
#define MODULE_NAME	"tiprof_pmu"
#define PMU_DIR		"/sys/bus/event_source/devices/tiprof_pmu/"
#define TIPROF_BIN	"/bin/tiprof"
#define MAX_PER_TICK	"/sys/module/" MODULE_NAME "/parameters/max_samples_per_tick"

static int passed, failed;

static void result(const char *name, int ok, const char *f, ...)
{
	char detail[768];
	va_list ap;

	va_start(ap, f);
	vsnprintf(detail, sizeof(detail), f, ap);
	va_end(ap);
	printf("TIPROF-FS-UNIT %s %s %s\n", name, ok ? "PASS" : "FAIL", detail);
	fflush(stdout);
	if (ok)
		passed++;
	else
		failed++;
}

/* The workload's hot spot: a loop of integer work the host check finds by its symbol. */
static __attribute__((noinline)) uint64_t work(uint64_t n)
{
	uint64_t s = 0x9e3779b97f4a7c15ull, i;

	for (i = 0; i < n; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		s += i;
	}
	return s;
}

/*
 * n long lines into the kernel log (/dev/kmsg, level 4: printed on the console). The 8250
 * console driver writes them with interrupts off, character by character: stretches of
 * ~10^5 cycles in which the unit's FIFO overflows when it samples the kernel at a short
 * period (its interrupt cannot be taken), so TIP_LOST counts samples.
 */
static int kmsg(int n)
{
	char line[904];
	int fd, i;

	if (n <= 0)
		return 0;
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		perror("/dev/kmsg");
		return 1;
	}
	memcpy(line, "<4>", 3);
	memset(line + 3, 'x', sizeof(line) - 3);
	for (i = 0; i < n; i++)
		if (write(fd, line, sizeof(line)) < 0) {
			perror("/dev/kmsg");
			close(fd);
			return 1;
		}
	close(fd);
	return 0;
}

/* Write s to the file at path: 0, or -1. */
static int write_line(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t len = (ssize_t)strlen(s), w;

	if (fd < 0)
		return -1;
	w = write(fd, s, (size_t)len);
	close(fd);
	return w == len ? 0 : -1;
}

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

/* The kernel log lines that name the driver, or that mean the kernel is hurt. */
static void klog_driver(char *out, size_t n, int *bad)
{
	static char buf[1 << 17];
	static const char *const hurt[] = { "Oops", "BUG:", "WARNING:", "Unable to handle",
					    "Call Trace", "Kernel panic" };
	int len = klogctl(3, buf, sizeof(buf) - 1);
	char *line, *save = NULL;
	size_t used = 0, k;

	out[0] = 0;
	*bad = 0;
	if (len < 0)
		return;
	buf[len] = 0;
	for (k = 0; k < sizeof(hurt) / sizeof(hurt[0]); k++)
		if (strstr(buf, hurt[k]))
			*bad = 1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strstr(line, "tiprof_pmu") && used + strlen(line) + 3 < n)
			used += (size_t)snprintf(out + used, n - used, "%s[%s]", used ? " " : "",
						 line);
}

/* Run argv with stdout and stderr into out (cut at n); the exit status, or -1. */
static int run(char *const argv[], char *out, size_t n)
{
	size_t len = 0;
	int p[2], status;
	pid_t pid;
	ssize_t r;

	out[0] = 0;
	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		execv(argv[0], argv);
		_exit(126);
	}
	close(p[1]);
	while ((r = read(p[0], out + len, n - 1 - len)) > 0 || (r < 0 && errno == EINTR))
		if (r > 0 && (len += (size_t)r) == n - 1)
			break;
	out[len] = 0;
	close(p[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static unsigned long long kv(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? strtoull(p + strlen(key), NULL, 0) : ~0ull;
}

/* Print file path in base64 between markers. */
static void dump_file(const char *path)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned char in[57];
	char line[80];
	struct stat st;
	size_t n, i, o;
	FILE *f = fopen(path, "rb");

	if (!f || fstat(fileno(f), &st)) {
		result("dump", 0, "%s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return;
	}
	printf("TIPROF-FS-UNIT-FILE %s %lld\n", path, (long long)st.st_size);
	while ((n = fread(in, 1, sizeof(in), f)) > 0) {
		for (i = o = 0; i < n; i += 3) {
			uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
				     (i + 2 < n ? in[i + 2] : 0);

			line[o++] = b64[v >> 18 & 63];
			line[o++] = b64[v >> 12 & 63];
			line[o++] = i + 1 < n ? b64[v >> 6 & 63] : '=';
			line[o++] = i + 2 < n ? b64[v & 63] : '=';
		}
		line[o] = 0;
		printf("TIPROF-B64 %s\n", line);
	}
	printf("TIPROF-FS-UNIT-END %s\n", path);
	fflush(stdout);
	fclose(f);
}

/*
 * tiprof record -o file ... -- /init work rounds: exit 0, the summary line, and --check's
 * counts: at least min samples, lost_sw 0 (the AUX area is large enough), lost_unit as want
 * (0: none, 1: some, -1: any), W=1 XLEN=64.
 */
static void record(const char *name, const char *file, const char *period, int kernel,
		   const char *rounds, unsigned long long min, int want_lost)
{
	char *const rec_u[] = { TIPROF_BIN, "record", "-o", (char *)file, "--period",
				(char *)period, "--aux-pages", "256", "--", "/init", "work",
				(char *)rounds, "0", NULL };
	char *const rec_k[] = { TIPROF_BIN, "record", "-o", (char *)file, "--period",
				(char *)period, "--aux-pages", "1024", "--user", "--kernel", "--",
				"/init", "work", (char *)rounds, "4", NULL };
	char *const chk[] = { TIPROF_BIN, "record", "--check", (char *)file, NULL };
	unsigned long long samples, lost_unit, lost_sw;
	char out[2048], want[64], *line;
	int code;

	code = run(kernel ? rec_k : rec_u, out, sizeof(out));
	/* its summary line (after the workload's line, perhaps warnings) */
	line = strstr(out, " samples written to ");
	if (line) {
		while (line > out && line[-1] != '\n')
			line--;
		line[strcspn(line, "\n")] = 0;
	}
	if (code || !line) {
		for (line = out; (line = strchr(line, '\n'));)
			*line = ' ';
		result(name, 0, "record exit %d: %s", code, out);
		return;
	}
	code = run(chk, out, sizeof(out));
	out[strcspn(out, "\n")] = 0;
	samples = kv(out, "samples=");
	lost_unit = kv(out, "lost_unit=");
	lost_sw = kv(out, "lost_sw=");
	snprintf(want, sizeof(want), "W=1 XLEN=64 period=%s ", period);
	if (code || samples < min || lost_sw != 0 || !strstr(out, want) ||
	    (want_lost == 0 && lost_unit != 0) || (want_lost == 1 && (lost_unit == 0 ||
								   lost_unit == ~0ull))) {
		result(name, 0, "--check exit %d, want >= %llu samples, lost_sw 0, lost_unit %s: %s",
		       code, min, want_lost == 0 ? "0" : want_lost == 1 ? "> 0" : "any", out);
		return;
	}
	result(name, 1, "%s", out);
}

int main(int argc, char **argv)
{
	static const char *const want[][2] = {
		{ PMU_DIR "format/mode", "config:0-1" },
		{ PMU_DIR "format/insts", "config:2" },
		{ PMU_DIR "format/rand_bits", "config:8-12" },
		{ PMU_DIR "format/watermark", "config:16-31" },
		{ PMU_DIR "format/seed", "config1:0-31" },
		{ PMU_DIR "format/profileme", "config:63" },
		{ PMU_DIR "caps/commit_width", "1" },
		{ PMU_DIR "caps/xlen", "64" },
		{ PMU_DIR "caps/fifo_depth", "16" },
		{ PMU_DIR "caps/pm_fetch_width", "0" },	/* the unit has no ProfileMe */
		{ PMU_DIR "cpumask", "0" },
	};
	char buf[2048], ver[16];
	struct stat st;
	size_t i;
	int fd, ret, bad;

	if (argc == 4 && strcmp(argv[1], "work") == 0) {
		printf("work %llu\n", (unsigned long long)work(strtoull(argv[2], NULL, 0)));
		return kmsg(atoi(argv[3]));
	}
	if (getpid() != 1) {
		fprintf(stderr, "usage: %s work ROUNDS (or as PID 1 of the initramfs)\n", argv[0]);
		return 2;
	}
	printf("TIPROF-FS-UNIT-INIT start\n");
	fflush(stdout);
	if (mount("proc", "/proc", "proc", 0, NULL) || mount("sysfs", "/sys", "sysfs", 0, NULL) ||
	    (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) && errno != EBUSY))
		result("mounts", 0, "%s", strerror(errno));
	else
		result("mounts", 1, "proc sysfs devtmpfs");

	/* probe: the module binds the device-tree node and finds the unit on the hart */
	fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC);
	ret = fd < 0 ? -1 : (int)syscall(SYS_finit_module, fd, "", 0);
	if (fd >= 0)
		close(fd);
	klog_driver(buf, sizeof(buf), &bad);
	if (ret || stat(PMU_DIR, &st) || bad)
		result("probe", 0, "finit_module %d (%s), PMU %s, kernel log%s: %s", ret,
		       ret ? strerror(errno) : "ok", stat(PMU_DIR, &st) ? "absent" : "present",
		       bad ? " HURT" : "", buf);
	else
		result("probe", 1, "PMU registered; %s", buf);

	/* format attributes, caps from TIP_PARAMS, cpumask, register-map version */
	snprintf(ver, sizeof(ver), "%u.%u", TIPROF_TIP_ID_MAJOR, TIPROF_TIP_ID_MINOR);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (read_line(want[i][0], buf, sizeof(buf)) || strcmp(buf, want[i][1]))
			break;
	if (i < sizeof(want) / sizeof(want[0]))
		result("sysfs", 0, "%s is \"%s\", want \"%s\"", want[i][0], buf, want[i][1]);
	else if (read_line(PMU_DIR "caps/version", buf, sizeof(buf)) || strcmp(buf, ver))
		result("sysfs", 0, "caps/version is \"%s\", want \"%s\"", buf, ver);
	else
		result("sysfs", 1, "format, caps (W=1 XLEN=64 FIFO 16, version %s) and cpumask", ver);

	/* user mode: the hot loop; at P = 1000 over ~1.3 M cycles, about 1300 samples */
	record("record_user", "/u.tps", "1000", 0, "100000", 500, 0);
	/* user and kernel at a short period: the console writes of kmsg() keep interrupts off
	 * long enough for the FIFO (16 samples) to overflow; the unit counts them in TIP_LOST. */
	record("record_kernel", "/k.tps", "1000", 1, "20000", 100, 1);
	/* an interrupt storm: the driver's drain costs ~350 cycles a sample here, so at period
	 * 100 the FIFO refills faster than it drains. The handler must return after one FIFO
	 * (before 2026-11-25 it popped 460 000 samples in one interrupt) and the driver throttle
	 * the unit until the next tick; every sample still in the file or counted lost. At most
	 * 100 samples a tick instead of 400 (the module parameter): a quarter of the samples to
	 * print on the console (the default's recording added ~70 M instructions). */
	ret = write_line(MAX_PER_TICK, "100");
	record("record_storm", "/s.tps", "100", 1, "5000", 100, 1);
	klog_driver(buf, sizeof(buf), &bad);
	result("storm_throttled", !ret && strstr(buf, "(max_samples_per_tick 100)") &&
	       !bad && !write_line(MAX_PER_TICK, "400"), "%s %s, kernel log%s, want a \"throttled\" "
	       "line: %s", MAX_PER_TICK, ret ? "not written" : "100", bad ? " HURT" : "", buf);
	dump_file("/u.tps");
	dump_file("/k.tps");
	dump_file("/s.tps");

	if (syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK))
		result("unload", 0, "delete_module: %s", strerror(errno));
	else if (stat("/sys/module/" MODULE_NAME, &st) == 0)
		result("unload", 0, "/sys/module/%s still there", MODULE_NAME);
	else {
		klog_driver(buf, sizeof(buf), &bad);
		result("unload", !bad, bad ? "kernel log hurt: %s" : "unloaded", buf);
	}
	printf("TIPROF-FS-UNIT-DONE pass=%d fail=%d\n", passed, failed);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
