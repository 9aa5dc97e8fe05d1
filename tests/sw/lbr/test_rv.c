/* SPDX-License-Identifier: Apache-2.0 */
/* test_rv.c - host unit test of the tracer's RISC-V back end (sw/lbr/lbr_rv.c over lib/isa).
 *
 *   test_lbr_rv                 synthetic register contexts: every branch kind evaluated
 *                               (signed/unsigned edges, x0, compressed forms, the x1/x5
 *                               link rule, jalr bit 0, ecall numbers, breakpoint encodings)
 *   test_lbr_rv --objdump NAME  reads `riscv64-linux-gnu-objdump -d -M no-aliases` of a
 *                               static riscv64 binary on stdin; for every instruction the
 *                               adapter's verdict (block end or not, kind, static target,
 *                               compared registers, indirect base/offset) must match what
 *                               objdump's canonical text implies, derived independently
 *                               here; then lbr_rv_decode_buf from every 5th instruction must
 *                               stop at the next block end of the listing.
 * Prints failures and a last line "N passed, N failed"; exit status 1 on any failure. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbr_ctr.h"
#include "lbr_rv.h"

static int passed, failed;

#define CHECK(cond, ...)                                                                   \
	do {                                                                               \
		if (cond) {                                                                \
			passed++;                                                          \
		} else {                                                                   \
			failed++;                                                          \
			if (failed <= 30) {                                                \
				printf("FAIL %s:%d: ", __FILE__, __LINE__);                \
				printf(__VA_ARGS__);                                       \
				printf("\n");                                              \
			}                                                                  \
		}                                                                          \
	} while (0)

/* ---------------------------------------------------------------- encoders */

static uint32_t enc_b(unsigned f3, unsigned rs1, unsigned rs2, int32_t off)
{
	uint32_t o = (uint32_t)off;
	return ((o >> 12 & 1) << 31) | ((o >> 5 & 0x3f) << 25) | (rs2 << 20) | (rs1 << 15) |
	       (f3 << 12) | ((o >> 1 & 0xf) << 8) | ((o >> 11 & 1) << 7) | 0x63;
}

static uint32_t enc_jal(unsigned rd, int32_t off)
{
	uint32_t o = (uint32_t)off;
	return ((o >> 20 & 1) << 31) | ((o >> 1 & 0x3ff) << 21) | ((o >> 11 & 1) << 20) |
	       ((o >> 12 & 0xff) << 12) | (rd << 7) | 0x6f;
}

static uint32_t enc_jalr(unsigned rd, unsigned rs1, int32_t imm)
{
	return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | rd << 7 | 0x67;
}

/* Decode `word` at pc, check objdump-style text, describe it. */
static int describe(uint32_t word, uint64_t pc, const char *text, struct lbr_branch *br)
{
	struct rv_insn in;
	char buf[64];
	if (rv_decode_word(word, pc, &in) < 0) {
		CHECK(0, "%08x does not decode", word);
		return -1;
	}
	rv_disasm(&in, pc, buf, sizeof(buf));
	CHECK(strcmp(buf, text) == 0, "%08x disassembles as '%s', want '%s'", word, buf, text);
	return lbr_rv_describe(&in, pc, br);
}

static void eval_is(const struct lbr_branch *br, const struct lbr_cpu *cpu, int want_r,
		    uint64_t want_next, const char *what)
{
	uint64_t next = 0;
	int r = lbr_rv_eval(br, cpu, &next);
	CHECK(r == want_r && (r < 0 || next == want_next), "%s: eval %d next %#" PRIx64
	      ", want %d %#" PRIx64, what, r, next, want_r, want_next);
}

/* CTR types (lbr_ctr.h) the back end gives each jump form: the spec's table, by rd and rs1
 * (x1 ra / x5 t0 links), with the pre-computed rv_decode_word encodings. */
