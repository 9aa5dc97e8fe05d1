#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""campaign.py - accuracy campaigns: one description -> independent `tiprof accuracy` jobs ->
one results table and charts (docs/campaign.md).

  campaign.py list   FILE                      the jobs the description expands to
  campaign.py run    FILE [-o OUT] [-j N] [--only ID[,ID...]] [--force]
                          [--slurm [--wait] [--sbatch-args ARGS]] [--tiprof PATH]
  campaign.py status FILE [-o OUT]             done / running / failed / died / stale / pending
  campaign.py merge  FILE [-o OUT] [--require-complete]
  campaign.py job    OUT ID | --jobs FILE --index N OUT   (one job: what run and Slurm start)

A job is one `tiprof accuracy --json -o TMP` run with an empty environment; its report is
renamed into OUT/results/ID.json only when complete, so a finished job is never lost and a job
that died leaves nothing that looks finished. A failing job leaves OUT/failed/ID.json (exit
status or signal, stderr tail). `run` skips finished jobs, so re-running after a failure or a
kill runs exactly the jobs that are missing. Only the Python 3 standard library is used.
"""

import argparse
import csv
import ctypes
import datetime
import hashlib
import io
import json
import math
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
import xml.sax.saxutils
from concurrent.futures import ThreadPoolExecutor

PROG = "campaign.py"
NAME_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]*$")
LEVELS = ("instruction", "basic_block", "function")
LEVEL_TITLE = {"instruction": "instruction", "basic_block": "basic block", "function": "function"}
MODES = {"random": [], "periodic": ["--periodic"]}
# options the tool sets itself; `options` may not give them
OWNED = {"-o", "--output", "--json", "--config", "--period", "-c", "--count", "--sweep",
         "--periodic", "--svg", "--rob-trace", "--exe-path", "--progress", "--no-progress",
         "--sampler-seed", "--policies"}
SEED_OPTION = "--sampler-seed"
SUITE_BINDIR = os.path.join("build", "programs", "bin")  # where a suite's BINARY is (make programs)
TAIL_LINES = 20
SQUEUE_PATIENCE = 300  # seconds of failing squeue before `run --slurm --wait` gives up
STOPPED = {"signal": None}  # the runner got SIGTERM/SIGINT/SIGHUP: start no further job


class CampaignError(Exception):
    """A one-line error; exit status 2 (bad description or command line)."""


def die(msg, status=2):
    print(f"{PROG}: {msg}", file=sys.stderr)
    sys.exit(status)


# --------------------------------------------------------------------------------------------
# files written atomically


def write_atomic(path, data):
    """Write data (str) to path through a temporary file in the same folder, fsynced, renamed."""
    d = os.path.dirname(path) or "."
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, f".tmp-{os.path.basename(path)}-{socket.gethostname()}-{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_json(path, obj):
    write_atomic(path, json.dumps(obj, indent=1, sort_keys=False) + "\n")


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


# --------------------------------------------------------------------------------------------
# the description


class Campaign:
    def __init__(self):
        self.path = None
        self.name = None
        self.workloads = []      # (name, program (absolute), args, line)
        self.axes = {}           # key -> (values, line)
        self.options = []        # extra accuracy options for every job
        self.options_line = 0
        self.tiprof = None
        self.cwd = None          # where run started (relative paths of the description)
        self.workdir = None      # where the jobs run (workdir; default cwd)
        self.jobs = []


def parse(path, tiprof):
    """Parse a description; every problem raises CampaignError('FILE:LINE: ...')."""
    c = Campaign()
    c.path = path
    c.cwd = os.getcwd()
    c.tiprof = tiprof
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        raise CampaignError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}")
    seen = {}
    for n, raw in enumerate(lines, 1):
        where = f"{path}:{n}"
        try:
            words = shlex.split(raw, comments=True)
        except ValueError as e:
            raise CampaignError(f"{where}: {e}")
        if not words:
            continue
        key, vals = words[0], words[1:]
        if key in ("name", "config", "period", "mode", "seed", "options", "workdir") and key in seen:
            raise CampaignError(f"{where}: '{key}' given twice (first on line {seen[key]})")
        seen.setdefault(key, n)
        if key == "name":
            if len(vals) != 1 or not NAME_RE.match(vals[0]):
                raise CampaignError(f"{where}: name: one word of letters, digits, '_', '.', '+', '-' expected")
            c.name = vals[0]
        elif key == "workload":
            stdin = None
            if "<" in vals:  # ... < FILE: the program's standard input
                k = vals.index("<")
                if k != len(vals) - 2:
                    raise CampaignError(f"{where}: workload: '< FILE' must end the line")
                stdin, vals = vals[-1], vals[:-2]
                if not os.path.isfile(stdin):
                    raise CampaignError(f"{where}: workload: no such input file '{stdin}'")
                stdin = os.path.abspath(stdin)
            if len(vals) < 2:
                raise CampaignError(f"{where}: workload: NAME PROGRAM [ARGS...] [< FILE] expected")
            add_workload(c, where, vals[0], vals[1], vals[2:], stdin)
        elif key == "suite":
            if len(vals) not in (2, 3):
                raise CampaignError(f"{where}: suite: FILE SIZE [BINDIR] expected")
            read_suite(c, where, vals[0], vals[1], vals[2] if len(vals) == 3 else SUITE_BINDIR)
        elif key == "workdir":
            if len(vals) != 1:
                raise CampaignError(f"{where}: workdir: one folder expected")
            if not os.path.isdir(vals[0]):
                raise CampaignError(f"{where}: workdir: no such folder '{vals[0]}'")
            c.workdir = os.path.abspath(vals[0])
        elif key == "config":
            if not vals:
                raise CampaignError(f"{where}: config: at least one core configuration expected")
            c.axes["config"] = (vals, n)
        elif key == "period":
            if not vals:
                raise CampaignError(f"{where}: period: at least one sampling period expected")
            ps = []
            for v in vals:
                if not re.fullmatch(r"[0-9]+", v) or not 1 <= int(v) <= 0xFFFFFFFF:
                    raise CampaignError(f"{where}: period '{v}': an integer 1..4294967295 expected")
                ps.append(str(int(v)))
            c.axes["period"] = (ps, n)
        elif key == "mode":
            if not vals:
                raise CampaignError(f"{where}: mode: random and/or periodic expected")
            for v in vals:
                if v not in MODES:
                    raise CampaignError(f"{where}: mode '{v}': random or periodic expected")
            c.axes["mode"] = (vals, n)
        elif key == "seed":
            if not vals:
                raise CampaignError(f"{where}: seed: at least one seed expected ('reset' = the unit's reset LFSR)")
            for v in vals:
                if v != "reset" and not re.fullmatch(r"[0-9]+", v):
                    raise CampaignError(f"{where}: seed '{v}': a non-negative integer or 'reset' expected")
            c.axes["seed"] = (vals, n)
        elif key == "options":
            for v in vals:
                if v.split("=", 1)[0] in OWNED or (not v.startswith("--") and v[:2] in OWNED):
                    raise CampaignError(f"{where}: options: '{v}' is set by the campaign itself (config, period, mode, seed lines)")
            c.options, c.options_line = vals, n
        else:
            raise CampaignError(f"{where}: unknown key '{key}' (name, workload, suite, workdir, config, "
                                f"period, mode, seed, options)")
        if key in ("config", "period", "mode", "seed"):
            vs = c.axes[key][0]
            dup = [v for k, v in enumerate(vs) if v in vs[:k]]
            if dup:
                raise CampaignError(f"{where}: {key} '{dup[0]}' given twice")
    if not c.workloads:
        raise CampaignError(f"{path}: no 'workload' or 'suite' line")
    if c.name is None:
        c.name = re.sub(r"[^A-Za-z0-9_.+-]", "_", os.path.splitext(os.path.basename(path))[0]) or "campaign"
    c.workdir = c.workdir or c.cwd
    c.axes.setdefault("config", (["4wide"], 0))
    c.axes.setdefault("period", (["64"], 0))
    c.axes.setdefault("mode", (["random"], 0))
    c.axes.setdefault("seed", (["reset"], 0))
    check_with_tiprof(c)
    expand(c)
    return c


def add_workload(c, where, name, prog, args, stdin):
    if not NAME_RE.match(name):
        raise CampaignError(f"{where}: workload name '{name}': letters, digits, '_', '.', '+', '-' only")
    for w in c.workloads:
        if w[0] == name:
            raise CampaignError(f"{where}: workload '{name}' given twice (first at {w[3]})")
    ap = os.path.abspath(prog)
    if not os.path.isfile(ap):
        raise CampaignError(f"{where}: workload '{name}': no such program '{prog}' (make workloads? make programs?)")
    if not os.access(ap, os.X_OK):
        raise CampaignError(f"{where}: workload '{name}': '{prog}' is not executable")
    c.workloads.append((name, ap, args, where, stdin))


def read_suite(c, where, path, size, bindir):
    """The lines of SIZE of a program suite (sim/programs/suite.txt: NAME SIZE BINARY ARGS...,
    BINARY in BINDIR) as workloads; a problem names the suite's line."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        raise CampaignError(f"{where}: suite '{path}': cannot read: {getattr(e, 'strerror', None) or e}")
    sizes, found = set(), 0
    for n, raw in enumerate(lines, 1):
        sw = f"{path}:{n}"
        try:
            words = shlex.split(raw, comments=True)
        except ValueError as e:
            raise CampaignError(f"{sw}: {e}")
        if not words:
            continue
        if len(words) < 3:
            raise CampaignError(f"{sw}: NAME SIZE BINARY [ARGS...] expected")
        sizes.add(words[1])
        if words[1] == size:
            add_workload(c, sw, words[0], os.path.join(bindir, words[2]), words[3:], None)
            found += 1
    if not found:
        raise CampaignError(f"{where}: suite '{path}' has no program of size '{size}' "
                            f"(sizes: {', '.join(sorted(sizes)) or 'none'})")


