/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_csr.c - the TIP model's CSR port: ID/PARAMS and reset values, illegal accesses
 * (addresses not in the map, ..H registers on XLEN=64 but present on XLEN=32,
 * TIP_S_ADDRi with i >= W, writes to read-only space, privilege too low, MENABLE.S = 0
 * for S-mode), the response when there is no request or a write, bad configuration
 * writes (ignored, STATUS.CFG_ERR set), STATUS write-1-to-clear, the LFSR write, and
 * XLEN=32: halves of the 64-bit counters and 32-bit address/data ports.
 */
#include <stdio.h>

#include "tmt.h"

#define U TIPROF_PRIV_U
#define S TIPROF_PRIV_S
#define M TIPROF_PRIV_M

/* Every register address of the map with W address slots and the given XLEN. */
static int mapped(unsigned a, unsigned w, unsigned xlen)
{
	if (a >= 0x5C0 && a <= 0x5C7)
		return 1;
	if (a == 0x5C8 || a == 0x5C9 || a == 0xDC3 || a == 0xDC6)
		return xlen == 32;
	if (a == 0x7C0 || (a >= 0xDC0 && a <= 0xDC8))
		return 1;
	return a >= 0xDD0 && a < 0xDD0 + w;
}

static void test_id_params(void)
{
	static const struct tip_model_cfg cfgs[] = {
		{ 2, 64, 4, 0 }, { 8, 32, 65535, 0 }, { 1, 64, 1, 0 }, { 4, 32, 16, 0 },
	};
	tmt_section("TIP_ID, TIP_PARAMS, reset values of every register; init rejects bad parameters");
	for (unsigned i = 0; i < sizeof(cfgs) / sizeof(cfgs[0]); i++) {
		struct rig r;
		const struct tip_model_cfg *c = &cfgs[i];

		rig_init(&r, c->w, c->xlen, c->fifo_depth);
		CHECK_EQ(rig_read(&r, TIPROF_TIP_ID), 0x02017119, "TIP_ID (register map 1.2: instruction trigger)");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_PARAMS),
			 c->w | c->xlen << 4 | (uint64_t)c->fifo_depth << 12, "TIP_PARAMS");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_CTRL), 0xF0, "CTRL reset");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_PERIOD), 0x10000, "PERIOD reset");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_WATERMARK), 1, "WATERMARK reset");
		/* LFSR steps every cycle: 5 cycles after reset */
		uint32_t v = TIPROF_LFSR_RESET;
		for (unsigned k = 0; k < 5; k++)
			v = (v >> 1) ^ ((v & 1u) ? TIPROF_LFSR_TOGGLE : 0u);
		CHECK_EQ(rig_read(&r, TIPROF_TIP_LFSR), v, "LFSR (reset value stepped 5 times)");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_POP), 0, "POP reads 0");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 0, "STATUS reset");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKEN), 0, "TAKEN reset");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_LOST), 0, "LOST reset");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_MENABLE), 0, "MENABLE reset");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_CYCLE), 11, "CYCLE in cycle 11");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), 0, "FIFO_COUNT");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_S_CYCLE), 0, "S_CYCLE empty");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_S_INFO), 0, "S_INFO empty");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_S_CTX), 0, "S_CTX empty");
		for (unsigned b = 0; b < c->w; b++)
			CHECK_EQ(rig_read(&r, (uint16_t)(TIPROF_TIP_S_ADDR + b)), 0, "S_ADDRi empty");
		if (c->xlen == 32) {
			CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKENH), 0, "TAKENH");
			CHECK_EQ(rig_read(&r, TIPROF_TIP_LOSTH), 0, "LOSTH");
			CHECK_EQ(rig_read(&r, TIPROF_TIP_CYCLEH), 0, "CYCLEH");
			CHECK_EQ(rig_read(&r, TIPROF_TIP_S_CYCLEH), 0, "S_CYCLEH");
		}
		rig_fini(&r);
	}
	static const struct tip_model_cfg bad[] = {
		{ 3, 64, 4, 0 }, { 16, 64, 4, 0 }, { 0, 64, 4, 0 }, { 2, 48, 4, 0 }, { 2, 64, 0, 0 },
		{ 2, 64, 65536, 0 }, { 2, 64, 4, 2 },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct tip_model m;
		CHECK_EQ(tip_model_init(&m, &bad[i]), (uint64_t)(int64_t)-22, "init -EINVAL");
		tip_model_fini(&m);
	}
}

