/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sample_file.h - the tiprof sample file: the one module that encodes, decodes,
 * writes, reads and dumps it. Every tool and both sources (simulator, board)
 * go through it. The byte layout is specified in docs/sample-file.md.
 *
 * Layers, low to high:
 *   codecs   sf_*_encode / sf_*_decode: buffer + length in, bytes consumed or a
 *            negative SF_E* status out; no I/O, no allocation.
 *   writer   streams to a temporary file beside the final path and renames it
 *            into place on close: the final path never holds a partial file.
 *   reader   streams a file record by record and describes any problem in one
 *            line naming the file.
 *   dumper   text form of the header, samples and trailer.
 * Nothing here prints on its own or keeps global state.
 */
#ifndef TIPROF_SAMPLE_FILE_H
#define TIPROF_SAMPLE_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tiprof/file_magic.h"
#include "tiprof/pm_sample.h"
#include "tiprof/sample.h"

/* ---- format constants (docs/sample-file.md) ---- */

#define SF_MAGIC TIPROF_SAMPLE_FILE_MAGIC	/* 8 bytes at offset 0 */
#define SF_MAGIC_LEN 8
#define SF_VERSION_MAJOR 1		/* readers accept this major only */
#define SF_VERSION_MINOR 2		/* any minor of the major is readable */
#define SF_HEADER_FIXED 64		/* fixed part of the header */
#define SF_HEADER_MAX (1u << 20)	/* largest header_size accepted */
#define SF_PATH_MAX 4095		/* longest workload ELF path, bytes */
#define SF_BUILD_ID_MAX 64		/* longest build-id, bytes */
#define SF_REC_SAMPLE 0x01		/* record type: one sample */
#define SF_REC_TRAILER 0x02		/* record type: the trailer (last) */
#define SF_REC_OBJECT 0x80		/* extension record (1.1): a mapped object */
#define SF_REC_PM_CONFIG 0x81		/* extension record (1.2): ProfileMe configuration */
#define SF_REC_PM_SAMPLE 0x82		/* extension record (1.2): one ProfileMe sample */
#define SF_REC_PM_COUNTS 0x83		/* extension record (1.2): ProfileMe accounting */
#define SF_REC_EXT_MIN 0x80		/* 0x80..0xFE: length-prefixed extension */
#define SF_REC_EXT_MAX 0xFE		/*   records, skipped by this version */
#define SF_EXT_MAX (1u << 24)		/* largest extension payload accepted */
#define SF_SAMPLE_FIXED 15		/* sample record without addresses */
#define SF_TRAILER_SIZE 41		/* trailer record */
#define SF_EXT_FIXED 5			/* extension record without payload */
#define SF_OBJECT_FIXED 28		/* object payload without path and build-id */
#define SF_PM_CONFIG_FIXED 30		/* PM config payload */
#define SF_PM_SAMPLE_FIXED (8 * TIPROF_PM_REC_WORDS)	/* PM sample payload: 12 words */
#define SF_PM_COUNTS_FIXED 48		/* PM counts payload */

/* Where the samples come from (header byte 31). */
enum sf_source {
	SF_SOURCE_UNKNOWN = 0,		/* not recorded */
	SF_SOURCE_SIMULATOR = 1,	/* the simulator (C model or RTL) */
	SF_SOURCE_BOARD = 2,		/* a board or FPGA through the driver */
};

/* What a mapped object is (object record, payload byte 27). */
enum sf_object_kind {
	SF_OBJ_MAIN = 0,		/* the program the header names */
	SF_OBJ_INTERP = 1,		/* its program interpreter (ld.so) */
	SF_OBJ_MAPPED = 2,		/* another file mapped executable (a shared library) */
};

/* Status codes (negative); 0 or positive values are successes. */
enum sf_status {
	SF_ENEED = -1,		/* the buffer ends inside the item: need more bytes */
	SF_EMAGIC = -2,		/* not a tiprof sample file */
	SF_EVERSION = -3,	/* unsupported major version */
	SF_EHEADER = -4,	/* a header field is out of range */
	SF_ERECORD = -5,	/* a record is malformed */
	SF_EINVAL = -6,		/* an encoder was given an invalid value */
	SF_EIO = -7,		/* a system call failed (reader/writer; errno kept) */
	SF_ENOMEM = -8,		/* out of memory */
	SF_ETRUNC = -9,		/* the file ends before its trailer */
	SF_ECOUNT = -10,	/* the trailer's sample count disagrees */
	SF_ETRAILING = -11,	/* bytes after the trailer */
};