def tiprof_accepts(tiprof, opts):
    """(ok, message): tiprof accuracy parses opts (its parser checks each option before --help)."""
    r = subprocess.run([tiprof, "accuracy", *opts, "--help"], stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={})
    msg = r.stderr.decode(errors="replace").strip().split("\n")[0]
    msg = re.sub(r"^tiprof accuracy: ", "", msg)
    return r.returncode == 0, msg


def check_with_tiprof(c):
    """Configurations, seeds and options checked by tiprof accuracy's own parser."""
    if not (os.path.isfile(c.tiprof) and os.access(c.tiprof, os.X_OK)):
        raise CampaignError(f"tiprof '{c.tiprof}' not found (make build/bin/tiprof, or --tiprof PATH)")
    vals, n = c.axes["config"]
    for v in vals:
        ok, msg = tiprof_accepts(c.tiprof, ["--config", v])
        if not ok:
            raise CampaignError(f"{c.path}:{n}: config '{v}': {msg}")
    vals, n = c.axes["seed"]
    for v in vals:
        if v == "reset":
            continue
        ok, msg = tiprof_accepts(c.tiprof, [SEED_OPTION, v])
        if not ok:
            raise CampaignError(f"{c.path}:{n}: seed '{v}': {msg}")
    if c.options:
        ok, msg = tiprof_accepts(c.tiprof, c.options)
        if not ok:
            raise CampaignError(f"{c.path}:{c.options_line}: options: {msg}")


def job_id(w, cfg, period, mode, seed):
    s = f"{w}.{cfg}.p{period}.{mode}"
    return s if seed == "reset" else f"{s}.s{seed}"


def expand(c):
    c.jobs = []
    for (w, prog, args, _, stdin) in c.workloads:
        for cfg in c.axes["config"][0]:
            for p in c.axes["period"][0]:
                for m in c.axes["mode"][0]:
                    for s in c.axes["seed"][0]:
                        argv = [os.path.abspath(c.tiprof), "accuracy", "--json", "--no-progress",
                                "--config", cfg, "--period", p, *MODES[m]]
                        if s != "reset":
                            argv += [SEED_OPTION, s]
                        argv += [*c.options, "--exe-path", f"/campaign/{w}", "--", prog, *args]
                        c.jobs.append({"id": job_id(w, cfg, p, m, s), "workload": w, "config": cfg,
                                       "period": int(p), "mode": m, "seed": s,
                                       "argv": argv, "stdin": stdin, "cwd": c.workdir})


