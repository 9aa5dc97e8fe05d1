#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Planted bugs in the ISS's Xtpsd semantics (sim/iss/iss_core.c) must each be caught by the
# selective-dispatch test programs: every mutant is built into sd-step, which runs
# sd_count on and sd_asm; a mutant survives if all of them pass.
# Usage: sd_mutants.sh CC CFLAGS OUTDIR ISA_LIB SD_COUNT SD_ASM
# CFLAGS and the object list are word lists on purpose.
# shellcheck disable=SC2086
set -eu
CC=$1 CFLAGS=$2 OUT=$3 ISA_LIB=$4 SD_COUNT=$5 SD_ASM=$6
SRC=sim/iss/iss_core.c
mkdir -p "$OUT"
# name|sed expression (each must change the source)
MUTANTS='pf.inc/incr ignore the flag|s/^\t\tif (!pf_on(s, i->pf))$/\t\tif (0)/
pf.blk polarity|s/^\t\tif (!pf_on(s, i->pf)) {$/\t\tif (pf_on(s, i->pf)) {/
resetpf sets|s/^\t\tflags \&= ~m;/\t\tflags |= m;/
poppf keeps the flags|s/^\t\t\tflags = PF_ENTRY(v, depth);/\t\t\t(void)0;/
pushpf overflow not counted|s/^\t\t} else if (ovf < TIPROF_SD_OVF_MAX) {/\t\t} else if (0) {/
flag index off by one|s/return (s->pfstate >> f) \& 1;/return (s->pfstate >> (f ^ 1)) \& 1;/'
echo "$MUTANTS" | while IFS='|' read -r name expr; do
	sed "$expr" "$SRC" > "$OUT/iss_core.c"
	if cmp -s "$SRC" "$OUT/iss_core.c"; then
		echo "sd-mutants: '$name' did not apply"; exit 1
	fi
	objs=""
	for f in iss_fp iss_mem iss_syscall iss_load; do
		[ -f "$OUT/$f.o" ] || $CC $CFLAGS -c -o "$OUT/$f.o" "sim/iss/$f.c"
		objs="$objs $OUT/$f.o"
	done
	$CC $CFLAGS -c -o "$OUT/iss_core.o" "$OUT/iss_core.c"
	$CC $CFLAGS -o "$OUT/sd-step" tests/sim/iss/sd_step.c "$OUT/iss_core.o" $objs "$ISA_LIB" -lm
	if "$OUT/sd-step" "$SD_COUNT" on 200 >/dev/null 2>&1 && "$OUT/sd-step" "$SD_ASM" >/dev/null 2>&1; then
		echo "sd-mutants: SURVIVED: $name"; exit 1
	fi
	echo "sd-mutants: caught: $name"
done
