/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_perf_conv.c - test driver of sw/pm/pm_perfdata: read a sample file's ProfileMe
 * records and object records and convert them with pm_perfdata_write (what `tiprof pm
 * convert` does), so the test exercises the library alone.
 *
 * Usage: pm_perf_conv IN.tps OUT.data
 */
#include <stdio.h>
#include <stdlib.h>

#include "pm_perfdata.h"
#include "sample_file.h"

int main(int argc, char **argv)
{
	struct sf_reader r;
	struct sf_record *rec = malloc(sizeof(*rec));
	struct tiprof_pm_sample *s = NULL;
	struct sf_object *o = NULL;
	size_t n = 0, no = 0;
	char err[512];
	int ret;

	if (argc != 3 || !rec) {
		fprintf(stderr, "usage: pm_perf_conv IN.tps OUT.data\n");
		return 2;
	}
	ret = sf_reader_open(&r, argv[1]);
	while (ret == 0 && (ret = sf_reader_next_record(&r, rec)) == 1) {
		if (rec->type == SF_REC_PM_SAMPLE) {
			void *p = realloc(s, (n + 1) * sizeof(*s));

			if (!p)
				break;
			s = p;
			s[n++] = rec->pm_sample;
		} else if (rec->type == SF_REC_OBJECT) {
			void *p = realloc(o, (no + 1) * sizeof(*o));

			if (!p)
				break;
			o = p;
			o[no++] = rec->object;
		}
		ret = 0;
	}
	if (ret || !r.has_pm_config) {
		fprintf(stderr, "pm_perf_conv: %s\n", ret ? sf_reader_error(&r) : "no PM config");
		return 1;
	}
	{
		struct pm_perf_input in = { &r.hdr, &r.pm_config, s, n, o, no };

		ret = pm_perfdata_write(argv[2], &in, err, sizeof(err));
	}
	if (ret)
		fprintf(stderr, "pm_perf_conv: %s\n", err);
	sf_reader_close(&r);
	free(s);
	free(o);
	free(rec);
	return ret ? 1 : 0;
}
