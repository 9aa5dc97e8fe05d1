/* SPDX-License-Identifier: Apache-2.0 */
/* tiprof-fs: run the full-system machine (docs/fullsys.md).
 *   tiprof-fs [options] --elf PROG          a bare-metal ELF (entry at its e_entry, M-mode)
 *   tiprof-fs [options] --bios FW [--kernel IMAGE] --dtb DTB
 *                                           firmware at 0x80000000, kernel at 0x80200000
 *                 [--initrd FILE]           at FS_INITRD_PA (RAM + 64 MiB): the device tree's
 *                                           /chosen must name it (linux,initrd-start/end)
 *   --unit                                  the TIP unit behind the hart's CSRs: the Verilated
 *                                           RTL with the C model in lockstep (fs_unit.h)
 *     [--unit-log FILE]                     every sample the unit's FIFO gives up to a POP, as
 *                                           `tiprof dump` lines, then a `model:` summary line
 *     [--unit-vcd FILE]                     where the waveform goes if RTL and model differ
 *                                           (default tiprof-fs-unit.vcd)
 * The hart starts in M-mode with a0 = 0 (hart id) and a1 = the device tree's address (as
 * QEMU virt's reset vector does). UART output goes to stdout. The exit status is the test
 * device's code (0 = pass/power-off); 3 = a stop condition (--max-insns, --stop-pc,
 * --until) ended the run; 4 = SIGINT/SIGTERM (the figures are printed); 2 = error. */
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fs.h"

/* SIGINT/SIGTERM (a time limit): stop between instructions and print the figures. */
static struct fs *the_machine;

static void on_signal(int sig)
{
	(void)sig;
	if (the_machine)
		the_machine->stop = 6;
}

static int load_file(struct fs *m, const char *path, uint64_t pa, uint64_t *size)
{
	FILE *f = fopen(path, "rb");
	char buf[65536];
	size_t n;
	uint64_t off = 0;

	if (!f) {
		fprintf(stderr, "tiprof-fs: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (iss_write_mem(m->iss, pa + off, buf, n)) {
			fprintf(stderr, "tiprof-fs: %s does not fit in RAM at %#llx\n", path,
				(unsigned long long)pa);
			fclose(f);
			return -1;
		}
		off += n;
	}
	fclose(f);
	if (size)
		*size = off;
	return 0;
}

