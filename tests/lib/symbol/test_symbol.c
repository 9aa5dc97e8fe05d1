/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_symbol.c - tests of lib/symbol (code_map, elf_image, srcline) on real static RISC-V
 * ELFs, with binutils as the independent oracle (run.sh writes what readelf, objdump and
 * addr2line say about each ELF into OUTDIR/NAME/):
 *   code map: its functions are the FUNC symbols with a size; code_map_func and
 *     code_map_key at every instruction and at the first, middle and last byte of every
 *     function and just before and after it; the basic-block leaders are exactly the set
 *     objdump's disassembly implies (executable section starts, function starts, static
 *     branch and jump targets, the instruction after every control transfer), and
 *     code_map_block of every instruction is the last leader at or before it; a stripped
 *     ELF has the same blocks without functions;
 *   ELF image: the PT_LOAD segments, the bytes of every instruction, the GNU build-id;
 *   source lines: addr2line's file and line for every byte of the DWARF address ranges
 *     and for a spread of instructions without lines; an ELF without DWARF is refused;
 * and bad input (built with AddressSanitizer/UBSan: a crash or an overflow fails the run):
 * a missing, empty or text file, a directory, a 32-bit ELF (the code map refuses it, the
 * ELF image reads it), a big-endian or non-RISC-V ELF, every prefix of the small ELFs and
 * a spread of prefixes of a large one, header fields set to extreme values, random bytes.
 *
 * Usage: test_symbol OUTDIR NAME...   (see run.sh for the files under OUTDIR/NAME/)
 */
#include <elf.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "code_map.h"
#include "elf_build_id.h"
#include "elf_image.h"
#include "srcline.h"
#include "tcheck.h"

/* ---------------------------------------------------------------- helpers */

static const char *outdir;	/* OUTDIR */

/* Up to 5 details of a failed property are printed, then "...". */
static unsigned long note_n;

static void __attribute__((format(printf, 1, 2))) note(const char *fmt, ...)
{
	va_list ap;

	if (note_n++ >= 5) {
		if (note_n == 6)
			printf("    ...\n");
		return;
	}
	printf("    ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "test_symbol: out of memory\n");
		exit(2);
	}
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "test_symbol: out of memory\n");
		exit(2);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

/* Read a whole file into a malloc'd buffer; *n receives its length. */
static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *p = NULL;
	long len;

	*n = 0;
	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0) {
		p = xmalloc((size_t)len + 1);
		if (fread(p, 1, (size_t)len, fp) == (size_t)len) {
			*n = (size_t)len;
		} else {
			free(p);
			p = NULL;
		}
	}
	fclose(fp);
	return p;
}

/* Write a new file (unlinked first: rewriting a truncated file in place makes ext4 flush it
 * on close, thousands of times here). */
static int spit(const char *path, const void *p, size_t n)
{
	FILE *fp;
	int ok;

	unlink(path);
	fp = fopen(path, "wb");

	if (!fp)
		return -1;
	ok = fwrite(p, 1, n, fp) == n;
	return fclose(fp) == 0 && ok ? 0 : -1;
}

/* A message is one line that names path. */
static int one_line_naming(const char *msg, const char *path)
{
	return msg[0] && !strchr(msg, '\n') && strstr(msg, path);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort and remove duplicates; returns the new length. */
static size_t sort_unique(uint64_t *v, size_t n)
{
	size_t k = 0;

	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	return k;
}

/* ---------------------------------------------------------------- the oracle */

struct ofunc {
	uint64_t start, end;	/* [start, end) */
	char *name;
};

struct oinsn {
	uint64_t addr;
	uint32_t word;		/* little-endian value, as objdump prints it */
	unsigned len;		/* 2 or 4 bytes */
	char kind;		/* 'T' static target, 'I' indirect, '-' none */
	uint64_t target;	/* kind 'T' */
};

struct oline {
	uint64_t addr;
	char *file;		/* "??": no line */
	int line;
};

struct oseg {
	uint64_t vaddr, filesz;
};

/* What binutils says about one ELF (OUTDIR/NAME/). */
struct oracle {
	char dir[512];		/* OUTDIR/NAME */
	char elf[600];		/* OUTDIR/NAME/elf */
	const char *name;
	int elf64;
	struct ofunc *func;
	size_t nfunc;
	uint64_t *maxend;	/* maxend[i]: largest end of func[0..i] (sorted by start) */
	struct oinsn *insn;
	size_t ninsn;
	struct oseg *sect, *load;	/* executable sections (addr, size), PT_LOADs */
	size_t nsect, nload;
	char buildid[2 * ELF_IMAGE_BUILD_ID_MAX + 1];
	struct oline *line;
	size_t nline;
};

static int cmp_func(const void *a, const void *b)
{
	const struct ofunc *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Open OUTDIR/NAME/file; exits if it is missing (run.sh writes every one). */
static FILE *oracle_file(const struct oracle *o, const char *file)
{
	char path[700];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", o->dir, file);
	fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "test_symbol: cannot read %s (run the test through run.sh)\n", path);
		exit(2);
	}
	return fp;
}

