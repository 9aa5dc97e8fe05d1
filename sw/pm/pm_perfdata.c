/* SPDX-License-Identifier: Apache-2.0 */
/* pm_perfdata.c - ProfileMe samples to perf.data (contract in pm_perfdata.h, layout and
 * choices in docs/pm-perf.md). The file is built in memory with sw/lib/perfdata_writer.h
 * and written in one go. */
#include "pm_perfdata.h"

#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/perfdata_writer.h"

#define SAMPLE_TYPE (PDW_SAMPLE_IP | PDW_SAMPLE_TID | PDW_SAMPLE_TIME | PDW_SAMPLE_ADDR | \
		     PDW_SAMPLE_PERIOD | PDW_SAMPLE_WEIGHT_STRUCT | PDW_SAMPLE_DATA_SRC)
#define SAMPLE_SIZE (8 + 7 * 8)		/* header + the 7 fields above */
#define ATTR_PRECISE_IP (3ull << 15)	/* precise_ip = 3: the exact instruction */
#define EVENT_NAME "tiprof-profileme"
#define PAGE 4096u

/* perf_mem_data_src fields (include/uapi/linux/perf_event.h). */
#define MEM_OP_NA 0x01ull
#define MEM_OP_LOAD 0x02ull
#define MEM_OP_STORE 0x04ull
#define MEM_OP_SHIFT 0
#define MEM_LVL_NA 0x01ull
#define MEM_LVL_HIT 0x02ull
#define MEM_LVL_MISS 0x04ull
#define MEM_LVL_L1 0x08ull
#define MEM_LVL_SHIFT 5
#define MEM_SNOOP_NA 0x01ull
#define MEM_SNOOP_SHIFT 19
#define MEM_LOCK_NA 0x01ull
#define MEM_LOCK_SHIFT 24
#define MEM_TLB_NA 0x01ull
#define MEM_TLB_HIT 0x02ull
#define MEM_TLB_MISS 0x04ull
#define MEM_TLB_L1 0x08ull
#define MEM_TLB_SHIFT 26
#define MEM_BLK_NA 0x01ull
#define MEM_BLK_SHIFT 40

/* One executable mapping of the output. */
struct pm_map {
	uint64_t start, len, pgoff;
	uint32_t prot;		/* PROT_READ 1 | PROT_WRITE 2 | PROT_EXEC 4 */
	char path[PATH_MAX];
	const uint8_t *bid;	/* build-id (not owned) */
	size_t bidlen;
};

/* A profile to emit: sample index, profile, time. */
struct pm_item {
	uint64_t time;
	size_t i;
	unsigned p;
};

/* Field of profile word `word` of profile p. */
static uint64_t pf(const struct tiprof_pm_sample *s, unsigned word, unsigned p, uint64_t mask,
		   unsigned shift)
{
	return tiprof_pm_field(s, word, p, mask, shift);
}

/* Event bits of profile p. */
static unsigned pev(const struct tiprof_pm_sample *s, unsigned p)
{
	return (unsigned)pf(s, TIPROF_PM_REC_INFO, p, TIPROF_PM_REC_INFO_EV_MASK,
			    TIPROF_PM_REC_INFO_EV_SHIFT);
}

/* Contract in pm_perfdata.h: var1 = memory latency (complete - mem) of a load or store
 * whose mem and complete stamps were seen, else total (end stamp, relative to its own
 * fetch); var2 = total; var3 = 0. */
uint64_t pm_perf_weight(const struct tiprof_pm_sample *s, unsigned p)
{
	unsigned ev = pev(s, p);
	unsigned seen = (unsigned)pf(s, TIPROF_PM_REC_STAMP_B, p, TIPROF_PM_REC_STAMP_B_SEEN_MASK,
				     TIPROF_PM_REC_STAMP_B_SEEN_SHIFT);
	uint64_t end = pf(s, TIPROF_PM_REC_STAMP_B, p, TIPROF_PM_REC_STAMP_B_END_MASK,
			  TIPROF_PM_REC_STAMP_B_END_SHIFT);
	uint64_t mem = pf(s, TIPROF_PM_REC_STAMP_B, p, TIPROF_PM_REC_STAMP_B_MEM_MASK,
			  TIPROF_PM_REC_STAMP_B_MEM_SHIFT);
	uint64_t cpl = pf(s, TIPROF_PM_REC_STAMP_A, p, TIPROF_PM_REC_STAMP_A_COMPLETE_MASK,
			  TIPROF_PM_REC_STAMP_A_COMPLETE_SHIFT);
	uint64_t w = end;

	/* seen bits: map 0, ready 1, issue 2, mem 3, complete 4 */
	if ((ev & (1u << TIPROF_PM_EV_LOAD | 1u << TIPROF_PM_EV_STORE)) &&
	    (seen & 0x18u) == 0x18u)
		w = cpl > mem ? cpl - mem : 0;
	return w | end << 32;
}