/* The file header: unit configuration, sampling setup, source, workload, clock. */
struct sf_header {
	uint16_t version_major;		/* format major version (decode: as read) */
	uint16_t version_minor;		/* format minor version */
	uint8_t w;			/* commit width W: 1, 2, 4 or 8 */
	uint8_t xlen;			/* address width: 32 or 64 */
	uint16_t fifo_depth;		/* unit's FIFO depth, >= 1 */
	uint32_t unit_id;		/* raw TIP_ID register (0: unknown) */
	uint32_t period;		/* sampling period in cycles, >= 1 */
	uint8_t mode;			/* TIPROF_MODE_*: 0, 1 or 2 */
	uint8_t rand_bits;		/* k of the random modes, 0..31 */
	uint8_t priv_filter;		/* CTRL.PRIV: bit p = privilege p sampled */
	uint8_t source;			/* enum sf_source */
	uint64_t clock_hz;		/* cycle counter frequency (0: unknown) */
	uint64_t start_cycle;		/* unit's CYCLE when sampling started */
	uint64_t start_time_ns;		/* CLOCK_REALTIME then, ns (0: unknown) */
	uint16_t elf_path_len;		/* bytes in elf_path, 0..SF_PATH_MAX */
	uint8_t build_id_len;		/* bytes in build_id, 0..SF_BUILD_ID_MAX */
	char elf_path[SF_PATH_MAX + 1];	/* workload ELF path, NUL-terminated */
	uint8_t build_id[SF_BUILD_ID_MAX];	/* GNU build-id note bytes */
};

/* The trailer: accounting of the whole recording. */
struct sf_trailer {
	uint64_t samples;	/* sample records in the file */
	uint64_t lost_unit;	/* samples the unit lost (TIP_LOST over the run) */
	uint64_t lost_sw;	/* samples lost on the software path */
	uint64_t taken_unit;	/* samples the unit took (TIP_TAKEN over the run) */
	uint64_t end_cycle;	/* unit's CYCLE when sampling stopped */
};

/* An object record (format 1.1): one ELF object the program had mapped executable, like
 * perf's MMAP record. Run-time address = link-time address + bias (mod 2^64). */
struct sf_object {
	uint64_t start;			/* run-time start of its executable range */
	uint64_t end;			/* run-time end (exclusive), > start */
	uint64_t bias;			/* load bias */
	uint8_t kind;			/* enum sf_object_kind */
	uint8_t build_id_len;		/* bytes in build_id, 0..SF_BUILD_ID_MAX */
	uint16_t path_len;		/* bytes in path, 0..SF_PATH_MAX */
	char path[SF_PATH_MAX + 1];	/* file it was read from, NUL-terminated */
	uint8_t build_id[SF_BUILD_ID_MAX];	/* its GNU build-id note bytes */
};

/* One decoded record. */
struct sf_record {
	uint8_t type;			/* SF_REC_SAMPLE, SF_REC_TRAILER, SF_REC_OBJECT,
					 * SF_REC_PM_* or another 0x80..0xFE */
	struct tiprof_sample sample;	/* type SF_REC_SAMPLE */
	struct sf_trailer trailer;	/* type SF_REC_TRAILER */
	struct sf_object object;	/* type SF_REC_OBJECT in a file of format >= 1.1 */
	struct tiprof_pm_config pm_config;	/* type SF_REC_PM_CONFIG (format >= 1.2) */
	struct tiprof_pm_sample pm_sample;	/* type SF_REC_PM_SAMPLE (format >= 1.2) */
	struct tiprof_pm_counts pm_counts;	/* type SF_REC_PM_COUNTS (format >= 1.2) */
	uint64_t pm_count_samples;	/* type SF_REC_PM_COUNTS: PM samples it counts */
	uint32_t ext_len;		/* extension: payload bytes */
};

/* ---- codecs: no I/O; `why` (may be NULL) receives a constant reason string ---- */

/* Fill h with the defaults of a valid header (version 1.0, W=1, XLEN=64, depth 1,
 * period 1, priv filter all, everything else 0). */
void sf_header_init(struct sf_header *h);

/* Check every field of h that the format constrains. 0 or SF_EHEADER (reason in why). */
int sf_header_validate(const struct sf_header *h, const char **why);

/* Bytes the encoded header of h takes. */
size_t sf_header_size(const struct sf_header *h);

