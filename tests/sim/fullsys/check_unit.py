#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Host-side check of the real driver on the real unit (tests/sim/fullsys/unit.sh).

The guest (unit_init.c) printed its sample files in base64 between TIPROF-FS-UNIT-FILE and
TIPROF-FS-UNIT-END lines; tiprof-fs --unit-log wrote every sample the unit's C model gave up
to a POP, as `tiprof dump` lines, and a last `model:` line (taken, lost, popped, left). This
script decodes the files, reads them with the host's `tiprof dump`, and checks:
  - the files' samples, in order (first file, second, third), equal the model's popped
    samples, line for line (cycle, commit state, bank, valid, privilege, context, address);
  - each file's header names the recorded program by its build-id (readelf's);
  - nothing else: the model's FIFO is empty at the end, and every sample the model lost to a
    full FIFO is in the files' lost_unit (sum), none lost on the software path;
  - the user-mode recording is all user samples and its hot spot is the workload's work()
    loop (at least 90% of its samples, by the init's symbol table).
  - the interrupt-storm recording (period 100, below the drain cost) has kernel samples and
    samples the unit lost.
Prints one line of figures and exits 0, or prints `FAIL <why>` and exits 1. --mutate
drop-sample|change-address|lost alters what was read from the first file (one sample
dropped, one address changed, one more lost sample), to show the check can fail.
"""
import argparse
import base64
import re
import subprocess
import sys

SAMPLE = re.compile(r'^(\d+): (cycle=.*)$')


def fail(msg):
    print('FAIL ' + msg)
    sys.exit(1)


def files_from_console(path):
    files, cur, name = [], None, None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\r\n')
            if line.startswith('TIPROF-FS-UNIT-FILE '):
                name, cur = line.split()[1], []
            elif line.startswith('TIPROF-B64 ') and cur is not None:
                cur.append(line[len('TIPROF-B64 '):])
            elif line.startswith('TIPROF-FS-UNIT-END ') and cur is not None:
                files.append((name, base64.b64decode(''.join(cur), validate=True)))
                cur = None
    return files


trailer_bid = {}  # sample file -> the build-id in its header, as `tiprof dump` prints it


def build_id(elf):
    """The GNU build-id of elf as binutils' readelf reads it (an independent reader)."""
    out = subprocess.run(['readelf', '-n', elf], capture_output=True, text=True)
    m = re.search(r'Build ID: ([0-9a-f]+)', out.stdout)
    if out.returncode or not m:
        fail('readelf -n %s: no build-id' % elf)
    return m.group(1)


def dump(tiprof, path):
    out = subprocess.run([tiprof, 'dump', path], capture_output=True, text=True)
    if out.returncode:
        fail('%s dump %s: %s' % (tiprof, path, out.stderr.strip()))
    samples, trailer = [], None
    for line in out.stdout.splitlines():
        m = SAMPLE.match(line)
        if m:
            samples.append(m.group(2))
        elif line.startswith('trailer: '):
            trailer = dict(kv.split('=') for kv in line[len('trailer: '):].split())
        elif line.startswith('workload: '):
            trailer_bid[path] = line.rsplit('build-id=', 1)[-1]
    if trailer is None:
        fail('%s: no trailer in the dump' % path)
    if int(trailer['samples']) != len(samples):
        fail('%s: trailer says %s samples, the dump has %d' % (path, trailer['samples'],
                                                              len(samples)))
    return samples, trailer


def symbols(nm, elf):
    out = subprocess.run([nm, '-S', '--defined-only', elf], capture_output=True, text=True)
    if out.returncode:
        fail('%s %s: %s' % (nm, elf, out.stderr.strip()))
    syms = {}
    for line in out.stdout.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in 'tT':
            syms[f[3]] = (int(f[0], 16), int(f[0], 16) + int(f[1], 16))
    return syms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('console')
    ap.add_argument('model_log')
    ap.add_argument('--tiprof', required=True)
    ap.add_argument('--nm', required=True)
    ap.add_argument('--init', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--mutate', choices=['drop-sample', 'change-address', 'lost'])
    a = ap.parse_args()

    files = files_from_console(a.console)
    if [n for n, _ in files] != ['/u.tps', '/k.tps', '/s.tps']:
        fail('want the files /u.tps, /k.tps and /s.tps on the console, found %s' %
             [n for n, _ in files])
    got, lost_unit, lost_sw, per_file = [], 0, 0, []
    for k, (name, data) in enumerate(files):
        path = '%s/guest-%s' % (a.out, name.strip('/'))
        with open(path, 'wb') as f:
            f.write(data)
        samples, trailer = dump(a.tiprof, path)
        if trailer_bid.get(path) != build_id(a.init):
            fail('%s: header build-id %s, the recorded program %s has %s' %
                 (path, trailer_bid.get(path), a.init, build_id(a.init)))
        lu, ls = int(trailer['lost_unit']), int(trailer['lost_sw'])
        if k == 0 and a.mutate == 'drop-sample' and len(samples) > 2:
            del samples[len(samples) // 2]
        if k == 0 and a.mutate == 'change-address' and samples:
            i = len(samples) // 2
            samples[i] = re.sub(r'\]=0x([0-9a-f]+)',
                                lambda m: ']=0x%016x' % (int(m.group(1), 16) + 2),
                                samples[i], count=1)
        if k == 0 and a.mutate == 'lost':
            lu += 1
        per_file.append((name, samples, lu, ls))
        got += samples
        lost_unit += lu
        lost_sw += ls

    want, model = [], None
    with open(a.model_log) as f:
        for line in f:
            m = SAMPLE.match(line.rstrip('\n'))
            if m:
                want.append(m.group(2))
            elif line.startswith('model: '):
                model = dict(kv.split('=') for kv in line[len('model: '):].split())
    if model is None:
        fail('%s: no model: line (did tiprof-fs finish?)' % a.model_log)

    # sample for sample
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            fail('sample %d of the files differs from the model\'s: file "%s", model "%s"'
                 % (i, g, w))
    if len(got) != len(want):
        fail('the files hold %d samples, the model gave up %d to POPs' % (len(got), len(want)))
    if int(model['popped']) != len(want) or int(model['left']) != 0:
        fail('model: %s popped %d lines; want every sample popped and none left' %
             (model, len(want)))
    # lost accounting: every sample the unit took is in a file or counted lost by the unit
    if lost_sw != 0:
        fail('%d samples lost on the software path (the AUX area should hold them all)' %
             lost_sw)
    if lost_unit != int(model['lost']):
        fail('the files count %d samples lost by the unit (lost_unit), the model lost %s' %
             (lost_unit, model['lost']))
    if int(model['taken']) != len(want):
        fail('the model stored %s samples and gave up %d' % (model['taken'], len(want)))

    # the user-mode recording: user samples, the hot loop on top
    name, usamples, _, _ = per_file[0]
    work = symbols(a.nm, a.init).get('work')
    if not work:
        fail('no symbol work in %s' % a.init)
    privs = set(re.search(r'priv=(\S+)', s).group(1) for s in usamples)
    if privs != {'U'}:
        fail('%s: privileges %s, want only U' % (name, sorted(privs)))
    addrs = [int(x, 16) for s in usamples for x in re.findall(r'\]=0x([0-9a-f]+)', s)]
    inwork = sum(1 for x in addrs if work[0] <= x < work[1])
    if not addrs or inwork < 0.9 * len(addrs):
        fail('%s: %d of %d sampled addresses in work() [%#x, %#x)' %
             (name, inwork, len(addrs), work[0], work[1]))
    kname, ksamples, klost, _ = per_file[1]
    kprivs = sorted(set(re.search(r'priv=(\S+)', s).group(1) for s in ksamples))
    # the storm (period 100, below the drain cost): kernel samples, and the unit lost some
    sname, ssamples, slost, _ = per_file[2]
    sprivs = set(re.search(r'priv=(\S+)', s).group(1) for s in ssamples)
    if 'S' not in sprivs or slost == 0:
        fail('%s: privileges %s, %d lost by the unit; want S samples and losses' %
             (sname, sorted(sprivs), slost))
    states = {}
    for s in got:
        st = s.split()[1]
        states[st] = states.get(st, 0) + 1
    print('%d samples = the C model\'s, in order (%s %d: %d of %d addresses in work(); '
          '%s %d, privileges %s, %d lost by the unit; %s %d, %d lost; %d lost in all = the '
          'model\'s); states %s' %
          (len(got), name, len(usamples), inwork, len(addrs), kname, len(ksamples),
           '/'.join(kprivs), klost, sname, len(ssamples), slost, lost_unit,
           ' '.join('%s=%d' % kv for kv in sorted(states.items()))))


if __name__ == '__main__':
    main()
