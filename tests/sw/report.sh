#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/sw/report.sh - `tiprof sim --profile`, `tiprof dump`, `tiprof report` (flat
# profile and cycle stacks) and `tiprof annotate` on two small workloads, then on dynamically
# linked ones (PIE, ld.so, libc.so.6, libm.so.6: object records) (docs/report.md, "Tests"); tests/sw/bad_input.sh covers bad input of every subcommand. Usage:
#   BUILD=build tests/sw/report.sh
# Prints one line per check and ends with 'N passed, N failed'; exit status 1 on a failure.
set -u
BUILD=${BUILD:-build}
T=$BUILD/bin/tiprof
WL=$BUILD/workloads
OUT=$BUILD/report-test
PY=${PYTHON:-python3}
pass=0
fail=0
rm -rf "$OUT"
mkdir -p "$OUT"

ok() { pass=$((pass + 1)); echo "ok    $1"; }
ko() { fail=$((fail + 1)); echo "FAIL  $1"; }
check() { # NAME COMMAND...: the command must succeed
	name=$1; shift
	if "$@" >"$OUT/last.out" 2>"$OUT/last.err"; then ok "$name"; else
		ko "$name"; sed 's/^/      /' "$OUT/last.err" | head -20; fi
}
# NAME COMMAND...: the command must fail with exit status != 0, nothing on stdout and
# exactly one line on stderr
bad() {
	name=$1; shift
	"$@" >"$OUT/bad.out" 2>"$OUT/bad.err"
	rc=$?
	if [ $rc -ne 0 ] && [ ! -s "$OUT/bad.out" ] && [ "$(wc -l <"$OUT/bad.err")" -eq 1 ]; then
		ok "$name: $(cat "$OUT/bad.err")"
	else
		ko "$name (exit $rc, stderr:)"; sed 's/^/      /' "$OUT/bad.err" | head -5
	fi
}

# Workloads at their small sizes (sim/workloads/README.md): a compute one and a flush one.
for spec in crc32:6 quicksort:5000; do
	w=${spec%%:*}; n=${spec#*:}
	f=$OUT/$w.tsf
	check "$w: sim --profile records $f" \
		"$T" sim --json -o "$OUT/$w.sim.json" --profile "$f" --oracle "$OUT/$w.orc" "$WL/$w" "$n"

	check "$w: dump reads it" "$T" dump "$f"
	cp "$OUT/last.out" "$OUT/$w.dump"
	check "$w: dump shows the header's build-id and a trailer without losses" \
		grep -q "build-id=$(readelf -n "$WL/$w" | sed -n 's/.*Build ID: //p')" "$OUT/$w.dump"
	check "$w: trailer" grep -q '^trailer: samples=[1-9][0-9]* lost_unit=0 lost_sw=0' "$OUT/$w.dump"
	check "$w: report (text) fits 80 columns" sh -c \
		"'$T' report '$f' --oracle '$OUT/$w.orc' >'$OUT/$w.txt' && ! awk 'length > 80' '$OUT/$w.txt' | grep -q ."
	for lvl in function block instruction; do
		check "$w: report --json --level $lvl parses" sh -c \
			"'$T' report '$f' --json --level $lvl --oracle '$OUT/$w.orc' >'$OUT/$w.$lvl.json' && \
			 $PY -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d[\"rows\"]' \
			 '$OUT/$w.$lvl.json'"
	done
	# Shares agree with the Oracle at function level: every function within 4 binomial
	# standard deviations of the Oracle's share plus half a percentage point (samples of
	# one interval are not independent of their neighbours').
	check "$w: function shares agree with the Oracle (4 sigma + 0.5 pp)" $PY - "$OUT/$w.function.json" <<'PYEOF'
import json, math, sys
d = json.load(open(sys.argv[1]))
n = d["samples"]
worst = 0.0
for r in d["rows"] + d["oracle_only"]:
    o = r["oracle_share"]
    s = r.get("share", 0.0)
    tol = 4 * math.sqrt(max(o * (1 - o), 1.0 / n) / n) + 0.005
    if abs(s - o) > tol:
        sys.exit("%s: report %.4f, Oracle %.4f, tolerance %.4f" % (r["symbol"], s, o, tol))
    worst = max(worst, abs(s - o))
total = sum(r["share"] for r in d["rows"])
if abs(total - 1) > 1e-4:
    sys.exit("shares sum to %f" % total)
print("largest difference %.4f over %d samples" % (worst, n))
PYEOF
	hot=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["rows"][0]["symbol"])' \
		"$OUT/$w.function.json")
	check "$w: annotate shows the hottest function ($hot)" sh -c \
		"'$T' annotate '$f' >'$OUT/$w.ann' && head -1 '$OUT/$w.ann' | grep -q '^# $hot '"
	check "$w: annotate's source lines exist in $w.c" $PY - "$OUT/$w.ann" "$w.c" <<'PYEOF'