def jobs_doc(c, jobs):
    return {"campaign": os.path.abspath(c.path), "name": c.name, "jobs": jobs}


# --------------------------------------------------------------------------------------------
# job state in OUT


def state_of(out, job):
    """'done'; 'stale' (a result from another command line); 'running' (a runner's record, its
    process alive, or on another host where it cannot be checked); 'failed' (a failure record);
    'died' (a dead runner's record, nothing else); 'pending'."""
    rp = os.path.join(out, "results", job["id"] + ".json")
    if os.path.exists(rp):
        try:
            r = read_json(rp)
            if (r.get("argv"), r.get("stdin"), r.get("cwd")) == (job["argv"], job.get("stdin"), job["cwd"]):
                return "done"
            return "stale"
        except (OSError, ValueError):
            return "stale"
    rn = os.path.join(out, "running", job["id"] + ".json")
    dead = False
    if os.path.exists(rn):
        try:
            r = read_json(rn)
            # a runner on another host (a Slurm node) cannot be checked from here
            if r.get("host") != socket.gethostname() or _alive(r.get("runner_pid")):
                return "running"
        except (OSError, ValueError):
            pass
        dead = True
    if os.path.exists(os.path.join(out, "failed", job["id"] + ".json")):
        return "failed"
    return "died" if dead else "pending"