static void oracle_load(struct oracle *o, const char *name)
{
	char buf[4096], s1[4096], s2[64], s3[64], s4[64];
	size_t cap;
	FILE *fp;

	memset(o, 0, sizeof(*o));
	o->name = name;
	snprintf(o->dir, sizeof(o->dir), "%s/%s", outdir, name);
	snprintf(o->elf, sizeof(o->elf), "%s/elf", o->dir);

	fp = oracle_file(o, "class");
	o->elf64 = fgets(buf, sizeof(buf), fp) && strncmp(buf, "ELF64", 5) == 0;
	fclose(fp);

	fp = oracle_file(o, "funcs");
	for (cap = 0; fgets(buf, sizeof(buf), fp);) {
		if (sscanf(buf, "%63s %63s %4095s", s2, s3, s1) != 3)
			continue;
		if (o->nfunc == cap)
			o->func = xrealloc(o->func, (cap = 2 * cap + 64) * sizeof(*o->func));
		o->func[o->nfunc].start = strtoull(s2, NULL, 16);
		o->func[o->nfunc].end = o->func[o->nfunc].start + strtoull(s3, NULL, 0);
		o->func[o->nfunc].name = xstrdup(s1);
		o->nfunc++;
	}
	fclose(fp);
	qsort(o->func, o->nfunc, sizeof(*o->func), cmp_func);
	o->maxend = xmalloc(o->nfunc * sizeof(*o->maxend));
	for (size_t i = 0; i < o->nfunc; i++)
		o->maxend[i] = i && o->maxend[i - 1] > o->func[i].end ? o->maxend[i - 1] :
			       o->func[i].end;

	fp = oracle_file(o, "insns");
	for (cap = 0; fgets(buf, sizeof(buf), fp);) {
		struct oinsn *in;

		if (sscanf(buf, "%63s %63s %63s %63s", s1, s2, s3, s4) != 4)
			continue;
		if (o->ninsn == cap)
			o->insn = xrealloc(o->insn, (cap = 2 * cap + 1024) * sizeof(*o->insn));
		in = &o->insn[o->ninsn++];
		in->addr = strtoull(s1, NULL, 16);
		in->word = (uint32_t)strtoul(s2, NULL, 16);
		in->len = (unsigned)strlen(s2) / 2;
		in->kind = s3[0];
		in->target = in->kind == 'T' ? strtoull(s4, NULL, 16) : 0;
	}
	fclose(fp);

	fp = oracle_file(o, "sections");
	for (cap = 0; fgets(buf, sizeof(buf), fp);) {
		if (sscanf(buf, "%63s %63s", s2, s3) != 2)
			continue;
		if (o->nsect == cap)
			o->sect = xrealloc(o->sect, (cap = 2 * cap + 8) * sizeof(*o->sect));
		o->sect[o->nsect].vaddr = strtoull(s2, NULL, 16);
		o->sect[o->nsect++].filesz = strtoull(s3, NULL, 16);
	}
	fclose(fp);

	fp = oracle_file(o, "loads");
	for (cap = 0; fgets(buf, sizeof(buf), fp);) {
		if (sscanf(buf, "%63s %63s", s2, s3) != 2)
			continue;
		if (o->nload == cap)
			o->load = xrealloc(o->load, (cap = 2 * cap + 8) * sizeof(*o->load));
		o->load[o->nload].vaddr = strtoull(s2, NULL, 16);
		o->load[o->nload++].filesz = strtoull(s3, NULL, 16);
	}
	fclose(fp);

	fp = oracle_file(o, "buildid");
	if (!fgets(buf, sizeof(buf), fp) || sscanf(buf, "%128s", o->buildid) != 1)
		o->buildid[0] = 0;
	fclose(fp);

	fp = oracle_file(o, "lines");
	for (cap = 0; fgets(buf, sizeof(buf), fp);) {
		int line;

		if (sscanf(buf, "%63s %4095s %d", s2, s1, &line) != 3)
			continue;
		if (o->nline == cap)
			o->line = xrealloc(o->line, (cap = 2 * cap + 256) * sizeof(*o->line));
		o->line[o->nline].addr = strtoull(s2, NULL, 16);
		o->line[o->nline].file = xstrdup(s1);
		o->line[o->nline++].line = line;
	}
	fclose(fp);
}

static void oracle_free(struct oracle *o)
{
	for (size_t i = 0; i < o->nfunc; i++)
		free(o->func[i].name);
	for (size_t i = 0; i < o->nline; i++)
		free(o->line[i].file);
	free(o->func);
	free(o->maxend);
	free(o->insn);
	free(o->sect);
	free(o->load);
	free(o->line);
}