/* Encode h (written as version SF_VERSION_MAJOR.SF_VERSION_MINOR whatever h says)
 * into buf[0..cap). Returns bytes written, SF_EINVAL for an invalid header, or
 * SF_ENEED if cap is too small (nothing written). */
int sf_header_encode(const struct sf_header *h, uint8_t *buf, size_t cap,
		     const char **why);

/* Decode a header from buf[0..len). Returns bytes consumed (header_size),
 * SF_ENEED if len is too short to decide, SF_EMAGIC, SF_EVERSION or SF_EHEADER. */
int sf_header_decode(const uint8_t *buf, size_t len, struct sf_header *h,
		     const char **why);

/* Check a sample against the header's W and XLEN and the commit-state rules of
 * docs/sample-file.md. 0 or SF_EINVAL (reason in why). */
int sf_sample_validate(const struct sf_header *h, const struct tiprof_sample *s,
		       const char **why);

/* Bytes the sample record of s takes (15 + valid addresses * XLEN/8). */
size_t sf_sample_size(const struct sf_header *h, const struct tiprof_sample *s);

/* Encode a sample record. Returns bytes written, SF_EINVAL, or SF_ENEED. */
int sf_sample_encode(const struct sf_header *h, const struct tiprof_sample *s,
		     uint8_t *buf, size_t cap, const char **why);

/* Check an object record against the format (start < end, both below 2^XLEN, kind, path
 * and build-id lengths, no NUL in the path). 0 or SF_EINVAL (reason in why). */
int sf_object_validate(const struct sf_header *h, const struct sf_object *o,
		       const char **why);

/* Bytes the object record of o takes (5 + 28 + path + build-id). */
size_t sf_object_size(const struct sf_object *o);

/* Encode an object record. Returns bytes written, SF_EINVAL, or SF_ENEED. */
int sf_object_encode(const struct sf_header *h, const struct sf_object *o, uint8_t *buf,
		     size_t cap, const char **why);

/* Check a ProfileMe configuration (docs/sample-file.md, "PM config record": F 1/2/4/8,
 * tags 1/2, FIFO depth >= 1, PERIOD >= F, PM_CTRL fields, PAIR only with 2 tags, WINDOW
 * 1..256, TIMEOUT 1..65535, PM_LATFILT fields). 0 or SF_EINVAL (reason in why). */
int sf_pm_config_validate(const struct tiprof_pm_config *c, const char **why);

/* Check a ProfileMe sample for a file of header h and, if c is not NULL, its configuration:
 * FMT = TIPROF_PM_REC_FMT, reserved bits 0, addresses below 2^XLEN, pair fields consistent
 * (a single sample's profile 1 words 0), exactly one end bit per profile, slot < F, a pair
 * only with 2 tags. 0 or SF_EINVAL (reason in why). */
int sf_pm_sample_validate(const struct sf_header *h, const struct tiprof_pm_config *c,
			  const struct tiprof_pm_sample *s, const char **why);

/* Encode a PM config record (SF_EXT_FIXED + SF_PM_CONFIG_FIXED bytes). Returns bytes
 * written, SF_EINVAL or SF_ENEED. */
int sf_pm_config_encode(const struct tiprof_pm_config *c, uint8_t *buf, size_t cap,
			const char **why);

/* Encode a PM sample record (SF_EXT_FIXED + SF_PM_SAMPLE_FIXED bytes; 12 little-endian
 * 64-bit words on every XLEN). Returns bytes written, SF_EINVAL or SF_ENEED. */
int sf_pm_sample_encode(const struct sf_header *h, const struct tiprof_pm_config *c,
			const struct tiprof_pm_sample *s, uint8_t *buf, size_t cap,
			const char **why);

/* Encode a PM counts record that counts `samples` PM sample records (SF_EXT_FIXED +
 * SF_PM_COUNTS_FIXED bytes). Returns bytes written or SF_ENEED. */
int sf_pm_counts_encode(uint64_t samples, const struct tiprof_pm_counts *n, uint8_t *buf,
			size_t cap);

/* Encode the trailer record. Returns SF_TRAILER_SIZE or SF_ENEED. */
int sf_trailer_encode(const struct sf_trailer *t, uint8_t *buf, size_t cap);

