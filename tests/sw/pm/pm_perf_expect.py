#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""pm_perf_expect.py - what perf must show for a converted ProfileMe recording, derived
independently of sw/pm/pm_perfdata.c: from the sample file's text (`tiprof dump`) and the
program's symbols (riscv64 nm), and compared with perf's output.

Usage: pm_perf_expect.py DUMP PROG NM REPORT MEM SCRIPT_COUNT
  DUMP          tiprof dump of the sample file (object records and pm lines)
  PROG          the program (an object record of kind main names it)
  NM            `nm -S --defined-only PROG` output
  REPORT        perf report --stdio -n --sort dso,sym output
  MEM           perf mem report --stdio -F sample,mem,sym,dso output
  SCRIPT_COUNT  number of lines perf script printed (one per sample)
Checks: samples = tagged profiles; every function of PROG (a symbol with a size) with
samples has exactly its count in perf report, and perf reports no other count for those
functions (samples perf gives PROG's other names - PLT entries, symbols without a size,
which perf stretches to the next symbol - are counted but not compared); perf mem's
total weight = the sum over profiles of the memory latency (loads/stores with mem and
complete stamps) or the total latency; perf mem's rows (level, function of PROG) have
exactly the samples of the profiles with that level. Prints one line per check; exit 1
if any fails.
"""
import re
import sys


def profiles(dump):
    """Tagged profiles of the dump's pm lines: dicts pc, ev (set), stamps (dict)."""
    out = []
    for line in dump:
        if not re.match(r"pm \d+: ", line):
            continue
        for part in line.rstrip("\n").split(" | ")[1:]:
            f = part.split()
            if len(f) > 1 and f[1] == "untagged":
                continue
            kv = dict(x.split("=", 1) for x in f[1:] if "=" in x)
            out.append({"pc": int(kv["pc"], 16), "ev": set(kv["ev"].split(",")),
                        "st": {k: int(v) for k, v in kv.items()
                               if k in ("map", "ready", "issue", "mem", "complete", "end")}})
    return out


def weight(p):
    if (p["ev"] & {"LOAD", "STORE"}) and "mem" in p["st"] and "complete" in p["st"]:
        return max(p["st"]["complete"] - p["st"]["mem"], 0)
    return p["st"]["end"]


def level(p):
    if not p["ev"] & {"LOAD", "STORE"}:
        return "N/A"
    return "L1 miss" if "DC_MISS" in p["ev"] else "L1 hit"


def main():
    dump = open(sys.argv[1]).readlines()
    prog, base = sys.argv[2], sys.argv[2].rsplit("/", 1)[-1]
    bias = None
    for line in dump:
        m = re.match(r"object: main 0x([0-9a-f]+)-0x[0-9a-f]+ bias=0x([0-9a-f]+) (\S+) ", line)
        if m and m.group(3) == prog:
            bias = int(m.group(2), 16)
    if bias is None:
        bias = 0
    funcs = []
    for line in open(sys.argv[3]):
        f = line.split()
        if len(f) == 4 and f[2] in "TtWw" and int(f[1], 16) > 0:
            funcs.append((int(f[0], 16) + bias, int(f[0], 16) + bias + int(f[1], 16), f[3]))
    funcs.sort()

    def func(pc):
        for s, e, n in funcs:          # small programs: a scan is enough
            if s <= pc < e:
                return n
        return None

    ps = profiles(dump)
    fails = 0

    def check(ok, what):
        nonlocal fails
        print(("  ok: " if ok else "  FAIL: ") + what)
        fails += not ok

    nscript = int(sys.argv[6])
    check(nscript == len(ps), "perf script prints %d samples; the file has %d tagged profiles"
          % (nscript, len(ps)))
    want = {}
    for p in ps:
        n = func(p["pc"])
        if n:
            want[n] = want.get(n, 0) + 1
    got, other, names = {}, 0, {n for _, _, n in funcs}
    for line in open(sys.argv[4]):
        m = re.match(r"^\s+[\d.]+%\s+(\d+)\s+(\S+)\s+\[.\]\s+(\S+)\s*$", line)
        if m and m.group(2) == base and m.group(3) in names:
            got[m.group(3)] = got.get(m.group(3), 0) + int(m.group(1))
        elif m and m.group(2) == base:
            other += int(m.group(1))
    bad = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
    check(not bad and want, "perf report: %d functions of %s, %d samples in them, each count "
          "exact (%d samples at other names)%s" % (len(want), base, sum(want.values()), other,
                       "".join("; %s: perf %s, want %s" % (k, got.get(k), want.get(k))
                               for k in bad[:5])))
    tw = sum(weight(p) for p in ps)
    mt = re.search(r"^# Total weight : (\d+)$", open(sys.argv[5]).read(), re.M)
    check(mt and int(mt.group(1)) == tw, "perf mem report: total weight %s, want %d"
          % (mt.group(1) if mt else "(none)", tw))
    wantm, gotm = {}, {}
    for p in ps:
        n = func(p["pc"])
        if n:
            k = (level(p), n)
            wantm[k] = wantm.get(k, 0) + 1
    for line in open(sys.argv[5]):
        m = re.match(r"^\s+(\d+)\s+(N/A|L1 hit|L1 miss)\s+\[.\]\s+(\S+)\s+(\S+)\s*$", line)
        if m and m.group(4) == base and m.group(3) in names:
            k = (m.group(2), m.group(3))
            gotm[k] = gotm.get(k, 0) + int(m.group(1))
    bad = sorted(k for k in set(wantm) | set(gotm) if wantm.get(k) != gotm.get(k))
    nl = sum(v for k, v in wantm.items() if k[0] != "N/A")
    check(not bad and nl > 0, "perf mem report: %d (level, function) rows of %s, %d loads and "
          "stores among them, each count exact%s" % (len(wantm), base, nl,
          "".join("; %s: perf %s, want %s" % (k, gotm.get(k), wantm.get(k)) for k in bad[:5])))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
