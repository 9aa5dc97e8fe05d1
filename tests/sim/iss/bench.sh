#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# bench-iss: time one program on `tiprof iss` (the functional mode: iss_run)
# and on qemu-riscv64 and print both speeds in MIPS (instruction count from
# tiprof iss --stat). Each is run $REPEAT times (default 3) and the fastest
# wall-clock time is used, so a busy machine disturbs the figures less.
set -u
QEMU_RISCV64=${QEMU_RISCV64:-qemu-riscv64}
REPEAT=${REPEAT:-3}
prog=$1
shift
args=${*:-200000}
now() { date +%s.%N; }
# best (smallest) wall-clock time of $REPEAT runs of "$@"
best() {
	local k t0 t1 b=""
	for ((k = 0; k < REPEAT; k++)); do
		t0=$(now); "$@" >/dev/null; t1=$(now)
		b=$(awk -v a="$t0" -v c="$t1" -v b="$b" 'BEGIN { d = c - a; print (b == "" || d < b) ? d : b }')
	done
	echo "$b"
}
count=$($ISS --stat "$prog" $args 2>&1 >/dev/null | sed -n 's/^tiprof iss: \([0-9]*\) instructions$/\1/p')
t_iss=$(best $ISS "$prog" $args)
t_qemu=$(best "$QEMU_RISCV64" "$prog" $args)
awk -v n="$count" -v a="$t_iss" -v b="$t_qemu" -v p="$(basename "$prog")" -v r="$REPEAT" 'BEGIN {
	printf "bench-iss: %s %s: %d instructions; tiprof iss %.2f s = %.1f MIPS; qemu-riscv64 %.2f s = %.1f MIPS (best of %d)\n",
	       p, "'"$args"'", n, a, n / a / 1e6, b, n / b / 1e6, r }'
