/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-record.c - `tiprof record [OPTIONS] -- CMD ARGS`: profile a command with the
 * TIP unit through the tiprof_pmu perf PMU (docs/driver.md, docs/record.md).
 *
 * One sampling event per CPU of the PMU's cpumask (or of -C LIST) on the command,
 * inherited by every thread and child it creates (enabled on exec), each with its
 * perf ring buffer plus AUX area mmap'ed (as perf record does for SPE: an AUX
 * area serves one CPU at a time); the AUX records (SAMPLE, LOST) are read as
 * PERF_RECORD_AUX records announce them, turned into sample records and
 * written through the sample-file writer (temporary file + rename); each
 * PERF_RECORD_AUX carries the thread whose event wrote the region (sample_id_all,
 * TID), so the samples are also counted per thread and per CPU. Lost
 * samples: a LOST record inside an AUX region flagged COLLISION counts as
 * lost by the unit, otherwise (TRUNCATED) as lost on the software path.
 * The command's exit status is passed through.
 *
 * `-e profileme[:pair=1,window=N,unit=slots,evfilt=X,latfilt=X,timeout=N]` records with the
 * unit's ProfileMe subsystem instead (the same PMU with its `profileme` config bit): the AUX
 * stream holds PM_SAMPLE and PM_COUNTS records, which become the file's ProfileMe config,
 * sample and counts records (sample file 1.2).
 *
 * Built into build/bin/tiprof and into the riscv64 tiprof of the system test's guest
 * (sw/lbr/lbr.mk).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "elf_build_id.h"
#include "lib/kallsyms.h"
#include "lib/perf_aux.h"
#include "sample_file.h"
#include "tiprof/cmd.h"
#include "tiprof/sampling.h"

#define RING_PAGES 16		/* data pages of the perf ring (PERF_RECORD_AUX etc.) */
#define AUX_PAGES 256		/* default AUX area: 1 MiB with 4 KiB pages */
#define POLL_MS 100
#define MAX_CPUS 256		/* events (one per CPU) */
#define MAX_THREADS 512		/* per-thread counts kept */

int cmd_record(int argc, char **argv);

static const char *const prog = "tiprof record";

/* One CPU's event, its ring and AUX area. */
struct rec_buf {
	int cpu;
	int fd;				/* the perf event, -1 if not open */
	struct perf_event_mmap_page *pg;
	uint8_t *ring, *aux;
	uint64_t aux_done;		/* AUX stream consumed up to here */
	uint64_t samples;		/* samples (TIP or ProfileMe) decoded from it */
};

/* Samples of one thread (the TID of the PERF_RECORD_AUX that announced them). */
struct rec_thread {
	uint32_t tid;
	uint64_t samples;
};

/* State of one recording. */
struct rec_ctx {
	struct pa_pmu pmu;
	struct rec_buf *buf;		/* one per CPU */
	int nbuf;
	size_t ring_len, aux_len;
	uint64_t ring_size;		/* data pages' bytes */
	struct rec_thread thr[MAX_THREADS];
	int nthr;
	uint64_t thr_other;		/* samples of threads past MAX_THREADS */
	struct sf_writer wr;
	int writing;			/* wr is open */
	int write_err;			/* first writer error reported */
	uint64_t samples, lost_unit, lost_sw, bad_recs, ring_lost;
	uint64_t aux_full;		/* AUX regions flagged TRUNCATED: the area was full */
	uint64_t last_cycle;
	int pm;				/* a ProfileMe recording */
	uint64_t pm_samples, pm_pairs;	/* PM samples written, pairs among them */
	struct tiprof_pm_counts pm_total;	/* sum of the PM_COUNTS records + refusals */
};

/* What `-e` asked for: TIP (pm = 0) or ProfileMe with its settings. */
struct rec_event {
	int pm;
	int insts;	/* TIP's instruction trigger: the period counts committed instructions */
	uint64_t pair, unit, window, evfilt, latfilt, timeout;
};

/* Parse -e: "tip", "tip:insts" (or "insts"), "profileme", "profileme:k=v,k=v", or perf's
 * spelling "tiprof_pmu/profileme,k=v/", "tiprof_pmu/insts=1/". 0, or -1 after one line on
 * stderr. */
