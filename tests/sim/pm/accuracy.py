#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/sim/pm/accuracy.py - `make bench-pm-accuracy`: how good ProfileMe's estimates are,
against the core model's exact truth (docs/profileme-accuracy.md).

Runs `tiprof accuracy -e profileme --json` (the unit's C model on the core model, sw/pm's
estimator, the truth of sim/pm/pm_truth) and prints:
  1. coverage: over every workload x period x sampler seed, the share of (hot instruction,
     event) counts whose true value lies inside the estimate's 95% interval (the 20 hottest
     instructions by fetches; counts with a true value > 0), per event and per workload; and
     of the mean latencies (instruction x stage) within 1.96 standard errors of the truth;
  2. relative error against the sample count: the root-mean-square of (estimate - true) /
     true in log2 bins of the expected count k = true / scale (binning by the observed k would
     select rows by their own error: a rare event sampled once is overestimated), and the slope of log(rms) on log(k) (the paper's Figure 3: -1/2
     when the error is statistical only); an SVG chart of it with the 1/sqrt(k) line;
  3. wasted issue slots from paired sampling (--pair W) on each workload: the fetch-weighted
     total of the hottest instructions, estimated vs true, the per-instruction mean |relative
     error|, and the pair samples behind them.
Environment: TIPROF, WL_OUT, PROGRAMS (real programs from Debian sources are used when built:
make programs), SEEDS (default 10), PERIODS (default "128 512 2048"), WINDOW (default 256),
SVG (chart path, default build/pm-accuracy/error-vs-k.svg), JOBS (default 2).
"""
import json
import math
import os
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

T = os.path.realpath(os.environ.get("TIPROF", "build/bin/tiprof"))
WL = os.environ.get("WL_OUT", "build/workloads")
PR = os.environ.get("PROGRAMS", "build/programs")
SEEDS = int(os.environ.get("SEEDS", "10"))
PERIODS = [int(p) for p in os.environ.get("PERIODS", "128 512 2048").split()]
WINDOW = int(os.environ.get("WINDOW", "256"))
SVG = os.environ.get("SVG", "build/pm-accuracy/error-vs-k.svg")
JOBS = int(os.environ.get("JOBS", "2"))

# name, working folder, program and arguments
RUNS = [
    ("quicksort", ".", [f"{WL}/quicksort", "20000"]),
    ("ptrchase", ".", [f"{WL}/ptrchase", "16384"]),
    ("matmul", ".", [f"{WL}/matmul", "48"]),
    ("dispatch", ".", [f"{WL}/dispatch", "35000"]),
]
for name, args in (("bzip2", "bzip2-static -9 -c mixed-64K.bin"),
                   ("lua", "lua-static bench.lua 1")):
    words = shlex.split(args)
    binary = os.path.join(PR, "bin", words[0])
    if os.path.exists(binary):
        RUNS.append((name, os.path.join(PR, "inputs"), [os.path.realpath(binary)] + words[1:]))


def accuracy(run, extra):
    name, cwd, prog = run
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        cmd = [T, "accuracy", "-e", "profileme", "--json", "-o", out.name,
               "--no-progress"] + extra + prog
        r = subprocess.run(cmd, cwd=cwd, env={}, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
        if r.returncode != 0:
            err = r.stderr.decode(errors="replace").strip().splitlines()[-1:]
            sys.exit(f"accuracy.py: {name}: {' '.join(cmd)}: {err}")
        return name, json.load(open(out.name))


def main():
    jobs = [(run, ["--period", str(p), "--sampler-seed", str(s), "--limit", "20"], p)
            for run in RUNS for p in PERIODS for s in range(1, SEEDS + 1)]
    with ThreadPoolExecutor(JOBS) as ex:
        results = list(ex.map(lambda j: (j[2],) + accuracy(j[0], j[1]), jobs))

    # 1. coverage
    cov = {}     # key -> [covered, total]
    rows = []    # (k, rel error, period)
    coll = {}    # period -> [collided, selections]
    for period, name, r in results:
        v = coll.setdefault(period, [0, 0])
        v[0] += r["collided"]
        v[1] += r["taken"] + r["lost"] + r["filtered"] + r["collided"]
        for c in r["counts"]:
            if c["true"] <= 0:
                continue
            inside = c["lo"] <= c["true"] <= c["hi"]
            for key in ("all", "workload " + name, "event " + c["event"], f"period {period}"):
                v = cov.setdefault(key, [0, 0])
                v[0] += inside
                v[1] += 1
            # by the expected sample count true/scale, not the observed k: rows with k = 0
            # count too, so no row is chosen by its own error
            rows.append((c["true"] / r["scale"], (c["estimate"] - c["true"]) / c["true"],
                         period))
    print(f"ProfileMe accuracy: {len(RUNS)} programs x periods {PERIODS} x {SEEDS} seeds "
          f"({len(results)} runs), the 20 hottest instructions of each")
    print("1. coverage of the 95% intervals (true count inside):")
    for key in sorted(cov, key=lambda k: (k != "all", k)):
        c, n = cov[key]
        print(f"   {key:24s} {c:6d} of {n:6d}  {100.0 * c / n:5.1f}%")

    lat = {}     # period -> [within, means, constant]
    for period, name, r in results:
        v = lat.setdefault(period, [0, 0, 0])
        ls = r["latency_summary"]
        v[0] += ls["within"]
        v[1] += ls["means"]
        v[2] += ls["constant"]
    print("   mean latencies per instruction and stage within 1.96 standard errors of the true "
          "mean (samples that vary; all-equal ones apart):")
    for period in sorted(lat):
        c, n, k = lat[period]
        print(f"   period {period:5d}: {c} of {n} ({100.0 * c / max(n, 1):.1f}%), {k} constant")
    print("   selections that collided with an open sample (the estimate's scale corrects the "
          "total, not the per-instruction bias):")
    for period in sorted(coll):
        c, n = coll[period]
        print(f"   period {period:5d}: {c} of {n} ({100.0 * c / n:.1f}%)")

    # 2. error against k
    print("2. relative error against the expected sample count k = true / scale (rms per log2 "
          "bin of k, k >= 1):")
    for p in PERIODS:
        error_bins([(k, e) for k, e, q in rows if q == p], f"period {p}")
    rare = [p for p in PERIODS if coll[p][0] < 0.05 * coll[p][1]]
    pts = error_bins([(k, e) for k, e, q in rows if q in rare],
                     f"periods with under 5% collisions ({', '.join(map(str, rare))})")
    if pts:
        write_svg(pts)
        print(f"   chart (those periods): {SVG}")

    # 3. wasted issue slots from pairs
    print(f"3. wasted issue slots from paired sampling (--pair {WINDOW}, period 512, seed 1):")
    print("   program      insns  pairs   wasted true   wasted est   error  |rel err|/insn  "
          "overlap error")
    pjobs = [(run, ["--period", "512", "--pair", str(WINDOW), "--sampler-seed", "1",
                    "--limit", "20"], 512) for run in RUNS]
    with ThreadPoolExecutor(JOBS) as ex:
        pres = list(ex.map(lambda j: accuracy(j[0], j[1]), pjobs))
    for name, r in pres:
        w = r["wasted"]
        n = sum(p["n"] for p in r["pairs"])
        err = 100.0 * (w["estimate"] - w["true"]) / w["true"] if w["true"] else 0.0
        oerr = 100.0 * (w["overlap_estimate"] - w["overlap_true"]) / w["overlap_true"] \
            if w["overlap_true"] else 0.0
        print(f"   {name:10s} {w['instructions']:6d} {n:6d}  {w['true']:12.4g} "
              f"{w['estimate']:12.4g}  {err:+6.1f}%  {w['mean_abs_rel_error']:10.3f}"
              f"      {oerr:+6.1f}%")


def error_bins(rows, label):
    """Print rms relative error per log2 bin of k and the log-log slope; return the points."""
    bins = {}
    for k, e in rows:
        if k >= 1:
            bins.setdefault(int(math.log2(k)), []).append(e)
    pts = []
    print(f"   {label}:")
    print("     k from   count    rms error   rms*sqrt(k)")
    for b in sorted(bins):
        es = bins[b]
        if len(es) < 10:
            continue
        rms = math.sqrt(sum(e * e for e in es) / len(es))
        kmid = math.sqrt((2 ** b) * (2 ** (b + 1)))
        pts.append((kmid, rms))
        print(f"     {2 ** b:6d}  {len(es):6d}   {rms:9.4f}   {rms * math.sqrt(kmid):9.3f}")
    if len(pts) >= 2:
        xs = [math.log(k) for k, _ in pts]
        ys = [math.log(r) for _, r in pts]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / \
            sum((x - mx) ** 2 for x in xs)
        print(f"     slope of log(rms error) on log(k): {slope:.3f} (1/sqrt(k): -0.5)")
    return pts


def write_svg(pts):
    """Relative error against k on log-log axes, with the 1/sqrt(k) line through the data."""
    os.makedirs(os.path.dirname(SVG) or ".", exist_ok=True)
    w, h, m = 560, 380, 60
    lx = [math.log10(k) for k, _ in pts]
    ly = [math.log10(r) for _, r in pts]
    x0, x1 = math.floor(min(lx)), math.ceil(max(lx))
    y0, y1 = math.floor(min(ly) - 0.3), math.ceil(max(ly) + 0.3)

    def X(v):
        return m + (v - x0) / (x1 - x0) * (w - 2 * m)

    def Y(v):
        return h - m - (v - y0) / (y1 - y0) * (h - 2 * m)
    c = sum(r * math.sqrt(k) for k, r in pts) / len(pts)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w / 2}" y="20" text-anchor="middle">ProfileMe: relative error of '
           f'estimated counts vs samples k</text>',
           f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="black"/>',
           f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h - m}" stroke="black"/>']
    for e in range(x0, x1 + 1):
        out.append(f'<text x="{X(e)}" y="{h - m + 16}" text-anchor="middle">1e{e}</text>')
    for e in range(y0, y1 + 1):
        out.append(f'<text x="{m - 6}" y="{Y(e) + 4}" text-anchor="end">1e{e}</text>')
    out.append(f'<text x="{w / 2}" y="{h - 15}" text-anchor="middle">expected samples k = true / scale</text>')
    out.append(f'<text x="15" y="{h / 2}" transform="rotate(-90 15 {h / 2})" '
               f'text-anchor="middle">rms relative error</text>')
    line = " ".join(f"{X(v):.1f},{Y(math.log10(c) - v / 2):.1f}"
                    for v in (x0 + i * (x1 - x0) / 50 for i in range(51)))
    out.append(f'<polyline points="{line}" fill="none" stroke="gray" stroke-dasharray="4"/>')
    out.append(f'<text x="{w - m}" y="{m - 8}" text-anchor="end" fill="gray">dashed: '
               f'{c:.2f}/sqrt(k)</text>')
    for k, r in pts:
        out.append(f'<circle cx="{X(math.log10(k)):.1f}" cy="{Y(math.log10(r)):.1f}" r="4" '
                   f'fill="steelblue"/>')
    out.append("</svg>")
    with open(SVG, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
