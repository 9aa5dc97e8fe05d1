/* SPDX-License-Identifier: Apache-2.0
 * crc32 - compute-intensive: CRC-32 (IEEE 802.3, reflected 0xEDB88320) by
 * slicing-by-8 over a 16 KB buffer, argv[1] passes (default 300; 6 for tests).
 *
 * The hot loop (crc_slice8) turns each 8-byte word into eight independent
 * table lookups (8 KB of tables) combined by XOR: shifts, masks, L1-resident
 * loads and XORs with wide instruction-level parallelism and a single short
 * dependency (the CRC itself) per 8 bytes. Expect a Computing-dominated
 * profile spread across that loop body. Each pass continues the CRC of the
 * one before, so the result is the CRC of the buffer repeated `passes` times.
 *
 * Self-check: the lookup tables are derived from a table built bit by bit,
 * which must give the standard check value 0xCBF43926 for "123456789"; the
 * first and the last pass are recomputed byte by byte (Sarwate's method) and
 * must match the slicing-by-8 results. */
#include <stdio.h>
#include <stdlib.h>

#include "wl.h"

#define BUF_BYTES 16384

static uint32_t tab[8][256];

/* Bit-at-a-time CRC, the definition itself. */
static uint32_t crc_bitwise(uint32_t crc, const uint8_t *p, size_t len)
{
	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

/* tab[0] by the definition, tab[1..7] extend it by one zero byte each. */
static void crc_tables(void)
{
	for (int i = 0; i < 256; i++) {
		uint32_t c = (uint32_t)i;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & -(c & 1));
		tab[0][i] = c;
	}
	for (int i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			tab[t][i] = (tab[t - 1][i] >> 8) ^ tab[0][tab[t - 1][i] & 0xff];
}

/* Byte-at-a-time table CRC (Sarwate): the reference for the hot loop. */
static uint32_t crc_bytewise(uint32_t crc, const uint8_t *p, size_t len)
{
	crc = ~crc;
	while (len--)
		crc = (crc >> 8) ^ tab[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

/* Slicing-by-8; len a multiple of 8, p 8-byte aligned, little-endian host. */
static uint32_t __attribute__((noinline))
crc_slice8(uint32_t crc, const uint8_t *p, size_t len)
{
	const uint64_t *w = (const uint64_t *)p;

	crc = ~crc;
	for (size_t i = 0; i < len / 8; i++) {
		uint64_t v = w[i] ^ crc;

		crc = tab[7][v & 0xff] ^ tab[6][(v >> 8) & 0xff] ^
		      tab[5][(v >> 16) & 0xff] ^ tab[4][(v >> 24) & 0xff] ^
		      tab[3][(v >> 32) & 0xff] ^ tab[2][(v >> 40) & 0xff] ^
		      tab[1][(v >> 48) & 0xff] ^ tab[0][v >> 56];
	}
	return ~crc;
}

int main(int argc, char **argv)
{
	long passes = wl_size(argc, argv, 300, 1000000);
	uint64_t *words = malloc(BUF_BYTES);
	uint8_t *buf = (uint8_t *)words;
	uint64_t seed = 2;
	uint32_t crc = 0, first = 0, want_first, want_last = 0;

	if (!words)
		return wl_report("crc32", passes, 0, 0, "out of memory");
	crc_tables();
	if (crc_bitwise(0, (const uint8_t *)"123456789", 9) != 0xcbf43926u ||
	    crc_bytewise(0, (const uint8_t *)"123456789", 9) != 0xcbf43926u)
		return wl_report("crc32", passes, 0, 0, "CRC tables wrong");
	for (size_t i = 0; i < BUF_BYTES / 8; i++)
		words[i] = wl_rand(&seed);

	want_first = crc_bytewise(0, buf, BUF_BYTES);
	for (long p = 0; p < passes; p++) {
		if (p == passes - 1)
			want_last = crc_bytewise(crc, buf, BUF_BYTES);
		crc = crc_slice8(crc, buf, BUF_BYTES);
		if (p == 0)
			first = crc;
	}
	if (first != want_first)
		return wl_report("crc32", passes, first, want_first, "first pass differs");
	return wl_report("crc32", passes, crc, want_last, NULL);
}
