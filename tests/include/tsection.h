/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tsection.h - check counting in sections, for test programs whose checks live in several
 * files (a test and its rig; link tests/include/tsection.c once). Counted and printed as
 * tcheck.h does ("  FAIL file:line: message", "N passed, M failed"), and every section ends
 * with its own result line ("  ok: N checks" or "  FAILED: F of N checks").
 */
#ifndef TIPROF_TSECTION_H
#define TIPROF_TSECTION_H

#include <stdint.h>

/* Count a check; on failure print file:line and the printf-style message. Returns cond. */
int ts_check(int cond, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Count a check that got == want (each evaluated once), printing both in hex on failure. */
int ts_check_eq(uint64_t got, uint64_t want, const char *file, int line, const char *what);
/* Start a named group of checks: closes the previous group (printing its result line)
 * and prints desc. */
void ts_section(const char *desc);
/* Print a free-form detail line (indented) under the current section. */
void ts_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Close the last section, print "N passed, M failed" and return the exit status. */
int ts_summary(void);

/* These count through ts_check (tcheck.h's count in the including file alone). */
#undef CHECK
#undef CHECK_EQ
#define CHECK(cond, ...) ts_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_EQ(a, b, what) ts_check_eq((uint64_t)(a), (uint64_t)(b), __FILE__, __LINE__, (what))

#endif /* TIPROF_TSECTION_H */