static int parse_event(const char *spec, struct rec_event *ev)
{
	char buf[256], *tok, *save = NULL, *eq;
	size_t n;

	memset(ev, 0, sizeof(*ev));
	if (strncmp(spec, "tiprof_pmu/", 11) == 0)
		spec += 11;
	n = strlen(spec);
	if (n >= sizeof(buf)) {
		fprintf(stderr, "%s: -e: event too long\n", prog);
		return -1;
	}
	memcpy(buf, spec, n + 1);
	if (n && buf[n - 1] == '/')
		buf[n - 1] = 0;
	for (tok = strtok_r(buf, ",:", &save); tok; tok = strtok_r(NULL, ",:", &save)) {
		static const struct {
			const char *key;
			size_t off;
			uint64_t max;
		} keys[] = {
			{ "pair", offsetof(struct rec_event, pair), 1 },
			{ "window", offsetof(struct rec_event, window), 256 },
			{ "evfilt", offsetof(struct rec_event, evfilt), 0xffffffffull },
			{ "latfilt", offsetof(struct rec_event, latfilt), 0xfffff },
			{ "timeout", offsetof(struct rec_event, timeout), 65535 },
		};
		char *end;
		uint64_t v;
		size_t i;

		if (strcmp(tok, "tip") == 0 && !ev->pm)
			continue;
		if ((strcmp(tok, "insts") == 0 || strcmp(tok, "insts=1") == 0) && !ev->pm) {
			ev->insts = 1;
			continue;
		}
		if (strcmp(tok, "insts=0") == 0 && !ev->pm) {
			ev->insts = 0;
			continue;
		}
		if (strcmp(tok, "profileme") == 0) {
			if (ev->insts) {
				fprintf(stderr, "%s: -e: insts is TIP's trigger, not a ProfileMe "
					"setting\n", prog);
				return -1;
			}
			ev->pm = 1;
			continue;
		}
		eq = strchr(tok, '=');
		if (!eq || !ev->pm) {
			fprintf(stderr, "%s: -e: unknown event or setting '%s' (tip[:insts], or "
				"profileme[:pair=0|1,window=1..256,unit=insts|slots,evfilt=N,"
				"latfilt=N,timeout=N])\n", prog, tok);
			return -1;
		}
		*eq++ = 0;
		if (strcmp(tok, "unit") == 0) {
			if (strcmp(eq, "insts") == 0 || strcmp(eq, "0") == 0) {
				ev->unit = 0;
			} else if (strcmp(eq, "slots") == 0 || strcmp(eq, "1") == 0) {
				ev->unit = 1;
			} else {
				fprintf(stderr, "%s: -e: unit must be insts or slots, not '%s'\n",
					prog, eq);
				return -1;
			}
			continue;
		}
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strcmp(tok, keys[i].key) == 0)
				break;
		errno = 0;
		v = i < sizeof(keys) / sizeof(keys[0]) ? strtoull(eq, &end, 0) : 0;
		if (i == sizeof(keys) / sizeof(keys[0]) || errno || end == eq || *end ||
		    v > keys[i].max || (strcmp(tok, "window") == 0 && v == 0) ||
		    (strcmp(tok, "timeout") == 0 && v == 0)) {
			fprintf(stderr, "%s: -e: bad ProfileMe setting '%s=%s' (pair 0..1, window "
				"1..256, evfilt 0..2^32-1, latfilt 0..2^20-1, timeout 1..65535)\n",
				prog, tok, eq);
			return -1;
		}
		*(uint64_t *)((char *)ev + keys[i].off) = v;
	}
	return 0;
}

/* Address counts for --check's `top=`: open addressing, 2^16 slots (the rest: overflow). */
#define TOP_SLOTS (1u << 16)
struct top_slot {
	uint64_t addr, n;
};

static void top_add(struct top_slot *t, uint64_t addr, uint64_t *overflow)
{
	uint32_t h = (uint32_t)((addr * 0x9e3779b97f4a7c15ull) >> 48), i;

	for (i = 0; i < TOP_SLOTS; i++, h = (h + 1) & (TOP_SLOTS - 1)) {
		if (t[h].n && t[h].addr != addr)
			continue;
		t[h].addr = addr;
		t[h].n++;
		return;
	}
	(*overflow)++;
}

/* `--check FILE`: read FILE back through the sample-file reader. */
static int record_check(const char *path)
{
	struct sf_reader rd;
	struct sf_record rec;
	uint64_t first = 0, last = 0, n = 0, pfirst = 0, plast = 0, pairs = 0, ea = 0;
	uint64_t overflow = 0, top_addr = 0, top_n = 0;
	struct top_slot *top = calloc(TOP_SLOTS, sizeof(*top));
	int ret = top ? sf_reader_open(&rd, path) : -1;
	uint32_t k;

	if (!top) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return TIPROF_EXIT_FAIL;
	}

	/* address of the oldest valid slot of the first and last samples */
	while (ret >= 0 && (ret = sf_reader_next_record(&rd, &rec)) > 0) {
		const struct tiprof_sample *s = &rec.sample;
		unsigned b = 0;

		if (rec.type == SF_REC_PM_SAMPLE) {
			uint64_t pc = rec.pm_sample.w[TIPROF_PM_REC_PC];

			if (rd.pm_samples == 1)
				pfirst = pc;
			plast = pc;
			pairs += tiprof_pm_field(&rec.pm_sample, TIPROF_PM_REC_SINFO, 0,
						 TIPROF_PM_REC_SINFO_PAIR_MASK,
						 TIPROF_PM_REC_SINFO_PAIR_SHIFT);
			ea += tiprof_pm_field(&rec.pm_sample, TIPROF_PM_REC_INFO, 0,
					      1ull << TIPROF_PM_EV_EA_VALID,
					      TIPROF_PM_EV_EA_VALID);
			continue;
		}
		if (rec.type != SF_REC_SAMPLE)
			continue;
		while (b < TIPROF_MAX_BANKS - 1 && !(s->valid >> b & 1))
			b++;
		if (!n++)
			first = s->addr[b];
		last = s->addr[b];
		top_add(top, s->addr[b], &overflow);
	}
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", prog, sf_reader_error(&rd));
		sf_reader_close(&rd);
		free(top);
		return TIPROF_EXIT_FAIL;
	}
	for (k = 0; k < TOP_SLOTS; k++)	/* the most sampled address (the lowest of a tie) */
		if (top[k].n > top_n || (top[k].n && top[k].n == top_n && top[k].addr < top_addr)) {
			top_n = top[k].n;
			top_addr = top[k].addr;
		}
	free(top);
	printf("%s: samples=%llu lost_unit=%llu lost_sw=%llu W=%u XLEN=%u period=%u mode=%u "
	       "rand_bits=%u source=%u addr=%#llx..%#llx top=%#llx:%llu priv=%#x\n", path,
	       (unsigned long long)rd.trailer.samples, (unsigned long long)rd.trailer.lost_unit,
	       (unsigned long long)rd.trailer.lost_sw, rd.hdr.w, rd.hdr.xlen, rd.hdr.period,
	       rd.hdr.mode, rd.hdr.rand_bits, rd.hdr.source, (unsigned long long)first,
	       (unsigned long long)last, (unsigned long long)top_addr, (unsigned long long)top_n,
	       rd.hdr.priv_filter);
	if (rd.has_pm_config) {
		const struct tiprof_pm_config *pc = &rd.pm_config;
		const struct tiprof_pm_counts *pn = &rd.pm_counts;

		printf("%s: pm_samples=%llu pairs=%llu ea=%llu counts=%d taken=%llu lost=%llu "
		       "filtered=%llu collided=%llu lost_sw=%llu F=%u tags=%u fifo=%u ctrl=%#x "
		       "period=%u window=%u timeout=%u evfilt=%#x latfilt=%#x pc=%#llx..%#llx\n",
		       path, (unsigned long long)rd.pm_samples, (unsigned long long)pairs,
		       (unsigned long long)ea, rd.has_pm_counts, (unsigned long long)pn->taken,
		       (unsigned long long)pn->lost, (unsigned long long)pn->filtered,
		       (unsigned long long)pn->collided, (unsigned long long)pn->lost_sw, pc->f,
		       pc->tags, pc->fifo_depth, pc->ctrl, pc->period, pc->pair, pc->timeout,
		       pc->evfilt, pc->latfilt, (unsigned long long)pfirst,
		       (unsigned long long)plast);
	}
	sf_reader_close(&rd);
	return TIPROF_EXIT_OK;
}

