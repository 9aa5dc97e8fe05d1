#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/sim/sampled/run-tests.sh - `make test-sampled`: sampled simulation (tiprof accuracy
# --windows, sim/run sim_run_sampled, core_warm in sim/core). Checks that
#  1. sampling off is unchanged: --windows W,0,0 (every cycle measured) gives the same report
#     as no --windows, byte for byte apart from the "sampling" member; warming is exact
#     (WARM_EXACT, warm_exact.c): after U instructions warmed, every cache and TLB holds the
#     lines, in the LRU order, and the predictor the tables that simulating the same U
#     instructions in detail leaves;
#  2. the instructions are accounted for: detailed + warmed = the full run's instructions;
#     each measured window holds W .. W+width-1 instructions (the last one possibly fewer);
#  3. functional warming warms: with warming, the measured windows' CPI, L1D miss rate and
#     branch mispredict rate are close to the full run's; skipping the same instructions cold
#     (--windows W,D,U,cold) is far off;
#  4. the self-checks hold in sampled runs (two Oracles agree, TIP = Ideal, Dispatch tags), and
#     the measured cycles' ROB trace replays through the RTL unit (VTIP) equal to the C model;
#  5. bad --windows values give a one-line error and exit status 2; a program that ends before
#     its first window, a one-line error and exit status 1.
# Environment: TIPROF (the binary), WL_OUT (the workloads' folder), WARM_EXACT (warm_exact),
# VTIP (the Verilated TIP harness, 4-64-8).
set -eu
T=${TIPROF:-build/bin/tiprof}
WL=${WL_OUT:-build/workloads}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "  ok   $*"; }
bad() { echo "  FAIL $*"; fail=1; }
acc() { env -i "$T" accuracy --period 64 --no-progress "$@"; }

# 1. sampling off = unchanged
acc --json -o "$tmp/full.json" "$WL/quicksort" 5000 >/dev/null
acc --json -o "$tmp/w00.json" --windows 100000,0,0 "$WL/quicksort" 5000 >/dev/null
sed 's/, "sampling": {.*}}}$/}/' "$tmp/w00.json" > "$tmp/w00-stripped.json"
if cmp -s "$tmp/full.json" "$tmp/w00-stripped.json"; then
	ok "--windows W,0,0 reports exactly what the full run does"
else
	bad "--windows W,0,0 differs from the full run"
fi

# warming leaves exactly the state detailed simulation of the same instructions leaves
if [ -n "${WARM_EXACT:-}" ]; then
	for run in "200000 100000 $WL/quicksort 5000" "300000 300000 $WL/ptrchase 16384" \
		   "100000 200000 $WL/dispatch 35000"; do
		# shellcheck disable=SC2086
		if out=$(env -i "$WARM_EXACT" $run 2>&1); then
			ok "$out"
		else
			bad "$out"
		fi
	done
fi

# 2-4 on two workloads, then the python checks
acc --json -o "$tmp/q-warm.json" --windows 2000,1000,20000 "$WL/quicksort" 5000 >/dev/null
acc --json -o "$tmp/q-cold.json" --windows 2000,1000,20000,cold "$WL/quicksort" 5000 >/dev/null
acc --json -o "$tmp/p-full.json" --windows 1000000000,0,0 "$WL/ptrchase" 16384 >/dev/null
acc --json -o "$tmp/p-warm.json" --windows 2000,1000,20000 "$WL/ptrchase" 16384 >/dev/null
acc --json -o "$tmp/p-cold.json" --windows 2000,1000,20000,cold "$WL/ptrchase" 16384 >/dev/null
python3 - "$tmp" <<'PY' || fail=1
import json, sys
d = sys.argv[1]
J = lambda n: json.load(open('%s/%s.json' % (d, n)))
fail = 0
def check(cond, msg):
    global fail
    print('  %s %s' % ('ok  ' if cond else 'FAIL', msg))
    fail |= not cond
def rates(s):
    m = s['sampling']['measured_stats']
    return (m['cycles'] / m['insns'], m['l1d_miss'] / max(1, m['loads'] + m['stores']),
            m['br_mispred'] / max(1, m['branches']))
