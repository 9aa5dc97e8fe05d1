#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tiprof accuracy on real workloads (small sizes): the two independent Oracles agree, TIP's
# profile equals the ideal sampler's (systematic error zero), JSON output is valid; then the
# core's ROB interface on a workload is recorded and replayed through the Verilated RTL, which
# must agree with the C model every cycle. The front-end policies: Dispatch and Software are
# reported with the others; on the stall-heavy ptrchase Software's systematic error exceeds
# TIP's (exactly 0); a --sweep over five periods in one simulation shows TIP's error at the
# shortest period below that at the longest; the --svg charts parse as XML.
# Prints 'N passed, N failed'.
set -u
b=${BUILD:-build}; out=$b/accuracy; mkdir -p "$out"
tiprof=${TIPROF:-$b/bin/tiprof}
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  ok    $1"; }
bad() { fail=$((fail + 1)); echo "  FAIL  $1"; }

for w in crc32:40 quicksort:3000 ptrchase:16384 ceilfloor:20 dispatch:35000; do
  n=${w%%:*} a=${w##*:}
  if $tiprof accuracy --json -o "$out/$n.json" build/workloads/$n $a > /dev/null 2> "$out/$n.err" &&
     line=$(python3 - "$out/$n.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["policies"]
assert d["samples"] > 0 and d["lost"] == 0 and d["functions"] > 0 and d["basic_blocks"] > 0
assert list(p) == ["TIP", "TIP-ILP", "NCI", "NCI+ILP", "LCI", "Dispatch", "Software"], list(p)
for level in ("instruction", "basic_block", "function"):
    assert p["TIP"]["systematic"][level] == 0.0, (level, p["TIP"])
dp = d["dispatch"]
assert dp["samples"] == d["samples"] and dp["attributed"] + dp["dropped"] + dp["unresolved"] == dp["samples"], dp
assert dp["rob_if_checked"] > 0 and dp["rob_if_mismatches"] == 0, dp
print(f'{d["samples"]} samples; instruction/block/function error: ' + ', '.join(
    f'{k} {100*v["instruction"]:.2f}/{100*v["basic_block"]:.2f}/{100*v["function"]:.2f}%'
    for k, v in p.items()) + f' (TIP systematic 0 at every level; Dispatch tag = ROB interface in {dp["rob_if_checked"]} cycles)')
PY
); then ok "$n: $line"; else bad "$n ($(tail -1 "$out/$n.err"))"; fi
done
# Software vs TIP on a stall-heavy workload (its loads hold the ROB full: the front end is
# a ROB's worth of instructions ahead of the stalled load).
if python3 - "$out/ptrchase.json" > "$out/ptrchase.sw" 2>&1 <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["policies"]
s, t = p["Software"]["systematic"]["instruction"], p["TIP"]["systematic"]["instruction"]
assert t == 0.0 and s > t, (s, t)
print(f"systematic instruction-level error: Software {100*s:.2f}% > TIP {100*t:.2f}% (exactly 0); "
      f"Dispatch {100*p['Dispatch']['systematic']['instruction']:.2f}%")
PY
then ok "ptrchase: $(cat "$out/ptrchase.sw")"; else bad "ptrchase Software vs TIP: $(tail -1 "$out/ptrchase.sw")"; fi
# Sampling-rate sweep in one simulation, with the charts.
rm -rf "$out/svg"
if $tiprof accuracy --json -o "$out/sweep.json" --sweep 16,64,256,1024,4096 --svg "$out/svg" \
     build/workloads/quicksort 3000 > /dev/null 2> "$out/sweep.err" &&
   line=$(python3 - "$out/sweep.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sw = d["sweep"]
assert [x["period"] for x in sw] == [16, 64, 256, 1024, 4096]
assert d["period"] == 16 and d["samples"] == sw[0]["samples"]
n = [x["samples"] for x in sw]
assert all(a > b for a, b in zip(n, n[1:])), n
for x in sw:
    assert x["lost"] == 0 and x["policies"]["TIP"]["systematic"]["instruction"] == 0.0, x
    assert set(x["policies"]) == {"TIP", "TIP-ILP", "NCI", "NCI+ILP", "LCI", "Dispatch", "Software"}
e = [x["policies"]["TIP"]["instruction"] for x in sw]
assert e[0] < e[-1], e
print("TIP instruction error at periods 16..4096 (" + "/".join(map(str, n)) + " samples): " +
      " ".join(f"{100*v:.2f}%" for v in e) + " (shortest < longest)")
PY
); then ok "quicksort sweep: $line"; else bad "quicksort sweep ($(tail -1 "$out/sweep.err"))"; fi
if line=$(python3 - "$out/svg" <<'PY'
import glob, os, sys
import xml.etree.ElementTree as ET
files = sorted(glob.glob(os.path.join(sys.argv[1], "*.svg")))
names = [os.path.basename(f) for f in files]
assert names == ["quicksort-policies.svg", "quicksort-sweep-function.svg", "quicksort-sweep.svg"], names
for f in files:
    root = ET.parse(f).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "Software" in texts and "Dispatch" in texts and "NCI+ILP" in texts, texts
print(", ".join(names) + " parse as SVG XML and name every policy")
PY
); then ok "charts: $line"; else bad "SVG charts in $out/svg"; fi
# A workload's ROB stream through the RTL.
if $tiprof accuracy --rob-trace "$out/crc32.rbt" build/workloads/crc32 40 > /dev/null 2>&1 &&
   TIPROF_TB_TRACE=$out/crc32.rbt $b/vtip/4-64-8/Vtiprof_tb +bench=replay +cycles=1000000000 +outdir=$out \
     > "$out/replay.log" 2>&1 && grep -q "PASS replay" "$out/replay.log"; then
  ok "crc32's ROB interface replayed through the RTL: $(grep '^replay:' "$out/replay.log"), RTL = C model every cycle"
else bad "replay of crc32 through the RTL (see $out/replay.log)"; fi
# Bad use.
msg=$($tiprof accuracy --period 0 build/workloads/crc32 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$(echo "$msg" | wc -l)" = 1 ] && ok "period 0: $msg" || bad "period 0 accepted"
msg=$($tiprof accuracy --sweep 64,x build/workloads/crc32 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(echo "$msg" | wc -l)" = 1 ] && ok "bad sweep list: $msg" || bad "bad sweep list: $msg"
msg=$($tiprof accuracy /etc/hostname 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$(echo "$msg" | wc -l)" = 1 ] && ok "not an ELF: $msg" || bad "not an ELF: $msg"
echo "test-accuracy: $pass passed, $fail failed"
[ $fail -eq 0 ]
