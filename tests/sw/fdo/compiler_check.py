#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""compiler_check.py - did a compiler use our profile? (test-fdo-compiler, docs/fdo.md)

  compiler_check.py gcc   DUMP SHOW   DUMP: gcc -fdump-tree-optimized of the program compiled
                                      with -fauto-profile=OUR.afdo
  compiler_check.py clang LL   SHOW   LL: clang -emit-llvm -S with -fprofile-sample-use=OUR.txt

SHOW is `llvm-profdata show --sample` of the LLVM text profile written from the same input: an
independent reader's view of the counts (functions, head samples, line counts, inlinees
included). The check: the function FUNC (default mix: called, not inlined) gets the profile's
head count as its entry count (gcc: its first block's `count: H`; clang:
function_entry_count = H + 1), and at least two distinct line counts >= 10 of the hot function
HOT (default hot) appear as block counts there (gcc), or at least one as a branch weight
(w or w - 1; clang's weights are edge counts, sums of blocks') - counts the compiler can only
have found by matching our line offsets. Exit 0 and one line of
what matched, or exit 1 and why not.
"""
import re
import sys


def read_show(path):
    funcs, cur = {}, None
    for line in open(path):
        m = re.match(r'Function: (\S+): (\d+), (\d+), ', line)
        if m:
            cur = m.group(1)
            funcs[cur] = {'total': int(m.group(2)), 'head': int(m.group(3)), 'lines': set()}
            continue
        m = re.match(r'\s+\d+(?:\.\d+)?: (\d+)(?:,|$)', line)
        if m and cur:
            funcs[cur]['lines'].add(int(m.group(1)))
    return funcs


def gcc_functions(path):
    """function name -> list of block counts ([count: N] lines) in a -fdump-tree-optimized."""
    out, cur = {}, None
    for line in open(path):
        m = re.match(r';; Function (\S+) ', line)
        if m:
            cur = m.group(1)
            out[cur] = []
            continue
        m = re.search(r'<bb \d+> \[count: (\d+)', line)
        if m and cur:
            out[cur].append(int(m.group(1)))
    return out


def clang_functions(path):
    """function name -> (entry count or None, set of branch weights of its branches)."""
    text = open(path).read()
    meta = {}
    for m in re.finditer(r'^!(\d+) = !\{!"(function_entry_count|branch_weights)", (.*)\}$', text,
                         re.M):
        meta[m.group(1)] = (m.group(2), [int(x) for x in re.findall(r'i\d+ (-?\d+)', m.group(3))])
    out = {}
    for m in re.finditer(r'^define [^@]*@([\w.]+)\(.*?\{\n(.*?)^\}', text, re.M | re.S):
        name, body = m.group(1), m.group(2)
        head = re.search(r'!prof !(\d+) \{', m.group(0).split('\n', 1)[0])
        entry = meta.get(head.group(1), (None, [None]))[1][0] if head else None
        weights = set()
        for p in re.findall(r'!prof !(\d+)', body):
            kind, vals = meta.get(p, (None, []))
            if kind == 'branch_weights':
                weights.update(vals)
        out[name] = (entry, weights)
    return out


def main():
    mode, ir, show = sys.argv[1:4]
    func = sys.argv[4] if len(sys.argv) > 4 else 'mix'
    hot = sys.argv[5] if len(sys.argv) > 5 else 'hot'
    prof = read_show(show)
    if func not in prof or hot not in prof:
        sys.exit('profile has no %s or no %s: %s' % (func, hot, sorted(prof)))
    head = prof[func]['head']
    lines = {c for c in prof[hot]['lines'] if c >= 10}
    if mode == 'gcc':
        fs = gcc_functions(ir)
        if func not in fs or not fs[func]:
            sys.exit('gcc: %s has no annotated block (no [count: N])' % func)
        if fs[func][0] != head:
            sys.exit('gcc: %s entry block count %d, profile head %d' % (func, fs[func][0], head))
        seen = lines & set(fs.get(hot, []))
        what = 'block counts'
    else:
        fs = clang_functions(ir)
        if func not in fs or fs[func][0] != head + 1:
            sys.exit('clang: %s function_entry_count %s, want head %d + 1' % (
                func, fs.get(func, (None,))[0], head))
        w = fs.get(hot, (None, set()))[1]
        seen = {c for c in lines if c in w or c + 1 in w}
        what = 'branch weights'
    need = 2 if mode == 'gcc' else 1
    if len(seen) < need:
        sys.exit('%s: %s of %s match %d of its line counts %s (want >= %d)' % (
            mode, what, hot, len(seen), sorted(lines), need))
    print('%s entry %d = head; %s line counts %s among its %s' % (
        func, head, hot, ','.join(map(str, sorted(seen))), what))


main()
