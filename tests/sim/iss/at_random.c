/* SPDX-License-Identifier: Apache-2.0 */
/* Prints the 16 AT_RANDOM bytes the loader gave this process, in hex:
 * run under `qemu-riscv64 -seed S` it reveals the bytes QEMU gives every
 * program for that seed, which iss-lockstep then places on its stack. */
#include <stdio.h>
#include <sys/auxv.h>

int main(void)
{
	const unsigned char *r = (const unsigned char *)getauxval(AT_RANDOM);
	int i;

	for (i = 0; i < 16; i++)
		printf("%02x", r[i]);
	printf("\n");
	return 0;
}
