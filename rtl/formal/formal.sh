#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Bounded model check of the TIP unit with Yosys + yosys-smtbmc + z3 (make formal).
# Configuration W=2, XLEN=32, FIFO depth 3; properties in rtl/formal/tiprof_tip_formal.sv.
# Runs (two at a time):
#   contract  P1-P5 under the ROB-contract assumptions               must pass to DEPTH steps
#   free      P1-P4 with no assumption on the ROB inputs             must pass to DEPTH steps
#   needs-contract  P5 without the contract                          must fail (the assumption is needed)
#   mutants   planted RTL bugs (sed on copies under build/formal/)   each must fail its property
# Usage: rtl/formal/formal.sh [DEPTH]   (env: YOSYS, YOSYS_SMTBMC)
set -u
depth=${1:-10}
yosys=${YOSYS:-yosys}
smtbmc=${YOSYS_SMTBMC:-yosys-smtbmc}
out=build/formal
rm -rf "$out"; mkdir -p "$out"
# The RTL as fpga/synth.sh reads it, less the interval block (tiprof_interval_free.sv replaces it).
rtl=$(grep -v '^//' rtl/tiprof.f | grep -v 'tiprof_interval.sv')
for t in z3 "$yosys" "$smtbmc"; do
  command -v "$t" >/dev/null || { echo "formal: $t not found (scripts/deps.sh installs it)"; exit 1; }
done

# name | defines | expectation (pass, or the assert label that must fail) | file | sed expression
runs=(
  "contract||pass||"
  "free|-DFORMAL_NO_ROB_CONTRACT -DFORMAL_NO_P5|pass||"
  "needs-contract|-DFORMAL_NO_ROB_CONTRACT|p5_||"
  "m1-lost-not-counted||p1_|tiprof_tip.sv|s/(fire \&\& !accept)/(1'b0)/"
  "m2-full-pop-drops||p1_|tiprof_fifo.sv|s/(used_after_pop != CntW'(Depth))/(used_q != CntW'(Depth))/"
  "m3-pop-keeps-head||p2_|tiprof_fifo.sv|s/rd_d   = do_pop ? ptr_add(rd_q, CntW'(1)) : rd_q;/rd_d = rd_q;/"
  "m4-oir-oldest||p3_|tiprof_tip.sv|s/\.youngest_i     (youngest)/.youngest_i (head_bank_i)/"
  "m5-stalled-valid||p4_|tiprof_tip_select.sv|s/valid_o    = head_valid_i;/valid_o    = commit_i;/"
)

run_one() { # spec
  IFS='|' read -r name defs expect file expr <<<"$1"
  local d=$out/$name; mkdir -p "$d/rtl"
  local files=()
  for f in $rtl; do cp "$f" "$d/rtl/"; files+=("$d/rtl/$(basename "$f")"); done
  # the property module, instantiated in the TIP subsystem's scope (what `bind` would do)
  awk -v n="$(grep -c '^endmodule' rtl/tiprof_tip.sv)" \
    '/^endmodule/ { if (++c == n) print "`include \"tiprof_tip_formal_hook.svh\"" } { print }' \
    rtl/tiprof_tip.sv > "$d/rtl/tiprof_tip.sv"
  if [ -n "$file" ]; then
    sed "$expr" "$d/rtl/$file" > "$d/rtl/$file.mut"
    if cmp -s "$d/rtl/$file" "$d/rtl/$file.mut"; then
      echo "  FAIL  $name: the mutation no longer applies to rtl/$file"; return 1; fi
    mv "$d/rtl/$file.mut" "$d/rtl/$file"
  fi
  if ! $yosys -q -l "$d/yosys.log" -p "read_verilog -sv -I rtl/formal ${files[*]}; \
       read_verilog -sv -formal $defs rtl/formal/tiprof_interval_free.sv rtl/formal/tiprof_tip_formal.sv \
       rtl/formal/tiprof_tip_formal_top.sv; prep -flatten -top tiprof_tip_formal_top; memory_map; \
       opt -full; wreduce; opt_clean; async2sync; dffunmap; write_smt2 -wires $d/model.smt2" >/dev/null 2>&1; then
    echo "  FAIL  $name: yosys failed (see $d/yosys.log)"; return 1; fi
  local t0 t1 rc
  t0=$(date +%s)
  $smtbmc -s z3 --unroll -t "$depth" --dump-vcd "$d/trace.vcd" "$d/model.smt2" > "$d/smtbmc.log" 2>&1
  rc=$?; t1=$(date +%s)
  # the last step started and the assertion that failed, if any
  local step label
  step=$(grep -o 'Checking assertions in step [0-9]*' "$d/smtbmc.log" | tail -1 | grep -o '[0-9]*$')
  label=$(grep -o 'Assert failed in [^ ]*: .*' "$d/smtbmc.log" | grep -o '[a-z0-9_]*)\?$' | head -1 | tr -d ')')
  if [ "$expect" = pass ]; then
    if [ $rc -eq 0 ] && grep -q 'Status: PASSED' "$d/smtbmc.log"; then
      echo "  ok    $name: no counterexample in $depth steps ($((t1 - t0)) s)"
    else
      echo "  FAIL  $name: counterexample at step $step ($label; trace $d/trace.vcd)"; return 1; fi
  else
    if grep -q 'Status: FAILED' "$d/smtbmc.log" && grep -q "Assert failed.*$expect" "$d/smtbmc.log"; then
      echo "  ok    $name: counterexample at step $step ($label; trace $d/trace.vcd, $((t1 - t0)) s)"
    else
      echo "  FAIL  $name: expected $expect to fail, got: $(grep -o 'Status: [A-Z]*' "$d/smtbmc.log") $label"; return 1; fi
  fi
}
export -f run_one
export out depth yosys smtbmc rtl

echo "== formal: TIP unit W=2 XLEN=32 FIFO 3, bounded model check to $depth steps (yosys-smtbmc, z3)"
printf '%s\n' "${runs[@]}" | xargs -d '\n' -P 2 -I{} bash -c 'run_one "$1"' _ {} > "$out/results.txt"
cat "$out/results.txt"
pass=$(grep -c '^  ok' "$out/results.txt"); fail=$(grep -c '^  FAIL' "$out/results.txt")
echo "formal: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -eq ${#runs[@]} ]
