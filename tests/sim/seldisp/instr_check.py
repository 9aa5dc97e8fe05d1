#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""instr_check.py - checks of Xtpsd-instrumented programs (docs/seldisp.md section 9).

  instr_check.py truth PROFILE TRUTH BINARY OBJDUMP NM
      every counter of a full profile (TPSD w=100) equals the ISS's exact count of the block
      that holds its site (tiprof iss --truth); every block of an instrumented function
      (the timer's out-of-line stubs excepted) has the count of the instrumenter's block
      holding it (no leader missed); the pfstate at exit shows no overflow and no error
  instr_check.py window FULL SAMPLED
      a windowed profile: every counter <= the full one, some but not all counted, and no
      function with 5000 counts or more counted in less than a third of the window or more
      than window + 25 % of its runs
  instr_check.py dist FULL SAMPLED [bb|cg]
      the Manhattan distance between the normalized profiles (0 = same shape, 2 = disjoint)
Exit status 1 with one line per failure (at most 20), 2 on bad input.
"""
import re
import subprocess
import sys


def die(path, msg):
    sys.stderr.write("instr_check: %s: %s\n" % (path, msg))
    sys.exit(2)


def read_profile(path):
    """{'bb'|'cg': [(site, fn, callee, count)]}, header dict."""
    prof, hdr = {"bb": [], "cg": []}, {}
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        die(path, e.strerror)
    if not lines or lines[0] != "tpsd-profile 1":
        die(path, "not a tpsd profile")
    for ln in lines[1:]:
        w = ln.split()
        if w[0] == "bb" and len(w) == 4:
            prof["bb"].append((int(w[1], 16), w[2], None, int(w[3])))
        elif w[0] == "cg" and len(w) == 5:
            prof["cg"].append((int(w[1], 16), w[2], w[3], int(w[4])))
        elif len(w) == 2:
            hdr[w[0]] = int(w[1], 0)
        else:
            die(path, "bad line: " + ln)
    return prof, hdr


def read_truth(path):
    blocks = {}
    try:
        for ln in open(path):
            w = ln.split()
            if w and w[0] == "block":
                blocks[int(w[1], 16)] = int(w[2])
    except (OSError, ValueError, IndexError) as e:
        die(path, str(e))
    if not blocks:
        die(path, "no blocks")
    return blocks


def funcs_of(nm, binary):
    out = subprocess.run([nm, "-S", binary], capture_output=True, text=True, check=True).stdout
    f = {}
    for ln in out.splitlines():
        w = ln.split()
        if len(w) == 4 and w[2] in "Tt":
            f[w[3]] = (int(w[0], 16), int(w[0], 16) + int(w[1], 16))
    return f


def disasm(objdump, binary):
    """The timer stubs' first instructions (auipc t0 before the call), and the addresses of
    the control transfers (branches, jumps, calls, returns)."""
    out = subprocess.run([objdump, "-d", binary], capture_output=True, text=True, check=True).stdout
    prev, starts, xfer = None, [], []
    for ln in out.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+[0-9a-f]+\s+(\S+)", ln)
        if not m:
            continue
        a, op = int(m.group(1), 16), m.group(2)
        if "<__tpsd_tick_entry>" in ln and "t0" in ln:
            starts.append(prev if "jalr" in ln else a)
        if op[0] in "bj" or op in ("ret", "tail", "call"):
            xfer.append(a)
        prev = a
    return starts, xfer


def check_truth(pfile, tfile, binary, objdump, nm):
    prof, hdr = read_profile(pfile)
    truth = read_truth(tfile)
    funcs = funcs_of(nm, binary)
    stubs, xfer = disasm(objdump, binary)
    starts = sorted(truth)
    bad = []
    import bisect

    def holder(lst, addr, lo):
        i = bisect.bisect_right(lst, addr) - 1
        return lst[i] if i >= 0 and lst[i] >= lo else None

    n = 0
    for kind in ("bb", "cg"):
        for site, fn, callee, cnt in prof[kind]:
            if fn not in funcs:
                bad.append("%s: function %s not in the symbol table" % (pfile, fn))
                continue
            b = holder(starts, site, funcs[fn][0])
            n += 1
            tc = truth.get(b, 0) if b is not None else 0
            if cnt == 0 and b is not None and b != site and \
                    bisect.bisect_left(xfer, site) > bisect.bisect_left(xfer, b):
                continue    # a transfer between the executed block's start and the site:
                            # the site is in a block the ISS never ran (unlisted: count 0)
            if tc != cnt:
                bad.append("%s %#x in %s%s: counter %d, the ISS's block %s ran %d times" %
                           (kind, site, fn, " -> " + callee if callee else "", cnt,
                            "%#x" % b if b is not None else "(none)", tc))
    # completeness: every block of an instrumented function is inside a counted block
    byfn = {}
    for site, fn, _, cnt in prof["bb"]:
        byfn.setdefault(fn, []).append((site, cnt))
    ncov = 0
    for fn, sites in byfn.items():
        sites.sort()
        lo, hi = funcs[fn]
        stub = min([s for s in stubs if lo <= s < hi] or [hi])
        sa = [s for s, _ in sites]
        for b in starts:
            if not lo <= b < stub:
                continue
            s = holder(sa, b, lo)
            c = dict(sites)[s] if s is not None else sites[0][1]   # the entry's poll block
            ncov += 1
            if truth[b] != c:
                bad.append("block %#x in %s ran %d times, the instrumenter's block %s counted %d"
                           " (a leader missed?)" % (b, fn, truth[b],
                                                     "%#x" % s if s is not None else "entry", c))
    st = hdr.get("pfstate", 0)
    if (st >> 8) & 0xffff or (st >> 24) & 1:
        bad.append("%s: pfstate %#x at exit: overflow count %d, error %d (unbalanced pushpf/poppf)" %
                   (pfile, st, (st >> 8) & 0xffff, (st >> 24) & 1))
    for b in bad[:20]:
        print("FAIL " + b)
    if bad:
        return 1
    print("instr_check: %d counters = the ISS's exact block counts, %d blocks of %d functions"
          " covered, pfstate %#x at exit" % (n, ncov, len(byfn), st))
    return 0


def vec(prof, kind):
    v = {}
    for site, fn, callee, cnt in prof[kind]:
        key = (fn, callee) if kind == "cg" else site   # call-graph edges: caller -> callee
        v[key] = v.get(key, 0) + cnt
    return v


def check_window(ffile, sfile):
    full, _ = read_profile(ffile)
    samp, hdr = read_profile(sfile)
    bad, tot_f, tot_s = [], 0, 0
    for kind in ("bb", "cg"):
        if len(full[kind]) != len(samp[kind]):
            die(sfile, "not the same counters as " + ffile)
        for a, b in zip(full[kind], samp[kind]):
            tot_f += a[3]
            tot_s += b[3]
            if b[3] > a[3]:
                bad.append("%s %#x: %d in the window, %d in the full profile" % (kind, a[0], b[3], a[3]))
    # every function that counted much: about the window's share (a function entered before
    # a switch and running on - main's loop - must follow the window too)
    w = hdr.get("window", 100)
    byfn = {}
    for kind in ("bb", "cg"):
        for a, b in zip(full[kind], samp[kind]):
            t = byfn.setdefault(a[1], [0, 0])
            t[0] += a[3]
            t[1] += b[3]
    for fn, (f, s_) in sorted(byfn.items()):
        if f >= 5000 and not w / 3.0 <= 100.0 * s_ / f <= w + 25:
            bad.append("%s: %d of %d counts (%.0f%%) in %d%% windows" % (fn, s_, f, 100.0 * s_ / f, w))
    if not 0 < tot_s < tot_f:
        bad.append("%s: %d counted of %d: the windows did not switch" % (sfile, tot_s, tot_f))
    for b in bad[:20]:
        print("FAIL " + b)
    if bad:
        return 1
    print("instr_check: window %d%%: %d of %d counts (%.1f%%), %d switches, %d ticks" %
          (hdr.get("window", -1), tot_s, tot_f, 100.0 * tot_s / tot_f, hdr.get("switches", 0),
           hdr.get("ticks", 0)))
    return 0


def dist(ffile, sfile, kind):
    full, _ = read_profile(ffile)
    samp, _ = read_profile(sfile)
    p, q = vec(full, kind), vec(samp, kind)
    sp, sq = sum(p.values()), sum(q.values())
    if sp == 0:
        die(ffile, "empty %s profile" % kind)
    if sq == 0:
        return 2.0
    return sum(abs(p.get(k, 0) / sp - q.get(k, 0) / sq) for k in set(p) | set(q))


def main(a):
    if len(a) == 7 and a[1] == "truth":
        return check_truth(*a[2:])
    if len(a) == 4 and a[1] == "window":
        return check_window(a[2], a[3])
    if len(a) in (4, 5) and a[1] == "dist":
        print("%.4f" % dist(a[2], a[3], a[4] if len(a) == 5 else "bb"))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
