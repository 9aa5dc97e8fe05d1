#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check_ctr.py - RISC-V records in the CTR layout (docs/lbr.md §5.1), checked end to end.

  check_ctr.py DUMP OBJDUMP PERFSCRIPT HEADER [--mutate]

DUMP       `tiprof lbr dump` of a records file of riscv64 stacks (LBR_STACK_CTR: every entry
           printed as 0xFROM->0xTO/TYPE/MISP[/cc=N])
OBJDUMP    `riscv64-linux-gnu-objdump -d -M no-aliases` of the executable
PERFSCRIPT `perf script -F ip,brstack` of `tiprof lbr perf` of the same file
HEADER     `perf report --header-only` of that perf.data

Checks (1) every entry against objdump's view of the instruction at its source: a control
transfer; its CTR type derived here, independently of the tracer, from objdump's text by
the spec's table (Smctr/Ssctr 1.0, ctrdata.TYPE: taken branch 5, indirect call 8, direct
call 9, indirect jump 10, direct jump 11, co-routine swap 12, function return 13, other
indirect jump 14, other direct jump 15 - the RAS hints of x1/x5); a direct transfer's
target is objdump's; every target an instruction boundary; MISP shown unknown ('-'); no
cycle count (CCV = 0); (2) perf script prints, for every stack, the sample ip and the same
entries newest first, with mispredict '-' and perf's type for the CTR type (COND, CALL,
IND_CALL, RET, UNCOND, IND); (3) the perf.data header says arch riscv64 and has branch
stacks; (4) at least 100 stacks and every type of --need=T1,T2,... (default tkbr,dcall,ret)
present.
--mutate: the checks must fail on altered copies (one type changed; one target moved) -
exit 0 only if both are rejected.
"""
import re
import sys

TYPE_CODE = {'tkbr': 5, 'icall': 8, 'dcall': 9, 'ijmp': 10, 'djmp': 11, 'corswap': 12,
             'ret': 13, 'oijmp': 14, 'odjmp': 15}
PERF_NAME = {'tkbr': 'COND', 'icall': 'IND_CALL', 'dcall': 'CALL', 'ijmp': 'IND',
             'djmp': 'UNCOND', 'corswap': 'IND_CALL', 'ret': 'RET', 'oijmp': 'IND',
             'odjmp': 'UNCOND'}
BRANCHES = {'beq', 'bne', 'blt', 'bge', 'bltu', 'bgeu', 'c.beqz', 'c.bnez'}
LINK = {'ra', 't0'}


def load_objdump(path):
    insns = {}
    for line in open(path):
        m = re.match(r'^\s*([0-9a-f]+):\s+([0-9a-f]+)\s+(\S+)\s*([^<#]*)(<.*>)?', line)
        if not m:
            continue
        addr, enc, mn, ops = int(m.group(1), 16), m.group(2), m.group(3), m.group(4).strip()
        insns[addr] = (len(enc) // 2, mn, ops)
    return insns


def expected(mn, ops):
    """(CTR type name, direct target or None) of an instruction, from objdump's text."""
    o = [x.strip() for x in ops.split(',')] if ops else []
    if mn in BRANCHES:
        return 'tkbr', int(o[-1].split()[0], 16)
    if mn == 'c.j':
        return 'djmp', int(o[0].split()[0], 16)
    if mn == 'jal':
        rd = o[0] if len(o) == 2 else 'ra'
        t = int(o[-1].split()[0], 16)
        return ('dcall' if rd in LINK else 'djmp' if rd == 'zero' else 'odjmp'), t
    if mn in ('jalr', 'c.jr', 'c.jalr'):
        if mn == 'c.jr':
            rd, rs1 = 'zero', o[0]
        elif mn == 'c.jalr':
            rd, rs1 = 'ra', o[0]
        else:
            rd = o[0]
            m = re.match(r'(-?\d+)\((\w+)\)', o[1])
            rs1 = m.group(2)
        if rd in LINK and rs1 in LINK and rd != rs1:
            return 'corswap', None
        if rd in LINK:
            return 'icall', None
        if rs1 in LINK:
            return 'ret', None
        return ('ijmp' if rd == 'zero' else 'oijmp'), None
    return None, None


def parse_dump(lines):
    stacks = []
    for l in lines:
        if not l.startswith('stack '):
            continue
        flags = int(re.search(r' flags=(\d+)', l).group(1))
        sample = int(re.search(r' sample=(0x[0-9a-f]+)', l).group(1), 16)
        ents = re.findall(r' 0x([0-9a-f]+)->0x([0-9a-f]+)(\S*)', l)
        stacks.append((flags, sample, [(int(f, 16), int(t, 16), rest) for f, t, rest in ents]))
    return stacks