static void test_illegal(void)
{
	static const unsigned ws[] = { 1, 2, 8 };
	tmt_section("illegal: every address 0x000-0xFFF read from M against the map (..H only on "
		    "XLEN=32, S_ADDRi only i < W); rdata 0; no request -> 0/0");
	for (unsigned xi = 0; xi < 2; xi++) {
		for (unsigned wi = 0; wi < 3; wi++) {
			unsigned xlen = xi ? 32 : 64, w = ws[wi];
			struct rig r;
			unsigned bad = 0;

			rig_init(&r, w, xlen, 4);
			for (unsigned a = 0; a < 0x1000; a++) {
				struct tip_csr_resp p = rig_access(&r, 0, (uint16_t)a, 0, M);
				int want_illegal = !mapped(a, w, xlen);

				if (!CHECK(p.illegal == want_illegal && !(p.illegal && p.rdata),
					   "addr 0x%03x W=%u XLEN=%u: illegal %d rdata %llx", a, w,
					   xlen, p.illegal, (unsigned long long)p.rdata))
					bad++;
			}
			CHECK(bad == 0, "map agrees for W=%u XLEN=%u", w, xlen);
			/* no request: rdata 0 and illegal 0, whatever the other fields say */
			struct tip_csr_req q = { 0, 0, TIPROF_TIP_ID, 0, M };
			struct tip_csr_resp p;
			tip_model_cycle(&r.m, &r.rob, &q, &p);
			CHECK(p.rdata == 0 && p.illegal == 0, "no request -> 0, not illegal");
			q.addr = 0x123;
			tip_model_cycle(&r.m, &r.rob, &q, &p);
			CHECK(p.rdata == 0 && p.illegal == 0, "no request to an unmapped address");
			rig_fini(&r);
		}
	}
	tmt_note("checked 6 configurations x 4096 addresses");

	tmt_section("illegal: writes to read-only space, privilege below the CSR's level, S-mode with "
		    "MENABLE.S = 0; illegal accesses change nothing");
	struct rig r;
	rig_init(&r, 2, 64, 4);
	for (unsigned a = 0xDC0; a <= 0xDD1; a++) {
		if (!mapped(a, 2, 64))
			continue;
		struct tip_csr_resp p = rig_access(&r, 1, (uint16_t)a, 1, M);
		CHECK(p.illegal && !p.rdata, "M write to read-only 0x%03x is illegal", a);
	}
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 0, "no CFG_ERR from illegal writes");
	/* S-mode with MENABLE.S = 0 */
	struct tip_csr_resp p;
	p = rig_access(&r, 0, TIPROF_TIP_CTRL, 0, S);
	CHECK(p.illegal && !p.rdata, "S read of CTRL with MENABLE 0");
	p = rig_access(&r, 0, TIPROF_TIP_ID, 0, S);
	CHECK(p.illegal && !p.rdata, "S read of ID with MENABLE 0");
	p = rig_access(&r, 1, TIPROF_TIP_PERIOD, 7, S);
	CHECK(p.illegal, "S write of PERIOD with MENABLE 0");
	p = rig_access(&r, 1, TIPROF_TIP_POP, 0, S);
	CHECK(p.illegal, "S POP with MENABLE 0");
	p = rig_access(&r, 1, TIPROF_TIP_PERIOD, 0, S);
	CHECK(p.illegal, "S bad PERIOD write with MENABLE 0");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_PERIOD), 0x10000, "PERIOD unchanged by illegal writes");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 0, "no POP_EMPTY / CFG_ERR from illegal accesses");
	p = rig_access(&r, 0, TIPROF_TIP_MENABLE, 0, S);
	CHECK(p.illegal, "S read of MENABLE (M-level)");
	p = rig_access(&r, 1, TIPROF_TIP_MENABLE, 1, S);
	CHECK(p.illegal, "S write of MENABLE (M-level)");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_MENABLE), 0, "MENABLE unchanged");
	/* M enables S access (only bit 0 stored) */
	rig_write(&r, TIPROF_TIP_MENABLE, ~(uint64_t)0);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_MENABLE), 1, "MENABLE stores bit 0 only");
	p = rig_access(&r, 0, TIPROF_TIP_ID, 0, S);
	CHECK(!p.illegal && p.rdata == 0x02017119, "S read of ID with MENABLE 1");
	p = rig_access(&r, 1, TIPROF_TIP_PERIOD, 7, S);
	CHECK(!p.illegal && !p.rdata, "S write of PERIOD with MENABLE 1");
	CHECK_EQ(rig_access(&r, 0, TIPROF_TIP_PERIOD, 0, S).rdata, 7, "PERIOD written by S");
	p = rig_access(&r, 0, TIPROF_TIP_MENABLE, 0, S);
	CHECK(p.illegal, "S read of MENABLE still illegal");
	p = rig_access(&r, 1, TIPROF_TIP_ID, 0, S);
	CHECK(p.illegal, "S write to read-only still illegal");
	/* U-mode: below the S level of every register */
	p = rig_access(&r, 0, TIPROF_TIP_ID, 0, U);
	CHECK(p.illegal, "U read of ID (S-level) with MENABLE 1");
	p = rig_access(&r, 0, TIPROF_TIP_CYCLE, 0, U);
	CHECK(p.illegal, "U read of CYCLE");
	p = rig_access(&r, 1, TIPROF_TIP_POP, 0, U);
	CHECK(p.illegal, "U POP");
	p = rig_access(&r, 0, TIPROF_TIP_MENABLE, 0, U);
	CHECK(p.illegal, "U read of MENABLE");
	rig_write(&r, TIPROF_TIP_MENABLE, 0);
	p = rig_access(&r, 0, TIPROF_TIP_ID, 0, S);
	CHECK(p.illegal, "S read of ID after MENABLE cleared");
	p = rig_access(&r, 0, TIPROF_TIP_MENABLE, 0, M);
	CHECK(!p.illegal && p.rdata == 0, "M read of MENABLE");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 0, "STATUS clean");
	rig_fini(&r);
}

