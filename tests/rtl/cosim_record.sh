#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/rtl/cosim_record.sh - recording a sample file from the RTL co-simulation
# (`tiprof sim --profile FILE --rtl`, docs/report.md) must give the same file, sample for
# sample (byte for byte), as the C-model path; a difference between RTL and C model must stop
# the run with the cycle, expected and observed values and a VCD window, and a ROB-contract
# violation must stop it with the RTL assertion's name; the C-driven speed build of the RTL
# (FIFO 64, with its assertions) must pass the random and CSR benches against the C model.
# Usage: tests/rtl/cosim_record.sh BUILD   (needs BUILD/bin/tiprof, tiprof-cosim-4wide,
#        BUILD/vu/4-64-64/tip_run_vu and the workloads). Ends with 'N passed, N failed'.
set -u
BUILD=$1
T=$BUILD/bin/tiprof
WL=$BUILD/workloads
OUT=$BUILD/tip/cosim-record
pass=0
fail=0
rm -rf "$OUT"
mkdir -p "$OUT"

ok() { pass=$((pass + 1)); echo "  ok    $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL  $1"; }

# Same workload, period and seed through the C model and through the RTL: identical files.
# The workloads see no environment (env -i), so both runs have the same stack.
# The last: TIP's instruction trigger (docs/tip-unit.md), a sample every 53 committed instructions.
for spec in "crc32 6" "quicksort 3000" "crc32 6 --period 200 --rand-bits 0" \
	    "quicksort 3000 -e tip:insts --period 53"; do
	set -- $spec
	w=$1; n=$2; shift 2
	tag=$(echo "$w-$n $*" | tr -c 'a-z0-9\n-' _)
	a=$OUT/$tag.model.tps; b=$OUT/$tag.rtl.tps
	if ! env -i "$T" sim "$@" -o "$OUT/$tag.model.out" --profile "$a" "$WL/$w" "$n" >/dev/null \
	     2>"$OUT/$tag.model.err"; then
		ko "$w $n $*: C-model recording failed: $(tail -1 "$OUT/$tag.model.err")"; continue
	fi
	if ! env -i "$T" sim "$@" -o "$OUT/$tag.rtl.out" --rtl --profile "$b" "$WL/$w" "$n" >/dev/null \
	     2>"$OUT/$tag.rtl.err"; then
		ko "$w $n $*: RTL recording failed: $(tail -1 "$OUT/$tag.rtl.err")"; continue
	fi
	checked=$(sed -n 's/.*C model on all \([0-9]*\) unit cycles.*/\1/p' "$OUT/$tag.rtl.err")
	samples=$(sed -n 's/^tiprof sim: \([0-9]*\) samples.*/\1/p' "$OUT/$tag.rtl.err")
	if [ -z "$checked" ]; then
		ko "$w $n $*: no RTL = C model line"; sed 's/^/        /' "$OUT/$tag.rtl.err"
	elif ! cmp -s "$a" "$b"; then
		ko "$w $n $*: the RTL's sample file differs from the C model's"
		"$T" dump "$a" >"$a.txt" 2>&1; "$T" dump "$b" >"$b.txt" 2>&1
		diff "$a.txt" "$b.txt" | head -5 | sed 's/^/        /'
	elif ! "$T" report "$b" >"$OUT/$tag.report" 2>&1; then
		ko "$w $n $*: tiprof report cannot read the RTL's file"
	elif ! cmp -s "$OUT/$tag.model.out" "$OUT/$tag.rtl.out"; then
		ko "$w $n $*: tiprof sim's report differs between the two paths"
	else
		ok "$w $n $*: $samples samples, file identical to the C model's; RTL = C model on $checked unit cycles"
	fi
done

# A planted difference (bit 0 of the 25th CSR read flipped on the RTL side) must stop the run
# with one stderr line naming the cycle, expected and observed values and the waveform.
f=$OUT/flip.tps
env -i TIPROF_COSIM_FLIP=25 "$T" sim --rtl --profile "$f" "$WL/crc32" 6 \
	>"$OUT/flip.out" 2>"$OUT/flip.err"
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$OUT/flip.err")" -eq 1 ] &&
   grep -q "unit cycle [0-9]*: RTL and C model differ: csr read .* expected rdata=.* got rdata=.*waveform of the last [0-9]* cycles: $f.mismatch.vcd" "$OUT/flip.err" &&
   grep -q '^\$enddefinitions' "$f.mismatch.vcd" && [ ! -e "$f" ]; then
	ok "planted RTL/C-model difference stops the run: $(cut -c1-120 "$OUT/flip.err")..."
else
	ko "planted difference not reported as expected (exit $rc)"; sed 's/^/        /' "$OUT/flip.err"
fi

# The RTL runs with its assertions: a planted ROB-contract violation in core cycle 5000 (a
# commit in a bank without an entry) must stop the run with the assertion's name and a waveform.
f=$OUT/robbreak.tps
env -i TIPROF_COSIM_ROB_BREAK=5000 "$T" sim --rtl --profile "$f" "$WL/crc32" 6 \
	>"$OUT/robbreak.out" 2>"$OUT/robbreak.err"
rc=$?
# (Verilator prints the assertion on stdout; the ROB inputs are registered in the speed build, so
# the assertion judges them while the next core cycle is clocked.)
if [ $rc -eq 1 ] && grep -q "Assertion failed in .*a_rob_commit_valid" "$OUT/robbreak.out" &&
   grep -q "RTL unit stopped while clocking core cycle 500[01]: an RTL assertion failed.*waveform of the last [0-9]* cycles: $f.mismatch.vcd" "$OUT/robbreak.err" &&
   grep -q '^\$enddefinitions' "$f.mismatch.vcd" && [ ! -e "$f" ]; then
	ok "planted ROB-contract violation stops the RTL run: $(grep -o 'a_rob_commit_valid:[^(]*' "$OUT/robbreak.out" | head -1)"
else
	ko "planted ROB-contract violation not reported as expected (exit $rc)"; cat "$OUT/robbreak.out" "$OUT/robbreak.err" | tail -5 | sed 's/^/        /'
fi

# Usage: --rtl records, so it needs --profile.
"$T" sim --rtl "$WL/crc32" 6 >"$OUT/usage.out" 2>"$OUT/usage.err"
if [ $? -eq 2 ] && [ ! -s "$OUT/usage.out" ]; then ok "--rtl without --profile: usage error"
else ko "--rtl without --profile"; fi

# The speed build (FIFO 64, the one tiprof-cosim links) against the C model on the benches.
for b in "random 300000" "csr_rules 100000" "fifo_full_pop 100000"; do
	set -- $b
	log=$OUT/vu-$1.log
	if "$BUILD/vu/4-64-64/tip_run_vu" --bench "$1" --w 4 --xlen 64 --depth 64 --seed 1 \
	     --cycles "$2" --outdir "$OUT" >"$log" 2>&1 && grep -q "PASS" "$log"; then
		ok "speed build 4-64-64, bench $1: $(grep -o '[0-9]* cycles, [0-9]* checks' "$log")"
	else
		ko "speed build 4-64-64, bench $1 (log: $log)"; grep FAIL "$log" | sed 's/^/        /'
	fi
done

echo "test-cosim-record: $pass passed, $fail failed"
[ $fail -eq 0 ]
