#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check_lbr_rv.py - host-side check of the riscv64 software branch tracer's records from the
system tier (tests/system/init.c, checks lbr_rv_*), against riscv64 objdump.

usage: check_lbr_rv.py CONSOLE EXE [--prog NAME] [--obj GUEST=HOST]... [--exact QEMU_LOG] [--min N]
                       [--min-exact N] [--threads N] [--exact-threads N] [--objdump CMD] [--readelf CMD]
                       [--mutate off-by-2|swap]
  CONSOLE  the guest's console text: `TIPROF-LBR-BEGIN NAME`, `TIPROF-LBR <tiprof lbr dump
           line>` lines, `TIPROF-LBR-END NAME <lines>` (the count proves no line was lost)
  --prog   NAME of the block to check (default: EXE's file name)
  EXE      the host copy of the traced executable (non-PIE), guest path given by the session
  --obj    host file of another guest object (loader, libc, the tracer): its code is checked
           too; addresses go through the records' mmap records (start, pgoff) and its PT_LOADs
  --exact  `qemu-riscv64 -singlestep -d nochain,exec` log of an untraced run of EXE: every
           stack wholly inside the executable must be a consecutive run of its taken branches
           (a multi-threaded program: of one thread's - qemu's `Trace N:` CPU index, one per
           live thread - so no stack may join branches of two threads)
  --threads N  a multi-threaded program: at least N threads traced (thread records), and
           stacks of at least --exact-threads (default N) different threads checked against
           the exact trace
  --mutate change the records before checking (the checker's own test: must fail)
Checks (each failure printed; exit status 1 on any):
  1. every `from` lies in an executable mapping; in an object we have (EXE, --obj) it is a
     control-transfer instruction (b*, c.beqz/c.bnez, jal, c.j, jalr, c.jr, c.jalr); a direct
     one's recorded `to` is objdump's target; a return (jalr/c.jr through ra or t0, no link)
     lands right after a call (jal/jalr linking ra or t0, c.jalr); every `to` in such an object
     is an instruction boundary;
  2. the code runs straight (only not-taken conditional branches, no jump) from a stack's
     sampled pc to its first `from`, and from each `to` to the next `from`;
  3. --exact: the stacks wholly inside the executable are runs of the exact trace;
  4. at least --min stacks checked wholly against objdump, and --min-exact (default --min)
     against the exact trace;
  5. --threads N: N threads traced, and --exact-threads of them have stacks checked against
     the exact trace.
Pairs whose `from` is outside the executable are counted per object."""
import bisect
import os
import re
import subprocess
import sys
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'sw', 'lbr'))
from check_ctr import expected as ctr_expected  # noqa: E402 (CTR type from objdump's text)

LINK = {'ra', 't0'}
COND = {'beq', 'bne', 'blt', 'bge', 'bltu', 'bgeu', 'c.beqz', 'c.bnez'}
DIRECT = COND | {'jal', 'c.j'}
INDIRECT = {'jalr', 'c.jr', 'c.jalr'}
INSN = re.compile(r'^\s*([0-9a-f]+):\s+([0-9a-f]{4}|[0-9a-f]{8})\s+([a-z]\S*)\s*(.*)$')


def die(msg):
    print('check_lbr_rv: ' + msg)
    sys.exit(1)


class Obj:
    """One object's code: runtime address -> (length, mnemonic, operands) of a mapping."""

    def __init__(self, guest, host, objdump, readelf):
        self.guest, self.host = guest, host
        self.objdump, self.readelf = objdump, readelf
        self.nm = re.sub(r'objdump$', 'nm', objdump)
        self.maps = []      # (start, end, pgoff) of its executable mappings in the guest
        self.loads = []     # (p_offset, p_vaddr, p_filesz) of its PT_LOADs
        self.xloads = []    # the executable ones, + flags
        self.insns = {}     # vaddr -> (len, mnemonic, operands)
        self.addrs = []
        self.after_call = set()
        self.loaded = False

    def headers(self):
        """Its PT_LOADs (once)."""
        if self.loads:
            return
        out = subprocess.run([self.readelf, '-lW', self.host], capture_output=True, text=True,
                             check=True).stdout
        for m in re.finditer(r'^\s*LOAD\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+0x[0-9a-f]+\s+'
                             r'0x([0-9a-f]+)\s+0x[0-9a-f]+\s+(R?\s?W?\s?E?)\s', out, re.M):
            load = tuple(int(x, 16) for x in m.groups()[:3])
            self.loads.append(load)
            if 'E' in m.group(4):
                self.xloads.append(load + (m.group(4),))

    def load(self, want=None):
        """Disassemble the object (once): all of it, or windows around the file offsets in
        @want, each from the function symbol before it (decoding from the middle of an
        instruction could stay misaligned for a while) to 64 bytes past it (libc is large:
        a whole listing takes seconds)."""
        if self.loaded:
            return
        self.loaded = True
        self.headers()
        windows = [(None, None)]
        if want:
            syms = [0]
            for nm_args in (['-D'], []):
                out = subprocess.run([self.nm] + nm_args + ['--defined-only', self.host],
                                     capture_output=True, text=True).stdout
                syms += [int(m.group(1), 16) for m in
                         re.finditer(r'^([0-9a-f]+) [tTiW] ', out, re.M)]
            syms.sort()
            windows = []
            for a in sorted(set(self.off_to_vaddr(o) for o in want) - {None}):
                lo = syms[bisect.bisect_right(syms, a) - 1]
                if windows and lo <= windows[-1][1]:
                    windows[-1] = (windows[-1][0], max(windows[-1][1], a + 64))
                else:
                    windows.append((lo, a + 64))
        for lo, hi in windows:
            args = [self.objdump, '-d', '-M', 'no-aliases', '-z']
            if lo is not None:
                args += ['--start-address=%#x' % lo, '--stop-address=%#x' % hi]
            out = subprocess.run(args + [self.host], capture_output=True, text=True,
                                 check=True).stdout
            for line in out.splitlines():
                m = INSN.match(line)
                if m:
                    a = int(m.group(1), 16)
                    self.insns[a] = (len(m.group(2)) // 2, m.group(3), m.group(4))
        self.addrs = sorted(self.insns)
        for a, (n, mn, ops) in self.insns.items():
            if is_call(mn, ops):
                self.after_call.add(a + n)

    def off_to_vaddr(self, off):
        for p_off, p_vaddr, p_sz in self.loads:
            if p_off <= off < p_off + p_sz:
                return off - p_off + p_vaddr
        return None

    def to_vaddr(self, rt):
        """Runtime address -> link-time vaddr, or None if not in our mappings."""
        for s, e, pgoff in self.maps:
            if s <= rt < e:
                return self.off_to_vaddr(rt - s + pgoff)
        return None

    def to_offset(self, rt):
        """Runtime address -> file offset, or None."""
        for s, e, pgoff in self.maps:
            if s <= rt < e:
                return rt - s + pgoff
        return None


def operands(ops):
    return [o.strip() for o in re.sub(r'\s*[#<].*$', '', ops).split(',')]


def is_call(mn, ops):
    if mn == 'c.jalr':
        return True
    if mn in ('jal', 'jalr'):
        return operands(ops)[0] in LINK
    return False


def is_ret(mn, ops):
    ops = operands(ops)
    if mn == 'c.jr':
        return ops[0] in LINK
    if mn == 'jalr':
        m = re.match(r'^-?\w*\((\w+)\)$', ops[-1])
        return ops[0] not in LINK and m is not None and m.group(1) in LINK
    return False


def direct_target(ops):
    return int(operands(ops)[-1], 16)


def parse_console(path, prog):
    """The dump lines of @prog: between `TIPROF-LBR-BEGIN prog` and `TIPROF-LBR-END prog n`."""
    lines, inside, end = [], False, None
    for raw in open(path, errors='replace'):
        raw = raw.rstrip('\n')
        f = raw.split()
        if raw.startswith('TIPROF-LBR-BEGIN ') and f[1:] == [prog]:
            inside = True
        elif raw.startswith('TIPROF-LBR-END ') and len(f) == 3 and f[1] == prog and inside:
            end = int(f[2])
            break
        elif raw.startswith('TIPROF-LBR ') and inside:
            lines.append(raw[len('TIPROF-LBR '):])
    if end is None:
        die('%s: no TIPROF-LBR-BEGIN/END %s lines (the guest did not dump the records)'
            % (path, prog))
    if end != len(lines):
        die('%s: %d TIPROF-LBR lines for %s, the guest printed %d' % (path, len(lines), prog, end))
    return lines


def insn_class(code, off):
    """Length and kind ('cond', 'jump' or '') of the RV64GC instruction at @off of @code."""
    h = code[off] | code[off + 1] << 8
    if h & 3 == 3:
        op = h & 0x7f
        return 4, 'cond' if op == 0x63 else 'jump' if op in (0x6f, 0x67) else ''
    f3, q = h >> 13, h & 3
    if q == 1 and f3 in (6, 7):
        return 2, 'cond'                                    # c.beqz, c.bnez
    if q == 1 and f3 == 5:
        return 2, 'jump'                                    # c.j
    if q == 2 and f3 == 4 and (h >> 2) & 31 == 0 and (h >> 7) & 31 != 0:
        return 2, 'jump'                                    # c.jr, c.jalr
    return 2, ''


def exact_pairs(log, regions):
    """Taken branches from a qemu -singlestep exec log, as pairs of (object, vaddr) keys.
    @regions: (lo, hi, object name, load bias, code bytes, p_offset - p_vaddr) of the code
    the trace can follow. None = a break: the code left those objects, or a discontinuity
    that is no branch (a signal), so no stack can span this point."""
    # per CPU index (qemu-user gives each live thread its own CPU; an exited thread's index
    # is reused by a later one), each thread's pcs in order; threads are kept apart by a
    # break (None) between their sequences
    per_cpu = {}
    for c, x in re.findall(r'^Trace (\d+): 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/',
                           open(log).read(), re.M):
        per_cpu.setdefault(int(c), []).append(int(x, 16))
    pcs, seq = [], []
    for c in sorted(per_cpu):
        p, s = exact_pairs_1(per_cpu[c], regions)
        pcs += p
        if seq and seq[-1] is not None:
            seq.append(None)
        seq += s
    return pcs, seq, len(per_cpu)


def exact_pairs_1(pcs, regions):
    """exact_pairs for one thread's pcs."""

    def key(pc):
        for lo, hi, name, bias, code, delta in regions:
            if lo <= pc < hi:
                return name, pc - bias, code, pc - bias + delta
        return None

    seq, keys = [], [key(pc) for pc in pcs]
    for (a, b), ka, kb in zip(zip(pcs, pcs[1:]), keys, keys[1:]):
        if ka is None:
            if seq and seq[-1] is not None:
                seq.append(None)
            continue
        n, kind = insn_class(ka[2], ka[3])
        pair = ((ka[0], ka[1]), (kb[0], kb[1])) if kb else None
        if kind == 'jump':
            seq.append(pair)            # a jump is taken, even to the next instruction
        elif b != a + n:
            # a taken conditional branch (one to the next instruction is not seen); anything
            # else (a signal) breaks the trace
            seq.append(pair if kind == 'cond' else None)
    return pcs, seq


def overlap(exe, obj_of, stacks, samples, pcs, seq, regions):
    """Similarity of the tracer's profile of the executable to the exact (single-stepped) run's,
    as for x86-64 against callgrind (docs/lbr.md section 7): function overlap = sum over
    functions of min(normalized instructions executed), the tracer's counted over the
    fall-through ranges of its stacks (sampled pc to first from, each to to the next from);
    edge overlap = the same over taken-branch edges (Chen et al., CGO 2010)."""
    syms = []
    out = subprocess.run([exe.nm, '-n', '--defined-only', exe.host], capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'tTwW':
            syms.append((int(f[0], 16), f[2]))
    addrs = [a for a, _ in syms]

    def func(v):
        i = bisect.bisect_right(addrs, v) - 1
        return syms[i][1] if i >= 0 else '?'

    exact_f, lbr_f, exact_e, lbr_e = {}, {}, {}, {}
    for pc in pcs:
        if any(lo <= pc < hi for lo, hi, *_ in regions):
            exact_f[func(pc)] = exact_f.get(func(pc), 0) + 1
    for p in seq:
        if p is not None and p[0][0] == exe.guest and p[1][0] == exe.guest:
            exact_e[p] = exact_e.get(p, 0) + 1

    def walk(a, b):
        v, vend = exe.to_vaddr(a), exe.to_vaddr(b)
        while v is not None and v <= vend and v in exe.insns:
            lbr_f[func(v)] = lbr_f.get(func(v), 0) + 1
            v += exe.insns[v][0]

    for st, sample in zip(stacks, samples):
        starts = [sample] + [to for _, to in st]
        ends = [fr for fr, _ in st]
        for a, b in zip(starts, ends):
            if obj_of(a) is exe and obj_of(b) is exe and a <= b:
                walk(a, b)
        for fr, to in st:
            if obj_of(fr) is exe and obj_of(to) is exe:
                k = ((exe.guest, exe.to_vaddr(fr)), (exe.guest, exe.to_vaddr(to)))
                lbr_e[k] = lbr_e.get(k, 0) + 1

    def ov(p, q):
        sp, sq = sum(p.values()), sum(q.values())
        if not sp or not sq:
            return 0.0
        return sum(min(p[k] / sp, q.get(k, 0) / sq) for k in p)

    return ('similarity to the exact run (executable only): function overlap %.1f%% over %d '
            'functions, edge overlap %.1f%% over %d edges'
            % (100 * ov(exact_f, lbr_f), len(exact_f), 100 * ov(exact_e, lbr_e), len(exact_e)))


def main():
    argv = sys.argv[1:]
    opts = {'--obj': [], '--prog': None, '--exact': None, '--min': '10',
            '--min-exact': None, '--objdump': 'riscv64-linux-gnu-objdump',
            '--readelf': 'riscv64-linux-gnu-readelf', '--mutate': None, '--threads': '0',
            '--exact-threads': None}
    pos = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in opts:
            if i + 1 >= len(argv):
                die('%s needs a value' % a)
            if a == '--obj':
                opts[a].append(argv[i + 1])
            else:
                opts[a] = argv[i + 1]
            i += 2
        else:
            pos.append(a)
            i += 1
    if len(pos) != 2:
        die('usage: check_lbr_rv.py CONSOLE EXE [--obj GUEST=HOST]... [--exact LOG] [--min N]')
    console, exe_host = pos
    min_checked = int(opts['--min'])
    min_exact = int(opts['--min-exact'] or min_checked)
    lines = parse_console(console, opts['--prog'] or os.path.basename(exe_host))

    # --- records
    session = [l for l in lines if l.startswith('session ')]
    if len(session) != 1:
        die('%d session records, want 1' % len(session))
    exe_guest = re.search(r' exe=(\S+)', session[0]).group(1)
    objs = {exe_guest: Obj(exe_guest, exe_host, opts['--objdump'], opts['--readelf'])}
    for spec in opts['--obj']:
        g, _, h = spec.partition('=')
        objs[g] = Obj(g, h, opts['--objdump'], opts['--readelf'])
    exe = objs[exe_guest]
    xmaps = []  # every executable mapping: (start, end, path)
    for l in lines:
        m = re.match(r'^mmap pid=\d+ start=0x([0-9a-f]+) end=0x([0-9a-f]+) pgoff=(0x[0-9a-f]+|0) '
                     r'prot=..x path=(.*)$', l)
        if m:
            s, e, pgoff = int(m.group(1), 16), int(m.group(2), 16), int(m.group(3), 16)
            if (s, e, m.group(4)) not in xmaps:
                xmaps.append((s, e, m.group(4)))
                if m.group(4) in objs:
                    objs[m.group(4)].maps.append((s, e, pgoff))
    if not exe.maps:
        # no mmap records (an older tracer): the non-PIE executable at its link addresses
        exe.load()
        exe.maps = [(l[1], l[1] + l[2], l[0]) for l in exe.loads]
    stacks, samples, ctypes, tids = [], [], [], []
    threads = {re.search(r' tid=(\d+)', l).group(1) for l in lines if l.startswith('thread ')}
    for l in lines:
        if l.startswith('stack '):
            tids.append(re.search(r' tid=(\d+)', l).group(1))
            # entries in the CTR layout (docs/lbr.md 5.1): 0xF->0xT/TYPE/MISP
            ctypes.append(re.findall(r'0x[0-9a-f]+->0x[0-9a-f]+/(\w+)/-', l)
                          if int(re.search(r' flags=(\d+)', l).group(1)) & 2 else None)
            stacks.append([tuple(int(x, 16) for x in p.split('->'))
                           for p in re.findall(r'0x[0-9a-f]+->0x[0-9a-f]+', l)])
            samples.append(int(re.search(r' sample=(0x[0-9a-f]+|0)', l).group(1), 16))
    if opts['--mutate'] == 'off-by-2':
        # the first direct transfer after a stack's first pair: its target is in the
        # instruction, so objdump alone refutes the change (an indirect one's is checked only
        # where an exact trace covers the stack: mutating one of those went unnoticed once)
        direct = ('tkbr', 'djmp', 'dcall', 'odjmp')
        done = False
        for st, ct in zip(stacks, ctypes):
            for i in range(1, len(st)):
                if ct is None or (i < len(ct) and ct[i] in direct):
                    st[i] = (st[i][0], st[i][1] + 2)
                    done = True
                    break
            if done:
                break
    elif opts['--mutate'] == 'swap':
        for st in stacks:
            if len(st) >= 3 and st[0] != st[1]:
                st[0], st[1] = st[1], st[0]
                break
    elif opts['--mutate']:
        die('unknown --mutate %s' % opts['--mutate'])

    def obj_of(rt):
        for o in objs.values():
            if any(s <= rt < e for s, e, _ in o.maps):
                return o
        return None

    def mapping_of(rt):
        return next((p for s, e, p in xmaps if s <= rt < e), None)

    # disassemble only around what the records and sampled pcs touch (libc is large)
    need = {}
    for st, sample in zip(stacks, samples):
        for a in [sample] + [a for p in st for a in p]:
            o = obj_of(a)
            if o:
                need.setdefault(o.guest, set()).add(o.to_offset(a))
    for g, offs in need.items():
        objs[g].load(None if objs[g] is exe else offs)

    fails = 0

    def fail(msg):
        nonlocal fails
        fails += 1
        if fails <= 20:
            print('FAIL ' + msg)

    def straight(o, a, b, what):
        """The code of object @o runs straight from @a to @b: only not-taken conditional
        branches on the way (no jump, no breakpoint)."""
        if obj_of(b) is not o or b < a:
            fail('%s: no straight path to the next from %#x' % (what, b))
            return
        v, vend = o.to_vaddr(a), o.to_vaddr(b)
        while v is not None and v < vend:
            cur = o.insns.get(v)
            if cur is None or (cur[1] not in COND and cur[1] in DIRECT | INDIRECT) \
                    or cur[1] in ('ebreak', 'c.ebreak'):
                fail('%s: the path to the next from %#x passes %s at %#x'
                     % (what, b, '%s %s' % cur[1:] if cur else 'no instruction', v - o.to_vaddr(a) + a))
                return
            v += cur[0]

    per_obj = {}
    npairs = nchecked = 0
    kinds = {'cond': 0, 'jump': 0, 'call': 0, 'ret': 0, 'icall': 0, 'ijump': 0}
    nctr = 0
    for si, (st, sample) in enumerate(zip(stacks, samples)):
        whole = True
        ct = ctypes[si] if si < len(ctypes) else None
        if ct is None or len(ct) != len(st):
            fail('stack %d: not in the CTR layout with MISP unknown on every entry' % si)
            ct = None
        # a stack starts at the sampled pc: straight from there to its first branch
        if st and obj_of(sample) is not None:
            straight(obj_of(sample), sample, st[0][0], 'sample %#x' % sample)
        for k, (fr, to) in enumerate(st):
            npairs += 1
            path = mapping_of(fr)
            if path is None:
                fail('from %#x is in no executable mapping' % fr)
                whole = False
                continue
            per_obj[path] = per_obj.get(path, 0) + 1
            o = obj_of(fr)
            if o is None:
                whole = False   # e.g. the vDSO: no file to disassemble
                continue
            vf = o.to_vaddr(fr)
            ins = o.insns.get(vf)
            if ins is None:
                fail('from %#x (%s+%#x) is not an instruction boundary' % (fr, o.guest, vf))
                continue
            n, mn, ops = ins
            if ct is not None:
                nctr += 1
                if ctr_expected(mn, ops)[0] != ct[k]:
                    fail('%#x: %s %s: CTR type %s, objdump says %s'
                         % (fr, mn, ops, ct[k], ctr_expected(mn, ops)[0]))
            if mn in DIRECT:
                want = fr + direct_target(ops) - vf
                if to != want:
                    fail('%#x: %s %s, but recorded target %#x' % (fr, mn, ops, to))
                kinds['cond' if mn in COND else 'call' if is_call(mn, ops) else 'jump'] += 1
            elif mn in INDIRECT:
                if is_ret(mn, ops):
                    kinds['ret'] += 1
                    ot = obj_of(to)
                    if ot is not None and ot.to_vaddr(to) not in ot.after_call:
                        fail('%#x: %s %s returns to %#x, which does not follow a call'
                             % (fr, mn, ops, to))
                else:
                    kinds['icall' if is_call(mn, ops) else 'ijump'] += 1
            else:
                fail('from %#x (%s+%#x) is not a control transfer: %s %s'
                     % (fr, o.guest, vf, mn, ops))
                continue
            ot = obj_of(to)
            if ot is None:
                whole = False
            elif ot.to_vaddr(to) not in ot.insns:
                fail('to %#x (from %#x) is not an instruction boundary' % (to, fr))
            # the straight path from this `to` to the next `from`
            if k + 1 < len(st) and ot is not None:
                straight(ot, to, st[k + 1][0], 'from %#x->%#x' % (fr, to))
        nchecked += whole

    nexact = 0
    exact_tids = {}     # tid -> stacks checked against the exact trace
    if opts['--exact']:
        # the executable only (non-PIE: the same addresses in both runs). libc's paths in
        # the exact run differ from the traced run's (the tracer is preloaded there: malloc
        # and stdio state, the sigaction wrappers), so stacks that touch libc are not checked.
        exe.headers()
        code = open(exe.host, 'rb').read()
        regions = [(p_vaddr, p_vaddr + p_sz, exe.guest, 0, code, p_off - p_vaddr)
                   for p_off, p_vaddr, p_sz, flags in exe.xloads]
        known = {exe}
        pcs, seq, ncpu = exact_pairs(opts['--exact'], regions)
        if not pcs:
            die('%s: no pcs (run qemu-riscv64 -singlestep -d nochain,exec)' % opts['--exact'])
        index = {}
        for i, p in enumerate(seq):
            if p is not None:
                index.setdefault(p, []).append(i)
        for st, tid in zip(stacks, tids):
            if not st or not all(obj_of(a) in known for p in st for a in p):
                continue
            nexact += 1
            exact_tids[tid] = exact_tids.get(tid, 0) + 1
            keys = [tuple((obj_of(a).guest, obj_of(a).to_vaddr(a)) for a in p) for p in st]
            if not any(seq[i:i + len(st)] == keys for i in index.get(keys[0], [])):
                fail('stack is not a run of the exact trace: '
                     + ' '.join('%#x->%#x' % p for p in st))
    similarity = ''
    if opts['--exact']:
        similarity = '; ' + overlap(exe, obj_of, stacks, samples, pcs, seq, regions)
    if nchecked < min_checked:
        fail('only %d stacks checked against objdump (want >= %d)' % (nchecked, min_checked))
    if opts['--exact'] and nexact < min_exact:
        fail('only %d stacks checked against the exact trace (want >= %d)' % (nexact, min_exact))
    want_threads = int(opts['--threads'])
    want_exact_threads = int(opts['--exact-threads'] or want_threads)
    threads_msg = ''
    if want_threads:
        if len(threads) < want_threads:
            fail('%d threads traced (want >= %d)' % (len(threads), want_threads))
        if len(exact_tids) < want_exact_threads:
            fail('stacks of %d threads checked against the exact trace (want >= %d)'
                 % (len(exact_tids), want_exact_threads))
        threads_msg = ('; %d threads traced, stacks of %d checked against the exact trace '
                       '(%s per thread; %d threads in the exact run)'
                       % (len(threads), len(exact_tids),
                          '-'.join(str(f(exact_tids.values())) for f in (min, max))
                          if exact_tids else '0', ncpu if opts['--exact'] else 0))
    outside = ', '.join('%d in %s' % (c, os.path.basename(p))
                        for p, c in sorted(per_obj.items()) if p != exe_guest) or 'none'
    print('%d stacks, %d pairs (%d from the executable; outside it: %s): %s; %d CTR types '
          'checked; %d stacks checked wholly against objdump, %d against the exact trace; '
          '%d failures%s'
          % (len(stacks), npairs, per_obj.get(exe_guest, 0), outside,
             ', '.join('%d %s' % (c, k) for k, c in kinds.items()), nctr, nchecked, nexact,
             fails, similarity + threads_msg))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
