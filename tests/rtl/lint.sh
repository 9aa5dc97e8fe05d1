#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Lint the RTL on Verilator (-Wall), Icarus (-g2012) and Yosys (synthesis, no latches, no
# warnings) for every cached configuration. Waivers: rtl/lint/verilator.vlt, rtl/lint/icarus.waive.
# $5 (optional): ProfileMe configurations pF-XLEN-DEPTH-TAGS[-s] (the unit with PmF = F, TIP at
# W = 2, FIFO 2; -s = input stage), linted the same way.
set -u
verilator=$1 iverilog=$2 yosys=$3 configs=$4 pmconfigs=${5:-}
rtl=$(grep -v '^//' rtl/tiprof.f | tr '\n' ' ')
out=build/lint; mkdir -p "$out"
fail=0; pass=0
for cfg in $configs $pmconfigs; do
  pf=0 pd=1 pt=2
  case $cfg in
    p*) IFS=- read -r pf x pd pt st <<<"${cfg#p}"; w=2 d=2 ;;
    *)  IFS=- read -r w x d st <<<"$cfg" ;;
  esac
  stage=$([ "$st" = s ] && echo 1 || echo 0)
  if $verilator --lint-only -Wall rtl/lint/verilator.vlt $rtl --top-module tiprof_unit \
       -GW="$w" -GXLEN="$x" -GFifoDepth="$d" -GInputStage="$stage" -GPmF="$pf" -GPmFifoDepth="$pd" \
       -GPmTags="$pt" >"$out/verilator-$cfg.log" 2>&1; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "  FAIL  verilator -Wall $cfg:"; sed 's/^/        /' "$out/verilator-$cfg.log" | head -20
  fi
  $iverilog -g2012 -o "$out/icarus-$cfg.vvp" -s tiprof_unit -Ptiprof_unit.W="$w" \
     -Ptiprof_unit.XLEN="$x" -Ptiprof_unit.FifoDepth="$d" -Ptiprof_unit.InputStage="$stage" \
     -Ptiprof_unit.PmF="$pf" -Ptiprof_unit.PmFifoDepth="$pd" -Ptiprof_unit.PmTags="$pt" $rtl >"$out/icarus-$cfg.log" 2>&1
  rc=$?
  left=$(python3 - "$out/icarus-$cfg.log" <<'PY'
import fnmatch, re, sys
waivers = []
for line in open('rtl/lint/icarus.waive'):
    if line.strip() and not line.startswith('#'):
        g, r = line.rstrip('\n').split('\t', 1)
        waivers.append((g, re.compile(r)))
for msg in open(sys.argv[1]):
    msg = msg.rstrip('\n')
    f = msg.split(':', 1)[0]
    if not any(fnmatch.fnmatch(f, g) and r.search(msg) for g, r in waivers):
        print(msg)
PY
)
  if [ $rc -eq 0 ] && [ -z "$left" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "  FAIL  iverilog -g2012 $cfg:"; echo "$left" | head -20 | sed 's/^/        /'; fi
  $yosys -q -l "$out/yosys-$cfg.log" -p "read_verilog -sv $rtl; chparam -set W $w -set XLEN $x \
     -set FifoDepth $d -set InputStage $stage -set PmF $pf -set PmFifoDepth $pd -set PmTags $pt tiprof_unit; synth -top tiprof_unit; check -assert; tee -q -o $out/yosys-$cfg.stat stat" >/dev/null 2>&1
  rc=$?
  if [ $rc -eq 0 ] && ! grep -qiE "warning|^Latch inferred" "$out/yosys-$cfg.log" \
       && ! grep -qi 'latch' "$out/yosys-$cfg.stat"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "  FAIL  yosys $cfg:"; grep -iE "warning|error|latch" "$out/yosys-$cfg.log" | grep -v "No latch" | head -10 | sed 's/^/        /'; fi
done
echo "lint-rtl: $pass passed, $fail failed (Verilator -Wall, Icarus -g2012, Yosys synth per configuration)"
[ $fail -eq 0 ]
