#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench.sh - bench-lbr: the tracer on real programs (docs/lbr.md §7).
#  1. Overhead: each program runs >= 5 s untraced; `tiprof lbr stat` runs it untraced and
#     traced alternately LBR_BENCH_REPS times (default 5) at 100 stacks/s, depth 16, hwbp, and
#     reports medians of CPU/wall time, overhead, stops, t, s, t/(1-s), cost per stop; exit
#     status and stdout must be identical. Geometric mean of the overheads.
#  2. Overhead against the sampling rate (10, 100, 1000 /s) on lbr_loops, and int3 at 100/s.
#  3. Similarity to an exact profile: the same program on a smaller input under valgrind
#     --tool=callgrind --collect-jumps=yes --dump-instr=yes, and LBR_BENCH_SIM_RUNS (default 5)
#     traced runs of that identical input at 2000 samples/s (a profile needs stacks, not low
#     overhead), compared by tests/sw/lbr/similarity.py: function overlap (instructions per
#     function) and edge overlap (taken jump edges); and the stacks' sample PCs as a time
#     profile against callgrind's estimated cycles (--cache-sim: Ir + 10 L1m + 100 LLm).
# Inputs are generated into $BUILD/lbr/bench (deterministic). LBR_BENCH_QUICK=1: 1 rep, smaller
# inputs (a smoke test of the script, numbers meaningless). Needs BUILD, valgrind, xz, gzip,
# bzip2, python3, sqlite3, gcc.
set -u
B=${BUILD:-build}
TIPROF=$B/bin/tiprof
T=$B/lbr/tests
HERE=$(cd "$(dirname "$0")" && pwd)
W=$B/lbr/bench; mkdir -p "$W"
REPS=${LBR_BENCH_REPS:-5}
SIMRUNS=${LBR_BENCH_SIM_RUNS:-5}
Q=${LBR_BENCH_QUICK:-0}
[ "$Q" = 1 ] && REPS=1 && SIMRUNS=2
# The system python (not a pyenv/venv shim: a script would be traced instead of python).
PY=$(command -v /usr/bin/python3 || command -v python3)
for tool in valgrind xz gzip bzip2 python3 sqlite3 gcc; do
  command -v $tool > /dev/null || { echo "bench-lbr: $tool is missing (apt-get install $tool)"; exit 1; }
done

# ------------------------------------------------------------------ inputs
scale() { if [ "$Q" = 1 ]; then echo $(( $1 / 20 )); else echo "$1"; fi; }
python3 - "$W" "$Q" <<'EOF'
import os, random, sys
w, quick = sys.argv[1], sys.argv[2] == '1'
def text(path, size, seed):
    if os.path.exists(path) and os.path.getsize(path) >= size:
        return
    r = random.Random(seed)
    words = [''.join(r.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(r.randint(2, 9))) for _ in range(5000)]
    with open(path, 'w') as f:
        n = 0
        while n < size:
            line = ' '.join(r.choice(words) for _ in range(r.randint(3, 14))) + ' %d\n' % r.randint(0, 10**6)
            f.write(line); n += len(line)