static void ctr_types(void)
{
	static const struct {
		uint32_t word; /* 16-bit compressed forms in the low half */
		unsigned type;
		const char *what;
	} c[] = {
		{ 0, LBR_CTR_DCALL, "jal ra" },       { 1, LBR_CTR_DCALL, "jal t0" },
		{ 2, LBR_CTR_DJMP, "jal zero" },      { 3, LBR_CTR_ODJMP, "jal t2" },
		{ 4, LBR_CTR_ICALL, "jalr ra,0(a5)" }, { 5, LBR_CTR_ICALL, "jalr ra,0(ra)" },
		{ 6, LBR_CTR_CORSWAP, "jalr ra,0(t0)" }, { 7, LBR_CTR_CORSWAP, "jalr t0,0(ra)" },
		{ 8, LBR_CTR_RET, "jalr zero,0(ra)" }, { 9, LBR_CTR_RET, "jalr zero,0(t0)" },
		{ 10, LBR_CTR_IJMP, "jalr zero,0(a5)" }, { 11, LBR_CTR_OIJMP, "jalr t2,0(a5)" },
		{ 12, LBR_CTR_RET, "c.jr ra" },       { 13, LBR_CTR_IJMP, "c.jr a5" },
		{ 14, LBR_CTR_ICALL, "c.jalr a5" },   { 15, LBR_CTR_CORSWAP, "c.jalr t0" },
		{ 16, LBR_CTR_DJMP, "c.j" },          { 17, LBR_CTR_TKBR, "beq" },
		{ 18, LBR_CTR_TKBR, "c.beqz" },
	};
	const uint32_t w[] = {
		enc_jal(1, 64), enc_jal(5, 64), enc_jal(0, 64), enc_jal(7, 64),
		enc_jalr(1, 15, 0), enc_jalr(1, 1, 0), enc_jalr(1, 5, 0), enc_jalr(5, 1, 0),
		enc_jalr(0, 1, 0), enc_jalr(0, 5, 0), enc_jalr(0, 15, 0), enc_jalr(7, 15, 0),
		0x8082 /* c.jr ra */, 0x8782 /* c.jr a5 */, 0x9782 /* c.jalr a5 */,
		0x9282 /* c.jalr t0 */, 0xa001 /* c.j 0 */, enc_b(0, 10, 11, 16),
		0xc391 /* c.beqz a5 */,
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct rv_insn in;
		struct lbr_branch br;
		uint8_t b[4] = { (uint8_t)w[i], (uint8_t)(w[i] >> 8), (uint8_t)(w[i] >> 16),
				 (uint8_t)(w[i] >> 24) };
		if (rv_decode(b, (w[i] & 3) == 3 ? 4 : 2, 0x10000, &in) < 0 ||
		    !lbr_rv_describe(&in, 0x10000, &br)) {
			CHECK(0, "%s: not decoded as a transfer", c[i].what);
			continue;
		}
		CHECK(br.ctr_type == c[i].type && lbr_ctr_type_of(&br) == c[i].type,
		      "%s: CTR type %u (%s), want %u (%s)", c[i].what, br.ctr_type,
		      lbr_ctr_type_name(br.ctr_type), c[i].type, lbr_ctr_type_name(c[i].type));
	}
	/* ctrdata: TYPE, CCV = 0 (no cycle count), and the CC encoding's round trip */
	CHECK(lbr_ctrdata(LBR_CTR_RET) == 13 && lbr_ctrdata_cycles(lbr_ctrdata(13)) == -1,
	      "ctrdata without a cycle count");
	static const uint64_t cyc[][2] = { { 0, 0 }, { 4095, 4095 }, { 4096, 4096 },
					   { 8191, 8191 }, { 8192, 8192 }, { 8193, 8192 },
					   { 100000, 100000 }, { 100017, 100016 }, { 1ull << 40, (8191ull) << 14 } };
	for (size_t i = 0; i < sizeof(cyc) / sizeof(cyc[0]); i++) {
		uint64_t d = lbr_ctrdata_cc(lbr_ctrdata(LBR_CTR_TKBR), cyc[i][0]);
		CHECK((d & 15) == LBR_CTR_TKBR && (d & LBR_CTRDATA_CCV) &&
		      lbr_ctrdata_cycles(d) == (int64_t)cyc[i][1], "cc %" PRIu64 " -> %" PRId64
		      ", want %" PRIu64, cyc[i][0], lbr_ctrdata_cycles(d), cyc[i][1]);
	}
}

