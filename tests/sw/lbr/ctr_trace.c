/* SPDX-License-Identifier: Apache-2.0 */
/* ctr_trace.c - RISC-V records in the CTR layout from a known trace, on the host
 * (docs/lbr.md §5.1, §6).
 *
 *   lbr_ctr_trace EXE QEMU_LOG OUT [DEPTH [STRIDE]]
 *
 * EXE is a static riscv64 executable, QEMU_LOG the `qemu-riscv64 -singlestep -d
 * nochain,exec` log of a run of it (one "Trace N: 0x... [ctx/PC/...]" line per executed
 * instruction). Every executed instruction of EXE is decoded by the tracer's RISC-V back end
 * (lbr_rv_describe over lib/isa, the code the riscv64 tracer runs); a block end is a taken
 * transfer when the next executed pc is not the fall-through (a jump always). Every STRIDE
 * (default 400) executed instructions a "sample" starts a stack of the next DEPTH (default
 * 16) taken transfers, each entry filled exactly as lbr_trace.c fills it (ctrdata of
 * lbr_ctr_type_of(), MISP unknown, CCV = 0) and the stack written by lbr_enc_stack with
 * LBR_STACK_CTR, under a version-2 header naming EM_RISCV, with a session and the
 * executable's PT_LOAD mappings - the records file the riscv64 tracer writes, for a thread
 * whose every branch is known. A stack that reaches code outside EXE is cut there.
 * Prints "stacks N entries N" and the count of each CTR type. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbr_ctr.h"
#include "lbr_file.h"
#include "lbr_rv.h"

struct seg {
	uint64_t vaddr, off, filesz, memsz;
	uint32_t flags;
};

static uint8_t *img;
static size_t img_len;
static struct seg segs[16];
static int nsegs;

static uint64_t rd64(const uint8_t *p) { uint64_t v = 0; for (int i = 7; i >= 0; i--) v = v << 8 | p[i]; return v; }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)(p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24); }
static unsigned rd16(const uint8_t *p) { return p[0] | p[1] << 8; }

static int die(const char *m, const char *a)
{
	fprintf(stderr, "lbr_ctr_trace: %s%s%s\n", m, a ? ": " : "", a ? a : "");
	exit(2);
}

/* Code bytes at pc in an executable segment (*avail of them), or NULL. */
static const uint8_t *code_at(uint64_t pc, size_t *avail)
{
	for (int i = 0; i < nsegs; i++)
		if ((segs[i].flags & 1) && pc >= segs[i].vaddr && pc < segs[i].vaddr + segs[i].filesz) {
			*avail = (size_t)(segs[i].vaddr + segs[i].filesz - pc);
			return img + segs[i].off + (pc - segs[i].vaddr);
		}
	return NULL;
}

static void load_elf(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		die("cannot open", path);
	fseek(f, 0, SEEK_END);
	img_len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	img = malloc(img_len);
	if (!img || fread(img, 1, img_len, f) != img_len)
		die("cannot read", path);
	fclose(f);
	if (img_len < 64 || memcmp(img, "\177ELF", 4) || img[4] != 2 || img[5] != 1 ||
	    rd16(img + 18) != LBR_EM_RISCV)
		die("not a little-endian ELF64 riscv64 file", path);
	uint64_t phoff = rd64(img + 32);
	unsigned phent = rd16(img + 54), phnum = rd16(img + 56);
	for (unsigned i = 0; i < phnum && nsegs < 16; i++) {
		const uint8_t *ph = img + phoff + (size_t)i * phent;
		if (rd32(ph) != 1 /* PT_LOAD */)
			continue;
		segs[nsegs++] = (struct seg){ .flags = rd32(ph + 4), .off = rd64(ph + 8),
					      .vaddr = rd64(ph + 16), .filesz = rd64(ph + 32),
					      .memsz = rd64(ph + 40) };
	}
}

static uint8_t out[1 << 16];
static size_t nout;
static FILE *fo;

static void emit(size_t n)
{
	if (n == 0)
		die("record does not fit", NULL);
	nout += n;
	if (nout > sizeof(out) - 8192) {
		fwrite(out, 1, nout, fo);
		nout = 0;
	}
}

