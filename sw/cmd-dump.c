/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-dump.c - `tiprof dump FILE`: the text form of a sample file (header, every
 * sample, object and ProfileMe record in file order, trailer), through the sample-file
 * reader.
 * Hottest-first views are `tiprof report`'s job.
 */
#include <stdio.h>
#include <string.h>

#include "sample_file.h"
#include "tiprof/cmd.h"

/* State of one dump. */
struct dump_ctx {
	const char *path;	/* the input as named on the command line */
	FILE *out;		/* where the text goes */
	struct sf_reader rd;	/* the open file */
	uint64_t n;		/* samples printed */
	uint64_t npm;		/* ProfileMe samples printed */
};

/* Print one record; 0 or SF_EIO. */
static int dump_record(struct dump_ctx *d, const struct sf_record *rec)
{
	switch (rec->type) {
	case SF_REC_SAMPLE:
		return sf_dump_sample(d->out, &d->rd.hdr, d->n++, &rec->sample);
	case SF_REC_OBJECT:
		return sf_dump_object(d->out, &d->rd.hdr, &rec->object);
	case SF_REC_PM_CONFIG:
		return sf_dump_pm_config(d->out, &rec->pm_config);
	case SF_REC_PM_SAMPLE:
		return sf_dump_pm_sample(d->out, &d->rd.hdr, d->npm++, &rec->pm_sample);
	case SF_REC_PM_COUNTS:
		return sf_dump_pm_counts(d->out, rec->pm_count_samples, &rec->pm_counts);
	default:
		return 0;
	}
}

/* Print everything; returns an exit status, printing one line on stderr on failure. */
static int dump_run(struct dump_ctx *d)
{
	struct sf_record rec;
	int ret;

	if (strcmp(d->path, "-") == 0)
		ret = sf_reader_open_stream(&d->rd, stdin, "(standard input)");
	else
		ret = sf_reader_open(&d->rd, d->path);
	if (ret < 0)
		goto fail;
	if (sf_dump_header(d->out, &d->rd.hdr))
		goto out_err;
	while ((ret = sf_reader_next_record(&d->rd, &rec)) > 0)
		if (dump_record(d, &rec))
			goto out_err;
	if (ret < 0)
		goto fail;
	if (sf_dump_trailer(d->out, &d->rd.trailer) || fflush(d->out) || ferror(d->out))
		goto out_err;
	sf_reader_close(&d->rd);
	return TIPROF_EXIT_OK;
fail:
	fflush(d->out);
	fprintf(stderr, "tiprof dump: %s\n", sf_reader_error(&d->rd));
	sf_reader_close(&d->rd);
	return TIPROF_EXIT_FAIL;
out_err:
	fprintf(stderr, "tiprof dump: cannot write the dump to standard output\n");
	sf_reader_close(&d->rd);
	return TIPROF_EXIT_FAIL;
}

static const struct opt_use dump_uses[] = {
	{ OPT_INPUT, "the sample file (default tiprof.tps; '-': standard input)" },
	{ OPT_END, NULL }
};
const struct opt_set opt_set_dump = { "dump", dump_uses, "dump" };

/* Contract in tiprof.h: `tiprof dump [FILE]`. */
int cmd_dump(int argc, char **argv)
{
	struct dump_ctx d;
	struct opt_parser p;
	int o;

	memset(&d, 0, sizeof(d));
	opt_init(&p, &opt_set_dump, argc, argv, 1);
	while ((o = opt_next(&p)) != OPT_END) {
		if (o == OPT_HELP_DONE)
			return TIPROF_EXIT_OK;
		if (o == OPT_ERROR || opt_one_file(&p, &d.path))
			return TIPROF_EXIT_USAGE;
	}
	if (!d.path)
		d.path = "tiprof.tps";
	d.out = stdout;
	return dump_run(&d);
}
