#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# instr-tests.sh - test-seldisp-instr: the instrumenter and runtime of sw/seldisp
# (docs/seldisp.md section 9) on tests/sim/seldisp/instr_prog.c.
#   instr-tests.sh OUT SWDIR       (SWDIR: the instrumenter's folder, sw/seldisp or a mutant)
# Environment: TIPROF, RV_CC, RV_OBJDUMP, RV_NM, QEMU, OBJDUMP_CHECK, INC (the include folder).
# Checks: stdout of the instrumented build on the ISS with profiling off (w=0), on (w=100) and
# windowed (w=25) and on the core model with selective dispatch and the flag predictor =
# qemu-riscv64's run of the uninstrumented build; every counter = the ISS's exact block count
# (tiprof iss --truth), no block left uncounted, pushpf/poppf balanced; the windowed profile
# is a part of the full one; objdump and the project's decoder agree on every word.
# Last line: "N passed, N failed"; exit status 1 on a failure.
set -u
OUT=$1 SW=$2
N=3000
pass=0 fail=0
ok() { pass=$((pass + 1)); printf '  PASS  %s\n' "$*"; }
# SDI_STOP=1 (the planted-bug runs): stop at the first failure
ko() {
	fail=$((fail + 1)); printf '  FAIL  %s\n' "$*"
	[ -z "${SDI_STOP:-}" ] || { echo "$pass passed, $fail failed"; exit 1; }
}
here=$(dirname "$0")
mkdir -p "$OUT"
rm -f "$OUT"/*.prof "$OUT"/*.out
# a copy: other builds may relink the shared tiprof while this runs
cp "$TIPROF" "$OUT/tiprof" && TIPROF=$OUT/tiprof

"$RV_CC" -std=c11 -O2 -Wall -Wextra -Werror -I"$INC" -c -o "$OUT/tpsd_rt.o" "$SW/tpsd_rt.c" ||
	{ ko "runtime does not compile"; echo "$pass passed, $fail failed"; exit 1; }
if TPSD_CC=$RV_CC TPSD_RT=$OUT/tpsd_rt.o TPSD_KIND=both "$SW/tpsd-cc" -std=c11 -O2 -g \
	-Wall -Wextra -Werror -static -o "$OUT/instr_prog" "$here/instr_prog.c"; then
	ok "instrumented build (basic blocks and call graph)"
else
	ko "instrumented build"; echo "$pass passed, $fail failed"; exit 1
fi
"$RV_CC" -std=c11 -O2 -g -Wall -Wextra -Werror -static -o "$OUT/instr_prog_none" "$here/instr_prog.c"
$QEMU "$OUT/instr_prog_none" $N >"$OUT/qemu.out"

for w in 0 100 25; do
	if env -i TPSD="w=$w,p=10000,o=$OUT/w$w.prof" "$TIPROF" iss "$OUT/instr_prog" $N >"$OUT/iss$w.out" &&
		cmp -s "$OUT/qemu.out" "$OUT/iss$w.out"; then
		ok "ISS, window $w%: stdout = qemu-riscv64's run of the uninstrumented build"
	else
		ko "ISS, window $w%: stdout differs from qemu-riscv64's (or a failed run)"
	fi
done
if env -i TPSD="w=25,p=10000,o=-" "$TIPROF" sim --config 4wide,sd_mode=1,sd_bp=3,sd_pfp=1 -o "$OUT/sim.rep" \
	"$OUT/instr_prog" $N >"$OUT/sim.out" && cmp -s "$OUT/qemu.out" "$OUT/sim.out"; then
	ok "core model (4wide, filter, prediction-bit strategy, flag predictor), window 25%: same stdout"
else
	ko "core model, window 25%: stdout differs"
fi
if env -i TPSD="w=100,p=10000,o=$OUT/truth.prof" "$TIPROF" iss --truth "$OUT/truth.txt" \
	"$OUT/instr_prog" $N >/dev/null &&
	python3 "$here/instr_check.py" truth "$OUT/truth.prof" "$OUT/truth.txt" "$OUT/instr_prog" \
		"$RV_OBJDUMP" "$RV_NM" >"$OUT/truth.chk"; then
	ok "$(tail -1 "$OUT/truth.chk")"
else
	cat "$OUT/truth.chk" 2>/dev/null
	ko "counters against the ISS's exact counts"
fi
if [ -f "$OUT/w0.prof" ] && ! grep -q '^\(bb\|cg\) .* [1-9][0-9]*$' "$OUT/w0.prof"; then
	ok "window 0%: every counter 0"
else
	ko "window 0%: counted (or no profile)"
fi
if python3 "$here/instr_check.py" window "$OUT/w100.prof" "$OUT/w25.prof" >"$OUT/win.chk"; then
	ok "$(tail -1 "$OUT/win.chk")"
else
	cat "$OUT/win.chk"
	ko "window 25%: not a part of the full profile"
fi
"$RV_OBJDUMP" -d -z "$OUT/instr_prog" | "$OBJDUMP_CHECK" instr_prog >"$OUT/isa.txt" 2>&1
if grep -q ' [1-9][0-9]* Xtpsd agreed, 0 mismatches' "$OUT/isa.txt"; then
	ok "$(cat "$OUT/isa.txt")"
else
	cat "$OUT/isa.txt"
	ko "objdump and the project's decoder disagree"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
