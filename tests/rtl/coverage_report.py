#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/rtl/coverage_report.py - line and toggle coverage of rtl/ modules from a merged
verilator_coverage file, per module, held to a floor (docs/verification.md "Coverage"). Used by
test-tip-coverage (tests/rtl/coverage.sh) and test-pm-coverage (tests/rtl/pm/coverage.sh).
  coverage_report.py MERGED.dat LINE_FLOOR TOGGLE_FLOOR REPORT TITLE CONFIG RUNS SEED CYCLES [MODULE_RE]
Only modules whose name matches MODULE_RE (default: every module) count. Exit 3 below the floor.
"""
import re, sys
dat, lfl, tfl, rep, title, cfg, runs, seed, rcyc = sys.argv[1:10]
modre = re.compile(sys.argv[10] if len(sys.argv) > 10 else ".")
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
    if not modre.match(mod):
        continue
    key = (kind, mod, f["f"], f["l"], f.get("n", ""), f.get("o", ""))
    pts[key] = max(pts.get(key, 0), int(m.group(2)))
mods = sorted({k[1] for k in pts})
tot = {}
out = ["%s line and toggle coverage (verilator --coverage-line --coverage-toggle), "
       "configuration %s, %s runs (directed benches + random %s cycles), seed %s" % (title, cfg, runs, rcyc, seed),
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