import re, sys
ann, base = sys.argv[1], sys.argv[2]
seen = 0
for line in open(ann):
    m = re.match(r"^(/\S+):(\d+)(?:  (.*))?$", line.rstrip("\n"))
    if not m:
        continue
    path, num, text = m.group(1), int(m.group(2)), m.group(3)
    if not path.endswith("/" + base):
        continue
    src = open(path).read().split("\n")
    if not 1 <= num <= len(src):
        sys.exit("%s:%d is past the end of the file" % (path, num))
    if text is None or not src[num - 1].strip().startswith(text.strip()[:40]):
        sys.exit("%s:%d text differs: %r" % (path, num, text))
    seen += 1
if seen < 2:
    sys.exit("fewer than 2 source lines of %s in the annotation" % base)
PYEOF
	check "$w: annotate has per-instruction shares" grep -q '^ *[0-9.]*%  exec' "$OUT/$w.ann"

	# Cycle stacks (text, JSON, SVG): the text fits 80 columns and shows the hottest
	# function's stack; the JSON's stacks add up and the whole program's stack agrees
	# with the Oracle's (tiprof sim's) category by category; the SVG is valid XML.
	check "$w: report --cycle-stack fits 80 columns and details $hot" sh -c \
		"'$T' report '$f' --cycle-stack >'$OUT/$w.stack' && ! awk 'length > 80' \
		 '$OUT/$w.stack' | grep -q . && grep -q '^100.00%  \[total\]  *E' '$OUT/$w.stack' && \
		 grep -q '^# $hot: ' '$OUT/$w.stack' && grep -q '^  execute  ' '$OUT/$w.stack' && \
		 grep -q '^# hot instructions of $hot ' '$OUT/$w.stack'"
	check "$w: report --cycle-stack --svg --json" \
		"$T" report "$f" --cycle-stack --json --svg "$OUT/$w.svg"
	cp "$OUT/last.out" "$OUT/$w.stack.json"
	check "$w: cycle stacks add up; the program's agrees with the Oracle's (4 sigma + 0.5 pp)" \
		$PY - "$OUT/$w.stack.json" "$OUT/$w.sim.json" "$hot" <<'PYEOF'
import json, math, sys
d = json.load(open(sys.argv[1]))
orc = json.load(open(sys.argv[2]))["cycle_stack"]
cats = d["categories"]
assert cats == list(orc), (cats, list(orc))
assert abs(sum(d["total"]["stack"].values()) - 1) < 1e-4
for r in d["rows"]:
    assert abs(sum(r["stack"].values()) - r["share"]) < 1e-5, r
f = d["function"]
assert f["symbol"] == sys.argv[3] == d["rows"][0]["symbol"], (f["symbol"], sys.argv[3])
assert abs(sum(i["share_of_function"] for i in f["instructions"]) - 1) < 1e-4
for i in f["instructions"]:
    assert abs(sum(i["stack"].values()) - i["share_of_function"]) < 1e-5, i