int main(int argc, char **argv)
{
	if (argc < 4)
		die("usage: lbr_ctr_trace EXE QEMU_LOG OUT [DEPTH [STRIDE]]", NULL);
	unsigned depth = argc > 4 ? (unsigned)atoi(argv[4]) : 16;
	unsigned stride = argc > 5 ? (unsigned)atoi(argv[5]) : 400;
	if (depth < 1 || depth > LBR_MAX_DEPTH || stride < 1)
		die("bad DEPTH or STRIDE", NULL);
	char exe[4096];
	if (!realpath(argv[1], exe))
		die("cannot resolve", argv[1]);
	load_elf(exe);

	/* the executed pcs */
	FILE *lf = fopen(argv[2], "r");
	if (!lf)
		die("cannot open", argv[2]);
	size_t npc = 0, cap = 1 << 20;
	uint64_t *pcs = malloc(cap * sizeof(*pcs));
	char line[512];
	while (pcs && fgets(line, sizeof(line), lf)) {
		unsigned n;
		unsigned long long host, pc;
		char ctx[32];
		if (sscanf(line, "Trace %u: 0x%llx [%31[0-9a-f]/%llx/", &n, &host, ctx, &pc) != 4)
			continue;
		if (npc == cap)
			pcs = realloc(pcs, (cap *= 2) * sizeof(*pcs));
		if (pcs)
			pcs[npc++] = pc;
	}
	fclose(lf);
	if (!pcs || npc < 2)
		die("no executed pcs in the log (qemu-riscv64 -singlestep -d nochain,exec)", argv[2]);

	fo = fopen(argv[3], "wb");
	if (!fo)
		die("cannot create", argv[3]);
	lbr_file_header_for(out, LBR_EM_RISCV);
	nout = LBR_FILE_HDR_SIZE;
	struct lbr_session ss = { .pid = 4242, .depth = depth, .period = 1000000,
				  .event = LBR_EV_TASK_CLOCK, .mech = LBR_MECH_INT3,
				  .start_ns = 1000000 };
	if (strlen(exe) >= sizeof(ss.exe))
		die("path too long", exe);
	snprintf(ss.exe, sizeof(ss.exe), "%.255s", exe);
	emit(lbr_enc_session(out + nout, sizeof(out) - nout, &ss));
	for (int i = 0; i < nsegs; i++) {
		if (!(segs[i].flags & 1))
			continue;
		struct lbr_mmap m = { .pid = ss.pid, .prot = LBR_PROT_R | LBR_PROT_X,
				      .start = segs[i].vaddr & ~0xfffull,
				      .end = (segs[i].vaddr + segs[i].memsz + 0xfff) & ~0xfffull,
				      .pgoff = segs[i].off & ~0xfffull };
		snprintf(m.path, sizeof(m.path), "%.255s", exe);
		emit(lbr_enc_mmap(out + nout, sizeof(out) - nout, &m));
	}

	static struct lbr_stack st;
	int active = 0;
	unsigned long stacks = 0, entries = 0, types[16] = { 0 };
	uint64_t t_ns = 2000000;
	for (size_t i = 0; i + 1 < npc; i++) {
		uint64_t pc = pcs[i];
		size_t avail = 0;
		const uint8_t *code = code_at(pc, &avail);
		if (!active && i % stride == 0 && code) {
			memset(&st, 0, sizeof(st));
			st.tid = ss.pid;
			st.sample_pc = pc;
			st.flags = LBR_STACK_CTR;
			active = 1;
		}
		if (!active)
			continue;
		struct rv_insn in;
		struct lbr_branch br;
		int end = 0;
		if (!code || rv_decode(code, avail, pc, &in) < 0 ||
		    !code_at(pcs[i + 1], &avail)) {
			st.flags |= LBR_STACK_ABANDONED; /* outside EXE (vdso), or undecodable */
			end = 1;
		} else if (lbr_rv_describe(&in, pc, &br)) {
			uint64_t next = pcs[i + 1];
			int taken = br.kind == LBR_K_COND ? next != pc + br.len
				  : br.kind == LBR_K_SYSCALL || br.kind == LBR_K_STOP ? 0 : 1;
			if (taken) {
				struct lbr_pair *p = &st.br[st.nr++];
				p->from = pc;
				p->to = next;
				p->data = (uint32_t)lbr_ctrdata(lbr_ctr_type_of(&br)); /* as lbr_trace.c */
				p->misp = 0;
				types[p->data & 15]++;
				end = st.nr >= depth;
			}
		}
		if (end) {
			st.time_ns = t_ns += 1000000;
			if (st.nr) {
				emit(lbr_enc_stack(out + nout, sizeof(out) - nout, &st));
				stacks++;
				entries += st.nr;
			}
			active = 0;
		}
	}
	fwrite(out, 1, nout, fo);
	if (fclose(fo) != 0)
		die("cannot write", argv[3]);
	printf("stacks %lu entries %lu", stacks, entries);
	for (int t = 0; t < 16; t++)
		if (types[t])
			printf(" %s %lu", lbr_ctr_type_name((unsigned)t), types[t]);
	printf("\n");
	return 0;
}