/* A bad write to addr leaves the register (read with rd) unchanged and sets CFG_ERR. */
static void bad_write(struct rig *r, uint16_t addr, uint64_t v, const char *what)
{
	char buf[96];
	uint64_t before = rig_read(r, addr);

	rig_write(r, addr, v);
	snprintf(buf, sizeof(buf), "%s: register unchanged", what);
	CHECK_EQ(rig_read(r, addr), before, buf);
	snprintf(buf, sizeof(buf), "%s: STATUS.CFG_ERR", what);
	CHECK_EQ(rig_read(r, TIPROF_TIP_STATUS), TIPROF_TIP_STATUS_CFG_ERR_MASK, buf);
	rig_write(r, TIPROF_TIP_STATUS, TIPROF_TIP_STATUS_CFG_ERR_MASK);
	CHECK_EQ(rig_read(r, TIPROF_TIP_STATUS), 0, "CFG_ERR cleared");
}

/* A good write to addr is stored (read back as want) with no CFG_ERR. */
static void good_write(struct rig *r, uint16_t addr, uint64_t v, uint64_t want, const char *what)
{
	char buf[96];

	rig_write(r, addr, v);
	snprintf(buf, sizeof(buf), "%s: stored", what);
	CHECK_EQ(rig_read(r, addr), want, buf);
	snprintf(buf, sizeof(buf), "%s: no CFG_ERR", what);
	CHECK_EQ(rig_read(r, TIPROF_TIP_STATUS), 0, buf);
}

static uint32_t step(uint32_t v)
{
	return (v >> 1) ^ ((v & 1u) ? TIPROF_LFSR_TOGGLE : 0u);
}