/* One AUX region [off, off + size) announced by a PERF_RECORD_AUX with flags. */
static void aux_region(struct rec_ctx *c, struct rec_buf *b, uint64_t off, uint64_t size,
		       uint64_t flags, uint32_t tid)
{
	uint64_t end = off + size, before = c->samples + c->pm_samples, got;
	struct pa_rec r;
	int n, t;

	if (off < b->aux_done)	/* already consumed (cannot happen: regions are in order) */
		off = b->aux_done;
	if (flags & PERF_AUX_FLAG_TRUNCATED)
		c->aux_full++;	/* the driver found no room; perf core then disables the event */
	while (off < end) {
		n = pa_aux_decode(b->aux, c->aux_len, off, end, &r);
		if (n <= 0) {
			c->bad_recs++;
			break;
		}
		off += (uint64_t)n;
		if (r.type == PA_REC_LOST) {
			if (flags & PERF_AUX_FLAG_COLLISION)
				c->lost_unit += r.lost;
			else
				c->lost_sw += r.lost;
			continue;
		}
		if (r.type == PA_REC_PM_COUNTS) {
			c->pm_total.taken += r.pm_counts.taken;
			c->pm_total.lost += r.pm_counts.lost;
			c->pm_total.filtered += r.pm_counts.filtered;
			c->pm_total.collided += r.pm_counts.collided;
			c->pm_total.lost_sw += r.pm_counts.lost_sw;
			continue;
		}
		if (!c->writing)
			continue;
		if (r.type == PA_REC_PM_SAMPLE) {
			n = c->pm ? sf_writer_pm_sample(&c->wr, &r.pm) : SF_EINVAL;
			if (n == SF_EINVAL) {
				c->pm_total.lost_sw++;	/* not a record the unit can produce */
			} else if (n < 0) {
				if (!c->write_err)
					fprintf(stderr, "%s: %s\n", prog, c->wr.msg);
				c->write_err = n;
			} else {
				c->pm_samples++;
				c->pm_pairs += tiprof_pm_field(&r.pm, TIPROF_PM_REC_SINFO, 0,
							       TIPROF_PM_REC_SINFO_PAIR_MASK,
							       TIPROF_PM_REC_SINFO_PAIR_SHIFT);
			}
			continue;
		}
		if (c->samples == 0 || r.sample.cycle > c->last_cycle)
			c->last_cycle = r.sample.cycle;
		n = sf_writer_sample(&c->wr, &r.sample);
		if (n == SF_EINVAL) {
			c->lost_sw++;	/* a sample the unit cannot produce: refused */
		} else if (n < 0) {
			if (!c->write_err)
				fprintf(stderr, "%s: %s\n", prog, c->wr.msg);
			c->write_err = n;
		} else {
			c->samples++;
		}
	}
	b->aux_done = end;
	__atomic_store_n(&b->pg->aux_tail, b->aux_done, __ATOMIC_RELEASE);
	got = c->samples + c->pm_samples - before;
	if (!got)
		return;
	b->samples += got;
	for (t = 0; t < c->nthr && c->thr[t].tid != tid; t++)
		;
	if (t == c->nthr && t < MAX_THREADS)
		c->thr[c->nthr++].tid = tid;
	if (t < MAX_THREADS)
		c->thr[t].samples += got;
	else
		c->thr_other += got;
}