def _alive(pid):
    """pid is a live process (not a zombie: an orphan's zombie may never be reaped in a container)."""
    try:
        os.kill(int(pid), 0)
    except (OSError, TypeError, ValueError):
        return False
    try:
        with open(f"/proc/{int(pid)}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def failure_summary(out, jid):
    try:
        f = read_json(os.path.join(out, "failed", jid + ".json"))
    except (OSError, ValueError):
        return "no result and no failure record (the job's runner died)"
    tail = [t for t in f.get("stderr_tail", []) if t.strip()]
    last = tail[-1] if tail else "(no stderr)"
    return f"{f.get('status', '?')}: {last}"


# --------------------------------------------------------------------------------------------
# one job


def _pdeathsig():
    """In the child: die with the runner (prctl PR_SET_PDEATHSIG, SIGKILL), Linux only."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def tail(path, n=TAIL_LINES):
    try:
        with open(path, "rb") as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(max(0, size - 16384))
            data = f.read().decode(errors="replace")
    except OSError:
        return []
    return data.rstrip("\n").split("\n")[-n:] if data else []


def slurm_task():
    """JOBID_TASK of the Slurm array task running this job, or None."""
    e = os.environ
    if "SLURM_ARRAY_JOB_ID" in e and "SLURM_ARRAY_TASK_ID" in e:
        return f"{e['SLURM_ARRAY_JOB_ID']}_{e['SLURM_ARRAY_TASK_ID']}"
    return e.get("SLURM_JOB_ID")


def run_job(out, job):
    """Run one job; returns 0 when its result is in OUT/results, 1 when it failed (recorded)."""
    jid = job["id"]
    host = socket.gethostname()
    for d in ("results", "failed", "logs", "running"):
        os.makedirs(os.path.join(out, d), exist_ok=True)
    running = os.path.join(out, "running", jid + ".json")
    tmp = os.path.join(out, "results", f".tmp-{jid}-{host}-{os.getpid()}.acc")
    errlog = os.path.join(out, "logs", jid + ".stderr")
    outlog = os.path.join(out, "logs", jid + ".stdout")
    start = time.time()
    try:
        os.unlink(os.path.join(out, "failed", jid + ".json"))  # a failure of an earlier run
    except FileNotFoundError:
        pass
    argv = job["argv"][:]
    i = argv.index("--")
    argv[i:i] = ["-o", tmp]
    got = {"signal": None}

    def forward(sig, _frame):
        got["signal"] = sig
        STOPPED["signal"] = sig
        if child is not None and child.poll() is None:
            child.send_signal(sig)

    child = None
    old = {s: signal.signal(s, forward) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    try:
        with open(outlog, "wb") as fo, open(errlog, "wb") as fe:
            try:
                fi = open(job["stdin"], "rb") if job.get("stdin") else subprocess.DEVNULL
                try:
                    child = subprocess.Popen(argv, stdin=fi, stdout=fo, stderr=fe, env={},
                                             cwd=job["cwd"], preexec_fn=_pdeathsig)
                finally:
                    if fi is not subprocess.DEVNULL:
                        fi.close()
            except OSError as e:
                fe.write(f"{PROG}: cannot start {argv[0]}: {e.strerror} ({e.filename})\n".encode())
                rc = 127
            else:
                write_json(running, {"id": jid, "host": host, "runner_pid": os.getpid(),
                                     "pid": child.pid, "start": start, "slurm": slurm_task()})
                if got["signal"] is not None and child.poll() is None:
                    child.send_signal(got["signal"])
                rc = child.wait()
        elapsed = time.time() - start
        problem = None
        if rc == 0:
            try:
                rep = read_json(tmp)
                if not isinstance(rep, dict) or "policies" not in rep or "ideal" not in rep:
                    problem = "report without 'ideal' and 'policies'"
            except (OSError, ValueError) as e:
                problem = f"report unreadable: {e}"
            if problem is None:
                write_json(os.path.join(out, "results", jid + ".json"), {
                    "id": jid, "workload": job["workload"], "config": job["config"],
                    "period": job["period"], "mode": job["mode"], "seed": job["seed"],
                    "argv": job["argv"], "stdin": job.get("stdin"), "cwd": job["cwd"],
                    "host": host, "slurm": slurm_task(),
                    "elapsed_s": round(elapsed, 3),
                    "tiprof_sha256": file_sha256(job["argv"][0]), "accuracy": rep})
                try:
                    os.unlink(os.path.join(out, "failed", jid + ".json"))
                except FileNotFoundError:
                    pass
                return 0
        if got["signal"] is not None:
            status = f"runner got signal {got['signal']} ({signal.Signals(got['signal']).name}), exit {rc}"
        elif rc < 0:
            status = f"killed by signal {-rc} ({signal.Signals(-rc).name})"
        elif problem:
            status = f"exit 0 but {problem}"
        else:
            status = f"exit {rc}"
        write_json(os.path.join(out, "failed", jid + ".json"), {
            "id": jid, "status": status, "exit": rc if rc >= 0 else None,
            "signal": -rc if rc < 0 else got["signal"], "host": host, "slurm": slurm_task(),
            "elapsed_s": round(elapsed, 3), "argv": job["argv"],
            "stderr_log": os.path.abspath(errlog), "stderr_tail": tail(errlog),
            "time": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")})
        return 1
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        for p in (tmp, running):
            try:
                os.unlink(p)
            except FileNotFoundError:
                pass


def cmd_job(a):
    out = os.path.abspath(a.out)
    if a.jobs is not None:
        try:
            jobs = read_json(a.jobs)["jobs"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            die(f"{a.jobs}: cannot read the job list: {e}", 1)
        k = max(1, a.per_task)
        if a.index is None or not 0 <= a.index * k < len(jobs):
            die(f"--index {a.index}: the job list {a.jobs} has {len(jobs)} jobs ({k} per task)", 1)
        # task N runs jobs N*K .. N*K+K-1 one after the other; exit 1 if one of them failed;
        # after a signal (scancel, time limit) the rest are not started
        rc = 0
        for j in jobs[a.index * k:(a.index + 1) * k]:
            if STOPPED["signal"] is not None:
                break
            rc = max(rc, run_job(out, j))
        return rc
    else:
        if a.id is None:
            die("job: an ID (or --jobs FILE --index N) expected")
        try:
            jobs = read_json(os.path.join(out, "jobs.json"))["jobs"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            die(f"{out}/jobs.json: cannot read the job list: {e}", 1)
        job = next((j for j in jobs if j["id"] == a.id), None)
        if job is None:
            die(f"{out}/jobs.json: no job '{a.id}'", 1)
    return run_job(out, job)


# --------------------------------------------------------------------------------------------
# run: locally (parallel) or on Slurm (job array)


def select(c, out, a):
    """The jobs to run now, and those already finished."""
    want = c.jobs
    if a.only:
        ids = [i for part in a.only for i in part.split(",") if i]
        known = {j["id"]: j for j in c.jobs}
        for i in ids:
            if i not in known:
                raise CampaignError(f"--only: no job '{i}' in {c.path} ({len(c.jobs)} jobs: "
                                    f"{PROG} list {c.path})")
        want = [known[i] for i in dict.fromkeys(ids)]
    todo, done = [], []
    for j in want:
        (done if state_of(out, j) == "done" and not a.force else todo).append(j)
    return todo, done


def clean_tmp(out, jobs):
    """What runners of these jobs that died left: temporary reports (tiprof's `.tmp-ID-HOST-PID.acc`,
    the result's `.tmp-ID.json-HOST-PID`) and running records of dead runners on this host."""
    for j in jobs:
        rn = os.path.join(out, "running", j["id"] + ".json")
        if os.path.exists(rn):
            try:
                r = read_json(rn)
                dead = r.get("host") == socket.gethostname() and not _alive(r.get("runner_pid"))
            except (OSError, ValueError):
                dead = True
            if dead:
                os.unlink(rn)
    rd = os.path.join(out, "results")
    if not os.path.isdir(rd):
        return
    prefixes = tuple(p for j in jobs for p in (f".tmp-{j['id']}-", f".tmp-{j['id']}.json-"))
    for f in os.listdir(rd):
        if f.startswith(prefixes):
            try:
                os.unlink(os.path.join(rd, f))
            except FileNotFoundError:
                pass


def run_local(c, out, todo, jobs_n):
    me = os.path.abspath(__file__)
    n = len(todo)
    failed = []
    count = [0]

    def one(job):
        t0 = time.time()
        # the runner is a process of its own, as on Slurm: killing it loses only this job
        r = subprocess.run([sys.executable, me, "job", out, job["id"]], stdin=subprocess.DEVNULL)
        dt = time.time() - t0
        if r.returncode != 0 and not os.path.exists(os.path.join(out, "failed", job["id"] + ".json")) \
                and state_of(out, job) != "done":
            # the runner died without recording anything: record it, remove what it left
            clean_tmp(out, [job])
            what = (f"killed by signal {-r.returncode}" if r.returncode < 0 else f"exit {r.returncode}")
            write_json(os.path.join(out, "failed", job["id"] + ".json"), {
                "id": job["id"], "status": f"runner {what}", "exit": None, "signal": None,
                "host": socket.gethostname(), "elapsed_s": round(dt, 3), "argv": job["argv"],
                "stderr_tail": tail(os.path.join(out, "logs", job["id"] + ".stderr")),
                "time": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")})
        ok = state_of(out, job) == "done"
        count[0] += 1
        if ok:
            print(f"  [{count[0]}/{n}] done    {job['id']}  {dt:.2f} s", flush=True)
        else:
            failed.append(job["id"])
            print(f"  [{count[0]}/{n}] FAILED  {job['id']}  {failure_summary(out, job['id'])}", flush=True)

    stop = threading.Event()

    def guarded(job):
        if not stop.is_set():
            one(job)

    ex = ThreadPoolExecutor(max_workers=max(1, jobs_n))
    try:
        for f in [ex.submit(guarded, j) for j in todo]:
            f.result()
    except KeyboardInterrupt:
        # Ctrl-C: start nothing more, let the running jobs end (a terminal's Ctrl-C reaches them
        # too: they record themselves failed), keep every finished result
        stop.set()
        ex.shutdown(wait=True, cancel_futures=True)
        print(f"{PROG}: interrupted; finished results are kept, `{PROG} run` again runs the rest",
              file=sys.stderr)
        sys.exit(130)
    ex.shutdown()
    return [j["id"] for j in todo if j["id"] in failed]  # in the description's order


def check_slurm():
    for t in ("sbatch", "squeue"):
        if not any(os.access(os.path.join(d, t), os.X_OK) for d in os.environ.get("PATH", "").split(":")):
            raise CampaignError(f"--slurm: '{t}' not found (Slurm's client commands: slurm-client)")


def run_slurm(c, out, todo, a):
    k = a.per_task
    ntasks = (len(todo) + k - 1) // k
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}"
    sub = os.path.join(out, "slurm", stamp)
    os.makedirs(sub)
    write_json(os.path.join(sub, "jobs.json"), jobs_doc(c, todo))
    script = os.path.join(sub, "array.sh")
    write_atomic(script, f"#!/bin/sh\n# task N of the array = jobs N*{k} .. N*{k}+{k - 1} of jobs.json "
                 "(campaign.py job)\n"
                 f"exec python3 {shlex.quote(os.path.abspath(__file__))} job --jobs "
                 f"{shlex.quote(os.path.join(sub, 'jobs.json'))} --per-task {k} "
                 f"--index \"$SLURM_ARRAY_TASK_ID\" {shlex.quote(out)}\n")
    os.chmod(script, 0o755)
    throttle = f"%{a.max_running}" if a.max_running else ""
    cmd = ["sbatch", "--parsable", f"--array=0-{ntasks - 1}{throttle}", f"--job-name=campaign-{c.name}",
           "--ntasks=1", "--cpus-per-task=1", f"--chdir={c.cwd}",
           f"--output={sub}/task-%a.log", *shlex.split(a.sbatch_args or ""), script]
    r = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        die(f"sbatch failed (exit {r.returncode}): {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ''}", 1)
    jobid = r.stdout.strip().split(";")[0]
    write_atomic(os.path.join(sub, "jobid"), jobid + "\n")
    print(f"{PROG}: submitted Slurm array job {jobid}: {ntasks} tasks for {len(todo)} jobs "
          f"(task logs {sub}/task-N.log)", flush=True)
    if not a.wait:
        print(f"{PROG}: when it has finished: {PROG} merge {c.path}" + (f" -o {a.out}" if a.out else ""))
        return None
    t0 = time.time()
    try:
        wait_array(jobid)
    except KeyboardInterrupt:
        print(f"{PROG}: stopped waiting; array job {jobid} goes on (scancel {jobid} stops it); "
              f"`{PROG} status {c.path}` / `{PROG} merge {c.path}` later", file=sys.stderr)
        sys.exit(130)
    print(f"{PROG}: array job {jobid} finished after {time.time() - t0:.1f} s", flush=True)
    failed = []
    for i, job in enumerate(todo):
        st = state_of(out, job)
        if st != "done":
            failed.append(job["id"])
            log = os.path.join(sub, f"task-{i // k}.log")
            print(f"  FAILED  {job['id']}  {failure_summary(out, job['id'])} (task log {log})", flush=True)
    return failed


def wait_array(jobid):
    """Poll squeue every second until the array has left the queue."""
    failing_since = None
    while True:
        q = subprocess.run(["squeue", "-h", "-j", jobid, "-o", "%i %T"], capture_output=True, text=True)
        if q.returncode == 0 and not q.stdout.strip():
            break
        if q.returncode != 0 and "Invalid job id" in q.stderr:
            break
        if q.returncode != 0:
            # the controller does not answer: say so, give up after SQUEUE_PATIENCE seconds
            msg = (q.stderr.strip().splitlines() or ["no message"])[-1]
            if failing_since is None:
                failing_since = time.time()
                print(f"{PROG}: squeue fails ({msg}); retrying for up to {SQUEUE_PATIENCE} s",
                      file=sys.stderr, flush=True)
            elif time.time() - failing_since > SQUEUE_PATIENCE:
                die(f"squeue has failed for {SQUEUE_PATIENCE} s ({msg}); array job {jobid} is left "
                    f"as it is: `{PROG} status` / `{PROG} merge` when it has finished", 1)
        else:
            failing_since = None
        time.sleep(1)


def cmd_run(a):
    c = parse(a.file, a.tiprof)
    out = os.path.abspath(a.out or os.path.join("build", "campaign", c.name))
    todo, done = select(c, out, a)
    if a.slurm:
        check_slurm()
    os.makedirs(out, exist_ok=True)
    write_json(os.path.join(out, "jobs.json"), jobs_doc(c, c.jobs))
    clean_tmp(out, todo)
    where = "Slurm" if a.slurm else f"locally, {a.jobs} in parallel"
    finished = sum(state_of(out, j) == "done" for j in c.jobs)
    print(f"{PROG}: {c.name}: {len(c.jobs)} jobs, {finished} already finished, "
          f"{len(todo)} to run ({where}); results in {out}", flush=True)
    t0 = time.time()
    failed = []
    if todo:
        if a.slurm:
            failed = run_slurm(c, out, todo, a)
            if failed is None:
                return 0
        else:
            failed = run_local(c, out, todo, a.jobs)
    if todo:
        print(f"{PROG}: ran {len(todo)} jobs in {time.time() - t0:.1f} s: {len(todo) - len(failed)} "
              f"finished, {len(failed)} failed", flush=True)
    merge(c, out)
    if failed:
        print(f"{PROG}: failed: {' '.join(failed)}; re-run: {PROG} run {a.file} "
              f"--only {','.join(failed)}" + (f" -o {a.out}" if a.out else ""), file=sys.stderr)
        return 1
    return 0


# --------------------------------------------------------------------------------------------
# status


def cmd_status(a):
    c = parse(a.file, a.tiprof)
    out = os.path.abspath(a.out or os.path.join("build", "campaign", c.name))
    if not os.path.isdir(os.path.join(out, "results")):
        die(f"{out}: no results yet ({PROG} run {a.file})", 1)
    counts = {}
    for j in c.jobs:
        st = state_of(out, j)
        counts[st] = counts.get(st, 0) + 1
        extra = f"  {failure_summary(out, j['id'])}" if st == "failed" else ""
        print(f"{st:8s} {j['id']}{extra}")
    print(f"{PROG}: {c.name}: " + ", ".join(f"{counts[k]} {k}" for k in
                                            ("done", "running", "failed", "died", "stale", "pending") if k in counts))
    return 0 if counts.get("done", 0) == len(c.jobs) else 1


def cmd_list(a):
    c = parse(a.file, a.tiprof)
    for j in c.jobs:
        cmd = " ".join(shlex.quote(x) for x in j["argv"]) + \
            (f" < {shlex.quote(j['stdin'])}" if j.get("stdin") else "")
        if j["cwd"] != c.cwd:
            cmd = f"(cd {shlex.quote(j['cwd'])} && {cmd})"
        print(j["id"] + "\t" + cmd)
    return 0


# --------------------------------------------------------------------------------------------
# merge: table (markdown, CSV, JSON) and charts (SVG)


def fmt(x):
    return repr(float(x))


def merge(c, out):
    """Merge every finished job of the description; returns (merged, missing ids, failed ids)."""
    rows, merged, missing, failed, shas, timing = [], [], [], [], set(), []
    policies = None
    for j in c.jobs:
        st = state_of(out, j)
        if st != "done":
            (failed if st == "failed" else missing).append(j["id"])
            continue
        r = read_json(os.path.join(out, "results", j["id"] + ".json"))
        acc = r["accuracy"]
        merged.append(j)
        shas.add(r.get("tiprof_sha256"))
        timing.append((j["id"], r.get("host", ""), r.get("elapsed_s", 0.0)))
        names = ["Ideal"] + list(acc["policies"])
        if policies is None:
            policies = names
        for p in names:
            e = acc["ideal"] if p == "Ideal" else acc["policies"][p]
            sysv = e.get("systematic", {lv: 0.0 for lv in LEVELS})
            rows.append({"workload": j["workload"], "config": j["config"], "period": j["period"],
                         "mode": j["mode"], "seed": j["seed"], "policy": p,
                         **{lv: e[lv] for lv in LEVELS},
                         **{"systematic_" + lv: sysv[lv] for lv in LEVELS},
                         "cycles": acc["cycles"], "samples": acc["samples"], "job": j["id"]})
    policies = policies or []
    md = os.path.join(out, "merged")
    os.makedirs(os.path.join(md, "charts"), exist_ok=True)
    # CSV
    cols = ["workload", "config", "period", "mode", "seed", "policy", *LEVELS,
            *("systematic_" + lv for lv in LEVELS), "cycles", "samples", "job"]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for r in rows:
        w.writerow([fmt(r[k]) if k in LEVELS or k.startswith("systematic_") else r[k] for k in cols])
    write_atomic(os.path.join(md, "results.csv"), buf.getvalue())
    summary = {"campaign": c.name, "jobs": len(c.jobs), "merged": len(merged),
               "complete": len(merged) == len(c.jobs), "missing": missing, "failed": failed,
               "policies": policies, "rows": rows}
    write_json(os.path.join(md, "results.json"), summary)
    # timings (not part of the results: they differ from run to run)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["job", "host", "elapsed_s"])
    for t in timing:
        w.writerow(t)
    write_atomic(os.path.join(md, "timing.csv"), buf.getvalue())
    charts = write_charts(c, md, rows, policies)
    write_atomic(os.path.join(md, "results.md"), markdown(c, rows, policies, summary, charts))
    # stale charts of an earlier merge (a group no longer present)
    for f in os.listdir(os.path.join(md, "charts")):
        if f.endswith(".svg") and f not in charts:
            os.unlink(os.path.join(md, "charts", f))
    note = "" if not missing and not failed else \
        f"; missing {len(missing)}" + (f" ({' '.join(missing[:8])}{' ...' if len(missing) > 8 else ''})" if missing else "") + \
        f"; failed {len(failed)}" + (f" ({' '.join(failed)})" if failed else "")
    print(f"{PROG}: merged {len(merged)} of {len(c.jobs)} jobs{note} -> {md}/results.md, "
          f"results.csv, results.json, {len(charts)} charts", flush=True)
    if len(shas - {None}) > 1:
        print(f"{PROG}: warning: the merged results come from {len(shas)} different tiprof "
              f"binaries (tiprof_sha256 in each result)", file=sys.stderr)
    return merged, missing, failed


def stats(vals):
    m = sum(vals) / len(vals)
    return m, min(vals), max(vals)


def groups_of(c):
    return [(cfg, int(p), m) for cfg in c.axes["config"][0] for p in c.axes["period"][0]
            for m in c.axes["mode"][0]]


def markdown(c, rows, policies, summary, charts):
    L = [f"# Accuracy campaign `{c.name}`", "",
         f"Description `{os.path.relpath(os.path.abspath(c.path))}`; {summary['merged']} of "
         f"{summary['jobs']} jobs merged" + ("" if summary["complete"] else
                                             f" (missing: {', '.join(summary['missing']) or 'none'}; failed: "
                                             f"{', '.join(summary['failed']) or 'none'})") + ".",
         "Error against the Oracle in % (tiprof accuracy; 'Ideal' is the statistical floor of the "
         "same samples). With several seeds: the mean, and [min, max] over the seeds.", ""]
    wls = [w[0] for w in c.workloads]
    idx = {}
    for r in rows:
        idx.setdefault((r["config"], r["period"], r["mode"], r["workload"], r["policy"]), []).append(r)
    for (cfg, p, m) in groups_of(c):
        if not any(k[:3] == (cfg, p, m) for k in idx):
            continue
        for lv in LEVELS:
            L += [f"## {cfg}, period {p}, {m}: {LEVEL_TITLE[lv]} level", ""]
            L.append("| workload | " + " | ".join(policies) + " |")
            L.append("|---|" + "---:|" * len(policies))
            means = {pol: [] for pol in policies}
            for wl in wls:
                cells = []
                for pol in policies:
                    rs = idx.get((cfg, p, m, wl, pol))
                    if not rs:
                        cells.append("–")
                        continue
                    mean, lo, hi = stats([100 * r[lv] for r in rs])
                    means[pol].append(mean)
                    cells.append(f"{mean:.2f}" if len(rs) == 1 else f"{mean:.2f} [{lo:.2f}, {hi:.2f}]")
                if any(x != "–" for x in cells):
                    L.append(f"| {wl} | " + " | ".join(cells) + " |")
            done_wl = [wl for wl in wls if any((cfg, p, m, wl, pol) in idx for pol in policies)]
            label = "mean" if len(done_wl) == len(wls) else \
                f"mean of {len(done_wl)} (without {', '.join(w for w in wls if w not in done_wl)})"
            L.append(f"| {label} | " + " | ".join(f"{sum(v) / len(v):.2f}" if v else "–"
                                                  for v in means.values()) + " |")
            L.append("")
    if charts:
        L += ["## Charts", ""] + [f"- [charts/{f}](charts/{f})" for f in sorted(charts)] + [""]
    return "\n".join(L)


# ---- SVG -----------------------------------------------------------------------------------

PALETTE = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d",
           "#666666", "#1f78b4", "#b2df8a"]


def esc(s):
    return xml.sax.saxutils.escape(str(s), {'"': "&quot;"})


def nice_max(v):
    if v <= 0:
        return 1.0
    e = 10 ** math.floor(math.log10(v))
    for f in (1, 2, 2.5, 5, 10):
        if v <= f * e:
            return f * e
    return 10 * e


def svg_frame(width, height, title, ymax, ylabel, x0, y0, pw, ph):
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           f'<title>{esc(title)}</title>',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2:.1f}" y="18" text-anchor="middle" font-size="13">{esc(title)}</text>']
    for k in range(6):
        v = ymax * k / 5
        y = y0 + ph - ph * k / 5
        out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + pw}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{x0 - 4}" y="{y + 4:.1f}" text-anchor="end">{v:g}</text>')
    out.append(f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y0 + ph}" stroke="black"/>')
    out.append(f'<line x1="{x0}" y1="{y0 + ph}" x2="{x0 + pw}" y2="{y0 + ph}" stroke="black"/>')
    out.append(f'<text x="14" y="{y0 + ph / 2:.1f}" text-anchor="middle" '
               f'transform="rotate(-90 14 {y0 + ph / 2:.1f})">{esc(ylabel)}</text>')
    return out


