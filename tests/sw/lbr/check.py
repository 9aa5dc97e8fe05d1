#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check.py - test-only checker of tiprof-lbr records against the truth.

usage: check.py DUMP EXACT OBJDUMP EXE [--exe-only | --with-exe] [--min N] [--sessions N] [--stack-pids N]
                [--rseq] [--depth N]
  DUMP     `tiprof-lbr dump` output of the traced run
  EXACT    lbr_exact output of a single-stepped run of the same program (ASLR off), or `-`:
           no exact checks; the executable's load address then comes from the mmap records
           of the dump (programs that fork/exec: every session's own)
  OBJDUMP  `objdump -d --no-show-raw-insn EXE`
  --sessions N    at least N session records; --stack-pids N: stacks from at least N processes
  --rseq          no {from,to} inside the executable's rseq critical sections (`__rseq_cs`)
  --depth N       at least one stack has N entries
Checks (each failure printed, exit status 1 on any):
  1. objdump: every {from,to} whose `from` is in the executable: `from` is a control-transfer
     instruction; `to` is its target if direct; a return lands right after a call; any `to`
     inside the executable is an instruction boundary.
  2. exact: every stack (oldest..newest) is a consecutive run of the exact taken-branch trace
     of one thread (BREAK = signal/discontinuity separates runs). Stacks touching the dynamic
     loader or the tracer's own libraries are not checked (the exact run starts at the entry
     point); with --exe-only only stacks wholly inside the executable are (timing-dependent
     libc paths of multithreaded programs); with --with-exe only stacks with at least one
     address in the executable (a stack wholly in libc may come from before the entry point,
     where the exact run starts: libc called by the tracer's constructor).
  3. at least --min stacks were checked against the exact trace.
  4. straight paths (the RISC-V checker's rule, in the executable): from a stack's sampled PC
     to its first `from`, and from each `to` to the next `from`, the code runs straight - only
     conditional branches (not taken) and no jmp/call/ret on the way - whenever both ends
     are in the executable: a dropped or invented record shows here even in stacks the exact
     trace does not cover."""
import re
import sys

CTI = re.compile(r'^(j[a-z]+|call|ret|loop[a-z]*|bnd j[a-z]+|notrack jmp|bnd ret|repz ret)\b')


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    exe_only = '--exe-only' in sys.argv
    with_exe = '--with-exe' in sys.argv
    opt = {}
    for name in ('--min', '--sessions', '--stack-pids', '--depth'):
        if name in sys.argv:
            v = sys.argv[sys.argv.index(name) + 1]
            opt[name] = int(v)
            args.remove(v)
    min_checked = opt.get('--min', 10)
    dump, exact, objd, exe = args
    if exact == '-':
        return check_no_exact(dump, objd, exe, opt, min_checked)
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
    fails, nstacks, nchecked, nunchecked, npairs, nobj, maxnr = 0, 0, 0, 0, 0, 0, 0
    nstraight = 0

    def fail(msg):
        nonlocal fails
        fails += 1
        if fails <= 20:
            print('FAIL ' + msg)

    ours = True  # the stacks follow a session of the program (not of setarch, before its exec)
    for line in open(dump):
        if line.startswith('session '):
            ours = line.rstrip('\n').split(' exe=', 1)[-1].split('/')[-1] == exe.split('/')[-1]
        if not line.startswith('stack '):
            continue
        nstacks += 1
        pairs = [tuple(int(x, 16) for x in m.split('->')) for m in re.findall(r'0x[0-9a-f]+->0x[0-9a-f]+', line)]
        if not ours:
            # a stack of the launcher (`setarch -R`, traced until it execs the program): its
            # mappings are not the exact run's; a sample rarely lands there (seen once: libc's
            # execvp into the tracer's exec wrapper, counted as a failure before)
            npairs += len(pairs)
            nunchecked += 1
            continue
        npairs += len(pairs)
        maxnr = max(maxnr, len(pairs))
        m = re.search(r' sample=(0x[0-9a-f]+)', line)
        starts = ([int(m.group(1), 16)] if m else [None]) + [to for _, to in pairs]
        for a, b in zip(starts, [fr for fr, _ in pairs]):
            if a is None or not (in_exe(a) and in_exe(b)):
                continue
            nstraight += 1
            bad_at = straight_path(insns, nexti, a, b)
            if bad_at is not None:
                fail('no straight path from %#x to the next from %#x: %s at %#x'
                     % (a, b, insns.get(bad_at, 'no instruction'), bad_at))
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
        if any(in_unchecked(a) for a in addrs_all) or (exe_only and not all(in_exe(a) for a in addrs_all)) \
                or (with_exe and not any(in_exe(a) for a in addrs_all)):
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
    if maxnr < opt.get('--depth', 0):
        fail('longest stack has %d entries (want %d)' % (maxnr, opt['--depth']))
    print('  %d stacks, %d pairs (%d in the executable checked with objdump, %d straight paths), '
          '%d stacks checked against the exact trace, %d not (loader/tracer code%s), %d failures'
          % (nstacks, npairs, nobj, nstraight, nchecked, nunchecked, ', or outside the exe'
             if exe_only else ', or wholly outside the exe' if with_exe else '', fails))
    return 1 if fails else 0


UNCOND = re.compile(r'^(?:bnd |notrack |repz )?(jmp|call|ret|ud2|hlt|int3)\b')


def straight_path(insns, nexti, a, b):
    """None if the listing runs from a to b (b included, the transfer there) through
    instructions that are not unconditional transfers; else the address of the offender."""
    if b < a:
        return a
    while a < b:
        ins = insns.get(a)
        if ins is None or UNCOND.match(ins) or a not in nexti:
            return a
        a = nexti[a]
    return None if a == b else a


def rseq_ranges(exe):
    """Link-time [start, end) of the critical sections in EXE's __rseq_cs section (x86-64 ld
    writes the RELATIVE relocations' addends into the section, so the file has them)."""
    import subprocess
    out = subprocess.run(['readelf', '-x', '__rseq_cs', exe], capture_output=True, text=True).stdout
    data = b''
    for line in out.splitlines():
        m = re.match(r'^\s+0x[0-9a-f]+ ((?:[0-9a-f]{2,8} ?){1,4})', line)
        if m:
            data += bytes.fromhex(m.group(1).replace(' ', ''))
    res = []
    for o in range(0, len(data) - 31, 32):
        start = int.from_bytes(data[o + 8:o + 16], 'little')
        length = int.from_bytes(data[o + 16:o + 24], 'little')
        res.append((start, start + length))
    return res


def check_no_exact(dump, objd, exe, opt, min_checked):
    """Records of a program that forks and execs: objdump checks with each process's own load
    address (from the mmap records that follow its session record), session/process counts."""
    insns = {}
    for line in open(objd):
        m = re.match(r'^\s*([0-9a-f]+):\s+(.*)$', line)
        if m:
            insns[int(m.group(1), 16)] = m.group(2).strip()
    addrs = sorted(insns)
    nexti = {a: b for a, b in zip(addrs, addrs[1:])}
    after_call = {nexti[a] for a in addrs if a in nexti and insns[a].startswith('call')}
    cs = rseq_ranges(exe) if '--rseq' in sys.argv else []
    name = '/' + exe.split('/')[-1]
    fails, sessions, pids_with_stacks, nstacks, nchecked, npairs, maxnr = 0, 0, set(), 0, 0, 0, 0
    exe_map = {}      # pid -> (lo, hi, base) of the executable text of its current image
    tid_pid = {}

    def fail(msg):
        nonlocal fails
        fails += 1
        if fails <= 20:
            print('FAIL ' + msg)

    for line in open(dump):
        f = line.split()
        if not f:
            continue
        kv = dict(x.split('=', 1) for x in f[1:] if '=' in x)
        if f[0] == 'session':
            sessions += 1
            exe_map.pop(int(kv['pid']), None)
        elif f[0] == 'mmap' and kv['path'].endswith(name) and 'x' in kv['prot']:
            lo, hi, off = int(kv['start'], 16), int(kv['end'], 16), int(kv['pgoff'], 16)
            exe_map[int(kv['pid'])] = (lo, hi, lo - off)
        elif f[0] == 'thread':
            tid_pid[kv['tid']] = int(kv['pid'])
        elif f[0] == 'stack':
            nstacks += 1
            pid = tid_pid.get(kv['tid'])
            pairs = [tuple(int(x, 16) for x in m.split('->'))
                     for m in re.findall(r'0x[0-9a-f]+->0x[0-9a-f]+', line)]
            maxnr = max(maxnr, len(pairs))
            if pid is None:
                fail('stack of an unknown thread ' + kv['tid'])
                continue
            if pairs:
                pids_with_stacks.add(pid)
            if pid not in exe_map:
                continue
            lo, hi, base = exe_map[pid]
            inside = lambda a: lo <= a < hi
            any_exe = False
            for fr, to in pairs:
                npairs += 1
                for a in (fr, to):
                    if inside(a) and any(s <= a - base < e for s, e in cs):
                        fail('%#x (pid %d) is inside an rseq critical section' % (a, pid))
                if inside(fr):
                    any_exe = True
                    ins = insns.get(fr - base)
                    if ins is None or not CTI.match(ins):
                        fail('from %#x is not a control transfer: %r' % (fr, ins))
                        continue
                    m = re.match(r'^(?:bnd |notrack )?(j[a-z]+|call|loop[a-z]*)\s+([0-9a-f]+) <', ins)
                    if m and int(m.group(2), 16) + base != to:
                        fail('%#x: %s, but recorded target %#x' % (fr, ins, to))
                    if 'ret' in ins.split()[0] and inside(to) and to - base not in after_call:
                        fail('%#x: return to %#x, which does not follow a call' % (fr, to))
                if inside(to) and to - base not in insns:
                    fail('to %#x (from %#x) is not an instruction boundary' % (to, fr))
            nchecked += any_exe
    if sessions < opt.get('--sessions', 0):
        fail('%d session records (want >= %d)' % (sessions, opt['--sessions']))
    if len(pids_with_stacks) < opt.get('--stack-pids', 0):
        fail('stacks from %d processes (want >= %d)' % (len(pids_with_stacks), opt['--stack-pids']))
    if maxnr < opt.get('--depth', 0):
        fail('longest stack has %d entries (want %d)' % (maxnr, opt['--depth']))
    if nchecked < min_checked:
        fail('only %d stacks checked against objdump (want >= %d)' % (nchecked, min_checked))
    print('  %d sessions, %d stacks from %d processes, %d pairs, %d stacks in the executable '
          'checked with objdump%s, %d failures'
          % (sessions, nstacks, len(pids_with_stacks), npairs, nchecked,
             ', none inside %d rseq critical section(s)' % len(cs) if cs else '', fails))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
