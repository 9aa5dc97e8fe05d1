/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_out.c - where a command that runs a program prints its report (contract in cmd_out.h).
 */
#include "cmd_out.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Contract in cmd_out.h. */
int cmd_out_open(struct cmd_out *o, const char *path, char *err, size_t errlen)
{
	o->path = NULL;
	if (!path) {
		o->f = stderr;
		return 0;
	}
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	o->f = fopen(path, "w");
	if (!o->f) {
		snprintf(err, errlen, "cannot create the report %s: %s", path, strerror(errno));
		return -1;
	}
	o->path = path;
	return 0;
}

/* Contract in cmd_out.h. */
int cmd_out_close(struct cmd_out *o, int keep, char *err, size_t errlen)
{
	int bad;

	if (!o->f)
		return 0;
	bad = fflush(o->f) != 0 || ferror(o->f);
	if (o->path) {
		bad |= fclose(o->f) != 0;
		if (bad || !keep)
			unlink(o->path);
	}
	o->f = NULL;
	if (bad && keep) {
		snprintf(err, errlen, "cannot write the report%s%s", o->path ? " " : "",
			 o->path ? o->path : "");
		return -1;
	}
	return 0;
}