def color(name, names):
    """One colour per policy in every chart: its place among the policies (Ideal grey)."""
    if name == "Ideal":
        return "#999999"
    others = [n for n in names if n != "Ideal"]
    return PALETTE[others.index(name) % len(PALETTE)]


def legend(out, names, x, y):
    for i, n in enumerate(names):
        out.append(f'<rect x="{x}" y="{y + 16 * i}" width="10" height="10" fill="{color(n, names)}"/>')
        out.append(f'<text x="{x + 14}" y="{y + 16 * i + 9}">{esc(n)}</text>')


def bar_chart(title, cats, series, ylabel):
    """cats: category names; series: [(name, [(mean, lo, hi) or None per category])]."""
    ymax = nice_max(max([v[2] for _, vs in series for v in vs if v] + [0]))
    nb = len(series)
    gw = max(60, 12 * nb + 16)
    x0, y0, ph = 60, 30, 260
    pw = gw * len(cats)
    width, height = max(x0 + pw + 120, 7 * len(title) + 20), y0 + ph + 60
    out = svg_frame(width, height, title, ymax, ylabel, x0, y0, pw, ph)
    bw = (gw - 16) / nb
    names = [s[0] for s in series]
    for si, (name, vals) in enumerate(series):
        col = color(name, names)
        out.append(f'<g class="series" data-series="{esc(name)}" fill="{col}">')
        for ci, v in enumerate(vals):
            if v is None:
                continue
            mean, lo, hi = v
            x = x0 + ci * gw + 8 + si * bw
            h = ph * mean / ymax
            out.append(f'<rect class="bar" data-category="{esc(cats[ci])}" data-value="{mean:.6g}" '
                       f'x="{x:.1f}" y="{y0 + ph - h:.1f}" width="{bw:.1f}" height="{h:.1f}">'
                       f'<title>{esc(name)} {esc(cats[ci])}: {mean:.3f}</title></rect>')
            if hi > lo:
                xm = x + bw / 2
                ylo, yhi = y0 + ph - ph * lo / ymax, y0 + ph - ph * hi / ymax
                out.append(f'<path class="whisker" d="M{xm:.1f} {ylo:.1f}V{yhi:.1f}M{xm - 2:.1f} {yhi:.1f}'
                           f'h4M{xm - 2:.1f} {ylo:.1f}h4" stroke="black" fill="none"/>')
        out.append('</g>')
    for ci, cname in enumerate(cats):
        xc = x0 + ci * gw + gw / 2
        out.append(f'<text x="{xc:.1f}" y="{y0 + ph + 16}" text-anchor="middle">{esc(cname)}</text>')
    legend(out, [s[0] for s in series], x0 + pw + 10, y0)
    out.append('</svg>')
    return "\n".join(out) + "\n"