/*
 * Read one CPU's data ring: PERF_RECORD_AUX announces AUX data (its sample_id: the
 * pid and tid of the thread whose event wrote it), PERF_RECORD_LOST lost ring records.
 */
static void drain_buf(struct rec_ctx *c, struct rec_buf *b)
{
	uint64_t head = __atomic_load_n(&b->pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = b->pg->data_tail;

	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		uint64_t body[4];	/* AUX: offset, size, flags, {pid, tid} */
		size_t i;

		for (i = 0; i < sizeof(h); i++)
			((uint8_t *)&h)[i] = b->ring[(tail + i) & (c->ring_size - 1)];
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		memset(body, 0, sizeof(body));
		for (i = 0; i < sizeof(body) && sizeof(h) + i < h.size; i++)
			((uint8_t *)body)[i] = b->ring[(tail + sizeof(h) + i) & (c->ring_size - 1)];
		if (h.type == PERF_RECORD_AUX)
			aux_region(c, b, body[0], body[1], body[2], (uint32_t)(body[3] >> 32));
		else if (h.type == PERF_RECORD_LOST)
			c->ring_lost += body[1];
		tail += h.size;
	}
	__atomic_store_n(&b->pg->data_tail, tail, __ATOMIC_RELEASE);
}

static void drain(struct rec_ctx *c)
{
	int i;

	for (i = 0; i < c->nbuf; i++)
		if (c->buf[i].pg)
			drain_buf(c, &c->buf[i]);
}

/*
 * Parse a CPU list ("0-3,6"; the sysfs cpumask format) into @set[MAX_CPUS]. 0, or -1
 * (a malformed list or a CPU >= MAX_CPUS).
 */
static int parse_cpus(const char *s, unsigned char *set)
{
	const char *p = s;
	char *end;
	unsigned long a, b;

	memset(set, 0, MAX_CPUS);
	while (*p && *p != '\n') {
		errno = 0;
		a = strtoul(p, &end, 10);
		if (end == p || errno)
			return -1;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtoul(p + 1, &end, 10);
			if (end == p + 1 || errno || b < a)
				return -1;
			p = end;
		}
		if (b >= MAX_CPUS)
			return -1;
		while (a <= b)
			set[a++] = 1;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
	}
	return 0;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct rec_thread *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* One line for a perf_event_open failure. */
static void open_error(int err, int want_kernel)
{
	char buf[32] = "";
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int paranoid = INT_MIN;

	if (f) {
		if (fgets(buf, sizeof(buf), f))
			paranoid = atoi(buf);
		fclose(f);
	}
	if (err == EACCES || err == EPERM) {
		if (paranoid > 2)
			fprintf(stderr, "%s: perf_event_open: %s: kernel.perf_event_paranoid is %d, "
				"which allows no perf events to unprivileged users: run as root or "
				"'sysctl kernel.perf_event_paranoid=2'\n", prog, strerror(err), paranoid);
		else if (paranoid >= 2 && want_kernel)
			fprintf(stderr, "%s: perf_event_open: %s: kernel.perf_event_paranoid is %d, "
				"which forbids kernel sampling to unprivileged users: use --user, run as "
				"root or 'sysctl kernel.perf_event_paranoid=1'\n", prog, strerror(err),
				paranoid);
		else
			fprintf(stderr, "%s: perf_event_open: %s (kernel.perf_event_paranoid is %d; "
				"M-mode sampling needs CAP_PERFMON)\n", prog, strerror(err), paranoid);
	} else if (err == EINVAL || err == EOPNOTSUPP || err == ENOENT) {
		fprintf(stderr, "%s: the tiprof PMU refused the event: %s (period must be "
			"1..2^32-1; random bits 0..31)\n", prog, strerror(err));
	} else if (err == EBUSY) {
		fprintf(stderr, "%s: perf_event_open: %s: the unit is used by another event\n",
			prog, strerror(err));
	} else {
		fprintf(stderr, "%s: perf_event_open: %s\n", prog, strerror(err));
	}
}

/* The program's GNU build-id into the header, so that a report of this file against a
 * rebuilt program is refused as stale. A program without one (a script) is named by its
 * path only. */
static void record_build_id(struct sf_header *h)
{
	int n = elf_build_id(h->elf_path, h->build_id, sizeof(h->build_id));

	h->build_id_len = n > 0 ? (uint8_t)n : 0;
}

/* The path of the program execvp() will run for @cmd, absolute if it can be
 * resolved (PATH search for a bare name), else @cmd as typed. */