n, worst = d["samples"], 0.0
for c in cats:
    p, s = orc[c], d["total"]["stack"][c]
    tol = 4 * math.sqrt(max(p * (1 - p), 1.0 / n) / n) + 0.005
    if abs(s - p) > tol:
        sys.exit("%s: report %.4f, Oracle %.4f, tolerance %.4f" % (c, s, p, tol))
    worst = max(worst, abs(s - p))
print("largest category difference %.4f" % worst)
PYEOF
	check "$w: the cycle-stack SVG is valid and names every category and $hot" $PY - \
		"$OUT/$w.svg" "$hot" <<'PYEOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
for want in ("execute", "alu_stall", "load_stall", "store_stall", "mispredict_flush",
             "other_flush", "frontend", sys.argv[2]):
    assert want in texts, want
assert any(t.startswith("Hot instructions of " + sys.argv[2]) for t in texts)
PYEOF
	if command -v xmllint >/dev/null; then
		check "$w: xmllint accepts the SVG" xmllint --noout "$OUT/$w.svg"
	fi
	if command -v rsvg-convert >/dev/null; then
		check "$w: rsvg-convert renders the SVG" sh -c \
			"rsvg-convert -o '$OUT/$w.png' '$OUT/$w.svg' && [ -s '$OUT/$w.png' ]"
	fi
done

# Dynamically linked programs (docs/report.md, "Programs with shared objects"): the same
# quicksort as a PIE with ld.so and libc.so.6 mapped by the loader, recorded at a size where
# the loader's start-up is ~3% of the run; ceilfloor, whose time is in libm's ceil and floor.
DYN=$BUILD/workloads-dyn
qs_n=40000
check "dyn: sim --profile records quicksort $qs_n (static and PIE)" sh -c \
	"'$T' sim -o /dev/null --profile '$OUT/qs-static.tsf' '$WL/quicksort' $qs_n >/dev/null && \
	 '$T' sim -o /dev/null --profile '$OUT/qs-dyn.tsf' --oracle '$OUT/qs-dyn.orc' \
	 '$DYN/quicksort' $qs_n >/dev/null"
check "dyn: dump shows the object records (program at its bias, ld.so, libc.so.6)" sh -c \
	"'$T' dump '$OUT/qs-dyn.tsf' >'$OUT/qs-dyn.dump' && \
	 grep -q '^object: main 0x0000004000000000-0x[0-9a-f]* bias=0x4000000000 .*/workloads-dyn/quicksort build-id=$(readelf -n "$DYN/quicksort" | sed -n 's/.*Build ID: //p')$' '$OUT/qs-dyn.dump' && \
	 grep -q '^object: interp .* /.*/ld-linux-riscv64-lp64d.so.1 build-id=[0-9a-f]' '$OUT/qs-dyn.dump' && \
	 grep -q '^object: mapped .* /.*/libc.so.6 build-id=[0-9a-f]' '$OUT/qs-dyn.dump' && \
	 grep -q '^tiprof sample file 1.2$' '$OUT/qs-dyn.dump'"
check "dyn: a static program's file has one object record, bias 0" sh -c \
	"'$T' dump '$OUT/qs-static.tsf' | grep '^object: ' >'$OUT/qs-static.obj' && \
	 [ \$(wc -l <'$OUT/qs-static.obj') -eq 1 ] && grep -q '^object: main .* bias=0x0 ' '$OUT/qs-static.obj'"
for lvl in function instruction; do
	"$T" report "$OUT/qs-static.tsf" --json --level $lvl >"$OUT/qs-static.$lvl.json" 2>/dev/null
	"$T" report "$OUT/qs-dyn.tsf" --json --level $lvl --oracle "$OUT/qs-dyn.orc" \
		--compare Oracle >"$OUT/qs-dyn.$lvl.json" 2>"$OUT/qs-dyn.$lvl.err"
done
check "dyn: report names qs_sort with the static build's share (3 pp, samples 2%); libc rows" \
	$PY - "$OUT/qs-static.function.json" "$OUT/qs-dyn.function.json" "$OUT/qs-dyn.function.err" <<'PYEOF'
