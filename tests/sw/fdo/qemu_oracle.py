#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""test-fdo's independent oracle for the exact profile: qemu-riscv64 -singlestep -d exec,nochain
logs every executed instruction (one translation block each) - another emulator, another
decoder. Counts every block start of the `tiprof iss --truth` file in that trace and checks the
file's block counts equal them, and that the file's edge counts conserve flow (each block's
count = its incoming edges = its outgoing edges; the run's last block may stop early).
Blocks are compared inside [LO, HI) (the test program's own functions: the C library's
start-up takes other paths where the two emulators answer a system call differently, e.g.
rseq). A block whose call never returned (exit) has fewer outgoing edges than its count: at
most 8 such blocks, by at most 1 each.
usage: qemu_oracle.py TRUTH QEMU_LOG LO HI"""
import collections
import re
import sys

truth, log = sys.argv[1], sys.argv[2]
lo, hi = int(sys.argv[3], 0), int(sys.argv[4], 0)
blocks, edges = {}, []
for line in open(truth):
    f = line.split()
    if f[0] == 'block':
        blocks[int(f[1], 16)] = float(f[2])
    elif f[0] == 'edge':
        edges.append((f[1], f[2], float(f[3])))
pcs = [int(m.group(1), 16) for m in re.finditer(r'^Trace \S+: \S+ \[[0-9a-f]+/([0-9a-f]+)/',
                                                 open(log).read(), re.M)]
count = collections.Counter(pc for pc in pcs if pc in blocks)
mine = [b for b in blocks if lo <= b < hi]
bad = [(hex(b), blocks[b], count[b]) for b in mine if blocks[b] != count[b]]
print(f"qemu: {len(pcs)} instructions; {len(mine)} executed blocks of the program, "
      f"{len(bad)} with another count")
for b in bad[:10]:
    print("  block %s: truth %g, qemu %d" % b)
fin, fout = collections.Counter(), collections.Counter()
for s, d, c in edges:
    if s != 'entry':
        fout[int(s, 16)] += c
    if d != 'exit':
        fin[int(d, 16)] += c
last = max((b for b in blocks if b <= pcs[-1]), default=None) if pcs else None
cons = [(hex(b), blocks[b], fin[b], fout[b]) for b in blocks
        if (fin[b] != blocks[b] or fout[b] != blocks[b]) and b != last
        and not (fin[b] == blocks[b] and fout[b] == blocks[b] - 1)]
noret = [b for b in blocks if fin[b] == blocks[b] and fout[b] == blocks[b] - 1]
if len(noret) > 8:
    cons += [(hex(b), blocks[b], fin[b], fout[b]) for b in noret]
print(f"calls that never returned: {len(noret)}")
print(f"flow conservation: {len(cons)} blocks break it")
for b in cons[:10]:
    print("  block %s: count %g, in %g, out %g" % b)
ndyn = sum(1 for s, d, c in edges if s != 'entry' and d != 'exit')
sys.exit(1 if bad or cons or not mine or ndyn == 0 else 0)
