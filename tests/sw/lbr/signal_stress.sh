#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# signal_stress.sh [RUNS [PERIOD_NS [MECH]]] - lbr_signal traced RUNS times (default 100) at a
# short period (default 50000 ns: 20 000 samples/s, four times test-lbr's rate), every stack
# that touches the executable checked against one exact run (check.py --with-exe). The
# reproducer of the held-stack fault of docs/lbr.md section 6 (13 of 100 runs failed before the
# fix, int3). Prints one line per failing run and "N runs, F failed"; exit status 1 if F > 0.
# Needs BUILD (make test-lbr's prerequisites). Work files in $BUILD/lbr/stress.
set -u
B=${BUILD:-build}
T=$B/lbr/tests
SO=$(readlink -f "$B/lib/libtiprof-lbr.so")
W=${STRESS_DIR:-$B/lbr/stress}
HERE=$(dirname "$0")
N=${1:-100}; P=${2:-50000}; MECH=${3:-int3}
p=lbr_signal
case $N$P in *[!0-9]*) echo "signal_stress.sh: RUNS and PERIOD_NS are numbers: $N $P" >&2; exit 2 ;; esac
case $MECH in hwbp|int3) ;; *) echo "signal_stress.sh: MECH is hwbp or int3: $MECH" >&2; exit 2 ;; esac
[ -x "$T/$p" ] && [ -x "$T/lbr_exact" ] || { echo "signal_stress.sh: $T/$p or lbr_exact missing (make test-lbr builds them)" >&2; exit 2; }
rm -rf "$W"; mkdir -p "$W"
# as run.sh: identical environments (same size), the tracer started in the exact run too
envof() { printf 'LD_BIND_NOW=1 LD_PRELOAD=%s TIPROF_LBR_OUT=%s TIPROF_LBR_MECH=%s TIPROF_LBR_PERIOD=%012d TIPROF_LBR_DEPTH=016' "$SO" "$W/$p.$1.lbr" "$MECH" "$2"; }
env -i $(envof x 999999999999) "$T/lbr_exact" "$W/$p.exact" "$T/$p" 0002 > "$W/exact.out" 2>&1
objdump -d --no-show-raw-insn "$T/$p" > "$W/$p.objd"
failed=0
for i in $(seq 1 "$N"); do
  rm -f "$W/$p.t.lbr"
  env -i $(envof t "$P") setarch -R "$T/$p" 1000 > "$W/out" 2>&1
  "$B/bin/tiprof" lbr dump "$W/$p.t.lbr" > "$W/$p.dump"
  if ! out=$(python3 "$HERE/check.py" "$W/$p.dump" "$W/$p.exact" "$W/$p.objd" "$T/$p" --with-exe --min 0 2>&1); then
    failed=$((failed + 1))
    cp "$W/$p.dump" "$W/fail.$i.dump"
    echo "run $i: $(echo "$out" | head -1 | cut -c1-300) (dump: $W/fail.$i.dump)"
  fi
done
echo "$N runs, $failed failed"
[ $failed -eq 0 ]
