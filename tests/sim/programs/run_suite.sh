#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# tests/sim/programs/run_suite.sh - run the real-program suite (sim/programs/suite.txt) on
# tiprof's simulators and check each run against the same program under qemu-riscv64:
#   run_suite.sh SIZE RUNNERS [NAME...]
# SIZE is short or full; RUNNERS a space-separated list of iss (tiprof iss --stat) and sim
# (tiprof sim, the out-of-order core model, its report into a file); NAMEs pick programs
# (default: every program of the suite). For each program: one run under qemu-riscv64 (it
# must exit 0), then one per runner, whose stdout, stderr and exit status must be
# byte-identical to qemu's. Prints one line per run with the instructions (iss) or cycles and
# instructions (sim), and with MIN_INSNS set, fails an iss run that retires fewer.
# A program that stops on the ISS at a system call the ISS does not have yet, and that is
# named in ISS_GAPS below with that call, is reported as SKIP with the reason, not FAIL.
# Environment: TIPROF (the tiprof binary), PROGRAMS (build/programs/bin), INPUTS
#   (build/programs/inputs, made by sim/programs/inputs.sh), OUT (scratch folder), SUITE
#   (default sim/programs/suite.txt), QEMU_RISCV64, MIN_INSNS (default 0).
set -euo pipefail

ME=tests/sim/programs/run_suite.sh
die() { echo "$ME: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: $ME short|full 'iss sim' [NAME...]"
SIZE=$1 RUNNERS=$2
shift 2
case $SIZE in short | full) ;; *) die "$SIZE: SIZE must be short or full" ;; esac
for r in $RUNNERS; do case $r in iss | sim) ;; *) die "$r: a runner must be iss or sim" ;; esac; done
TIPROF=${TIPROF:?$ME: set TIPROF to the tiprof binary}
PROGRAMS=${PROGRAMS:?$ME: set PROGRAMS to build/programs/bin}
INPUTS=${INPUTS:?$ME: set INPUTS to build/programs/inputs}
OUT=${OUT:-build/programs/suite-$SIZE}
SUITE=${SUITE:-sim/programs/suite.txt}
QEMU_RISCV64=${QEMU_RISCV64:-qemu-riscv64}
MIN_INSNS=${MIN_INSNS:-0}
[ -f "$SUITE" ] || die "$SUITE: suite file missing"
[ -x "$TIPROF" ] || die "$TIPROF: missing or not executable"
[ -d "$INPUTS" ] || die "$INPUTS: inputs folder missing (make program-inputs)"
command -v "$QEMU_RISCV64" >/dev/null || die "$QEMU_RISCV64: not found (Debian package qemu-user)"
TIPROF=$(realpath "$TIPROF") PROGRAMS=$(realpath "$PROGRAMS") INPUTS=$(realpath "$INPUTS")

# System calls the ISS does not have yet, per program: "NAME NUMBER why".
# (none now: xz's pipe2 and posix_fadvise were added, sim/iss/iss_syscall.c)
ISS_GAPS=""

rm -rf "$OUT" && mkdir -p "$OUT"
OUT=$(realpath "$OUT")
pass=0 fail=0 skip=0 names=" $* "
t0=$SECONDS

# run TAG CMD...: the command in $INPUTS with an empty environment; TAG.out, .err, .rc, .s
run() {
	local tag=$1 t rc
	shift
	t=$(date +%s.%N)
	set +e
	(cd "$INPUTS" && env -i "$@" </dev/null >"$OUT/$tag.out" 2>"$OUT/$tag.err")
	rc=$?
	set -e
	echo $rc >"$OUT/$tag.rc"
	echo "$(date +%s.%N) $t" | awk '{ printf "%.1f\n", $1 - $2 }' >"$OUT/$tag.s"
}
ok() { printf '  PASS  %s\n' "$*"; pass=$((pass + 1)); }
bad() { printf '  FAIL  %s\n' "$*"; fail=$((fail + 1)); }

