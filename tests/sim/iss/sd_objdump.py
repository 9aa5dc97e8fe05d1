#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Xtpsd instructions in a linked riscv64 program: tiprof's decoder and disassembler against
objdump and against the bit layouts of include/tiprof/seldisp.h, decoded here independently.

  sd_objdump.py OBJDUMP NM SD_DIS BINARY OBJECT...
  sd_objdump.py --random SD_DIS N

With --random, N random custom-0/1 words (fields biased towards the few legal values) must
decode exactly when the layout says they are legal, to the same text, and be illegal
otherwise.

objdump (binutils 2.40) prints the custom-0/1 words as .4byte, so what can be compared is:
 1. every such word in BINARY decodes (length 4), and its text equals the text built here
    from the word's fields (flag, mask, offsets, registers);
 2. pf.inc: the (flag, symbol+offset) of every instruction in BINARY, its target resolved
    through nm, equals the multiset of (flag, R_RISCV_JAL symbol+addend) in the objects;
 3. the words that need no relocation (setpf, resetpf, pushpf, poppf, pf.incr) are the
    same multiset in BINARY as in the objects;
 4. pf.blk: as many per flag as in the objects (R_RISCV_BRANCH), each one's follow address
    an instruction boundary of objdump's listing after the block.
Prints one summary line; exit status 1 on any difference."""
import collections
import random
import re
import subprocess
import sys

XREG = ("zero ra sp gp tp t0 t1 t2 s0 s1 a0 a1 a2 a3 a4 a5 a6 a7 "
        "s2 s3 s4 s5 s6 s7 s8 s9 s10 s11 t3 t4 t5 t6").split()
M64 = (1 << 64) - 1
LINE = re.compile(r"^\s*([0-9a-f]+):\s+([0-9a-f]+)\s+(\S+)\s*(.*)$")
RELOC = re.compile(r"^\s*([0-9a-f]+): (R_RISCV_\w+)\s+(\S+)$")


def sext(v, bits):
    return v - (1 << bits) if v & (1 << (bits - 1)) else v


def expect_text(addr, w):
    """Text of word w at addr from the documented layout, or None if reserved."""
    opc, rd, f3 = w & 0x7f, (w >> 7) & 31, (w >> 12) & 7
    rs1, rs2, f7 = (w >> 15) & 31, (w >> 20) & 31, w >> 25
    if opc == 0x2b:  # pf.inc: J-type, rd = flag
        off = sext(((w >> 31) << 20) | (((w >> 12) & 0xff) << 12) |
                   (((w >> 20) & 1) << 11) | (((w >> 21) & 0x3ff) << 1), 21)
        return None if rd > 3 else "pf.inc\t%d,%x" % (rd, (addr + off) & M64)
    if opc != 0x0b:
        return None
    if f3 == 0 and rd == 0 and rs1 == 0:
        if f7 in (0, 1) and rs2 < 16:
            return "%s\t0x%x" % ("setpf" if f7 == 0 else "resetpf", rs2)
        if f7 in (2, 3) and rs2 == 0:
            return "pushpf" if f7 == 2 else "poppf"
        return None
    if f3 == 1:  # pf.blk: B-type, rs1 = flag
        off = sext(((w >> 31) << 12) | (((w >> 7) & 1) << 11) |
                   (((w >> 25) & 0x3f) << 5) | (((w >> 8) & 0xf) << 1), 13)
        if rs1 > 3 or rs2 != 0 or off < 4:
            return None
        return "pf.blk\t%d,%x" % (rs1, (addr + off) & M64)
    if f3 == 2 and rd <= 3:  # pf.incr: I-type, rd = flag
        return "pf.incr\t%d,%d(%s)" % (rd, sext(w >> 20, 12), XREG[rs1])
    return None


def listing(objdump, path, reloc):
    """[(key, addr, word_hex, mnemonic, operands)] and {key: (type, target)} of the code;
    key = addr + a per-section base (an object's sections all start at 0)."""
    out = subprocess.run([objdump, "-d", "-z"] + (["-r"] if reloc else []) + [path],
                         check=True, capture_output=True, text=True).stdout
    insns, relocs, base = [], {}, 0
    for ln in out.splitlines():
        m = RELOC.match(ln)
        if m:
            relocs[base + int(m.group(1), 16)] = (m.group(2), m.group(3))
            continue
        m = LINE.match(ln)
        if m:
            a = int(m.group(1), 16)
            insns.append((base + a, a, m.group(2), m.group(3), m.group(4)))
        elif ln.startswith("Disassembly of section"):
            base += 1 << 40
    return insns, relocs


def random_words(sd_dis, n):
    rng = random.Random(14)
    words = []
    for _ in range(n):
        w = rng.getrandbits(25) << 7 | rng.choice((0x0b, 0x2b))
        for lo, width, small in ((7, 5, 4), (15, 5, 4), (20, 5, 16), (25, 7, 4), (12, 3, 3)):
            r = rng.random()
            if r < 0.3:  # a zero field
                w &= ~(((1 << width) - 1) << lo)
            elif r < 0.6:  # a small value
                w = (w & ~(((1 << width) - 1) << lo)) | rng.randrange(small) << lo
        words.append((rng.getrandbits(20) << 2 | 0x10000, w))
    res = subprocess.run([sd_dis], input="".join("%x %x\n" % c for c in words),
                         check=True, capture_output=True, text=True).stdout.splitlines()
    bad, legal = [], 0
    for (addr, w), line in zip(words, res):
        want = expect_text(addr, w)
        f = line.split(" ", 2)
        got = None if f[1] == "illegal" else f[2] if f[1] == "4" else "<len %s>" % f[1]
        legal += want is not None
        if got != want:
            bad.append("%08x: decoder '%s', layout '%s'" % (w, got, want))
    for b in bad[:20]:
        print("sd-objdump: random: %s" % b)
    print("sd-objdump: %d random custom-0/1 words: %d legal, %d reserved, decoder = layout; "
          "%d differences" % (len(words), legal, len(words) - legal, len(bad)))
    return 1 if bad or len(res) != len(words) else 0


def main():
    if sys.argv[1] == "--random":
        return random_words(sys.argv[2], int(sys.argv[3]))
    objdump, nm, sd_dis, binary, objects = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    bad = []
    insns, _ = listing(objdump, binary, False)
    custom = [(a, int(h, 16)) for _, a, h, mn, _ in insns
              if mn == ".4byte" and (int(h, 16) & 0x5f) == 0x0b]
    res = subprocess.run([sd_dis], input="".join("%x %x\n" % c for c in custom),
                         check=True, capture_output=True, text=True).stdout.splitlines()
    syms = []
    for ln in subprocess.run([nm, "-n", "-S", binary], check=True, capture_output=True,
                             text=True).stdout.splitlines():
        f = ln.split()
        if len(f) == 4 and f[2] in "dDbBrRgGsS":
            syms.append((int(f[0], 16), int(f[1], 16), f[3]))
        elif len(f) == 3 and f[1] in "dDbBrRgGsS":  # no size (assembler labels): 8 bytes
            syms.append((int(f[0], 16), 8, f[2]))
    bounds = {a for _, a, _, _, _ in insns}
    got_inc, got_words, got_blk = collections.Counter(), collections.Counter(), collections.Counter()
    for (addr, w), line in zip(custom, res):
        want = expect_text(addr, w)
        ours = line.split(" ", 2)
        text = ours[2] if len(ours) == 3 else None
        if want is None or ours[1] != "4" or text != want:
            bad.append("%x %08x: decoder '%s', layout '%s'" % (addr, w, line, want))
            continue
        mn, ops = text.split("\t") if "\t" in text else (text, "")
        if mn == "pf.inc":
            flag, tgt = ops.split(",")
            tgt = int(tgt, 16)
            hit = sorted(((s, tgt - a) for a, n, s in syms if a <= tgt < a + max(n, 1)),
                         key=lambda h: (h[0].startswith("_"), h[1]))  # not __DATA_BEGIN__
            got_inc[(int(flag), "%s+0x%x" % hit[0] if hit and hit[0][1] else
                     hit[0][0] if hit else "?%x" % tgt)] += 1
        elif mn == "pf.blk":
            flag, tgt = ops.split(",")
            got_blk[int(flag)] += 1
            if int(tgt, 16) not in bounds:
                bad.append("%x: pf.blk follow %s is not an instruction boundary" % (addr, tgt))
        else:
            got_words[w] += 1
    want_inc, want_words, want_blk = collections.Counter(), collections.Counter(), collections.Counter()
    for obj in objects:
        oinsns, orel = listing(objdump, obj, True)
        for key, _, h, mn, _ in oinsns:
            w = int(h, 16)
            if mn != ".4byte" or (w & 0x5f) != 0x0b:
                continue
            r = orel.get(key)
            if w & 0x7f == 0x2b:
                sym = r[1] if r else "?"
                want_inc[((w >> 7) & 31, sym)] += 1
            elif (w >> 12) & 7 == 1:
                want_blk[(w >> 15) & 31] += 1
            else:
                want_words[w] += 1
    for name, g, w in (("pf.inc", got_inc, want_inc), ("pf.blk", got_blk, want_blk),
                       ("other", got_words, want_words)):
        if g != w:
            bad.append("%s: binary %s, objects %s" % (name, dict(g), dict(w)))
    for b in bad[:20]:
        print("sd-objdump: %s: %s" % (binary, b))
    print("sd-objdump: %s: %d Xtpsd words (%d pf.inc, %d pf.blk, %d others) equal to the layout "
          "and the objects; %d differences" % (binary, len(custom), sum(got_inc.values()),
                                               sum(got_blk.values()), sum(got_words.values()), len(bad)))
    return 1 if bad or not custom else 0


if __name__ == "__main__":
    sys.exit(main())