/* Decode one record (sample, trailer or extension) from buf[0..len) for the file
 * described by h. Returns bytes consumed, SF_ENEED, or SF_ERECORD. Extension
 * records are consumed whole (r->ext_len says how long the payload is); an object
 * record (type 0x80) of a file whose header says 1.1 or later is decoded into
 * r->object and checked (sf_object_validate; payload bytes after the path and
 * build-id, a later minor's fields, are skipped); in a 1.0 file type 0x80 is an
 * unknown extension, skipped. Likewise types 0x81..0x83 of a 1.2 file are decoded into
 * r->pm_config, r->pm_sample (checked without the configuration: the reader checks it
 * against the file's config record) and r->pm_counts / r->pm_count_samples; in older files
 * they are skipped. */
int sf_record_decode(const struct sf_header *h, const uint8_t *buf, size_t len,
		     struct sf_record *r, const char **why);

/* Constant description of an SF_E* status (or "success"). */
const char *sf_strerror(int status);

/* ---- writer ---- */

/* An open sample file being written. */
struct sf_writer {
	FILE *fp;			/* the temporary file */
	char *path;			/* final path (owned) */
	char *tmp_path;			/* temporary path beside it (owned) */
	struct sf_header hdr;		/* the header written */
	uint64_t samples;		/* sample records written so far */
	uint64_t objects;		/* object records written so far */
	uint64_t pm_samples;		/* ProfileMe sample records written so far */
	int pm_config;			/* the PM config record was written */
	int pm_counts;			/* the PM counts record was written */
	struct tiprof_pm_config pm_cfg;	/* that config (valid if pm_config) */
	int err;			/* first I/O error (SF_E*), sticky; 0 if none */
	int sys_errno;			/* errno of that error if SF_EIO */
	char msg[256];			/* one-line description of the last error */
};

/* Create a temporary file in path's directory and write the header. Returns 0 or
 * SF_EINVAL / SF_EIO / SF_ENOMEM (w->msg says what; nothing is left on disk). */
int sf_writer_open(struct sf_writer *w, const char *path, const struct sf_header *h);

/* Append one sample record. 0; SF_EINVAL if s breaks sf_sample_validate() (nothing
 * written, w->msg says why, the writer stays usable: count it as lost); or the
 * writer's sticky error (SF_EIO). */
int sf_writer_sample(struct sf_writer *w, const struct tiprof_sample *s);

/* Append one object record (anywhere before the trailer; readers resolve sample
 * addresses after reading the whole file). 0; SF_EINVAL if o breaks
 * sf_object_validate() (nothing written, w->msg says why, the writer stays usable);
 * or the writer's sticky error. */
int sf_writer_object(struct sf_writer *w, const struct sf_object *o);

/* ProfileMe records (format 1.2). Each returns 0; SF_EINVAL for an invalid value or an
 * out-of-order call (nothing written, w->msg says why, the writer stays usable); or the
 * writer's sticky error (SF_EIO).
 * sf_writer_pm_config: the recording's configuration, exactly once, before any PM sample
 *   (sf_pm_config_validate);
 * sf_writer_pm_sample: one sample, after the config and before the counts
 *   (sf_pm_sample_validate against the config);
 * sf_writer_pm_counts: the unit's PM counters over the recording and the software losses,
 *   at most once, after the last PM sample; it also records w->pm_samples, which the
 *   reader checks. */
int sf_writer_pm_config(struct sf_writer *w, const struct tiprof_pm_config *c);
int sf_writer_pm_sample(struct sf_writer *w, const struct tiprof_pm_sample *s);
int sf_writer_pm_counts(struct sf_writer *w, const struct tiprof_pm_counts *n);

/* Write the trailer (t->samples is replaced by the count written), flush, sync,
 * close and rename the temporary file to the final path. On any error the
 * temporary file is removed and the final path is untouched. 0 or an SF_E*. */
int sf_writer_close(struct sf_writer *w, const struct sf_trailer *t);

/* Give up: close and remove the temporary file; the final path is untouched. */
void sf_writer_abort(struct sf_writer *w);

/* ---- reader ---- */