static void test_bad_writes(void)
{
	struct rig r;

	tmt_section("bad writes ignored with STATUS.CFG_ERR: PERIOD 0 / > 2^32-1, WATERMARK 0 / > depth, "
		    "CTRL MODE=3 / bits outside fields, LFSR 0 / > 2^32-1; legal edge values stored");
	rig_init(&r, 2, 64, 8);
	bad_write(&r, TIPROF_TIP_PERIOD, 0, "PERIOD 0");
	bad_write(&r, TIPROF_TIP_PERIOD, UINT64_C(0x100000000), "PERIOD 2^32");
	bad_write(&r, TIPROF_TIP_PERIOD, ~(uint64_t)0, "PERIOD 2^64-1");
	good_write(&r, TIPROF_TIP_PERIOD, 0xFFFFFFFFu, 0xFFFFFFFFu, "PERIOD 2^32-1");
	good_write(&r, TIPROF_TIP_PERIOD, 1, 1, "PERIOD 1");
	bad_write(&r, TIPROF_TIP_WATERMARK, 0, "WATERMARK 0");
	bad_write(&r, TIPROF_TIP_WATERMARK, 9, "WATERMARK depth+1");
	bad_write(&r, TIPROF_TIP_WATERMARK, UINT64_C(0x100000001), "WATERMARK 2^32+1");
	good_write(&r, TIPROF_TIP_WATERMARK, 8, 8, "WATERMARK depth");
	bad_write(&r, TIPROF_TIP_CTRL, 0xF6, "CTRL MODE=3");
	bad_write(&r, TIPROF_TIP_CTRL, 0x20F0, "CTRL bit 13");
	bad_write(&r, TIPROF_TIP_CTRL, UINT64_C(0x80000000000000F0), "CTRL bit 63");
	good_write(&r, TIPROF_TIP_CTRL, 0x1FFA, 0x1FFA, "CTRL all fields (MODE=1, EN=0)");
	good_write(&r, TIPROF_TIP_CTRL, 0x1F04, 0x1F04, "CTRL MODE=2 k=31");
	good_write(&r, TIPROF_TIP_CTRL, 0xF0, 0xF0, "CTRL reset value");
	/* LFSR: it steps every cycle, so "unchanged" = the undisturbed sequence */
	uint32_t v = (uint32_t)rig_read(&r, TIPROF_TIP_LFSR);
	rig_write(&r, TIPROF_TIP_LFSR, 0);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_LFSR), step(step(v)), "LFSR 0 ignored");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 1, "LFSR 0: CFG_ERR");
	rig_write(&r, TIPROF_TIP_STATUS, 1);
	v = (uint32_t)rig_read(&r, TIPROF_TIP_LFSR);
	rig_write(&r, TIPROF_TIP_LFSR, UINT64_C(0x100000000));
	CHECK_EQ(rig_read(&r, TIPROF_TIP_LFSR), step(step(v)), "LFSR 2^32 ignored");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 1, "LFSR 2^32: CFG_ERR");
	rig_write(&r, TIPROF_TIP_STATUS, 1);
	rig_write(&r, TIPROF_TIP_LFSR, 0xFFFFFFFFu);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_LFSR), 0xFFFFFFFFu, "LFSR write: value seen in the next cycle");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_LFSR), step(0xFFFFFFFFu), "then it steps");
	rig_write(&r, TIPROF_TIP_LFSR, 1);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_LFSR), 1, "LFSR 1 legal");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 0, "no CFG_ERR");
	rig_fini(&r);

	tmt_section("STATUS: CFG_ERR and POP_EMPTY are sticky, write-1-to-clear, each alone; other bits "
		    "ignored");
	rig_init(&r, 2, 64, 8);
	rig_write(&r, TIPROF_TIP_PERIOD, 0);
	rig_write(&r, TIPROF_TIP_POP, 0);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 3, "both sticky bits");
	rig_write(&r, TIPROF_TIP_STATUS, 0);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 3, "write 0 clears nothing");
	rig_write(&r, TIPROF_TIP_STATUS, 0x1C);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 3, "bits 4..2 ignored");
	rig_write(&r, TIPROF_TIP_STATUS, 1);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 2, "W1C CFG_ERR only");
	rig_write(&r, TIPROF_TIP_PERIOD, 0);
	rig_write(&r, TIPROF_TIP_STATUS, 2);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 1, "W1C POP_EMPTY only");
	rig_write(&r, TIPROF_TIP_POP, 0);
	rig_write(&r, TIPROF_TIP_STATUS, ~(uint64_t)0);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 0, "W1C all");
	rig_fini(&r);
}

