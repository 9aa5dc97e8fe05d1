/* SPDX-License-Identifier: Apache-2.0 */
/* The full-system tier's /init (tests/sim/fullsys/run.sh): proves that user space runs on
 * tiprof-fs - prints a line, what the kernel says about the hart (/proc/cpuinfo's isa and
 * mmu), a few system calls' results, then powers the machine off (SBI SRST -> OpenSBI ->
 * the SiFive test device), so tiprof-fs exits with status 0. */
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	struct timespec a, b;
	struct utsname u;
	char line[256];
	volatile unsigned long x = 0;
	unsigned long k;
	FILE *f;

	printf("TIPROF-FS-INIT start pid %d\n", (int)getpid());
	if (mount("proc", "/proc", "proc", 0, NULL))
		perror("mount /proc");
	if (uname(&u) == 0)
		printf("TIPROF-FS-INIT uname %s %s %s\n", u.sysname, u.release, u.machine);
	f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "isa", 3) || !strncmp(line, "mmu", 3))
			printf("TIPROF-FS-INIT cpuinfo %s", line);
	if (f)
		fclose(f);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (k = 0; k < 1000000; k++)
		x += k;
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("TIPROF-FS-INIT loop %lu, clock advanced %s\n", (unsigned long)x,
	       (b.tv_sec > a.tv_sec || b.tv_nsec > a.tv_nsec) ? "yes" : "no");
	printf("TIPROF-FS-INIT done\n");
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 1;
}
