#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""vcd_check.py - a small standalone VCD (IEEE 1364 §18) reader that checks
a VCD against an expected-values file, value by value at every time.

  vcd_check.py compare [--strict] FILE.vcd FILE.exp
      Read both; every signal of FILE.exp must be in FILE.vcd with the same
      width and vice versa, the timescales must agree, and at every time
      found in either file each signal's value must be equal. --strict also
      checks what our writer promises: time strictly increasing, no value
      written that equals the signal's current value (outside $dumpvars),
      no time step without a change except the last.
  vcd_check.py show FILE.vcd
      Print the parsed waveform as an expected-values file (for debugging).

Expected-values file (written by tests/lib/vcd/test_vcd.c and tests/lib/vcd/tiprof_vcd_counter_tb.sv):
  timescale <ts>             e.g. 1ns (spaces inside are ignored)
  var <hier.name> <width>    one per signal
  #<t>                       a time; may repeat (same step) but not decrease
  <hier.name> <value>        binary, left-extended like VCD (x -> x, else 0)
Later lines at the same time override earlier ones. Exits 0 when equal,
1 on a mismatch or a malformed file (with the first problems on stderr).
"""
import sys


class CheckError(Exception):
    """A malformed file or a mismatch; the message says where."""


def extend(value, width, where):
    """Return value (a VCD binary string) extended to width bits as VCD
    does: with x if it starts with x, z if with z, else 0."""
    v = value.lower()
    if not v or any(c not in "01xz" for c in v):
        raise CheckError(f"{where}: bad value {value!r}")
    if len(v) > width:
        # Leading zeros beyond the width are harmless; anything else is not.
        extra, v = v[: len(v) - width], v[len(v) - width:]
        if extra.strip("0"):
            raise CheckError(f"{where}: value {value!r} wider than {width} bits")
    pad = v[0] if v[0] in "xz" else "0"
    return pad * (width - len(v)) + v


class Waveform:
    """Signals (hierarchical name -> width) and, per time, the values set at
    that time (name -> full-width string), in time order."""

    def __init__(self):
        self.timescale = None
        self.widths = {}
        self.steps = []  # [(time, {name: value})], times increasing

    def at(self, t):
        """The change dict of time t, appended if t is new (t must not be
        less than the last time)."""
        if self.steps and self.steps[-1][0] == t:
            return self.steps[-1][1]
        if self.steps and t < self.steps[-1][0]:
            raise CheckError(f"time {t} after time {self.steps[-1][0]}")
        self.steps.append((t, {}))
        return self.steps[-1][1]


def norm_timescale(text):
    return "".join(text.split()).lower()


def parse_vcd(path, strict=False):
    """Parse a VCD file into a Waveform; with strict, also check the
    promises of our writer (see the module doc)."""
    with open(path, encoding="ascii") as f:
        toks = f.read().split()
    wf = Waveform()
    ids = {}  # identifier code -> [(name, width)]
    scope = []
    i, n = 0, len(toks)

    def until_end(start):
        j = start
        while j < n and toks[j] != "$end":
            j += 1
        if j == n:
            raise CheckError(f"{path}: missing $end after {toks[start - 1]}")
        return j

    # Header.
    while True:
        if i >= n:
            raise CheckError(f"{path}: no $enddefinitions")
        t = toks[i]
        if t in ("$date", "$version", "$comment"):
            i = until_end(i + 1) + 1
        elif t == "$timescale":
            j = until_end(i + 1)
            wf.timescale = norm_timescale("".join(toks[i + 1:j]))
            i = j + 1
        elif t == "$scope":
            j = until_end(i + 1)
            if j - i != 3:
                raise CheckError(f"{path}: bad $scope {toks[i:j + 1]}")
            scope.append(toks[i + 2])
            i = j + 1
        elif t == "$upscope":
            if not scope:
                raise CheckError(f"{path}: $upscope without $scope")
            scope.pop()
            i = until_end(i + 1) + 1
        elif t == "$var":
            j = until_end(i + 1)
            if j - i not in (5, 6):  # type size id ref [range]
                raise CheckError(f"{path}: bad $var {toks[i:j + 1]}")
            width, code, ref = int(toks[i + 2]), toks[i + 3], toks[i + 4]
            name = ".".join(scope + [ref])
            if name in wf.widths:
                raise CheckError(f"{path}: signal {name} declared twice")
            if strict and code in ids:
                raise CheckError(f"{path}: identifier {code!r} used twice")
            if strict and not all(33 <= ord(c) <= 126 for c in code):
                raise CheckError(f"{path}: identifier {code!r} not printable")
            wf.widths[name] = width
            ids.setdefault(code, []).append((name, width))
            i = j + 1
        elif t == "$enddefinitions":
            i = until_end(i + 1) + 1
            break
        else:
            raise CheckError(f"{path}: unexpected {t!r} in header")
    if scope:
        raise CheckError(f"{path}: scopes left open: {scope}")

    # Value changes.
    changes = None
    current = {}
    in_dumpvars = False
    last_time = None
    empty_steps = []

    def change(code, value):
        if code not in ids:
            raise CheckError(f"{path}: change of undeclared identifier {code!r}")
        if changes is None:
            raise CheckError(f"{path}: value change before the first time")
        for name, width in ids[code]:
            v = extend(value, width, f"{path}: {name} at #{last_time}")
            if strict and not in_dumpvars and current.get(name) == v:
                raise CheckError(f"{path}: {name} rewritten with its value {v} at #{last_time}")
            current[name] = v
            changes[name] = v

    while i < n:
        t = toks[i]
        if t[0] == "#":
            time = int(t[1:])
            if strict and last_time is not None:
                if time <= last_time:
                    raise CheckError(f"{path}: time #{time} after #{last_time}")
                if not changes:
                    empty_steps.append(last_time)
            changes = wf.at(time)
            last_time = time
            i += 1
        elif t in ("$dumpvars", "$dumpall", "$dumpon", "$dumpoff"):
            in_dumpvars = True
            i += 1
        elif t == "$end":
            in_dumpvars = False
            i += 1
        elif t == "$comment":
            i = until_end(i + 1) + 1
        elif t[0] in "bBrR":
            if i + 1 >= n:
                raise CheckError(f"{path}: value {t!r} without identifier")
            if t[0] in "rR":
                raise CheckError(f"{path}: real values are not supported")
            change(toks[i + 1], t[1:])
            i += 2
        elif t[0] in "01xXzZ":
            change(t[1:], t[0])
            i += 1
        else:
            raise CheckError(f"{path}: unexpected {t!r}")
    if strict and empty_steps:
        raise CheckError(f"{path}: time steps without a change: {empty_steps[:5]}")
    return wf


def parse_expect(path):
    """Parse an expected-values file into a Waveform."""
    wf = Waveform()
    changes = None
    with open(path, encoding="ascii") as f:
        for lineno, line in enumerate(f, 1):
            where = f"{path}:{lineno}"
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "timescale":
                wf.timescale = norm_timescale("".join(parts[1:]))
            elif parts[0] == "var" and len(parts) == 3:
                wf.widths[parts[1]] = int(parts[2])
            elif parts[0].startswith("#") and len(parts) == 1:
                changes = wf.at(int(parts[0][1:]))
            elif len(parts) == 2 and changes is not None:
                if parts[0] not in wf.widths:
                    raise CheckError(f"{where}: undeclared signal {parts[0]}")
                changes[parts[0]] = extend(parts[1], wf.widths[parts[0]], where)
            else:
                raise CheckError(f"{where}: cannot read {line.strip()!r}")
    return wf


def compare(got, want, got_name, want_name):
    """Compare two Waveforms; return a list of problems (empty if equal)."""
    problems = []
    if got.timescale != want.timescale:
        problems.append(f"timescale {got.timescale} in {got_name}, {want.timescale} in {want_name}")
    for name in sorted(set(got.widths) | set(want.widths)):
        if name not in got.widths:
            problems.append(f"{name} missing from {got_name}")
        elif name not in want.widths:
            problems.append(f"{name} not expected (in {got_name})")
        elif got.widths[name] != want.widths[name]:
            problems.append(f"{name}: width {got.widths[name]} in {got_name}, "
                            f"{want.widths[name]} in {want_name}")
    if problems:
        return problems
    if not got.steps or not want.steps:
        if got.steps or want.steps:
            problems.append("one file has value changes and the other none")
        return problems
    if got.steps[0][0] != want.steps[0][0]:
        return [f"first time #{got.steps[0][0]} in {got_name}, #{want.steps[0][0]} in {want_name}"]

    # Walk the union of times; the state at a time is every change up to it.
    g_state, w_state = {}, {}
    gi = wi = 0
    times = 0
    while gi < len(got.steps) or wi < len(want.steps):
        t = min(s[0] for s in (got.steps[gi] if gi < len(got.steps) else None,
                               want.steps[wi] if wi < len(want.steps) else None) if s)
        if gi < len(got.steps) and got.steps[gi][0] == t:
            g_state.update(got.steps[gi][1])
            gi += 1
        if wi < len(want.steps) and want.steps[wi][0] == t:
            w_state.update(want.steps[wi][1])
            wi += 1
        times += 1
        for name in want.widths:
            x = "x" * want.widths[name]
            g, w = g_state.get(name, x), w_state.get(name, x)
            if g != w:
                bit = next(len(g) - 1 - k for k in range(len(g)) if g[k] != w[k])
                problems.append(f"#{t} {name} bit {bit}: {short(g)} in {got_name}, "
                                f"{short(w)} in {want_name}")
                if len(problems) >= 10:
                    return problems
    compare.times = times
    return problems


def short(v):
    """Shorten a long value for a message."""
    return v if len(v) <= 40 else f"{v[:16]}...{v[-16:]} ({len(v)} bits)"


def main(argv):
    try:
        if len(argv) >= 3 and argv[1] == "compare":
            strict = "--strict" in argv[2:]
            files = [a for a in argv[2:] if a != "--strict"]
            if len(files) != 2:
                raise CheckError("usage: vcd_check.py compare [--strict] FILE.vcd FILE.exp")
            got = parse_vcd(files[0], strict)
            want = parse_expect(files[1])
            problems = compare(got, want, files[0], files[1])
            if problems:
                for p in problems:
                    print(f"vcd_check: {p}", file=sys.stderr)
                return 1
            print(f"vcd_check: {files[0]}: {len(want.widths)} signals equal at "
                  f"{compare.times} times")
            return 0
        if len(argv) == 3 and argv[1] == "show":
            wf = parse_vcd(argv[2])
            print(f"timescale {wf.timescale}")
            for name, width in wf.widths.items():
                print(f"var {name} {width}")
            for t, ch in wf.steps:
                print(f"#{t}")
                for name, v in ch.items():
                    print(f"{name} {v}")
            return 0
        raise CheckError("usage: vcd_check.py compare [--strict] FILE.vcd FILE.exp | show FILE.vcd")
    except (CheckError, OSError, ValueError) as e:
        print(f"vcd_check: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