def line_chart(title, xs, series, ylabel, xlabel):
    """xs: sorted periods; series: [(name, [y or None per x])]; log2 x axis."""
    ymax = nice_max(max([v for _, vs in series for v in vs if v is not None] + [0]))
    x0, y0, pw, ph = 60, 30, 420, 260
    width, height = max(x0 + pw + 120, 7 * len(title) + 20), y0 + ph + 60
    out = svg_frame(width, height, title, ymax, ylabel, x0, y0, pw, ph)
    lx = [math.log2(x) for x in xs]
    lo, hi = min(lx), max(lx)
    span = hi - lo or 1.0

    def px(x):
        return x0 + 10 + (pw - 20) * (math.log2(x) - lo) / span

    for x in xs:
        out.append(f'<text x="{px(x):.1f}" y="{y0 + ph + 16}" text-anchor="middle">{x}</text>')
    out.append(f'<text x="{x0 + pw / 2:.1f}" y="{y0 + ph + 40}" text-anchor="middle">{esc(xlabel)}</text>')
    names = [s[0] for s in series]
    for name, ys in series:
        col = color(name, names)
        dash = ' stroke-dasharray="5 3"' if name == "Ideal" else ""
        pts = [(px(x), y0 + ph - ph * y / ymax, x, y) for x, y in zip(xs, ys) if y is not None]
        out.append(f'<g class="series" data-series="{esc(name)}" stroke="{col}" fill="{col}">')
        if len(pts) > 1:
            out.append(f'<polyline fill="none" stroke-width="1.5"{dash} points="' +
                       " ".join(f"{a:.1f},{b:.1f}" for a, b, _, _ in pts) + '"/>')
        for a, b, x, y in pts:
            out.append(f'<circle class="point" data-x="{x}" data-value="{y:.6g}" cx="{a:.1f}" '
                       f'cy="{b:.1f}" r="3"><title>{esc(name)} period {x}: {y:.3f}</title></circle>')
        out.append('</g>')
    legend(out, [s[0] for s in series], x0 + pw + 10, y0)
    out.append('</svg>')
    return "\n".join(out) + "\n"


