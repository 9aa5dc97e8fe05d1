#!/usr/bin/env bash
# bench.sh - bench-lbr: run time of a traced vs an untraced run of lbr_loops (CPU-bound,
# data-dependent branches) at 100 and 1000 samples/s of task-clock, median of 5 runs each,
# plus the tracer's own counters (stops per stack) and the cost per stop ((traced CPU -
# untraced CPU) / stops, i.e. stop + its share of sampling and decoding), for both stopping
# mechanisms (LBR_BENCH_MECHS, default "hwbp int3"). Needs BUILD.
set -u
B=${BUILD:-build}
BIN=$B/bin/tiprof-lbr
P=$B/lbr/tests/lbr_loops
REPS=${LBR_BENCH_REPS:-40000}
W=$B/lbr/bench; mkdir -p "$W"
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
cpu() { /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1+$2}'; }
base=$(for i in 1 2 3 4 5; do cpu "$P" "$REPS"; done | med)
echo "untraced: ${base}s CPU (lbr_loops $REPS)"
for mech in ${LBR_BENCH_MECHS:-hwbp int3}; do
for period in 10000000 1000000; do
  t=$(for i in 1 2 3 4 5; do cpu "$BIN" record -o "$W/b.lbr" --mech $mech --period $period -- "$P" "$REPS"; done | med)
  st=$("$BIN" dump "$W/b.lbr" | awk '/^stats/ {for (i=3;i<=NF;i++) {split($i,kv,"="); s[kv[1]]+=kv[2]}} END {printf "samples=%d stacks=%d stops=%d stops/stack=%.1f", s["samples"], s["stacks"], s["stops"], s["stops"]/(s["stacks"]?s["stacks"]:1)}')
  stops=$(echo "$st" | sed 's/.*stops=\([0-9]*\).*/\1/')
  echo "$mech, traced, $((1000000000 / period)) samples/s: ${t}s CPU, overhead $(awk -v a=$t -v b=$base 'BEGIN {printf "%.1f%%", (a-b)/b*100}'); $st; $(awk -v a=$t -v b=$base -v n=$stops 'BEGIN {printf "%.1f us CPU per stop", n ? (a-b)/n*1e6 : 0}')"
done
done
