#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the selective-dispatch benches on one simulator and prints 'N passed, N failed'.
#   run.sh model     RUNNER  directed scenes + a random run per configuration on the C model alone
#   run.sh verilator VSDDIR  directed scenes + random differential runs on every cached build
#   run.sh icarus    ISDDIR  directed scenes + short random runs under Icarus (VPI)
# Environment: SD_OUT (logs), SD_SEED, SD_RANDOM_CYCLES, SD_CONFIGS, VVP.
set -u
sim=$1; where=$2
out=${SD_OUT:-build/sd/logs}
seed=${SD_SEED:-1}
configs=${SD_CONFIGS:-4-64-8-64-0}
rcycles=${SD_RANDOM_CYCLES:-400000}
pass=0; fail=0; total=0

run_one() { # config bench seed cycles
  local cfg=$1 bench=$2 s=$3 n=$4 w p c e l log
  IFS=- read -r w p c e l <<<"$cfg"   # W-PCW-CKPT-ENTRIES-POPLAT
  log=$out/$sim-$bench-$cfg-$s.log
  case $sim in
    model) "$where" "$bench" "$w" "$p" "$c" "$e" "$l" "$s" "$n" >"$log" 2>&1 ;;
    verilator) "$where/$cfg/Vtiprof_sd_tb" +bench="$bench" +seed="$s" +cycles="$n" +outdir="$out" >"$log" 2>&1 ;;
    icarus) "${VVP:-vvp}" -n -M "$where" -m tiprof_sd_vpi "$where/$cfg.vvp" +bench="$bench" \
              +seed="$s" +cycles="$n" +outdir="$out" >"$log" 2>&1 ;;
  esac
  local rc=$?
  if [ $rc -eq 0 ] && grep -q "sd-harness: PASS" "$log"; then
    pass=$((pass + 1))
    local k; k=$(grep -o 'PASS [a-z]* [0-9]* cycles' "$log" | grep -o '[0-9]* cycles' | grep -o '[0-9]*')
    total=$((total + k))
    printf '  ok    %-9s %-9s %-15s %s\n' "$sim" "$bench" "$cfg" "$(grep -o 'PASS.*' "$log")"
  else
    fail=$((fail + 1))
    printf '  FAIL  %-9s %-9s %-15s seed=%s (log: %s)\n' "$sim" "$bench" "$cfg" "$s" "$log"
    grep -E "FAIL|expectation failed|Assertion failed|a_sd_|FATAL|%Error" "$log" | head -5 | sed 's/^/        /'
  fi
}

echo "== test-sd ($sim): seed $seed"
i=0
for cfg in $configs; do
  case $sim in
    model) n=300000 ;;
    verilator) n=$rcycles ;;
    icarus) n=20000 ;;
  esac
  run_one "$cfg" directed "$seed" 0
  run_one "$cfg" random $((seed + i)) "$n"
  i=$((i + 1))
done
echo "test-sd-$sim: $pass passed, $fail failed ($total cycles compared)"
[ $fail -eq 0 ]
