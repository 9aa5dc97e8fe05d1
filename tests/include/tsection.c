/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tsection.c - check counting in sections (see tsection.h), on tcheck.h's counting and
 * messages. Test programs are single-threaded; the counters are the test program's own
 * bookkeeping, not library state.
 */
#include <stdarg.h>
#include <stdio.h>

#include "tcheck.h"
#include "tsection.h"

static unsigned long sec_pass, sec_fail;     /* current section */
static int sec_open;                         /* a section is open */

int ts_check(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cond = tc_vcheck(cond, file, line, fmt, ap);
	va_end(ap);
	if (cond)
		sec_pass++;
	else
		sec_fail++;
	return cond;
}

int ts_check_eq(uint64_t got, uint64_t want, const char *file, int line, const char *what)
{
	return ts_check(got == want, file, line, "%s: got 0x%llx, want 0x%llx", what,
			(unsigned long long)got, (unsigned long long)want);
}

/* Print the result line of the open section, if any. */
static void section_close(void)
{
	if (!sec_open)
		return;
	if (sec_fail)
		printf("  FAILED: %lu of %lu checks\n", sec_fail, sec_pass + sec_fail);
	else
		printf("  ok: %lu checks\n", sec_pass);
	sec_open = 0;
}

void ts_section(const char *desc)
{
	section_close();
	tc_section(desc);
	sec_open = 1;
	sec_pass = sec_fail = 0;
}

void ts_note(const char *fmt, ...)
{
	va_list ap;

	printf("     ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

int ts_summary(void)
{
	section_close();
	return tc_summary();
}
