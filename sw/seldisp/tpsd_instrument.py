#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tpsd_instrument.py - add Xtpsd basic-block and call-graph counters to the assembler text
GCC writes (riscv64-linux-gnu-gcc -S), as docs/seldisp.md section 9 describes.

  tpsd_instrument.py [--kind bb|cg|both|none] [--tu NAME] IN.s -o OUT.s

Per function (`.type NAME, @function` and its label, up to `.size NAME`):
  entry   the timer poll (a countdown of function entries in __tpsd_cd; at zero, an
          out-of-line stub calls the runtime's __tpsd_tick_entry with t0 as link), then
          `pushpf` and `setpf MASK` - the patchable instruction (its address goes to section
          tpsd_entry; the runtime flips bit 25 to make it `resetpf MASK`)
  bb      `pf.inc 0, counter` at every basic-block leader: the function's entry, every label
          some instruction or jump table references, the instruction after a conditional
          branch
  cg      `pf.inc 1, counter` before every call (`call f`: edge caller->f; `jalr r`: the
          indirect call site, callee `*`) and tail call (`tail f`, an indirect `jr r` in a
          function without a jump table)
  exit    `poppf` before every `ret` / `jr ra` and tail call
Every counter gets a descriptor in section tpsd_desc (counter, site address, function,
callee), which the runtime (sw/seldisp/tpsd_rt.c) writes out at exit. Flags: 0 = blocks,
1 = call graph. Errors: one line naming the input, exit status 1.
"""
import re
import sys

BRANCHES = {"beq", "bne", "blt", "bge", "bltu", "bgeu", "beqz", "bnez", "blez", "bgez",
            "bltz", "bgtz", "bgt", "ble", "bgtu", "bleu"}
LABEL_RE = re.compile(r"^([A-Za-z0-9_.$]+):\s*(#.*)?$")
LREF_RE = re.compile(r"(\.L[A-Za-z0-9_.$]+)")
DATA_DIRS = {".word", ".dword", ".4byte", ".8byte", ".quad", ".long"}

# Xtpsd as .insn (include/tiprof/seldisp.h: custom-0 0x0b flag control, custom-1 0x2b pf.inc)
def insn_setpf(mask): return "\t.insn r 0x0b, 0, 0, x0, x0, x%d\n" % mask
INSN_PUSHPF = "\t.insn r 0x0b, 0, 2, x0, x0, x0\n"
INSN_POPPF = "\t.insn r 0x0b, 0, 3, x0, x0, x0\n"
def insn_pfinc(flag, sym): return "\t.insn j 0x2b, x%d, %s\n" % (flag, sym)


def fail(path, msg):
    sys.stderr.write("tpsd_instrument: %s: %s\n" % (path, msg))
    sys.exit(1)


def split_insn(line):
    """(mnemonic, [operands]) of an instruction line, or None for a directive/label/blank."""
    s = line.split("#", 1)[0].strip()
    if not s or s.startswith(".") or s.endswith(":") or LABEL_RE.match(s):
        return None
    parts = s.split(None, 1)
    ops = [o.strip() for o in parts[1].split(",")] if len(parts) > 1 else []
    return parts[0], ops


def section_of(line, cur):
    s = line.strip()
    m = re.match(r"\.section\s+([^,\s]+)", s)
    if m:
        return m.group(1)
    for d in (".text", ".data", ".bss", ".rodata"):
        if s == d:
            return d
    return cur


def is_code_section(sec):
    return sec == ".text" or sec.startswith(".text.")


def main(argv):
    kind, tu, inp, out = "both", None, None, None
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--kind" and i + 1 < len(argv):
            kind = argv[i + 1]; i += 2; continue
        if a == "--tu" and i + 1 < len(argv):
            tu = argv[i + 1]; i += 2; continue
        if a == "-o" and i + 1 < len(argv):
            out = argv[i + 1]; i += 2; continue
        if a.startswith("-"):
            fail(a, "unknown option (usage: tpsd_instrument.py [--kind bb|cg|both|none] IN.s -o OUT.s)")
        inp = a; i += 1
    if inp is None or out is None:
        fail("-", "usage: tpsd_instrument.py [--kind bb|cg|both|none] IN.s -o OUT.s")
    if kind not in ("bb", "cg", "both", "none"):
        fail(kind, "unknown kind (bb, cg, both or none)")
    do_bb, do_cg = kind in ("bb", "both"), kind in ("cg", "both")
    mask = (1 if do_bb else 0) | (2 if do_cg else 0)
    try:
        lines = open(inp).read().splitlines(True)
    except OSError as e:
        fail(inp, e.strerror)

    # Pass 1: labels referenced by instructions (branch targets, computed gotos) and by data
    # outside the debug sections (jump tables).
    insn_refs, data_refs = set(), set()
    sec = ".text"
    for ln in lines:
        sec = section_of(ln, sec)
        if sec.startswith(".debug"):
            continue
        s = ln.split("#", 1)[0].strip()
        if not s:
            continue
        w = s.split(None, 1)
        if w[0] in DATA_DIRS and len(w) > 1:
            data_refs.update(LREF_RE.findall(w[1]))
        elif split_insn(ln):
            insn_refs.update(LREF_RE.findall(s))
            # numeric local labels (inline asm): 1f / 1b
            for m in re.finditer(r"\b(\d+)[fb]\b", s):
                insn_refs.add(m.group(1))
    # functions: .type NAME, @function
    funcs = set(re.findall(r"^\s*\.type\s+([A-Za-z0-9_.$]+)\s*,\s*@function", "".join(lines), re.M))

    outl = []
    ncnt = 0          # counters of this unit
    descs = []        # (counter index, site label, function, callee or None)
    entries = []      # entry-site labels
    nlab = [0]

    def newlab(tag):
        nlab[0] += 1
        return ".Ltpsd_%s%d" % (tag, nlab[0])

    def counter(flag, fn, callee):
        nonlocal ncnt
        site = newlab("s")
        descs.append((ncnt, site, fn, callee))
        txt = "%s:\n%s" % (site, insn_pfinc(flag, ".Ltpsd_cnt+%d" % (8 * ncnt)))
        ncnt += 1
        return txt

    sec = ".text"
    fn = None                 # current function
    fn_has_table = False
    pending = False           # a block starts at the next instruction
    need_entry = False        # the entry sequence goes before the next insn or target label
    dead = False              # after an unconditional transfer, until a label
    stubs = []
    for idx, ln in enumerate(lines):
        sec = section_of(ln, sec)
        s = ln.strip()
        m = LABEL_RE.match(s)
        if fn is None:
            if m and m.group(1) in funcs and is_code_section(sec) and not m.group(1).startswith("__tpsd"):
                fn = m.group(1)
                # the function's own labels: does a jump table reference one?
                body = []
                for l2 in lines[idx + 1:]:
                    if re.match(r"\s*\.size\s+" + re.escape(fn) + r"\s*,", l2):
                        break
                    m2 = LABEL_RE.match(l2.strip())
                    if m2:
                        body.append(m2.group(1))
                fn_has_table = any(b in data_refs for b in body)
                need_entry, pending, dead = True, True, False
            outl.append(ln)
            continue
        if re.match(r"\.size\s+" + re.escape(fn) + r"\s*,", s):
            outl.extend(stubs)
            stubs = []
            fn = None
            outl.append(ln)
            continue
        if m:
            name = m.group(1)
            target = name in insn_refs or name in data_refs
            if target and need_entry:
                outl.append(entry_seq(fn, mask, newlab, entries, stubs))
                need_entry = False
            outl.append(ln)
            if target:
                pending, dead = True, False
            continue
        d = split_insn(ln)
        if d is None:
            outl.append(ln)
            continue
        op, ops = d
        if need_entry:
            outl.append(entry_seq(fn, mask, newlab, entries, stubs))
            need_entry = False
        if pending and not dead and do_bb:
            outl.append(counter(0, fn, None))
        pending = False
        # calls, tail calls, returns
        pre = ""
        if op == "call" or (op == "jal" and len(ops) == 2 and ops[0] == "ra") or (op == "jal" and len(ops) == 1):
            if do_cg:
                pre += counter(1, fn, ops[-1].split("@")[0])
        elif op == "jalr" and (len(ops) == 1 or ops[0] == "ra"):
            if do_cg:
                pre += counter(1, fn, "*")
        elif op == "tail" or (op == "jr" and ops and ops[0] != "ra" and not fn_has_table):
            if do_cg:
                pre += counter(1, fn, ops[0].split("@")[0] if op == "tail" else "*")
            pre += INSN_POPPF
        elif op == "ret" or (op == "jr" and ops and ops[0] == "ra") or \
                (op == "jalr" and ops and ops[0] in ("zero", "x0") and "ra" in ops[1:]):
            pre += INSN_POPPF
        outl.append(pre + ln)
        if op in BRANCHES:
            pending = True
        elif op in ("j", "jr", "ret", "tail") or (op == "jal" and ops and ops[0] in ("zero", "x0")):
            dead = True
    if fn is not None:
        fail(inp, "function %s has no .size directive" % fn)

    # the unit's counters, descriptors and entry sites
    if ncnt or entries:
        tail = ["\t.section tpsd_cnt,\"aw\",@nobits\n", "\t.align 3\n",
                ".Ltpsd_cnt:\n", "\t.zero %d\n" % (8 * max(ncnt, 1)),
                "\t.section .rodata.tpsd,\"aMS\",@progbits,1\n"]
        names = {}
        for _, _, f, c in descs:
            for n in (f, c):
                if n is not None and n not in names:
                    names[n] = ".Ltpsd_n%d" % len(names)
                    tail.append("%s:\n\t.string \"%s\"\n" % (names[n], n))
        tail.append("\t.section tpsd_desc,\"aw\",@progbits\n\t.align 3\n")
        for k, site, f, c in descs:
            tail.append("\t.dword .Ltpsd_cnt+%d, %s, %s, %s\n" %
                        (8 * k, site, names[f], names[c] if c is not None else "0"))
        tail.append("\t.section tpsd_entry,\"aw\",@progbits\n\t.align 3\n")
        for e in entries:
            tail.append("\t.dword %s\n" % e)
        tail.append("\t.text\n")
        # before the debug sections' trailer is fine anywhere: append
        outl.extend(tail)
    try:
        with open(out, "w") as f:
            f.writelines(outl)
    except OSError as e:
        fail(out, e.strerror)
    return 0


def entry_seq(fn, mask, newlab, entries, stubs):
    """The poll, pushpf and the patchable setpf at a function's entry."""
    tk, bk, en = newlab("tk"), newlab("bk"), newlab("e")
    entries.append(en)
    stubs.append("%s:\n\tcall t0, __tpsd_tick_entry\n\tj %s\n" % (tk, bk))
    return ("\tld t1, __tpsd_cd\n\taddi t1, t1, -1\n\tsd t1, __tpsd_cd, t0\n"
            "\tbltz t1, %s\n%s:\n%s%s:\n%s" % (tk, bk, INSN_PUSHPF, en, insn_setpf(mask)))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
