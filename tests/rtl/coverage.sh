#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make test-tip-coverage: line and toggle coverage of the RTL (verilator --coverage-line
# --coverage-toggle, one build) over the directed benches of that configuration and one random
# run, merged with verilator_coverage, reported per module, and held to a floor
# (docs/verification.md "Coverage").
#   coverage.sh CTIPDIR CONFIG OUTDIR RANDOM_CYCLES
# Environment: TIP_COV_LINE_FLOOR, TIP_COV_TOGGLE_FLOOR (percent over all rtl/ modules).
set -u
dir=$1; cfg=$2; out=$3; rcycles=$4
# Floors: measured 2026-11-25 on 2-64-16 (directed benches + 1.8M random cycles, seed 1)
# at line 96.9 % (93/96 blocks) and toggle 81.9 % (4591/5608 bits), set a little below (docs/verification.md "Coverage").
line_floor=${TIP_COV_LINE_FLOOR:-96}
toggle_floor=${TIP_COV_TOGGLE_FLOOR:-80}
seed=${TIP_SEED:-1}
rm -rf "$out" && mkdir -p "$out"
fail=0; runs=0
echo "== test-tip-coverage: line and toggle coverage of the RTL (W-XLEN-DEPTH $cfg), seed $seed"
run() { # bench cycles
  local log=$out/$1.log
  if "$dir/Vtiprof_tb" +bench="$1" +seed="$seed" +cycles="$2" +outdir="$out" \
       +covfile="$out/$1.dat" > "$log" 2>&1 && grep -q "tip-harness: PASS" "$log" && [ -s "$out/$1.dat" ]; then
    runs=$((runs + 1))
  else
    fail=$((fail + 1)); echo "  FAIL  $1 (log: $log)"
  fi
}
while read -r b bcfgs; do
  case $b in ''|'#'*) continue ;; esac
  for c in $bcfgs; do [ "$c" = "$cfg" ] && run "$b" 100000; done
done < tests/rtl/directed.cfg
run random "$rcycles"
verilator_coverage --write "$out/merged.dat" "$out"/*.dat > "$out/merge.log" 2>&1 ||
  { cat "$out/merge.log"; exit 1; }
rm -rf "$out/annotate"
verilator_coverage --annotate "$out/annotate" --annotate-min 1 "$out/merged.dat" > "$out/annotate.log" 2>&1
python3 tests/rtl/coverage_report.py "$out/merged.dat" "$line_floor" "$toggle_floor" "$out/tip-coverage.txt" "TIP RTL" "$cfg" "$runs" "$seed" "$rcycles"
rc=$?
echo "  report: $out/tip-coverage.txt (annotated sources: $out/annotate/)"
if [ $rc -ne 0 ]; then fail=$((fail + 1)); echo "  FAIL  coverage below the floor (line $line_floor %, toggle $toggle_floor %)"; fi
echo "test-tip-coverage: $runs runs, $fail failed"
[ $fail -eq 0 ]