/* Contract in pm_perfdata.h. The level is in the mem_lvl field only (L1 with HIT or
 * MISS), mem_lvl_num left 0: perf 6.1 prints both fields ("L1 or L1 miss") when both are
 * set, newer perfs read mem_lvl when mem_lvl_num is 0; both print "L1 hit" / "L1 miss". */
uint64_t pm_perf_data_src(const struct tiprof_pm_sample *s, unsigned p)
{
	unsigned ev = pev(s, p);
	uint64_t op;

	if (ev & (1u << TIPROF_PM_EV_LOAD))
		op = MEM_OP_LOAD;
	else if (ev & (1u << TIPROF_PM_EV_STORE))
		op = MEM_OP_STORE;
	else
		return MEM_OP_NA << MEM_OP_SHIFT | MEM_LVL_NA << MEM_LVL_SHIFT |
		       MEM_SNOOP_NA << MEM_SNOOP_SHIFT | MEM_LOCK_NA << MEM_LOCK_SHIFT |
		       MEM_TLB_NA << MEM_TLB_SHIFT | MEM_BLK_NA << MEM_BLK_SHIFT;
	return op << MEM_OP_SHIFT |
	       (MEM_LVL_L1 | (ev & (1u << TIPROF_PM_EV_DC_MISS) ? MEM_LVL_MISS : MEM_LVL_HIT))
		       << MEM_LVL_SHIFT |
	       MEM_SNOOP_NA << MEM_SNOOP_SHIFT | MEM_LOCK_NA << MEM_LOCK_SHIFT |
	       (MEM_TLB_L1 | (ev & (1u << TIPROF_PM_EV_DTLB_MISS) ? MEM_TLB_MISS : MEM_TLB_HIT))
		       << MEM_TLB_SHIFT |
	       MEM_BLK_NA << MEM_BLK_SHIFT;
}

/* Append a mapping to *maps (grown); 0 or -1 (out of memory). */
static int add_map(struct pm_map **maps, size_t *n, uint64_t start, uint64_t end, uint64_t pgoff,
		   uint32_t prot, const char *path, const uint8_t *bid, size_t bidlen)
{
	struct pm_map *nm = realloc(*maps, (*n + 1) * sizeof(**maps));
	uint64_t d = start % PAGE;

	if (!nm)
		return -1;
	*maps = nm;
	if (pgoff % PAGE != d)	/* offsets not congruent to addresses: leave unaligned */
		d = 0;
	nm[*n].start = start - d;
	nm[*n].len = end - start + d;
	nm[*n].pgoff = pgoff - d;
	nm[*n].prot = prot;
	if (!realpath(path, nm[*n].path))
		snprintf(nm[*n].path, sizeof(nm[*n].path), "%s", path);
	nm[*n].bid = bid;
	nm[*n].bidlen = bidlen;
	(*n)++;
	return 0;
}

/* The PT_LOAD segments of the ELF at path, loaded with bias, as mappings: the executable
 * ones clipped to [lo, hi) when hi > lo, the data ones (for perf mem's data symbols)
 * whole. Returns the number of executable mappings added, -1 if the ELF cannot be read,
 * -2 out of memory. */
static int elf_maps(struct pm_map **maps, size_t *n, const char *path, uint64_t bias,
		    uint64_t lo, uint64_t hi, int data, const uint8_t *bid, size_t bidlen)
{
	int fd = open(path, O_RDONLY), added = 0;
	size_t np = 0;
	Elf *e;

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getphdrnum(e, &np)) {
		added = -1;
		np = 0;
	}
	for (size_t k = 0; k < np && added >= 0; k++) {
		GElf_Phdr ph;
		uint64_t s, t;

		uint32_t prot;

		if (!gelf_getphdr(e, (int)k, &ph) || ph.p_type != PT_LOAD ||
		    (!data && !(ph.p_flags & PF_X)))
			continue;
		prot = (ph.p_flags & PF_R ? 1u : 0) | (ph.p_flags & PF_W ? 2u : 0) |
		       (ph.p_flags & PF_X ? 4u : 0);
		s = ph.p_vaddr + bias;
		t = s + ph.p_memsz;
		if (hi > lo && (ph.p_flags & PF_X)) {
			s = s > lo ? s : lo;
			t = t < hi ? t : hi;
		}
		if (s >= t)
			continue;
		if (add_map(maps, n, s, t, ph.p_offset + (s - bias - ph.p_vaddr), prot, path, bid,
			    bidlen))
			added = -2;
		else if (ph.p_flags & PF_X)
			added++;
	}
	if (e)
		elf_end(e);
	close(fd);
	return added;
}

