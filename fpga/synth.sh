#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synthesis table of the tiprof unit: Yosys generic cells and flip-flops at FIFO depth 1 and D,
# synth_xilinx LUTs and FFs with the hierarchy kept and flattened, for W = 1, 2, 4, 8 at XLEN = 64,
# the paper-comparable storage (OIR + one sample), flip-flops per component and the storage
# outside the FIFO, and synth_ice40 + nextpnr-ice40 maximum frequency and critical path of one
# small configuration, with every input on one clock, with the CSR port on its own, and with the
# unit's input stage; the cost of the input stage at W=4.
# Usage: fpga/synth.sh [FIFO_DEPTH]   (env: YOSYS, NEXTPNR_ICE40; SYNTH_REPORT_ONLY=1 reprints the
# tables from an earlier run's build/synth without synthesizing)
set -u
depth=${1:-8}
yosys=${YOSYS:-yosys}
nextpnr=${NEXTPNR_ICE40:-nextpnr-ice40}
out=build/synth; mkdir -p "$out"
rtl=$(grep -v '^//' rtl/tiprof.f | tr '\n' ' ')

run_generic() { # W XLEN DEPTH [INPUT_STAGE [PM_F PM_DEPTH]]
  local tag=w$1-x$2-d$3 st=${4:-0} pf=${5:-0} pd=${6:-8}
  [ "$st" = 1 ] && tag=$tag-s
  [ "$pf" != 0 ] && tag=$tag-pm$pf-d$pd
  $yosys -q -l "$out/generic-$tag.log" -p "read_verilog -sv $rtl; chparam -set W $1 -set XLEN $2 \
    -set FifoDepth $3 -set InputStage $st -set PmF $pf -set PmFifoDepth $pd tiprof_unit; synth -top tiprof_unit; check -assert; \
    tee -q -o $out/generic-$tag.stat stat -top tiprof_unit" >/dev/null 2>&1 || { echo "synth: yosys failed for $tag (see $out/generic-$tag.log)"; return 1; }
}
run_xilinx() { # W XLEN DEPTH flat|hier
  local tag=w$1-x$2-d$3-$4 flat=
  [ "$4" = flat ] && flat=-flatten
  $yosys -q -l "$out/xilinx-$tag.log" -p "read_verilog -sv $rtl; chparam -set W $1 -set XLEN $2 \
    -set FifoDepth $3 tiprof_unit; synth_xilinx -top tiprof_unit $flat; \
    tee -q -o $out/xilinx-$tag.stat stat -top tiprof_unit" >/dev/null 2>&1 || { echo "synth: synth_xilinx failed for $tag"; return 1; }
}
# iCE40 place and route of one configuration that fits an HX8K (W=2, XLEN=32, FIFO depth 2),
# inside the timing wrapper fpga/tiprof_fpga_top.sv; $1 = 0: every input on clk_i, 1: the CSR
# port's inputs on a clock of their own (clk_i then times the paths a core sees every cycle);
# $2 = 1: the unit with its input stage (InputStage = 1).
run_ice40() {
  local tag=ice40-csrclk$1 st=${2:-0}
  [ "$st" = 1 ] && tag=$tag-s
  $yosys -q -l "$out/$tag.log" -p "read_verilog -sv -Irtl $rtl fpga/tiprof_fpga_top.sv; chparam -set W 2 \
    -set XLEN 32 -set FifoDepth 2 -set CsrOwnClock $1 -set InputStage $st tiprof_fpga_top; \
    synth_ice40 -top tiprof_fpga_top -json $out/$tag.json" >/dev/null 2>&1 \
    || { echo "synth: synth_ice40 failed (see $out/$tag.log)"; return 1; }
  $nextpnr --hx8k --package ct256 --json "$out/$tag.json" --freq 50 --seed 1 --timing-allow-fail \
    --log "$out/$tag-nextpnr.log" --quiet >/dev/null 2>&1 \
    || { echo "synth: nextpnr-ice40 failed (see $out/$tag-nextpnr.log)"; return 1; }
}

jobs_list=()
[ -n "${SYNTH_REPORT_ONLY:-}" ] && w_list= || w_list="1 2 4 8"	# reprint from build/synth
for w in $w_list; do
  jobs_list+=("run_generic $w 64 1" "run_generic $w 64 $depth" "run_xilinx $w 64 $depth flat"
              "run_xilinx $w 64 $depth hier")
done
[ -n "${SYNTH_REPORT_ONLY:-}" ] || jobs_list+=("run_ice40 0" "run_ice40 1" "run_ice40 1 1"
                                               "run_generic 4 64 $depth 1"
                                               "run_generic 4 64 $depth 0 4 1" "run_generic 4 64 $depth 0 4 $depth"
                                               "run_generic 4 64 $depth 0 8 $depth")