def check(stacks, insns, perf_lines, header, need=('tkbr', 'dcall', 'ret')):
    errs = []
    counts = {}
    for si, (flags, sample, ents) in enumerate(stacks):
        if not flags & 2:
            errs.append('stack %d: not in the CTR layout (flags %d)' % (si, flags))
            continue
        for f, t, rest in ents:
            parts = rest.split('/')[1:]
            if len(parts) != 2:
                errs.append('%#x->%#x: CTR fields %r (want TYPE/MISP, no cycle count)' % (f, t, rest))
                continue
            typ, misp = parts
            counts[typ] = counts.get(typ, 0) + 1
            if f not in insns:
                errs.append('%#x: not an instruction in objdump' % f)
                continue
            ln, mn, ops = insns[f]
            want, target = expected(mn, ops)
            if want is None:
                errs.append('%#x: %s %s is not a control transfer' % (f, mn, ops))
            elif want != typ:
                errs.append('%#x: %s %s: type %s, objdump says %s' % (f, mn, ops, typ, want))
            if target is not None and target != t:
                errs.append('%#x: %s %s: target %#x, objdump says %#x' % (f, mn, ops, t, target))
            if t not in insns:
                errs.append('%#x->%#x: target not an instruction boundary' % (f, t))
            if misp != '-':
                errs.append('%#x: MISP %r, the software tracer cannot know it (want -)' % (f, misp))
    errs += perf_compare(stacks, perf_lines, header)
    if len(stacks) < 100:
        errs.append('only %d stacks' % len(stacks))
    for typ in need:
        if not counts.get(typ):
            errs.append('no %s entry in the records' % typ)
    return errs, counts


def perf_compare(stacks, perf_lines, header):
    """perf script -F ip,brstack of tiprof lbr perf against the dumped stacks (in time order),
    and perf's header (arch riscv64, branch stacks). Returns the list of errors."""
    errs = []
    # perf script: one line per sample, "ip 0xF/0xT/M/X/A/cycles/TYPE/spec ..."
    samples = [l.split() for l in perf_lines if l.strip()]
    if len(samples) != len(stacks):
        errs.append('perf script: %d samples, records: %d stacks' % (len(samples), len(stacks)))
    for si, (sf, st) in enumerate(zip(samples, stacks)):
        ip = int(sf[0], 16)
        if ip != st[1]:
            errs.append('sample %d: perf ip %#x, record sample pc %#x' % (si, ip, st[1]))
        got = []
        for e in sf[1:]:
            p = e.split('/')
            got.append((int(p[0], 16), int(p[1], 16), p[2], p[5], p[6] if len(p) > 6 else ''))
        want = [(f, t, '-', '0', PERF_NAME.get((rest.split('/') + ['', ''])[1], '?'))
                for f, t, rest in reversed(st[2])]
        if got != want:
            errs.append('sample %d: perf script %s, records %s' % (si, got[:3], want[:3]))
    if not re.search(r'^# arch : riscv64$', header, re.M):
        errs.append('perf.data header: no "arch : riscv64"')
    if 'contains samples with branch stack' not in header:
        errs.append('perf.data header: no branch stack feature')
    return errs


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    if len(args) != 4:
        sys.exit(__doc__)
    dump = open(args[0]).read().splitlines()
    insns = load_objdump(args[1])
    perf_lines = open(args[2]).read().splitlines()
    header = open(args[3]).read()
    stacks = parse_dump(dump)
    if '--mutate' in sys.argv:
        rejected = 0
        # (a) one entry's type changed
        m = [list(s) for s in stacks]
        f, t, rest = m[0][2][0]
        m[0][2] = [(f, t, rest.replace('/' + rest.split('/')[1] + '/', '/odjmp/'))] + m[0][2][1:]
        rejected += bool(check(m, insns, perf_lines, header)[0])
        # (b) one entry's target moved by 2 bytes
        m = [list(s) for s in stacks]
        f, t, rest = m[1][2][0]
        m[1][2] = [(f, t + 2, rest)] + m[1][2][1:]
        rejected += bool(check(m, insns, perf_lines, header)[0])
        print('mutations rejected: %d of 2' % rejected)
        sys.exit(0 if rejected == 2 else 1)
    need = [a.split('=', 1)[1].split(',') for a in sys.argv if a.startswith('--need=')]
    errs, counts = check(stacks, insns, perf_lines, header, *need)
    for e in errs[:20]:
        print('FAIL ' + e)
    n = sum(len(s[2]) for s in stacks)
    print('%d stacks, %d entries checked against objdump and perf script; types %s' %
          (len(stacks), n, ' '.join('%s=%d' % kv for kv in sorted(counts.items()))))
    sys.exit(1 if errs else 0)


if __name__ == '__main__':
    main()
