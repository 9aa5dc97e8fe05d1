#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Mutation check of the selective-dispatch benches (make test-sd-mutants): plants each bug of
# tests/rtl/sd/mutants.txt into a copy of the RTL, builds the testbench in one configuration with
# Verilator (--assert) linking the normal build's harness library, runs the directed scenes and a
# random run; every mutant must be killed.
# Usage: mutate.sh VERILATOR VSDDIR CONFIG   (VSDDIR/CONFIG already built)
# Environment: MUT_CYCLES (random run, 200000), MUT_SEED (7), MUT_JOBS (parallel builds, 2),
# MUT_ONLY (one mutant's number: only that one).
set -u
verilator=$1 vsd=$2 cfg=$3
top=$(pwd)
IFS=- read -r w p c e l <<<"$cfg"
cycles=${MUT_CYCLES:-200000} seed=${MUT_SEED:-7} jobs=${MUT_JOBS:-2}
out=$vsd/mutants; rm -rf "$out"; mkdir -p "$out"
rtl="rtl/tiprof_sd_flags.sv rtl/tiprof_sd_filter.sv rtl/tiprof_sd_fpred.sv"

run_mutant() { # N FILE FROM TO
  local n=$1 file=$2 from=$3 to=$4 d=$out/m$1 files=() r
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
  if ! $verilator --cc --exe --main --timing --assert -O3 --x-assign fast --x-initial fast -Wno-fatal \
       -Mdir "$d/obj" --top-module tiprof_sd_tb -GW="$w" -GPCW="$p" -GCKPT="$c" -GENTRIES="$e" \
       -GPOPLAT="$l" "${files[@]}" "$top/tests/rtl/sd/tiprof_sd_tb.sv" \
       "$top/$vsd/$cfg/harness/libsd_tb.a" > "$d/build.log" 2>&1 ||
     ! make -s -C "$d/obj" -f Vtiprof_sd_tb.mk OPT_FAST=-O2 OPT_SLOW=-O1 >> "$d/build.log" 2>&1; then
    echo "B" > "$d/result"; return
  fi
  local how=
  if ! "$d/obj/Vtiprof_sd_tb" +bench=directed +seed="$seed" > "$d/directed.log" 2>&1 ||
     ! grep -q "sd-harness: PASS" "$d/directed.log"; then how=directed
  elif ! "$d/obj/Vtiprof_sd_tb" +bench=random +seed="$seed" +cycles="$cycles" > "$d/random.log" 2>&1 ||
     ! grep -q "sd-harness: PASS" "$d/random.log"; then how=random
  fi
  if [ -n "$how" ]; then
    echo "K $how: $(grep -hE "sd-harness: FAIL|Assertion failed|a_sd_" "$d/$how.log" | head -1 | cut -c1-140)" > "$d/result"
  else echo "S" > "$d/result"; fi
}

n=0
while IFS=$'\t' read -r file from to what; do
  case $file in ''|'#'*) continue ;; esac
  n=$((n + 1))
  [ -n "${MUT_ONLY:-}" ] && [ "$n" != "$MUT_ONLY" ] && continue
  run_mutant "$n" "$file" "$from" "$to" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 0.5; done
done < tests/rtl/sd/mutants.txt
wait

pass=0 fail=0 n=0
while IFS=$'\t' read -r file from to what; do
  case $file in ''|'#'*) continue ;; esac
  n=$((n + 1))
  [ -n "${MUT_ONLY:-}" ] && [ "$n" != "$MUT_ONLY" ] && continue
  r=$(cat "$out/m$n/result" 2>/dev/null || echo B)
  case $r in
    K*) pass=$((pass + 1)); printf '  ok    m%-2d %s: killed by %s\n' "$n" "$what" "${r#K }" ;;
    S)  fail=$((fail + 1)); printf '  FAIL  m%-2d %s: survived\n' "$n" "$what" ;;
    *)  fail=$((fail + 1)); printf '  FAIL  m%-2d %s: did not apply or build (%s)\n' "$n" "$what" "$out/m$n/build.log" ;;
  esac
done < tests/rtl/sd/mutants.txt
echo "test-sd-mutants: $pass passed, $fail failed ($cfg)"
[ $fail -eq 0 ]
