#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The RTL's assertions fire: each ROB-contract violation case of the rob_violation bench
# (tests/rtl/bench_violation.c) must stop the Verilated simulation with a non-zero exit, the
# expected assertion's name and the harness's FAIL line; case "none" (the same run kept legal)
# must pass. Prints 'N passed, N failed'.
# Usage: assert.sh VTIPDIR OUTDIR   (VTIPDIR = build/vtip, with the 2-64-16 and 4-64-8 builds)
set -u
vtip=$1 out=$2
mkdir -p "$out"
pass=0 fail=0
# case  assertion that must fire ("-": none, the run must pass)
cases="none:- commit_invalid:a_rob_commit_valid valid_gap:a_rob_valid_in_order
commit_out_of_order:a_rob_commit_in_order flush_not_youngest:a_rob_flush_youngest
exception_and_flush:a_rob_exception_oldest
exception_empty:a_rob_exception_oldest dispatch_wrong_bank:a_rob_empty_dispatch
head_vanishes:a_rob_head_holds head_skips:a_rob_head_advances
priv_change_drained:a_rob_priv_same priv_change_flushed:-"
echo "== test-tip-assert: ROB-contract violations must stop the RTL simulation with the named assertion"
for cfg in 2-64-16 4-64-8; do
  for c in $cases; do
    name=${c%%:*} want=${c#*:} log=$out/assert-$cfg-$name.log
    TIPROF_TB_VIOLATION=$name "$vtip/$cfg/Vtiprof_tb" +bench=rob_violation +outdir="$out" >"$log" 2>&1
    rc=$?
    got=$(grep -o 'Assertion failed in [^:]*' "$log" | head -1 | sed 's/.*\.//')
    if [ "$want" = - ]; then
      if [ $rc -eq 0 ] && [ -z "$got" ] && grep -q "tip-harness: PASS" "$log"; then
        pass=$((pass + 1)); printf '  ok    %-8s %-20s legal run passes\n' "$cfg" "$name"
      else
        fail=$((fail + 1)); printf '  FAIL  %-8s %-20s legal run stopped (rc %s, %s; log %s)\n' "$cfg" "$name" $rc "${got:-no assertion}" "$log"
      fi
    elif [ $rc -ne 0 ] && [ "$got" = "$want" ] && grep -q "tip-harness: FAIL rob_violation" "$log"; then
      pass=$((pass + 1)); printf '  ok    %-8s %-20s stopped by %s (exit %s)\n' "$cfg" "$name" "$got" $rc
    else
      fail=$((fail + 1)); printf '  FAIL  %-8s %-20s want %s, got %s (exit %s; log %s)\n' "$cfg" "$name" "$want" "${got:-none}" $rc "$log"
    fi
  done
done
echo "test-tip-assert: $pass passed, $fail failed"
[ $fail -eq 0 ]
