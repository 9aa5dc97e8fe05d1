#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synthesis table of the tiprof unit: Yosys generic cells and flip-flops, synth_xilinx LUTs and
# FFs for W = 1, 2, 4, 8 at XLEN = 64, flip-flops per component and the architectural storage
# outside the FIFO, and synth_ice40 + nextpnr-ice40 maximum frequency for one small configuration.
# Usage: fpga/synth.sh [FIFO_DEPTH]   (env: YOSYS, NEXTPNR_ICE40)
set -u
depth=${1:-8}
yosys=${YOSYS:-yosys}
nextpnr=${NEXTPNR_ICE40:-nextpnr-ice40}
out=build/synth; mkdir -p "$out"
rtl=$(grep -v '^//' rtl/tiprof.f | tr '\n' ' ')

run_generic() { # W XLEN DEPTH
  local tag=w$1-x$2-d$3
  $yosys -q -l "$out/generic-$tag.log" -p "read_verilog -sv $rtl; chparam -set W $1 -set XLEN $2 \
    -set FifoDepth $3 tiprof_unit; synth -top tiprof_unit; check -assert; \
    tee -q -o $out/generic-$tag.stat stat" >/dev/null 2>&1 || { echo "synth: yosys failed for $tag (see $out/generic-$tag.log)"; return 1; }
}
run_xilinx() {
  local tag=w$1-x$2-d$3
  $yosys -q -l "$out/xilinx-$tag.log" -p "read_verilog -sv $rtl; chparam -set W $1 -set XLEN $2 \
    -set FifoDepth $3 tiprof_unit; synth_xilinx -top tiprof_unit -flatten; \
    tee -q -o $out/xilinx-$tag.stat stat" >/dev/null 2>&1 || { echo "synth: synth_xilinx failed for $tag"; return 1; }
}

pids=()
for w in 1 2 4 8; do
  run_generic $w 64 "$depth" & pids+=($!)
  run_xilinx $w 64 "$depth" & pids+=($!)
  # two cores: keep at most two jobs running
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do sleep 0.2; done
done
wait

python3 - "$out" "$depth" <<'PY'
import re, sys
out, depth = sys.argv[1], sys.argv[2]

def modules(path):
    """Per-module cell counts of a Yosys `stat` report."""
    mods, cur = {}, None
    for line in open(path):
        m = re.match(r'=== (.*) ===', line.strip())
        if m:
            cur = m.group(1) if m.group(1) != 'design hierarchy' else None
            if cur:
                mods[cur] = {}
            continue
        m = re.match(r'\s+(\S+)\s+(\d+)$', line)
        if cur and m and not m.group(1).startswith('$paramod'):
            mods[cur][m.group(1)] = int(m.group(2))
        m = re.match(r'\s+Number of cells:\s+(\d+)', line)
        if cur and m:
            mods[cur]['cells'] = int(m.group(1))
    return mods

def ffs(cells):
    return sum(n for c, n in cells.items() if re.match(r'\$_(S?DFF|DFFE|SDFFE|SDFFCE|ALDFF)', c))

def short(name):
    m = re.search(r'(tiprof_\w+)', name)
    return m.group(1) if m else name

print(f"tiprof unit synthesis (Yosys 0.23), XLEN=64, FIFO depth {depth}")
print(f"{'W':>2} {'generic cells':>14} {'flip-flops':>11} {'xilinx LUTs':>12} {'xilinx FFs':>11}")
rows = []
for w in (1, 2, 4, 8):
    tag = f"w{w}-x64-d{depth}"
    g = modules(f"{out}/generic-{tag}.stat")
    x = modules(f"{out}/xilinx-{tag}.stat")
    top = [k for k in g if short(k) == 'tiprof_unit'][0]
    # the hierarchy is kept: sum every module once (each is instantiated once, bank_order twice)
    total_cells = sum(v.get('cells', 0) for k, v in g.items() if k != top) + g[top].get('cells', 0)
    per = {}
    for k, v in g.items():
        per[short(k)] = per.get(short(k), 0) + ffs(v)
    ff = sum(per.values())
    xt = list(x.values())[-1]
    luts = sum(n for c, n in xt.items() if re.match(r'LUT\d$', c))
    xff = sum(n for c, n in xt.items() if re.match(r'FD[CPRSE]+$', c))
    print(f"{w:>2} {total_cells:>14} {ff:>11} {luts:>12} {xff:>11}")
    rows.append((w, per, ff))
print()
print("flip-flops per component (generic synthesis; FIFO entry = FIFO flip-flops / depth)")
for w, per, ff in rows:
    fifo = per.get('tiprof_tip_fifo', 0)
    parts = ", ".join(f"{k.replace('tiprof_', '')} {n}" for k, n in sorted(per.items()) if n)
    print(f"  W={w}: {parts}; one FIFO entry ~{fifo / int(depth):.1f}")
for w, per, ff in rows:
    fifo = per.get('tiprof_tip_fifo', 0)
    print(f"storage_bytes W={w} XLEN=64: {(ff - fifo) / 8:.1f}")
PY

# iCE40: a configuration that fits an HX8K (W=2, XLEN=32, FIFO depth 2), inside the timing
# wrapper fpga/tiprof_fpga_top.sv (inputs from a register chain, outputs folded into one pin).
$yosys -q -l "$out/ice40.log" -p "read_verilog -sv $rtl fpga/tiprof_fpga_top.sv; chparam -set W 2 \
  -set XLEN 32 -set FifoDepth 2 tiprof_fpga_top; synth_ice40 -top tiprof_fpga_top -json $out/ice40.json" >/dev/null 2>&1 \
  || { echo "synth: synth_ice40 failed (see $out/ice40.log)"; exit 1; }
if $nextpnr --hx8k --package ct256 --json "$out/ice40.json" --freq 50 --seed 1 --timing-allow-fail \
     --log "$out/nextpnr.log" --quiet >/dev/null 2>&1; then
  fmax=$(grep -o "Max frequency for clock[^:]*: [0-9.]* MHz" "$out/nextpnr.log" | tail -1 | sed "s/.*: //")
  cells=$(grep -E "ICESTORM_LC:" "$out/nextpnr.log" | tail -1 | sed 's/^Info: *//')
  echo "ice40 HX8K (W=2 XLEN=32 FIFO 2): $fmax; $cells"
else
  echo "synth: nextpnr-ice40 failed (see $out/nextpnr.log)"; exit 1
fi