static void synthetic(void)
{
	ctr_types();
	const uint64_t pc = 0x10000;
	struct lbr_branch br;
	struct lbr_cpu cpu;
	memset(&cpu, 0, sizeof(cpu));

	/* Conditional branches: a0 (x10) vs a1 (x11), target pc+16. */
	static const struct {
		unsigned f3;
		const char *name;
		uint64_t a, b;
		int taken;
	} cases[] = {
		{ 0, "beq", 5, 5, 1 },   { 0, "beq", 5, 6, 0 },
		{ 1, "bne", 5, 6, 1 },   { 1, "bne", 7, 7, 0 },
		{ 4, "blt", (uint64_t)-1, 0, 1 }, { 4, "blt", 0, (uint64_t)-1, 0 },
		{ 5, "bge", 0, (uint64_t)-1, 1 }, { 5, "bge", 3, 3, 1 }, { 5, "bge", 2, 3, 0 },
		{ 6, "bltu", 0, (uint64_t)-1, 1 }, { 6, "bltu", (uint64_t)-1, 0, 0 },
		{ 7, "bgeu", (uint64_t)-1, 0, 1 }, { 7, "bgeu", 1, 2, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[64];
		snprintf(text, sizeof(text), "%s\ta0,a1,%" PRIx64, cases[i].name, pc + 16);
		if (describe(enc_b(cases[i].f3, 10, 11, 16), pc, text, &br) != 1) {
			CHECK(0, "%s not a block end", cases[i].name);
			continue;
		}
		CHECK(br.kind == LBR_K_COND && br.cond_kind == LBR_C_CMP && br.reg == 10 &&
		      br.reg2 == 11 && br.target == pc + 16 && br.len == 4, "%s description",
		      cases[i].name);
		cpu.reg[10] = cases[i].a;
		cpu.reg[11] = cases[i].b;
		eval_is(&br, &cpu, cases[i].taken, cases[i].taken ? pc + 16 : pc + 4, cases[i].name);
	}
	/* Backward branch against x0 (beqz alias), x0 always reads 0 even if reg[0] is dirty. */
	cpu.reg[0] = 99;
	cpu.reg[15] = 0;
	describe(enc_b(0, 15, 0, -8), pc, "beqz\ta5,fff8", &br);
	eval_is(&br, &cpu, 1, pc - 8, "beqz a5 backward, x0 dirty");
	cpu.reg[0] = 0;
	/* c.beqz a0,+8 (0xc501) and c.bnez a0,+8 (0xe501): compressed, 2 bytes. */
	cpu.reg[10] = 0;
	describe(0xc501, pc, "beqz\ta0,10008", &br);
	CHECK(br.kind == LBR_K_COND && br.len == 2 && br.cc == LBR_CMP_EQ && br.reg2 == 0,
	      "c.beqz description");
	eval_is(&br, &cpu, 1, pc + 8, "c.beqz taken");
	cpu.reg[10] = 1;
	eval_is(&br, &cpu, 0, pc + 2, "c.beqz not taken");
	describe(0xe501, pc, "bnez\ta0,10008", &br);
	eval_is(&br, &cpu, 1, pc + 8, "c.bnez taken");

	/* jal: rd = ra or t0 is a call, x0 or another register a jump. */
	describe(enc_jal(1, 0x800), pc, "jal\t10800", &br);
	CHECK(br.kind == LBR_K_CALL && br.target == pc + 0x800, "jal ra: call");
	eval_is(&br, &cpu, 1, pc + 0x800, "jal ra");
	describe(enc_jal(5, -0x800), pc, "jal\tt0,f800", &br);
	CHECK(br.kind == LBR_K_CALL, "jal t0: call (alternate link)");
	describe(enc_jal(0, 0x100), pc, "j\t10100", &br);
	CHECK(br.kind == LBR_K_JMP && br.target == pc + 0x100, "j: jump");
	describe(enc_jal(10, 0x100), pc, "jal\ta0,10100", &br);
	CHECK(br.kind == LBR_K_JMP, "jal a0: a jump (a0 is not a link register)");
	/* c.j +6: 0xa019 */
	describe(0xa019, pc, "j\t10006", &br);
	CHECK(br.kind == LBR_K_JMP && br.len == 2 && br.target == pc + 6, "c.j");

	/* jalr: the x1/x5 rule, (rs1 + imm) & ~1. */
	cpu.reg[15] = 0x20001; /* a5, odd: bit 0 cleared */
	describe(enc_jalr(1, 15, 0x10), pc, "jalr\t16(a5)", &br);
	CHECK(br.kind == LBR_K_ICALL && br.texpr.base == 15 && br.texpr.disp == 16, "jalr ra,16(a5)");
	eval_is(&br, &cpu, 1, 0x20010, "jalr ra,16(a5): bit 0 cleared");
	describe(enc_jalr(0, 15, -4), pc, "jr\t-4(a5)", &br);
	CHECK(br.kind == LBR_K_IJMP, "jr -4(a5): indirect jump");
	eval_is(&br, &cpu, 1, 0x1fffc, "jr -4(a5)");
	cpu.reg[1] = 0x30000;
	describe(enc_jalr(0, 1, 0), pc, "ret", &br);
	CHECK(br.kind == LBR_K_RET, "ret: return");
	eval_is(&br, &cpu, 1, 0x30000, "ret");
	cpu.reg[5] = 0x40000;
	describe(enc_jalr(0, 5, 0), pc, "jr\tt0", &br);
	CHECK(br.kind == LBR_K_RET, "jr t0: return (alternate link)");
	eval_is(&br, &cpu, 1, 0x40000, "jr t0");
	describe(enc_jalr(1, 5, 0), pc, "jalr\tt0", &br);
	CHECK(br.kind == LBR_K_ICALL, "jalr ra,t0: coroutine swap counted as a call");
	describe(enc_jalr(10, 15, 0), pc, "jalr\ta0,0(a5)", &br);
	CHECK(br.kind == LBR_K_IJMP, "jalr a0,0(a5): indirect jump");
	/* c.jr ra (0x8082), c.jr a5 (0x8782), c.jalr a5 (0x9782). */
	describe(0x8082, pc, "ret", &br);
	CHECK(br.kind == LBR_K_RET && br.len == 2, "c.jr ra: return");
	describe(0x8782, pc, "jr\ta5", &br);
	CHECK(br.kind == LBR_K_IJMP && br.len == 2, "c.jr a5: indirect jump");
	eval_is(&br, &cpu, 1, 0x20000, "c.jr a5");
	describe(0x9782, pc, "jalr\ta5", &br);
	CHECK(br.kind == LBR_K_ICALL && br.len == 2, "c.jalr a5: indirect call");

	/* ecall: a7 selects; the non-returning calls cannot be followed. */
	describe(0x00000073, pc, "ecall", &br);
	CHECK(br.kind == LBR_K_SYSCALL, "ecall");
	cpu.reg[17] = 172; /* getpid */
	eval_is(&br, &cpu, 0, pc + 4, "ecall getpid");
	cpu.reg[17] = LBR_RV_NR_RT_SIGRETURN;
	eval_is(&br, &cpu, -1, 0, "ecall rt_sigreturn");
	cpu.reg[17] = LBR_RV_NR_EXIT_GROUP;
	eval_is(&br, &cpu, -1, 0, "ecall exit_group");
	describe(0x00100073, pc, "ebreak", &br);
	CHECK(br.kind == LBR_K_STOP, "ebreak stops");
	eval_is(&br, &cpu, -1, 0, "ebreak");
	describe(0x9002, pc, "ebreak", &br);
	CHECK(br.kind == LBR_K_STOP && br.len == 2, "c.ebreak stops");
	/* Not block ends. */
	CHECK(describe(0x00a58533, pc, "add\ta0,a1,a0", &br) == 0, "add is not a block end");
	CHECK(describe(0x0000100f, pc, "fence.i", &br) == 0, "fence.i is not a block end");

	/* Breakpoint encodings: c.ebreak over compressed, ebreak over 32-bit instructions. */
	uint8_t bp[LBR_BP_MAX];
	const uint8_t c_add[4] = { 0x2e, 0x95, 0, 0 }, add[4] = { 0x33, 0x85, 0xa5, 0x00 };
	CHECK(lbr_rv_bp_encode(c_add, bp) == 2 && bp[0] == 0x02 && bp[1] == 0x90, "c.ebreak");
	CHECK(lbr_rv_bp_encode(add, bp) == 4 && bp[0] == 0x73 && bp[1] == 0 && bp[2] == 0x10 &&
	      bp[3] == 0, "ebreak");

	/* Register layout of the RISC-V signal context. */
	unsigned long g[32];
	for (int i = 0; i < 32; i++)
		g[i] = 1000 + (unsigned long)i;
	lbr_rv_cpu_from_gregs(&cpu, g);
	CHECK(cpu.pc == 1000 && cpu.reg[0] == 0 && cpu.reg[1] == 1001 && cpu.reg[31] == 1031 &&
	      cpu.sp == 1002, "cpu from gregs");

	/* decode_buf: add; c.add; bne -> 2 instructions before the block end; cut buffer. */
	const uint8_t code[] = { 0x33, 0x85, 0xa5, 0x00, 0x2e, 0x95, 0x63, 0x14, 0xb5, 0x00 };
	size_t used = 0;
	CHECK(lbr_rv_decode_buf(code, sizeof(code), pc, 16, &br, &used) == 2 &&
	      br.pc == pc + 6 && br.kind == LBR_K_COND && used == 10, "decode_buf block");
	CHECK(lbr_rv_decode_buf(code, 8, pc, 16, &br, &used) == -2 && used == 6,
	      "decode_buf: buffer ends inside the branch");
	CHECK(lbr_rv_decode_buf(code, sizeof(code), pc, 2, &br, &used) == -1,
	      "decode_buf: limit");
	const uint8_t bad[4] = { 0, 0, 0, 0 };
	CHECK(lbr_rv_decode_buf(bad, 4, pc, 16, &br, &used) == -1, "decode_buf: illegal");
}

/* ---------------------------------------------------------------- objdump comparison */

struct line {
	uint64_t pc;
	uint32_t raw;
	uint8_t len;
	int end;                 /* block end per objdump */
	struct lbr_branch want;  /* expected description (when end) */
};

static int xreg(const char *s, size_t n)
{
	for (unsigned r = 0; r < 32; r++) {
		const char *nm = rv_xreg_name(r);
		if (strlen(nm) == n && strncmp(nm, s, n) == 0)
			return (int)r;
	}
	return -1;
}

/* Split "a,b,c" operands (stops at a space: the "<sym>" comment). */
static int split_ops(char *ops, char *out[4])
{
	int n = 0;
	char *sp = strchr(ops, ' ');
	if (sp)
		*sp = 0;
	for (char *tok = strtok(ops, ","); tok && n < 4; tok = strtok(NULL, ","))
		out[n++] = tok;
	return n;
}

static int is_link(int r)
{
	return r == 1 || r == 5;
}

/* What objdump's canonical (no-aliases) text says about an instruction. Returns 1 if it
 * ends a block (*w filled), 0 if not, -1 if the line is not an instruction we model. */
static int expect(const char *mn, char *ops, uint64_t pc, uint8_t len, struct lbr_branch *w)
{
	char *op[4] = { 0 };
	int n = split_ops(ops, op);
	memset(w, 0, sizeof(*w));
	w->pc = pc;
	w->len = len;
	static const char *const bnames[] = { "beq", "bne", "blt", "bge", "bltu", "bgeu" };
	for (int c = 0; c < 6; c++) {
		if (strcmp(mn, bnames[c]) == 0 && n == 3) {
			w->kind = LBR_K_COND;
			w->cc = (uint8_t)c;
			w->reg = (uint8_t)xreg(op[0], strlen(op[0]));
			w->reg2 = (uint8_t)xreg(op[1], strlen(op[1]));
			w->target = strtoull(op[2], NULL, 16);
			return 1;
		}
	}
	if ((strcmp(mn, "c.beqz") == 0 || strcmp(mn, "c.bnez") == 0) && n == 2) {
		w->kind = LBR_K_COND;
		w->cc = mn[3] == 'e' ? LBR_CMP_EQ : LBR_CMP_NE;
		w->reg = (uint8_t)xreg(op[0], strlen(op[0]));
		w->target = strtoull(op[1], NULL, 16);
		return 1;
	}
	if (strcmp(mn, "jal") == 0 && n == 2) {
		w->kind = is_link(xreg(op[0], strlen(op[0]))) ? LBR_K_CALL : LBR_K_JMP;
		w->target = strtoull(op[1], NULL, 16);
		return 1;
	}
	if (strcmp(mn, "c.j") == 0 && n == 1) {
		w->kind = LBR_K_JMP;
		w->target = strtoull(op[0], NULL, 16);
		return 1;
	}
	int rd = -1, rs1 = -1;
	long imm = 0;
	if (strcmp(mn, "jalr") == 0 && n == 2) {
		char *par = strchr(op[1], '(');
		if (!par)
			return -1;
		rd = xreg(op[0], strlen(op[0]));
		imm = strtol(op[1], NULL, 10);
		rs1 = xreg(par + 1, strcspn(par + 1, ")"));
	} else if ((strcmp(mn, "c.jr") == 0 || strcmp(mn, "c.jalr") == 0) && n == 1) {
		rd = mn[3] == 'a' ? 1 : 0;
		rs1 = xreg(op[0], strlen(op[0]));
	}
	if (rs1 >= 0) {
		w->kind = is_link(rd) ? LBR_K_ICALL : is_link(rs1) ? LBR_K_RET : LBR_K_IJMP;
		w->texpr.kind = LBR_X_REG;
		w->texpr.base = (uint8_t)rs1;
		w->texpr.disp = imm;
		return 1;
	}
	if (strcmp(mn, "ecall") == 0) {
		w->kind = LBR_K_SYSCALL;
		return 1;
	}
	if (!strcmp(mn, "ebreak") || !strcmp(mn, "c.ebreak") || !strcmp(mn, "sret") ||
	    !strcmp(mn, "mret") || !strcmp(mn, "wfi")) {
		w->kind = LBR_K_STOP;
		return 1;
	}
	if (mn[0] == '.' || !strcmp(mn, "unimp") || !strcmp(mn, "c.unimp"))
		return -1;
	return 0;
}

static int same(const struct lbr_branch *a, const struct lbr_branch *w)
{
	if (a->kind != w->kind || a->pc != w->pc || a->len != w->len)
		return 0;
	switch (w->kind) {
	case LBR_K_COND:
		return a->cond_kind == LBR_C_CMP && a->cc == w->cc && a->reg == w->reg &&
		       a->reg2 == w->reg2 && a->target == w->target;
	case LBR_K_JMP:
	case LBR_K_CALL:
		return a->target == w->target;
	case LBR_K_IJMP:
	case LBR_K_ICALL:
	case LBR_K_RET:
		return a->texpr.kind == LBR_X_REG && a->texpr.base == w->texpr.base &&
		       a->texpr.disp == w->texpr.disp;
	default:
		return 1;
	}
}

static int objdump_check(const char *name)
{
	size_t cap = 1 << 16, nl = 0;
	struct line *L = malloc(cap * sizeof(*L));
	char buf[512];
	unsigned long counts[LBR_K_STOP + 1] = { 0 }, skipped = 0;
	while (L && fgets(buf, sizeof(buf), stdin)) {
		/* "   10154:\t00a78763          \tbeq\ta5,a0,1016a <main+0x22>" */
		char *colon = strchr(buf, ':');
		if (!colon || buf[0] != ' ' || colon[1] != '\t')
			continue;
		uint64_t pc = strtoull(buf, NULL, 16);
		char *p = colon + 2, *end;
		uint32_t raw = (uint32_t)strtoul(p, &end, 16);
		size_t hexlen = (size_t)(end - p);
		if (hexlen != 4 && hexlen != 8)
			continue;
		while (*end == ' ')
			end++;
		if (*end != '\t')
			continue;
		char *mn = end + 1, *ops = mn + strcspn(mn, "\t\n");
		if (*ops == '\t')
			*ops++ = 0;
		else
			*ops = 0;
		ops[strcspn(ops, "\n")] = 0;
		struct line l = { .pc = pc, .raw = raw, .len = (uint8_t)(hexlen / 2) };
		int e = expect(mn, ops, pc, l.len, &l.want);
		struct rv_insn in;
		int r = rv_decode_word(raw, pc, &in);
		if (e < 0 || r < 0) {
			skipped++;
			l.end = -1; /* not modelled / illegal: decode_buf would fail here */
		} else {
			struct lbr_branch got;
			l.end = e;
			int d = lbr_rv_describe(&in, pc, &got);
			if (d != e)
				CHECK(0, "%" PRIx64 ": %s %s: block end %d, objdump says %d", pc, mn, ops, d, e);
			else if (e && !same(&got, &l.want))
				CHECK(0, "%" PRIx64 ": %s %s: kind %s target %#" PRIx64 " regs %u,%u "
				      "base %u disp %" PRId64 " differ", pc, mn, ops,
				      lbr_kind_name(got.kind), got.target, got.reg, got.reg2,
				      got.texpr.base, got.texpr.disp);
			else
				CHECK(1, "ok");
			if (e)
				counts[l.want.kind]++;
		}
		if (nl == cap) {
			cap *= 2;
			struct line *nL = realloc(L, cap * sizeof(*L));
			if (!nL)
				break;
			L = nL;
		}
		L[nl++] = l;
	}
	/* decode_buf over the reassembled code, from every 5th instruction. */
	size_t blocks = 0;
	for (size_t i = 0; L && i < nl; i += 5) {
		if (L[i].end < 0)
			continue;
		uint8_t code[4096];
		size_t have = 0, j = i;
		for (; j < nl && have + 4 <= sizeof(code); j++) {
			if (j > i && L[j].pc != L[j - 1].pc + L[j - 1].len)
				break; /* next section */
			for (unsigned k = 0; k < L[j].len; k++)
				code[have++] = (uint8_t)(L[j].raw >> (8 * k));
			if (L[j].end != 0)
				break;
		}
		if (j >= nl || L[j].end != 1)
			continue; /* the run ends in something unmodelled or at a section end */
		struct lbr_branch br;
		size_t used = 0;
		int r = lbr_rv_decode_buf(code, have, L[i].pc, 4096, &br, &used);
		CHECK(r == (int)(j - i) && br.pc == L[j].pc, "decode_buf from %" PRIx64 ": %d insns to %"
		      PRIx64 ", want %zu to %" PRIx64, L[i].pc, r, br.pc, j - i, L[j].pc);
		blocks++;
	}
	printf("%s: %zu instructions (%lu not modelled), block ends: cond %lu jmp %lu call %lu "
	       "ret %lu ijmp %lu icall %lu syscall %lu stop %lu; %zu blocks decoded\n", name, nl,
	       skipped, counts[LBR_K_COND], counts[LBR_K_JMP], counts[LBR_K_CALL],
	       counts[LBR_K_RET], counts[LBR_K_IJMP], counts[LBR_K_ICALL], counts[LBR_K_SYSCALL],
	       counts[LBR_K_STOP], blocks);
	free(L);
	return nl > 1000 && counts[LBR_K_COND] && counts[LBR_K_RET] && counts[LBR_K_ICALL];
}

const char *lbr_kind_name(uint8_t kind)
{
	static const char *const names[] = {
		"?", "cond", "jmp", "call", "ret", "ijmp", "icall", "syscall", "stop",
	};
	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--objdump") == 0)
		CHECK(objdump_check(argv[2]), "too few instructions or kinds in the listing");
	else
		synthetic();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
