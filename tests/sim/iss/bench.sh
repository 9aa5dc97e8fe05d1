#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# bench-iss: time one program on `tiprof iss` and on qemu-riscv64 and print
# both speeds in MIPS (instruction count from tiprof iss --stat).
set -u
QEMU_RISCV64=${QEMU_RISCV64:-qemu-riscv64}
prog=$1
shift
args=${*:-200000}
now() { date +%s.%N; }
count=$($ISS --stat "$prog" $args 2>&1 >/dev/null | sed -n 's/^tiprof iss: \([0-9]*\) instructions$/\1/p')
t0=$(now); $ISS "$prog" $args >/dev/null; t1=$(now)
"$QEMU_RISCV64" "$prog" $args >/dev/null; t2=$(now)
awk -v n="$count" -v a="$t0" -v b="$t1" -v c="$t2" -v p="$(basename "$prog")" 'BEGIN {
	printf "bench-iss: %s %s: %d instructions; tiprof iss %.2f s = %.1f MIPS; qemu-riscv64 %.2f s = %.1f MIPS\n",
	       p, "'"$args"'", n, b - a, n / (b - a) / 1e6, c - b, n / (c - b) / 1e6 }'