static void test_xlen32(void)
{
	struct rig r;
	struct tiprof_sample s;

	tmt_section("XLEN=32: CYCLE/CYCLEH, S_CYCLE/S_CYCLEH, TAKEN/TAKENH, LOST/LOSTH halves; 32-bit "
		    "address and write-data ports");
	rig_init(&r, 2, 32, 4);
	/* Test-only fast-forward of the free-running counter (equivalent to 2^32 - 3 idle
	 * cycles: nothing else depends on it but the LFSR, which is not used here). */
	r.m.cycle = UINT64_C(0xFFFFFFFD);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_CYCLE), 0xFFFFFFFDu, "CYCLE low at 2^32-3");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_CYCLEH), 0, "CYCLEH at 2^32-2");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_CYCLE), 0xFFFFFFFFu, "CYCLE low at 2^32-1");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_CYCLEH), 1, "CYCLEH at 2^32");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_CYCLE), 1, "CYCLE low at 2^32+1");
	/* counters: write halves, then one accepted sample carries into the high half */
	rig_write(&r, TIPROF_TIP_TAKENH, 5);
	rig_write(&r, TIPROF_TIP_TAKEN, UINT64_C(0xABCDEF00FFFFFFFF)); /* only 32 bits on the port */
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKENH), 5, "TAKENH kept by a TAKEN write");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKEN), 0xFFFFFFFFu, "TAKEN low");
	rig_write(&r, TIPROF_TIP_LOSTH, 7);
	rig_write(&r, TIPROF_TIP_LOST, 0xFFFFFFFEu);
	/* addresses: the head_pc inputs are 32 bits wide */
	rob_clear(&r.rob, S, 9);
	r.rob.head_bank = 1;
	rob_head(&r.rob, 1, UINT64_C(0xFFFFFFFF80001234), 0);
	rob_head(&r.rob, 0, UINT64_C(0x1234567880001238), 0);
	rig_write(&r, TIPROF_TIP_PERIOD, 1);
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));
	uint64_t c0 = r.m.cycle;                                  /* first sampled cycle */
	rig_idle(&r, 5);                                          /* 4 accepted + 2 lost */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKEN), 3, "TAKEN low after carry");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKENH), 6, "TAKENH after carry");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_LOST), 0, "LOST low after carry");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_LOSTH), 8, "LOSTH after carry");
	CHECK_EQ(rig_read_sample(&r, &s), 4, "FIFO_COUNT");
	CHECK_EQ(s.cycle, c0, "S_CYCLE/S_CYCLEH reassembled");
	CHECK(c0 >> 32 == 1, "the sample is above 2^32");
	CHECK_EQ(s.addr[1], 0x80001234u, "S_ADDR1: 32-bit address");
	CHECK_EQ(s.addr[0], 0x80001238u, "S_ADDR0: 32-bit address");
	/* a half write wins over an increment: low-half write in a sampled cycle */
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));
	rig_write(&r, TIPROF_TIP_TAKEN, 0x10);                    /* sample accepted, write wins */
	rig_write(&r, TIPROF_TIP_TAKENH, 0x20);                   /* sample lost (full) */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKEN), 0x10, "TAKEN low written");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKENH), 0x20, "TAKENH written");
	/* write data is 32 bits: 2^32 arrives as 0 (CFG_ERR), 2^33 + 7 as 7 */
	rig_write(&r, TIPROF_TIP_PERIOD, UINT64_C(0x100000000));
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS) & 1, 1, "PERIOD low half 0: CFG_ERR");
	rig_write(&r, TIPROF_TIP_STATUS, 1);
	rig_write(&r, TIPROF_TIP_PERIOD, UINT64_C(0x200000007));
	CHECK_EQ(rig_read(&r, TIPROF_TIP_PERIOD), 7, "PERIOD low half 7");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS) & 1, 0, "no CFG_ERR");
	rig_fini(&r);

	tmt_section("XLEN=64: 64-bit TAKEN/LOST writes and reads, 64-bit addresses");
	rig_init(&r, 4, 64, 4);
	rig_write(&r, TIPROF_TIP_TAKEN, UINT64_C(0xFEDCBA9876543210));
	rig_write(&r, TIPROF_TIP_LOST, UINT64_C(0x0123456789ABCDEF));
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKEN), UINT64_C(0xFEDCBA9876543210), "TAKEN");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_LOST), UINT64_C(0x0123456789ABCDEF), "LOST");
	rob_clear(&r.rob, M, 0xFFFF);
	r.rob.head_bank = 3;
	rob_head(&r.rob, 3, UINT64_C(0xFFFFFFFF80001234), 1);
	rig_write(&r, TIPROF_TIP_PERIOD, 1);
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);
	CHECK_EQ(rig_read_sample(&r, &s), 1, "FIFO_COUNT");
	CHECK_EQ(s.addr[3], UINT64_C(0xFFFFFFFF80001234), "S_ADDR3 64-bit");
	CHECK_EQ(s.ctx, 0xFFFF, "S_CTX");
	CHECK_EQ(s.priv, M, "priv");
	CHECK_EQ(s.bank, 3, "bank");
	rig_fini(&r);
}

int main(void)
{
	printf("TIP model: CSR port\n");
	test_id_params();
	test_illegal();
	test_bad_writes();
	test_xlen32();
	return tmt_summary();
}