import json, sys
st, dy = (json.load(open(f)) for f in sys.argv[1:3])
assert open(sys.argv[3]).read() == "", "warnings on stderr"
s = {r["symbol"]: r for r in st["rows"]}
d = {r["symbol"]: r for r in dy["rows"]}
assert dy["rows"][0]["symbol"] == "qs_sort" == st["rows"][0]["symbol"], dy["rows"][0]
ds, ss = d["qs_sort"]["share"], s["qs_sort"]["share"]
assert abs(ds - ss) <= 0.03, ("qs_sort share", ds, ss)
dn, sn = d["qs_sort"]["samples"], s["qs_sort"]["samples"]
assert abs(dn - sn) <= 0.02 * sn, ("qs_sort samples", dn, sn)
assert abs(d["main"]["share"] - s["main"]["share"]) <= 0.01, "main"
libc = [r for r in dy["rows"] if r["object"] == "libc.so.6"]
named = [r["symbol"] for r in libc if r["symbol"].endswith("@libc.so.6")]
assert sum(r["share"] for r in libc) > 0.001 and len(named) >= 5, named
assert any(r["object"] == "ld-linux-riscv64-lp64d.so.1" for r in dy["rows"])
assert all(r["object"] == "quicksort" for r in st["rows"] if r["symbol"] != "[unknown]")
print("qs_sort %.4f (static %.4f), %.0f samples (static %.0f); libc %.4f in %d named rows, e.g. %s"
      % (ds, ss, dn, sn, sum(r["share"] for r in libc), len(named), named[0]))
PYEOF
check "dyn: shares agree with the Oracle and --compare's Oracle (run-time addresses line up)" \
	$PY - "$OUT/qs-dyn.function.json" "$OUT/qs-dyn.instruction.json" <<'PYEOF'
import json, math, sys
for f in sys.argv[1:]:
    d = json.load(open(f))
    n = d["samples"]
    for r in d["rows"]:
        o, s, c = r["oracle_share"], r["share"], r["compare"]["Oracle"]
        tol = 4 * math.sqrt(max(o * (1 - o), 1.0 / n) / n) + 0.005
        assert abs(s - o) <= tol, (f, r["symbol"], s, o)
        assert abs(c - o) <= 0.0005, (f, r["symbol"], c, o)
    assert any("@" in r["symbol"] for r in d["rows"]), f
PYEOF
check "dyn: instruction level names libc.so.6 instructions func+0xoff@libc.so.6" \
	grep -q '"symbol": "[A-Za-z_0-9]*+0x[0-9a-f]*@libc.so.6"' "$OUT/qs-dyn.instruction.json"
check "dyn: annotate shows the PIE's hottest function with link-time addresses and source" sh -c \
	"'$T' annotate '$OUT/qs-dyn.tsf' >'$OUT/qs-dyn.ann' && \
	 head -1 '$OUT/qs-dyn.ann' | grep -q '^# qs_sort \[0x[0-9a-f]\{3,4\}, 0x[0-9a-f]*) of .*/workloads-dyn/quicksort: ' && \
	 grep -q '/quicksort.c:[0-9]*  ' '$OUT/qs-dyn.ann' && \
	 grep -q '^ *[0-9.]*%  [a-z]* [0-9]*.* [0-9a-f]\{3,4\}:  ' '$OUT/qs-dyn.ann'"
check "dyn: report --cycle-stack details qs_sort at link-time addresses" sh -c \
	"'$T' report '$OUT/qs-dyn.tsf' --cycle-stack >'$OUT/qs-dyn.stack' && \
	 grep -q '^# hot instructions of qs_sort ' '$OUT/qs-dyn.stack' && \
	 grep -q '^  *[0-9a-f]\{3,4\}  [a-z]' '$OUT/qs-dyn.stack'"
