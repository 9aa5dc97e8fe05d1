#!/usr/bin/env python3
"""check.py - test-only checker of tiprof-lbr records against the truth.

usage: check.py DUMP EXACT OBJDUMP EXE [--exe-only] [--min N]
  DUMP     `tiprof-lbr dump` output of the traced run
  EXACT    lbr_exact output of a single-stepped run of the same program (ASLR off)
  OBJDUMP  `objdump -d --no-show-raw-insn EXE`
Checks (each failure printed, exit status 1 on any):
  1. objdump: every {from,to} whose `from` is in the executable: `from` is a control-transfer
     instruction; `to` is its target if direct; a return lands right after a call; any `to`
     inside the executable is an instruction boundary.
  2. exact: every stack (oldest..newest) is a consecutive run of the exact taken-branch trace
     of one thread (BREAK = signal/discontinuity separates runs). Stacks touching the dynamic
     loader or the tracer's own libraries are not checked (the exact run starts at the entry
     point); with --exe-only only stacks wholly inside the executable are (timing-dependent
     libc paths of multithreaded programs).
  3. at least --min stacks were checked against the exact trace."""
import re
import sys

CTI = re.compile(r'^(j[a-z]+|call|ret|loop[a-z]*|bnd j[a-z]+|notrack jmp|bnd ret|repz ret)\b')


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    exe_only = '--exe-only' in sys.argv
    min_checked = 10
    if '--min' in sys.argv:
        min_checked = int(sys.argv[sys.argv.index('--min') + 1])
        args.remove(str(min_checked))
    dump, exact, objd, exe = args
    # --- exact trace and maps
    maps, entry = [], None
    runs = {}  # tid -> list of (from,to) or None
    for line in open(exact):
        if line.startswith('# map '):
            f = line[6:].split()
            lo, hi = (int(x, 16) for x in f[0].split('-'))
            maps.append((lo, hi, f[5] if len(f) > 5 else ''))
            continue
        if line.startswith('# entry '):
            entry = int(line.split()[2], 16)
            continue
        if line.startswith('#'):
            continue
        f = line.split()
        seq = runs.setdefault(f[0], [])
        seq.append(None if f[1] == 'BREAK' else (int(f[1], 16), int(f[2], 16)))
    exe_ranges = [(lo, hi) for lo, hi, p in maps if p and p.endswith('/' + exe.split('/')[-1])]
    unchecked_ranges = [(lo, hi) for lo, hi, p in maps
                        if 'ld-linux' in p or 'libtiprof-lbr' in p or 'libZy' in p]
    base = min(lo for lo, hi in exe_ranges)
    in_exe = lambda a: any(lo <= a < hi for lo, hi in exe_ranges)
    in_unchecked = lambda a: any(lo <= a < hi for lo, hi in unchecked_ranges)
    # index: pair -> positions
    index = {}
    for tid, seq in runs.items():
        for i, p in enumerate(seq):
            if p is not None:
                index.setdefault(p, []).append((tid, i))
    # --- objdump
    insns = {}  # addr -> (mnemonic+operands text)
    for line in open(objd):
        m = re.match(r'^\s*([0-9a-f]+):\s+(.*)$', line)
        if m:
            insns[int(m.group(1), 16) + base] = m.group(2).strip()
    addrs = sorted(insns)
    nexti = {a: b for a, b in zip(addrs, addrs[1:])}
    after_call = {nexti[a] for a in addrs if a in nexti and insns[a].startswith('call')}
    # --- records
    fails, nstacks, nchecked, nunchecked, npairs, nobj = 0, 0, 0, 0, 0, 0

    def fail(msg):
        nonlocal fails
        fails += 1
        if fails <= 20:
            print('FAIL ' + msg)

    for line in open(dump):
        if not line.startswith('stack '):
            continue
        nstacks += 1
        pairs = [tuple(int(x, 16) for x in m.split('->')) for m in re.findall(r'0x[0-9a-f]+->0x[0-9a-f]+', line)]
        npairs += len(pairs)
        for fr, to in pairs:
            if in_exe(fr):
                nobj += 1
                ins = insns.get(fr)
                if ins is None or not CTI.match(ins):
                    fail('from %#x is not a control transfer in %s: %r' % (fr, exe, ins))
                    continue
                m = re.match(r'^(?:bnd |notrack )?(j[a-z]+|call|loop[a-z]*)\s+([0-9a-f]+) <', ins)
                if m and int(m.group(2), 16) + base != to:
                    fail('%#x: %s, but recorded target %#x' % (fr, ins, to))
                if ins.split()[0] in ('ret', 'repz', 'bnd') and 'ret' in ins and in_exe(to) and to not in after_call:
                    fail('%#x: return to %#x, which does not follow a call' % (fr, to))
            if in_exe(to) and to not in insns:
                fail('to %#x (from %#x) is not an instruction boundary' % (to, fr))
        if not pairs:
            continue
        addrs_all = [a for p in pairs for a in p]
        if any(in_unchecked(a) for a in addrs_all) or (exe_only and not all(in_exe(a) for a in addrs_all)):
            nunchecked += 1
            continue
        nchecked += 1
        ok = False
        for tid, i in index.get(pairs[0], []):
            seq = runs[tid]
            if seq[i:i + len(pairs)] == pairs:
                ok = True
                break
        if not ok:
            fail('stack is not a run of the exact trace: ' + ' '.join('%#x->%#x' % p for p in pairs))
    if nchecked < min_checked:
        fail('only %d stacks checked against the exact trace (want >= %d)' % (nchecked, min_checked))
    print('  %d stacks, %d pairs (%d in the executable checked with objdump), %d stacks checked '
          'against the exact trace, %d not (loader/tracer code%s), %d failures'
          % (nstacks, npairs, nobj, nchecked, nunchecked, ', or outside the exe' if exe_only else '', fails))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
