#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Mutation check of the RTL tests: plants each bug of tests/rtl/mutants.txt into a copy of the
# RTL, builds it with the same C harness (W=2 XLEN=64 FIFO 16) and runs the directed benches and
# a random differential run; every mutant must be killed. Prints 'N passed, N failed'.
# Usage: mutate.sh VERILATOR HARNESS_DIR LIB...   (HARNESS_DIR = build/vtip/2-64-16, already
# built; LIB: the C libraries the harness links, as absolute paths)
set -u
verilator=$1 base=$2
shift 2
libs="$*"
cfg=2-64-16
out=build/mutants; rm -rf "$out"; mkdir -p "$out"
rtl=$(grep -v '^//' rtl/tiprof.f)
benches=$(awk -v c=$cfg '$0 !~ /^#/ && NF && index($0, c) {print $1}' tests/rtl/directed.cfg)

mutant() { # index file old new
  local i=$1 dir=$out/m$1
  mkdir -p "$dir/rtl"
  cp $rtl "$dir/rtl/"
  python3 - "$dir/$2" "$3" "$4" <<'PY' || return 2
import sys
path, old, new = sys.argv[1], sys.argv[2].replace('\\n', '\n'), sys.argv[3].replace('\\n', '\n')
s = open(path).read()
if s.count(old) != 1:
    sys.exit(f"mutate: '{old}' occurs {s.count(old)} times in {path}")
open(path, 'w').write(s.replace(old, new))
PY
  ( cd "$dir" && $verilator --cc --exe --main --timing --assert -O3 --x-assign fast --x-initial fast \
      -Wno-fatal -Mdir obj --top-module tiprof_tb -LDFLAGS -lm -GW=2 -GXLEN=64 -GDEPTH=16 \
      $(printf '%s ' $rtl) ../../../tests/rtl/tiprof_tb.sv \
      $(cd ../../.. && pwd)/$base/harness/libtiprof_tb.a $libs >verilate.log 2>&1 &&
    make -s -C obj -f Vtiprof_tb.mk OPT_FAST=-O2 OPT_SLOW=-O1 >build.log 2>&1 ) || return 3
  for b in $benches random; do
    if ! "$dir/obj/Vtiprof_tb" +bench=$b +seed=7 +cycles=300000 +outdir="$dir" >"$dir/$b.log" 2>&1; then
      a=$(grep -m1 'Assertion failed in' "$dir/$b.log" | grep -oE '(\.|: )a_[a-z0-9_]+' | head -1 | sed 's/^[.: ]*//')
      echo "$b${a:+ (assertion $a)}" > "$dir/killed"; return 0
    fi
  done
  return 0
}

i=0
while IFS=$'\t' read -r file old new what; do
  case $file in ''|'#'*) continue ;; esac
  i=$((i + 1))
  echo "$what" > "$out/what$i"
  mutant $i "$file" "$old" "$new" &
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do sleep 0.2; done
done < tests/rtl/mutants.txt
wait
pass=0 fail=0
for n in $(seq 1 $i); do
  if [ -f "$out/m$n/killed" ]; then
    pass=$((pass + 1)); printf '  ok    mutant %2d killed by %-14s  %s\n' $n "$(cat $out/m$n/killed)" "$(cat $out/what$n)"
  else
    fail=$((fail + 1)); printf '  FAIL  mutant %2d SURVIVED (or did not build): %s\n' $n "$(cat $out/what$n)"
  fi
done
echo "test-tip-mutants: $pass passed, $fail failed"
[ $fail -eq 0 ]
