#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synthesis table of the selective-dispatch front-end blocks (docs/seldisp-rtl.md): Yosys generic
# cells and flip-flops, and synth_xilinx LUTs and flip-flops (hierarchy flattened: one module), of
# each block at two parameter points (LUTRAM: RAM32M/RAM64M/... cells, where synth_xilinx maps the
# predictor's table to distributed RAM). Usage: fpga/sd_synth.sh (env: YOSYS)
set -u
yosys=${YOSYS:-yosys}
out=build/synth/sd; mkdir -p "$out"
points=(
  "tiprof_sd_flags Rw=1 Ckpt=4"
  "tiprof_sd_flags Rw=4 Ckpt=8"
  "tiprof_sd_filter W=2 PcW=39 PopLat=0"
  "tiprof_sd_filter W=4 PcW=64 PopLat=2"
  "tiprof_sd_fpred Entries=16 PcW=39 W=2 LockW=4"
  "tiprof_sd_fpred Entries=64 PcW=64 W=4 LockW=4"
)
run() { # module params...
  local mod=$1; shift
  local tag yg=
  tag=$mod-$(echo "$*" | tr ' =' '_-')
  for p in "$@"; do yg="$yg -set ${p%%=*} ${p#*=}"; done
  $yosys -q -l "$out/generic-$tag.log" -p "read_verilog -sv rtl/$mod.sv; chparam $yg $mod; \
    synth -top $mod -flatten; check -assert; tee -q -o $out/generic-$tag.stat stat" >/dev/null 2>&1 \
    || { echo "sd_synth: yosys failed for $tag (see $out/generic-$tag.log)"; return 1; }
  $yosys -q -l "$out/xilinx-$tag.log" -p "read_verilog -sv rtl/$mod.sv; chparam $yg $mod; \
    synth_xilinx -top $mod -flatten; tee -q -o $out/xilinx-$tag.stat stat" >/dev/null 2>&1 \
    || { echo "sd_synth: synth_xilinx failed for $tag (see $out/xilinx-$tag.log)"; return 1; }
}
fail=0
for pt in "${points[@]}"; do
  # shellcheck disable=SC2086
  run $pt &
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do sleep 0.2; done
done
for p in $(jobs -p); do wait "$p" || fail=1; done
[ $fail -eq 0 ] || exit 1
python3 - "$out" "${points[@]}" <<'PY'
import re, sys
out, points = sys.argv[1], sys.argv[2:]
def cells(path):
    c = {}
    for line in open(path):
        m = re.match(r'\s+(\S+)\s+(\d+)$', line)
        if m and not line.strip().startswith('Number'):
            c[m.group(1)] = c.get(m.group(1), 0) + int(m.group(2))
    return c
print("| block | parameters | generic cells | FFs | Xilinx LUTs | Xilinx FFs | Xilinx LUTRAM |")
print("|---|---|---:|---:|---:|---:|---:|")
for pt in points:
    mod, *params = pt.split()
    tag = mod + '-' + '_'.join(p.replace('=', '-') for p in params)
    g = cells(f"{out}/generic-{tag}.stat")
    x = cells(f"{out}/xilinx-{tag}.stat")
    ff = sum(v for k, v in g.items() if 'DFF' in k)
    total = sum(g.values())
    luts = sum(v for k, v in x.items() if re.match(r'LUT\d$', k))
    xff = sum(v for k, v in x.items() if re.match(r'FD[A-Z]*$', k))
    ram = sum(v for k, v in x.items() if k.startswith('RAM'))
    print(f"| `{mod}` | {' '.join(params)} | {total} | {ff} | {luts} | {xff} | {ram} |")
PY
