#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bench-fdo-speedup (docs/fdo.md, "Measured: speed-up"; issue 13 item 6): the speed-up of
feedback-directed optimisation on the 4-wide core model, per profile source.

Per program (Debian source packages built by sim/programs' recipes, and workloads), with a
TRAINING input different from the EVALUATION input:

  o2      -O2 (the recipe's flags with -O2 last: zstd and zlib's -O3 become -O2)
  instr   -fprofile-generate, run on the training input on `tiprof iss` (the .gcda files
          it writes are compared byte for byte with those of a qemu-riscv64 run), then
          -fprofile-use
  SOURCE  -fauto-profile from the -O2 binary's samples on the training input, for each
          sample source `tiprof fdo` can convert (TIP instruction trigger, TIP cycle samples
          read by their commits and as time, ProfileMe, the Software policy's skidded
          samples, and the exact profile of the ISS as the upper bound of sampling)

Every build runs the evaluation input on `tiprof sim --config 4wide`; its output must equal the
-O2 build's (and the -O2 build's qemu-riscv64's). Reported: cycles, speed-up over -O2
(cycles_o2 / cycles - 1), the fraction of instrumented FDO's gain each source gets
((cycles_o2 - cycles) / (cycles_o2 - cycles_instr)), and each source's collection overhead in
simulated cycles on the training run (the sampled or instrumented run's cycles over the plain
-O2 run's).

Builds are cached under OUT/b/PROGRAM/VARIANT-KEY, KEY a hash of the recipe, build.sh, the
compiler's version, the flags and the profile's bytes; simulator runs under OUT/r/, keyed by the
binary's, the simulator's and the inputs' hashes. Nothing runs twice when nothing changed.

Env: TIPROF (build/bin/tiprof), PROGRAMS (build/programs: recipes' sources and gen-input),
OUT (build/fdo/speedup), FDO_PROGRAMS (comma-separated names, default all), FDO_SOURCES
(comma-separated source names, default all), FDO_PERIOD (sampling period, default 1024),
FDO_JOBS (programs at once, default 2), CROSS_COMPILE (riscv64-linux-gnu-),
QEMU (qemu-riscv64)."""
import concurrent.futures
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import threading

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
T = os.path.abspath(os.environ.get("TIPROF", os.path.join(ROOT, "build/bin/tiprof")))
PROG = os.path.abspath(os.environ.get("PROGRAMS", os.path.join(ROOT, "build/programs")))
OUT = os.path.abspath(os.environ.get("OUT", os.path.join(ROOT, "build/fdo/speedup")))
CROSS = os.environ.get("CROSS_COMPILE", "riscv64-linux-gnu-")
QEMU = os.environ.get("QEMU", "qemu-riscv64")
PERIOD = os.environ.get("FDO_PERIOD", "1024")
JOBS = int(os.environ.get("FDO_JOBS", "2"))
ONLY = [x for x in os.environ.get("FDO_PROGRAMS", "").split(",") if x]
ONLY_SRC = [x for x in os.environ.get("FDO_SOURCES", "").split(",") if x]
GCC = CROSS + "gcc"
INPUTS = os.path.join(OUT, "inputs")
LOCK = threading.Lock()

# The programs: name, recipe (sim/programs/recipes/NAME.sh) or workload source
# (sim/workloads/NAME.c), binary, training arguments, evaluation arguments. Inputs are made by
# make_inputs() below: *-train from seed 2, *-eval from seed 1 (the suite's seed), other sizes.
PROGRAMS = [
    ("bzip2", "bzip2", "bzip2-static", ["-9", "-c", "mixed-32K-train.bin"],
     ["-9", "-c", "mixed-64K-eval.bin"]),
    ("minigzip", "zlib", "minigzip-static", ["-9", "-c", "mixed-64K-train.bin"],
     ["-9", "-c", "mixed-64K-eval.bin"]),
    ("xz", "xz", "xz-static", ["-3", "-c", "mixed-64K-train.bin"],
     ["-3", "-c", "mixed-64K-eval.bin"]),
    ("brotli", "brotli", "brotli-static", ["-c", "-q", "9", "mixed-64K-train.bin"],
     ["-c", "-q", "9", "mixed-64K-eval.bin"]),
    ("zstd", "zstd", "zstd-static", ["-3", "-c", "mixed-128K-train.bin"],
     ["-3", "-c", "mixed-256K-eval.bin"]),
    ("lua", "lua", "lua-static", ["bench.lua", "1"], ["bench.lua", "2"]),
    ("cjson", "cjson", "cjson-bench-static", ["json-8K-train.json"], ["json-24K-eval.json"]),
    ("pcre2grep", "pcre2", "pcre2grep-static",
     shlex.split(r"""-n -o -e '\b(cache|branch|pipeline)\s+(\w+)\b' -e 'ipc=([0-3])\.(\d\d)'
        -e '\b(\w+) (?:of|the|a) \1\b' -e 'pc=0x0*([1-9a-f][0-9a-f]{3})(?=\s)'
        -e '(?i)error.*core[0-3]' text-8K-train.txt"""),
     shlex.split(r"""-n -o -e '\b(cache|branch|pipeline)\s+(\w+)\b' -e 'ipc=([0-3])\.(\d\d)'
        -e '\b(\w+) (?:of|the|a) \1\b' -e 'pc=0x0*([1-9a-f][0-9a-f]{3})(?=\s)'
        -e '(?i)error.*core[0-3]' text-16K-eval.txt""")),
    ("quicksort", None, "quicksort", ["30000"], ["100000"]),
    ("dispatch", None, "dispatch", ["100000"], ["300000"]),
]
# gen-input files: name -> (kind, size, seed)
GEN_INPUTS = {
    "mixed-32K-train.bin": ("mixed", "32K", 2), "mixed-64K-train.bin": ("mixed", "64K", 2),
    "mixed-128K-train.bin": ("mixed", "128K", 2), "mixed-64K-eval.bin": ("mixed", "64K", 1),
    "mixed-256K-eval.bin": ("mixed", "256K", 1),
    "json-8K-train.json": ("json", "8K", 2), "json-24K-eval.json": ("json", "24K", 1),
    "text-8K-train.txt": ("text", "8K", 2), "text-16K-eval.txt": ("text", "16K", 1),
}

# Sample sources: name, tiprof sim arguments (None: the file of another source), the file
# tag, the estimator (tiprof fdo -e), a label.
SOURCES = [
    ("tip-insn", ["-e", "tip:insts", "-c", PERIOD], "insn", "insn", "TIP instruction trigger"),
    ("tip-commit", ["-c", PERIOD], "tip", "commit", "TIP cycle samples, commit"),
    ("tip-time", None, "tip", "cycles", "TIP cycle samples, time"),
    ("profileme", ["-e", "profileme", "-c", PERIOD], "pm", "pm-retired", "ProfileMe, retired"),
    ("software", None, "tip", "policy:Software", "Software policy (skid)"),
    ("exact", None, "exact", None, "exact profile (ISS), upper bound"),
]
if ONLY_SRC:
    SOURCES = [s for s in SOURCES if s[0] in ONLY_SRC]


def log(msg):
    with LOCK:
        print(msg, file=sys.stderr, flush=True)


def sha(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()


def file_sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def dir_files(path):
    """The files under PATH, relative to it, sorted."""
    return sorted(os.path.relpath(os.path.join(r, f), path)
                  for r, _, fs in os.walk(path) for f in fs)


def dir_sha(path):
    return sha(*[n + ":" + file_sha(os.path.join(path, n)) for n in dir_files(path)])


class Fail(Exception):
    pass


def check(cmd, what, **kw):
    p = subprocess.run(cmd, capture_output=True, **kw)
    if p.returncode:
        err = p.stderr.decode(errors="replace").strip().splitlines()
        raise Fail(f"{what}: exit {p.returncode}: {err[-1] if err else ''}")
    return p


def make_inputs():
    gen = os.path.join(PROG, "gen-input")
    if not os.access(gen, os.X_OK):
        raise SystemExit(f"speedup.py: {gen}: missing (make program-inputs builds it)")
    os.makedirs(INPUTS, exist_ok=True)
    for name, (kind, size, seed) in GEN_INPUTS.items():
        path = os.path.join(INPUTS, name)
        if not os.path.exists(path):
            with open(path + ".tmp", "wb") as o:
                subprocess.run([gen, "-k", kind, size, str(seed)], stdout=o, check=True)
            os.replace(path + ".tmp", path)
    shutil.copy(os.path.join(ROOT, "sim/programs/inputs/bench.lua"), INPUTS)


GCC_VERSION = None


def gcc_version():
    global GCC_VERSION
    if GCC_VERSION is None:
        GCC_VERSION = check([GCC, "--version"], GCC).stdout.decode().splitlines()[0]
    return GCC_VERSION


def build(name, recipe, binary, variant, flags, profile=None):
    """Build PROGRAM with the recipe's flags plus -O2 and FLAGS; PROFILE (a file or folder)
    is part of the cache key. Every build of a program compiles in one folder, OUT/stage/NAME
    (@D@ in FLAGS), and is then moved to its cache folder: GCC's .gcda files are keyed by the
    objects' absolute paths (an -fprofile-generate=DIR program writes DIR/OBJECT.gcda) and
    checked against the source files' paths, so -fprofile-generate and -fprofile-use builds
    must compile the same paths. A folder PROFILE is such a DIR, copied to @D@/gcda-use for
    -fprofile-use=@D@/gcda-use. Returns the binary's path and the compilers' warnings about
    profiles (lines)."""
    if recipe:
        src_files = [os.path.join(ROOT, "sim/programs/recipes", recipe + ".sh"),
                     os.path.join(ROOT, "sim/programs/build.sh")]
    else:
        src_files = [os.path.join(ROOT, "sim/workloads", name + ".c"),
                     os.path.join(ROOT, "sim/workloads/wl.h")]
    prof_key = "" if profile is None else \
        (dir_sha(profile) if os.path.isdir(profile) else file_sha(profile))
    key = sha(gcc_version(), " ".join(flags), prof_key, *[file_sha(f) for f in src_files])[:12]
    final = os.path.join(OUT, "b", name, f"{variant}-{key}")
    rel = os.path.join("programs/bin", binary) if recipe else binary
    if os.path.exists(os.path.join(final, ".done")):
        return os.path.join(final, rel), json.load(open(os.path.join(final, ".done")))["warnings"]
    d = stage_dir(name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    if profile is not None and os.path.isdir(profile):
        shutil.copytree(profile, os.path.join(d, "gcda-use"))
    exe = os.path.join(d, rel)
    done = os.path.join(d, ".done")
    extra = ["-O2"] + [f.replace("@D@", d) for f in flags]
    log(f"  BUILD  {name} {variant}: {' '.join(extra)}")
    if recipe:
        os.makedirs(os.path.join(d, "programs"))
        os.symlink(os.path.join(PROG, "src"), os.path.join(d, "programs/src"))
        os.makedirs(os.path.join(d, "cc"))
        wrap = os.path.join(d, "cc", CROSS + "gcc")
        with open(wrap, "w") as w:
            w.write("#!/bin/sh\n# the recipe's compiler with the FDO variant's flags last\n"
                    f"exec {shlex.quote(shutil.which(GCC) or GCC)} \"$@\" "
                    f"{' '.join(shlex.quote(f) for f in extra)}\n")
        os.chmod(wrap, 0o755)
        env = dict(os.environ, BUILD=d, CROSS_COMPILE=os.path.join(d, "cc", CROSS),
                   JOBS="1" if JOBS > 1 else "2", PROG_JOBS="1")
        p = subprocess.run([os.path.join(ROOT, "sim/programs/build.sh"), recipe], env=env,
                           capture_output=True, cwd=ROOT)
        if p.returncode:
            raise Fail(f"build {variant}: {p.stderr.decode(errors='replace').strip()[-400:]}")
        logs = os.path.join(d, "programs/obj", recipe)
        text = ""
        for f in sorted(os.listdir(logs)):
            if f.endswith(".log"):
                text += open(os.path.join(logs, f), errors="replace").read()
    else:
        cflags = ["-std=c11", "-g", "-gdwarf-4", "-Wall", "-Wextra",
                  "-I" + os.path.join(ROOT, "sim/workloads")]
        p = subprocess.run([GCC] + cflags + ["-c", src_files[0], "-o",
                                             os.path.join(d, binary + ".o")] + extra,
                           capture_output=True, cwd=d)
        text = p.stderr.decode(errors="replace")
        if p.returncode == 0:
            p = subprocess.run([GCC, "-static", "-o", binary, binary + ".o", "-lm"] + extra,
                               capture_output=True, cwd=d)
        if p.returncode:
            raise Fail(f"build {variant}: {p.stderr.decode(errors='replace').strip()[-400:]}")
    if not os.path.exists(exe):
        raise Fail(f"build {variant}: no {exe}")
    warnings = [ln for ln in text.splitlines() if "warning" in ln and
                ("profile" in ln or "gcda" in ln or "coverage" in ln or "afdo" in ln)]
    json.dump({"flags": extra, "warnings": warnings}, open(done, "w"))
    shutil.rmtree(final, ignore_errors=True)
    os.makedirs(os.path.dirname(final), exist_ok=True)
    os.rename(d, final)
    return os.path.join(final, rel), warnings


def stage_dir(name):
    return os.path.join(OUT, "stage", name)


def run(tag, tool, exe, args, name, extra=(), env_extra=None, keep=()):
    """Run EXE ARGS (cwd INPUTS, empty environment, stdin /dev/null) under TOOL: 'sim' (tiprof
    sim --config 4wide --json EXTRA), 'iss' (tiprof iss EXTRA) or 'qemu'. Cached by the
    binary's, the tool's and the inputs' hashes. The program is copied to one path per
    program (OUT/x/NAME), so argv[0] is the same for every build. Returns (report or None,
    the program's stdout bytes, cache folder)."""
    tool_bin = T if tool in ("sim", "iss") else shutil.which(QEMU)
    in_keys = [file_sha(os.path.join(INPUTS, a)) for a in args
               if os.path.isfile(os.path.join(INPUTS, a))]
    key = sha(tool, file_sha(tool_bin), file_sha(exe), args, list(extra), in_keys)[:16]
    rd = os.path.join(OUT, "r", name, f"{tag}-{key}")
    done = os.path.join(rd, ".done")
    if os.path.exists(done):
        rep = json.load(open(os.path.join(rd, "report.json"))) if tool == "sim" else None
        return rep, open(os.path.join(rd, "stdout"), "rb").read(), rd
    shutil.rmtree(rd, ignore_errors=True)
    os.makedirs(rd)
    xd = os.path.join(OUT, "x")
    os.makedirs(xd, exist_ok=True)
    prog = os.path.join(xd, name)
    with LOCK:  # one copy per program; programs run in parallel, a program's steps do not
        shutil.copy(exe, prog)
    ex = [f.replace("@R@", rd) for f in extra]
    if tool == "sim":
        cmd = [T, "sim", "--config", "4wide", "--json", "-o", os.path.join(rd, "report.json")] \
            + ex + ["--", prog] + args
    elif tool == "iss":
        cmd = [T, "iss"] + ex + ["--", prog] + args
    else:
        cmd = [tool_bin] + ex + [prog] + args
    env = ["env", "-i"] + [f"{k}={v}" for k, v in (env_extra or {}).items()]
    with open(os.path.join(rd, "stdout"), "wb") as o, \
            open(os.path.join(rd, "stderr"), "wb") as e:
        rc = subprocess.run(env + cmd, stdout=o, stderr=e, stdin=subprocess.DEVNULL,
                            cwd=INPUTS).returncode
    if rc:
        err = open(os.path.join(rd, "stderr"), errors="replace").read().strip().splitlines()
        raise Fail(f"{tag} ({tool}): exit {rc}: {err[-1] if err else ''}")
    rep = None
    if tool == "sim":
        rep = json.load(open(os.path.join(rd, "report.json")))
        if rep.get("exit_code") != 0:
            raise Fail(f"{tag}: the program exited {rep.get('exit_code')} on tiprof sim")
    for k in keep:  # files the run wrote elsewhere, moved into its cache folder
        if os.path.exists(k[0]):
            shutil.move(k[0], os.path.join(rd, k[1]))
    open(done, "w").write("ok\n")
    return rep, open(os.path.join(rd, "stdout"), "rb").read(), rd


FDO_CONVERT = None


def fdo_converter():
    """The `tiprof fdo` subcommand that writes GCC's AutoFDO format (helper fdofmt's work,
    docs/fdo.md): None until tiprof has it."""
    global FDO_CONVERT
    if FDO_CONVERT is None:
        p = subprocess.run([T, "fdo", "--help"], capture_output=True, text=True)
        FDO_CONVERT = "gcov" if "tiprof fdo gcov" in p.stdout + p.stderr else ""
    return FDO_CONVERT


def afdo_profile(name, src, exe, sample_file, est, rd):
    """Convert SAMPLE_FILE (a sample file of EXE, or an exact profile) to GCC's AutoFDO
    format with tiprof fdo; returns the file."""
    out = os.path.join(rd, f"{src}.afdo")
    if os.path.exists(out):
        return out
    cmd = [T, "fdo", fdo_converter(), sample_file, "--elf", exe, "-o", out + ".tmp"]
    if est:
        cmd += ["-e", est]
    check(cmd, f"{name}: {src}: tiprof fdo {fdo_converter()}")
    os.replace(out + ".tmp", out)
    return out


def program(entry):
    name, recipe, binary, targs, eargs = entry
    res = {"name": name, "source_package": recipe is not None, "train": targs, "eval": eargs,
           "builds": {}, "overhead": {}, "errors": [], "warnings": {}}
    try:
        o2, w = build(name, recipe, binary, "o2", [])
        # the evaluation and training runs of -O2; its output is checked against qemu's
        rep, out_o2, _ = run("o2-eval", "sim", o2, eargs, name)
        _, out_q, _ = run("o2-eval-qemu", "qemu", o2, eargs, name)
        if out_q != out_o2:
            raise Fail("the -O2 build's output on tiprof sim differs from qemu-riscv64's")
        res["builds"]["o2"] = {"cycles": rep["cycles"], "instructions": rep["instructions"]}
        train, _, _ = run("o2-train", "sim", o2, targs, name)
        res["train_cycles"] = train["cycles"]
        res["train_instructions"] = train["instructions"]
        log(f"  {name}: -O2 eval {rep['cycles']} cycles, train {train['cycles']}")

        # instrumented FDO
        gen, w = build(name, recipe, binary, "instr-gen", ["-fprofile-generate=@D@/gcda"])
        gdir = os.path.join(stage_dir(name), "gcda")  # where the program writes them
        shutil.rmtree(gdir, ignore_errors=True)
        _, out_i, rd_iss = run("instr-train-iss", "iss", gen, targs, name,
                               keep=[(gdir, "gcda")])
        shutil.rmtree(gdir, ignore_errors=True)
        _, _, rd_q = run("instr-train-qemu", "qemu", gen, targs, name, keep=[(gdir, "gcda")])
        shutil.rmtree(gdir, ignore_errors=True)
        gi, gq = os.path.join(rd_iss, "gcda"), os.path.join(rd_q, "gcda")
        if not os.path.isdir(gi) or not os.listdir(gi):
            raise Fail("the instrumented run on tiprof iss wrote no .gcda file")
        res["gcda_files"] = len(dir_files(gi))
        res["gcda_equal_qemu"] = os.path.isdir(gq) and dir_sha(gi) == dir_sha(gq)
        if not res["gcda_equal_qemu"]:
            raise Fail("the .gcda files of tiprof iss and qemu-riscv64 differ")
        irep, _, _ = run("instr-train-sim", "sim", gen, targs, name, keep=[(gdir, "gcda")])
        shutil.rmtree(gdir, ignore_errors=True)
        res["overhead"]["instr"] = irep["cycles"] / train["cycles"] - 1
        use, w = build(name, recipe, binary, "instr-use", ["-fprofile-use=@D@/gcda-use"],
                       profile=gi)
        res["warnings"]["instr"] = w
        rep, out, _ = run("instr-eval", "sim", use, eargs, name)
        if out != out_o2:
            raise Fail("instr: the output differs from the -O2 build's")
        res["builds"]["instr"] = {"cycles": rep["cycles"], "instructions": rep["instructions"]}
        log(f"  {name}: instr eval {rep['cycles']} cycles, instrumented training run "
            f"{irep['cycles']} cycles")

        # sample-based FDO from each source
        if not fdo_converter():
            res["errors"].append("tiprof fdo has no AutoFDO writer yet: sample sources skipped")
            return res
        files = {}
        for src, simargs, tag, est, label in SOURCES:
            try:
                if tag == "exact":
                    if tag not in files:
                        _, _, rd = run("exact-train", "iss", o2, targs, name,
                                       extra=["--truth", "@R@/train.exact"])
                        files[tag] = (os.path.join(rd, "train.exact"), rd)
                elif simargs is not None:
                    srep, _, rd = run(f"{tag}-train", "sim", o2, targs, name,
                                      extra=simargs + ["--profile", "@R@/train.tps"])
                    files[tag] = (os.path.join(rd, "train.tps"), rd)
                    res["overhead"][tag] = srep["cycles"] / train["cycles"] - 1
                if tag not in files:
                    continue
                prof = afdo_profile(name, src, o2, files[tag][0], est, files[tag][1])
                exe, w = build(name, recipe, binary, f"afdo-{src}",
                               [f"-fauto-profile={prof}"], profile=prof)
                res["warnings"][src] = w
                rep, out, _ = run(f"afdo-{src}-eval", "sim", exe, eargs, name)
                if out != out_o2:
                    raise Fail(f"{src}: the output differs from the -O2 build's")
                res["builds"][src] = {"cycles": rep["cycles"],
                                      "instructions": rep["instructions"]}
                log(f"  {name}: {src} eval {rep['cycles']} cycles")
            except Fail as e:
                res["errors"].append(f"{src}: {e}")
                log(f"  {name}: {src}: {e}")
    except Fail as e:
        res["errors"].append(str(e))
        log(f"  {name}: {e}")
    return res


def main():
    if not os.access(T, os.X_OK):
        raise SystemExit(f"speedup.py: {T}: missing (make tiprof)")
    make_inputs()
    progs = [p for p in PROGRAMS if not ONLY or p[0] in ONLY]
    if ONLY and len(progs) != len(ONLY):
        raise SystemExit(f"speedup.py: FDO_PROGRAMS: unknown name in {ONLY}; names: "
                         + " ".join(p[0] for p in PROGRAMS))
    with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as pool:
        results = list(pool.map(program, progs))
    json.dump({"period": PERIOD, "config": "4wide", "programs": results},
              open(os.path.join(OUT, "speedup.json"), "w"), indent=1)
    table(results)


def table(results):
    cols = ["instr"] + [s[0] for s in SOURCES]
    print(f"\nFDO speed-up on the 4-wide core model (tiprof sim), evaluation input; sampling "
          f"period {PERIOD}")
    print("speed-up over -O2 in %, [fraction of instrumented FDO's gain in %]")
    head = f"{'program':10} {'-O2 cycles':>11} " + " ".join(f"{c:>17}" for c in cols)
    print(head)
    print("-" * len(head))
    for r in results:
        b = r["builds"]
        if "o2" not in b:
            print(f"{r['name']:10} failed: {'; '.join(r['errors'])}")
            continue
        c0 = b["o2"]["cycles"]
        gain_i = c0 - b["instr"]["cycles"] if "instr" in b else None
        cells = []
        for c in cols:
            if c not in b:
                cells.append(f"{'-':>17}")
                continue
            s = f"{100 * (c0 / b[c]['cycles'] - 1):+.2f}"
            if c != "instr" and gain_i:
                s += f" [{100 * (c0 - b[c]['cycles']) / gain_i:.0f}]"
            cells.append(f"{s:>17}")
        print(f"{r['name']:10} {c0:11d} " + " ".join(cells))
    # geometric means of cycles ratios over the programs that have every build
    print("-" * len(head))
    full = [r for r in results if all(c in r["builds"] for c in ["o2"] + cols)]
    if full:
        import math
        gm = {}
        for c in cols:
            gm[c] = math.exp(sum(math.log(r["builds"]["o2"]["cycles"] / r["builds"][c]["cycles"])
                                 for r in full) / len(full)) - 1
        cells = []
        for c in cols:
            s = f"{100 * gm[c]:+.2f}"
            if c != "instr" and gm["instr"] > 0:
                s += f" [{100 * gm[c] / gm['instr']:.0f}]"
            cells.append(f"{s:>17}")
        print(f"{'geomean':10} {'(' + str(len(full)) + ')':>11} " + " ".join(cells))
    print("\ncollection overhead on the training run (simulated cycles over the plain -O2 "
          "run's, %):")
    for r in results:
        if r["overhead"]:
            print(f"  {r['name']:10} " + "  ".join(f"{k} {100 * v:+.2f}"
                                                   for k, v in r["overhead"].items()))
    for r in results:
        for e in r["errors"]:
            print(f"  {r['name']}: {e}")
    print(f"\nresults: {OUT}/speedup.json")


if __name__ == "__main__":
    main()