def write_charts(c, md, rows, policies):
    """Per (config, period, mode, level): error per workload per policy (bars; whiskers = the
    seeds' range); per (config, mode, level) with two periods or more: the workloads' mean
    error vs the sampling period, one line per policy. Returns the file names written."""
    names = []
    pols = [p for p in policies if p != "Ideal"]
    wls = [w[0] for w in c.workloads]
    idx = {}
    for r in rows:
        idx.setdefault((r["config"], r["period"], r["mode"], r["workload"], r["policy"]), []).append(r)
    periods = sorted(int(p) for p in c.axes["period"][0])
    for (cfg, p, m) in groups_of(c):
        present = [wl for wl in wls if any((cfg, p, m, wl, pol) in idx for pol in pols)]
        if not present:
            continue
        # a "mean" group over the workloads that finished (named so when some did not)
        with_mean = len(present) > 1
        mean_label = "mean" if len(present) == len(wls) else f"mean of {len(present)}"
        for lv in LEVELS:
            series = []
            for pol in pols:
                vals = []
                for wl in present:
                    rs = idx.get((cfg, p, m, wl, pol))
                    vals.append(stats([100 * r[lv] for r in rs]) if rs else None)
                if with_mean:
                    ms = [v[0] for v in vals if v]
                    vals.append((sum(ms) / len(ms), 0.0, 0.0) if len(ms) == len(present) else None)
                series.append((pol, vals))
            f = f"policies-{cfg}-p{p}-{m}-{lv}.svg"
            write_atomic(os.path.join(md, "charts", f), bar_chart(
                f"{c.name}: {LEVEL_TITLE[lv]}-level error per workload ({cfg}, period {p}, {m})",
                present + ([mean_label] if with_mean else []), series, "error vs Oracle (%)"))
            names.append(f)
    if len(periods) >= 2:
        for cfg in c.axes["config"][0]:
            for m in c.axes["mode"][0]:
                # the mean over the workloads finished at every period (the same set at each
                # point; the title says when some are left out)
                common = [wl for wl in wls if all((cfg, p, m, wl, pol) in idx
                                                  for p in periods for pol in policies)]
                if not common:
                    continue
                over = "" if len(common) == len(wls) else f", {len(common)} of {len(wls)} workloads"
                for lv in LEVELS:
                    series = []
                    for pol in policies:
                        ys = []
                        for p in periods:
                            per = [stats([100 * r[lv] for r in idx[(cfg, p, m, wl, pol)]])[0]
                                   for wl in common]
                            ys.append(sum(per) / len(per))
                        series.append((pol, ys))
                    f = f"period-{cfg}-{m}-{lv}.svg"
                    write_atomic(os.path.join(md, "charts", f), line_chart(
                        f"{c.name}: mean {LEVEL_TITLE[lv]}-level error vs sampling period ({cfg}, {m}{over})",
                        periods, series, "error vs Oracle (%)", "sampling period (cycles, log2 axis)"))
                    names.append(f)
    return names


