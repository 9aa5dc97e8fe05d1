#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bench_instr.py - make bench-seldisp (docs/seldisp.md section 10): the overhead in simulated
cycles (tiprof sim, 4wide) of Xtpsd block and call-graph instrumentation (sw/seldisp) with
plain dispatch, the decode filter, the filter + each branch strategy, and the filter + the
profile flag predictor, at profiling windows of 10, 25 and 50 %, and the Manhattan distance of
each windowed profile to the full one; on the workloads and four programs of sim/programs.

  bench_instr.py OUT      (environment: TIPROF, RV_CC, INC, WL_DIR, PROG_DIR, PROG_OUT;
                           SDI_BENCH_ONLY=a,b: only those programs)
Writes OUT/results.md (the tables) and OUT/results.json; every run's stdout must equal the
uninstrumented build's on the same model, and every windowed profile must be the same in
every mode (the windows are in retired instructions, the ISS's clock) - else exit 1.
"""
import concurrent.futures as cf
import hashlib
import json
import os
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SW = os.path.normpath(os.path.join(HERE, "../../../sw/seldisp"))
ENV = os.environ
TIPROF, RV_CC, INC = ENV["TIPROF"], ENV["RV_CC"], ENV["INC"]
WL_DIR, PROG_DIR, PROG_OUT = ENV["WL_DIR"], ENV["PROG_DIR"], ENV["PROG_OUT"]
PERIOD = 100000
WINDOWS = (10, 25, 50)
KINDS = ("bb", "cg")
MODES = [("plain", "sd_mode=0"), ("filter", "sd_mode=1"),
         ("+ignore", "sd_mode=1,sd_bp=1"), ("+flag", "sd_mode=1,sd_bp=2"),
         ("+predbit", "sd_mode=1,sd_bp=3"), ("+pfp", "sd_mode=1,sd_pfp=1")]
# workloads: sizes of about 4-5 M instructions (between the small and the default size)
WORKLOADS = [("matmul", "80"), ("crc32", "30"), ("quicksort", "25000"), ("dispatch", "150000"),
             ("ceilfloor", "100"), ("ptrchase", "65536"), ("stream", "65536")]
# programs of sim/programs (recipe, suite name), at their short input
# (lua does not link instrumented: its counters lie beyond pf.inc's +-1 MiB reach; section 10)
PROGRAMS = [("zlib", "minigzip"), ("cjson", "cjson"), ("bzip2", "bzip2"), ("xz", "xz")]
WL_FLAGS = ["-std=c11", "-O2", "-g", "-gdwarf-4", "-static", "-Wall", "-Wextra", "-Werror"]


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, **kw)
    if r.returncode:
        sys.stderr.write("bench-seldisp: %s failed (%d): %s\n" %
                         (" ".join(cmd[:6]), r.returncode, r.stderr.decode()[-400:]))
        sys.exit(1)
    return r


def src_hash():
    h = hashlib.sha256()
    for f in sorted(os.listdir(SW)):
        h.update(open(os.path.join(SW, f), "rb").read())
    h.update(open(os.path.join(HERE, "instr-build-prog.sh"), "rb").read())
    return h.hexdigest()


def suite_args(name):
    for ln in open(os.path.join(PROG_DIR, "suite.txt")):
        w = ln.split(None, 3)
        if len(w) == 4 and w[0] == name and w[1] == "short":
            return w[2], shlex.split(w[3])
    sys.stderr.write("bench-seldisp: %s: no short line in suite.txt\n" % name)
    sys.exit(1)


def build(out):
    """{name: (base binary, {kind: binary}, args, cwd)}"""
    h = src_hash()

    def fresh(b):   # built from the instrumenter and runtime as they are now
        return os.path.exists(b) and os.path.exists(b + ".stamp") and open(b + ".stamp").read() == h
    rt = os.path.join(out, "tpsd_rt.o")
    os.makedirs(out, exist_ok=True)
    run([RV_CC, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-I" + INC, "-c", "-o", rt,
         os.path.join(SW, "tpsd_rt.c")])
    env = dict(ENV, TPSD_CC=RV_CC, TPSD_RT=rt)
    progs = {}
    only = ENV.get("SDI_BENCH_ONLY")   # a comma-separated subset of the programs (a quick run)
    keep = (lambda n: n in only.split(",")) if only else (lambda n: True)
    for name, size in [x for x in WORKLOADS if keep(x[0])]:
        src = os.path.join(WL_DIR, name + ".c")
        bins = {}
        for kind in ("base",) + KINDS + ("none",):
            b = os.path.join(out, kind, name)
            bins[kind] = b
            if fresh(b):
                continue
            os.makedirs(os.path.dirname(b), exist_ok=True)
            cc = [RV_CC] if kind == "base" else [os.path.join(SW, "tpsd-cc")]
            run(cc + WL_FLAGS + ["-o", b, src, "-lm"], env=dict(env, TPSD_KIND=kind))
            open(b + ".stamp", "w").write(h)
        progs[name] = (bins, [size], None)
    for recipe, name in [x for x in PROGRAMS if keep(x[1])]:
        binname, args = suite_args(name)
        bins = {"base": os.path.join(PROG_OUT, "bin", binname)}
        for kind in KINDS + ("none",):
            d = os.path.join(out, "prog-" + kind, recipe)
            bins[kind] = os.path.join(d, "bin", binname)
            if fresh(bins[kind]):
                continue
            print("  BUILD   %s (%s)" % (recipe, kind), flush=True)
            run(["bash", os.path.join(HERE, "instr-build-prog.sh"), recipe, PROG_DIR, PROG_OUT,
                 os.path.join(d, "obj"), os.path.join(d, "bin")], env=dict(env, TPSD_KIND=kind))
            open(bins[kind] + ".stamp", "w").write(h)
        progs[name] = (bins, args, os.path.join(PROG_OUT, "inputs"))
    return progs


def sim(job):
    name, binary, args, cwd, kind, w, mode, cfg, out = job
    tag = "%s.%s.w%s.%s" % (name, kind, w, mode)
    # the profile's path is in the environment, so it has one length for every run: a
    # different length moves the stack and the windows (counted in retired instructions)
    prof = os.path.join(out, "runs", "p" + hashlib.sha256(tag.encode()).hexdigest()[:16] + ".prof")
    rep = os.path.join(out, "runs", tag + ".json")
    env = {"TPSD": "w=%s,p=%d,o=%s" % (w, PERIOD, prof)}
    r = subprocess.run([TIPROF, "sim", "--config", "4wide," + cfg, "--json", "-o", rep, binary] + args,
                       capture_output=True, cwd=cwd, env=env)
    if r.returncode:
        return tag, None, "exit %d: %s" % (r.returncode, r.stderr.decode()[-300:])
    d = json.load(open(rep))
    return tag, {"cycles": d["cycles"], "insns": d["instructions"],
                 "stdout": hashlib.sha256(r.stdout).hexdigest(),
                 "prof": prof if kind in KINDS else None}, None


def main(out):
    global TIPROF
    t0 = time.time()
    progs = build(out)
    # a copy: other builds relink build/bin/tiprof while the bench runs
    snap = os.path.join(out, "tiprof")
    subprocess.run(["cp", TIPROF, snap + ".tmp"], check=True)
    os.replace(snap + ".tmp", snap)
    TIPROF = snap
    os.makedirs(os.path.join(out, "runs"), exist_ok=True)
    jobs = []
    for name, (bins, args, cwd) in progs.items():
        jobs.append((name, bins["base"], args, cwd, "base", 0, "plain", "sd_mode=0", out))
        for kind in KINDS:
            jobs.append((name, bins[kind], args, cwd, kind, 100, "plain", "sd_mode=0", out))
            for w in WINDOWS:
                for mode, cfg in MODES:
                    jobs.append((name, bins[kind], args, cwd, kind, w, mode, cfg, out))
        for w in WINDOWS + (100,):
            jobs.append((name, bins["none"], args, cwd, "none", w, "plain", "sd_mode=0", out))
    print("  %d simulations on %d programs" % (len(jobs), len(progs)), flush=True)
    res, errs = {}, []
    with cf.ThreadPoolExecutor(max_workers=2) as ex:
        for tag, r, err in ex.map(sim, jobs):
            if err:
                errs.append("%s: %s" % (tag, err))
            res[tag] = r
    for e in errs:
        print("FAIL " + e)
    if errs:
        return 1
    bad = []
    table = {}
    for name in progs:
        base = res["%s.base.w0.plain" % name]
        for tag, r in res.items():
            if tag.startswith(name + ".") and r["stdout"] != base["stdout"]:
                bad.append("%s: stdout differs from the uninstrumented build's" % tag)
        for kind in KINDS:
            full = res["%s.%s.w100.plain" % (name, kind)]
            row = {"base": base["cycles"], "full": full["cycles"] / base["cycles"] - 1}
            for w in WINDOWS:
                p0 = res["%s.%s.w%d.plain" % (name, kind, w)]["prof"]
                for mode, _ in MODES:
                    r = res["%s.%s.w%d.%s" % (name, kind, w, mode)]
                    row[(w, mode)] = r["cycles"] / base["cycles"] - 1
                    if open(r["prof"]).read() != open(p0).read():
                        bad.append("%s %s w%d %s: profile differs from plain's" % (name, kind, w, mode))
                row[(w, "timer")] = res["%s.none.w%d.plain" % (name, w)]["cycles"] / base["cycles"] - 1
                d = subprocess.run([sys.executable, os.path.join(HERE, "instr_check.py"), "dist",
                                    full["prof"], p0, kind], capture_output=True, text=True)
                row[(w, "dist")] = float(d.stdout) if d.returncode == 0 else float("nan")
                row[(w, "share")] = counted(p0) / max(counted(full["prof"]), 1)
            row["timer100"] = res["%s.none.w100.plain" % name]["cycles"] / base["cycles"] - 1
            table[(name, kind)] = row
    for b in bad[:20]:
        print("FAIL " + b)
    write_tables(out, progs, table, time.time() - t0, len(jobs))
    return 1 if bad else 0


def counted(prof):
    """All counts of a profile file."""
    return sum(int(ln.split()[-1]) for ln in open(prof) if ln.startswith(("bb ", "cg ")))


def pct(x):
    return "%.1f" % (100 * x)


def write_tables(out, progs, table, secs, njobs):
    L = []
    names = list(progs)
    for kind, title in (("bb", "basic-block"), ("cg", "call-graph")):
        L.append("### %s profiling: overhead in cycles (%%, 4wide) and accuracy\n" % title)
        L.append("| program | full | w | counted | timer | plain | filter | +ignore | +flag | +predbit |"
                 " +pfp | red. filter | red. +pfp | distance |")
        L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        sums = {}
        for name in names:
            row = table[(name, kind)]
            for w in WINDOWS:
                pl = row[(w, "plain")]
                rf = 1 - row[(w, "filter")] / pl if pl > 0 else float("nan")
                rp = 1 - row[(w, "+pfp")] / pl if pl > 0 else float("nan")
                for k, v in (("plain", pl), ("filter", row[(w, "filter")]), ("pfp", row[(w, "+pfp")]),
                             ("dist", row[(w, "dist")]), ("timer", row[(w, "timer")])):
                    sums.setdefault((w, k), []).append(v)
                L.append("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.3f |" % (
                    name if w == WINDOWS[0] else "", pct(row["full"]) if w == WINDOWS[0] else "", w,
                    pct(row[(w, "share")]), pct(row[(w, "timer")]), pct(pl), pct(row[(w, "filter")]), pct(row[(w, "+ignore")]),
                    pct(row[(w, "+flag")]), pct(row[(w, "+predbit")]), pct(row[(w, "+pfp")]),
                    pct(rf), pct(rp), row[(w, "dist")]))
        for w in WINDOWS:
            m = {k: sum(sums[(w, k)]) / len(sums[(w, k)]) for k in ("plain", "filter", "pfp", "dist", "timer")}
            L.append("| **mean** | | %d | | %s | %s | %s | | | | %s | **%s** | **%s** | %.3f |" % (
                w, pct(m["timer"]), pct(m["plain"]), pct(m["filter"]), pct(m["pfp"]),
                pct(1 - m["filter"] / m["plain"]), pct(1 - m["pfp"] / m["plain"]), m["dist"]))
        L.append("")
    L.append("%d simulations, %.0f s wall (make bench-seldisp)." % (njobs, secs))
    txt = "\n".join(L) + "\n"
    open(os.path.join(out, "results.md"), "w").write(txt)
    json.dump({"%s.%s" % k: {str(kk): vv for kk, vv in v.items()} for k, v in table.items()},
              open(os.path.join(out, "results.json"), "w"), indent=1)
    print(txt)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: bench_instr.py OUT\n")
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
