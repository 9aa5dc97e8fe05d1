#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run.sh - the test-vcd tier: unit tests of the VCD writer and ring, then each
# produced VCD read back and compared value by value at every time with what
# was written, by two readers: tests/lib/vcd/vcd_check.py, and GTKWave's own parser
# (vcd2fst, then fst2vcd to get its reading back as text). The checker is
# itself validated on a VCD that Icarus writes, and must reject broken files.
# Called by lib/vcd/vcd.mk with BUILD_DIR, TEST_BIN, PYTHON, IVERILOG, VVP,
# VCD2FST and FST2VCD set. Skips nothing: a missing tool is a failure.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out="$BUILD_DIR/test-out"
check="$PYTHON $here/vcd_check.py"
passed=0
failed=0

rm -rf "$out" && mkdir -p "$out"

# run NAME CMD...: run one test, output in $out/NAME.log.
run() {
  local name=$1
  shift
  if "$@" >"$out/$name.log" 2>&1; then
    echo "  ok    $name"
    passed=$((passed + 1))
  else
    echo "  FAIL  $name (log: $out/$name.log)"
    sed 's/^/        /' "$out/$name.log" | head -20
    failed=$((failed + 1))
  fi
}

# fails CMD...: succeed only if CMD fails (a checker must reject bad input).
fails() { ! "$@"; }

# gtkwave_check IN.vcd IN.exp: GTKWave's reading of IN.vcd (vcd2fst, then
# fst2vcd to have it as text) must hold the values of IN.exp.
gtkwave_check() {
  local base=${1%.vcd}
  "$VCD2FST" "$1" "$base.fst" && "$FST2VCD" "$base.fst" >"$base.gtkw.vcd" &&
    $check compare "$base.gtkw.vcd" "$2"
}

# icarus_run: build and run the counter testbench in $out.
icarus_run() {
  "$IVERILOG" -g2012 -Wall -o "$out/counter.vvp" "$here/tiprof_vcd_counter_tb.sv" &&
    (cd "$out" && "$VVP" -n counter.vvp +exp=counter.exp +vcd=counter.vcd)
}

for tool in "$PYTHON" "$IVERILOG" "$VVP" "$VCD2FST" "$FST2VCD"; do
  if ! command -v "$tool" >/dev/null; then
    echo "test-vcd: $tool not found; run 'make deps' (Debian packages python3, iverilog, gtkwave)" >&2
    echo "test-vcd: 0 passed, 1 failed"
    exit 1
  fi
done

run unit "$TEST_BIN"
sed 's/^/        /' "$out/unit.log"

# Random writer runs and ring runs, each through both readers.
for seed in 1 2 3; do
  run "gen$seed-make" "$TEST_BIN" gen "$out/gen$seed.vcd" "$out/gen$seed.exp" "$seed"
  run "gen$seed-check" $check compare --strict "$out/gen$seed.vcd" "$out/gen$seed.exp"
  run "gen$seed-gtkwave" gtkwave_check "$out/gen$seed.vcd" "$out/gen$seed.exp"
done
for seed in 1 2; do
  run "ring$seed-make" "$TEST_BIN" ring "$out/ring$seed.vcd" "$out/ring$seed.exp" "$seed"
  run "ring$seed-check" $check compare --strict "$out/ring$seed.vcd" "$out/ring$seed.exp"
  run "ring$seed-gtkwave" gtkwave_check "$out/ring$seed.vcd" "$out/ring$seed.exp"
done

# The checker on a VCD written by Icarus, against what the testbench saw.
run icarus-make icarus_run
run icarus-check $check compare "$out/counter.vcd" "$out/counter.exp"
run icarus-gtkwave gtkwave_check "$out/counter.vcd" "$out/counter.exp"

# The checker must see a wrong value (the 50th vector change loses its top
# bit) and, with --strict, a value rewritten unchanged (after the 20th step).
awk 'd == 0 && /^b1/ && ++n == 50 { sub(/^b1/, "b0"); d = 1 } { print }' \
  "$out/gen1.vcd" >"$out/bad-value.vcd"
run checker-rejects-value fails $check compare "$out/bad-value.vcd" "$out/gen1.exp"
awk '{ print } p && !d { print; d = 1 } { p = (/^#/ && ++h == 20) }' \
  "$out/gen1.vcd" >"$out/bad-rewrite.vcd"
run checker-rejects-rewrite fails $check compare --strict "$out/bad-rewrite.vcd" "$out/gen1.exp"
run checker-accepts-rewrite $check compare "$out/bad-rewrite.vcd" "$out/gen1.exp"

echo "test-vcd: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
