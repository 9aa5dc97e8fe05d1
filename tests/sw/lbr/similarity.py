#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""similarity.py - how close a tiprof-lbr profile is to an exact one (bench-lbr, docs/lbr.md §7).

usage: similarity.py CALLGRIND_OUT DUMP [DUMP...] [--cache DIR] [--top N] [--json FILE]
       similarity.py exact EXACT DUMP [DUMP...] [--depth N] [--cache DIR] [--json FILE]
       similarity.py curve --ref DUMP...|self --run DUMP... [--callgrind CG] [--rate R]
                     [--cache DIR] [--json FILE]
  CALLGRIND_OUT  valgrind --tool=callgrind --collect-jumps=yes --dump-instr=yes output of a run
  DUMP           `tiprof-lbr dump` of traced runs of the *same* program and input (merged)

exact (docs/lbr.md section 11): the reference is the program's exact taken-branch trace
  (`lbr_exact`, single-stepped, same program and environment, ASLR off). Three profiles of the
  executable: the whole exact trace (every branch: instruction weighting), the tracer's stacks,
  and what a hardware LBR would have recorded *at the same sample instants*: for each tracer
  stack, its position in the exact trace (the last place where its pairs are a consecutive run
  of one thread's trace) and the depth branches *before* it (LBR: the most recent branches;
  the tracer records the next ones). Overlaps of each pair of them.
curve: overlap against a reference with the same weighting - a long high-rate run of the
  same command (--ref) - as a function of run length: the --run dumps (each a run at R
  stacks/s, default 100; concatenated in the given order, stacks in time order) cut into
  disjoint windows of N seconds (N * R stacks), the mean and minimum overlap of the windows
  for each N; also against callgrind (--callgrind) if given. The run length for 95 % is the
  first N whose mean reaches it, else extrapolated from a fit 1 - overlap = a * N^-b over the
  measured points (said so). The reference's own sampling noise is shown: the overlap of its
  two halves. `--ref self`: each window against all the other windows of the run (the same
  rate; a high-rate reference is biased: task-clock counts the tracer's own time, so its
  samples cluster right after the end of each stack).

Both profiles are put on the same footing: every address becomes (object file, ELF virtual
address) - callgrind prints object-relative addresses; the tracer's come through its mmap
records (load bias) and the objects' program headers - and the same symbolizer assigns it to
a function: the object's symbols (`nm`, `nm -D`) plus the targets of its direct calls
(`objdump -d`), so stripped binaries get functions too.

  function overlap (AutoFDO profile_diff style) = sum over functions of min(p_f, q_f), where
    p_f = callgrind's self instructions (Ir) of f / all Ir, and q_f = the instructions of f
    the tracer's stacks show executing: every fall-through range between two consecutive
    taken branches of a stack [to_i, from_i+1], instructions counted with objdump's listing.
  edge overlap (degree of overlap, Chen et al., CGO 2010) = sum over intra-procedural jump
    edges (source a jmp/jcc, target in the same function) of min of the normalized taken
    counts: callgrind's jump=/jcnd= lines vs the tracer's {from,to} pairs.
