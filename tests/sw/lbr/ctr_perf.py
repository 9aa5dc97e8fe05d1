#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ctr_perf.py - the riscv64 guest's CTR records through perf on the host (docs/lbr.md §9).

  ctr_perf.py CONSOLE PROG TIPROF WORKDIR

The system tier's guest records each program with the riscv64 tracer and prints `tiprof lbr
dump` of the records file to the console (TIPROF-LBR lines between TIPROF-LBR-BEGIN/END
PROG). The dump is lossless for what perf needs (session, threads, mappings, every stack
with every entry's ctrsource/ctrtarget/ctrdata fields), so this script writes the records
file back (version 2, EM_RISCV, the CTR entries as the tracer encoded them), converts it with
the host's `TIPROF lbr perf`, and checks `perf script -F ip,brstack` and the perf.data header
against the dumped stacks (check_ctr.perf_compare: every entry newest first, mispredict '-',
cycles 0, perf's type for the CTR type; arch riscv64). Also the round trip: `TIPROF lbr dump`
of the rebuilt file must print the same stack lines. Prints one summary line; exit 1 on a
mismatch.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_ctr import TYPE_CODE, perf_compare, parse_dump  # noqa: E402

EM_RISCV = 243


def rec(t, body):
    body += b'\0' * (-len(body) % 8)
    return struct.pack('<II', t, 8 + len(body)) + body


def kv(line):
    return dict(re.findall(r'(\w+)=(\S+)', line))


def undump(lines):
    """The records file of `tiprof lbr dump` lines (sessions, threads, mappings, stacks)."""
    f = b'TIPRLBR\0' + struct.pack('<III', 2, 32, EM_RISCV) + b'\0' * 12
    for l in lines:
        d = kv(l)
        if l.startswith('session '):
            exe = l.split(' exe=', 1)[1].encode() + b'\0'
            f += rec(1, struct.pack('<IIQIIQ', int(d['pid']), int(d['depth']), int(d['period']),
                                    int(d['event']), int(d['mech']), int(d['start'])) + exe)
        elif l.startswith('thread '):
            f += rec(2, struct.pack('<IIQ', int(d['pid']), int(d['tid']), int(d['time'])))
        elif l.startswith('mmap '):
            prot = sum(b for c, b in zip(d['prot'], (1, 2, 4)) if c != '-')
            path = l.split(' path=', 1)[1].encode() + b'\0'
            f += rec(5, struct.pack('<IIQQQ', int(d['pid']), prot, int(d['start'], 16),
                                    int(d['end'], 16), int(d['pgoff'], 16)) + path)
        elif l.startswith('stack '):
            flags = int(d['flags'])
            ents = re.findall(r' 0x([0-9a-f]+)->0x([0-9a-f]+)(\S*)', l)
            body = struct.pack('<IHHQQ', int(d['tid']), len(ents), flags, int(d['time']),
                               int(d['sample'], 16))
            for fr, to, rest in ents:
                if flags & 2:
                    p = rest.split('/')
                    if len(p) != 3 or p[1] not in TYPE_CODE:
                        raise ValueError('entry %s->%s: CTR fields %r' % (fr, to, rest))
                    misp = 1 if p[2] == 'M' else 0
                    body += struct.pack('<QQQ', int(fr, 16) | 1, int(to, 16) | misp,
                                        TYPE_CODE[p[1]])
                else:
                    body += struct.pack('<QQ', int(fr, 16), int(to, 16))
            f += rec(3, body)
    return f


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    console, prog, tiprof, work = sys.argv[1:]
    lines, inside = [], False
    for raw in open(console, errors='replace'):
        raw = raw.rstrip('\n')
        if raw == 'TIPROF-LBR-BEGIN ' + prog:
            inside = True
        elif raw.startswith('TIPROF-LBR-END ' + prog + ' '):
            break
        elif inside and raw.startswith('TIPROF-LBR '):
            lines.append(raw[len('TIPROF-LBR '):])
    if not lines:
        sys.exit('no TIPROF-LBR lines for %s in %s' % (prog, console))
    os.makedirs(work, exist_ok=True)
    # a private copy: in a shared build tree another make may relink tiprof meanwhile (seen
    # once: "Permission denied" executing it mid-write)
    own = os.path.join(work, 'tiprof')
    for attempt in range(5):
        try:
            shutil.copy2(tiprof, own)
            subprocess.run([own, 'version'], capture_output=True, check=True)
            break
        except (OSError, subprocess.CalledProcessError):
            time.sleep(2)
    tiprof = own
    lbr, pd = os.path.join(work, prog + '.ctr.lbr'), os.path.join(work, prog + '.ctr.perf')
    open(lbr, 'wb').write(undump(lines))
    redump = subprocess.run([tiprof, 'lbr', 'dump', lbr], capture_output=True, text=True).stdout
    want_st = [l for l in lines if l.startswith('stack ')]
    errs = []
    if [l for l in redump.splitlines() if l.startswith('stack ')] != want_st:
        errs.append('the rebuilt records file does not dump the same stacks')
    r = subprocess.run([tiprof, 'lbr', 'perf', lbr, '-o', pd], capture_output=True, text=True)
    if r.returncode:
        sys.exit('tiprof lbr perf: ' + r.stderr.strip())
    ps = subprocess.run(['perf', 'script', '-i', pd, '-F', 'ip,brstack'], capture_output=True,
                        text=True).stdout.splitlines()
    hdr = subprocess.run(['perf', 'report', '-i', pd, '--header-only'], capture_output=True,
                         text=True).stdout
    # perf orders samples by time (stable): so does this comparison
    stacks = parse_dump(want_st)
    times = [int(kv(l)['time']) for l in want_st]
    order = sorted(range(len(stacks)), key=lambda i: times[i])
    stacks = [stacks[i] for i in order]
    if not all(s[0] & 2 for s in stacks):
        errs.append('stacks not in the CTR layout')
    errs += perf_compare(stacks, ps, hdr)
    for e in errs[:10]:
        print('FAIL ' + e)
    n = sum(len(s[2]) for s in stacks)
    types = {}
    for s in stacks:
        for e in s[2]:
            t = e[2].split('/')[1]
            types[t] = types.get(t, 0) + 1
    print('%d stacks, %d CTR entries rebuilt from the guest dump (same dump), tiprof lbr perf -> '
          'perf script -F brstack on the host: %s; types %s'
          % (len(stacks), n, 'all equal, arch riscv64' if not errs else '%d errors' % len(errs),
             ' '.join('%s=%d' % kv for kv in sorted(types.items()))))
    sys.exit(1 if errs else 0)


if __name__ == '__main__':
    main()
