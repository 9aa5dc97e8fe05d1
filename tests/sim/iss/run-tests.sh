#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# test-iss driver: for each RISC-V test program given as an argument
# (static, or dynamically linked against the riscv64 libc in $SYSROOT),
# (a) run it on `tiprof iss` and on `qemu-riscv64 -L $SYSROOT` and require
#     equal stdout, stderr and exit status, and (b) run the lockstep
#     comparison of the first $N instructions against QEMU's single-step
#     CPU log (for a dynamic program that is the loader's relocation work
#     and more), twice: stepping with iss_step(s, &record) (the timing
#     model's path) and with iss_run(s, 1) (the functional run loop of
#     `tiprof iss`, labelled "[iss_run]").
# Environment: QEMU_RISCV64, ISS, LOCKSTEP, N, OUT (scratch directory),
# SYSROOT (default /usr/riscv64-linux-gnu, the ISS's default too),
# READELF (riscv64 readelf, to label dynamic programs).
set -u
QEMU_RISCV64=${QEMU_RISCV64:-qemu-riscv64}
N=${N:-200000}
OUT=${OUT:-build/iss}
SYSROOT=${SYSROOT:-/usr/riscv64-linux-gnu}
READELF=${READELF:-riscv64-linux-gnu-readelf}
mkdir -p "$OUT/runs"
fail=0
pass=0

# Arguments per program (small inputs keep QEMU fast).
args_for() {
	case "$(basename "$1")" in
	prog_int) echo "5000 alpha beta" ;;
	prog_fp) echo "200" ;;
	prog_atomic) echo "3000 $OUT/runs/atomic-$2.tmp" ;;
	*) v="ARGS_$(basename "$1" | tr -c 'A-Za-z0-9_\n' _)"; echo "${!v:-}" ;;  # e.g. ARGS_quicksort=5000 from the caller
	esac
}

# The guest gets exactly this environment under both simulators.
ENVV=(env -i TIPROF_TEST=1 LANG=C)

# QEMU's -seed makes its AT_RANDOM bytes reproducible; the at_random
# helper reveals them for the ISS (the same for every program).
at_random=$("$QEMU_RISCV64" -seed 1 "${AT_RANDOM_BIN:-$OUT/at_random}")

# Lockstep of one program (b); extra arguments go to iss-lockstep.
lockstep() {
	local prog=$1 name=$2 args=$3
	shift 3
	"${ENVV[@]}" "$QEMU_RISCV64" -L "$SYSROOT" -seed 1 -singlestep -d cpu,fpu,nochain -D /dev/fd/3 \
		"$prog" $args 3>&1 >/dev/null 2>/dev/null |
		"${ENVV[@]}" "$LOCKSTEP" -n "$N" --at-random "$at_random" --first-fd 5 \
			--sysroot "$SYSROOT" --name "$name" "$@" "$prog" $args
	return "${PIPESTATUS[1]}"
}

# One program: (a) and (b); the report goes to stdout, the number of
# failures (0-3) is the exit status.
run_one() {
	local prog=$1 name args key rc_iss rc_qemu bad=0
	name=$(basename "$prog")
	key="$(basename "$(dirname "$prog")")-$name"
	args=$(args_for "$prog" "$key")
	if "$READELF" -lW "$prog" 2>/dev/null | grep -q 'Requesting program interpreter'; then
		name="$name(dynamic)"
	fi
	# (a) whole-run output and exit status
	"${ENVV[@]}" $ISS "$prog" $args >"$OUT/runs/$key.iss.out" 2>"$OUT/runs/$key.iss.err"
	rc_iss=$?
	"${ENVV[@]}" "$QEMU_RISCV64" -L "$SYSROOT" "$prog" $args >"$OUT/runs/$key.qemu.out" 2>"$OUT/runs/$key.qemu.err"
	rc_qemu=$?
	if [ $rc_iss -eq $rc_qemu ] && cmp -s "$OUT/runs/$key.iss.out" "$OUT/runs/$key.qemu.out" &&
	   cmp -s "$OUT/runs/$key.iss.err" "$OUT/runs/$key.qemu.err"; then
		echo "iss-run: $name: stdout ($(wc -c <"$OUT/runs/$key.iss.out") bytes), stderr and exit status $rc_iss equal to qemu"
	else
		echo "iss-run: $name: FAILED: exit $rc_iss vs qemu $rc_qemu; diff:"
		diff "$OUT/runs/$key.qemu.out" "$OUT/runs/$key.iss.out" | head -20
		head -5 "$OUT/runs/$key.iss.err"
		bad=$((bad + 1))
	fi
	# (b) lockstep. QEMU holds fds 3 (the log pipe) and 4 (its -D log
	# file), so the guest's first open returns 5: --first-fd does the same.
	lockstep "$prog" "$name" "$args" || bad=$((bad + 1))
	lockstep "$prog" "$name [iss_run]" "$args" --run || bad=$((bad + 1))
	return $bad
}

# Programs run $JOBS at a time (QEMU's single-step log is the slow part);
# reports are printed in argument order.
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
echo "== test-iss: $ISS and $QEMU_RISCV64 -L $SYSROOT on $(for p in "$@"; do basename "$p"; done | tr '\n' ' ')($JOBS at a time)"
k=0
for prog in "$@"; do
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
		wait -n
	done
	( run_one "$prog" >"$OUT/runs/report.$k" 2>&1; echo $? >"$OUT/runs/status.$k" ) &
	k=$((k + 1))
done
wait
for ((i = 0; i < k; i++)); do
	cat "$OUT/runs/report.$i"
	b=$(cat "$OUT/runs/status.$i" 2>/dev/null || echo 3)
	fail=$((fail + b))
	pass=$((pass + 3 - b))
done
echo "test-iss: $pass passed, $fail failed"
[ $fail -eq 0 ]