/* Is addr inside some function (per the oracle)? */
static int covered(const struct oracle *o, uint64_t addr)
{
	size_t lo = 0, hi = o->nfunc;

	while (lo < hi) {	/* functions starting at or before addr: [0, lo) */
		size_t mid = (lo + hi) / 2;

		if (o->func[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && o->maxend[lo - 1] > addr;
}

/* The leaders the disassembly implies, sorted and unique (function starts if with_funcs). */
static size_t expected_leaders(const struct oracle *o, int with_funcs, uint64_t **out)
{
	uint64_t *v = xmalloc((o->nsect + o->nfunc + 2 * o->ninsn) * sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < o->nsect; i++)
		v[n++] = o->sect[i].vaddr;
	for (size_t i = 0; with_funcs && i < o->nfunc; i++)
		v[n++] = o->func[i].start;
	for (size_t i = 0; i < o->ninsn; i++) {
		if (o->insn[i].kind == 'T')
			v[n++] = o->insn[i].target;
		if (o->insn[i].kind != '-')
			v[n++] = o->insn[i].addr + o->insn[i].len;
	}
	*out = v;
	return sort_unique(v, n);
}

/* ---------------------------------------------------------------- code map */

/* code_map_func and code_map_key(LEVEL_FUNCTION) at addr agree with the oracle. */
static void probe_func(const struct oracle *o, const struct code_map *m, uint64_t addr,
		       unsigned long *bad)
{
	long k = code_map_func(m, addr);
	uint64_t key = code_map_key(m, addr, LEVEL_FUNCTION);

	if (covered(o, addr)) {
		if (k < 0 || (size_t)k >= m->nfunc || m->func[k].start > addr ||
		    addr >= m->func[k].end || key != m->func[k].start) {
			note("%s: 0x%llx is in a function; code_map_func gives %ld, key 0x%llx",
			     o->name, (unsigned long long)addr, k, (unsigned long long)key);
			++*bad;
		}
	} else if (k != -1 || key != CODE_MAP_UNKNOWN) {
		note("%s: 0x%llx is in no function; code_map_func gives %ld, key 0x%llx", o->name,
		     (unsigned long long)addr, k, (unsigned long long)key);
		++*bad;
	}
}

/* The leaders of m equal the expected set exps[0..nexp). */
static void check_leaders(const struct oracle *o, const struct code_map *m, const uint64_t *exp,
			  size_t nexp, const char *what)
{
	size_t i = 0, j = 0;
	unsigned long bad = 0;

	note_n = 0;
	while (i < m->nleader || j < nexp) {	/* merge: report what is in one set only */
		if (j == nexp || (i < m->nleader && m->leader[i] < exp[j])) {
			note("%s: leader 0x%llx is no section or function start, target, or "
			     "instruction after a control transfer", o->name,
			     (unsigned long long)m->leader[i]);
			i++;
			bad++;
		} else if (i == m->nleader || exp[j] < m->leader[i]) {
			note("%s: 0x%llx should be a block leader", o->name,
			     (unsigned long long)exp[j]);
			j++;
			bad++;
		} else {
			i++;
			j++;
		}
	}
	CHECK(bad == 0, "%s: %s: %zu leaders, %zu expected, %lu differences", o->name, what,
	      m->nleader, nexp, bad);
}

/* code_map_block and code_map_key(LEVEL_BLOCK) of every instruction: the last expected
 * leader at or before it; also code_map_key(LEVEL_INSTRUCTION). */
static void check_blocks(const struct oracle *o, const struct code_map *m, const uint64_t *exp,
			 size_t nexp, const char *what)
{
	unsigned long bad = 0, targets = 0, tbad = 0;

	note_n = 0;
	for (size_t i = 0; i < o->ninsn; i++) {
		uint64_t a = o->insn[i].addr, want, got;
		size_t lo = 0, hi = nexp;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (exp[mid] <= a)
				lo = mid + 1;
			else
				hi = mid;
		}
		want = lo ? exp[lo - 1] : a;
		got = code_map_block(m, a);
		if (got != want || code_map_key(m, a, LEVEL_BLOCK) != want ||
		    code_map_key(m, a, LEVEL_INSTRUCTION) != a) {
			note("%s: block of 0x%llx is 0x%llx, want 0x%llx", o->name,
			     (unsigned long long)a, (unsigned long long)got,
			     (unsigned long long)want);
			bad++;
		}
		/* every static target inside the code starts a block */
		if (o->insn[i].kind == 'T' && o->insn[i].target >= m->text_lo &&
		    o->insn[i].target < m->text_hi) {
			targets++;
			if (code_map_block(m, o->insn[i].target) != o->insn[i].target) {
				note("%s: target 0x%llx of 0x%llx does not start a block", o->name,
				     (unsigned long long)o->insn[i].target, (unsigned long long)a);
				tbad++;
			}
		}
	}
	CHECK(bad == 0, "%s: %s: code_map_block of %zu instructions: %lu wrong", o->name, what,
	      o->ninsn, bad);
	CHECK(targets > 0 && tbad == 0, "%s: %s: %lu branch/jump targets start a block: %lu do not",
	      o->name, what, targets, tbad);
}

static void test_code_map(const struct oracle *o)
{
	struct code_map m;
	char err[512] = "", path[700];
	uint64_t *exp, lo = UINT64_MAX, hi = 0;
	size_t nexp;
	unsigned long bad = 0, probes = 0;
	int rc = code_map_load(&m, o->elf, err, sizeof(err));

	if (!o->elf64) {	/* ELF32: refused with a reason */
		CHECK(rc == -1 && one_line_naming(err, o->elf) && strstr(err, "64-bit"),
		      "%s: code_map_load refuses a 32-bit ELF (rc %d, \"%s\")", o->name, rc, err);
		CHECK(m.func == NULL && m.leader == NULL && m.nfunc == 0,
		      "%s: a refused code map is empty", o->name);
		return;
	}
	if (!CHECK(rc == 0, "%s: code_map_load: %s", o->name, err))
		return;

	/* functions: exactly the FUNC symbols with a size */
	note_n = 0;
	if (CHECK(m.nfunc == o->nfunc, "%s: %zu functions, readelf lists %zu", o->name, m.nfunc,
		  o->nfunc)) {
		struct ofunc *got = xmalloc(m.nfunc * sizeof(*got));

		for (size_t i = 0; i < m.nfunc; i++) {
			got[i].start = m.func[i].start;
			got[i].end = m.func[i].end;
			got[i].name = (char *)(m.func[i].name ? m.func[i].name : "(null)");
			if (i && m.func[i].start < m.func[i - 1].start)
				bad++;
		}
		CHECK(bad == 0, "%s: functions sorted by start", o->name);
		qsort(got, m.nfunc, sizeof(*got), cmp_func);
		bad = 0;
		for (size_t i = 0; i < m.nfunc; i++) {
			if (cmp_func(&got[i], &o->func[i])) {
				note("%s: function %s [0x%llx, 0x%llx), readelf: %s [0x%llx, 0x%llx)",
				     o->name, got[i].name, (unsigned long long)got[i].start,
				     (unsigned long long)got[i].end, o->func[i].name,
				     (unsigned long long)o->func[i].start,
				     (unsigned long long)o->func[i].end);
				bad++;
			}
		}
		CHECK(bad == 0, "%s: functions (start, end, name) equal readelf's: %lu differ",
		      o->name, bad);
		free(got);
	}

	/* code_map_func at the edges of every function and at every instruction */
	note_n = 0;
	bad = 0;
	for (size_t i = 0; i < o->nfunc; i++) {
		const struct ofunc *f = &o->func[i];
		uint64_t at[5] = { f->start, f->start + (f->end - f->start) / 2, f->end - 1, f->end,
				   f->start - 1 };

		for (int k = 0; k < 5; k++, probes++)
			probe_func(o, &m, at[k], &bad);
	}
	for (size_t i = 0; i < o->ninsn; i++, probes++)
		probe_func(o, &m, o->insn[i].addr, &bad);
	probe_func(o, &m, 0, &bad);
	probe_func(o, &m, UINT64_MAX, &bad);
	CHECK(bad == 0, "%s: code_map_func and its key at %lu addresses: %lu wrong", o->name,
	      probes, bad);

	/* the executable range */
	for (size_t i = 0; i < o->nsect; i++) {
		if (o->sect[i].vaddr < lo)
			lo = o->sect[i].vaddr;
		if (o->sect[i].vaddr + o->sect[i].filesz > hi)
			hi = o->sect[i].vaddr + o->sect[i].filesz;
	}
	CHECK(o->nsect > 0 && m.text_lo == lo && m.text_hi == hi,
	      "%s: text [0x%llx, 0x%llx), sections [0x%llx, 0x%llx)", o->name,
	      (unsigned long long)m.text_lo, (unsigned long long)m.text_hi,
	      (unsigned long long)lo, (unsigned long long)hi);
	CHECK(code_map_block(&m, lo - 1) == lo - 1 && code_map_block(&m, hi) == hi &&
	      code_map_block(&m, 0) == 0 && code_map_block(&m, UINT64_MAX) == UINT64_MAX,
	      "%s: code_map_block outside the code is the address itself", o->name);

	/* basic blocks */
	nexp = expected_leaders(o, 1, &exp);
	check_leaders(o, &m, exp, nexp, "full ELF");
	check_blocks(o, &m, exp, nexp, "full ELF");
	free(exp);
	code_map_free(&m);
	CHECK(m.func == NULL && m.leader == NULL && m.strtab == NULL && m.nfunc == 0 &&
	      m.nleader == 0, "%s: code_map_free empties the map", o->name);
	code_map_free(&m);	/* twice is fine */

	/* without symbols: no functions, the same blocks but for function entries */
	snprintf(path, sizeof(path), "%s/stripped", o->dir);
	rc = code_map_load(&m, path, err, sizeof(err));
	if (CHECK(rc == 0, "%s: code_map_load of the stripped ELF: %s", o->name, err)) {
		uint64_t f0 = o->nfunc ? o->func[0].start : m.text_lo;

		CHECK(m.nfunc == 0 && code_map_func(&m, f0) == -1 &&
		      code_map_key(&m, f0, LEVEL_FUNCTION) == CODE_MAP_UNKNOWN,
		      "%s: stripped: no functions (%zu)", o->name, m.nfunc);
		nexp = expected_leaders(o, 0, &exp);
		check_leaders(o, &m, exp, nexp, "stripped ELF");
		check_blocks(o, &m, exp, nexp, "stripped ELF");
		free(exp);
		code_map_free(&m);
	}
	/* without DWARF: the same functions */
	snprintf(path, sizeof(path), "%s/nodebug", o->dir);
	rc = code_map_load(&m, path, err, sizeof(err));
	CHECK(rc == 0 && m.nfunc == o->nfunc, "%s: ELF without DWARF: %zu functions (%s)", o->name,
	      m.nfunc, rc ? err : "loaded");
	code_map_free(&m);
}

/* ---------------------------------------------------------------- ELF image */

/* The loaded image matches the oracle's segments and build-id. */
static void check_image(const struct oracle *o, const struct elf_image *im, const char *what)
{
	char hex[2 * ELF_IMAGE_BUILD_ID_MAX + 1];
	size_t n = 0, bad = 0;

	for (size_t i = 0; i < o->nload; i++) {
		if (!o->load[i].filesz)
			continue;
		if (n < im->nseg && (im->seg[n].vaddr != o->load[i].vaddr ||
				     im->seg[n].size != o->load[i].filesz))
			bad++;
		n++;
	}
	CHECK(n == im->nseg && bad == 0, "%s: %s: %zu PT_LOAD segments (%zu differ), readelf: %zu",
	      o->name, what, im->nseg, bad, n);
	elf_image_hex(im->build_id, im->build_id_len, hex, sizeof(hex));
	CHECK(strcmp(hex, o->buildid) == 0 && im->build_id_len == strlen(o->buildid) / 2,
	      "%s: %s: build-id %s, readelf: %s", o->name, what, hex, o->buildid);
}

static void test_elf_image(const struct oracle *o)
{
	struct elf_image im;
	char err[512] = "", path[700];
	unsigned long bad = 0;
	uint8_t buf[16];
	int rc = elf_image_load(&im, o->elf, err, sizeof(err));

	if (!CHECK(rc == 0, "%s: elf_image_load: %s", o->name, err))
		return;
	check_image(o, &im, "full ELF");

	/* the bytes of every instruction */
	note_n = 0;
	for (size_t i = 0; i < o->ninsn; i++) {
		const struct oinsn *in = &o->insn[i];
		size_t got = elf_image_read(&im, in->addr, buf, in->len);
		uint32_t w = 0;

		for (size_t k = 0; k < got && k < 4; k++)
			w |= (uint32_t)buf[k] << (8 * k);
		if (got != in->len || w != in->word) {
			note("%s: %zu bytes 0x%x at 0x%llx, objdump: %u bytes 0x%x", o->name, got,
			     w, (unsigned long long)in->addr, in->len, in->word);
			bad++;
		}
	}
	CHECK(o->ninsn > 0 && bad == 0, "%s: elf_image_read of %zu instructions: %lu wrong",
	      o->name, o->ninsn, bad);

	/* reads stop at the end of a segment; no segment, no bytes */
	bad = 0;
	for (size_t i = 0; i < im.nseg; i++) {
		const struct elf_seg *s = &im.seg[i];
		uint64_t last = s->vaddr + s->size - 1;
		int other = 0;

		memset(buf, 0xA5, sizeof(buf));
		if (elf_image_read(&im, last, buf, sizeof(buf)) != 1 ||
		    buf[0] != s->data[s->size - 1] || buf[1] != 0xA5)
			bad++;
		for (size_t k = 0; k < im.nseg; k++)
			other |= last + 1 >= im.seg[k].vaddr &&
				 last + 1 - im.seg[k].vaddr < im.seg[k].size;
		if (!other && elf_image_read(&im, last + 1, buf, sizeof(buf)) != 0)
			bad++;
		if (elf_image_read(&im, s->vaddr, buf, 0) != 0)
			bad++;
	}
	CHECK(im.nseg > 0 && bad == 0, "%s: reads at segment ends: %lu wrong", o->name, bad);
	CHECK(elf_image_read(&im, 0, buf, sizeof(buf)) == 0 &&
	      elf_image_read(&im, UINT64_MAX, buf, sizeof(buf)) == 0,
	      "%s: reads outside every segment give nothing", o->name);
	elf_image_free(&im);
	CHECK(im.seg == NULL && im.nseg == 0 && im.build_id_len == 0,
	      "%s: elf_image_free empties the image", o->name);
	elf_image_free(&im);

	/* stripping keeps segments and build-id */
	snprintf(path, sizeof(path), "%s/stripped", o->dir);
	rc = elf_image_load(&im, path, err, sizeof(err));
	if (CHECK(rc == 0, "%s: elf_image_load of the stripped ELF: %s", o->name, err))
		check_image(o, &im, "stripped ELF");
	elf_image_free(&im);

	/* elf_build_id (no libelf: tiprof record on a board) reads the same build-id as readelf */
	{
		uint8_t id[64];
		char hex[160];
		int n = elf_build_id(o->elf, id, sizeof(id));

		if (o->elf64) {
			elf_image_hex(id, n > 0 ? (size_t)n : 0, hex, sizeof(hex));
			CHECK(n == (int)(strlen(o->buildid) / 2) && strcmp(hex, o->buildid) == 0,
			      "%s: elf_build_id: %d bytes %s, readelf: %s", o->name, n, hex,
			      o->buildid);
			CHECK(elf_build_id(path, id, sizeof(id)) == n,
			      "%s: elf_build_id of the stripped ELF", o->name);
			CHECK(n <= 0 || elf_build_id(o->elf, id, (size_t)n - 1) == 0,
			      "%s: elf_build_id: a build-id longer than the buffer gives 0", o->name);
		} else {
			CHECK(n == -1, "%s: elf_build_id refuses an ELF32 file (%d)", o->name, n);
		}
	}
}

static void test_hex(void)
{
	static const uint8_t id[4] = { 0x00, 0xab, 0x7f, 0xff };
	char out[16];

	tc_section("elf_image_hex");
	elf_image_hex(id, 4, out, sizeof(out));
	CHECK(strcmp(out, "00ab7fff") == 0, "hex of 4 bytes: %s", out);
	elf_image_hex(id, 0, out, sizeof(out));
	CHECK(out[0] == 0, "hex of nothing is empty");
	memset(out, 'x', sizeof(out));
	elf_image_hex(id, 4, out, 5);	/* room for 2 bytes and the NUL */
	CHECK(strcmp(out, "00ab") == 0 && out[5] == 'x', "hex truncated to 5 bytes: %.5s", out);
	memset(out, 'x', sizeof(out));
	elf_image_hex(id, 4, out, 4);	/* 1.5 bytes of room: whole bytes only */
	CHECK(strcmp(out, "00") == 0 && out[4] == 'x', "hex truncated to 4 bytes: %.4s", out);
	memset(out, 'x', sizeof(out));
	elf_image_hex(id, 4, out, 1);
	CHECK(out[0] == 0 && out[1] == 'x', "hex into 1 byte is empty");
	memset(out, 'x', sizeof(out));
	elf_image_hex(id, 4, out, 0);
	CHECK(out[0] == 'x', "hex into 0 bytes writes nothing");
}

/* ---------------------------------------------------------------- source lines */

static void test_srcline(const struct oracle *o)
{
	char err[512] = "", path[700];
	unsigned long bad = 0, with = 0;
	struct srcline *sl = srcline_open(o->elf, err, sizeof(err));

	if (!CHECK(sl != NULL, "%s: srcline_open: %s", o->name, err))
		return;
	note_n = 0;
	for (size_t i = 0; i < o->nline; i++) {
		const struct oline *l = &o->line[i];
		const char *file = NULL;
		int line = -1, rc = srcline_find(sl, l->addr, &file, &line);

		if (strcmp(l->file, "??") == 0) {
			if (rc != -1) {
				note("%s: 0x%llx: %s:%d, addr2line: no line", o->name,
				     (unsigned long long)l->addr, file, line);
				bad++;
			}
			continue;
		}
		with++;
		if (rc != 0 || strcmp(file, l->file) || line != l->line) {
			note("%s: 0x%llx: %s:%d (rc %d), addr2line: %s:%d", o->name,
			     (unsigned long long)l->addr, rc ? "-" : file, line, rc, l->file,
			     l->line);
			bad++;
		}
	}
	CHECK(with >= 64 && bad == 0,
	      "%s: srcline_find at %zu addresses (%lu with a line) equals addr2line: %lu differ",
	      o->name, o->nline, with, bad);
	srcline_close(sl);

	/* no DWARF: refused with a reason naming the file */
	snprintf(path, sizeof(path), "%s/nodebug", o->dir);
	err[0] = 0;
	sl = srcline_open(path, err, sizeof(err));
	CHECK(!sl && one_line_naming(err, path), "%s: srcline_open refuses an ELF without DWARF (%s)",
	      o->name, err);
	srcline_close(sl);
}

/* ---------------------------------------------------------------- bad input */

/* Load path with all three readers: a failure comes with a one-line reason naming path and
 * leaves nothing behind; a success is used (every address of the first 64 KB of code, the
 * lines of a few addresses) so that a corrupt structure it kept would show under ASan.
 * Returns a bit mask: 1 code map loaded, 2 ELF image loaded, 4 DWARF opened; or -1 if a
 * contract was broken (printed). */
static int load_all(const char *path, const char *what)
{
	struct code_map m;
	struct elf_image im;
	struct srcline *sl;
	char err[512];
	int mask = 0, broken = 0;
	uint8_t id[20];
	int idn = elf_build_id(path, id, sizeof(id));	/* copes (sanitized): -1, 0 or a length */

	if (idn < -1 || idn > (int)sizeof(id)) {
		printf("    %s: elf_build_id returned %d\n", what, idn);
		return -1;
	}
	err[0] = 0;
	if (code_map_load(&m, path, err, sizeof(err)) == 0) {
		for (size_t i = 1; i < m.nleader; i++)
			broken |= m.leader[i] <= m.leader[i - 1];
		for (size_t i = 0; i < m.nfunc; i++)
			broken |= !m.func[i].name || (i && m.func[i].start < m.func[i - 1].start);
		for (uint64_t a = m.text_lo; a < m.text_hi && a - m.text_lo < 65536; a++) {
			long k = code_map_func(&m, a);

			broken |= code_map_block(&m, a) > a;
			broken |= k >= 0 && (m.func[k].start > a || a >= m.func[k].end);
		}
		code_map_free(&m);
		mask |= 1;
	} else {
		broken |= !one_line_naming(err, path) || m.func || m.leader || m.strtab;
	}
	if (broken) {
		printf("    %s: code map broken (%s)\n", what, err);
		return -1;
	}
	err[0] = 0;
	if (elf_image_load(&im, path, err, sizeof(err)) == 0) {
		uint8_t buf[8];

		for (size_t i = 0; i < im.nseg; i++)
			for (uint64_t k = 0; k < im.seg[i].size && k < 4096 &&
			     im.seg[i].vaddr + k >= im.seg[i].vaddr; k += 7)	/* no wrap */
				broken |= elf_image_read(&im, im.seg[i].vaddr + k, buf, 8) == 0;
		broken |= im.build_id_len > ELF_IMAGE_BUILD_ID_MAX;
		elf_image_free(&im);
		mask |= 2;
	} else {
		broken |= !one_line_naming(err, path) || im.seg || im.nseg;
	}
	if (broken) {
		printf("    %s: ELF image broken (%s)\n", what, err);
		return -1;
	}
	err[0] = 0;
	sl = srcline_open(path, err, sizeof(err));
	if (sl) {
		const char *file;
		int line;

		for (uint64_t a = 0x10000; a < 0x10400; a += 2)
			if (srcline_find(sl, a, &file, &line) == 0)
				broken |= !file;
		srcline_close(sl);
		mask |= 4;
	} else {
		broken |= !one_line_naming(err, path);
	}
	if (broken) {
		printf("    %s: DWARF reader broken (%s)\n", what, err);
		return -1;
	}
	return mask;
}

static void test_bad_files(const struct oracle *tiny)
{
	char path[700], err[512];
	struct code_map m;
	struct elf_image im;
	uint8_t *elf;
	size_t len;

	tc_section("bad files: missing, directory, empty, text, other ELFs");
	snprintf(path, sizeof(path), "%s/tmp/missing", outdir);
	CHECK(load_all(path, "missing") == 0, "a missing file is refused by all three");
	code_map_load(&m, path, err, sizeof(err));
	CHECK(strstr(err, "cannot open") != NULL, "missing file: \"%s\"", err);

	snprintf(path, sizeof(path), "%s/tmp", outdir);
	CHECK(load_all(path, "directory") == 0, "a directory is refused by all three");
	code_map_load(&m, path, err, sizeof(err));
	CHECK(strstr(err, "not a regular file") != NULL, "directory: \"%s\"", err);

	snprintf(path, sizeof(path), "%s/tmp/empty", outdir);
	spit(path, "", 0);
	CHECK(load_all(path, "empty") == 0, "an empty file is refused by all three");
	code_map_load(&m, path, err, sizeof(err));
	CHECK(strstr(err, "empty") != NULL, "empty file (code map): \"%s\"", err);
	elf_image_load(&im, path, err, sizeof(err));
	CHECK(strstr(err, "empty") != NULL, "empty file (ELF image): \"%s\"", err);

	snprintf(path, sizeof(path), "%s/tmp/text", outdir);
	spit(path, "#!/bin/sh\necho this is no ELF file at all, but long enough to be read\n", 70);
	CHECK(load_all(path, "text") == 0, "a text file is refused by all three");
	code_map_load(&m, path, err, sizeof(err));
	CHECK(strstr(err, "not a 64-bit") != NULL, "text file (code map): \"%s\"", err);
	elf_image_load(&im, path, err, sizeof(err));
	CHECK(strstr(err, "not an ELF") != NULL, "text file (ELF image): \"%s\"", err);

	elf = slurp(tiny->elf, &len);
	if (!CHECK(elf && len > sizeof(Elf64_Ehdr), "read %s", tiny->elf))
		return;
	snprintf(path, sizeof(path), "%s/tmp/patched", outdir);

	elf[EI_DATA] = ELFDATA2MSB;	/* big-endian: e_machine reads 0xf300 */
	spit(path, elf, len);
	CHECK(code_map_load(&m, path, err, sizeof(err)) == -1 && strstr(err, "little-endian"),
	      "big-endian ELF refused by the code map: \"%s\"", err);
	CHECK(elf_image_load(&im, path, err, sizeof(err)) == -1 && strstr(err, "RISC-V"),
	      "big-endian ELF refused by the ELF image: \"%s\"", err);
	CHECK(load_all(path, "big-endian") >= 0, "big-endian ELF: no reader breaks");
	elf[EI_DATA] = ELFDATA2LSB;

	elf[EI_CLASS] = ELFCLASS32;	/* 64-bit headers read as 32-bit ones */
	spit(path, elf, len);
	CHECK(code_map_load(&m, path, err, sizeof(err)) == -1 && strstr(err, "64-bit"),
	      "ELF64 marked ELFCLASS32 refused by the code map: \"%s\"", err);
	CHECK(load_all(path, "class 32") >= 0, "ELF64 marked ELFCLASS32: no reader breaks");
	elf[EI_CLASS] = ELFCLASS64;

	elf[18] = EM_X86_64;	/* e_machine, little-endian */
	spit(path, elf, len);
	CHECK(code_map_load(&m, path, err, sizeof(err)) == -1 && strstr(err, "not a RISC-V"),
	      "x86-64 ELF refused by the code map: \"%s\"", err);
	CHECK(elf_image_load(&im, path, err, sizeof(err)) == -1 && strstr(err, "not a RISC-V"),
	      "x86-64 ELF refused by the ELF image: \"%s\"", err);
	elf[18] = EM_RISCV;

	elf[1] = 'e';		/* magic */
	spit(path, elf, len);
	CHECK(load_all(path, "bad magic") == 0, "bad ELF magic refused by all three");
	elf[1] = 'E';

	spit(path, elf, len);	/* the copy itself is fine */
	CHECK(load_all(path, "copy") == 7, "the unpatched copy loads in all three");
	free(elf);
}

/* The prefix length after n (see test_truncation). */
static size_t next_len(size_t n, size_t len, size_t every_below, size_t stride, size_t tail)
{
	if (n + 1 < every_below || n + 1 + tail >= len)
		return n + 1;
	return n + stride < len - tail ? n + stride : len - tail;
}

/* Prefixes of o's ELF: every length below every_below, then every stride-th, then every
 * length within tail of the end. Code map and ELF image must refuse each (the section
 * headers are at the end of the file), the DWARF reader must not break. The file is
 * written once and cut shorter and shorter (truncate() is cheap, rewriting is not). */
static void test_truncation(const struct oracle *o, size_t every_below, size_t stride,
			    size_t tail)
{
	char path[700], what[64];
	size_t len, tried = 0, bad = 0, nlen = 0, *lens;
	uint8_t *elf = slurp(o->elf, &len);

	if (!CHECK(elf != NULL, "read %s", o->elf))
		return;
	lens = xmalloc(len * sizeof(*lens));
	for (size_t n = 0; n < len; n = next_len(n, len, every_below, stride, tail))
		lens[nlen++] = n;
	snprintf(path, sizeof(path), "%s/tmp/prefix", outdir);
	if (!CHECK(spit(path, elf, len) == 0, "write %s", path))
		nlen = 0;
	while (nlen--) {
		size_t n = lens[nlen];
		int mask;

		if (truncate(path, (off_t)n)) {
			CHECK(0, "cannot truncate %s", path);
			break;
		}
		snprintf(what, sizeof(what), "%s cut to %zu bytes", o->name, n);
		mask = load_all(path, what);
		tried++;
		if (mask < 0 || (mask & 3)) {
			if (mask > 0)
				printf("    %s: %s loads\n", what,
				       mask & 1 ? "code map" : "ELF image");
			if (++bad > 5)
				break;
		}
	}
	CHECK(tried > 0 && bad == 0, "%s: %zu prefixes of %zu bytes refused by code map and ELF "
	      "image, no reader breaks: %zu wrong", o->name, tried, len, bad);
	free(lens);
	free(elf);
}

static void set_le(uint8_t *p, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Header fields of a small ELF64 set to extreme values, then random bytes in its headers:
 * every reader refuses or copes (no crash, no overflow, no broken contract). */
static void test_corruption(const struct oracle *o)
{
	char path[700], what[96];
	size_t len, tried = 0, loaded = 0, bad = 0;
	uint8_t *orig = slurp(o->elf, &len), *elf;
	const Elf64_Ehdr *eh;
	struct tc_rng rng = { 0x5eed };

	if (!CHECK(orig && len > sizeof(Elf64_Ehdr), "read %s", o->elf))
		return;
	eh = (const Elf64_Ehdr *)orig;
	elf = xmalloc(len);
	snprintf(path, sizeof(path), "%s/tmp/corrupt", outdir);

	/* { offset, size } of every header field worth corrupting */
	struct field {
		size_t off;
		unsigned size;
	} fld[512];
	size_t nf = 0;
	static const struct field ehf[] = {
		{ 24, 8 }, { 32, 8 }, { 40, 8 }, { 54, 2 },
		{ 56, 2 }, { 58, 2 }, { 60, 2 }, { 62, 2 },
	};	/* e_entry e_phoff e_shoff e_phentsize e_phnum e_shentsize e_shnum e_shstrndx */

	for (size_t i = 0; i < sizeof(ehf) / sizeof(ehf[0]); i++)
		fld[nf++] = ehf[i];
	for (size_t i = 0; i < eh->e_phnum && nf + 4 < 512; i++) {
		size_t b = eh->e_phoff + i * sizeof(Elf64_Phdr);

		fld[nf++] = (struct field){ b + offsetof(Elf64_Phdr, p_type), 4 };
		fld[nf++] = (struct field){ b + offsetof(Elf64_Phdr, p_offset), 8 };
		fld[nf++] = (struct field){ b + offsetof(Elf64_Phdr, p_vaddr), 8 };
		fld[nf++] = (struct field){ b + offsetof(Elf64_Phdr, p_filesz), 8 };
	}
	for (size_t i = 0; i < eh->e_shnum && nf + 6 < 512; i++) {
		size_t b = eh->e_shoff + i * sizeof(Elf64_Shdr);

		fld[nf++] = (struct field){ b + offsetof(Elf64_Shdr, sh_type), 4 };
		fld[nf++] = (struct field){ b + offsetof(Elf64_Shdr, sh_flags), 8 };
		fld[nf++] = (struct field){ b + offsetof(Elf64_Shdr, sh_addr), 8 };
		fld[nf++] = (struct field){ b + offsetof(Elf64_Shdr, sh_offset), 8 };
		fld[nf++] = (struct field){ b + offsetof(Elf64_Shdr, sh_size), 8 };
		fld[nf++] = (struct field){ b + offsetof(Elf64_Shdr, sh_link), 4 };
	}
	const uint64_t val[] = { 0, 1, 7, 8, len - 1, len, len + 8, 0x7fffffff, 0xffffffff,
				 1ull << 62, UINT64_MAX, UINT64_MAX - 7 };

	note_n = 0;
	for (size_t f = 0; f < nf; f++) {
		for (size_t v = 0; v < sizeof(val) / sizeof(val[0]); v++) {
			int mask;

			if (fld[f].off + fld[f].size > len)
				continue;
			memcpy(elf, orig, len);
			set_le(elf + fld[f].off, val[v], fld[f].size);
			spit(path, elf, len);
			snprintf(what, sizeof(what), "%s: %u bytes at %zu set to 0x%llx", o->name,
				 fld[f].size, fld[f].off, (unsigned long long)val[v]);
			mask = load_all(path, what);
			tried++;
			loaded += mask > 0;
			bad += mask < 0;
		}
	}
	CHECK(tried > 500 && bad == 0, "%s: %zu header fields at extreme values (%zu loaded by "
	      "some reader): %zu broke a reader", o->name, tried, loaded, bad);

	tried = loaded = bad = 0;
	for (int it = 0; it < 1500; it++) {
		int mask, k = 1 + (int)tc_below(&rng, 4);

		memcpy(elf, orig, len);
		while (k--) {	/* headers (first 512 bytes, section headers) or anywhere */
			size_t at = tc_chance(&rng, 400) ? tc_below(&rng, 512) :
				    tc_chance(&rng, 600) && eh->e_shoff < len ?
				    eh->e_shoff + tc_below(&rng, (unsigned)(len - eh->e_shoff)) :
				    tc_below(&rng, (unsigned)len);

			if (at < len)
				elf[at] = (uint8_t)tc_rand(&rng);
		}
		spit(path, elf, len);
		snprintf(what, sizeof(what), "%s: random bytes, iteration %d", o->name, it);
		mask = load_all(path, what);
		tried++;
		loaded += mask > 0;
		bad += mask < 0;
	}
	CHECK(bad == 0, "%s: %zu copies with random bytes (%zu loaded by some reader): %zu broke "
	      "a reader", o->name, tried, loaded, bad);
	free(elf);
	free(orig);
}

int main(int argc, char **argv)
{
	struct oracle *o;
	int tiny = -1;

	if (argc < 3) {
		fprintf(stderr, "usage: test_symbol OUTDIR NAME...  (run it through run.sh)\n");
		return 2;
	}
	outdir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);	/* keep the output if a sanitizer aborts */
	printf("test_symbol: lib/symbol on %d ELFs against binutils (files in %s)\n", argc - 2,
	       outdir);
	o = xmalloc((size_t)(argc - 2) * sizeof(*o));
	for (int i = 2; i < argc; i++) {
		struct oracle *x = &o[i - 2];

		oracle_load(x, argv[i]);
		printf("- %s: %zu functions, %zu instructions, %zu line addresses (%s)\n", x->name,
		       x->nfunc, x->ninsn, x->nline, x->elf64 ? "ELF64" : "ELF32");
		test_code_map(x);
		test_elf_image(x);
		test_srcline(x);
		if (tiny < 0 && x->elf64 && x->ninsn < 1000)
			tiny = i - 2;
	}
	test_hex();
	if (CHECK(tiny >= 0, "a small ELF64 among the inputs (run.sh builds one)")) {
		test_bad_files(&o[tiny]);
		tc_section("truncated and corrupt ELFs");
		for (int i = 0; i < argc - 2; i++) {
			if (o[i].ninsn < 1000)
				test_truncation(&o[i], SIZE_MAX, 1, 0);	/* every prefix */
			else
				test_truncation(&o[i], 1024, 4099, 256);
		}
		test_corruption(&o[tiny]);
	}
	for (int i = 0; i < argc - 2; i++)
		oracle_free(&o[i]);
	free(o);
	return tc_summary();
}