div = 20 if quick else 1
text(w + '/text9m', 9_000_000 // div, 1)
text(w + '/text20m', 20_000_000 // div, 2)
text(w + '/text300k', 300_000, 3)
text(w + '/text2m', 2_000_000, 4)
def csrc(path, nfun):
    r = random.Random(nfun)
    with open(path, 'w') as f:
        f.write('#include <stddef.h>\n')
        for i in range(nfun):
            f.write('long f%d(long *a, size_t n, long k) {\n  long s = %d;\n' % (i, i))
            for j in range(8):
                f.write('  for (size_t i = 0; i < n; i++) { if (a[i] %% %d > k) s %s= a[i] * %d; else s += i >> %d; }\n'
                        % (r.randint(2, 50), r.choice('+^-|'), r.randint(1, 99), r.randint(1, 5)))
            f.write('  switch (k & 7) { case 0: s++; break; case 1: s *= 3; break; case 3: s ^= n; break; default: s--; }\n  return s;\n}\n')
csrc(w + '/big.c', 15 if quick else 300)
EOF
PYLOOP='import sys
n = int(sys.argv[1]); d = {}; s = 0
for i in range(n):
    k = i % 1000
    d[k] = d.get(k, 0) + i
    if i % 3 == 0:
        s += len(str(i))
print(s, len(d))'
SQL() { echo "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<$1) SELECT sum(x*x % 7), count(DISTINCT x % 1000) FROM c;"; }
X20=("$W/text20m" "$W/text20m" "$W/text20m" "$W/text20m" "$W/text20m" "$W/text20m" "$W/text20m" "$W/text20m" "$W/text20m" "$W/text20m")

# name | big run (>= 5 s) | small run (callgrind; identical input for the traced runs); '-' = none
declare -a NAMES BIG SMALL
add() { NAMES+=("$1"); BIG+=("$2"); SMALL+=("$3"); }
add lbr_loops "$T/lbr_loops $(scale 3600000)" "$T/lbr_loops 100000"
add xz        "xz -9 -T1 -c $W/text9m" "xz -9 -T1 -c $W/text300k"
add gzip      "gzip -9 -c ${X20[*]} ${X20[*]:0:2}" "gzip -9 -c $W/text2m"
add bzip2     "bzip2 -9 -c ${X20[*]:0:6}" "bzip2 -9 -c $W/text2m"
add python3   "$PY -c PYLOOP $(scale 38000000)" "$PY -c PYLOOP 300000"
add sqlite3   "sqlite3 :memory: SQL:$(scale 24000000)" "sqlite3 :memory: SQL:300000"
add gcc       "gcc -O2 -c $W/big.c -o /dev/null" "-"
# Expand the placeholders (arguments with spaces/newlines) into an argv array CMD.
mkcmd() {
  CMD=()
  for a in $1; do
    case $a in
      PYLOOP) CMD+=("$PYLOOP") ;;
      SQL:*) CMD+=("$(SQL "${a#SQL:}")") ;;
      *) CMD+=("$a") ;;
    esac
  done
}

echo "== overhead: $REPS x untraced/traced (alternating, medians), 100 stacks/s, depth 16, hwbp"
# Emulated windows (the default) and, with LBR_BENCH_BEFORE=1, the breakpoint-only tracer
# (TIPROF_LBR_EMU=0, the "before" of docs/lbr.md §7) in the same run.
VARIANTS="emu"; [ "${LBR_BENCH_BEFORE:-0}" = 1 ] && VARIANTS="emu noemu"
# LBR_BENCH_ONLY="xz gzip": only these programs' overhead (the summary reads every stat.*.json).
for i in "${!NAMES[@]}"; do
  n=${NAMES[$i]}; mkcmd "${BIG[$i]}"
  [ -n "${LBR_BENCH_ONLY:-}" ] && [[ " $LBR_BENCH_ONLY " != *" $n "* ]] && continue
  for v in $VARIANTS; do
    sfx=""; ev=1; [ $v = noemu ] && sfx=".noemu" && ev=0
    TIPROF_LBR_EMU=$ev "$TIPROF" lbr stat --reps "$REPS" --period 10000000 --json -- "${CMD[@]}" > "$W/stat.$n$sfx.json" 2> "$W/stat.$n$sfx.err"
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print("  %-16s untraced %6.2f s CPU, traced %6.2f s: %+5.1f%%, %d stacks, %.2f stops/stack, %.0f us/stack, %.1f us/stop; emulator: %.0f runs, %.0f insns/run, %.1f branches/confirmed window, %d mismatches, runs ended %s; stacks ended %s; %s" % (sys.argv[2], j["cpu_untraced_s"], j["cpu_traced_s"], j["overhead_cpu_pct"], j["stacks"], j["stops_per_stack"], j.get("cost_per_stack_us", 0), j["cost_per_stop_us"], j.get("emu_runs", 0), j.get("emu_insns_per_run", 0), j.get("emu_branches_per_confirm", 0), j.get("emu_mismatch", 0), j.get("emu_end"), j.get("stack_end"), "same status+output" if j["same_status"] and j["same_stdout"] else "MISMATCH"))' "$W/stat.$n$sfx.json" "$n$sfx" \
      || { echo "  $n$sfx: stat failed: $(head -c 300 "$W/stat.$n$sfx.err")"; }
  done
done

RREPS=${LBR_BENCH_RATE_REPS:-3}
[ "$Q" = 1 ] && RREPS=1
echo "== overhead against the sampling rate (lbr_loops, $RREPS x each)"
mkcmd "${BIG[0]}"
[ "${LBR_BENCH_RATE:-1}" = 0 ] && echo "  (skipped: LBR_BENCH_RATE=0)"
for spec in "100000000 hwbp" "1000000 hwbp" "10000000 int3"; do
  [ "${LBR_BENCH_RATE:-1}" = 0 ] && break
  set -- $spec
  "$TIPROF" lbr stat --reps "$RREPS" --period "$1" --mech "$2" --json -- "${CMD[@]}" > "$W/rate.$1.$2.json" 2>&1
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print("  %5d/s %s: untraced %.2f s, traced %.2f s CPU: %+.1f%%, %.1f us/stop" % (1e9/j["period"], j["mech"], j["cpu_untraced_s"], j["cpu_traced_s"], j["overhead_cpu_pct"], j["cost_per_stop_us"]))' "$W/rate.$1.$2.json" \
    || echo "  rate $1 $2 failed: $(head -c 300 "$W/rate.$1.$2.json")"
done

echo "== similarity to callgrind (same program and input; $SIMRUNS traced runs at 2000/s merged)"
[ "${LBR_BENCH_SIM:-1}" = 0 ] && echo "  (skipped: LBR_BENCH_SIM=0)"
for i in "${!NAMES[@]}"; do
  [ "${LBR_BENCH_SIM:-1}" = 0 ] && break
  n=${NAMES[$i]}; [ "${SMALL[$i]}" = - ] && continue
  mkcmd "${SMALL[$i]}"
  rm -f "$W/cg.$n.out"
  valgrind --tool=callgrind --collect-jumps=yes --dump-instr=yes --cache-sim=yes \
       --callgrind-out-file="$W/cg.$n.out" "${CMD[@]}" > /dev/null 2> "$W/cg.$n.err"
  if [ ! -s "$W/cg.$n.out" ]; then
    echo "  $n: callgrind failed: $(tail -2 "$W/cg.$n.err")"; continue
  fi
  dumps=()
  for k in $(seq 1 "$SIMRUNS"); do
    "$TIPROF" lbr record -o "$W/sim.$n.$k.lbr" --period 500000 -- "${CMD[@]}" > /dev/null 2>&1
    "$TIPROF" lbr dump "$W/sim.$n.$k.lbr" > "$W/sim.$n.$k.dump"
    dumps+=("$W/sim.$n.$k.dump")
  done
  echo "  $n:"
  python3 "$HERE/similarity.py" "$W/cg.$n.out" "${dumps[@]}" --cache "$W/objcache" --top 5 \
    --json "$W/sim.$n.json" | sed 's/^/  /'
done

echo "== summary"
python3 - "$W" "$VARIANTS" "${NAMES[@]}" <<'EOF'
import json, math, os, sys
w, variants, names = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
def load(p):
    try:
        return json.load(open(p))
    except Exception:
        return None
print('| program | untraced CPU | traced CPU | overhead | stacks/s | stops/stack | t | s | t/(1-s) | cost/stop | function overlap | edge overlap | samples vs est. cycles |')
print('|---|---|---|---|---|---|---|---|---|---|---|---|---|')
ovh = []
for n in names:
    j, s = load('%s/stat.%s.json' % (w, n)), load('%s/sim.%s.json' % (w, n))
    if not j:
        continue
    ovh.append(1 + j['overhead_cpu_pct'] / 100)
    print('| %s | %.2f s | %.2f s | %+.1f %% | %.0f | %.1f | %.3f | %.3f | %.2f | %.1f µs | %s | %s | %s |' % (
        n, j['cpu_untraced_s'], j['cpu_traced_s'], j['overhead_cpu_pct'],
        j['stacks'] / j['cpu_traced_s'] if j['cpu_traced_s'] else 0, j['stops_per_stack'], j['t'], j['s'],
        j['t_over_1_minus_s'], j['cost_per_stop_us'],
        '%.1f %%' % (100 * s['function_overlap']) if s else '—',
        '%.1f %%' % (100 * s['edge_overlap']) if s else '—',
        '%.1f %%' % (100 * s['sample_vs_cycles']) if s and s.get('sample_vs_cycles') is not None else '—'))
if ovh:
    g = math.exp(sum(math.log(max(x, 1e-9)) for x in ovh) / len(ovh)) - 1
    print('geometric mean overhead: %+.1f %% over %d programs' % (100 * g, len(ovh)))
# Emulated windows (stops, costs, window ends, stack lengths and why stacks ended), and the
# breakpoint-only tracer of the same run when measured.
for v in variants:
    sfx = '' if v == 'emu' else '.' + v
    print()
    print('%s: | program | overhead | stops/stack | cost/stack | cost/stop | emulator runs/stack | µs/run (handler-timed) | insns/run | branches/confirmed window | mismatches | runs ended depth/insn/mem/budget/forbid | stacks full | stack length median | stacks ended (not full) |' % v)
    print('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
    o2 = []
    for n in names:
        j = load('%s/stat.%s%s.json' % (w, n, sfx))
        if not j:
            continue
        o2.append(1 + j['overhead_cpu_pct'] / 100)
        h = {int(k): v for k, v in j.get('stack_len_all_runs', {}).items()}
        tot = sum(h.values())
        med, acc = 0, 0
        for k in sorted(h):
            acc += h[k]
            if 2 * acc >= tot:
                med = k
                break
        e = j.get('emu_end', {})
        ends = ', '.join('%s %d' % (k, v) for k, v in j.get('stack_end', {}).items() if v and k != 'full') or '—'
        print('| %s | %+.1f %% | %.2f | %.0f µs | %.1f µs | %.2f | %.1f | %.0f | %.1f | %d | %s | %.1f %% | %d | %s |' % (
            n, j['overhead_cpu_pct'], j['stops_per_stack'], j.get('cost_per_stack_us', 0), j['cost_per_stop_us'],
            j.get('emu_runs', 0) / j['stacks'] if j['stacks'] else 0, j.get('emu_per_run_us', 0),
            j.get('emu_insns_per_run', 0), j.get('emu_branches_per_confirm', 0), j.get('emu_mismatch', 0),
            '/'.join(str(e.get(k, 0)) for k in ('depth', 'insn', 'mem', 'budget', 'forbid')),
            100.0 * h.get(j['depth'], 0) / tot if tot else 0, med, ends))
    if o2:
        g = math.exp(sum(math.log(max(x, 1e-9)) for x in o2) / len(o2)) - 1
        print('%s: geometric mean overhead: %+.1f %% over %d programs' % (v, 100 * g, len(o2)))
EOF
