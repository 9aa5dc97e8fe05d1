#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Mutation check of the ProfileMe benches (make test-pm-mutants): plants each bug of
# tests/rtl/pm/mutants.txt into a copy of the RTL, builds the ProfileMe testbench in one
# configuration with Verilator (--assert) linking the normal build's harness library, and runs
# the directed scenes and a random differential run; every mutant must be killed.
# Usage: mutate.sh VERILATOR VPMDIR CONFIG LIB...   (VPMDIR/CONFIG already built; LIB absolute)
# Environment: MUT_CYCLES (random run, 300000), MUT_SEED (7), MUT_JOBS (parallel builds, 2).
set -u
verilator=$1 vpm=$2 cfg=$3
shift 3
libs="$*"
top=$(pwd)
IFS=- read -r f x dep t st <<<"$cfg"
stage=$([ "$st" = s ] && echo 1 || echo 0)
cycles=${MUT_CYCLES:-300000} seed=${MUT_SEED:-7} jobs=${MUT_JOBS:-2}
out=$vpm/mutants; rm -rf "$out"; mkdir -p "$out"
rtl=$(grep -v '^//' rtl/tiprof.f)

run_mutant() { # N FILE FROM TO WHAT
  local n=$1 file=$2 from=$3 to=$4 what=$5 d=$out/m$1 files=() r
  mkdir -p "$d/rtl"
  for r in $rtl; do cp "$r" "$d/rtl/"; files+=("$d/rtl/$(basename "$r")"); done
  python3 - "$d/rtl/$(basename "$file")" "$from" "$to" <<'PY' || { echo "B" > "$d/result"; return; }
import sys
p, a, b = sys.argv[1:]
s = open(p).read()
if s.count(a) != 1:
    sys.exit(1)
open(p, "w").write(s.replace(a, b))
PY
  # shellcheck disable=SC2086 # $libs: several library paths
  if ! $verilator --cc --exe --main --timing --assert -O3 --x-assign fast --x-initial fast -Wno-fatal \
       -Mdir "$d/obj" --top-module tiprof_pm_tb -I"$top/tests/rtl/pm" -LDFLAGS -lm \
       -GPMF="$f" -GXLEN="$x" -GDEPTH="$dep" -GTAGS="$t" -GSTAGE="$stage" \
       "$top/rtl/lint/verilator.vlt" "${files[@]}" "$top/tests/rtl/pm/tiprof_pm_tb.sv" \
       "$top/$vpm/$cfg/harness/libpm_tb.a" $libs > "$d/build.log" 2>&1 ||
     ! make -s -C "$d/obj" -f Vtiprof_pm_tb.mk OPT_FAST=-O2 OPT_SLOW=-O1 >> "$d/build.log" 2>&1; then
    echo "B" > "$d/result"; return
  fi
  local how=
  if ! "$d/obj/Vtiprof_pm_tb" +bench=directed +seed="$seed" +cycles=100000 > "$d/directed.log" 2>&1 ||
     ! grep -q "pm-harness: PASS" "$d/directed.log"; then how=directed
  elif ! "$d/obj/Vtiprof_pm_tb" +bench=random +seed="$seed" +cycles="$cycles" > "$d/random.log" 2>&1 ||
     ! grep -q "pm-harness: PASS" "$d/random.log"; then how=random
  fi
  if [ -n "$how" ]; then
    echo "K $how: $(grep -hE "pm-harness: FAIL|Assertion failed" "$d/$how.log" | head -1 | cut -c1-140)" > "$d/result"
  else echo "S" > "$d/result"; fi
}
export -f run_mutant
export verilator out f x dep t stage cycles seed rtl top vpm cfg libs

n=0
while IFS=$'\t' read -r file from to what; do
  case $file in ''|'#'*) continue ;; esac
  n=$((n + 1))
  run_mutant "$n" "$file" "$from" "$to" "$what" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 0.5; done
done < tests/rtl/pm/mutants.txt
wait

pass=0 fail=0 n=0
while IFS=$'\t' read -r file from to what; do
  case $file in ''|'#'*) continue ;; esac
  n=$((n + 1))
  r=$(cat "$out/m$n/result" 2>/dev/null || echo B)
  case $r in
    K*) pass=$((pass + 1)); printf '  ok    m%-2d %s: killed by %s\n' "$n" "$what" "${r#K }" ;;
    S)  fail=$((fail + 1)); printf '  FAIL  m%-2d %s: survived\n' "$n" "$what" ;;
    *)  fail=$((fail + 1)); printf '  FAIL  m%-2d %s: did not apply or build (%s)\n' "$n" "$what" "$out/m$n/build.log" ;;
  esac
done < tests/rtl/pm/mutants.txt
echo "test-pm-mutants: $pass passed, $fail failed ($cfg)"
[ $fail -eq 0 ]
