#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the TIP benches on one simulator and prints 'N passed, N failed'.
#   run.sh model     RUNNER   directed benches + a short random run on the C model alone
#   run.sh verilator VTIPDIR  directed benches + random differential runs on every cached build
#   run.sh icarus    ITIPDIR  directed benches + short random runs under Icarus (VPI)
# Environment: TIP_OUT (logs), TIP_SEED, TIP_RANDOM_CYCLES, TIP_CONFIGS, VVP, TIP_ONLY_BUILT.
set -u
sim=$1; where=$2
out=${TIP_OUT:-build/tip/logs}
seed=${TIP_SEED:-1}
configs=${TIP_CONFIGS:-2-64-4}
rcycles=${TIP_RANDOM_CYCLES:-1800000}
pass=0; fail=0; rlogs=()

run_one() { # config bench seed cycles
  local cfg=$1 bench=$2 s=$3 n=$4 w x d log
  # TIP_ONLY_BUILT: only the configurations built in VTIPDIR (the netlist check builds two)
  [ -n "${TIP_ONLY_BUILT:-}" ] && [ "$sim" = verilator ] && [ ! -x "$where/$cfg/Vtiprof_tb" ] && return
  IFS=- read -r w x d <<<"$cfg"
  log=$out/$sim-$bench-$cfg-$s.log
  case $sim in
    model) "$where" --bench "$bench" --w "$w" --xlen "$x" --depth "$d" --seed "$s" \
             --cycles "$n" --outdir "$out" >"$log" 2>&1 ;;
    verilator) "$where/$cfg/Vtiprof_tb" +bench="$bench" +seed="$s" +cycles="$n" \
             +outdir="$out" >"$log" 2>&1 ;;
    icarus) "${VVP:-vvp}" -n -M "$where" -m tiprof_vpi "$where/$cfg.vvp" +bench="$bench" \
             +seed="$s" +cycles="$n" +outdir="$out" >"$log" 2>&1 ;;
  esac
  local rc=$?
  if [ $rc -eq 0 ] && grep -q "tip-harness: PASS" "$log"; then
    pass=$((pass + 1))
    printf '  ok    %-9s %-22s %-8s %s\n' "$sim" "$bench" "$cfg" "$(grep -o '[0-9]* cycles, [0-9]* checks' "$log")"
  else
    fail=$((fail + 1))
    printf '  FAIL  %-9s %-22s %-8s seed=%s (log: %s)\n' "$sim" "$bench" "$cfg" "$s" "$log"
    grep -E "FAIL|waveform|Assertion failed|FATAL|%Error" "$log" | sed 's/^/        /'
  fi
}

echo "== test-tip ($sim): seed $seed"
# Directed benches: each on the configurations it supports (it refuses the others).
while read -r b bcfgs; do
  case $b in ''|'#'*) continue ;; esac
  for cfg in $bcfgs; do run_one "$cfg" "$b" "$seed" 100000; done
done < tests/rtl/directed.cfg
# Random differential runs.
i=0
for cfg in $configs; do
  case $sim in
    model) n=200000 ;;
    verilator) n=$rcycles ;;
    icarus) n=30000 ;;
  esac
  run_one "$cfg" random $((seed + i)) "$n"
  rlogs+=("$out/$sim-random-$cfg-$((seed + i)).log")
  i=$((i + 1))
done
# Coverage bins summed over this simulator's random runs: every bin must be reached.
if [ "$sim" != model ]; then
  cat "${rlogs[@]}" 2>/dev/null | grep -h "tip-harness: coverage:" | tr ' ' '\n' | grep = |
    awk -F= '{s[$1]+=$2} END {for (k in s) printf "%s %d\n", k, s[k]}' | sort > "$out/$sim-coverage.txt"
  printf '  coverage (%s random runs): %s\n' "$sim" "$(tr '\n' ' ' < "$out/$sim-coverage.txt")"
  if [ "$sim" = verilator ]; then
    zero=$(awk '$2 == 0 {print $1}' "$out/$sim-coverage.txt")
    if [ -n "$zero" ]; then fail=$((fail + 1)); echo "  FAIL  coverage bins never reached: $zero"; else pass=$((pass + 1)); fi
  fi
fi
echo "test-tip-$sim: $pass passed, $fail failed"
[ $fail -eq 0 ]
