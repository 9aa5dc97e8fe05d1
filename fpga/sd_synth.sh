#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synthesis table of the selective-dispatch front-end blocks (docs/seldisp-rtl.md): Yosys generic
# cells and flip-flops, and synth_xilinx LUTs and flip-flops (hierarchy flattened: one module), of
# each block at two parameter points (LUTRAM: RAM32M/RAM64M/... cells, where synth_xilinx maps the
# predictor's table to distributed RAM); and synth_ice40 + nextpnr-ice40 maximum frequency of the
# three blocks wired as in a front end (fpga/tiprof_sd_fpga_top.sv: W 2, PcW 32, Ckpt 4, 16
# entries) on an HX8K. Usage: fpga/sd_synth.sh (env: YOSYS, NEXTPNR_ICE40; SYNTH_REPORT_ONLY=1 reprints the tables
# from an earlier run's build/synth/sd)
set -u
yosys=${YOSYS:-yosys}
nextpnr=${NEXTPNR_ICE40:-nextpnr-ice40}
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
run_ice40() {
  $yosys -q -l "$out/ice40.log" -p "read_verilog -sv rtl/tiprof_sd_flags.sv rtl/tiprof_sd_filter.sv \
    rtl/tiprof_sd_fpred.sv fpga/tiprof_sd_fpga_top.sv; synth_ice40 -top tiprof_sd_fpga_top \
    -json $out/ice40.json" >/dev/null 2>&1 || { echo "sd_synth: synth_ice40 failed (see $out/ice40.log)"; return 1; }
  $nextpnr --hx8k --package ct256 --json "$out/ice40.json" --freq 50 --seed 1 --timing-allow-fail \
    --log "$out/ice40-nextpnr.log" --quiet >/dev/null 2>&1 \
    || { echo "sd_synth: nextpnr-ice40 failed (see $out/ice40-nextpnr.log)"; return 1; }
}
fail=0
[ -n "${SYNTH_REPORT_ONLY:-}" ] || run_ice40 &
for pt in "${points[@]}"; do
  [ -n "${SYNTH_REPORT_ONLY:-}" ] && continue     # reprint the tables from an earlier run
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
log = open(f"{out}/ice40-nextpnr.log").read()
fm = re.findall(r"Max frequency for clock\s+'(clk_i[^']*)': ([0-9.]+) MHz", log)
lcs = re.findall(r"ICESTORM_LC:\s+(\d+)/\s*(\d+)", log)
sec = re.search(r"Critical path report for clock 'clk_i[^']*' \(posedge -> posedge\):\n(.*?)\n(?:Info: \n|Info: Critical|Info: Max)", log, re.S)
src = snk = "?"
if sec:
    cut = lambda n: re.sub(r"(_SB_|\$).*", "", n.rsplit('.', 1)[0])
    src = cut(re.findall(r"Source (\S+)", sec.group(1))[0])
    snk = cut(re.findall(r"Sink (\S+)", sec.group(1))[-1])
    via = []
    for n in re.findall(r"Sink (\S+)", sec.group(1)):
        m = re.match(r"(u_\w+)\.(\w+)", n)
        k = m.group(1) + '.' + m.group(2) if m else cut(n)
        if not via or via[-1] != k:
            via.append(k)
    snk = ' -> '.join(via)
print()
print(f"iCE40 HX8K, the three blocks wired (W 2, PcW 32, Ckpt 4, 16 entries; fpga/tiprof_sd_fpga_top.sv): "
      f"{fm[-1][1] if fm else '?'} MHz, {lcs[-1][0] if lcs else '?'}/{lcs[-1][1] if lcs else '?'} LCs "
      f"(the serial input chain included); critical path {src} -> {snk}")
PY
