#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cli.sh - the command line every tiprof subcommand shares (docs/options.md): the option
# matrix in docs/options.md is what the binary prints; aliases and perf's spellings mean the
# same thing; `--name=VALUE` and `-xVALUE` forms; the stream rule (the simulated program's
# stdout is its own, byte for byte, the report on stderr or -o FILE, '-o -' on stdout); the
# progress line (forced, off when stderr is no terminal, ETA from --expect and from the
# cache of an earlier run).
# Usage: cli.sh TIPROF WORKLOADS TMPDIR
set -u
T=$1 WL=$2 D=$3
QEMU=${QEMU_RISCV64:-qemu-riscv64}
rm -rf "$D"
mkdir -p "$D"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  ok    $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL  $1"; }

# ---- the matrix in docs/options.md is the binary's
"$T" help --options >"$D/matrix" 2>&1
sed -n '/^<!-- begin: tiprof help --options -->$/,/^<!-- end: tiprof help --options -->$/p' \
	docs/options.md | sed '1d;$d' >"$D/matrix.doc"
if [ -s "$D/matrix" ] && cmp -s "$D/matrix" "$D/matrix.doc"; then
	ok "docs/options.md lists the $(($(wc -l <"$D/matrix") - 2)) options tiprof help --options prints"
else
	ko "docs/options.md differs from tiprof help --options (regenerate the block):"
	diff "$D/matrix.doc" "$D/matrix" | head -5 | sed 's/^/        /'