"""
import bisect
import collections
import json
import math
import os
import pickle
import re
import subprocess
import sys


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, errors='replace').stdout


class Obj:
    """An ELF object: instruction addresses (sorted), jump instructions, function starts."""

    def __init__(self, path):
        self.path = path
        self.loads = []  # (p_offset, p_vaddr, p_filesz)
        for line in run(['readelf', '-lW', path]).splitlines():
            f = line.split()
            if f and f[0] == 'LOAD':
                self.loads.append((int(f[1], 16), int(f[2], 16), int(f[4], 16)))
        addrs, jumps, starts = [], set(), {}
        rx = re.compile(r'^\s*([0-9a-f]+):\s+(\S+)(?:\s+([0-9a-f]+) <)?')
        for line in run(['objdump', '-d', '--no-show-raw-insn', '-w', path]).splitlines():
            m = rx.match(line)
            if not m:
                continue
            a = int(m.group(1), 16)
            mn = m.group(2)
            addrs.append(a)
            if mn in ('bnd', 'notrack'):
                mn = line.split()[2] if len(line.split()) > 2 else mn
            if mn.startswith('j') or mn.startswith('loop'):
                jumps.add(a)
            if mn.startswith('call') and m.group(3):
                starts.setdefault(int(m.group(3), 16), None)
        for opt in ([], ['-D']):
            for line in run(['nm', '-n', '--defined-only'] + opt + [path]).splitlines():
                f = line.split()
                if len(f) >= 3 and f[1] in 'TtWwi':
                    a = int(f[0], 16)
                    if a and starts.get(a) is None:
                        starts[a] = f[2].split('@')[0]
        self.addrs = sorted(set(addrs))
        self.jumps = jumps
        self.fstarts = sorted(starts)
        self.fnames = starts

    def vaddr(self, off):
        for po, pv, sz in self.loads:
            if po <= off < po + sz:
                return off - po + pv
        return None

    def func(self, va):
        i = bisect.bisect_right(self.fstarts, va) - 1
        return self.fstarts[i] if i >= 0 else 0

    def fname(self, fs):
        n = self.fnames.get(fs)
        return n if n else '%s+%#x' % (os.path.basename(self.path), fs)

    def count(self, lo, hi):
        """Instructions with lo <= address <= hi."""
        return bisect.bisect_right(self.addrs, hi) - bisect.bisect_left(self.addrs, lo)


class Objs:
    def __init__(self, cache):
        self.cache, self.objs = cache, {}

    def get(self, path):
        path = os.path.realpath(path)
        if path in self.objs:
            return self.objs[path]
        o = None
        if os.path.isfile(path):
            cp = None
            if self.cache:
                os.makedirs(self.cache, exist_ok=True)
                st = os.stat(path)
                cp = os.path.join(self.cache, '%s.%d.%d.pkl' % (
                    path.replace('/', '_'), st.st_size, int(st.st_mtime)))
                if os.path.exists(cp):
                    with open(cp, 'rb') as f:
                        o = pickle.load(f)
            if o is None:
                o = Obj(path)
                if cp:
                    with open(cp, 'wb') as f:
                        pickle.dump(o, f)
        self.objs[path] = o
        return o


def parse_pos(tok, last):
    if tok == '*':
        return last
    if tok[0] in '+-':
        return last + int(tok)
    return int(tok, 0)


def read_callgrind(path, objs):
    """-> (Counter (obj, va) -> Ir, Counter (obj, va) -> estimated cycles (None without
    --cache-sim), Counter (obj, src, dst) -> taken jumps). Estimated cycles: KCachegrind's
    formula Ir + 10 x L1 misses + 100 x last-level misses."""
    ir, cyc, jumps = collections.Counter(), collections.Counter(), collections.Counter()
    npos = 1
    events = ['Ir']
    weights = None
    obnames, ob = {}, None
    last = 0
    pending = None  # ('call',) or ('jump', target, count)
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if not line:
            continue
        c = line[0]
        if c.isdigit() or c in '+-*':
            f = line.split()
            pos = parse_pos(f[0], last)
            if pending and pending[0] == 'jump':
                if ob and pending[2]:
                    jumps[(ob, pos, pending[1])] += pending[2]
            elif not pending and ob and len(f) > npos:
                ir[(ob, pos)] += int(f[npos])
                if weights:
                    cyc[(ob, pos)] += sum(w * int(x) for w, x in zip(weights, f[npos:]))
            pending = None
            last = pos
            continue
        key, _, val = line.partition('=')
        if key == 'cob':  # may define a name id that a later ob= uses
            m = re.match(r'\((\d+)\)\s*(.+)', val)
            if m:
                obnames[m.group(1)] = m.group(2)
        elif key == 'ob':
            m = re.match(r'\((\d+)\)\s*(.*)', val)
            if m:
                if m.group(2):
                    obnames[m.group(1)] = m.group(2)
                name = obnames.get(m.group(1))
                ob = objs.get(name) if name and name.startswith('/') else None
            last = 0
        elif key == 'calls':
            pending = ('call',)
        elif key in ('jump', 'jcnd'):
            f = val.split()
            cnt = int(f[0].split('/')[0])
            pending = ('jump', parse_pos(f[1], last), cnt)
        elif line.startswith('positions:'):
            npos = len(line.split()) - 1
        elif line.startswith('events:'):
            events = line.split()[1:]
            if 'D1mr' in events:
                wt = {'Ir': 1, 'I1mr': 10, 'D1mr': 10, 'D1mw': 10, 'ILmr': 100, 'DLmr': 100, 'DLmw': 100}
                weights = [wt.get(e, 0) for e in events]
    return ir, (cyc if weights else None), jumps


def read_dumps(paths, objs):
    """-> (Counter (obj, va) range-start... instruction counts per function, jump edges)."""
    ranges = collections.Counter()  # (obj, lo_va, hi_va) -> occurrences
    samples = collections.Counter()  # (obj, va) of each stack's sample PC
    edges = collections.Counter()   # (obj, src_va, dst_va) -> count
    nstacks = 0
    for p in paths:
        maps, tid_pid = {}, {}
        for line in open(p):
            f = line.split()
            if not f:
                continue
            if f[0] in ('session', 'mmap', 'thread'):
                kv = dict(x.split('=', 1) for x in f[1:] if '=' in x)
                pid = kv['pid']
                if f[0] == 'session':
                    maps[pid] = []
                elif f[0] == 'mmap':
                    maps.setdefault(pid, []).append(
                        (int(kv['start'], 16), int(kv['end'], 16), int(kv['pgoff'], 16), kv['path']))
                else:
                    tid_pid[kv['tid']] = pid
                continue
            if f[0] != 'stack':
                continue
            nstacks += 1
            mp = maps.get(tid_pid.get(f[1].split('=')[1]), [])

            def where(a):
                for lo, hi, off, path in mp:
                    if lo <= a < hi:
                        o = objs.get(path)
                        if o is None:
                            return None, None
                        return o, o.vaddr(a - lo + off)
                return None, None

            pairs = [tuple(int(x, 16) for x in m.split('->'))
                     for m in re.findall(r'0x[0-9a-f]+->0x[0-9a-f]+', line)]
            so, sva = where(int(re.search(r'sample=(0x[0-9a-f]+)', line).group(1), 16))
            if so is not None and sva is not None:
                samples[(so, sva)] += 1
            loc = [(where(fr), where(to)) for fr, to in pairs]
            for (fo, fva), (to_, tva) in loc:
                if fo is not None and fo is to_:
                    edges[(fo, fva, tva)] += 1
            for i in range(len(pairs) - 1):
                (o1, a1), (o2, a2) = loc[i][1], loc[i + 1][0]
                if o1 is not None and o1 is o2 and a1 is not None and a2 is not None and a1 <= a2:
                    ranges[(o1, a1, a2)] += 1
    return ranges, edges, nstacks, samples


def read_stacks(paths, objs):
    """Every stack of the dumps, in file order: (time ns, tid, raw pairs, [(obj, lo, hi)]
    fall-through ranges between consecutive pairs, [(obj, src, dst)] pairs within one object)."""
    out = []
    for p in paths:
        maps, tid_pid = {}, {}
        for line in open(p):
            f = line.split()
            if not f:
                continue
            if f[0] in ('session', 'mmap', 'thread'):
                kv = dict(x.split('=', 1) for x in f[1:] if '=' in x)
                pid = kv['pid']
                if f[0] == 'session':
                    maps[pid] = []
                elif f[0] == 'mmap':
                    maps.setdefault(pid, []).append(
                        (int(kv['start'], 16), int(kv['end'], 16), int(kv['pgoff'], 16), kv['path']))
                else:
                    tid_pid[kv['tid']] = pid
                continue
            if f[0] != 'stack':
                continue
            tid = f[1].split('=')[1]
            where = locator(maps.get(tid_pid.get(tid), []), objs)
            pairs = [tuple(int(x, 16) for x in m.split('->'))
                     for m in re.findall(r'0x[0-9a-f]+->0x[0-9a-f]+', line)]
            t = int(re.search(r' time=(\d+)', line).group(1))
            out.append((t, tid, pairs) + window_profile(pairs, where))
    return out


def locator(mp, objs):
    """address -> (obj, vaddr) through mappings [(lo, hi, file offset, path)]."""
    cache = {}

    def where(a):
        if a in cache:
            return cache[a]
        r = (None, None)
        for lo, hi, off, path in mp:
            if lo <= a < hi:
                o = objs.get(path)
                if o is not None:
                    r = (o, o.vaddr(a - lo + off))
                break
        cache[a] = r
        return r
    return where


def window_profile(pairs, where):
    """Fall-through ranges and same-object edges of consecutive taken branches `pairs`."""
    loc = [(where(fr), where(to)) for fr, to in pairs]
    edges = [(fo, fva, tva) for (fo, fva), (to_, tva) in loc
             if fo is not None and fo is to_ and fva is not None and tva is not None]
    ranges = []
    for i in range(len(pairs) - 1):
        (o1, a1), (o2, a2) = loc[i][1], loc[i + 1][0]
        if o1 is not None and o1 is o2 and a1 is not None and a2 is not None and a1 <= a2:
            ranges.append((o1, a1, a2))
    return ranges, edges


def profiles(items, only=None):
    """Function (instructions, split at function starts) and intra-procedural jump-edge
    profiles from iterables of ((obj, lo, hi), n) ranges and ((obj, src, dst), n) edges;
    only: restrict to that object path."""
    ranges, edges = items
    fn, ed = collections.Counter(), collections.Counter()
    for (o, lo, hi), n in ranges:
        if only and o.path != only:
            continue
        i = bisect.bisect_right(o.fstarts, lo)
        cut = lo
        while i < len(o.fstarts) and o.fstarts[i] <= hi:
            fn[(o.path, o.func(cut))] += n * o.count(cut, o.fstarts[i] - 1)
            cut = o.fstarts[i]
            i += 1
        fn[(o.path, o.func(cut))] += n * o.count(cut, hi)
    for (o, s, d), n in edges:
        if (only and o.path != only) or s not in o.jumps or o.func(s) != o.func(d):
            continue
        ed[(o.path, s, d)] += n
    return normalize(fn), normalize(ed)


def of_stacks(stacks):
    r, e = collections.Counter(), collections.Counter()
    for st in stacks:
        r.update(st[3])
        e.update(st[4])
    return r.items(), e.items()


def main_exact(argv, opts):
    """similarity.py exact EXACT DUMP...: against the single-stepped trace (see above)."""
    if len(argv) < 2:
        sys.exit('similarity.py exact: usage: exact EXACT DUMP [DUMP...]')
    exact, dumps = argv[0], argv[1:]
    depth = int(opts.get('--depth', 16))
    objs = Objs(opts.get('--cache'))
    maps, runs, exe = [], {}, None
    try:
        lines = open(exact).read().splitlines()
    except OSError as e:
        sys.exit('similarity.py: cannot read %s: %s' % (exact, e.strerror))
    for line in lines:
        if line.startswith('# map '):
            f = line[6:].split()
            lo, hi = (int(x, 16) for x in f[0].split('-'))
            if 'x' in f[1] and len(f) > 5 and f[5].startswith('/'):
                maps.append((lo, hi, int(f[2], 16), f[5]))
        elif line and not line.startswith('#'):
            f = line.split()
            runs.setdefault(f[0], []).append(None if f[1] == 'BREAK' else (int(f[1], 16), int(f[2], 16)))
    if not runs:
        sys.exit('similarity.py: %s: no taken branches (not an lbr_exact trace)' % exact)
    where = locator(maps, objs)
    stacks = read_stacks(dumps, objs)
    if exe is None:  # the executable: the first mapping of a stack's session... or the dumps'
        for d in dumps:
            m = re.findall(r'^session .* exe=(\S+)', open(d).read(), re.M)
            if m:
                exe = os.path.realpath(m[-1])  # the last: `setarch -R` execs the program
                break
    # the whole trace
    tr, te = collections.Counter(), collections.Counter()
    index = {}
    for tid, seq in runs.items():
        for i, p in enumerate(seq):
            if p is not None:
                index.setdefault(p, []).append((tid, i))
        cur = []
        for p in seq + [None]:
            if p is None:
                r, e = window_profile(cur, where)
                tr.update(r)
                te.update(e)
                cur = []
            else:
                cur.append(p)
    # hardware LBR at the tracer's sample instants: the depth branches before each stack
    hr, he = collections.Counter(), collections.Counter()
    matched = 0
    for st in stacks:
        pairs = st[2]
        if not pairs:
            continue
        pos = [(tid, i) for tid, i in index.get(pairs[0], []) if runs[tid][i:i + len(pairs)] == pairs]
        if not pos:
            continue
        matched += 1
        tid, i = pos[-1]
        win = runs[tid][max(0, i - depth):i]
        while None in win:
            win = win[win.index(None) + 1:]
        r, e = window_profile(win, where)
        hr.update(r)
        he.update(e)
    truth = profiles((tr.items(), te.items()), exe)
    lbr = profiles(of_stacks(stacks), exe)
    hw = profiles((hr.items(), he.items()), exe)
    res = {'stacks': len(stacks), 'matched': matched, 'exe': exe, 'depth': depth,
           'tracer_vs_exact': [overlap(lbr[0], truth[0]), overlap(lbr[1], truth[1])],
           'hwlbr_vs_exact': [overlap(hw[0], truth[0]), overlap(hw[1], truth[1])],
           'tracer_vs_hwlbr': [overlap(lbr[0], hw[0]), overlap(lbr[1], hw[1])],
           'functions': len(truth[0]), 'edges': len(truth[1])}
    print('  %s: %d stacks, %d placed in the exact trace; executable only (%d functions, %d jump '
          'edges in the exact trace)' % (os.path.basename(exe or '?'), len(stacks), matched,
                                          res['functions'], res['edges']))
    for k, what in (('tracer_vs_exact', 'tracer stacks vs the whole exact trace'),
                    ('hwlbr_vs_exact', 'hardware LBR at the same instants vs the exact trace'),
                    ('tracer_vs_hwlbr', 'tracer stacks vs hardware LBR at the same instants')):
        print('  %-54s function %5.1f%%  edge %5.1f%%' % (what, 100 * res[k][0], 100 * res[k][1]))
    if '--json' in opts:
        with open(opts['--json'], 'w') as f:
            json.dump(res, f)
    return 0


def main_curve(argv, opts):
    """similarity.py curve --ref DUMP... --run DUMP...: overlap against run length."""
    ref, run_, cur = [], [], None
    for a in argv:
        if a in ('--ref', '--run'):
            cur = ref if a == '--ref' else run_
        elif cur is None:
            sys.exit('similarity.py curve: %s: dumps follow --ref or --run' % a)
        else:
            cur.append(a)
    if not ref or not run_:
        sys.exit('similarity.py curve: usage: curve --ref DUMP... --run DUMP...')
    rate = float(opts.get('--rate', 100))
    for d in run_:
        # the run's stacks stand for seconds at `rate`: every session must sample at it (a
        # reference dump in the --run list once made the long windows compare it with itself)
        try:
            periods = re.findall(r'^session .* period=(\d+) ', open(d).read(), re.M)
        except OSError as e:
            sys.exit('similarity.py: cannot read %s: %s' % (d, e.strerror))
        bad = [int(x) for x in periods if abs(1e9 / int(x) - rate) > 0.01 * rate]
        if bad or not periods:
            sys.exit('similarity.py curve: %s: sampled every %s ns, not at %g stacks/s (--rate)'
                     % (d, bad[0] if bad else '?', rate))
    objs = Objs(opts.get('--cache'))
    stacks = []
    for d in run_:
        stacks += sorted(read_stacks([d], objs), key=lambda st: st[0])
    self_ref = ref == ['self']
    rst = stacks if self_ref else read_stacks(ref, objs)
    refp = profiles(of_stacks(rst))
    half = len(rst) // 2
    h1, h2 = profiles(of_stacks(rst[:half])), profiles(of_stacks(rst[half:]))
    # --ref self: each window against all the other windows' stacks (the same rate, so the
    # same weighting; a high-rate run's samples cluster after the end of each stack)
    refs = [('rest' if self_ref else 'long run', refp)]
    if self_ref:
        tot_r, tot_e = collections.Counter(), collections.Counter()
        for st in stacks:
            tot_r.update(st[3])
            tot_e.update(st[4])
    if '--callgrind' in opts:
        ir, _, cg_jumps = read_callgrind(opts['--callgrind'], objs)
        fn, ed = collections.Counter(), collections.Counter()
        for (o, va), n in ir.items():
            fn[(o.path, o.func(va))] += n
        for (o, s_, d), n in cg_jumps.items():
            if s_ in o.jumps and o.func(s_) == o.func(d):
                ed[(o.path, s_, d)] += n
        refs.append(('callgrind', (normalize(fn), normalize(ed))))
    total_s = len(stacks) / rate
    print('  reference: %d stacks (its two halves overlap: function %.1f%%, edge %.1f%%); '
          'run: %d stacks = %.0f s at %g stacks/s'
          % (len(rst), 100 * overlap(h1[0], h2[0]), 100 * overlap(h1[1], h2[1]), len(stacks),
             total_s, rate))
    points = [n for n in (1, 2, 5, 10, 20, 30, 60, 120, 300) if n <= total_s]
    res = {'ref_stacks': len(rst), 'ref_halves': [overlap(h1[0], h2[0]), overlap(h1[1], h2[1])],
           'run_stacks': len(stacks), 'rate': rate, 'curve': {}, 'n95': {}}
    print('  %8s %8s  %s' % ('seconds', 'windows', '   '.join(
        '%-9s function mean/min   edge mean/min' % name for name, _ in refs)))
    for n in points:
        k = int(round(n * rate))
        wins = [stacks[i:i + k] for i in range(0, len(stacks) - k + 1, k)]
        row = {}
        for name, (rf, re_) in refs:
            fo, eo = [], []
            for w in wins:
                wr, we = of_stacks(w)
                pf, pe = profiles((wr, we))
                if self_ref and name == 'rest':
                    rest_r, rest_e = tot_r.copy(), tot_e.copy()
                    rest_r.subtract(dict(wr))
                    rest_e.subtract(dict(we))
                    rf, re_ = profiles(([(k, v) for k, v in rest_r.items() if v > 0],
                                        [(k, v) for k, v in rest_e.items() if v > 0]))
                fo.append(overlap(pf, rf))
                eo.append(overlap(pe, re_))
            row[name] = [sum(fo) / len(fo), min(fo), sum(eo) / len(eo), min(eo)]
        res['curve'][n] = row
        print('  %8d %8d  %s' % (n, len(wins), '   '.join(
            '%-9s %6.1f%% / %5.1f%%    %6.1f%% / %5.1f%%' % ((name,) + tuple(100 * x for x in row[name]))
            for name, _ in refs)))
    for name, _ in refs:
        res['n95'][name] = {}
        for j, what in ((0, 'function'), (2, 'edge')):
            pts = [(n, res['curve'][n][name][j]) for n in points]
            hit = next((n for n, o in pts if o >= 0.95), None)
            if hit is not None:
                msg, val = 'measured: %d s' % hit, hit
            else:
                fit = [(math.log(n), math.log(1 - o)) for n, o in pts if o < 1]
                if len(fit) >= 2:
                    mx = sum(x for x, _ in fit) / len(fit)
                    my = sum(y for _, y in fit) / len(fit)
                    sxx = sum((x - mx) ** 2 for x, _ in fit)
                    b = -sum((x - mx) * (y - my) for x, y in fit) / sxx if sxx else 0
                    a = math.exp(my + b * mx)
                    val = (a / 0.05) ** (1 / b) if b > 0.02 else float('inf')
                    if b < 0.2 or val > 100 * points[-1]:
                        # a sampling error falls as N^-0.5: a much flatter curve is a
                        # systematic gap
                        msg = ('not reached: the curve flattens at %.1f%% after %d s (fit 1 - '
                               'overlap = %.3f N^-%.2f: a systematic gap, not sampling noise)'
                               % (100 * pts[-1][1], points[-1], a, b))
                        val = None
                    else:
                        msg = 'extrapolated: %.0f s (fit 1 - overlap = %.3f N^-%.2f)' % (val, a, b)
                else:
                    val, msg = None, 'not enough points'
            res['n95'][name][what] = val
            print('  95%% %s overlap vs %s: %s' % (what, name, msg))
    if '--json' in opts:
        with open(opts['--json'], 'w') as f:
            json.dump(res, f)
    return 0


def normalize(c):
    tot = sum(c.values())
    return {k: v / tot for k, v in c.items()} if tot else {}


def overlap(p, q):
    return sum(min(p.get(k, 0), q.get(k, 0)) for k in set(p) | set(q))


def main():
    argv = sys.argv[1:]
    opts = {}
    for name in ('--cache', '--top', '--json', '--depth', '--rate', '--callgrind'):
        if name in argv:
            i = argv.index(name)
            if i + 1 >= len(argv):
                sys.exit('similarity.py: %s needs a value' % name)
            opts[name] = argv[i + 1]
            del argv[i:i + 2]
    if argv and argv[0] == 'exact':
        return main_exact(argv[1:], opts)
    if argv and argv[0] == 'curve':
        return main_curve(argv[1:], opts)
    cg, dumps = argv[0], argv[1:]
    objs = Objs(opts.get('--cache'))
    ir, cyc, cg_jumps = read_callgrind(cg, objs)
    ranges, lbr_edges, nstacks, samples = read_dumps(dumps, objs)

    # Function weights.
    fn_cg, fn_lbr, fn_cyc = collections.Counter(), collections.Counter(), collections.Counter()
    for (o, va), n in ir.items():
        fn_cg[(o.path, o.func(va))] += n
    for (o, va), n in (cyc or {}).items():
        fn_cyc[(o.path, o.func(va))] += n
    for (o, lo, hi), n in ranges.items():
        f1, f2 = o.func(lo), o.func(hi)
        if f1 == f2:
            fn_lbr[(o.path, f1)] += n * o.count(lo, hi)
        else:  # a fall-through across a function boundary: split at the starts
            i = bisect.bisect_right(o.fstarts, lo)
            cut = lo
            while i < len(o.fstarts) and o.fstarts[i] <= hi:
                fn_lbr[(o.path, o.func(cut))] += n * o.count(cut, o.fstarts[i] - 1)
                cut = o.fstarts[i]
                i += 1
            fn_lbr[(o.path, o.func(cut))] += n * o.count(cut, hi)
    # Intra-procedural jump edges, same filter on both sides.
    def edge_ok(o, s, d):
        return s in o.jumps and o.func(s) == o.func(d)
    ed_cg, ed_lbr = collections.Counter(), collections.Counter()
    for (o, s, d), n in cg_jumps.items():
        if edge_ok(o, s, d):
            ed_cg[(o.path, s, d)] += n
    for (o, s, d), n in lbr_edges.items():
        if s is not None and d is not None and edge_ok(o, s, d):
            ed_lbr[(o.path, s, d)] += n
    p, q = normalize(fn_cg), normalize(fn_lbr)
    fo = overlap(p, q)
    # The tracer samples on time (task-clock): as a time profile, its stacks weight each
    # function by where the samples land, i.e. by cycles; compare that too (samples per
    # function, sample PC symbolized) with callgrind's estimated cycles.
    fn_smp = collections.Counter()
    for (o, va), n in samples.items():
        fn_smp[(o.path, o.func(va))] += n
    pc, qs = normalize(fn_cyc), normalize(fn_smp)
    co = overlap(pc, qs) if pc else None
    io = overlap(normalize(fn_cg), qs)
    pe, qe = normalize(ed_cg), normalize(ed_lbr)
    eo = overlap(pe, qe)
    top = int(opts.get('--top', 8))
    names = {}
    for path, fs in set(p) | set(q):
        o = objs.get(path)
        names[(path, fs)] = o.fname(fs) if o else hex(fs)
    print('  function overlap %.1f%% over %d functions (callgrind %d with Ir, tracer %d); '
          'edge overlap %.1f%% over %d jump edges (callgrind %d, tracer %d); %d stacks'
          % (100 * fo, len(set(p) | set(q)), len(p), len(q), 100 * eo, len(set(pe) | set(qe)),
             len(pe), len(qe), nstacks))
    if co is not None:
        print('  sample PCs (time profile) vs callgrind estimated cycles: %.1f%%; vs Ir: %.1f%%'
              % (100 * co, 100 * io))
    print('  %-34s %9s %9s' % ('hottest functions (callgrind)', 'exact', 'tracer'))
    for k, v in sorted(p.items(), key=lambda kv: -kv[1])[:top]:
        print('  %-34.34s %8.2f%% %8.2f%%' % (names[k], 100 * v, 100 * q.get(k, 0)))
    if '--json' in opts:
        with open(opts['--json'], 'w') as f:
            json.dump({'function_overlap': fo, 'edge_overlap': eo, 'sample_vs_cycles': co,
                       'sample_vs_ir': io, 'functions': len(set(p) | set(q)),
                       'edges': len(set(pe) | set(qe)), 'stacks': nstacks,
                       'callgrind_ir': sum(fn_cg.values()), 'tracer_insns': sum(fn_lbr.values())}, f)
    return 0


if __name__ == '__main__':
    sys.exit(main())