fail=0
for j in "${jobs_list[@]+"${jobs_list[@]}"}"; do
  $j & 
  # two cores: keep at most two jobs running
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do sleep 0.2; done
done
for p in $(jobs -p); do wait "$p" || fail=1; done
wait
[ $fail -eq 0 ] || exit 1

python3 - "$out" "$depth" <<'PY'
import re, sys
out, depth = sys.argv[1], int(sys.argv[2])

def stat(path):
    """Per-module cell counts and instance counts of a Yosys `stat -top` report, and the
    whole design's cell counts (the hierarchy summary, or the one module when flattened)."""
    mods, cur, inst, total, section = {}, None, {}, {}, None
    for line in open(path):
        s = line.strip()
        m = re.match(r'=== (.*) ===', s)
        if m:
            section = m.group(1)
            cur = None if section == 'design hierarchy' else section
            if cur:
                mods[cur] = {}
            continue
        if section == 'design hierarchy':
            m = re.match(r'(\S+)\s+(\d+)$', s)
            if m and not s.startswith('Number'):
                if m.group(1).startswith('$') or m.group(1).startswith('tiprof') or '\\' in m.group(1):
                    inst[m.group(1)] = int(m.group(2))
                if re.match(r'\$_|LUT|FD|CARRY|MUX|RAM|SRL|DSP|BUF|IBUF|OBUF|INV', m.group(1)):
                    total[m.group(1)] = int(m.group(2))
            m = re.match(r'Number of cells:\s+(\d+)', s)
            if m:
                total['cells'] = int(m.group(1))
            continue
        m = re.match(r'(\S+)\s+(\d+)$', s)
        if cur is not None and m and not m.group(1).startswith('$paramod'):
            mods[cur][m.group(1)] = int(m.group(2))
        m = re.match(r'Number of cells:\s+(\d+)', s)
        if cur is not None and m:
            mods[cur]['cells'] = int(m.group(1))
    if not total:		# flattened: one module is the design
        total = list(mods.values())[-1]
    return mods, inst, total

def ffs(cells):
    return sum(n for c, n in cells.items() if re.match(r'\$_(S?DFF|DFFE|SDFFE|SDFFCE|ALDFF)', c))

def xluts(cells):
    return sum(n for c, n in cells.items() if re.match(r'LUT\d$', c))

def xffs(cells):
    return sum(n for c, n in cells.items() if re.match(r'FD[CPRSE]+$', c))

def short(name):
    m = re.search(r'(tiprof_\w+)', name)
    return m.group(1) if m else name

def per_component(mods, inst):
    """Flip-flops per component (module FFs times its instances)."""
    per = {}
    for k, v in mods.items():
        n = inst.get(k, 1)
        per[short(k)] = per.get(short(k), 0) + n * ffs(v)
    return per

print(f"tiprof unit synthesis (Yosys 0.23), XLEN=64; FIFO depth 1 and {depth}")
print(f"{'W':>2} {'generic cells':>13} {'FFs d=1':>8} {'FFs d=' + str(depth):>8} {'bytes d=1':>10} "
      f"{'bytes d=' + str(depth):>10} {'Xilinx LUTs hier/flat':>22} {'Xilinx FFs hier/flat':>21}")
rows = []
for w in (1, 2, 4, 8):
    g1 = stat(f"{out}/generic-w{w}-x64-d1.stat")
    gd = stat(f"{out}/generic-w{w}-x64-d{depth}.stat")
    xh = stat(f"{out}/xilinx-w{w}-x64-d{depth}-hier.stat")[2]
    xf = stat(f"{out}/xilinx-w{w}-x64-d{depth}-flat.stat")[2]
    p1, pd = per_component(g1[0], g1[1]), per_component(gd[0], gd[1])
    f1, fd = sum(p1.values()), sum(pd.values())
    print(f"{w:>2} {gd[2].get('cells', 0):>13} {f1:>8} {fd:>8} {f1 / 8:>10.1f} {fd / 8:>10.1f} "
          f"{str(xluts(xh)) + ' / ' + str(xluts(xf)):>22} {str(xffs(xh)) + ' / ' + str(xffs(xf)):>21}")
    rows.append((w, p1, pd))
print()
print("paper-comparable storage: the OIR plus one sample's registers (one FIFO entry at depth 1);")
print("the TIP paper's figure is 57 B = 9 B OIR + 48 B of one sample's CSRs (W=4, XLEN=64)")
for w, p1, pd in rows:
    oir, entry = p1.get('tiprof_tip_oir', 0), p1.get('tiprof_fifo', 0)
    print(f"  W={w}: OIR {oir / 8:.1f} B + one sample {entry / 8:.1f} B = {(oir + entry) / 8:.1f} B"
          + ("   (paper: 57 B)" if w == 4 else ""))
