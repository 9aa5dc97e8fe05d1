#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# test-iss driver: for each RISC-V test program given as an argument,
# (a) run it on `tiprof iss` and on qemu-riscv64 and require equal stdout,
#     stderr and exit status, and (b) run the lockstep comparison of the
#     first $N instructions against QEMU's single-step CPU log.
# Environment: QEMU_RISCV64, ISS, LOCKSTEP, N, OUT (scratch directory).
set -u
QEMU_RISCV64=${QEMU_RISCV64:-qemu-riscv64}
N=${N:-200000}
OUT=${OUT:-build/iss}
mkdir -p "$OUT/runs"
fail=0
pass=0

# Arguments per program (small inputs keep QEMU fast).
args_for() {
	case "$(basename "$1")" in
	prog_int) echo "5000 alpha beta" ;;
	prog_fp) echo "200" ;;
	prog_atomic) echo "3000 $OUT/runs/atomic.tmp" ;;
	*) v="ARGS_$(basename "$1")"; echo "${!v:-}" ;;  # e.g. ARGS_quicksort=5000 from the caller
	esac
}

# The guest gets exactly this environment under both simulators.
ENVV=(env -i TIPROF_TEST=1 LANG=C)

echo "== test-iss: $ISS and $QEMU_RISCV64 on $(for p in "$@"; do basename "$p"; done | tr '\n' ' ')"
for prog in "$@"; do
	name=$(basename "$prog")
	args=$(args_for "$prog")
	# (a) whole-run output and exit status
	"${ENVV[@]}" $ISS "$prog" $args >"$OUT/runs/$name.iss.out" 2>"$OUT/runs/$name.iss.err"
	rc_iss=$?
	"${ENVV[@]}" "$QEMU_RISCV64" "$prog" $args >"$OUT/runs/$name.qemu.out" 2>"$OUT/runs/$name.qemu.err"
	rc_qemu=$?
	if [ $rc_iss -eq $rc_qemu ] && cmp -s "$OUT/runs/$name.iss.out" "$OUT/runs/$name.qemu.out" &&
	   cmp -s "$OUT/runs/$name.iss.err" "$OUT/runs/$name.qemu.err"; then
		echo "iss-run: $name: stdout ($(wc -c <"$OUT/runs/$name.iss.out") bytes), stderr and exit status $rc_iss equal to qemu"
		pass=$((pass + 1))
	else
		echo "iss-run: $name: FAILED: exit $rc_iss vs qemu $rc_qemu; diff:"
		diff "$OUT/runs/$name.qemu.out" "$OUT/runs/$name.iss.out" | head -20
		head -5 "$OUT/runs/$name.iss.err"
		fail=$((fail + 1))
	fi
	# (b) lockstep: QEMU's -seed makes its AT_RANDOM bytes reproducible;
	# the at_random helper reveals them for the ISS.
	at_random=$("$QEMU_RISCV64" -seed 1 "${AT_RANDOM_BIN:-$OUT/at_random}")
	"${ENVV[@]}" "$QEMU_RISCV64" -seed 1 -singlestep -d cpu,fpu,nochain -D /dev/fd/3 \
		"$prog" $args 3>&1 >/dev/null 2>/dev/null |
		"${ENVV[@]}" "$LOCKSTEP" -n "$N" --at-random "$at_random" "$prog" $args
	if [ "${PIPESTATUS[1]}" -eq 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done
echo "test-iss: $pass passed, $fail failed"
[ $fail -eq 0 ]