check "dyn: ceilfloor's time is in libm: ceil@libm.so.6 and floor among the top rows" sh -c \
	"'$T' sim -o /dev/null --profile '$OUT/cf-dyn.tsf' '$DYN/ceilfloor' 20 >/dev/null && \
	 '$T' report '$OUT/cf-dyn.tsf' --json >'$OUT/cf-dyn.json' && $PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
top = {r[\"symbol\"]: r[\"share\"] for r in d[\"rows\"][:4]}
assert top.get(\"ceil@libm.so.6\", 0) > 0.2, top
assert any(k.startswith(\"floor\") and k.endswith(\"@libm.so.6\") and v > 0.2 for k, v in top.items()), top
' '$OUT/cf-dyn.json'"
check "dyn: annotate --function ceil@libm.so.6, and ceil alone (the one object that has it)" sh -c \
	"'$T' annotate '$OUT/cf-dyn.tsf' --function ceil@libm.so.6 >'$OUT/cf-ceil.ann' && \
	 head -1 '$OUT/cf-ceil.ann' | grep -q '^# ceil@libm.so.6 \[0x[0-9a-f]*, 0x[0-9a-f]*) of /.*/libm.so.6: [1-9]' && \
	 grep -q '^ *[0-9.]*%  ' '$OUT/cf-ceil.ann' && \
	 '$T' annotate '$OUT/cf-dyn.tsf' --function ceil | head -1 | grep -q '^# ceil@libm.so.6 '"
# A shared object that is not there any more: rows by object and offset, a warning, no error.
$PY - "$OUT/qs-dyn.tsf" "$OUT/qs-nolibc.tsf" <<'PYEOF'
import sys
b = open(sys.argv[1], "rb").read()
old = b"/libc.so.6"
assert b.count(old) == 1
open(sys.argv[2], "wb").write(b.replace(old, b"/libc.so.X"))
PYEOF
check "dyn: a missing libc gives [libc.so.X] rows and one warning, not an error" sh -c \
	"'$T' report '$OUT/qs-nolibc.tsf' >'$OUT/nolibc.txt' 2>'$OUT/nolibc.err' && \
	 grep -q '  \[libc.so.X\]$' '$OUT/nolibc.txt' && ! grep -q '@libc' '$OUT/nolibc.txt' && \
	 [ \$(wc -l <'$OUT/nolibc.err') -eq 1 ] && grep -q '^tiprof report: warning: .*libc.so.X' '$OUT/nolibc.err' && \
	 '$T' report '$OUT/qs-nolibc.tsf' --level instruction --limit 0 2>/dev/null | grep -q '  \[libc.so.X\]+0x[0-9a-f]*$'"
# A 1.0 file (the static recording without its object records) reads and reports the same.
$PY - "$OUT/qs-static.tsf" "$OUT/qs-static-1.0.tsf" <<'PYEOF'
import struct, sys
b = open(sys.argv[1], "rb").read()
hs = struct.unpack_from("<I", b, 12)[0]
out, p, xb = bytearray(b[:hs]), hs, b[17] // 8
out[10:12] = b"\0\0"			# version 1.0
while True:
    t = b[p]
    if t == 1:
        n = 15 + bin(b[p + 3]).count("1") * xb
    elif t == 2:
        n = 41
    else:
        n = 5 + struct.unpack_from("<I", b, p + 1)[0]
    if t != 0x80:
        out += b[p:p + n]
    p += n
    if t == 2:
        break
open(sys.argv[2], "wb").write(out)
PYEOF
check "dyn: a 1.0 file (no object records) reports the same rows as its 1.1 original" sh -c \
	"'$T' dump '$OUT/qs-static-1.0.tsf' | head -1 | grep -q '^tiprof sample file 1.0$' && \
	 ! '$T' dump '$OUT/qs-static-1.0.tsf' | grep -q '^object' && \
	 '$T' report '$OUT/qs-static-1.0.tsf' --level instruction | tail -n +4 >'$OUT/v10.txt' && \
	 '$T' report '$OUT/qs-static.tsf' --level instruction | tail -n +4 >'$OUT/v11.txt' && \
	 cmp -s '$OUT/v10.txt' '$OUT/v11.txt'"

# Kernel samples (docs/report.md "Kernel samples"): crc32's file with every 3rd sample moved
# to planted S-mode addresses, and a synthetic kallsyms beside it (FILE.kallsyms).
$PY - "$OUT/crc32.tsf" "$OUT/kern.tsf" <<'PYEOF'
import struct, sys
b = open(sys.argv[1], "rb").read()
hs = struct.unpack_from("<I", b, 12)[0]
out, p, xb, i = bytearray(b), hs, b[17] // 8, 0
K = [0xffffffff80001000, 0xffffffff80001ffe, 0xffffffff80002000, 0xffffffff80002010,
     0xffffffff80003ffe, 0xffffffff80004000, 0xffffffff80000ffe, 0xffffffff80005000,
     0xffffffff80004ffe, 0xffffffff80005ffe, 0xffffffff80007000]
while True:
    t = b[p]
    if t == 1:
        n = 15 + bin(b[p + 3]).count("1") * xb
        if i % 3 == 0:
            out[p + 4] = 1			# priv S
            for a in range(p + 15, p + n, xb):
                struct.pack_into("<Q", out, a, K[(i // 3) % len(K)])
        i += 1
    elif t == 2:
        break
    else:
        n = 5 + struct.unpack_from("<I", b, p + 1)[0]
    p += n
open(sys.argv[2], "wb").write(out)
PYEOF
# text symbols at 1000 2000 4000 5000 (a module's) 6000; data, a duplicate, a local alias
cat >"$OUT/kern.tsf.kallsyms" <<'KEOF'
ffffffff80000000 D data_before
ffffffff80001000 T ksym_a
ffffffff80001000 t ksym_a_alias
ffffffff80002000 t ksym_b
ffffffff80003000 d data_between
ffffffff80004000 W ksym_c
ffffffff80005000 t kmod_f	[kmod]
ffffffff80006000 T ksym_last
KEOF
check "kernel: report attributes S-mode samples by FILE.kallsyms at every level (boundaries)" \
	$PY - "$T" "$OUT/kern.tsf" <<'PYEOF'
import bisect, json, subprocess, sys
t, f = sys.argv[1:3]
syms = {}
for ln in open(f + ".kallsyms"):
    a, ty, rest = ln.rstrip("\n").split(" ", 2)
    name = rest.replace("\t[", "@").rstrip("]")
    if ty in "tTwW":
        a = int(a, 16)
        if a not in syms or (ty.isupper() and not syms[a][1]):
            syms[a] = (name, ty.isupper())
starts = sorted(syms)
def expect(a):		# the text symbol holding a; the last covers 0x1000 bytes
    i = bisect.bisect_right(starts, a) - 1
    if i < 0 or (i == len(starts) - 1 and a - starts[i] >= 0x1000):
        return None
    s = starts[i]
    return "[k] " + syms[s][0] + ("" if a == s else "+0x%x" % (a - s))
def rep(level):
    r = subprocess.run([t, "report", f, "--json", "--level", level], capture_output=True,
                       text=True, check=True)
    return json.loads(r.stdout)
ins = rep("instruction")
assert ins["kallsyms"] == f + ".kallsyms", ins["kallsyms"]
seen, fun_want = 0, {}
for r in ins["rows"]:
    a = int(r["address"], 16) if r["address"] else None
    if a is None or a < 1 << 63:
        continue
    e = expect(a)
    if e is None:
        assert r["symbol"] == "[0x%x]" % a, (r["symbol"], hex(a))
        e = "[unknown]"
    else:
        assert r["symbol"] == e, ("instruction", hex(a), r["symbol"], e)
        assert r["object"] == "[kernel.kallsyms]", r
        e = e.split("+")[0]
    fun_want[e] = fun_want.get(e, 0) + r["samples"]
    seen += 1
assert seen == 11, "planted addresses seen: %d" % seen
fun = {r["symbol"]: r["samples"] for r in rep("function")["rows"]}
for s, w in fun_want.items():
    if s == "[unknown]":
        continue
    assert abs(fun.get(s, 0) - w) < 1e-6, ("function", s, fun.get(s), w)
assert set(s for s in fun if s.startswith("[k]")) == set(s for s in fun_want if s != "[unknown]")
assert "[k] ksym_a_alias" not in fun and "[k] data_between" not in fun
print("%d kernel addresses, %d kernel functions" % (seen, len(fun_want)))
PYEOF
check "kernel: without FILE.kallsyms the same samples are [unknown] (and the text says which)" sh -c \
	"cp '$OUT/kern.tsf' '$OUT/kern-nok.tsf' && '$T' report '$OUT/kern-nok.tsf' >'$OUT/kern-nok.txt' && \
	 ! grep -q '\[k\]' '$OUT/kern-nok.txt' && ! grep -q '^# kernel symbols' '$OUT/kern-nok.txt' && \
	 '$T' report '$OUT/kern.tsf' >'$OUT/kern.txt' && grep -q '  \[k\] ksym_a$' '$OUT/kern.txt' && \
	 grep -q '^# kernel symbols: .*kern.tsf.kallsyms$' '$OUT/kern.txt'"
cp "$OUT/kern.tsf" "$OUT/kbad.tsf"
{ head -2 "$OUT/kern.tsf.kallsyms"; echo "ffffffff80001800 T"; } >"$OUT/kbad.tsf.kallsyms"
cp "$OUT/kern.tsf" "$OUT/kzero.tsf"
sed 's/^ffffffff8000..../0000000000000000/' "$OUT/kern.tsf.kallsyms" >"$OUT/kzero.tsf.kallsyms"
bad "kallsyms: a malformed line" "$T" report "$OUT/kbad.tsf"
check "kallsyms: the error names the file and line" grep -q "kbad.tsf.kallsyms:3: " "$OUT/bad.err"
bad "kallsyms: every address 0 (kptr_restrict)" "$T" report "$OUT/kzero.tsf"
check "kallsyms: --kallsyms PATH is read instead of FILE.kallsyms" sh -c \
	"cp '$OUT/kern.tsf.kallsyms' '$OUT/elsewhere.syms' && \
	 '$T' report '$OUT/kbad.tsf' --kallsyms '$OUT/elsewhere.syms' >'$OUT/kother.txt' && \
	 grep -q '  \[k\] ksym_a$' '$OUT/kother.txt' && grep -q '^# kernel symbols: .*elsewhere.syms$' '$OUT/kother.txt'"
bad "kallsyms: --kallsyms names a missing file" "$T" report "$OUT/kern.tsf" --kallsyms "$OUT/no.syms"

# Bad inputs: one line on stderr, nothing on stdout, non-zero exit.
head -c 3000 "$OUT/crc32.tsf" >"$OUT/trunc.tsf"
bad "missing file" "$T" report "$OUT/nonexistent.tsf"
bad "truncated file" "$T" report "$OUT/trunc.tsf"
bad "truncated file (annotate)" "$T" annotate "$OUT/trunc.tsf"
bad "foreign file" "$T" report "$WL/crc32"
bad "ELF mismatch by build-id" "$T" report "$OUT/crc32.tsf" --elf "$WL/quicksort"
bad "ELF mismatch by build-id (annotate)" "$T" annotate "$OUT/crc32.tsf" --elf "$WL/quicksort"
bad "unknown function" "$T" annotate "$OUT/crc32.tsf" --function no_such_function
bad "unknown level" "$T" report "$OUT/crc32.tsf" --level page
bad "unwritable profile path" "$T" sim --profile "$OUT/no/such/dir.tsf" "$WL/crc32" 6
bad "rand-bits beyond the field (0..31)" "$T" sim --profile "$OUT/x.tsf" --period 16 --rand-bits 32 "$WL/crc32" 6

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