full_q = J('w00')['sampling']['measured_insns']
full_p = J('p-full')['sampling']['measured_insns']
for name, total in (('q-warm', full_q), ('q-cold', full_q), ('p-warm', full_p), ('p-cold', full_p)):
    j = J(name)
    s = j['sampling']
    check(s['detailed_insns'] + s['warmed_insns'] == total,
          '%s: detailed %d + warmed %d = the full run\'s %d instructions' %
          (name, s['detailed_insns'], s['warmed_insns'], total))
    w, n, m = s['measure'], s['windows'], s['measured_insns']
    check((n - 1) * w <= m <= n * (w + 3) and n >= 10,
          '%s: %d windows of W %d: %d measured instructions (W .. W+3 each)' % (name, n, w, m))
    check(j['cycles'] == s['measured_cycles'], '%s: the policies saw the %d measured cycles only'
          % (name, s['measured_cycles']))
    check(j['oracle_crosscheck_maxdiff'] < 1e-9 and j['tip_ideal_maxdiff'] < 1e-9 and
          j['dispatch']['rob_if_mismatches'] == 0, '%s: self-checks hold' % name)
(fc, fm, fb) = rates(J('w00'))
(wc, wm, wb) = rates(J('q-warm'))
(cc, cm, cb) = rates(J('q-cold'))
check(abs(wb - fb) < 0.01 and cb - fb > 0.02,
      'quicksort branch mispredict rate: full %.4f, warmed %.4f, cold %.4f' % (fb, wb, cb))
check(abs(wm - fm) < 0.003 and cm > 5 * fm,
      'quicksort L1D miss rate: full %.4f, warmed %.4f, cold %.4f' % (fm, wm, cm))
(fc, fm, fb) = rates(J('p-full'))
(wc, wm, wb) = rates(J('p-warm'))
(cc, cm, cb) = rates(J('p-cold'))
check(abs(wc - fc) / fc < 0.05 and cc > 1.5 * fc,
      'ptrchase CPI (L2/LLC working set): full %.3f, warmed %.3f, cold %.3f' % (fc, wc, cc))
sys.exit(fail)
PY

# the measured cycles' ROB stream (--rob-trace of a sampled run) through the RTL unit: equal to
# the C model every cycle, the ROB-contract assertions quiet across the windows' seams
if [ -n "${VTIP:-}" ]; then
	if acc --windows 2000,1000,10000 --rob-trace "$tmp/s.rbt" -o "$tmp/s.txt" "$WL/crc32" 40 \
		>/dev/null && TIPROF_TB_TRACE=$tmp/s.rbt "$VTIP" +bench=replay +cycles=1000000000 \
		+outdir="$tmp" > "$tmp/replay.log" 2>&1 && grep -q "PASS replay" "$tmp/replay.log"; then
		ok "sampled crc32's ROB trace replayed through the RTL: $(grep '^replay:' "$tmp/replay.log")"
	else
		bad "sampled ROB trace through the RTL: $(tail -2 "$tmp/replay.log")"
	fi
fi

# 5. bad values: one line on stderr, exit status 2
for v in 0,1,1 1,2 a,2,3 1,2,3, 1,,3 1,2,cold -1,2,3 1,2,3,warm; do
	set +e
	env -i "$T" accuracy --windows "$v" "$WL/quicksort" 5000 >/dev/null 2>"$tmp/err"
	rc=$?
	set -e
	if [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q -- '--windows' "$tmp/err"; then
		:
	else
		bad "--windows $v: exit $rc, $(wc -l < "$tmp/err") lines"
	fi
done
[ $fail -eq 0 ] && ok "bad --windows values: one-line error, exit 2"
# a program that ends before the first window: one line, exit 1, no report left
set +e
env -i "$T" accuracy --windows 1000,100000000,0 -o "$tmp/none.txt" "$WL/quicksort" 500 \
	>/dev/null 2>"$tmp/err"
rc=$?
set -e
if [ $rc -eq 1 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q 'no cycle was measured' "$tmp/err" &&
   [ ! -e "$tmp/none.txt" ]; then
	ok "no measured window: one-line error, exit 1, no report"
else
	bad "no measured window: exit $rc, $(cat "$tmp/err")"
fi
if [ $fail -ne 0 ]; then
	echo "test-sampled: FAIL"
	exit 1
fi
echo "test-sampled: pass"
