#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tests/sim/sampled/compare.py - the error sampled simulation itself introduces: compares a
# full detailed `tiprof accuracy` run with a sampled one (--windows) of the same program.
#   compare.py ELF FULL.orc FULL.json SAMPLED.orc SAMPLED.json [NAME]
# The .orc files are the runs' Oracle profiles (--oracle), the .json their reports (--json).
# Distance between two profiles = 1 - sum over symbols of min(share in a, share in b) (the
# project's error metric, docs/accuracy.md), at instruction and function level (functions from
# the ELF's symbol table). Prints one line: Oracle distances, CPI of both, and per policy the
# instruction-level error full -> sampled (speed-up: $SPEEDUP, the measured ratio of wall
# times, else the sampled run's own estimate); the last fields are machine-readable (key=value).
import json
import os
import subprocess
import sys


def read_orc(path):
    prof, insns, cycles = {}, 0, 0
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == 'cycles':
                cycles = int(w[1])
            elif w[0] == 'instructions':
                insns = int(w[1])
            elif len(w) >= 3 and all(c in '0123456789abcdef' for c in w[0]) and \
                    w[0] not in ('unit', 'width'):
                try:
                    prof[int(w[0], 16)] = sum(int(v) for v in w[2:])
                except ValueError:
                    pass
    return prof, insns, cycles


def functions(elf):
    out = subprocess.run(['riscv64-linux-gnu-nm', '-n', '--defined-only', elf],
                         capture_output=True, text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        w = line.split()
        if len(w) == 3 and w[1] in 'tTwW':
            syms.append((int(w[0], 16), w[2]))
    return syms


def by_function(prof, syms):
    import bisect
    addrs = [a for a, _ in syms]
    out = {}
    for pc, v in prof.items():
        i = bisect.bisect_right(addrs, pc) - 1
        name = syms[i][1] if i >= 0 else '?'
        out[name] = out.get(name, 0) + v
    return out


def dist(a, b):
    ta, tb = sum(a.values()), sum(b.values())
    if not ta or not tb:
        return 1.0
    return 1 - sum(min(a[k] / ta, b.get(k, 0) / tb) for k in a)


def main():
    elf, fo, fj, so, sj = sys.argv[1:6]
    name = sys.argv[6] if len(sys.argv) > 6 else elf
    fp, fi, fc = read_orc(fo)
    sp, si, sc = read_orc(so)
    syms = functions(elf)
    di = dist(fp, sp)
    df = dist(by_function(fp, syms), by_function(sp, syms))
    full, samp = json.load(open(fj)), json.load(open(sj))
    s = samp['sampling']
    pol = full['policies']
    errs = []
    dmax = 0.0
    for p in pol:
        a = pol[p]['instruction']
        b = samp['policies'][p]['instruction']
        dmax = max(dmax, abs(a - b))
        errs.append('%s %.1f->%.1f' % (p, 100 * a, 100 * b))
    vals = [pol[p]['instruction'] for p in pol]
    pairs = [abs(a - b) for i, a in enumerate(vals) for b in vals[i + 1:]]
    pairdiff = sum(pairs) / len(pairs) if pairs else 0
    meandiff = sum(abs(pol[p]['instruction'] - samp['policies'][p]['instruction'])
                   for p in pol) / len(pol)
    errs.insert(0, 'Ideal %.1f->%.1f' % (100 * full['ideal']['instruction'],
                                         100 * samp['ideal']['instruction']))
    print('%-10s detail %5.1f%% speed-up %4.1fx | Oracle distance inst %5.2f%% func %5.2f%% | '
          'CPI %.3f -> %.3f | samples %d -> %d | inst-level error %% full->sampled: %s | '
          'policy_err_maxdiff=%.4f policy_err_meandiff=%.4f policy_pairdiff=%.4f oracle_inst=%.4f oracle_func=%.4f '
          'cpi_rel=%.4f' %
          (name, 100 * s['detailed_fraction'],
           float(os.environ.get('SPEEDUP', s['speedup_estimate'])),
           100 * di, 100 * df, fc / fi, sc / si, full['samples'], samp['samples'],
           ', '.join(errs), dmax, meandiff, pairdiff, di, df,
           abs(sc / si - fc / fi) / (fc / fi)))


main()