/* An open sample file being read. */
struct sf_reader {
	FILE *fp;			/* the stream */
	int own_fp;			/* fp was opened here and is closed on close */
	char name[256];			/* file name used in messages */
	uint8_t *buf;			/* read buffer (owned) */
	size_t cap;			/* its size */
	size_t pos;			/* first unconsumed byte in buf */
	size_t end;			/* end of the valid bytes in buf */
	int eof;			/* the stream has no more bytes */
	uint64_t offset;		/* file offset of buf[pos] */
	struct sf_header hdr;		/* the header (valid after open) */
	uint64_t samples;		/* sample records returned so far */
	uint64_t objects;		/* object records read so far */
	uint64_t pm_samples;		/* ProfileMe sample records read so far */
	int has_pm_config;		/* the PM config record was read (pm_config) */
	int has_pm_counts;		/* the PM counts record was read (pm_counts) */
	struct tiprof_pm_config pm_config;	/* the file's PM config record */
	struct tiprof_pm_counts pm_counts;	/* the file's PM counts record */
	uint64_t ext_records;		/* unknown extension records skipped */
	struct sf_trailer trailer;	/* the trailer (valid once next returned 0) */
	int done;			/* the trailer was read and checked */
	int err;			/* first error, sticky; 0 if none */
	char msg[512];			/* "NAME: problem" for err */
};

/* Open path and decode its header. 0, or an SF_E* with r->msg naming the file and
 * the problem; call sf_reader_close() in both cases. */
int sf_reader_open(struct sf_reader *r, const char *path);

/* As sf_reader_open() on an already open stream (not closed by the reader); name
 * is used in messages. */
int sf_reader_open_stream(struct sf_reader *r, FILE *fp, const char *name);

/* Next sample into s: returns 1 with a sample, 0 at the end (the trailer was
 * read, its count agrees, nothing follows it; r->trailer holds it), or an SF_E*
 * with r->msg set (SF_ETRUNC when the file stops early). Object records are
 * checked and skipped (counted in r->objects), and so are ProfileMe records. */
int sf_reader_next(struct sf_reader *r, struct tiprof_sample *s);

/* As sf_reader_next(), for callers that also want the other records: returns 1
 * with rec->type SF_REC_SAMPLE (rec->sample), SF_REC_OBJECT (rec->object),
 * SF_REC_PM_CONFIG (rec->pm_config), SF_REC_PM_SAMPLE (rec->pm_sample) or
 * SF_REC_PM_COUNTS (rec->pm_counts), 0 at the end, or an SF_E*. Unknown extension
 * records are skipped. ProfileMe records out of order (a sample before the config or
 * after the counts, a second config or counts record), a sample that breaks the config,
 * or a counts record whose sample count disagrees are bad records. The config and
 * counts also stay in r->pm_config / r->pm_counts. Callers that switch on rec->type
 * must ignore types they do not handle. */
int sf_reader_next_record(struct sf_reader *r, struct sf_record *rec);

/* The one-line description of the reader's error ("" if none). */
const char *sf_reader_error(const struct sf_reader *r);

/* Release everything (safe after a failed open). */
void sf_reader_close(struct sf_reader *r);

/* ---- dumper ---- */

/* Name of a sample's commit state: "computing", "stalled", "flushed", "drained". */
const char *sf_state_name(const struct tiprof_sample *s);

/* Text form of the header (several lines). Returns 0 or SF_EIO. */
int sf_dump_header(FILE *out, const struct sf_header *h);

/* One line for sample number idx. Returns 0 or SF_EIO. */
int sf_dump_sample(FILE *out, const struct sf_header *h, uint64_t idx,
		   const struct tiprof_sample *s);

/* One line for an object record. Returns 0 or SF_EIO. */
int sf_dump_object(FILE *out, const struct sf_header *h, const struct sf_object *o);

/* Name of an object kind: "main", "interp", "mapped" ("invalid" otherwise). */
const char *sf_object_kind_name(unsigned kind);

/* One line for a ProfileMe config record ("pm config: ..."). Returns 0 or SF_EIO. */
int sf_dump_pm_config(FILE *out, const struct tiprof_pm_config *c);

/* One line for ProfileMe sample number idx ("pm IDX: cycle=... | p0 ... | p1 ..."): per
 * profile PC, EA, events by name, abort reason, privilege, context, slot, path and the
 * stage stamps seen. Returns 0 or SF_EIO. */
int sf_dump_pm_sample(FILE *out, const struct sf_header *h, uint64_t idx,
		      const struct tiprof_pm_sample *s);

/* One line for a ProfileMe counts record. Returns 0 or SF_EIO. */
int sf_dump_pm_counts(FILE *out, uint64_t samples, const struct tiprof_pm_counts *n);

/* Name of ProfileMe event bit b (TIPROF_PM_EV_*): "RETIRED", ... ("?" beyond). */
const char *sf_pm_event_name(unsigned b);

/* One line for the trailer. Returns 0 or SF_EIO. */
int sf_dump_trailer(FILE *out, const struct sf_trailer *t);

#endif /* TIPROF_SAMPLE_FILE_H */
