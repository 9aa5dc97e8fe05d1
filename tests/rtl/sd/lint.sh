#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Lint the selective-dispatch blocks (docs/seldisp-rtl.md) on Verilator (-Wall), Icarus (-g2012,
# waivers: rtl/lint/icarus.waive) and Yosys (synth, check -assert, no latches, no warnings), each
# module on its own at its smallest and largest parameters.
set -u
verilator=$1 iverilog=$2 yosys=$3
out=build/lint/sd; mkdir -p "$out"
fail=0; pass=0
# module "PARAM=V ..." per point
points=(
  "tiprof_sd_flags Rw=1 Ckpt=1"
  "tiprof_sd_flags Rw=8 Ckpt=16"
  "tiprof_sd_filter W=1 PcW=32 PopLat=0"
  "tiprof_sd_filter W=8 PcW=64 PopLat=7"
  "tiprof_sd_fpred Entries=2 PcW=32 W=1 LockW=2"
  "tiprof_sd_fpred Entries=256 PcW=64 W=8 LockW=8"
)
for pt in "${points[@]}"; do
  read -r mod params <<<"$pt"
  tag=$mod-$(echo "$params" | tr ' =' '_-')
  src=rtl/$mod.sv
  vg= ig= yg=
  for p in $params; do
    vg="$vg -G$p"; ig="$ig -P$mod.$p"; yg="$yg -set ${p%%=*} ${p#*=}"
  done
  if $verilator --lint-only -Wall rtl/lint/verilator.vlt "$src" --top-module "$mod" $vg \
       >"$out/verilator-$tag.log" 2>&1; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "  FAIL  verilator -Wall $tag:"; sed 's/^/        /' "$out/verilator-$tag.log" | head -20; fi
  $iverilog -g2012 -o "$out/icarus-$tag.vvp" -s "$mod" $ig "$src" >"$out/icarus-$tag.log" 2>&1
  rc=$?
  left=$(python3 - "$out/icarus-$tag.log" <<'PY'
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
    fail=$((fail + 1)); echo "  FAIL  iverilog -g2012 $tag:"; echo "$left" | head -20 | sed 's/^/        /'; fi
  $yosys -q -l "$out/yosys-$tag.log" -p "read_verilog -sv $src; chparam $yg $mod; synth -top $mod; \
     check -assert; tee -q -o $out/yosys-$tag.stat stat" >/dev/null 2>&1
  rc=$?
  if [ $rc -eq 0 ] && ! grep -qiE "warning|^Latch inferred" "$out/yosys-$tag.log" \
       && ! grep -qi 'latch' "$out/yosys-$tag.stat"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "  FAIL  yosys $tag:"; grep -iE "warning|error|latch" "$out/yosys-$tag.log" | grep -v "No latch" | head -10 | sed 's/^/        /'; fi
done
echo "lint-sd-rtl: $pass passed, $fail failed (Verilator -Wall, Icarus -g2012, Yosys synth per block and parameter point)"
[ $fail -eq 0 ]
