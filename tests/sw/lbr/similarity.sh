#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# similarity.sh - the measurements of docs/lbr.md section 11 (similarity measured fairly):
#  1. test programs against their exact (single-stepped) trace: the tracer's stacks, and a
#     hardware LBR at the same sample instants (similarity.py exact);
#  2. python3 and gzip -9: overlap against run length at 100 stacks/s, against the rest of the
#     100 stacks/s stacks, a 2000 stacks/s run of the same command and callgrind
#     (similarity.py curve).
# Needs BUILD (tiprof, libtiprof-lbr.so, the test programs and lbr_exact: make test-lbr's
# prerequisites), valgrind, gzip, python3. Work files in $BUILD/lbr/similarity. ~10 min on
# the loaded 2-core VM. SIM_ONLY=exact|curve runs one part.
set -u
B=${BUILD:-build}
T=$B/lbr/tests
TP=$B/bin/tiprof
SO=$(readlink -f "$B/lib/libtiprof-lbr.so")
W=${SIM_DIR:-$B/lbr/similarity}
HERE=$(dirname "$0")
PY=/usr/bin/python3
mkdir -p "$W"
for t in "$TP" "$SO" "$T/lbr_exact" "$T/lbr_loops"; do
  [ -e "$t" ] || { echo "similarity.sh: $t missing (make test-lbr builds it)" >&2; exit 2; }
done
only=${SIM_ONLY:-}

# 1. exact: identical environments (as run.sh: same size, tracer started in the exact run with
# a period never reached) so the traced runs' addresses are the exact run's.
envof() { printf 'LD_BIND_NOW=1 LD_PRELOAD=%s TIPROF_LBR_OUT=%s TIPROF_LBR_MECH=hwbp TIPROF_LBR_PERIOD=%012d TIPROF_LBR_DEPTH=016' "$SO" "$W/$2.$1.lbr" "$3"; }
if [ "$only" != curve ]; then
  echo "== exact: tracer stacks and hardware LBR at the same instants vs the single-stepped trace"
  for p in lbr_loops lbr_indirect lbr_recurse; do
    env -i $(envof x "$p" 999999999999) "$T/lbr_exact" "$W/$p.exact" "$T/$p" 0002 > /dev/null 2>&1
    rm -f "$W/$p.t.lbr"
    # 8 runs at 5000 stacks/s: about 1000 stacks (the weighting does not depend on the rate)
    for i in 1 2 3 4 5 6 7 8; do
      env -i $(envof t "$p" 200000) setarch -R "$T/$p" 3000 > /dev/null 2>&1
    done
    "$TP" lbr dump "$W/$p.t.lbr" > "$W/$p.dump"
    python3 "$HERE/similarity.py" exact "$W/$p.exact" "$W/$p.dump" --cache "$W/objcache" \
      --json "$W/exact.$p.json"
  done
fi
[ "$only" = exact ] && exit 0

# 2. curve: python3 (the bench's loop) and gzip -9 (4 x 20 MB of generated text)
PYLOOP='import sys
n = int(sys.argv[1]); d = {}; s = 0
for i in range(n):
    k = i % 1000
    d[k] = d.get(k, 0) + i
    if i % 3 == 0:
        s += len(str(i))
print(s, len(d))'
python3 - "$W" <<'EOF'
import os, random, sys
w = sys.argv[1]
def text(path, size, seed):  # the generator of bench.sh
    if os.path.exists(path) and os.path.getsize(path) >= size:
        return
    r = random.Random(seed)
    words = [''.join(r.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(r.randint(2, 9))) for _ in range(5000)]
    with open(path, 'w') as f:
        n = 0
        while n < size:
            line = ' '.join(r.choice(words) for _ in range(r.randint(3, 14))) + ' %d\n' % r.randint(0, 10**6)
            f.write(line); n += len(line)
text(w + '/text20m', 20_000_000, 2)
text(w + '/text2m', 2_000_000, 4)
EOF
T4="$W/text20m $W/text20m $W/text20m $W/text20m"
echo "== curve: overlap against run length at 100 stacks/s"
for i in 1 2; do  # the reference: 2000 stacks/s
  "$TP" lbr record -o "$W/py.ref$i.lbr" --period 500000 -- $PY -c "$PYLOOP" 15000000 > /dev/null
  "$TP" lbr record -o "$W/gz.ref$i.lbr" --period 500000 -- gzip -9 -c $T4 > /dev/null
done
for i in $(seq 1 12); do  # 12 x 5 s and 30 x 2 s of 100 stacks/s: about 60 s each
  "$TP" lbr record -o "$W/py.r$i.lbr" --period 10000000 -- $PY -c "$PYLOOP" 38000000 > /dev/null
done
for i in $(seq 1 30); do
  "$TP" lbr record -o "$W/gz.r$i.lbr" --period 10000000 -- gzip -9 -c $T4 > /dev/null
done
for f in "$W"/py.*.lbr "$W"/gz.*.lbr; do "$TP" lbr dump "$f" > "${f%.lbr}.dump"; done
cgrind() { valgrind --tool=callgrind --collect-jumps=yes --dump-instr=yes --cache-sim=yes --callgrind-out-file="$1" "${@:2}" > /dev/null 2>&1; }
cgrind "$W/cg.py.out" $PY -c "$PYLOOP" 300000
cgrind "$W/cg.gz.out" gzip -9 -c "$W/text2m"
for n in py gz; do
  echo "-- $n"
  python3 "$HERE/similarity.py" curve --ref "$W/$n".ref?.dump --run $(ls "$W/$n".r[0-9]*.dump | sort -V) \
    --callgrind "$W/cg.$n.out" --cache "$W/objcache" --json "$W/curve.$n.json"
  # the same-weighting reference: each window against the rest of the 100 stacks/s stacks
  python3 "$HERE/similarity.py" curve --ref self --run $(ls "$W/$n".r[0-9]*.dump | sort -V) \
    --cache "$W/objcache" --json "$W/curve.$n.self.json"
done
