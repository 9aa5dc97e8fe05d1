#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/sim/insn/run-tests.sh - `make test-insn-sim`: TIP's instruction trigger on the core model
# (tiprof sim -e tip:insts; docs/tip-unit.md "The instruction trigger"). On each workload and
# core preset the sample file is checked against the run's Oracle profile (--oracle: the exact
# number of commits of every address):
#  1. every record is a Computing sample of one selected instruction (two only for selections
#     A + B of one cycle), at an address that committed;
#  2. one selection per PERIOD instructions: selections x PERIOD = the run's instructions
#     within two periods (sampling starts a few cycles after the program);
#  3. the estimates PERIOD x samples of each instruction with >= 20 expected samples scatter
#     around the exact retired counts at most as binomial counts would (one point per interval
#     is stratified sampling: on regular loops less). Each bound is a test that a correct unit
#     fails with probability at most 0.001: the number of z-scores outside +-1.96 at most the
#     0.999 quantile of Binomial(n, 0.05); the sum of z^2 at most the 0.999 quantile of
#     chi-square(n) (Wilson-Hilferty); |mean z| <= 3.29 / sqrt(n) (no aggregation or shadow
#     bias). (A fixed ">= 90 % inside" failed a correct run: 5 of 48 outside, which happens with
#     probability 0.22 - the samples shift when the program's path, and so its stack, changes.)
#  4. bad use gives a one-line error (exit 2): -e tip:insts without --profile, a period < W.
# Environment: TIPROF (the binary), WL_OUT (the workloads' folder).
set -eu
T=${TIPROF:-build/bin/tiprof}
WL=${WL_OUT:-build/workloads}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
sim() { env -i "$T" sim --no-progress "$@"; }

run() { # name config period workload [args]
	name=$1 cfg=$2 p=$3
	shift 3
	sim --config "$cfg" -e tip:insts --period "$p" --profile "$tmp/$name.tps" \
		--oracle "$tmp/$name.orc" "$@" >/dev/null 2>"$tmp/$name.err" ||
		{ echo "  FAIL $name: tiprof sim failed: $(tail -1 "$tmp/$name.err")"; fail=1; return; }
	"$T" dump "$tmp/$name.tps" >"$tmp/$name.dump"
	python3 - "$name" "$tmp/$name.dump" "$tmp/$name.orc" "$p" <<'PY' || fail=1
import collections, math, re, sys
name, dump, oracle, P = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
cnt = collections.Counter()
nrec = two = bad = 0
for line in open(dump):
    m = re.match(r'\d+: cycle=\d+ (\S+) .*valid=0x([0-9a-f]+)', line)
    if not m:
        continue
    nrec += 1
    addrs = re.findall(r'\[\d\]=0x([0-9a-f]+)', line)
    if m.group(1) != 'computing' or len(addrs) not in (1, 2) or \
            len(addrs) != bin(int(m.group(2), 16)).count('1'):
        bad += 1
    two += len(addrs) == 2
    for a in addrs:
        cnt[int(a, 16)] += 1
truth = {}
for line in open(oracle):
    f = line.split()
    if len(f) == 9 and re.match(r'^[0-9a-f]+$', f[0]):
        truth[int(f[0], 16)] = int(f[1])
insns = sum(truth.values())
sel = sum(cnt.values())
stray = sum(c for a, c in cnt.items() if a not in truth)
zs, rel = [], []
for a, c in truth.items():
    e = c / P
    if e >= 20:
        zs.append((cnt[a] - e) / math.sqrt(e * (1 - 1 / P)))
        rel.append(abs(cnt[a] * P - c) / c)
n = len(zs)
cov = sum(abs(z) < 1.96 for z in zs) / max(n, 1)
rms = math.sqrt(sum(z * z for z in zs) / max(n, 1))
mean = sum(zs) / max(n, 1)
med = sorted(rel)[n // 2] if n else 0
def binom_q(n, p, q):  # smallest k with P(X <= k) >= q, X ~ Binomial(n, p)
    acc = 0.0
    for k in range(n + 1):
        acc += math.comb(n, k) * p ** k * (1 - p) ** (n - k)
        if acc >= q:
            return k
    return n
out = n - sum(abs(z) < 1.96 for z in zs)
chi2_q = n * (1 - 2 / (9 * n) + 3.0902 * math.sqrt(2 / (9 * n))) ** 3 if n else 0
ok = (bad == 0 and stray == 0 and abs(sel * P - insns) <= 2 * P and n >= 30 and
      out <= binom_q(n, 0.05, 0.999) and rms * rms * n <= chi2_q and
      abs(mean) <= 3.29 / math.sqrt(n))
print(f"  {'ok  ' if ok else 'FAIL'} {name}: {nrec} records ({two} with two), {sel} selections x "
      f"PERIOD {P} = {sel * P} for {insns} instructions; {n} instructions with >= 20 expected "
      f"samples: {cov * 100:.1f} % of |z| < 1.96 ({out} outside, at most {binom_q(n, 0.05, 0.999)}), "
      f"rms z {rms:.3f} (at most {math.sqrt(chi2_q / n) if n else 0:.3f}), mean z {mean:+.3f}, median "
      f"error {med * 100:.2f} %" + ('' if not (bad or stray) else f"; {bad} bad records, "
      f"{stray} samples at addresses that never committed"))
sys.exit(0 if ok else 1)
PY
}

echo "== test-insn-sim: TIP's instruction trigger against the Oracle's exact commit counts"
run quicksort-4wide 4wide 97 "$WL/quicksort"
run ptrchase-2wide 2wide 61 "$WL/ptrchase"

# 4. bad use
if sim -e tip:insts "$WL/quicksort" 100 >/dev/null 2>"$tmp/e1"; then rc=0; else rc=$?; fi
if sim --config 4wide -e tip:insts --period 3 --profile "$tmp/x.tps" "$WL/quicksort" 100 \
	>/dev/null 2>"$tmp/e2"; then rc2=0; else rc2=$?; fi
if [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/e1")" -le 2 ] && [ "$rc2" != 0 ]; then
	echo "  ok   bad use: -e tip:insts without --profile exits 2; period 3 < W 4 refused: $(tail -1 "$tmp/e2")"
else
	echo "  FAIL bad use: rc $rc (want 2), period 3: rc $rc2: $(cat "$tmp/e1" "$tmp/e2")"
	fail=1
fi
[ "$fail" = 0 ] && echo "test-insn-sim: passed" || { echo "test-insn-sim: FAILED"; exit 1; }