fi
# every option a command's help lists is a row of the matrix, spelled the same
bad=0
for c in $("$T" help | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p'); do
	"$T" help "$c" | sed -n 's/^  \(-[-a-zA-Z, ]*[a-z]\)\( [A-Z][A-Z0-9,.]*\)\{0,1\}  .*/\1/p' |
	while read -r sp; do
		grep -qF -- "| \`$sp" "$D/matrix" || { echo "        $c: '$sp' is not in the matrix"; exit 1; }
	done || bad=$((bad + 1))
done
[ "$bad" -eq 0 ] && ok "every option in every command's help is spelled as in the matrix" ||
	ko "$bad commands list options the matrix does not have"

# ---- aliases and value forms: one setting, the same sample file
ELF=$WL/crc32
rec() { # NAME OPTIONS...: record crc32 6 into $D/NAME.tps
	local n=$1; shift
	env -i "$T" sim "$@" --profile "$D/$n.tps" "$ELF" 6 >/dev/null 2>"$D/$n.err"
}
rec a --period 200 --random-bits 3 && rec b -c 200 --rand-bits 3 && rec c --count=200 \
	--random-bits=3 && rec d -c200 --rand-bits=3 &&
	cmp -s "$D/a.tps" "$D/b.tps" && cmp -s "$D/a.tps" "$D/c.tps" && cmp -s "$D/a.tps" "$D/d.tps" &&
	ok "--period/-c/--count and --random-bits/--rand-bits, spaced, = and attached: one sample file" ||
	ko "aliases gave different sample files"
rec e --period 200 --periodic && rec f --period 200 --random-bits 0 && cmp -s "$D/e.tps" "$D/f.tps" &&
	! cmp -s "$D/a.tps" "$D/e.tps" &&
	ok "--periodic is --random-bits 0 (and differs from random sampling)" ||
	ko "--periodic differs from --random-bits 0"
"$T" report --json -i "$D/a.tps" --binary "$ELF" >"$D/r1" 2>&1 &&
	"$T" report --json --elf="$ELF" "$D/a.tps" >"$D/r2" 2>&1 && cmp -s "$D/r1" "$D/r2" &&
	ok "report: -i FILE --binary = FILE --elf=" || ko "report -i/--binary: $(head -2 "$D/r1")"

# ---- streams: the program's stdout is its own
"$QEMU" "$ELF" 6 >"$D/qemu.out" 2>"$D/qemu.err"; qrc=$?
env -i "$T" sim "$ELF" 6 >"$D/sim.out" 2>"$D/sim.err"; rc=$?
if [ $rc -eq 0 ] && [ $qrc -eq 0 ] && cmp -s "$D/sim.out" "$D/qemu.out" &&
   grep -q '^tiprof sim: .* exit code 0$' "$D/sim.err" && grep -q 'IPC' "$D/sim.err"; then
	ok "sim: stdout = qemu-riscv64's ($(wc -c <"$D/sim.out") bytes), the report on stderr"
else
	ko "sim: exit $rc, stdout differs from qemu's or no report on stderr: $(head -2 "$D/sim.err")"
fi
env -i "$T" sim --json -o "$D/sim.json" "$ELF" 6 >"$D/sim2.out" 2>"$D/sim2.err"
if cmp -s "$D/sim2.out" "$D/qemu.out" && [ ! -s "$D/sim2.err" ] &&
   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["instructions"] > 0' \
	"$D/sim.json"; then
	ok "sim --json -o FILE: the object in FILE, stdout the program's, stderr empty"
else
	ko "sim --json -o FILE: $(head -c 200 "$D/sim2.err")"
fi
env -i "$T" sim -o - "$ELF" 6 >"$D/sim3.out" 2>"$D/sim3.err"
if head -c "$(wc -c <"$D/qemu.out")" "$D/sim3.out" | cmp -s - "$D/qemu.out" &&
   tail -n +2 "$D/sim3.out" | grep -q '^tiprof sim: ' && [ ! -s "$D/sim3.err" ]; then
	ok "sim -o -: the program's output, then the report, on stdout"
else
	ko "sim -o -: $(head -3 "$D/sim3.out")"
fi
env -i "$T" sim -o "$D/no/such/dir/r" "$ELF" 6 >"$D/x.out" 2>"$D/x.err"; rc=$?
[ $rc -eq 1 ] && [ ! -s "$D/x.out" ] && [ "$(wc -l <"$D/x.err")" -eq 1 ] &&
	grep -q "cannot create the report $D/no/such/dir/r" "$D/x.err" &&
	ok "sim -o into a missing directory: exit 1 before the run: $(cat "$D/x.err")" ||
	ko "sim -o bad path: exit $rc, $(cat "$D/x.err")"
printf 'int main(void) { return 3; }\n' >"$D/three.c"
if ${CROSS_COMPILE:-riscv64-linux-gnu-}gcc -static -o "$D/three" "$D/three.c"; then
	env -i "$T" sim "$D/three" >"$D/three.out" 2>"$D/three.err"; rc=$?
	[ $rc -eq 3 ] && grep -q 'exit code 3$' "$D/three.err" &&
		ok "sim: the exit status is the program's (3), as running it" ||
		ko "sim: exit $rc for a program that returns 3: $(head -1 "$D/three.err")"
else
	ko "cannot build a riscv64 test program"
fi
printf '#include <stdio.h>\n#include <unistd.h>\nint main(void) { char b[256]; ssize_t n = readlink("/proc/self/exe", b, sizeof(b)); printf("%%.*s\\n", (int)n, b); return 0; }\n' >"$D/self.c"
if ${CROSS_COMPILE:-riscv64-linux-gnu-}gcc -static -o "$D/self" "$D/self.c"; then
	a=$(env -i "$T" iss "$D/self" 2>&1) b=$(env -i "$T" iss --exe-path /demo/self "$D/self" 2>&1)
	c=$(env -i "$T" sim --exe-path /demo/self "$D/self" 2>/dev/null)
	[ "$a" = "$(realpath "$D/self")" ] && [ "$b" = /demo/self ] && [ "$c" = /demo/self ] &&
		ok "--exe-path: /proc/self/exe reads '$b' (default: the file's absolute path, as Linux)" ||
		ko "--exe-path: '$a' / '$b' / '$c'"
else
	ko "cannot build a riscv64 test program"
fi
env -i "$T" accuracy --period 64 "$ELF" 6 >"$D/acc.out" 2>"$D/acc.err"; rc=$?
if [ $rc -eq 0 ] && cmp -s "$D/acc.out" "$D/qemu.out" && grep -q 'error vs Oracle' "$D/acc.err"; then
	ok "accuracy: stdout = qemu-riscv64's, the report on stderr"
else
	ko "accuracy: exit $rc: $(head -2 "$D/acc.err")"
fi
env -i "$T" accuracy --json -o "$D/acc.json" --period 64 "$ELF" 6 >"$D/acc2.out" 2>"$D/acc2.err"
cmp -s "$D/acc2.out" "$D/qemu.out" && [ ! -s "$D/acc2.err" ] &&
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$D/acc.json" &&
	ok "accuracy --json -o FILE" || ko "accuracy --json -o FILE: $(head -c 200 "$D/acc2.err")"
env -i "$T" iss "$ELF" 6 >"$D/iss.out" 2>"$D/iss.err"
cmp -s "$D/iss.out" "$D/qemu.out" && [ ! -s "$D/iss.err" ] && ok "iss: stdout = qemu-riscv64's" ||
	ko "iss: $(head -2 "$D/iss.err")"

# ---- progress: forced, absent when stderr is not a terminal, ETA from --expect and the cache
PW=$WL/quicksort PA=60000	# a run of a few seconds
export XDG_CACHE_HOME=$D/cache
"$T" sim "$PW" $PA >/dev/null 2>"$D/p0.err"
! grep -q $'\r' "$D/p0.err" && ok "no progress line when stderr is not a terminal" ||
	ko "progress line written to a file"
"$T" sim --progress -o "$D/p1.rep" "$PW" $PA >/dev/null 2>"$D/p1.err"
if grep -q 'M instructions, .* M cycles, .* M cycles/s' "$D/p1.err" && ! grep -q 'left' "$D/p1.err" &&
   [ "$(tail -c 4 "$D/p1.err" | od -An -c | tr -d ' ')" = '\r033[K' ]; then
	ok "--progress: $(tr '\r' '\n' <"$D/p1.err" | grep -m1 instructions | sed 's/\x1b\[K//'), erased at the end"
else
	ko "--progress: $(od -c "$D/p1.err" | head -3)"
fi
"$T" sim --progress -o "$D/p2.rep" "$PW" $PA >/dev/null 2>"$D/p2.err"
grep -q '%, [0-9:]* left' "$D/p2.err" &&
	ok "second run: time left from the cache ($(tr '\r' '\n' <"$D/p2.err" | grep -m1 -o '[0-9]*%, [0-9:]* left'))" ||
	ko "second run shows no time left: $(tr '\r' '\n' <"$D/p2.err" | tail -2)"
"$T" sim --progress --expect 1000000000 -o "$D/p3.rep" "$PW" $PA >/dev/null 2>"$D/p3.err"
grep -q ' [0-9]%, ' "$D/p3.err" && ok "--expect N: the share done is against N" ||
	ko "--expect: $(tr '\r' '\n' <"$D/p3.err" | tail -2)"
cmp -s "$D/p1.rep" "$D/p2.rep" && ok "the progress line leaves the report alone" ||
	ko "reports differ between runs"

# ---- --compare: the TIP paper's ceil/floor case study on the user's own run
CF=$WL/ceilfloor
env -i "$T" sim --profile "$D/cf.tps" "$CF" 20 >/dev/null 2>"$D/cf.err"
samples=$(sed -n 's/^tiprof sim: \([0-9]*\) samples (0 lost).*/\1/p' "$D/cf.err")
sampled=$(sed -n 's/^sampled //p' "$D/cf.tps.policies" 2>/dev/null)
[ -n "$samples" ] && [ "$samples" = "$sampled" ] &&
	ok "sim --profile writes FILE.policies: $sampled sampled cycles = $samples TIP samples" ||
	ko "FILE.policies: sampled '$sampled' vs samples '$samples': $(head -2 "$D/cf.err")"
if "$T" annotate --compare NCI,Oracle --function ceilf32x "$D/cf.tps" >"$D/cf.ann" 2>"$D/cf.aerr" &&
   line=$(python3 - "$D/cf.ann" <<'PY'
import re, sys
rows = []  # (tip, nci, oracle, mnemonic)
for l in open(sys.argv[1]):
    m = re.match(r'^ *([0-9.]+)% +([0-9.]+%|\s{6}) +([0-9.]+%|\s{6}) .*?[0-9a-f]+:  (\S+)', l)
    if m:
        f = lambda s: float(s.strip().rstrip('%') or 0)
        rows.append((f(m.group(1)), f(m.group(2)), f(m.group(3)), m.group(4)))
assert len(rows) >= 10, rows
tip = sorted(rows, key=lambda r: -r[0])[:2]
nci = sorted(rows, key=lambda r: -r[1])[:2]
assert sorted(r[3] for r in tip) == ['frflags', 'fsflags'], tip
assert not {'frflags', 'fsflags'} & {r[3] for r in nci}, nci
idx = {r[3]: i for i, r in enumerate(rows)}
# NCI's two hottest are the instructions right after frflags and fsflags
assert sorted(idx[r[3]] for r in nci) == sorted([idx['frflags'] + 1, idx['fsflags'] + 1]), nci
for r in rows:  # TIP and the Oracle agree per instruction (4 sigma of the share + 0.3 pp)
    assert abs(r[0] - r[2]) < 0.3 + 4 * (r[2] * (100 - r[2]) / 28000) ** 0.5, r
print("TIP blames %s %.2f%%, %s %.2f%%; NCI blames %s %.2f%%, %s %.2f%%" %
      (tip[0][3], tip[0][0], tip[1][3], tip[1][0], nci[0][3], nci[0][1], nci[1][3], nci[1][1]))
PY
); then
	ok "annotate --compare NCI,Oracle on ceilfloor: $line"
else
	ko "annotate --compare: $(head -3 "$D/cf.aerr") $line"
fi
"$T" report --json --compare lci,software "$D/cf.tps" >"$D/cf.json" 2>&1 &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=[r["compare"] for r in d["rows"]] if "rows" in d else [r["compare"] for r in d["symbols"]]; assert abs(sum(x["LCI"] for x in s)-1)<1e-3 and abs(sum(x["Software"] for x in s)-1)<1e-3' "$D/cf.json" &&
	ok "report --json --compare: each policy's shares over the rows add up to 1" ||
	ko "report --json --compare: $(head -c 300 "$D/cf.json")"
cp "$D/cf.tps" "$D/lone.tps"
"$T" annotate --compare NCI "$D/lone.tps" >"$D/x.out" 2>"$D/x.err"; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$D/x.err")" -eq 1 ] && grep -q "lone.tps.policies: cannot open" "$D/x.err" &&
	ok "--compare without FILE.policies: exit 1, one line" || ko "no .policies: exit $rc $(cat "$D/x.err")"
env -i "$T" sim --profile "$D/crc.tps" "$ELF" 6 >/dev/null 2>&1; cp "$D/crc.tps.policies" "$D/lone.tps.policies"
"$T" annotate --compare NCI "$D/lone.tps" >"$D/x.out" 2>"$D/x.err"; rc=$?
[ $rc -eq 1 ] && grep -q "another build-id" "$D/x.err" &&
	ok "--compare with another program's FILE.policies: $(cat "$D/x.err")" || ko "build-id: exit $rc $(cat "$D/x.err")"
"$T" annotate --compare NCI,PEBS "$D/cf.tps" >"$D/x.out" 2>"$D/x.err"; rc=$?
[ $rc -eq 1 ] && grep -q "unknown policy 'PEBS'" "$D/x.err" && ok "--compare PEBS: $(cat "$D/x.err")" ||
	ko "--compare PEBS: exit $rc $(cat "$D/x.err")"

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
