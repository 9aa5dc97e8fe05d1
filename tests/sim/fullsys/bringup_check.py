#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/sim/fullsys/bringup_check.py - host check of fpga/bringup.sh's run on tiprof-fs --unit
(tests/sim/fullsys/bringup.sh, make test-fullsys-bringup; docs/fullsys.md).

    bringup_check.py CONSOLE [--hot ADDR] [--mutate KIND]

CONSOLE is the machine's UART output. Every step of the script must have exactly one PASS line
and none may FAIL or SKIP: hot_loop and irq_rate included (the system tier's stand-in unit
skips those two); the summary line must count them (pass=9 fail=0 skip=0) and the init must
report the script's exit status 0. The registers step must report the simulated unit
(W=1 XLEN=64 FIFO=16, not the stand-in); the hot loop's divide must be at ADDR (the host's nm
of the static tiprof-hotloop, when given) and top the profile with more than a third of the
samples (a flat profile over the loop's 4 instructions puts it on top by chance a quarter of
the time); irq_rate must count at least one interrupt. --mutate damages the console text first
(skip-hot: hot_loop SKIP; no-irq: irq_rate line dropped; exit: exit status 1; wrong-hot: the
divide's address off by 4; flat: the divide's count lowered to a quarter of the samples), to
show that the check rejects it. Prints one line; exit 0 = PASS,
1 = FAIL (the line starts with FAIL), 2 = bad input."""
import re
import sys

STEPS = ("kernel", "firmware", "tiprof", "module", "registers", "hot_loop", "irq_rate",
         "record", "unload")


def mutate(text, kind):
    if kind == "skip-hot":
        return text.replace("bringup: hot_loop PASS", "bringup: hot_loop SKIP", 1)
    if kind == "no-irq":
        return re.sub(r"(?m)^bringup: irq_rate .*\n", "", text, count=1)
    if kind == "exit":
        return text.replace("TIPROF-FS-BRINGUP-EXIT 0", "TIPROF-FS-BRINGUP-EXIT 1", 1)
    if kind == "wrong-hot":
        return re.sub(r"the divide at (0x[0-9a-f]+)",
                      lambda m: "the divide at %#x" % (int(m.group(1), 16) + 4), text, count=1)
    if kind == "flat":
        return re.sub(r"tops the profile: (0x[0-9a-f]+:)?(\d+) of (\d+) samples",
                      lambda m: "tops the profile: %d of %s samples" % (int(m.group(3)) // 4,
                                                                      m.group(3)), text, count=1)
    raise SystemExit("bringup_check.py: unknown mutation '%s'" % kind)


def check(text, hot):
    lines = [l for l in text.replace("\r", "").split("\n")]
    steps = {}
    for l in lines:
        m = re.match(r"^bringup: (\w+) (PASS|FAIL|SKIP) ?(.*)$", l)
        if m:
            steps.setdefault(m.group(1), []).append((m.group(2), m.group(3)))
    errs = []
    for s in STEPS:
        got = steps.get(s, [])
        if len(got) != 1:
            errs.append("%s: %d lines, want 1" % (s, len(got)))
        elif got[0][0] != "PASS":
            errs.append("%s %s: %s" % (s, got[0][0], got[0][1]))
    for s in steps:
        if s not in STEPS:
            errs.append("unexpected step %s %s" % (s, steps[s][0][0]))
    done = [l for l in lines if l.startswith("bringup: done ")]
    if done != ["bringup: done pass=%d fail=0 skip=0" % len(STEPS)]:
        errs.append("summary %r, want 'bringup: done pass=%d fail=0 skip=0'" % (done, len(STEPS)))
    if "TIPROF-FS-BRINGUP-EXIT 0" not in lines:
        ex = [l for l in lines if l.startswith("TIPROF-FS-BRINGUP-EXIT")]
        errs.append("script exit: %r, want TIPROF-FS-BRINGUP-EXIT 0" % ex)
    for bad in ("Oops", "Kernel panic", "kernel BUG", "BUG:", "WARNING:", "Unable to handle",
                "Call Trace"):
        if bad in text:
            errs.append("the kernel log says %r" % bad)
    detail = {s: v[0][1] for s, v in steps.items() if len(v) == 1 and v[0][0] == "PASS"}
    if "registers" in detail:
        r = detail["registers"]
        if "W=1 XLEN=64 FIFO=16" not in r or "stand-in" in r:
            errs.append("registers: %r is not the simulated unit (W=1 XLEN=64 FIFO=16)" % r)
    info = ""
    if "hot_loop" in detail:
        m = re.match(r"the divide at (0x[0-9a-f]+) tops the profile: (0x[0-9a-f]+:)?(\d+) of "
                     r"(\d+) samples", detail["hot_loop"])
        if not m:
            errs.append("hot_loop: unreadable detail %r" % detail["hot_loop"])
        else:
            at, top, total = int(m.group(1), 16), int(m.group(3)), int(m.group(4))
            if hot is not None and at != hot:
                errs.append("hot_loop: the divide at %#x, but nm puts tiprof_hot at %#x" % (at, hot))
            # The loop is 4 instructions (divu, xor, addi, bnez). A core whose divide takes
            # longer than one cycle stalls its commit on it, so the divide has most of the
            # samples; on a machine that commits one instruction per cycle whatever it is
            # (tiprof-fs's functional ROB feed today) each has a quarter, and the divide is on
            # top by chance only. Want a share no such flat profile gives: above 1/3 (4 sigma
            # above 1/4 at 474 samples; a 20-cycle divider gives over 80 %).
            if not 0 < top <= total:
                errs.append("hot_loop: %d of %d samples" % (top, total))
            elif 3 * top <= total:
                errs.append("hot_loop: the divide tops the profile with %d of %d samples "
                            "(%.1f %%), no more than the loop's 4 instructions get in a flat "
                            "profile (25 %% each): on top by chance, not stalled on; is the "
                            "divide a one-cycle instruction on this machine?"
                            % (top, total, 100.0 * top / total))
            info += "divide %#x: %d of %d samples (%.0f %%)" % (at, top, total, 100.0 * top / max(total, 1))
    if "irq_rate" in detail:
        m = re.match(r"(\d+) interrupts in ([0-9.]+) s \((\d+)/s, (\d+) samples, FIFO (\d+)\)",
                     detail["irq_rate"])
        if not m:
            errs.append("irq_rate: unreadable detail %r" % detail["irq_rate"])
        else:
            n, samples = int(m.group(1)), int(m.group(4))
            if n < 1:
                errs.append("irq_rate: %d interrupts" % n)
            info += "; %d interrupts for %d samples (FIFO %s)" % (n, samples, m.group(5))
    if errs:
        return "FAIL " + "; ".join(errs)
    return "PASS %d steps; %s" % (len(STEPS), info)


def main(argv):
    args = list(argv[1:])
    hot = kind = None
    try:
        if "--hot" in args:
            i = args.index("--hot")
            hot = int(args[i + 1], 16)
            del args[i:i + 2]
        if "--mutate" in args:
            i = args.index("--mutate")
            kind = args[i + 1]
            del args[i:i + 2]
        if len(args) != 1:
            raise IndexError
    except (IndexError, ValueError):
        print("usage: bringup_check.py CONSOLE [--hot ADDR] [--mutate KIND]", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        print("bringup_check.py: %s: %s" % (args[0], e.strerror), file=sys.stderr)
        return 2
    if kind:
        text = mutate(text, kind)
    res = check(text, hot)
    print(res)
    return 0 if res.startswith("PASS") else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
