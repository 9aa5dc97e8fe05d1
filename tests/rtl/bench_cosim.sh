#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/rtl/bench_cosim.sh - speed of the live co-simulation (make bench-cosim): quicksort 20000
# on the 4-wide core model driving the TIP unit (bench "core", W=4 XLEN=64 FIFO 8), as
# simulated core cycles per CPU second (user + system; best of N runs, so other load on the
# machine matters less than with wall time), and the recording path of `tiprof sim --profile`
# with the C model and with the RTL (FIFO 64).
# Usage: bench_cosim.sh BUILD [N]
set -u
BUILD=$1
N=${2:-3}
OUT=$BUILD/tip/logs
mkdir -p "$OUT"
export TIPROF_TB_ELF=$BUILD/workloads/quicksort TIPROF_TB_ARGS=20000

# best CPU seconds of N runs of the command
cpu() {
	local best="" t
	for _ in $(seq "$N"); do
		t=$( { TIMEFORMAT='%U %S'; time "$@" >"$OUT/bench-cosim-last.log" 2>&1; } 2>&1 |
		     awk '{print $1 + $2}')
		grep -q "FAIL" "$OUT/bench-cosim-last.log" && { echo "FAILED: $*" >&2; exit 1; }
		best=$(awk -v a="$t" -v b="$best" 'BEGIN {print (b == "" || a < b) ? a : b}')
	done
	echo "$best"
}
rate() { awk -v c="$1" -v s="$2" 'BEGIN {printf "%.2f", c / s / 1e6}'; }

MODEL=("$BUILD/tip/tip_run_model" --bench core --w 4 --xlen 64 --depth 8 --cycles 1000000000 --outdir "$OUT")
VU=("$BUILD/vu/4-64-8/tip_run_vu" --bench core --w 4 --xlen 64 --depth 8 --cycles 1000000000 --outdir "$OUT")
"${MODEL[@]}" >"$OUT/bench-cosim-model.log"
c=$(sed -n 's/^core: [^:]*: \([0-9]*\) core cycles.*/\1/p' "$OUT/bench-cosim-model.log")
# TIPROF_TB_NOCOMPARE: the unit alone (C model or RTL), no reference, checks or waveform ring.
m=$(TIPROF_TB_NOCOMPARE=1 cpu "${MODEL[@]}")
r=$(TIPROF_TB_NOCOMPARE=1 cpu "${VU[@]}")
o=$(TIPROF_TB_NOCOMPARE=1 cpu "$BUILD/vtip/4-64-8/Vtiprof_tb" +bench=core +cycles=1000000000 +outdir="$OUT")
b=$(cpu "${VU[@]}")
h=$(cpu "${MODEL[@]}")
pct() { awk -v m="$1" -v r="$2" 'BEGIN {printf "%.0f", 100 * (1 - m / r)}'; }
echo "quicksort 20000 on the 4-wide core, $c core cycles; M cycles per CPU second, best of $N"
echo "(load average $(cut -d' ' -f1-3 /proc/loadavg); the unit W=4 XLEN=64 FIFO 8, drained one CSR access per cycle)"
echo "core + C TIP model:                                   $(rate "$c" "$m")"
echo "core + Verilated RTL, C-driven speed build:           $(rate "$c" "$r")  attaching the RTL instead costs $(pct "$m" "$r")% of throughput"
echo "core + Verilated RTL, SV testbench (assertion build): $(rate "$c" "$o")  costs $(pct "$m" "$o")%"
echo "core + RTL + C model compared every cycle (+ waveform ring, coverage): $(rate "$c" "$b")"
echo "core + C model in the test harness (+ waveform ring, coverage):        $(rate "$c" "$h")"
# The user path: tiprof sim --profile (with the Oracle), C model vs RTL in lockstep (FIFO 64).
unset TIPROF_TB_ELF TIPROF_TB_ARGS
c=$(env -i "$BUILD/bin/tiprof" sim -o - "$BUILD/workloads/quicksort" 20000 2>/dev/null | sed -n 's/^  cycles *//p')
ps=$(cpu env -i "$BUILD/bin/tiprof" sim --profile "$OUT/bench-cosim.tps" "$BUILD/workloads/quicksort" 20000)
pr=$(cpu env -i "$BUILD/bin/tiprof" sim --rtl --profile "$OUT/bench-cosim-rtl.tps" "$BUILD/workloads/quicksort" 20000)
cmp -s "$OUT/bench-cosim.tps" "$OUT/bench-cosim-rtl.tps" || { echo "FAILED: the RTL's sample file differs" >&2; exit 1; }
echo "tiprof sim --profile (C model, with the Oracle): $(rate "$c" "$ps")"
echo "tiprof sim --profile --rtl (RTL FIFO 64 + C model compared every cycle): $(rate "$c" "$pr")  (identical sample files)"