static void program_path(const char *cmd, char *out, size_t n)
{
	char cand[PATH_MAX], *real;
	const char *path = getenv("PATH"), *p, *e;

	snprintf(out, n, "%s", cmd);
	if (strchr(cmd, '/')) {
		real = realpath(cmd, NULL);
		if (real)
			snprintf(out, n, "%s", real);
		free(real);
		return;
	}
	for (p = path ? path : "/usr/local/bin:/usr/bin:/bin"; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		if (snprintf(cand, sizeof(cand), "%.*s/%s", (int)(e - p), e > p ? p : ".", cmd) >=
		    (int)sizeof(cand) || access(cand, X_OK))
			continue;
		real = realpath(cand, NULL);
		snprintf(out, n, "%s", real ? real : cand);
		free(real);
		return;
	}
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static const struct opt_use record_uses[] = {
	{ OPT_OUTPUT, "the sample file (default tiprof.tps)" },
	{ OPT_PERIOD, "cycles between samples (default 100000)" },
	{ OPT_RANDOM_BITS, NULL },
	{ OPT_EVENT, "tip (default; tip:insts: -c counts committed instructions, each sample the "
	  "instruction reaching it), or profileme[:pair=0|1,window=1..256,unit=insts|slots,"
	  "evfilt=N,latfilt=N,timeout=N] (docs/record.md); -c counts fetch units then" },
	{ OPT_PERIODIC, NULL },
	{ OPT_USER, NULL },
	{ OPT_KERNEL, NULL },
	{ OPT_CPU, "record only while the command runs on these CPUs (default: every CPU of "
	  "the PMU's cpumask)" },
	{ OPT_AUX_PAGES, NULL },
	{ OPT_CHECK, NULL },
	{ OPT_END, NULL }
};
const struct opt_set opt_set_record = { "record", record_uses, "record" };

/* Contract in tiprof.h: `tiprof record`. */
int cmd_record(int argc, char **argv)
{
	const char *out = "tiprof.tps";
	uint64_t period = 100000, rand_bits = 8, aux_pages = AUX_PAGES, cfg[3] = { 0, 0, 0 };
	int user = 1, kernel = 0, go[2], ep[2], i, status = 0, exec_err = 0, cmd_done = 0;
	int rand_set = 0, priv_set = 0, o, k, nopen = 0;
	const char *cpu_list = NULL;
	unsigned char want_cpu[MAX_CPUS], pmu_cpu[MAX_CPUS];
	struct rec_buf bufs[MAX_CPUS];
	struct rec_event ev = { 0 };
	struct tiprof_pm_config pmc;
	struct opt_parser p;
	struct perf_event_attr attr;
	struct rec_ctx c;
	struct sf_header h;
	struct sf_trailer t;
	char err[320];
	size_t pgsz = (size_t)sysconf(_SC_PAGESIZE);
	pid_t pid;
	int ret = TIPROF_EXIT_FAIL;

	opt_init(&p, &opt_set_record, argc, argv, 0);
	while ((o = opt_next(&p)) != OPT_END) {
		switch (o) {
		case OPT_HELP_DONE:
			return TIPROF_EXIT_OK;
		case OPT_ERROR:
			return TIPROF_EXIT_USAGE;
		case OPT_CHECK:
			if (p.i != argc)
				return opt_usage_error(&opt_set_record, "--check takes exactly one FILE");
			return record_check(p.arg);
		case OPT_OUTPUT:
			out = p.arg;
			break;
		case OPT_EVENT:
			if (parse_event(p.arg, &ev))
				return TIPROF_EXIT_USAGE;
			break;
		case OPT_PERIOD:
			if (opt_u64(&p, 1, 0xffffffffull, &period))
				return TIPROF_EXIT_USAGE;
			break;
		case OPT_RANDOM_BITS:
			if (opt_u64(&p, 0, 31, &rand_bits))
				return TIPROF_EXIT_USAGE;
			rand_set = 1;
			break;
		case OPT_PERIODIC:
			rand_bits = 0;
			rand_set = 1;
			break;
		case OPT_AUX_PAGES:
			if (opt_u64(&p, 1, 1u << 16, &aux_pages))
				return TIPROF_EXIT_USAGE;
			if (aux_pages & (aux_pages - 1)) {
				fprintf(stderr, "%s: %s: bad value '%s' (a power of two, 1..65536)\n",
					prog, p.spelled, p.arg);
				return TIPROF_EXIT_USAGE;
			}
			break;
		case OPT_USER:	/* --user and --kernel add up: both = U and S */
			user = 1;
			kernel = priv_set ? kernel : 0;
			priv_set = 1;
			break;
		case OPT_KERNEL:
			kernel = 1;
			user = priv_set ? user : 0;
			priv_set = 1;
			break;
		case OPT_CPU:
			if (parse_cpus(p.arg, want_cpu)) {
				fprintf(stderr, "%s: %s: bad CPU list '%s' (e.g. 0-3,6; CPUs below %d)\n",
					prog, p.spelled, p.arg, MAX_CPUS);
				return TIPROF_EXIT_USAGE;
			}
			cpu_list = p.arg;
			break;
		}
	}
	i = p.i;
	if (i >= argc)
		return opt_usage_error(&opt_set_record, "no command given (tiprof help record)");
	if (!rand_set)	/* every phase of the interval equally likely (tiprof/sampling.h) */
		rand_bits = tiprof_random_bits((uint32_t)period);

	memset(&c, 0, sizeof(c));
	memset(bufs, 0, sizeof(bufs));
	c.buf = bufs;
	switch (pa_pmu_find(&c.pmu, err, sizeof(err))) {
	case 0:
		break;
	case -1:
		fprintf(stderr, "%s: no tiprof PMU: load tiprof_pmu.ko on a machine with the unit "
			"(see docs/driver.md)\n", prog);
		return TIPROF_EXIT_FAIL;
	default:
		fprintf(stderr, "%s: %s\n", prog, err);
		return TIPROF_EXIT_FAIL;
	}
	/* the CPUs with a unit (cpumask), less those -C leaves out */
	{
		char path[300], line[1024] = "";
		FILE *f;

		snprintf(path, sizeof(path), "%s/cpumask", c.pmu.dir);
		f = fopen(path, "r");
		if (!f || !fgets(line, sizeof(line), f) || parse_cpus(line, pmu_cpu)) {
			fprintf(stderr, "%s: cannot read %s (or it is not a CPU list)\n", prog, path);
			if (f)
				fclose(f);
			return TIPROF_EXIT_FAIL;
		}
		fclose(f);
		for (k = 0; k < MAX_CPUS; k++) {
			if (!pmu_cpu[k] || (cpu_list && !want_cpu[k]))
				continue;
			bufs[c.nbuf].cpu = k;
			bufs[c.nbuf++].fd = -1;
		}
		if (!c.nbuf) {
			fprintf(stderr, "%s: -C %s: none of these CPUs has a unit (the PMU's cpumask is "
				"%.*s)\n", prog, cpu_list ? cpu_list : "", (int)strcspn(line, "\n"), line);
			return TIPROF_EXIT_USAGE;
		}
	}
	if (pa_pmu_set(&c.pmu, cfg, "mode", rand_bits ? TIPROF_MODE_RANDOM_INTERVAL :
		       TIPROF_MODE_PERIODIC) ||
	    pa_pmu_set(&c.pmu, cfg, "rand_bits", rand_bits)) {
		fprintf(stderr, "%s: %s/format has no usable mode/rand_bits fields\n", prog,
			c.pmu.dir);
		return TIPROF_EXIT_FAIL;
	}
	c.pm = ev.pm;
	if (ev.insts && pa_pmu_set(&c.pmu, cfg, "insts", 1)) {
		fprintf(stderr, "%s: -e tip:insts: %s/format has no 'insts' field (a driver without "
			"the instruction trigger)\n", prog, c.pmu.dir);
		return TIPROF_EXIT_FAIL;
	}
	if (ev.insts && period < c.pmu.w) {
		fprintf(stderr, "%s: -e tip:insts: the period counts committed instructions and must "
			"be at least W = %u\n", prog, c.pmu.w);
		return TIPROF_EXIT_USAGE;
	}
	if (ev.pm) {
		if (!c.pmu.pm_f) {
			fprintf(stderr, "%s: the tiprof PMU offers no ProfileMe (%s/caps/pm_fetch_width "
				"missing or 0: a unit built without it, or an older driver)\n", prog,
				c.pmu.dir);
			return TIPROF_EXIT_FAIL;
		}
		if (ev.pair && c.pmu.pm_tags < 2) {
			fprintf(stderr, "%s: -e profileme:pair=1: the unit has one tag id (no paired "
				"sampling)\n", prog);
			return TIPROF_EXIT_FAIL;
		}
		if (pa_pmu_set(&c.pmu, cfg, "profileme", 1) ||
		    pa_pmu_set(&c.pmu, cfg, "pair", ev.pair) ||
		    pa_pmu_set(&c.pmu, cfg, "unit", ev.unit) ||
		    pa_pmu_set(&c.pmu, cfg, "window", ev.window) ||
		    pa_pmu_set(&c.pmu, cfg, "evfilt", ev.evfilt) ||
		    pa_pmu_set(&c.pmu, cfg, "latfilt", ev.latfilt) ||
		    pa_pmu_set(&c.pmu, cfg, "timeout", ev.timeout)) {
			fprintf(stderr, "%s: %s/format lacks a ProfileMe field (profileme, pair, unit, "
				"window, evfilt, latfilt, timeout)\n", prog, c.pmu.dir);
			return TIPROF_EXIT_FAIL;
		}
		/* the registers as the driver programs them (its defaults for 0) */
		memset(&pmc, 0, sizeof(pmc));
		pmc.f = (uint8_t)c.pmu.pm_f;
		pmc.tags = (uint8_t)c.pmu.pm_tags;
		pmc.fifo_depth = (uint16_t)c.pmu.pm_fifo_depth;
		pmc.ctrl = TIPROF_PM_CTRL_EN_MASK | TIPROF_PM_CTRL_IRQ_EN_MASK |
			   (rand_bits ? TIPROF_MODE_RANDOM_INTERVAL : TIPROF_MODE_PERIODIC)
			   << TIPROF_PM_CTRL_MODE_SHIFT |
			   (uint32_t)((user ? 1u << TIPROF_PRIV_U : 0) |
				      (kernel ? 1u << TIPROF_PRIV_S : 0)) << TIPROF_PM_CTRL_PRIV_SHIFT |
			   (uint32_t)rand_bits << TIPROF_PM_CTRL_RAND_BITS_SHIFT |
			   (uint32_t)ev.unit << TIPROF_PM_CTRL_UNIT_SHIFT |
			   (uint32_t)ev.pair << TIPROF_PM_CTRL_PAIR_SHIFT;
		pmc.period = (uint32_t)period;
		pmc.pair = ev.window ? (uint32_t)ev.window : TIPROF_PM_PAIR_RESET;
		pmc.timeout = ev.timeout ? (uint32_t)ev.timeout : TIPROF_PM_TIMEOUT_RESET;
		pmc.evfilt = (uint32_t)ev.evfilt;
		pmc.latfilt = (uint32_t)ev.latfilt;
	}

	sf_header_init(&h);
	h.w = (uint8_t)c.pmu.w;
	h.xlen = (uint8_t)c.pmu.xlen;
	h.fifo_depth = (uint16_t)c.pmu.fifo_depth;
	h.unit_id = pa_pmu_unit_id(&c.pmu);
	h.period = (uint32_t)period;
	h.mode = rand_bits ? TIPROF_MODE_RANDOM_INTERVAL : TIPROF_MODE_PERIODIC;
	h.rand_bits = (uint8_t)rand_bits;
	h.priv_filter = (uint8_t)((user ? 1u << TIPROF_PRIV_U : 0) |
				  (kernel ? 1u << TIPROF_PRIV_S : 0));
	h.source = SF_SOURCE_BOARD;
	program_path(argv[i], h.elf_path, sizeof(h.elf_path));
	h.elf_path_len = (uint16_t)strlen(h.elf_path);
	record_build_id(&h);

	if (pipe2(go, O_CLOEXEC) || pipe2(ep, O_CLOEXEC)) {
		fprintf(stderr, "%s: pipe: %s\n", prog, strerror(errno));
		return TIPROF_EXIT_FAIL;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "%s: fork: %s\n", prog, strerror(errno));
		return TIPROF_EXIT_FAIL;
	}
	if (pid == 0) {
		char b;
		int e;

		close(go[1]);
		close(ep[0]);
		if (read(go[0], &b, 1) != 1)
			_exit(127);	/* the recorder gave up */
		execvp(argv[i], argv + i);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ep[1]);

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = c.pmu.type;
	attr.config = cfg[0];
	attr.config1 = cfg[1];
	attr.config2 = cfg[2];
	attr.sample_period = period;
	attr.disabled = 1;
	attr.enable_on_exec = 1;
	attr.inherit = 1;		/* every thread and child of the command */
	attr.sample_id_all = 1;		/* PERF_RECORD_AUX names the thread that wrote it */
	attr.sample_type = PERF_SAMPLE_TID;
	attr.exclude_user = !user;
	attr.exclude_kernel = !kernel;
	attr.exclude_hv = 1;
	/* wake the poll loop when a quarter of the AUX area is filled */
	attr.aux_watermark = (uint32_t)(aux_pages * pgsz / 4);
	c.ring_size = RING_PAGES * pgsz;
	c.ring_len = c.ring_size + pgsz;
	c.aux_len = aux_pages * pgsz;
	for (k = 0; k < c.nbuf; k++) {
		struct rec_buf *b = &bufs[k];

		b->fd = (int)syscall(SYS_perf_event_open, &attr, pid, b->cpu, -1,
				     PERF_FLAG_FD_CLOEXEC);
		if (b->fd < 0 && errno == ENODEV && !cpu_list)
			continue;	/* an offline CPU of the cpumask */
		if (b->fd < 0) {
			open_error(errno, kernel);
			goto out_child;
		}
		nopen++;
		b->pg = mmap(NULL, c.ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, 0);
		if (b->pg == MAP_FAILED) {
			b->pg = NULL;
			fprintf(stderr, "%s: mmap of the perf ring: %s\n", prog, strerror(errno));
			goto out_child;
		}
		b->ring = (uint8_t *)b->pg + pgsz;
		b->pg->aux_offset = c.ring_len;
		b->pg->aux_size = c.aux_len;
		b->aux = mmap(NULL, c.aux_len, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd,
			      (off_t)c.ring_len);
		if (b->aux == MAP_FAILED) {
			b->aux = NULL;
			fprintf(stderr, "%s: mmap of the AUX area (%zu KiB, CPU %d): %s "
				"(perf_event_mlock_kb?)\n", prog, c.aux_len / 1024, b->cpu,
				strerror(errno));
			goto out_child;
		}
	}
	if (!nopen) {
		fprintf(stderr, "%s: perf_event_open: no CPU of the PMU's cpumask is online\n", prog);
		goto out_child;
	}
	h.start_time_ns = realtime_ns();
	if (sf_writer_open(&c.wr, out, &h)) {
		fprintf(stderr, "%s: %s\n", prog, c.wr.msg);
		goto out_child;
	}
	c.writing = 1;
	if (c.pm && sf_writer_pm_config(&c.wr, &pmc)) {
		fprintf(stderr, "%s: %s\n", prog, c.wr.msg);
		goto out_child;
	}

	/* let the command exec: the event starts there */
	if (write(go[1], "g", 1) != 1) {
		fprintf(stderr, "%s: cannot start the command: %s\n", prog, strerror(errno));
		goto out_child;
	}
	close(go[1]);
	go[1] = -1;
	if (read(ep[0], &exec_err, sizeof(exec_err)) == (ssize_t)sizeof(exec_err)) {
		fprintf(stderr, "%s: cannot run '%s': %s\n", prog, argv[i], strerror(exec_err));
		waitpid(pid, &status, 0);
		sf_writer_abort(&c.wr);
		c.writing = 0;
		ret = 127;
		goto out;
	}
	close(ep[0]);
	ep[0] = -1;

	while (!cmd_done) {
		struct pollfd pfd[MAX_CPUS];
		nfds_t np = 0;
		pid_t w;

		for (k = 0; k < c.nbuf; k++)
			if (bufs[k].fd >= 0) {
				pfd[np].fd = bufs[k].fd;
				pfd[np++].events = POLLIN;
			}
		if (poll(pfd, np, POLL_MS) < 0 && errno != EINTR) {
			fprintf(stderr, "%s: poll: %s\n", prog, strerror(errno));
			break;
		}
		drain(&c);
		/*
		 * Resume sampling if a full AUX area made perf core disable the event: a
		 * TRUNCATED region (samples the driver had no room for, counted in lost_sw)
		 * or an AUX area with no room at all makes perf core disable it. The command
		 * has exec'ed, so enable_on_exec has fired: a no-op while the event is on.
		 */
		for (k = 0; k < c.nbuf; k++)
			if (bufs[k].fd >= 0)
				ioctl(bufs[k].fd, PERF_EVENT_IOC_ENABLE, 0);
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			cmd_done = 1;
		else if (w < 0 && errno != EINTR)
			break;
	}
	if (!cmd_done)
		waitpid(pid, &status, 0);
	drain(&c);	/* what the event's stop at exit drained */

	memset(&t, 0, sizeof(t));
	t.lost_unit = c.lost_unit;
	t.lost_sw = c.lost_sw;
	t.end_cycle = c.last_cycle;
	if (c.pm && !c.write_err && sf_writer_pm_counts(&c.wr, &c.pm_total)) {
		fprintf(stderr, "%s: %s\n", prog, c.wr.msg);
		c.write_err = SF_EIO;
	}
	if (c.write_err) {
		sf_writer_abort(&c.wr);
	} else if (sf_writer_close(&c.wr, &t)) {
		fprintf(stderr, "%s: %s\n", prog, c.wr.msg);
		c.write_err = SF_EIO;
	}
	c.writing = 0;
	if (c.bad_recs)
		fprintf(stderr, "%s: warning: %llu malformed AUX regions skipped\n", prog,
			(unsigned long long)c.bad_recs);
	if (c.ring_lost)
		fprintf(stderr, "%s: warning: the perf ring lost %llu records (AUX regions may "
			"be missing)\n", prog, (unsigned long long)c.ring_lost);
	if (c.aux_full)
		fprintf(stderr, "%s: warning: the AUX area filled %llu times; sampling paused each "
			"time until the recorder caught up (use a larger --aux-pages)\n", prog,
			(unsigned long long)c.aux_full);
	if (!c.write_err && c.pm)
		fprintf(stderr, "%s: %llu ProfileMe samples (%llu pairs) written to %s (unit: "
			"taken %llu, lost %llu, filtered %llu, collided %llu; lost on the software "
			"path %llu)\n", prog, (unsigned long long)c.pm_samples,
			(unsigned long long)c.pm_pairs, out, (unsigned long long)c.pm_total.taken,
			(unsigned long long)c.pm_total.lost, (unsigned long long)c.pm_total.filtered,
			(unsigned long long)c.pm_total.collided,
			(unsigned long long)c.pm_total.lost_sw);
	else if (!c.write_err)
		fprintf(stderr, "%s: %llu samples written to %s (lost: %llu by the unit, %llu on "
			"the software path)\n", prog, (unsigned long long)c.samples, out,
			(unsigned long long)c.lost_unit, (unsigned long long)c.lost_sw);
	if (!c.write_err) {
		/* where the samples came from: per thread (TID) and per CPU */
		qsort(c.thr, (size_t)c.nthr, sizeof(c.thr[0]), cmp_thread);
		fprintf(stderr, "%s: %d threads:", prog, c.nthr + (c.thr_other ? 1 : 0));
		for (k = 0; k < c.nthr; k++)
			fprintf(stderr, " %u:%llu", c.thr[k].tid,
				(unsigned long long)c.thr[k].samples);
		if (c.thr_other)
			fprintf(stderr, " other:%llu", (unsigned long long)c.thr_other);
		fprintf(stderr, "; CPUs:");
		for (k = 0; k < c.nbuf; k++)
			if (bufs[k].fd >= 0)
				fprintf(stderr, " %d:%llu", bufs[k].cpu,
					(unsigned long long)bufs[k].samples);
		fprintf(stderr, "\n");
	}
	if (!c.write_err) {	/* kernel symbols beside the file for report (OUT.kallsyms) */
		char kpath[4096], kmsg[512];

		snprintf(kpath, sizeof(kpath), "%s.kallsyms", out);
		unlink(kpath);	/* never a stale copy from an earlier recording */
		if (kernel && kallsyms_save("/proc/kallsyms", kpath, kmsg, sizeof(kmsg)))
			fprintf(stderr, "%s: %s: kernel samples stay unattributed (no %s)\n", prog,
				kmsg, kpath);
	}
	if (WIFEXITED(status))
		ret = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		ret = 128 + WTERMSIG(status);
	if (c.write_err && ret == 0)
		ret = TIPROF_EXIT_FAIL;
	goto out;

out_child:
	/* the child waits on go[]: closing it makes it exit without running the command */
	if (go[1] >= 0)
		close(go[1]);
	go[1] = -1;
	waitpid(pid, &status, 0);
	if (c.writing)
		sf_writer_abort(&c.wr);
	c.writing = 0;
	ret = TIPROF_EXIT_FAIL;
out:
	if (go[1] >= 0)
		close(go[1]);
	if (ep[0] >= 0)
		close(ep[0]);
	for (k = 0; k < c.nbuf; k++) {
		if (bufs[k].aux)
			munmap(bufs[k].aux, c.aux_len);
		if (bufs[k].pg)
			munmap(bufs[k].pg, c.ring_len);
		if (bufs[k].fd >= 0)
			close(bufs[k].fd);
	}
	return ret;
}

