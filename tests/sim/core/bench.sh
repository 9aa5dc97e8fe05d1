#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# bench.sh - bench-core: speed of the 4-wide model (ISS + timing model + Oracle, one host
# thread) in simulated cycles per second and instructions per second, then IPC and the
# Oracle cycle stack of every workload at its small and default size on the 4-wide model
# (runs two at a time). Environment: RUN (core-run), WL_OUT, WORKLOAD_SMALL.
set -eu
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
field() { sed -n "s/^$1=\([^ ]*\).*/\1/p" "$2"; }

echo "-- speed: 4wide (ISS + model + Oracle, one thread) on matmul and ptrchase, default size"
TIMEFORMAT='%R %U %S'
for w in matmul ptrchase; do
	t=$( { time "$RUN" "$WL_OUT/$w" > "$TMP/speed" 2>&1; } 2>&1 )
	set -- $t
	awk -v c="$(field cycles "$TMP/speed")" -v i="$(field insns "$TMP/speed")" -v r="$1" \
	    -v cpu="$(echo "$2 + $3" | bc)" -v w="$w" \
		'BEGIN { printf "  %-10s %10d cycles %10d insns, %6.2f s CPU (%6.2f s wall): %5.2f M cycles/s, %5.2f M insns/s per CPU second\n", w, c, i, cpu, r, c / cpu / 1e6, i / cpu / 1e6;
		         if (c / cpu < 1e6) { print "  below the 1 M cycles/s target"; exit 1 } }'
done

echo "-- workloads on 4wide: IPC and Oracle cycle stack (% of cycles)"
# all runs, two at a time, then the table
n=0
for p in $WORKLOAD_SMALL; do
	w=${p%%:*}; s=${p##*:}
	"$RUN" "$WL_OUT/$w" $s > "$TMP/$w.small" 2>&1 &
	"$RUN" "$WL_OUT/$w" > "$TMP/$w.default" 2>&1 &
	wait
done
printf '  %-10s %-7s %11s %11s %6s %8s %8s %8s %8s %8s %8s %8s\n' workload size cycles insns IPC \
	execute alu_st load_st store_st mispred oflush frontend
for p in $WORKLOAD_SMALL; do
	w=${p%%:*}
	for size in small default; do
		f="$TMP/$w.$size"
		printf '  %-10s %-7s %11s %11s %6s' "$w" "$size" "$(field cycles $f)" "$(field insns $f)" "$(field ipc $f)"
		for c in execute alu_stall load_stall store_stall mispredict_flush other_flush frontend; do
			printf ' %8.2f' "$(awk -v x="$(field stack_$c $f)" 'BEGIN { print 100 * x }')"
		done
		echo
	done
done
