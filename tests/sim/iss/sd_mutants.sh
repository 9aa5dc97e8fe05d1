#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Planted bugs in Xtpsd's semantics - the ISS's execution (sim/iss/iss_core.c) and the flag
# state machine it shares with the timing model (include/tiprof/seldisp.h) - must each be
# caught by the selective-dispatch test programs: every mutant is built into sd-step, which
# runs sd_count on and sd_asm; a mutant survives if all of them pass.
# Usage: sd_mutants.sh CC CFLAGS OUTDIR ISA_LIB SD_COUNT SD_ASM
# CFLAGS and the object list are word lists on purpose.
# shellcheck disable=SC2086
set -eu
CC=$1 CFLAGS=$2 OUT=$3 ISA_LIB=$4 SD_COUNT=$5 SD_ASM=$6
CORE=sim/iss/iss_core.c HDR=include/tiprof/seldisp.h
mkdir -p "$OUT/inc/tiprof"
objs=""
for f in iss_fp iss_mem iss_syscall iss_load; do
	$CC $CFLAGS -c -o "$OUT/$f.o" "sim/iss/$f.c"
	objs="$objs $OUT/$f.o"
done
# file|name|sed expression (each must change the file)
MUTANTS='core|pf.inc/incr ignore the flag|s/^\t\tif (!pf_on(s, i->pf))$/\t\tif (0)/
core|pf.blk polarity|s/^\t\tif (!pf_on(s, i->pf)) {$/\t\tif (pf_on(s, i->pf)) {/
hdr|resetpf sets|s/^\t\tflags \&= ~m;/\t\tflags |= m;/
hdr|poppf keeps the flags|s/^\t\t\tflags = tiprof_sd_entry(st, depth);/\t\t\t(void)0;/
hdr|pushpf overflow not counted|s/^\t\t} else if (ovf < TIPROF_SD_OVF_MAX) {/\t\t} else if (0) {/
hdr|flag index off by one|s/return (unsigned)(st >> f) \& 1;/return (unsigned)(st >> (f ^ 1)) \& 1;/
hdr|WARL depth not clamped|s/^\tif (depth > TIPROF_SD_STACK_DEPTH)$/\tif (0)/'
echo "$MUTANTS" | while IFS='|' read -r file name expr; do
	cp "$CORE" "$OUT/iss_core.c"
	cp "$HDR" "$OUT/inc/tiprof/seldisp.h"
	if [ "$file" = core ]; then f="$CORE" m="$OUT/iss_core.c"; else f="$HDR" m="$OUT/inc/tiprof/seldisp.h"; fi
	sed "$expr" "$f" > "$m"
	if cmp -s "$f" "$m"; then
		echo "sd-mutants: '$name' did not apply"; exit 1
	fi
	$CC -I"$OUT/inc" $CFLAGS -c -o "$OUT/iss_core.o" "$OUT/iss_core.c"
	$CC -I"$OUT/inc" $CFLAGS -o "$OUT/sd-step" tests/sim/iss/sd_step.c "$OUT/iss_core.o" $objs "$ISA_LIB" -lm
	if "$OUT/sd-step" "$SD_COUNT" on 200 >/dev/null 2>&1 && "$OUT/sd-step" "$SD_ASM" >/dev/null 2>&1; then
		echo "sd-mutants: SURVIVED: $name"; exit 1
	fi
	echo "sd-mutants: caught: $name"
done
