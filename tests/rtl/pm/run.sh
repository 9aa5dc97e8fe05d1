#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the ProfileMe benches on one simulator and prints 'N passed, N failed'.
#   run.sh model     RUNNER  directed scenes + a random run per configuration on the C model alone
#   run.sh verilator VPMDIR  directed scenes + random differential runs on every cached build, and
#                            with PM_CORE_ELF the core bench (a program on the core model drives
#                            the unit live) on every build with F = 4 or 8 and two tag ids
#   run.sh icarus    IPMDIR  directed scenes + short random runs under Icarus (VPI)
# Environment: PM_OUT (logs), PM_SEED, PM_RANDOM_CYCLES, PM_CONFIGS, VVP, PM_CORE_ELF and
# PM_CORE_ARGS (the core bench's program and arguments).
set -u
sim=$1; where=$2
out=${PM_OUT:-build/pm/logs}
seed=${PM_SEED:-1}
configs=${PM_CONFIGS:-4-64-8-2}
rcycles=${PM_RANDOM_CYCLES:-1700000}
pass=0; fail=0; total=0

run_one() { # config bench seed cycles
  local cfg=$1 bench=$2 s=$3 n=$4 f x d t st log
  IFS=- read -r f x d t st <<<"$cfg"   # F-XLEN-DEPTH-TAGS[-s]: -s = the unit's input stage
  log=$out/$sim-$bench-$cfg-$s.log
  case $sim in
    model) "$where" "$bench" "$f" "$x" "$d" "$t" "$([ "$st" = s ] && echo 1 || echo 0)" "$s" "$n" >"$log" 2>&1 ;;
    verilator) "$where/$cfg/Vtiprof_pm_tb" +bench="$bench" +seed="$s" +cycles="$n" +outdir="$out" >"$log" 2>&1 ;;
    icarus) "${VVP:-vvp}" -n -M "$where" -m tiprof_pm_vpi "$where/$cfg.vvp" +bench="$bench" \
              +seed="$s" +cycles="$n" +outdir="$out" >"$log" 2>&1 ;;
  esac
  local rc=$?
  if [ $rc -eq 0 ] && grep -q "pm-harness: PASS" "$log"; then
    pass=$((pass + 1))
    local c; c=$(grep -o 'PASS [a-z]* [0-9]* cycles' "$log" | grep -o '[0-9]* cycles' | grep -o '[0-9]*')
    total=$((total + c))
    printf '  ok    %-9s %-9s %-11s %s\n' "$sim" "$bench" "$cfg" "$(grep '^pm-harness: [a-z]*: ' "$log" | cut -d' ' -f3- | cut -c1-150)"
  else
    fail=$((fail + 1))
    printf '  FAIL  %-9s %-9s %-11s seed=%s (log: %s)\n' "$sim" "$bench" "$cfg" "$s" "$log"
    grep -E "FAIL|Assertion failed|FATAL|%Error" "$log" | head -5 | sed 's/^/        /'
  fi
}

echo "== test-pm ($sim): seed $seed"
i=0
for cfg in $configs; do
  case $sim in
    model) n=300000 ;;
    verilator) n=$rcycles ;;
    icarus) n=20000 ;;
  esac
  run_one "$cfg" directed "$seed" 100000
  run_one "$cfg" random $((seed + i)) "$n"
  case $sim-$cfg in
    verilator-[48]-*-*-2*)
      [ -n "${PM_CORE_ELF:-}" ] && TIPROF_TB_ELF=$PM_CORE_ELF TIPROF_TB_ARGS=${PM_CORE_ARGS:-} \
        TIPROF_TB_PERIOD=64 TIPROF_TB_PAIR=32 run_one "$cfg" core "$seed" 100000000 ;;
  esac
  i=$((i + 1))
done
echo "test-pm-$sim: $pass passed, $fail failed ($total cycles compared)"
[ $fail -eq 0 ]
