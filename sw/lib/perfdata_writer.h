/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perfdata_writer.h - the pieces of a perf.data file (perf's "PERFILE2" format, written
 * byte by byte, little-endian) that every converter of the project writes the same way:
 * a growable in-memory buffer, the file header with one event attr, the side-band
 * records (COMM, MMAP2 with a sample_id_all TID|TIME trailer), HEADER_BUILD_ID events,
 * the feature table, and writing the finished file in one go. Field layouts follow the
 * kernel's include/uapi/linux/perf_event.h and tools/perf/Documentation/
 * perf.data-file-format.txt (Linux 6.1). Used by sw/lbr/lbr_perfdata.c (branch stacks)
 * and sw/pm/pm_perfdata.c (ProfileMe samples). No global state, no printing.
 */
#ifndef TIPROF_PERFDATA_WRITER_H
#define TIPROF_PERFDATA_WRITER_H

#include <stddef.h>
#include <stdint.h>

/* perf_event.h and perf header values the converters use. */
enum {
	PDW_TYPE_HARDWARE = 0, PDW_TYPE_SOFTWARE = 1, PDW_TYPE_RAW = 4,	/* perf_type_id */
	PDW_HW_CPU_CYCLES = 0, PDW_HW_INSTRUCTIONS = 1,			/* perf_hw_id */
	PDW_SW_CPU_CLOCK = 0, PDW_SW_TASK_CLOCK = 1,			/* perf_sw_ids */
	PDW_REC_COMM = 3, PDW_REC_SAMPLE = 9, PDW_REC_MMAP2 = 10,	/* perf_event_type */
	PDW_REC_HEADER_BUILD_ID = 67, PDW_REC_FINISHED_ROUND = 68,	/* perf's own types */
	PDW_MISC_KERNEL = 1, PDW_MISC_USER = 2, PDW_MISC_COMM_EXEC = 1 << 13,
	PDW_MISC_BUILD_ID_SIZE = 1 << 15,
	PDW_FEAT_BUILD_ID = 2, PDW_FEAT_EVENT_DESC = 12, PDW_FEAT_BRANCH_STACK = 15,
};

/* sample_type bits (perf_event_sample_format). */
#define PDW_SAMPLE_IP (1ull << 0)
#define PDW_SAMPLE_TID (1ull << 1)
#define PDW_SAMPLE_TIME (1ull << 2)
#define PDW_SAMPLE_ADDR (1ull << 3)
#define PDW_SAMPLE_PERIOD (1ull << 8)
#define PDW_SAMPLE_BRANCH_STACK (1ull << 11)
#define PDW_SAMPLE_WEIGHT (1ull << 14)
#define PDW_SAMPLE_DATA_SRC (1ull << 15)
#define PDW_SAMPLE_WEIGHT_STRUCT (1ull << 24)

/* attr flag bits: exclude_kernel 5, exclude_hv 6, mmap 8, comm 9, task 13,
 * sample_id_all 18, mmap2 23, comm_exec 24, use_clockid 25. */
#define PDW_ATTR_EXCLUDE_KERNEL (1ull << 5)
#define PDW_ATTR_FLAGS ((1ull << 6) | (1ull << 8) | (1ull << 9) | (1ull << 13) | \
			(1ull << 18) | (1ull << 23) | (1ull << 24) | (1ull << 25))
#define PDW_ATTR_SIZE 128	/* PERF_ATTR_SIZE_VER7, what perf 6.1 reads */
#define PDW_CLOCK_MONOTONIC 1

/* The file being built. */
struct pdw_buf {
	uint8_t *p;		/* bytes (owned) */
	size_t n, cap;		/* used, allocated */
	int oom;		/* an allocation failed: everything after is dropped */
};

/* The one event attr of a file. */
struct pdw_attr {
	uint32_t type;			/* PDW_TYPE_* */
	uint64_t config;		/* event within the type */
	uint64_t period;		/* sample_period */
	uint64_t sample_type;		/* PDW_SAMPLE_* */
	uint64_t flags;			/* the attr's flag word (PDW_ATTR_*) */
	uint64_t branch_sample_type;	/* with PDW_SAMPLE_BRANCH_STACK */
	uint32_t clockid;		/* with use_clockid */
};

/* One executable mapping (PERF_RECORD_MMAP2). */
struct pdw_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;	/* run-time range and its file offset */
	uint32_t prot;			/* PROT_READ 1 | PROT_WRITE 2 | PROT_EXEC 4 */
	const char *path;		/* file (stat()ed for device and inode if absolute) */
};

/* Append the low `bytes` bytes of v, little-endian. */
void pdw_put(struct pdw_buf *b, uint64_t v, int bytes);
#define pdw_put16(b, v) pdw_put(b, (uint64_t)(v), 2)
#define pdw_put32(b, v) pdw_put(b, (uint64_t)(v), 4)
#define pdw_put64(b, v) pdw_put(b, (uint64_t)(v), 8)

/* Overwrite the 8 bytes at `at` with v. */
void pdw_set64(struct pdw_buf *b, size_t at, uint64_t v);

/* Bytes of s with its NUL, rounded up to a multiple of align. */
size_t pdw_pad_len(const char *s, size_t align);

/* s, NUL-terminated, zero-padded to pdw_pad_len(s, align) bytes. */
void pdw_put_str(struct pdw_buf *b, const char *s, size_t align);

/* A record header: type, misc, size (bytes of the whole record). */
void pdw_hdr(struct pdw_buf *b, uint32_t type, uint16_t misc, size_t size);

/* The sample_id_all trailer of a side-band record for sample_type TID|TIME. */
void pdw_sample_id(struct pdw_buf *b, uint32_t pid, uint32_t tid, uint64_t time);

/* PERF_RECORD_COMM naming the thread after path's base name (exec: COMM_EXEC). */
void pdw_comm(struct pdw_buf *b, uint32_t pid, uint32_t tid, const char *path, uint64_t time,
	      int exec);

/* PERF_RECORD_MMAP2 of m at time. */
void pdw_mmap2(struct pdw_buf *b, const struct pdw_mmap *m, uint64_t time);

/* One build_id_event of HEADER_BUILD_ID (pid -1: the host) for path. */
void pdw_build_id(struct pdw_buf *b, const char *path, const uint8_t *id, size_t len);

/* The file header (sections filled in later) and the attr section: one attr, no ids.
 * Returns the offset where the data section starts (= b->n afterwards). */
size_t pdw_begin(struct pdw_buf *b, const struct pdw_attr *a);

/* Close the data section that started at data_off (now at b->n), set the feature bits of
 * mask in the header and reserve the feature table. Returns the table's offset. */
size_t pdw_end_data(struct pdw_buf *b, size_t data_off, uint64_t mask);

/* The contents of feature `feat` (a bit of the mask) were written from off to b->n. */
void pdw_feature_done(struct pdw_buf *b, size_t table, uint64_t mask, unsigned feat, size_t off);

/* HEADER_EVENT_DESC for the file's one attr: its name. */
void pdw_event_desc(struct pdw_buf *b, const struct pdw_attr *a, const char *name);

/* Write the buffer to path (created or truncated) and free it. Returns 0, or -1 with a
 * reason in err (out of memory, or the system's error). */
int pdw_write_file(struct pdw_buf *b, const char *path, char *err, size_t errlen);

#endif /* TIPROF_PERFDATA_WRITER_H */
