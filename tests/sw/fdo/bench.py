#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bench-fdo-overlap (docs/fdo.md): the degree of overlap of sampled edge profiles with the
exact one, per source and stage - the bars of Chen et al.'s Figure 3 - on the workloads and
Debian programs (sim/programs/suite.txt, short inputs).

Per program: the exact profile (tiprof iss --truth), then on the 4-wide core model TIP cycle
samples (read two ways: commit, cycles), ProfileMe records and, when the simulator has it,
TIP's instruction trigger (-e tip:insts, issue 13 item 1), all at one period, and the reference
policies' attribution of TIP's sampled cycles (Software, Dispatch, NCI; the Oracle's exact time
profile), for contrast; then
tiprof fdo overlap --json for each. Every run is env -i with standard output to a file, so
the C library's start-up takes the same path in all of them.
Env: TIPROF, WL_OUT, PROGRAMS (build/programs), OUT (results folder), FDO_PERIOD (4096),
FDO_PROGRAMS (comma-separated names to run, default all), FDO_REUSE=1 (keep the exact profiles
and sample files already in OUT: only the overlap is computed again)."""
import json
import os
import shlex
import subprocess
import sys

T = os.environ.get("TIPROF", "build/bin/tiprof")
WL = os.environ.get("WL_OUT", "build/workloads")
PROG = os.environ.get("PROGRAMS", "build/programs")
OUT = os.environ.get("OUT", "build/fdo/bench")
PERIOD = os.environ.get("FDO_PERIOD", "4096")
ONLY = [x for x in os.environ.get("FDO_PROGRAMS", "").split(",") if x]
REUSE = os.environ.get("FDO_REUSE") == "1"
os.makedirs(OUT, exist_ok=True)

programs = [(w, os.path.abspath(os.path.join(WL, w)), [], None)
            for w in ("quicksort", "matmul", "crc32", "dispatch", "ceilfloor", "ptrchase", "stream")]
suite = os.path.join(os.path.dirname(__file__), "../../../sim/programs/suite.txt")
for line in open(suite):
    if line.startswith("#") or not line.strip():
        continue
    f = shlex.split(line)
    if f[1] != "short" or f[0] not in ("bzip2", "lua"):
        continue
    exe = os.path.abspath(os.path.join(PROG, "bin", f[2]))
    if os.path.exists(exe):
        programs.append((f[0], exe, f[3:], os.path.abspath(os.path.join(PROG, "inputs"))))
if ONLY:
    programs = [p for p in programs if p[0] in ONLY]

SOURCES = [  # label, sim arguments, file tag, estimator
    ("TIP cycles: commit", ["-c", PERIOD], "tip", "commit"),
    ("TIP cycles: time", None, "tip", "cycles"),
    ("TIP insn trigger", ["-e", "tip:insts", "-c", PERIOD], "insn", "insn"),
    ("ProfileMe retired", ["-e", "profileme", "-c", PERIOD], "pm", "pm-retired"),
    # the reference policies' attribution of the same sampled cycles (FILE.policies)
    ("Software (skid)", None, "tip", "policy:Software"),
    ("Dispatch", None, "tip", "policy:Dispatch"),
    ("NCI", None, "tip", "policy:NCI"),
    ("Oracle time", None, "tip", "policy:Oracle"),
]
STAGES = ["raw", "static", "mcf", "mcf+heuristics", "mcf+perfect"]


def run(args, out, cwd):
    with open(out, "wb") as o:
        return subprocess.run(["env", "-i"] + args, stdout=o, stderr=subprocess.PIPE,
                              cwd=cwd).returncode


results = {}
for name, exe, args, cwd in programs:
    base = os.path.abspath(os.path.join(OUT, name))
    exact = base + ".exact"
    if not (REUSE and os.path.exists(exact)) and \
            run([os.path.abspath(T), "iss", "--truth", exact, exe] + args, base + ".iss.out", cwd):
        print(f"{name}: tiprof iss failed", file=sys.stderr)
        continue
    results[name] = {}
    for label, simargs, tag, est in SOURCES:
        tps = f"{base}.{tag}.tps"
        if simargs is not None and not (REUSE and os.path.exists(tps)):
            p = subprocess.run(["env", "-i", os.path.abspath(T), "sim"] + simargs +
                               ["--profile", tps, exe] + args, cwd=cwd,
                               stdout=open(f"{base}.{tag}.out", "wb"), stderr=subprocess.PIPE)
            if p.returncode:
                print(f"{name}: {label}: tiprof sim failed: "
                      f"{p.stderr.decode().strip().splitlines()[-1:]}", file=sys.stderr)
                if os.path.exists(tps):
                    os.remove(tps)
        if not os.path.exists(tps):
            continue
        p = subprocess.run([T, "fdo", "overlap", tps, "-e", est, "--truth", exact, "--elf", exe,
                            "--json"], capture_output=True, text=True)
        if p.returncode:
            print(f"{name}: {label}: {p.stderr.strip()}", file=sys.stderr)
            continue
        results[name][label] = json.loads(p.stdout)
    print(f"  {name}: done", file=sys.stderr)

json.dump(results, open(os.path.join(OUT, "overlap.json"), "w"), indent=1)

# the table: edge overlap per program, source and stage; then the means
print(f"\nEdge overlap with the exact profile (%), period {PERIOD}; function-level in brackets "
      "for MCF")
head = f"{'program':11} {'source':20} {'samples':>8} " + " ".join(f"{s:>14}" for s in STAGES)
print(head)
print("-" * len(head))
sums = {}
for name, by in results.items():
    for label, j in by.items():
        st = j["stages"]
        cells = []
        for s in STAGES:
            c = f"{100 * st[s]['edge']:.1f}"
            if s == "mcf":
                c += f" [{100 * st[s]['function']:.1f}]"
            cells.append(f"{c:>14}")
            sums.setdefault(label, {}).setdefault(s, []).append(st[s]["edge"])
        sums[label].setdefault("function", []).append(st["mcf"]["function"])
        print(f"{name:11} {label:20} {j['samples']:8.0f} " + " ".join(cells))
print("-" * len(head))
for label, by in sums.items():
    n = len(by["mcf"])
    cells = [f"{100 * sum(by[s]) / n:14.1f}" for s in STAGES]
    print(f"{'mean (' + str(n) + ')':11} {label:20} {'':8} " + " ".join(cells) +
          f"   function-level MCF {100 * sum(by['function']) / n:.1f}")
print(f"\nresults: {OUT}/overlap.json")
