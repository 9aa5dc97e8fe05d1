#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make test-tip-coverage / test-pm-coverage: line and toggle coverage of the RTL (verilator
# --coverage-line --coverage-toggle, one build) over the directed benches of that configuration
# and one random run, merged with verilator_coverage, reported per module
# (tests/rtl/coverage_report.py), and held to a floor (docs/verification.md "Coverage").
#   coverage.sh UNIT BUILDDIR CONFIG OUTDIR RANDOM_CYCLES
# UNIT tip: Vtiprof_tb, the directed benches tests/rtl/directed.cfg lists for CONFIG, every rtl/
#           module counted;
#      pm:  Vtiprof_pm_tb, its directed scenes, the tiprof_pm* modules counted.
# Environment: TIP_COV_LINE_FLOOR, TIP_COV_TOGGLE_FLOOR, PM_COV_LINE_FLOOR, PM_COV_TOGGLE_FLOOR
# (percent over the counted modules), TIP_SEED / PM_SEED.
set -u
unit=$1; dir=$2; cfg=$3; out=$4; rcycles=$5
case $unit in
  tip)
    # Floors: measured 2026-11-25 on 2-64-16 (directed benches + 1.8M random cycles, seed 1)
    # at line 96.9 % (93/96 blocks) and toggle 81.9 % (4591/5608 bits), set a little below.
    line_floor=${TIP_COV_LINE_FLOOR:-96}; toggle_floor=${TIP_COV_TOGGLE_FLOOR:-80}
    seed=${TIP_SEED:-1}; tb=Vtiprof_tb; harness=tip-harness; title="TIP RTL"; modre=.
    what="the RTL (W-XLEN-DEPTH $cfg)" ;;
  pm)
    # Floors: measured 2026-11-25 on 4-64-8-2 (directed + 600k random cycles, seed 1) at line
    # 92.8 % (90/97 blocks: the 7 missed are XLEN=32-only counter halves and an unreachable
    # default) and toggle 72.9 % (4876/6687 bits), set a little below.
    line_floor=${PM_COV_LINE_FLOOR:-92}; toggle_floor=${PM_COV_TOGGLE_FLOOR:-72}
    seed=${PM_SEED:-1}; tb=Vtiprof_pm_tb; harness=pm-harness; title="ProfileMe RTL"
    modre='^tiprof_pm'; what="the ProfileMe RTL (F-XLEN-DEPTH-TAGS $cfg)" ;;
  *) echo "coverage.sh: unknown unit '$unit' (tip, pm)" >&2; exit 2 ;;
esac
rm -rf "$out" && mkdir -p "$out"
fail=0; runs=0
echo "== test-$unit-coverage: line and toggle coverage of $what, seed $seed"
run() { # bench cycles
  local log=$out/$1.log
  if "$dir/$tb" +bench="$1" +seed="$seed" +cycles="$2" +outdir="$out" \
       +covfile="$out/$1.dat" > "$log" 2>&1 && grep -q "$harness: PASS" "$log" && [ -s "$out/$1.dat" ]; then
    runs=$((runs + 1))
  else
    fail=$((fail + 1)); echo "  FAIL  $1 (log: $log)"
  fi
}
if [ "$unit" = tip ]; then
  while read -r b bcfgs; do
    case $b in ''|'#'*) continue ;; esac
    for c in $bcfgs; do [ "$c" = "$cfg" ] && run "$b" 100000; done
  done < tests/rtl/directed.cfg
else
  run directed 100000
fi
run random "$rcycles"
verilator_coverage --write "$out/merged.dat" "$out"/*.dat > "$out/merge.log" 2>&1 ||
  { cat "$out/merge.log"; exit 1; }
rm -rf "$out/annotate"
verilator_coverage --annotate "$out/annotate" --annotate-min 1 "$out/merged.dat" > "$out/annotate.log" 2>&1
python3 tests/rtl/coverage_report.py "$out/merged.dat" "$line_floor" "$toggle_floor" \
  "$out/$unit-coverage.txt" "$title" "$cfg" "$runs" "$seed" "$rcycles" "$modre"
rc=$?
echo "  report: $out/$unit-coverage.txt (annotated sources: $out/annotate/)"
if [ $rc -ne 0 ]; then fail=$((fail + 1)); echo "  FAIL  coverage below the floor (line $line_floor %, toggle $toggle_floor %)"; fi
echo "test-$unit-coverage: $runs runs, $fail failed"
[ $fail -eq 0 ]