# compare NAME RUNNER: RUNNER's run of NAME against qemu's; sets why on a difference.
compare() {
	local r=$OUT/$1.qemu t=$OUT/$1.$2
	why=
	[ "$(cat "$t.rc")" = "$(cat "$r.rc")" ] || { why="exit status $(cat "$t.rc"), qemu $(cat "$r.rc"): $(head -c 300 "$t.err" | head -2 | tr '\n' ' ')"; return 1; }
	cmp -s "$r.out" "$t.out" || { why="stdout differs ($(wc -c <"$t.out") bytes, qemu $(wc -c <"$r.out"); first difference: $(cmp "$r.out" "$t.out" 2>&1 | head -1))"; return 1; }
	cmp -s "$r.err" "$t.err" || { why="stderr differs: $(head -c 300 "$t.err" | head -2 | tr '\n' ' ')"; return 1; }
}

n=0 argv=()
while read -r name size bin args; do
	case $name in '' | '#'*) continue ;; esac
	[ "$size" = "$SIZE" ] || continue
	[ "$names" = "  " ] || [[ "$names" == *" $name "* ]] || continue
	n=$((n + 1))
	[ -x "$PROGRAMS/$bin" ] || { bad "$name: $PROGRAMS/$bin missing (make programs)"; continue; }
	eval "argv=($args)"
	run "$name.qemu" "$QEMU_RISCV64" "$PROGRAMS/$bin" "${argv[@]}"
	if [ "$(cat "$OUT/$name.qemu.rc")" != 0 ]; then
		bad "$name: qemu-riscv64's run exits $(cat "$OUT/$name.qemu.rc"): $(head -2 "$OUT/$name.qemu.err" | tr '\n' ' ')"
		continue
	fi
	for r in $RUNNERS; do
		if [ "$r" = iss ]; then
			run "$name.iss" "$TIPROF" iss --stat "$PROGRAMS/$bin" "${argv[@]}"
			# --stat's line ends stderr: keep its count, leave the program's own stderr
			insns=$(tail -1 "$OUT/$name.iss.err" | sed -n 's/^tiprof iss: \([0-9]*\) instructions$/\1/p')
			[ -z "$insns" ] || sed -i '$d' "$OUT/$name.iss.err"
			gap=$(echo "$ISS_GAPS" | awk -v n="$name" '$1 == n { print $2 }')
			if [ -n "$gap" ] && grep -q "unknown system call $gap " "$OUT/$name.iss.err"; then
				printf '  SKIP  iss: %s %s (ISS has no system call %s yet: %s)\n' "$name" "$size" "$gap" \
					"$(echo "$ISS_GAPS" | awk -v n="$name" '$1 == n { $1 = $2 = ""; sub(/^ +/, ""); print }')"
				skip=$((skip + 1))
				break  # sim runs on the same ISS
			fi
			if ! compare "$name" iss; then
				bad "iss: $name $size: $why"
			elif [ -z "$insns" ]; then
				bad "iss: $name $size: no instruction count on stderr"
			elif [ "$insns" -lt "$MIN_INSNS" ]; then
				bad "iss: $name $size: $insns instructions, fewer than $MIN_INSNS"
			else
				ok "iss: $name $size: $bin $(echo "$args" | cut -c1-60): stdout $(wc -c <"$OUT/$name.iss.out") bytes = qemu; $insns instructions (iss $(cat "$OUT/$name.iss.s") s, qemu $(cat "$OUT/$name.qemu.s") s)"
				echo "$name $size $insns" >>"$OUT/instructions.txt"
			fi
		else
			run "$name.sim" "$TIPROF" sim -o "$OUT/$name.sim.report" "$PROGRAMS/$bin" "${argv[@]}"
			if compare "$name" sim; then
				ok "sim: $name $size: stdout $(wc -c <"$OUT/$name.sim.out") bytes = qemu; $(awk '$1 == "cycles" { c = $2 } $1 == "instructions" { i = $2 } $1 == "IPC" { p = $2 } END { printf "%s cycles, %s instructions, IPC %s", c, i, p }' "$OUT/$name.sim.report" 2>/dev/null) (sim $(cat "$OUT/$name.sim.s") s)"
			else
				bad "sim: $name $size: $why"
			fi
		fi
	done
done <"$SUITE"
[ $n -gt 0 ] || die "no program of size $SIZE${*:+ named $*} in $SUITE"
echo "suite ($SIZE; $RUNNERS): $pass passed, $fail failed, $skip skipped ($((SECONDS - t0)) s; runs in $OUT)"
[ $fail -eq 0 ]
