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

--x86 (make bench-fdo-speedup-x86): the x86-64 half with clang, natively: -O2,
-fprofile-instr-generate/-use, and -fprofile-sample-use from `tiprof lbr record` branch records
of the -O2 build's training run (`tiprof fdo llvm-prof`), timed as CPU time (FDO_REPS runs of
each build in rotation, medians); dynamically linked (the tracer is an LD_PRELOAD library).
--table prints the riscv64 table of the last run again (OUT/speedup.json).

Every build runs the evaluation input on `tiprof sim --config 4wide`; its output must equal the
-O2 build's (and the -O2 build's qemu-riscv64's). Reported: cycles, speed-up over -O2
(cycles_o2 / cycles - 1), the fraction of instrumented FDO's gain each source gets
((cycles_o2 - cycles) / (cycles_o2 - cycles_instr)), and each source's collection overhead in
simulated cycles on the training run (the sampled or instrumented run's cycles over the plain
-O2 run's).

Builds are cached under OUT/b/PROGRAM/VARIANT-KEY, KEY a hash of the recipe, build.sh, the
compiler's version, the flags and the profile's bytes; runs under OUT/r/, keyed by the
binary's, the arguments' and the inputs' hashes and checked against the simulator's (qemu's)
hash. Nothing runs twice when nothing changed.

Env: TIPROF (build/bin/tiprof), PROGRAMS (build/programs: recipes' sources and gen-input),
OUT (build/fdo/speedup), FDO_PROGRAMS (comma-separated names, default all), FDO_SOURCES
(comma-separated source names, default all), FDO_PERIOD (sampling period; default auto:
the training run's instructions / FDO_SAMPLES, default 16000), FDO_JOBS (programs at once,
default 2), FDO_REUSE=1 (keep runs made by another build of tiprof: a run records tiprof's
hash, and a rebuilt tiprof runs everything again), FDO_CACHED_ONLY=1 (build and run nothing:
the table of what the cache holds), CROSS_COMPILE (riscv64-linux-gnu-),
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
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
T = os.path.abspath(os.environ.get("TIPROF", os.path.join(ROOT, "build/bin/tiprof")))
PROG = os.path.abspath(os.environ.get("PROGRAMS", os.path.join(ROOT, "build/programs")))
OUT = os.path.abspath(os.environ.get("OUT", os.path.join(ROOT, "build/fdo/speedup")))
CROSS = os.environ.get("CROSS_COMPILE", "riscv64-linux-gnu-")
QEMU = os.environ.get("QEMU", "qemu-riscv64")
PERIOD = os.environ.get("FDO_PERIOD", "auto")
SAMPLES = int(os.environ.get("FDO_SAMPLES", "16000"))
JOBS = int(os.environ.get("FDO_JOBS", "2"))
ONLY = [x for x in os.environ.get("FDO_PROGRAMS", "").split(",") if x]
REUSE = os.environ.get("FDO_REUSE") == "1"
CACHED_ONLY = os.environ.get("FDO_CACHED_ONLY") == "1"
ONLY_SRC = [x for x in os.environ.get("FDO_SOURCES", "").split(",") if x]
GCC = CROSS + "gcc"
INPUTS = os.path.join(OUT, "inputs")
LOCK = threading.Lock()
MIN_GAIN = 0.01  # a fraction of a smaller gain is noise (code layout moves cycles by ~0.5%)

# The programs: name, recipe (sim/programs/recipes/NAME.sh) or workload source
# (sim/workloads/NAME.c), binary, training arguments, evaluation arguments. Inputs are made by
# make_inputs() below: *-train from seed 2, *-eval from seed 1 (the suite's seed), other sizes.
# gen-input's mixed data comes in 4-64 KiB chunks of one kind each, so a 64 KiB file is one to a
# few kinds: seed 2's is mostly a pattern repeated with mutations, on which deflate -9 follows
# long hash chains (minigzip: 132 M instructions, against 7.8 M on the evaluation input), and
# instrumented FDO trained on it made minigzip 8% slower; minigzip trains on text instead.
PROGRAMS = [
    ("bzip2", "bzip2", "bzip2-static", ["-9", "-c", "mixed-32K-train.bin"],
     ["-9", "-c", "mixed-64K-eval.bin"]),
    ("minigzip", "zlib", "minigzip-static", ["-9", "-c", "text-64K-train.txt"],
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
    "text-8K-train.txt": ("text", "8K", 2), "text-64K-train.txt": ("text", "64K", 2),
    "text-16K-eval.txt": ("text", "16K", 1),
}

# The x86-64 half (--x86): clang, natively, CPU time; longer inputs (a run is timed).
X86_PROGRAMS = [
    ("bzip2", "bzip2", "bzip2-static", ["-9", "-c", "mixed-1M-train.bin"],
     ["-9", "-c", "mixed-2M-eval.bin"]),
    ("xz", "xz", "xz-static", ["-3", "-c", "mixed-1M-train.bin"],
     ["-3", "-c", "mixed-2M-eval.bin"]),
    ("lua", "lua", "lua-static", ["bench.lua", "200"], ["bench.lua", "1000"]),
    ("cjson", "cjson", "cjson-bench-static", ["json-512K-train.json"], ["json-1M-eval.json"]),
    ("quicksort", None, "quicksort", ["1000000"], ["3000000"]),
    ("dispatch", None, "dispatch", ["3000000"], ["10000000"]),
]
GEN_INPUTS.update({
    "mixed-1M-train.bin": ("mixed", "1M", 2), "mixed-2M-eval.bin": ("mixed", "2M", 1),
    "json-512K-train.json": ("json", "512K", 2), "json-1M-eval.json": ("json", "1M", 1),
})
X86_CC = os.environ.get("X86_CC", "clang")
X86_REPS = int(os.environ.get("FDO_REPS", "7"))
LBR_PERIOD = os.environ.get("FDO_LBR_PERIOD", "100000")

# Sample sources: name, tiprof sim arguments (None: the file of another source; @P@ the
# period), the file tag, the estimator (tiprof fdo -e), a label. One period P for every source
# of a program (TIP: cycles; instruction trigger: committed instructions; ProfileMe: fetched
# instructions), by default the training run's instructions / FDO_SAMPLES (16000), at least 64:
# the same sample budget on every program, whatever its training run's length.
SOURCES = [
    ("tip-insn", ["-e", "tip:insts", "-c", "@P@"], "insn", "insn", "TIP instruction trigger"),
    ("tip-commit", ["-c", "@P@"], "tip", "commit", "TIP cycle samples, commit"),
    ("tip-time", None, "tip", "cycles", "TIP cycle samples, time"),
    ("profileme", ["-e", "profileme", "-c", "@P@"], "pm", "pm-retired", "ProfileMe, retired"),
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


CC_VERSION = {}


def cc_version(cc):
    if cc not in CC_VERSION:
        CC_VERSION[cc] = check([cc, "--version"], cc).stdout.decode().splitlines()[0]
    return CC_VERSION[cc]


def build(name, recipe, binary, variant, flags, profile=None, cc=GCC, src_name=None,
          dynamic=False):
    """Build PROGRAM with the recipe's flags plus -O2 and FLAGS; PROFILE (a file or folder)
    is part of the cache key. Every build of a program compiles in one folder, OUT/stage/NAME
    (@D@ in FLAGS), and is then moved to its cache folder: GCC's .gcda files are keyed by the
    objects' absolute paths (an -fprofile-generate=DIR program writes DIR/OBJECT.gcda) and
    checked against the source files' paths, so -fprofile-generate and -fprofile-use builds
    must compile the same paths. A folder PROFILE is such a DIR, copied to @D@/gcda-use for
    -fprofile-use=@D@/gcda-use. Returns the binary's path and the compilers' warnings about
    profiles (lines). CC is the compiler (the x86-64 half: clang), SRC_NAME the workload's
    source when NAME is another (x86-NAME). DYNAMIC drops the recipes' -static (tiprof lbr
    record traces through LD_PRELOAD)."""
    if recipe:
        src_files = [os.path.join(ROOT, "sim/programs/recipes", recipe + ".sh"),
                     os.path.join(ROOT, "sim/programs/build.sh")]
    else:
        src_files = [os.path.join(ROOT, "sim/workloads", (src_name or name) + ".c"),
                     os.path.join(ROOT, "sim/workloads/wl.h")]
    prof_key = "" if profile is None else \
        (dir_sha(profile) if os.path.isdir(profile) else file_sha(profile))
    key = sha(cc_version(cc), " ".join(flags) + (" dynamic" if dynamic else ""), prof_key, *[file_sha(f) for f in src_files])[:12]
    final = os.path.join(OUT, "b", name, f"{variant}-{key}")
    rel = os.path.join("programs/bin", binary) if recipe else binary
    if os.path.exists(os.path.join(final, ".done")):
        return os.path.join(final, rel), json.load(open(os.path.join(final, ".done")))["warnings"]
    if CACHED_ONLY:
        raise Fail(f"build {variant}: not in the cache (FDO_CACHED_ONLY=1)")
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
                    + ('for a; do shift; [ "$a" = -static ] || set -- "$@" "$a"; done\n'
                       if dynamic else "") +
                    f"exec {shlex.quote(shutil.which(cc) or cc)} \"$@\" "
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
        p = subprocess.run([cc] + cflags + ["-c", src_files[0], "-o",
                                             os.path.join(d, binary + ".o")] + extra,
                           capture_output=True, cwd=d)
        text = p.stderr.decode(errors="replace")
        if p.returncode == 0:
            p = subprocess.run([cc] + ([] if dynamic else ["-static"]) +
                               ["-o", binary, binary + ".o", "-lm"] + extra,
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
    key = sha(tool, file_sha(exe), args, list(extra), in_keys)[:16]
    tool_key = file_sha(tool_bin)
    rd = os.path.join(OUT, "r", name, f"{tag}-{key}")
    done = os.path.join(rd, ".done")
    if os.path.exists(done) and (REUSE or open(done).read().strip() == tool_key):
        rep = json.load(open(os.path.join(rd, "report.json"))) if tool == "sim" else None
        return rep, open(os.path.join(rd, "stdout"), "rb").read(), rd
    if CACHED_ONLY:
        raise Fail(f"{tag}: not in the cache (FDO_CACHED_ONLY=1)")
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
    for attempt in range(3):
        with open(os.path.join(rd, "stdout"), "wb") as o, \
                open(os.path.join(rd, "stderr"), "wb") as e:
            rc = subprocess.run(env + cmd, stdout=o, stderr=e, stdin=subprocess.DEVNULL,
                                cwd=INPUTS).returncode
        if rc not in (126, 127):
            break
        time.sleep(20)  # env could not run tiprof: being relinked by a make in the same tree
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
    open(done, "w").write(tool_key + "\n")
    return rep, open(os.path.join(rd, "stdout"), "rb").read(), rd


FDO_CONVERT = None


def fdo_converter():
    """The `tiprof fdo` subcommand that writes GCC's AutoFDO format (helper fdofmt's work,
    docs/fdo.md): None until tiprof has it."""
    global FDO_CONVERT
    if FDO_CONVERT is None:
        p = subprocess.run([T, "fdo", "--help"], capture_output=True, text=True)
        FDO_CONVERT = "gcc-afdo" if "gcc-afdo" in p.stdout + p.stderr else ""
    return FDO_CONVERT


def afdo_profile(name, src, exe, sample_file, est, rd):
    """Convert SAMPLE_FILE (a sample file of EXE, or an exact profile) to GCC's AutoFDO
    format with tiprof fdo; returns the file."""
    out = os.path.join(rd, f"{src}.afdo")
    if os.path.exists(out) and os.path.exists(out + ".json"):
        return out, json.load(open(out + ".json"))
    cmd = [T, "fdo", fdo_converter(), sample_file, "--elf", exe, "-o", out + ".tmp", "--json"]
    if est:
        cmd += ["-e", est]
    p = check(cmd, f"tiprof fdo {fdo_converter()}")
    summary = json.loads(p.stdout)
    json.dump(summary, open(out + ".json", "w"))
    os.replace(out + ".tmp", out)
    return out, summary


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
            res["errors"].append(f"{T} has no 'fdo gcc-afdo': sample sources skipped")
            return res
        files = {}
        period = str(max(64, train["instructions"] // SAMPLES)) if PERIOD == "auto" else PERIOD
        res["period"] = int(period)
        for src, simargs, tag, est, label in SOURCES:
            try:
                if tag == "exact":
                    if tag not in files:
                        _, _, rd = run("exact-train", "iss", o2, targs, name,
                                       extra=["--truth", "@R@/train.exact"])
                        files[tag] = (os.path.join(rd, "train.exact"), rd)
                elif simargs is not None:
                    srep, _, rd = run(f"{tag}-train", "sim", o2, targs, name,
                                      extra=[a.replace("@P@", period) for a in simargs]
                                      + ["--profile", "@R@/train.tps"])
                    files[tag] = (os.path.join(rd, "train.tps"), rd)
                    res["overhead"][tag] = srep["cycles"] / train["cycles"] - 1
                if tag not in files:
                    continue
                prof, summary = afdo_profile(name, src, o2, files[tag][0], est, files[tag][1])
                res.setdefault("profiles", {})[src] = {
                    k: summary.get(k) for k in ("samples", "functions", "lines", "total", "head",
                                                "addresses", "unplaced_addresses")}
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


def cpu_time(cmd, out_path):
    """Run CMD (cwd INPUTS, empty environment, stdin /dev/null, stdout to OUT_PATH); its CPU
    time (user + system, s) from wait4."""
    with open(out_path, "wb") as o:
        p = subprocess.Popen(["env", "-i"] + cmd, stdout=o, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL, cwd=INPUTS)
        _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise Fail(f"{cmd[0]}: exit {os.waitstatus_to_exitcode(status)}")
    return ru.ru_utime + ru.ru_stime


def x86_program(entry):
    """The x86-64 half for one program: clang -O2, -fprofile-instr-generate/-use (trained on the
    training input), -fprofile-sample-use from tiprof lbr records of the -O2 build's training
    run (tiprof fdo llvm-prof); every build timed on the evaluation input, FDO_REPS times in
    rotation, medians of CPU time."""
    name, recipe, binary, targs, eargs = entry
    xn = "x86-" + name
    res = {"name": name, "train": targs, "eval": eargs, "cpu_s": {}, "errors": []}
    base = ["-g", "-gdwarf-4", "-fdebug-info-for-profiling"]
    kw = dict(cc=X86_CC, src_name=name, dynamic=True)
    try:
        o2, _ = build(xn, recipe, binary, "o2", base, **kw)
        rd = os.path.join(OUT, "r", xn)
        os.makedirs(rd, exist_ok=True)
        # instrumented
        gen, _ = build(xn, recipe, binary, "instr-gen", base + ["-fprofile-instr-generate"], **kw)
        raw = os.path.join(rd, "train.profraw")
        if os.path.exists(raw):
            os.remove(raw)
        with open(os.path.join(rd, "instr-train.out"), "wb") as o:
            subprocess.run(["env", "-i", "LLVM_PROFILE_FILE=" + raw, gen] + targs, stdout=o,
                           stdin=subprocess.DEVNULL, cwd=INPUTS, check=True)
        pd = os.path.join(rd, "train.profdata")
        check(["llvm-profdata", "merge", "-o", pd, raw], "llvm-profdata merge")
        use, w = build(xn, recipe, binary, "instr-use", base + [f"-fprofile-instr-use={pd}"],
                       profile=pd, **kw)
        res["warnings_instr"] = w
        builds = {"o2": o2, "instr": use}
        # branch records of the -O2 build's training run -> LLVM sample profile
        lbr = os.path.join(rd, "train.lbr")
        lkey = sha(file_sha(o2), targs, LBR_PERIOD)
        # records are not reproducible (timer samples): kept while the binary and input are
        if not (os.path.exists(lbr + ".key") and open(lbr + ".key").read() == lkey):
            p = subprocess.run(["env", "-i", T, "lbr", "record", "--period", LBR_PERIOD, "-o", lbr,
                                "--", o2] + targs, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=INPUTS)
            if p.returncode:
                raise Fail("tiprof lbr record: "
                           f"{p.stderr.decode(errors='replace').strip()[-300:]}")
            open(lbr + ".key", "w").write(lkey)
        txt = os.path.join(rd, "train.lbr.txt")
        p = check([T, "fdo", "llvm-prof", lbr, "--elf", o2, "-o", txt, "--json"],
                  "tiprof fdo llvm-prof")
        summary = json.loads(p.stdout)
        res["lbr_profile"] = {k: summary.get(k) for k in ("samples", "functions", "lines",
                                                          "total", "head")}
        sp, w = build(xn, recipe, binary, "lbr", base + [f"-fprofile-sample-use={txt}"],
                      profile=txt, **kw)
        res["warnings_lbr"] = w
        builds["lbr"] = sp
        # timing, in rotation
        times = {k: [] for k in builds}
        ref = None
        for rep in range(X86_REPS):
            for k, exe in builds.items():
                outp = os.path.join(rd, f"{k}.eval.out")
                times[k].append(cpu_time([exe] + eargs, outp))
                data = open(outp, "rb").read()
                if ref is None:
                    ref = data
                elif data != ref:
                    raise Fail(f"{k}: the output differs from the -O2 build's")
        for k, v in times.items():
            v.sort()
            res["cpu_s"][k] = {"median": v[len(v) // 2], "min": v[0], "max": v[-1], "all": v}
        log(f"  {name} (x86-64): " + ", ".join(f"{k} {v['median']:.3f} s"
                                                for k, v in res["cpu_s"].items()))
    except (Fail, subprocess.CalledProcessError) as e:
        res["errors"].append(str(e))
        log(f"  {name} (x86-64): {e}")
    return res


def main_x86():
    make_inputs()
    progs = [p for p in X86_PROGRAMS if not ONLY or p[0] in ONLY]
    results = [x86_program(p) for p in progs]  # one at a time: they are timed
    json.dump({"compiler": cc_version(X86_CC), "reps": X86_REPS, "lbr_period_ns": LBR_PERIOD,
               "programs": results}, open(os.path.join(OUT, "speedup-x86.json"), "w"), indent=1)
    print(f"\nFDO speed-up on x86-64 ({cc_version(X86_CC)}), CPU time (user + system), "
          f"median of {X86_REPS} runs in rotation; speed-up = t_O2 / t - 1")
    head = f"{'program':10} {'-O2 s':>8} {'instr s':>8} {'lbr s':>8} {'instr':>8} {'lbr':>8} " \
        f"{'lbr/instr':>9}   spread (max/min - 1) of -O2"
    print(head)
    print("-" * len(head))
    for r in results:
        c = r["cpu_s"]
        if len(c) < 3:
            print(f"{r['name']:10} failed: {'; '.join(r['errors'])}")
            continue
        t0, ti, tl = c["o2"]["median"], c["instr"]["median"], c["lbr"]["median"]
        gi, gl = t0 / ti - 1, t0 / tl - 1
        frac = f"{100 * (t0 - tl) / (t0 - ti):.0f}%" if t0 > ti else "n/a"
        print(f"{r['name']:10} {t0:8.3f} {ti:8.3f} {tl:8.3f} {100 * gi:+7.1f}% {100 * gl:+7.1f}% "
              f"{frac:>9}   {100 * (c['o2']['max'] / c['o2']['min'] - 1):.1f}%")
    print(f"\nresults: {OUT}/speedup-x86.json")


def main():
    if "--x86" in sys.argv[1:]:
        return main_x86()
    if "--table" in sys.argv[1:]:  # print the table of the last run again
        return table(json.load(open(os.path.join(OUT, "speedup.json")))["programs"])
    if not os.access(T, os.X_OK):
        raise SystemExit(f"speedup.py: {T}: missing (make tiprof)")
    make_inputs()
    progs = [p for p in PROGRAMS if not ONLY or p[0] in ONLY]
    if ONLY and len(progs) != len(ONLY):
        raise SystemExit(f"speedup.py: FDO_PROGRAMS: unknown name in {ONLY}; names: "
                         + " ".join(p[0] for p in PROGRAMS))
    with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as pool:
        results = list(pool.map(program, progs))
    json.dump({"period": PERIOD, "samples": SAMPLES, "config": "4wide", "programs": results},
              open(os.path.join(OUT, "speedup.json"), "w"), indent=1)
    table(results)


def table(results):
    cols = ["instr"] + [s[0] for s in SOURCES]
    print("\nFDO speed-up on the 4-wide core model (tiprof sim), evaluation input; sampling "
          "period " + (f"{PERIOD}" if PERIOD != "auto" else
                       f"= training instructions / {SAMPLES} (column P)"))
    print("speed-up over -O2 in %, [fraction of instrumented FDO's gain in %, where that gain "
          f"is at least {100 * MIN_GAIN:.0f}%]")
    head = f"{'program':10} {'P':>6} {'-O2 cycles':>11} " + " ".join(f"{c:>17}" for c in cols)
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
            if c != "instr" and gain_i and gain_i >= MIN_GAIN * c0:
                s += f" [{100 * (c0 - b[c]['cycles']) / gain_i:.0f}]"
            cells.append(f"{s:>17}")
        print(f"{r['name']:10} {r.get('period', ''):>6} {c0:11d} " + " ".join(cells))
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
        print(f"{'geomean':10} {'':6} {'(' + str(len(full)) + ')':>11} " + " ".join(cells))
        # the mean of the per-program fractions, over programs where instrumented FDO gains
        sig = [r for r in full if r["builds"]["o2"]["cycles"] - r["builds"]["instr"]["cycles"]
               >= MIN_GAIN * r["builds"]["o2"]["cycles"]]
        if sig:
            cells = [f"{'':>17}"]
            for c in cols[1:]:
                f = [(r["builds"]["o2"]["cycles"] - r["builds"][c]["cycles"]) /
                     (r["builds"]["o2"]["cycles"] - r["builds"]["instr"]["cycles"]) for r in sig]
                cells.append(f"{'[' + format(100 * sum(f) / len(f), '.0f') + ']':>17}")
            print(f"{'mean frac.':10} {'':6} {'(' + str(len(sig)) + ')':>11} " + " ".join(cells))
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
