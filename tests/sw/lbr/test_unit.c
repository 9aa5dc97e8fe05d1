/* SPDX-License-Identifier: Apache-2.0 */
/* test_unit.c - unit tests of the tracer's pure parts: the x86-64 block decoder and branch
 * evaluator (on hand-assembled code), the records-file encoders/decoder, and the lock-free
 * queue. Prints "N passed, N failed" last; exit status 1 on any failure. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "lbr_ctr.h"
#include "lbr_file.h"
#include "lbr_isa.h"
#include "lbr_queue.h"

static int npass, nfail;
#define CHECK(c) do { if (c) npass++; else { nfail++; printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); } } while (0)

static void test_decode_eval(void)
{
	struct lbr_isa isa;
	CHECK(lbr_isa_init(&isa) == 0);
	/* 0: mov eax,1 ; 5: add ecx,eax ; 7: jne -9 (-> 0) ; 9: jmp rax ; b: ret ;
	 * c: call [rip+0] ; 12: 8 bytes of pointer ; 1a: loop -2 ; 1c: jrcxz +0x10 ; 1e: syscall
	 * 20: call [rbx+rsi*8+0x10] ; 24: ud2 */
	static uint8_t code[64] = {
		0xb8, 1, 0, 0, 0, 0x01, 0xc1, 0x75, 0xf7, 0xff, 0xe0, 0xc3,
		0xff, 0x15, 0x00, 0x00, 0x00, 0x00, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
		0xe2, 0xfe, 0xe3, 0x10, 0x0f, 0x05, 0xff, 0x54, 0xf3, 0x10, 0x0f, 0x0b,
	};
	uint64_t b = (uint64_t)(uintptr_t)code, next = 0;
	struct lbr_branch br;
	struct lbr_cpu cpu;
	memset(&cpu, 0, sizeof(cpu));

	CHECK(lbr_isa_decode_block(&isa, b, 16, &br) == 2);
	CHECK(br.pc == b + 7 && br.kind == LBR_K_COND && br.target == b && br.cc == 5);
	cpu.flags = 0; /* ZF clear: jne taken */
	CHECK(lbr_isa_eval(&br, &cpu, &next) == 1 && next == b);
	cpu.flags = 1 << 6;
	CHECK(lbr_isa_eval(&br, &cpu, &next) == 0 && next == b + 9);

	CHECK(lbr_isa_decode_block(&isa, b + 9, 16, &br) == 0 && br.kind == LBR_K_IJMP);
	cpu.reg[0] = 0x1234;
	CHECK(lbr_isa_eval(&br, &cpu, &next) == 1 && next == 0x1234);

	uint64_t stackword = 0xabcdef;
	CHECK(lbr_isa_decode_block(&isa, b + 11, 16, &br) == 0 && br.kind == LBR_K_RET);
	cpu.sp = (uint64_t)(uintptr_t)&stackword;
	CHECK(lbr_isa_eval(&br, &cpu, &next) == 1 && next == 0xabcdef);

	CHECK(lbr_isa_decode_block(&isa, b + 12, 16, &br) == 0 && br.kind == LBR_K_ICALL);
	CHECK(lbr_isa_eval(&br, &cpu, &next) == 1 && next == 0x1122334455667788ULL);

	CHECK(lbr_isa_decode_block(&isa, b + 0x1a, 16, &br) == 0 && br.kind == LBR_K_COND &&
	      br.cond_kind == LBR_C_LOOP);
	cpu.reg[1] = 1; /* rcx becomes 0: falls through */
	CHECK(lbr_isa_eval(&br, &cpu, &next) == 0 && next == b + 0x1c);
	cpu.reg[1] = 5;
	CHECK(lbr_isa_eval(&br, &cpu, &next) == 1 && next == b + 0x1a);

	CHECK(lbr_isa_decode_block(&isa, b + 0x1c, 16, &br) == 0 && br.cond_kind == LBR_C_REGZ);
	cpu.reg[1] = 0;
	CHECK(lbr_isa_eval(&br, &cpu, &next) == 1 && next == b + 0x2e);

	CHECK(lbr_isa_decode_block(&isa, b + 0x1e, 16, &br) == 0 && br.kind == LBR_K_SYSCALL);
	cpu.reg[0] = 39; /* getpid: returns to the next instruction */
	CHECK(lbr_isa_eval(&br, &cpu, &next) == 0 && next == b + 0x20);
	cpu.reg[0] = 15; /* rt_sigreturn: cannot follow */
	CHECK(lbr_isa_eval(&br, &cpu, &next) < 0);

	uint64_t table[4] = { 0, 0, 0x777, 0 };
	CHECK(lbr_isa_decode_block(&isa, b + 0x20, 16, &br) == 0 && br.kind == LBR_K_ICALL);
	cpu.reg[3] = (uint64_t)(uintptr_t)table - 0x10; /* rbx */
	cpu.reg[6] = 2;                                  /* rsi */
	CHECK(lbr_isa_eval(&br, &cpu, &next) == 1 && next == 0x777);
	cpu.reg[3] = 8; /* unreadable target memory: no fault, an error */
	CHECK(lbr_isa_eval(&br, &cpu, &next) < 0);

	CHECK(lbr_isa_decode_block(&isa, b + 0x24, 16, &br) == 0 && br.kind == LBR_K_STOP);
	CHECK(lbr_isa_decode_block(&isa, 16, 16, &br) < 0); /* unreadable code */
}

