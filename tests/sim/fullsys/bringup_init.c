// SPDX-License-Identifier: Apache-2.0
/*
 * tests/sim/fullsys/bringup_init.c - PID 1 of the initramfs that runs the FPGA bring-up script,
 * fpga/bringup.sh, unchanged, on the simulated board: tiprof-fs --unit (the Verilated TIP unit
 * behind the hart's CSRs, the C model in lockstep) with the real driver (no fake unit), so the
 * self-test's hot-loop and interrupt-rate steps run (the system tier's stand-in unit skips them).
 * Static riscv64. It mounts /proc, /sys and /dev, runs `/bin/sh /bin/bringup.sh` (the Go POSIX
 * shell of tests/system/sh) with the environment in bringup_env below (the script's workload
 * sizes are set there and nowhere else), prints the script's lines as they come (its stdout is
 * the console) and its exit status, and powers off.
 *   TIPROF-FS-BRINGUP-START
 *   bringup: <step> PASS|FAIL|SKIP <detail>     (the script's own lines)
 *   TIPROF-FS-BRINGUP-EXIT <status>
 * tests/sim/fullsys/bringup_check.py checks them on the host.
 *
 * The script needs insmod, rmmod and dmesg; the initramfs has no binaries for them (Debian 12
 * ships no riscv64 busybox), so this program is also those commands:
 *   /init insmod FILE [PARAMS...]   /init rmmod NAME   /init dmesg
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define KLOG_SIZE (1 << 18)

/* The script's environment: the board defaults except the commands this initramfs provides,
 * the module path, the unit's parameters, and the sizes. Guest time on tiprof-fs is instret / 10
 * at 10 MHz (a 100 MIPS hart), so the board's default 1 s known loop would be 10^8 instructions
 * (minutes of the Verilated unit): 50 ms (5 * 10^6 instructions, ~500 samples at the default
 * period 10007) through fpga/bringup.sh's TIPROF_LOOP_MS, and a 10 ms workload. */
static const char *const bringup_env[][2] = {
	{ "TIPROF", "/bin/tiprof" },
	{ "TIPROF_HOTLOOP", "/bin/tiprof-hotloop" },
	{ "TIPROF_MODULE", "/lib/modules/tiprof_pmu.ko" },
	{ "TIPROF_INSMOD", "/init insmod" },
	{ "TIPROF_RMMOD", "/init rmmod" },
	{ "TIPROF_DMESG", "/init dmesg" },
	{ "TIPROF_EXPECT_SBI", "SBI specification v" },
	{ "TIPROF_EXPECT_W", "1" },
	{ "TIPROF_EXPECT_XLEN", "64" },
	{ "TIPROF_EXPECT_FIFO", "16" },
	{ "TIPROF_OUT", "/tmp" },
	{ "TIPROF_LOOP_MS", "50" },
	{ "TIPROF_WORKLOAD", "/bin/tiprof-hotloop 0.01" },
	{ "PATH", "/bin" },
};

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
		static char buf[KLOG_SIZE + 1];
		int len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, KLOG_SIZE);
		const char *log, *e;

		if (len < 0) {
			perror("dmesg");
			return 1;
		}
		buf[len] = 0;
		for (log = buf; *log; log = *e ? e + 1 : e) {	/* as dmesg prints it: no <level> */
			e = log + strcspn(log, "\n");
			if (*log == '<' && strchr("01234567", log[1]) && log[2] == '>')
				log += 3;
			printf("%.*s\n", (int)(e - log), log);
		}
		return 0;
	}
	fprintf(stderr, "init: unknown command '%s'\n", argv[1]);
	return 2;
}

int main(int argc, char **argv)
{
	char *const sh[] = { "/bin/sh", "/bin/bringup.sh", NULL };
	int status = -1;
	size_t i;
	pid_t pid;

	if (argc > 1)
		return applet(argc, argv);
	if (mount("proc", "/proc", "proc", 0, NULL) || mount("sysfs", "/sys", "sysfs", 0, NULL) ||
	    (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) && errno != EBUSY))
		printf("TIPROF-FS-BRINGUP-MOUNT-FAIL %s\n", strerror(errno));
	klogctl(8 /* SYSLOG_ACTION_CONSOLE_LEVEL */, NULL, 4);	/* the driver's info lines: dmesg */
	for (i = 0; i < sizeof(bringup_env) / sizeof(bringup_env[0]); i++)
		setenv(bringup_env[i][0], bringup_env[i][1], 1);
	if (chdir("/tmp"))
		perror("/tmp");
	printf("TIPROF-FS-BRINGUP-START\n");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execve(sh[0], sh, environ);
		perror("/bin/sh");
		_exit(127);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid)
		status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("TIPROF-FS-BRINGUP-EXIT %d\n", status);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
