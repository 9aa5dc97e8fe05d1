/* SPDX-License-Identifier: Apache-2.0 */
/* cmd-trace.c - `tiprof trace`: inspect ROB traces (sim/trace, docs/rob-trace.md) and export
 * windows of them as VCD for GTKWave.
 *   tiprof trace info FILE
 *   tiprof trace dump FILE [--from N] [--cycles M]
 *   tiprof trace vcd FILE -o OUT.vcd [--from N] [--cycles M] */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rob_trace.h"
#include "tiprof/cmd.h"
#include "vcd.h"

struct opts {
	const char *cmd, *file, *out;  /* subcommand, trace, VCD output */
	uint64_t from, count;          /* window: first cycle and number of cycles */
};

static const struct opt_use trace_uses[] = {
	{ OPT_FROM, NULL },
	{ OPT_CYCLES, NULL },
	{ OPT_OUTPUT, "the VCD file (vcd)" },
	{ OPT_END, NULL }
};
const struct opt_set opt_set_trace = { "trace", trace_uses, "trace" };

/* Returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct opts *o)
{
	struct opt_parser p;
	const char *operand[2] = { NULL, NULL };
	int id, n = 0;

	memset(o, 0, sizeof(*o));
	o->count = UINT64_MAX;
	opt_init(&p, &opt_set_trace, argc, argv, 1);
	while ((id = opt_next(&p)) != OPT_END) {
		switch (id) {
		case OPT_HELP_DONE:
			return TIPROF_EXIT_OK;
		case OPT_ERROR:
			return TIPROF_EXIT_USAGE;
		case OPT_OUTPUT:
			o->out = p.arg;
			break;
		case OPT_FROM:
			if (opt_u64(&p, 0, UINT64_MAX, &o->from))
				return TIPROF_EXIT_USAGE;
			break;
		case OPT_CYCLES:
			if (opt_u64(&p, 0, UINT64_MAX, &o->count))
				return TIPROF_EXIT_USAGE;
			break;
		case OPT_OPERAND:
			if (n == 2)
				return opt_usage_error(&opt_set_trace, "unexpected operand '%s' "
						       "(tiprof help trace)", p.arg);
			operand[n++] = p.arg;
			break;
		}
	}
	if (n < 2)
		return opt_usage_error(&opt_set_trace, "%s (tiprof help trace)",
				       n ? "no trace file given" : "no subcommand given (info, "
				       "dump or vcd)");
	o->cmd = operand[0];
	o->file = operand[1];
	return -1;
}

static int open_trace(const struct opts *o, struct rob_trace_reader *r)
{
	int rc = rob_trace_reader_open(r, o->file);

	if (rc < 0)
		fprintf(stderr, "tiprof trace: %s: %s\n", o->file,
			rc == ROB_TRACE_IO ? strerror(errno) : rob_trace_strerror(rc));
	return rc;
}

static int trace_info(const struct opts *o)
{
	struct rob_trace_reader r;
	struct tiprof_rob_if rob;
	uint64_t cycles = 0, commits = 0, empty = 0;
	int rc;

	if (open_trace(o, &r) < 0)
		return 1;
	while ((rc = rob_trace_reader_next(&r, &rob)) > 0) {
		cycles++;
		commits += (uint64_t)__builtin_popcount(rob.head_valid & rob.head_commit);
		empty += !(rob.head_valid >> rob.head_bank & 1);
	}
	if (rc < 0) {
		fprintf(stderr, "tiprof trace: %s: %s after cycle %" PRIu64 "\n", o->file,
			rob_trace_strerror(rc), cycles);
		rob_trace_reader_close(&r);
		return 1;
	}
	printf("%s: W=%u XLEN=%u robidx=%u bits, %" PRIu64 " cycles, %" PRIu64 " commits, "
	       "%" PRIu64 " empty-ROB cycles, %zu bytes (%.2f bytes/cycle)\n", o->file,
	       r.st.hdr.w, r.st.hdr.xlen, r.st.hdr.robidx_w, cycles, commits, empty, r.len,
	       cycles ? (double)r.len / (double)cycles : 0.0);
	rob_trace_reader_close(&r);
	return 0;
}

static int trace_dump(const struct opts *o)
{
	struct rob_trace_reader r;
	struct tiprof_rob_if rob;
	uint64_t c = 0;
	int rc;

	if (open_trace(o, &r) < 0)
		return 1;
	while ((rc = rob_trace_reader_next(&r, &rob)) > 0 && c < o->from + o->count) {
		if (c >= o->from) {
			printf("%" PRIu64 ": bank %u valid %02x commit %02x mp %02x fl %02x exc %u "
			       "disp %02x priv %u ctx %u", c, rob.head_bank, rob.head_valid,
			       rob.head_commit, rob.head_mispred, rob.head_flush, rob.exception,
			       rob.disp_valid, rob.priv, rob.ctx_id);
			for (unsigned b = 0; b < r.st.hdr.w; b++)
				if (rob.head_valid >> b & 1)
					printf(" h%u=%#" PRIx64, b, rob.head_pc[b]);
			for (unsigned b = 0; b < r.st.hdr.w; b++)
				if (rob.disp_valid >> b & 1)
					printf(" d%u=%#" PRIx64 "/%u", b, rob.disp_pc[b], rob.disp_idx[b]);
			printf("\n");
		}
		c++;
	}
	rob_trace_reader_close(&r);
	if (rc < 0) {
		fprintf(stderr, "tiprof trace: %s: %s after cycle %" PRIu64 "\n", o->file,
			rob_trace_strerror(rc), c);
		return 1;
	}
	return 0;
}

/* Export the window as VCD: one signal per ROB-interface field and bank. */
static int trace_vcd(const struct opts *o)
{
	struct rob_trace_reader r;
	struct tiprof_rob_if rob;
	vcd_writer *w = NULL;
	FILE *f;
	int sig[64], ns = 0, rc = 0, err = 0;
	uint64_t c = 0;
	char name[32];

	if (!o->out)
		return opt_usage_error(&opt_set_trace, "vcd needs -o OUT.vcd");
	if (open_trace(o, &r) < 0)
		return 1;
	f = fopen(o->out, "w");
	if (!f) {
		fprintf(stderr, "tiprof trace: %s: %s\n", o->out, strerror(errno));
		rob_trace_reader_close(&r);
		return 1;
	}
	unsigned wb = r.st.hdr.w, x = r.st.hdr.xlen;
	err = vcd_open(&w, f, "1ns");
	if (!err)
		err = vcd_scope_begin(w, "rob");
#define SIG(n, width) do { if (err >= 0) { err = vcd_signal(w, n, width); sig[ns++] = err; } } while (0)
	SIG("head_valid", wb); SIG("head_commit", wb); SIG("head_mispred", wb);
	SIG("head_flush", wb); SIG("head_bank", 3); SIG("exception", 1); SIG("disp_valid", wb);
	SIG("priv", 2); SIG("ctx_id", 16);
	for (unsigned b = 0; b < wb; b++) {
		snprintf(name, sizeof(name), "head_pc%u", b);
		SIG(name, x);
	}
	for (unsigned b = 0; b < wb; b++) {
		snprintf(name, sizeof(name), "disp_pc%u", b);
		SIG(name, x);
	}
	for (unsigned b = 0; b < wb; b++) {
		snprintf(name, sizeof(name), "disp_idx%u", b);
		SIG(name, r.st.hdr.robidx_w);
	}
#undef SIG
	if (err >= 0)
		err = vcd_scope_end(w);
	if (err >= 0)
		err = vcd_end_defs(w);
	while (err >= 0 && (rc = rob_trace_reader_next(&r, &rob)) > 0 && c < o->from + o->count) {
		if (c >= o->from) {
			int k = 0;

			err = vcd_time(w, c * 10);
			vcd_set_u64(w, sig[k++], rob.head_valid);
			vcd_set_u64(w, sig[k++], rob.head_commit);
			vcd_set_u64(w, sig[k++], rob.head_mispred);
			vcd_set_u64(w, sig[k++], rob.head_flush);
			vcd_set_u64(w, sig[k++], rob.head_bank);
			vcd_set_u64(w, sig[k++], rob.exception);
			vcd_set_u64(w, sig[k++], rob.disp_valid);
			vcd_set_u64(w, sig[k++], rob.priv);
			vcd_set_u64(w, sig[k++], rob.ctx_id);
			for (unsigned b = 0; b < wb; b++)
				vcd_set_u64(w, sig[k++], rob.head_pc[b]);
			for (unsigned b = 0; b < wb; b++)
				vcd_set_u64(w, sig[k++], rob.disp_pc[b]);
			for (unsigned b = 0; b < wb; b++)
				vcd_set_u64(w, sig[k++], rob.disp_idx[b]);
		}
		c++;
	}
	if (err >= 0 && rc < 0) {
		fprintf(stderr, "tiprof trace: %s: %s after cycle %" PRIu64 "\n", o->file,
			rob_trace_strerror(rc), c);
		err = VCD_EIO;
	}
	if (w) {
		int e = vcd_close(w);

		if (err >= 0)
			err = e;
	}
	if (fclose(f) != 0 && err >= 0)
		err = VCD_EIO;
	rob_trace_reader_close(&r);
	if (err < 0) {
		fprintf(stderr, "tiprof trace: %s: %s\n", o->out, vcd_strerror(err));
		remove(o->out);
		return 1;
	}
	return 0;
}

/* Entry point of `tiprof trace` (registered in sw/tiprof.c). */
int cmd_trace(int argc, char **argv)
{
	struct opts o;
	int r = parse(argc, argv, &o);

	if (r >= 0)
		return r;
	if (!strcmp(o.cmd, "info"))
		return trace_info(&o);
	if (!strcmp(o.cmd, "dump"))
		return trace_dump(&o);
	if (!strcmp(o.cmd, "vcd"))
		return trace_vcd(&o);
	return opt_usage_error(&opt_set_trace, "unknown subcommand '%s' (use info, dump or vcd)",
			       o.cmd);
}