/* The mappings of the recording: each object record's range, or the header's ELF. */
static int build_maps(const struct pm_perf_input *in, struct pm_map **maps, size_t *n,
		      char *err, size_t errlen)
{
	const struct sf_header *h = in->hdr;
	int r;

	if (!in->nobjs) {
		r = elf_maps(maps, n, h->elf_path, 0, 0, 0, 1, h->build_id, h->build_id_len);
		if (r == -1 || r == 0)
			snprintf(err, errlen, "%s: cannot read its executable segments (the "
				 "sample file's program)", h->elf_path_len ? h->elf_path : "(no ELF)");
		else if (r < 0)
			snprintf(err, errlen, "out of memory");
		return r > 0 ? 0 : -1;
	}
	for (size_t i = 0; i < in->nobjs; i++) {
		const struct sf_object *o = &in->objs[i];
		int first = 1;	/* the file's data segments once, with its first record */

		for (size_t j = 0; j < i; j++)
			first &= strcmp(in->objs[j].path, o->path) != 0 || in->objs[j].bias != o->bias;
		r = elf_maps(maps, n, o->path, o->bias, o->start, o->end, first, o->build_id,
			     o->build_id_len);
		/* an object this machine does not have: its range, offset = link address */
		if (r <= 0 && r != -2)
			r = add_map(maps, n, o->start, o->end, o->start - o->bias, 1 | 4, o->path,
				    o->build_id, o->build_id_len);
		if (r < 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* A sample cycle as perf time (ns): through the header's clock when it is known, else
 * one cycle = 1 ns; never before the side-band records at time 0. */
static uint64_t cycle_time(const struct sf_header *h, uint64_t cycle)
{
	if (!h->clock_hz)
		return cycle;
	if (cycle < h->start_cycle)
		return 0;
	return (uint64_t)((unsigned __int128)(cycle - h->start_cycle) * 1000000000u / h->clock_hz);
}

static int cmp_item(const void *a, const void *b)
{
	const struct pm_item *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->i != y->i)
		return x->i < y->i ? -1 : 1;
	return (int)x->p - (int)y->p;
}

/* The tagged profiles of all samples in time order (the profile's own fetch: the sample
 * cycle, plus PAIR_CYCLES for a pair's second). */
static struct pm_item *collect(const struct pm_perf_input *in, size_t *nit)
{
	struct pm_item *it = malloc((2 * in->n + 1) * sizeof(*it));
	size_t k = 0;

	if (!it)
		return NULL;
	for (size_t i = 0; i < in->n; i++) {
		const struct tiprof_pm_sample *s = &in->s[i];
		int pair = (s->w[TIPROF_PM_REC_SINFO] & TIPROF_PM_REC_SINFO_PAIR_MASK) != 0;

		for (unsigned p = 0; p < (pair ? 2u : 1u); p++) {
			uint64_t f = p ? tiprof_pm_field(s, TIPROF_PM_REC_SINFO, 0,
							 TIPROF_PM_REC_SINFO_PAIR_CYCLES_MASK,
							 TIPROF_PM_REC_SINFO_PAIR_CYCLES_SHIFT) : 0;

			if (!pf(s, TIPROF_PM_REC_INFO, p, TIPROF_PM_REC_INFO_TAGGED_MASK,
				TIPROF_PM_REC_INFO_TAGGED_SHIFT))
				continue;
			it[k].time = cycle_time(in->hdr, s->w[TIPROF_PM_REC_CYCLE] + f);
			it[k].i = i;
			it[k].p = p;
			k++;
		}
	}
	qsort(it, k, sizeof(*it), cmp_item);
	*nit = k;
	return it;
}

/* PERF_RECORD_SAMPLE of profile p of s. */
static void ev_sample(struct pdw_buf *b, const struct tiprof_pm_sample *s, unsigned p,
		      uint64_t time, uint64_t period)
{
	unsigned ev = pev(s, p);
	unsigned priv = (unsigned)pf(s, TIPROF_PM_REC_INFO, p, TIPROF_PM_REC_INFO_PRIV_MASK,
				     TIPROF_PM_REC_INFO_PRIV_SHIFT);

	pdw_hdr(b, PDW_REC_SAMPLE, priv == TIPROF_PRIV_U ? PDW_MISC_USER : PDW_MISC_KERNEL,
		SAMPLE_SIZE);
	pdw_put64(b, pf(s, TIPROF_PM_REC_PC, p, TIPROF_PM_REC_PC_PC_MASK, 0));
	pdw_put32(b, PM_PERF_PID);
	pdw_put32(b, PM_PERF_PID);
	pdw_put64(b, time);
	pdw_put64(b, ev & (1u << TIPROF_PM_EV_EA_VALID) ?
		  pf(s, TIPROF_PM_REC_EA, p, TIPROF_PM_REC_EA_EA_MASK, 0) : 0);
	pdw_put64(b, period);
	pdw_put64(b, pm_perf_weight(s, p));
	pdw_put64(b, pm_perf_data_src(s, p));
}

/* Contract in pm_perfdata.h. */
int pm_perfdata_write(const char *path, const struct pm_perf_input *in, char *err,
		      size_t errlen)
{
	const uint64_t feats = (1ull << PDW_FEAT_BUILD_ID) | (1ull << PDW_FEAT_EVENT_DESC);
	struct pdw_attr attr = {
		.type = PDW_TYPE_RAW, .config = 0, .sample_type = SAMPLE_TYPE,
		.clockid = PDW_CLOCK_MONOTONIC, .flags = PDW_ATTR_FLAGS | ATTR_PRECISE_IP,
	};
	struct pdw_buf b = { 0 };
	struct pm_map *maps = NULL;
	struct pm_item *it;
	size_t nmaps = 0, nit = 0, data_off, table, off;
	const char *prog;
	unsigned priv;

	if (!in->hdr || !in->cfg || (in->n && !in->s) || (in->nobjs && !in->objs)) {
		snprintf(err, errlen, "no header, ProfileMe config or samples to convert");
		return -1;
	}
	priv = (in->cfg->ctrl & TIPROF_PM_CTRL_PRIV_MASK) >> TIPROF_PM_CTRL_PRIV_SHIFT;
	attr.period = in->cfg->period;
	if (!(priv & ~(1u << TIPROF_PRIV_U)))
		attr.flags |= PDW_ATTR_EXCLUDE_KERNEL;
	if (build_maps(in, &maps, &nmaps, err, errlen)) {
		free(maps);
		return -1;
	}
	it = collect(in, &nit);
	if (!it) {
		free(maps);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	prog = nmaps ? maps[0].path : in->hdr->elf_path;
	data_off = pdw_begin(&b, &attr);
	pdw_comm(&b, PM_PERF_PID, PM_PERF_PID, prog, 0, 1);
	for (size_t k = 0; k < nmaps; k++) {
		struct pdw_mmap m = {
			.pid = PM_PERF_PID, .tid = PM_PERF_PID, .start = maps[k].start,
			.len = maps[k].len, .pgoff = maps[k].pgoff, .prot = maps[k].prot,
			.path = maps[k].path,
		};

		pdw_mmap2(&b, &m, 0);
	}
	for (size_t k = 0; k < nit; k++)
		ev_sample(&b, &in->s[it[k].i], it[k].p, it[k].time, in->cfg->period);
	pdw_hdr(&b, PDW_REC_FINISHED_ROUND, 0, 8);
	free(it);
	table = pdw_end_data(&b, data_off, feats);
	off = b.n;
	for (size_t k = 0; k < nmaps; k++) {
		int dup = 0;

		for (size_t j = 0; j < k; j++)
			dup |= strcmp(maps[j].path, maps[k].path) == 0;
		if (maps[k].bidlen && !dup)
			pdw_build_id(&b, maps[k].path, maps[k].bid, maps[k].bidlen);
	}
	pdw_feature_done(&b, table, feats, PDW_FEAT_BUILD_ID, off);
	off = b.n;
	pdw_event_desc(&b, &attr, EVENT_NAME);
	pdw_feature_done(&b, table, feats, PDW_FEAT_EVENT_DESC, off);
	free(maps);
	return pdw_write_file(&b, path, err, errlen);
}
