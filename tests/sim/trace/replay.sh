#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Record a random run of the RTL harness as a ROB trace, replay it through the RTL (compared
# with the C model every cycle), and check `tiprof trace` on it and on bad inputs.
set -u
b=${BUILD:-build}; out=$b/trace; mkdir -p "$out"
sim=$b/vtip/4-64-8/Vtiprof_tb tool="$b/bin/tiprof trace"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  ok    $1"; }
bad() { fail=$((fail + 1)); echo "  FAIL  $1"; }

if TIPROF_TB_RECORD=$out/random.rbt $sim +bench=random +seed=11 +cycles=300000 +outdir=$out \
     > "$out/record.log" 2>&1; then ok "record a 300k-cycle random run"; else bad "record (see $out/record.log)"; fi
info=$($tool info "$out/random.rbt" 2>&1) && ok "info: $info" || bad "info: $info"
if TIPROF_TB_TRACE=$out/random.rbt $sim +bench=replay +outdir=$out > "$out/replay.log" 2>&1 &&
   grep -q "PASS replay" "$out/replay.log"; then
  ok "replay through the RTL: $(grep '^replay:' "$out/replay.log")"
else bad "replay (see $out/replay.log)"; fi
if $tool vcd "$out/random.rbt" --from 1000 --cycles 500 -o "$out/window.vcd" &&
   ${VCD2FST:-vcd2fst} "$out/window.vcd" "$out/window.fst" > /dev/null 2>&1; then
  ok "VCD export of cycles 1000..1499 read by GTKWave's vcd2fst"
else bad "VCD export"; fi
n=$($tool dump "$out/random.rbt" --from 5 --cycles 3 | wc -l)
[ "$n" = 3 ] && ok "dump of a 3-cycle window" || bad "dump printed $n lines"
# A real workload on the core model, recorded by tiprof sim, through the RTL.
if $b/bin/tiprof sim --rob-trace "$out/quicksort.rbt" $b/workloads/quicksort 3000 > /dev/null 2>&1 &&
   TIPROF_TB_TRACE=$out/quicksort.rbt $sim +bench=replay +cycles=1000000000 +outdir=$out \
     > "$out/replay-quicksort.log" 2>&1 && grep -q "PASS replay" "$out/replay-quicksort.log"; then
  ok "tiprof sim --rob-trace (quicksort 3000) replayed through the RTL: $(grep '^replay:' "$out/replay-quicksort.log")"
else bad "tiprof sim --rob-trace replay (see $out/replay-quicksort.log)"; fi
# Bad inputs: one line, non-zero exit, nothing left behind.
msg=$($tool info /bin/sh 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$(echo "$msg" | wc -l)" = 1 ] && ok "foreign file: $msg" || bad "foreign file ($rc): $msg"
head -c 1000 "$out/random.rbt" > "$out/cut.rbt"
msg=$($tool info "$out/cut.rbt" 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$(echo "$msg" | wc -l)" = 1 ] && ok "truncated trace: $msg" || bad "truncated trace ($rc): $msg"
msg=$($tool info "$out/missing.rbt" 2>&1); rc=$?
[ $rc -ne 0 ] && ok "missing file: $msg" || bad "missing file"
msg=$(TIPROF_TB_TRACE=$out/random.rbt $b/vtip/2-64-16/Vtiprof_tb +bench=replay +outdir=$out 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$msg" | grep -q "recorded for W=4" && ok "replay on a unit of another width refused" || bad "width mismatch not refused"
echo "test-trace: $pass passed, $fail failed"
[ $fail -eq 0 ]