/* A bare-metal ELF64 (RISC-V): its PT_LOAD segments at their physical addresses. */
static int load_elf(struct fs *m, const char *path, uint64_t *entry)
{
	FILE *f = fopen(path, "rb");
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	unsigned k;
	char *buf;

	if (!f || fread(&eh, sizeof(eh), 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_RISCV) {
		fprintf(stderr, "tiprof-fs: %s: not a riscv64 ELF\n", path);
		if (f)
			fclose(f);
		return -1;
	}
	for (k = 0; k < eh.e_phnum; k++) {
		if (fseek(f, (long)(eh.e_phoff + k * eh.e_phentsize), SEEK_SET) ||
		    fread(&ph, sizeof(ph), 1, f) != 1)
			goto bad;
		if (ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		buf = malloc(ph.p_filesz);
		if (!buf || fseek(f, (long)ph.p_offset, SEEK_SET) ||
		    fread(buf, 1, ph.p_filesz, f) != ph.p_filesz ||
		    iss_write_mem(m->iss, ph.p_paddr, buf, ph.p_filesz)) {
			free(buf);
			goto bad;
		}
		free(buf);
	}
	*entry = eh.e_entry;
	fclose(f);
	return 0;
bad:
	fprintf(stderr, "tiprof-fs: %s: cannot load its segments into RAM\n", path);
	fclose(f);
	return -1;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: tiprof-fs [--ram MIB] [--max-insns N] [--stop-pc ADDR] [--until TEXT]\n"
		"                 [--stats] [--quiet] (--elf PROG | --bios FW [--kernel IMAGE])\n"
		"                 [--dtb DTB] [--initrd FILE] [--unit [--unit-log FILE] [--unit-vcd FILE]]\n");
}

int main(int argc, char **argv)
{
	const char *elf = NULL, *bios = NULL, *kernel = NULL, *dtb = NULL, *until = NULL;
	const char *initrd = NULL, *unit_log = NULL, *unit_vcd = "tiprof-fs-unit.vcd";
	FILE *ulog = NULL;
	char uerr[512];
	int unit = 0, unit_failed = 0;
	uint64_t ram_mib = 128, max = 0, stop_pc = 0, entry = FS_RAM_BASE, dtb_pa = 0, n;
	int stats = 0, quiet = 0, k, r;
	struct timespec t0, t1;
	struct fs m;
	double sec;
	static const char *const why[] = { "", "test device / power-off", "error",
					   "stop pc reached", "UART text seen", "instruction limit",
					   "signal" };

	for (k = 1; k < argc; k++) {
		const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;

		if (!strcmp(a, "--stats")) { stats = 1; continue; }
		if (!strcmp(a, "--quiet")) { quiet = 1; continue; }
		if (!strcmp(a, "--unit")) { unit = 1; continue; }
		if (!v) { usage(); return 2; }
		k++;
		if (!strcmp(a, "--elf")) elf = v;
		else if (!strcmp(a, "--bios")) bios = v;
		else if (!strcmp(a, "--kernel")) kernel = v;
		else if (!strcmp(a, "--dtb")) dtb = v;
		else if (!strcmp(a, "--initrd")) initrd = v;
		else if (!strcmp(a, "--until")) until = v;
		else if (!strcmp(a, "--unit-log")) unit_log = v;
		else if (!strcmp(a, "--unit-vcd")) unit_vcd = v;
		else if (!strcmp(a, "--ram")) ram_mib = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--max-insns")) max = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--stop-pc")) stop_pc = strtoull(v, NULL, 0);
		else { usage(); return 2; }
	}
	if (!elf == !bios || ram_mib < 16 || ((unit_log || strcmp(unit_vcd, "tiprof-fs-unit.vcd")) && !unit)) {
		usage();
		return 2;
	}
	if (fs_init(&m, ram_mib << 20, quiet ? NULL : stdout)) {
		fprintf(stderr, "tiprof-fs: out of memory\n");
		return 2;
	}
	if ((elf && load_elf(&m, elf, &entry)) || (bios && load_file(&m, bios, FS_RAM_BASE, NULL)) ||
	    (kernel && load_file(&m, kernel, FS_RAM_BASE + 0x200000, NULL)) ||
	    (initrd && load_file(&m, initrd, FS_INITRD_PA, NULL)))
		return 2;
	if (dtb) {	/* near the top of RAM, 2 MiB aligned, as QEMU virt places it */
		dtb_pa = FS_RAM_BASE + (ram_mib << 20) - 0x200000;
		if (load_file(&m, dtb, dtb_pa, NULL))
			return 2;
	}
	if (unit) {
		struct fs_unit *u;

		if (unit_log && !(ulog = fopen(unit_log, "w"))) {
			fprintf(stderr, "tiprof-fs: --unit-log %s: %s\n", unit_log, strerror(errno));
			return 2;
		}
		u = fs_unit_open(unit_vcd, ulog, uerr, sizeof(uerr));
		if (!u) {
			fprintf(stderr, "tiprof-fs: --unit: %s\n", uerr);
			return 2;
		}
		fs_attach_unit(&m, u);
	}
	iss_set_pc(m.iss, entry);
	iss_set_xreg(m.iss, 10, 0);
	iss_set_xreg(m.iss, 11, dtb_pa);

	the_machine = &m;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = fs_run(&m, max, stop_pc, until);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fflush(stdout);
	n = iss_instret(m.iss);
	sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	if (r)
		fprintf(stderr, "tiprof-fs: error after %llu instructions at pc %#llx (%s mode): %s\n",
			(unsigned long long)n, (unsigned long long)iss_pc(m.iss),
			m.priv == FS_PRV_M ? "M" : m.priv == FS_PRV_S ? "S" : "U", m.err);
	if (stats || r)
		fprintf(stderr, "tiprof-fs: %s: %llu instructions, %llu traps, %llu interrupts, "
			"mtime %llu, %.3f s, %.1f MIPS, pc %#llx, %s mode\n",
			why[m.stop], (unsigned long long)n, (unsigned long long)m.traps,
			(unsigned long long)m.interrupts, (unsigned long long)fs_mtime(&m), sec,
			sec > 0 ? (double)n / sec / 1e6 : 0.0, (unsigned long long)iss_pc(m.iss),
			m.priv == FS_PRV_M ? "M" : m.priv == FS_PRV_S ? "S" : "U");
	if (stats)
		fprintf(stderr, "tiprof-fs: retired in M %llu, S %llu, U %llu\n",
			(unsigned long long)m.retired[FS_PRV_M], (unsigned long long)m.retired[FS_PRV_S],
			(unsigned long long)m.retired[FS_PRV_U]);
	if (m.unit)
		unit_failed = fs_unit_close(m.unit, stderr);
	if (ulog && fclose(ulog)) {
		fprintf(stderr, "tiprof-fs: --unit-log %s: %s\n", unit_log, strerror(errno));
		r = -1;
	}
	fs_free(&m);
	if (r || unit_failed)
		return 2;
	return m.stop == 1 ? m.exit_code : m.stop == 6 ? 4 : 3;
}
