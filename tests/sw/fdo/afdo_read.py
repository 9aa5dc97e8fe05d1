#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""afdo_read.py AFDO LLVMTEXT - decode a GCC 12 AutoFDO profile the way gcc/auto-profile.cc
reads it (read_profile, string_table::read, read_function_instance) and compare it with the
LLVM text profile tiprof wrote from the same input: the same functions, head counts, inline
call sites and line counts (LLVM lines with several discriminators merged by the maximum, as
GCC 12 keys lines by offset only; the GCC file's zero lines, code that never ran, are not in
the LLVM text). Exit 0 with a one-line summary, 1 with the first
difference. test-fdo-compiler."""
import struct
import sys


class Reader:
    def __init__(self, data):
        self.d, self.i = data, 0

    def u32(self):
        if self.i + 4 > len(self.d):
            raise ValueError('truncated at byte %d' % self.i)
        v = struct.unpack_from('<I', self.d, self.i)[0]
        self.i += 4
        return v

    def counter(self):
        lo = self.u32()
        return lo | self.u32() << 32

    def string(self):
        n = self.u32()
        s = self.d[self.i:self.i + n]
        if n == 0 or len(s) != n or s[-1] != 0:
            raise ValueError('bad string at byte %d' % (self.i - 4))
        self.i += n
        return s[:-1].decode()


def instance(r, names):
    name, npos, ncs = names[r.u32()], r.u32(), r.u32()
    node = {'name': name, 'lines': {}, 'calls': {}}
    for _ in range(npos):
        off = r.u32() & 0xffff0000
        nt, count = r.u32(), r.counter()
        node['lines'][off >> 16] = count
        for _ in range(nt):
            r.u32()
            r.counter()
            r.counter()
    for _ in range(ncs):
        off = r.u32()
        kid = instance(r, names)
        node['calls'][(off >> 16, kid['name'])] = kid
    return node


def read_afdo(path):
    r = Reader(open(path, 'rb').read())
    if r.u32() != 0x67636461:
        raise ValueError('magic')
    if r.u32() != 2:
        raise ValueError('version')
    r.u32()
    if r.u32() != 0xaa000000:
        raise ValueError('no name table')
    r.u32()
    names = [r.string() for _ in range(r.u32())]
    if r.u32() != 0xac000000:
        raise ValueError('no function section')
    r.u32()
    funcs = {}
    for _ in range(r.u32()):
        head = r.counter()
        f = instance(r, names)
        f['head'] = head
        funcs[f['name']] = f
    r.u32(), r.u32(), r.u32()
    if r.i != len(r.d):
        raise ValueError('%d bytes after the module section' % (len(r.d) - r.i))
    return funcs


def read_llvm(path):
    funcs, stack = {}, []
    for raw in open(path):
        depth = len(raw) - len(raw.lstrip(' '))
        line = raw.strip()
        if not line:
            continue
        if depth == 0:
            name, _, head = line.rsplit(':', 2)
            node = {'name': name, 'lines': {}, 'calls': {}, 'head': int(head)}
            funcs[name] = node
            stack = [node]
            continue
        del stack[depth:]
        loc, rest = line.split(': ', 1)
        off = int(loc.split('.')[0])
        first = rest.split()[0]
        if first.isdigit():
            stack[-1]['lines'][off] = max(stack[-1]['lines'].get(off, 0), int(first))
        else:
            name = first.rsplit(':', 1)[0]
            key = (off, name)
            kid = stack[-1]['calls'].setdefault(key, {'name': name, 'lines': {}, 'calls': {}})
            stack.append(kid)
    return funcs


def compare(a, b, where):
    # the GCC file also has the lines of blocks that never ran (count 0): LLVM text has none
    if {k: v for k, v in a['lines'].items() if v} != b['lines']:
        return '%s: lines %s (gcc file) vs %s (LLVM text)' % (where, sorted(a['lines'].items()),
                                                             sorted(b['lines'].items()))
    if set(a['calls']) != set(b['calls']):
        return '%s: inline call sites %s vs %s' % (where, sorted(a['calls']), sorted(b['calls']))
    for k in a['calls']:
        d = compare(a['calls'][k], b['calls'][k], '%s/%d:%s' % (where, k[0], k[1]))
        if d:
            return d
    return None


def main():
    try:
        g = read_afdo(sys.argv[1])
    except (ValueError, IndexError, UnicodeDecodeError) as e:
        sys.exit('%s: not a GCC 12 AutoFDO profile: %s' % (sys.argv[1], e))
    ll = read_llvm(sys.argv[2])
    if set(g) != set(ll):
        sys.exit('functions %s (gcc file) vs %s (LLVM text)' % (sorted(g), sorted(ll)))
    for name in g:
        if g[name]['head'] != ll[name]['head']:
            sys.exit('%s: head %d vs %d' % (name, g[name]['head'], ll[name]['head']))
        d = compare(g[name], ll[name], name)
        if d:
            sys.exit(d)
    nl = sum(len(f['lines']) for f in g.values())
    nz = sum(1 for f in g.values() for c in f['lines'].values() if not c)
    print('decoded: %d functions, %d top-level lines (%d of never-run code); heads, lines and '
          'inline sites = the LLVM text' % (len(g), nl, nz))


main()
