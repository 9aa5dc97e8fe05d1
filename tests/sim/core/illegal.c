/* SPDX-License-Identifier: Apache-2.0 */
/* illegal.c - a RISC-V program that executes a reserved encoding: `tiprof sim` must stop with
 * one line naming it and exit 1 (tests/sim/core/run-tests.sh). */
int main(void)
{
	__asm__ volatile(".word 0xffffffff");
	return 0;
}
