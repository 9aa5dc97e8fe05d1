#!/usr/bin/env bash
# tiprof accuracy on real workloads (small sizes): the two independent Oracles agree, TIP's
# profile equals the ideal sampler's (systematic error zero), JSON output is valid; then the
# core's ROB interface on a workload is recorded and replayed through the Verilated RTL, which
# must agree with the C model every cycle. Prints 'N passed, N failed'.
set -u
b=${BUILD:-build}; out=$b/accuracy; mkdir -p "$out"
tiprof=$b/bin/tiprof
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  ok    $1"; }
bad() { fail=$((fail + 1)); echo "  FAIL  $1"; }

for w in crc32:40 quicksort:3000 ptrchase:16384 ceilfloor:20 dispatch:35000; do
  n=${w%%:*} a=${w##*:}
  if $tiprof accuracy --json build/workloads/$n $a > "$out/$n.json" 2> "$out/$n.err" &&
     line=$(python3 - "$out/$n.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["policies"]
assert d["samples"] > 0 and d["lost"] == 0 and d["functions"] > 0 and d["basic_blocks"] > 0
for level in ("instruction", "basic_block", "function"):
    assert p["TIP"]["systematic"][level] == 0.0, (level, p["TIP"])
print(f'{d["samples"]} samples; instruction/block/function error: ' + ', '.join(
    f'{k} {100*v["instruction"]:.2f}/{100*v["basic_block"]:.2f}/{100*v["function"]:.2f}%'
    for k, v in p.items()) + ' (TIP systematic 0 at every level)')
PY
); then ok "$n: $line"; else bad "$n ($(tail -1 "$out/$n.err"))"; fi
done
# A workload's ROB stream through the RTL.
if $tiprof accuracy --rob-trace "$out/crc32.rbt" build/workloads/crc32 40 > /dev/null 2>&1 &&
   TIPROF_TB_TRACE=$out/crc32.rbt $b/vtip/4-64-8/Vtiprof_tb +bench=replay +cycles=1000000000 +outdir=$out \
     > "$out/replay.log" 2>&1 && grep -q "PASS replay" "$out/replay.log"; then
  ok "crc32's ROB interface replayed through the RTL: $(grep '^replay:' "$out/replay.log"), RTL = C model every cycle"
else bad "replay of crc32 through the RTL (see $out/replay.log)"; fi
# Bad use.
msg=$($tiprof accuracy --period 0 build/workloads/crc32 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$(echo "$msg" | wc -l)" = 1 ] && ok "period 0: $msg" || bad "period 0 accepted"
msg=$($tiprof accuracy /etc/hostname 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$(echo "$msg" | wc -l)" = 1 ] && ok "not an ELF: $msg" || bad "not an ELF: $msg"
echo "test-accuracy: $pass passed, $fail failed"
[ $fail -eq 0 ]