static void test_file(void)
{
	static uint8_t buf[4096];
	static struct lbr_rec r;
	struct lbr_stack s;
	memset(&s, 0, sizeof(s));
	s.tid = 42;
	s.nr = 3;
	s.flags = LBR_STACK_ABANDONED;
	s.time_ns = 123456789;
	s.sample_pc = 0x401000;
	for (int i = 0; i < 3; i++) {
		s.br[i].from = 0x1000 + i;
		s.br[i].to = 0x2000 + i;
	}
	size_t n = lbr_enc_stack(buf, sizeof(buf), &s);
	CHECK(n == lbr_stack_size(3));
	CHECK(lbr_enc_stack(buf, n - 1, &s) == 0);
	CHECK(lbr_dec_record(buf, n - 1, &r) == LBR_NEED_MORE);
	CHECK(lbr_dec_record(buf, n, &r) == (long)n && r.type == LBR_REC_STACK);
	CHECK(r.u.stack.tid == 42 && r.u.stack.nr == 3 && r.u.stack.flags == 1 &&
	      r.u.stack.br[2].to == 0x2002 && r.u.stack.sample_pc == 0x401000);
	struct lbr_session ss = { 7, 16, 1000, 0, 1, 99, "/bin/true" };
	n = lbr_enc_session(buf, sizeof(buf), &ss);
	CHECK(n % 8 == 0 && lbr_dec_record(buf, n, &r) == (long)n);
	CHECK(r.u.session.pid == 7 && strcmp(r.u.session.exe, "/bin/true") == 0);
	buf[4] = 9; /* size not a multiple of 8 */
	CHECK(lbr_dec_record(buf, n, &r) == LBR_BAD);
	struct lbr_mmap mm = { 7, LBR_PROT_R | LBR_PROT_X, 0x400000, 0x401000, 0x1000, "/bin/x" };
	n = lbr_enc_mmap(buf, sizeof(buf), &mm);
	CHECK(n == 48 && lbr_dec_record(buf, n, &r) == (long)n && r.type == LBR_REC_MMAP);
	CHECK(r.u.mmap.start == 0x400000 && r.u.mmap.end == 0x401000 && r.u.mmap.pgoff == 0x1000 &&
	      r.u.mmap.prot == 5 && strcmp(r.u.mmap.path, "/bin/x") == 0);
	CHECK(lbr_dec_record(buf, n - 1, &r) == LBR_NEED_MORE);
	buf[24] = 0; buf[25] = 0; buf[26] = 0; /* end below start */
	CHECK(lbr_dec_record(buf, n, &r) == LBR_BAD);
	/* Stats: the 144-byte record round-trips; an old 88-byte one decodes with the
	 * evaluation counters 0; other sizes are malformed. */
	struct lbr_stats st;
	memset(&st, 0, sizeof(st));
	st.pid = 7; st.tid = 8; st.samples = 1; st.cache_misses = 9; st.static_br = 10;
	st.evaluated = 11; st.not_taken = 12; st.rseq_ends = 13; st.decode_ns = 16;
	st.emu_runs = 17; st.emu_ns = 18; st.emu_end[4] = 19; st.end[0] = 20; st.end[7] = 21;
	n = lbr_enc_stats(buf, sizeof(buf), &st);
	CHECK(n == LBR_STATS_SIZE && lbr_dec_record(buf, n, &r) == (long)n);
	CHECK(r.u.stats.tid == 8 && r.u.stats.cache_misses == 9 && r.u.stats.static_br == 10 &&
	      r.u.stats.not_taken == 12 && r.u.stats.rseq_ends == 13 && r.u.stats.decode_ns == 16);
	CHECK(r.u.stats.emu_runs == 17 && r.u.stats.emu_ns == 18 && r.u.stats.emu_end[4] == 19 &&
	      r.u.stats.end[0] == 20 && r.u.stats.end[7] == 21);
	CHECK(lbr_enc_stats(buf, n - 1, &st) == 0);
	buf[4] = LBR_STATS_SIZE_V1; /* the 144-byte record: emulator counters read as 0 */
	buf[5] = 0;
	CHECK(lbr_dec_record(buf, LBR_STATS_SIZE_V1, &r) == LBR_STATS_SIZE_V1);
	CHECK(r.u.stats.decode_ns == 16 && r.u.stats.emu_runs == 0 && r.u.stats.end[7] == 0);
	buf[4] = LBR_STATS_SIZE_V0; /* the old record: the first 88 bytes */
	CHECK(lbr_dec_record(buf, LBR_STATS_SIZE_V0, &r) == LBR_STATS_SIZE_V0);
	CHECK(r.u.stats.cache_misses == 9 && r.u.stats.static_br == 0 && r.u.stats.decode_ns == 0);
	buf[4] = 96;
	CHECK(lbr_dec_record(buf, 96, &r) == LBR_BAD);
	uint8_t h[LBR_FILE_HDR_SIZE];
	lbr_file_header(h);
	CHECK(lbr_file_check_header(h, sizeof(h)) == 0 && lbr_file_machine(h) == LBR_EM_NATIVE);
	lbr_file_header_for(h, LBR_EM_RISCV);
	CHECK(lbr_file_check_header(h, sizeof(h)) == 0 && lbr_file_machine(h) == LBR_EM_RISCV);
	h[8] = 1; /* a version-1 file: still read, machine not recorded */
	CHECK(lbr_file_check_header(h, sizeof(h)) == 0 && lbr_file_machine(h) == 0);
	h[8] = 3; /* a future version: refused */
	CHECK(lbr_file_check_header(h, sizeof(h)) < 0);
	h[8] = 2;
	h[0] = 'X';
	CHECK(lbr_file_check_header(h, sizeof(h)) < 0);

	/* A stack in the CTR layout (riscv64): 24-byte entries {ctrsource | V, ctrtarget | MISP,
	 * ctrdata}; type and cycle count round-trip; V clear or reserved ctrdata bits are bad. */
	memset(&s, 0, sizeof(s));
	s.tid = 9;
	s.nr = 2;
	s.flags = LBR_STACK_CTR | LBR_STACK_MISP;
	s.sample_pc = 0x10000;
	s.br[0] = (struct lbr_pair){ 0x10010, 0x10100, (uint32_t)lbr_ctrdata(LBR_CTR_DCALL), 0 };
	s.br[1] = (struct lbr_pair){ 0x10104, 0x10014,
				     (uint32_t)lbr_ctrdata_cc(lbr_ctrdata(LBR_CTR_RET), 70), 1 };
	n = lbr_enc_stack(buf, sizeof(buf), &s);
	CHECK(n == lbr_stack_size_f(2, LBR_STACK_CTR) && n == 32 + 48);
	CHECK(buf[32] == 0x11 && buf[40] == 0x00 && buf[48] == 9 && buf[56] == 0x05 &&
	      buf[64] == 0x15 && buf[72] == 13 && (buf[73] & 0x80));
	CHECK(lbr_dec_record(buf, n, &r) == (long)n && r.u.stack.nr == 2 &&
	      r.u.stack.br[0].from == 0x10010 && r.u.stack.br[0].to == 0x10100 &&
	      (r.u.stack.br[0].data & 15) == LBR_CTR_DCALL && !r.u.stack.br[0].misp &&
	      r.u.stack.br[1].to == 0x10014 && r.u.stack.br[1].misp &&
	      lbr_ctrdata_cycles(r.u.stack.br[1].data) == 70);
	buf[32] &= 0xfe; /* V = 0 */
	CHECK(lbr_dec_record(buf, n, &r) == LBR_BAD);
	buf[32] |= 1;
	buf[52] = 1; /* ctrdata bit 32 (reserved) */
	CHECK(lbr_dec_record(buf, n, &r) == LBR_BAD);
	buf[52] = 0;
	buf[4] = (uint8_t)lbr_stack_size(2); /* the size of 16-byte entries: malformed */
	CHECK(lbr_dec_record(buf, n, &r) == LBR_BAD);
}

static struct lbr_queue q;

static void test_queue(void)
{
	int v[LBR_QUEUE_CAP + 1];
	lbr_queue_init(&q);
	CHECK(lbr_queue_pop(&q) == NULL);
	int ok = 1;
	for (int i = 0; i < LBR_QUEUE_CAP; i++)
		ok &= lbr_queue_push(&q, &v[i]) == 0;
	CHECK(ok);
	CHECK(lbr_queue_push(&q, &v[LBR_QUEUE_CAP]) < 0);
	for (int i = 0; i < LBR_QUEUE_CAP; i++)
		ok &= lbr_queue_pop(&q) == &v[i];
	CHECK(ok);
	CHECK(lbr_queue_pop(&q) == NULL);
}

int main(void)
{
	test_decode_eval();
	test_file();
	test_queue();
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail != 0;
}