print()
print(f"flip-flops per component (generic synthesis, hierarchy kept, FIFO depth {depth})")
for w, p1, pd in rows:
    parts = ", ".join(f"{k.replace('tiprof_', '')} {n}" for k, n in sorted(pd.items()) if n)
    print(f"  W={w}: {parts}; one FIFO entry {pd.get('tiprof_fifo', 0) / depth:.1f}")
for w, p1, pd in rows:
    print(f"storage_bytes W={w} XLEN=64 (all but the FIFO): "
          f"{(sum(pd.values()) - pd.get('tiprof_fifo', 0)) / 8:.1f}")
g0 = stat(f"{out}/generic-w4-x64-d{depth}.stat")
gs = stat(f"{out}/generic-w4-x64-d{depth}-s.stat")
f0, fs = sum(per_component(*g0[:2]).values()), sum(per_component(*gs[:2]).values())
print(f"input stage (InputStage = 1), W=4 XLEN=64 FIFO {depth}: {fs - f0} more flip-flops "
      f"({fs} vs {f0}, +{(fs - f0) / 8:.1f} B), {gs[2].get('cells', 0)} vs {g0[2].get('cells', 0)} generic cells")
print()
# ProfileMe subsystem (docs/profileme.md "RTL"): the unit at W=4 with PmF = F (two tag ids).
for pf, pdepth in ((4, 1), (4, depth), (8, depth)):
    gp = stat(f"{out}/generic-w4-x64-d{depth}-pm{pf}-d{pdepth}.stat")
    pp = per_component(*gp[:2])
    fp = sum(pp.values())
    pm_parts = {k: n for k, n in pp.items() if k.startswith('tiprof_pm') or k == 'tiprof_interval'}
    print(f"ProfileMe PmF={pf} XLEN=64 Tags=2 record FIFO {pdepth}, unit at W=4 FIFO {depth}: "
          f"{gp[2].get('cells', 0)} generic cells (+{gp[2].get('cells', 0) - g0[2].get('cells', 0)}), "
          f"{fp} FFs (+{fp - f0}, +{(fp - f0) / 8:.1f} B)")
    if pdepth == depth:
        parts = ", ".join(f"{k.replace('tiprof_', '')} {n}" for k, n in sorted(pp.items()) if n)
        print(f"  flip-flops per component (TIP's and ProfileMe's interval and FIFO together): {parts}")
g1p = per_component(*stat(f"{out}/generic-w4-x64-d{depth}-pm4-d1.stat")[:2])
gdp = per_component(*stat(f"{out}/generic-w4-x64-d{depth}-pm4-d{depth}.stat")[:2])
print(f"  ProfileMe record FIFO entry: {(sum(gdp.values()) - sum(g1p.values())) / (depth - 1):.1f} FFs "
      f"(spec: 662 defined bits, 658 stored: FMT is a constant)" if depth > 1 else "")
print(f"  ProfileMe storage outside its FIFO (PmF=4): {(sum(g1p.values()) - f0 - (sum(gdp.values()) - sum(g1p.values())) / max(depth - 1, 1)) / 8:.1f} B")
print()

def ice40(tag):
    log = open(f"{out}/{tag}-nextpnr.log").read()
    fm = re.findall(r"Max frequency for clock\s+'(clk_i[^']*)': ([0-9.]+) MHz", log)
    lcs = re.findall(r"ICESTORM_LC:\s+(\d+)/\s*(\d+)", log)
    # the critical path of clk_i: its first source and last sink, with the netlist suffixes cut
    sec = re.search(r"Critical path report for clock 'clk_i[^']*' \(posedge -> posedge\):\n(.*?)\n(?:Info: \n|Info: Critical|Info: Max)", log, re.S)
    src = snk = "?"
    if sec:
        srcs = re.findall(r"Source (\S+)", sec.group(1))
        snks = re.findall(r"Sink (\S+)", sec.group(1))
        cut = lambda n: re.sub(r"(_SB_|\$).*", "", n.rsplit('.', 1)[0] if n.endswith(('.O', '.I0', '.I1', '.I2', '.I3', '.D', '.E', '.Q', '.CEN', '.CI')) else n)
        src, snk = cut(srcs[0]), cut(snks[-1])
    return fm[-1][1] if fm else "?", lcs[-1] if lcs else ("?", "?"), src, snk

for tag, what in (("ice40-csrclk0", "every input on one clock"),
                  ("ice40-csrclk1", "CSR port on a clock of its own (the paths a core sees every cycle)"),
                  ("ice40-csrclk1-s", "as above, with the input stage (InputStage = 1)")):
    f, (lc, of), src, snk = ice40(tag)
    print(f"ice40 HX8K (W=2 XLEN=32 FIFO 2), {what}: {f} MHz, {lc}/{of} LCs; critical path {src} -> {snk}")
PY