def cmd_merge(a):
    c = parse(a.file, a.tiprof)
    out = os.path.abspath(a.out or os.path.join("build", "campaign", c.name))
    if not os.path.isdir(os.path.join(out, "results")):
        die(f"{out}: no results yet ({PROG} run {a.file})", 1)
    merged, missing, failed = merge(c, out)
    if a.require_complete and (missing or failed):
        return 1
    return 0


# --------------------------------------------------------------------------------------------


def main(argv):
    ap = argparse.ArgumentParser(prog=PROG, description="accuracy campaigns (docs/campaign.md)")
    sp = ap.add_subparsers(dest="cmd", required=True)
    tip_default = os.environ.get("TIPROF", os.path.join("build", "bin", "tiprof"))

    def common(p):
        p.add_argument("file", help="campaign description")
        p.add_argument("--tiprof", default=tip_default, help="tiprof binary (default $TIPROF or build/bin/tiprof)")

    p = sp.add_parser("list", help="print the jobs")
    common(p)
    p = sp.add_parser("run", help="run the jobs not finished yet, then merge")
    common(p)
    p.add_argument("-o", "--out", help="results folder (default build/campaign/NAME)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="parallel local jobs")
    p.add_argument("--only", action="append", help="only these jobs (comma-separated ids)")
    p.add_argument("--force", action="store_true", help="run even finished jobs again")
    p.add_argument("--slurm", action="store_true", help="submit a Slurm job array (sbatch)")
    p.add_argument("--wait", action="store_true", help="with --slurm: wait for the array, then merge")
    p.add_argument("--sbatch-args", help="more sbatch options (one string, shell-split)")
    p.add_argument("--per-task", type=int, default=1, metavar="K",
                   help="with --slurm: K jobs one after the other per array task (default 1)")
    p.add_argument("--max-running", type=int, metavar="P",
                   help="with --slurm: at most P array tasks at once (--array=...%%P)")
    p = sp.add_parser("status", help="state of every job")
    common(p)
    p.add_argument("-o", "--out")
    p = sp.add_parser("merge", help="merge the finished jobs into tables and charts")
    common(p)
    p.add_argument("-o", "--out")
    p.add_argument("--require-complete", action="store_true", help="exit 1 unless every job finished")
    p = sp.add_parser("job", help="run one job (what run and Slurm tasks start)")
    p.add_argument("out")
    p.add_argument("id", nargs="?")
    p.add_argument("--jobs", help="job list (a Slurm submission's)")
    p.add_argument("--index", type=int, help="task index (SLURM_ARRAY_TASK_ID)")
    p.add_argument("--per-task", type=int, default=1, help="jobs per task")
    a = ap.parse_args(argv)
    if a.cmd == "run":
        for opt, v in (("-j", a.jobs), ("--per-task", a.per_task), ("--max-running", a.max_running)):
            if v is not None and v < 1:
                die(f"{opt}: at least 1")
        if not a.slurm and (a.wait or a.sbatch_args or a.per_task != 1 or a.max_running):
            die("--wait, --sbatch-args, --per-task and --max-running go with --slurm")
    try:
        return {"list": cmd_list, "run": cmd_run, "status": cmd_status, "merge": cmd_merge,
                "job": cmd_job}[a.cmd](a)
    except CampaignError as e:
        die(str(e))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
