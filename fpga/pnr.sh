#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# fpga/pnr.sh - synthesis, place-and-route, timing and bitstream of the unit's Wishbone
# peripheral (fpga/tiprof_wb_unit.sv in the timing wrapper fpga/tiprof_wb_fpga_top.sv) on an
# iCE40 HX8K (ct256, the iCE40-HX8K breakout board's pins in fpga/ice40-hx8k-bb.pcf), with the
# open toolchain of Debian 12: yosys synth_ice40, nextpnr-ice40, icepack and icetime
# (fpga-icestorm, fpga-icestorm-chipdb). Prints one line of figures; docs/fpga.md has them.
# Usage: fpga/pnr.sh [W XLEN FIFO_DEPTH]   (default 2 32 2; env YOSYS, NEXTPNR_ICE40, ICEPACK,
# ICETIME, PNR_OUT = build/fpga, PNR_FREQ = 50 MHz target, PNR_SEED = 1)
set -euo pipefail
w=${1:-2} xlen=${2:-32} depth=${3:-2}
yosys=${YOSYS:-yosys}
nextpnr=${NEXTPNR_ICE40:-nextpnr-ice40}
icepack=${ICEPACK:-icepack}
icetime=${ICETIME:-icetime}
out=${PNR_OUT:-build/fpga}
freq=${PNR_FREQ:-50}
seed=${PNR_SEED:-1}
for t in "$yosys" "$nextpnr" "$icepack" "$icetime"; do
	command -v "$t" >/dev/null || {
		echo "pnr: $t missing: sudo apt-get install -y yosys nextpnr-ice40 fpga-icestorm fpga-icestorm-chipdb" >&2
		exit 1
	}
done
mkdir -p "$out"
tag=wb-w$w-x$xlen-d$depth
rtl=$(grep -v '^//' rtl/tiprof.f | tr '\n' ' ')
t0=$(date +%s)
"$yosys" -q -l "$out/$tag-yosys.log" -p "read_verilog -sv -Irtl $rtl fpga/tiprof_wb.sv \
	fpga/tiprof_wb_unit.sv fpga/tiprof_wb_fpga_top.sv; chparam -set W $w -set XLEN $xlen \
	-set FifoDepth $depth tiprof_wb_fpga_top; synth_ice40 -top tiprof_wb_fpga_top \
	-json $out/$tag.json" >/dev/null \
	|| { echo "pnr: synth_ice40 failed (see $out/$tag-yosys.log)" >&2; exit 1; }
t1=$(date +%s)
"$nextpnr" --hx8k --package ct256 --pcf fpga/ice40-hx8k-bb.pcf --json "$out/$tag.json" \
	--asc "$out/$tag.asc" --freq "$freq" --seed "$seed" --timing-allow-fail \
	--log "$out/$tag-nextpnr.log" --quiet >/dev/null 2>&1 \
	|| { echo "pnr: nextpnr-ice40 failed (see $out/$tag-nextpnr.log)" >&2; exit 1; }
t2=$(date +%s)
"$icepack" "$out/$tag.asc" "$out/$tag.bin"
"$icetime" -d hx8k -P ct256 -p fpga/ice40-hx8k-bb.pcf -t "$out/$tag.asc" \
	-r "$out/$tag-icetime.rpt" >/dev/null 2>&1 \
	|| { echo "pnr: icetime failed (see $out/$tag-icetime.rpt)" >&2; exit 1; }
log=$out/$tag-nextpnr.log
lc=$(sed -n 's/.*ICESTORM_LC: *\([0-9]*\)\/ *\([0-9]*\).*/\1\/\2/p' "$log" | tail -1)
ram=$(sed -n 's/.*ICESTORM_RAM: *\([0-9]*\)\/ *\([0-9]*\).*/\1\/\2/p' "$log" | tail -1)
fmax=$(sed -n "s/.*Max frequency for clock *'clk_i[^']*': \([0-9.]*\) MHz.*/\1/p" "$log" | tail -1)
itime=$(sed -n 's/.*Total path delay: \([0-9.]*\) ns (\([0-9.]*\) MHz).*/\2/p' "$out/$tag-icetime.rpt" | tail -1)
size=$(wc -c <"$out/$tag.bin")
sum=$(sha256sum "$out/$tag.bin" | cut -c1-16)
echo "pnr: iCE40 HX8K ct256, tiprof_wb_unit W=$w XLEN=$xlen FIFO $depth (Wishbone, no input stage):" \
	"$lc LCs, $ram RAM4K; nextpnr fmax $fmax MHz (seed $seed, target $freq), icetime $itime MHz;" \
	"bitstream $out/$tag.bin $size bytes sha256 $sum...; yosys $((t1 - t0)) s, nextpnr $((t2 - t1)) s"
