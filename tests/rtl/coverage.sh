#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make test-tip-coverage: line and toggle coverage of the RTL (verilator --coverage-line
# --coverage-toggle, one build) over the directed benches of that configuration and one random
# run, merged with verilator_coverage, reported per module, and held to a floor
# (docs/verification.md "Coverage").
#   coverage.sh CTIPDIR CONFIG OUTDIR RANDOM_CYCLES
# Environment: TIP_COV_LINE_FLOOR, TIP_COV_TOGGLE_FLOOR (percent over all rtl/ modules).
set -u
dir=$1; cfg=$2; out=$3; rcycles=$4
# Floors: measured 2026-11-25 on 2-64-16 (directed benches + 1.8M random cycles, seed 1)
# at line 96.9 % (93/96 blocks) and toggle 81.9 % (4591/5608 bits), set a little below (docs/verification.md "Coverage").
line_floor=${TIP_COV_LINE_FLOOR:-96}
toggle_floor=${TIP_COV_TOGGLE_FLOOR:-80}
seed=${TIP_SEED:-1}
rm -rf "$out" && mkdir -p "$out"
fail=0; runs=0
echo "== test-tip-coverage: line and toggle coverage of the RTL (W-XLEN-DEPTH $cfg), seed $seed"
run() { # bench cycles
  local log=$out/$1.log
  if "$dir/Vtiprof_tb" +bench="$1" +seed="$seed" +cycles="$2" +outdir="$out" \
       +covfile="$out/$1.dat" > "$log" 2>&1 && grep -q "tip-harness: PASS" "$log" && [ -s "$out/$1.dat" ]; then
    runs=$((runs + 1))
  else
    fail=$((fail + 1)); echo "  FAIL  $1 (log: $log)"
  fi
}
while read -r b bcfgs; do
  case $b in ''|'#'*) continue ;; esac
  for c in $bcfgs; do [ "$c" = "$cfg" ] && run "$b" 100000; done
done < tests/rtl/directed.cfg
run random "$rcycles"
verilator_coverage --write "$out/merged.dat" "$out"/*.dat > "$out/merge.log" 2>&1 ||
  { cat "$out/merge.log"; exit 1; }
rm -rf "$out/annotate"
verilator_coverage --annotate "$out/annotate" --annotate-min 1 "$out/merged.dat" > "$out/annotate.log" 2>&1
python3 - "$out/merged.dat" "$line_floor" "$toggle_floor" "$out/tip-coverage.txt" "$cfg" "$runs" "$seed" "$rcycles" <<'PY'
import re, sys
dat, lfl, tfl, rep, cfg, runs, seed, rcyc = sys.argv[1:]
pts = {}  # (kind, module, key without the hierarchy) -> max count over instances
for line in open(dat):
    m = re.match(r"C '(.*)' (\d+)$", line.rstrip("\n"))
    if not m:
        continue
    f = dict(kv.split("\x02", 1) for kv in m.group(1).split("\x01") if kv)
    if not f.get("f", "").startswith("rtl/"):
        continue  # the testbench and the coverage hook
    kind, mod = f["page"].split("/", 1)
    mod = mod.split("__")[0]
    key = (kind, mod, f["f"], f["l"], f.get("n", ""), f.get("o", ""))
    pts[key] = max(pts.get(key, 0), int(m.group(2)))
mods = sorted({k[1] for k in pts})
tot = {}
out = ["TIP RTL line and toggle coverage (verilator --coverage-line --coverage-toggle), "
       "W-XLEN-DEPTH %s, %s runs (directed benches + random %s cycles), seed %s" % (cfg, runs, rcyc, seed),
       "%-24s %22s %22s" % ("module", "line (blocks hit)", "toggle (bits hit)")]
def pct(h, n):
    return 100.0 * h / n if n else 100.0
for mod in mods:
    cols = []
    for kind in ("v_line", "v_toggle"):
        ks = [k for k in pts if k[0] == kind and k[1] == mod]
        h = sum(1 for k in ks if pts[k] > 0)
        t = tot.setdefault(kind, [0, 0]); t[0] += h; t[1] += len(ks)
        cols.append("%6.1f %% (%4d/%4d)" % (pct(h, len(ks)), h, len(ks)))
    out.append("%-24s %22s %22s" % (mod, cols[0], cols[1]))
lp, tp = pct(*tot["v_line"]), pct(*tot["v_toggle"])
out.append("%-24s %22s %22s" % ("all rtl/ modules", "%6.1f %% (%4d/%4d)" % (lp, *tot["v_line"]),
                                "%6.1f %% (%4d/%4d)" % (tp, *tot["v_toggle"])))
out.append("floor: line %s %%, toggle %s %%" % (lfl, tfl))
out.append("")
out.append("not covered (count 0):")
for k in sorted(pts):
    if pts[k] == 0:
        out.append("  %-8s %-22s %s:%s %s" % (k[0][2:], k[1], k[2], k[3], k[5]))
open(rep, "w").write("\n".join(out) + "\n")
print("\n".join("  " + l for l in out[1:2 + len(mods) + 2]))
ok = lp >= float(lfl) and tp >= float(tfl)
sys.exit(0 if ok else 3)
PY
rc=$?
echo "  report: $out/tip-coverage.txt (annotated sources: $out/annotate/)"
if [ $rc -ne 0 ]; then fail=$((fail + 1)); echo "  FAIL  coverage below the floor (line $line_floor %, toggle $toggle_floor %)"; fi
echo "test-tip-coverage: $runs runs, $fail failed"
[ $fail -eq 0 ]
