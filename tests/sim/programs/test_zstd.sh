#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# tests/sim/programs/test_zstd.sh - the zstd command-line program (Debian 12's zstd 1.5.4,
# cross-built by sim/programs/build.sh) on tiprof's simulators against qemu-riscv64:
#   iss   zstd-static on `tiprof iss`: compress 4 MiB (-3 -c), decompress qemu's frame (-d -c),
#         stdin to stdout, -19 on 64 KiB, -l and -t of a file, a missing file (exit 1), and a
#         file-to-file compression (-o: open, fstat, fchmod, utimensat of a real program);
#         stdout, stderr and exit status byte-identical to qemu-riscv64, output files too;
#   sim   zstd-static on `tiprof sim` (the out-of-order core model), 256 KiB: stdout exactly
#         the program's stdout (tiprof sim's report goes to stderr), identical to qemu's;
#         then the same program decompresses it, on the core model too;
#   dyn   zstd-dynamic (PIE, ld.so, libc.so.6) on `tiprof iss` against
#         `qemu-riscv64 -L $RV_SYSROOT`: compress and decompress 4 MiB. Reported as SKIP only
#         while `tiprof iss` rejects a trivial dynamic program with "only static executables".
# Every guest gets the same clean environment (env -i), as tests/sim/iss/run-tests.sh does;
# each run has its own working directory with the inputs linked into it.
# Environment: TIPROF (the tiprof binary), PROGRAMS (folder with zstd-static, zstd-dynamic),
#   GEN (the gen-input program), OUT (scratch folder), QEMU_RISCV64, CROSS_COMPILE,
#   RV_SYSROOT (default /usr/riscv64-linux-gnu).
set -eu

ME=tests/sim/programs/test_zstd.sh
TIPROF=${TIPROF:?$ME: set TIPROF to the tiprof binary}
PROGRAMS=${PROGRAMS:?$ME: set PROGRAMS to the folder with zstd-static and zstd-dynamic}
GEN=${GEN:?$ME: set GEN to the gen-input program}
OUT=${OUT:-build/programs/test}
QEMU_RISCV64=${QEMU_RISCV64:-qemu-riscv64}
CROSS_COMPILE=${CROSS_COMPILE:-riscv64-linux-gnu-}
RV_SYSROOT=${RV_SYSROOT:-/usr/riscv64-linux-gnu}

die() { echo "$ME: $*" >&2; exit 1; }
for f in "$TIPROF" "$PROGRAMS/zstd-static" "$PROGRAMS/zstd-dynamic" "$GEN"; do
	[ -x "$f" ] || die "$f: missing or not executable"
done
command -v "$QEMU_RISCV64" >/dev/null || die "$QEMU_RISCV64: not found (Debian package qemu-user)"
TIPROF=$(realpath "$TIPROF")
PROGRAMS=$(realpath "$PROGRAMS")
GEN=$(realpath "$GEN")

ENVV=(env -i TIPROF_TEST=1 LANG=C)
pass=0 fail=0 skip=0
rm -rf "$OUT" && mkdir -p "$OUT/in" "$OUT/runs"
OUT=$(realpath "$OUT")

# Inputs: 4 MiB and 256 KiB from seed 1, and the first 64 KiB (see sim/programs/gen_input.c).
"$GEN" 4M 1 >"$OUT/in/in.bin"
"$GEN" 256K 1 >"$OUT/in/small.bin"
head -c 65536 "$OUT/in/small.bin" >"$OUT/in/tiny.bin"

# run RUNNER CASE STDIN ARGS...: one guest run in $OUT/runs/CASE.RUNNER/ (inputs linked in),
# stdout, stderr and exit status into CASE.RUNNER.{out,err,rc}. RUNNER is qemu, qemu-dyn,
# iss, iss-dyn, sim or sim-dyn.
run() {
	local runner=$1 c=$2 stdin=$3 d rc
	shift 3
	d=$OUT/runs/$c.$runner
	mkdir -p "$d"
	ln -f "$OUT"/in/* "$d/"  # hard links: zstd ignores symbolic links
	local cmd
	case $runner in
	qemu) cmd=("$QEMU_RISCV64" "$PROGRAMS/zstd-static") ;;
	qemu-dyn) cmd=("$QEMU_RISCV64" -L "$RV_SYSROOT" "$PROGRAMS/zstd-dynamic") ;;
	iss) cmd=("$TIPROF" iss "$PROGRAMS/zstd-static") ;;
	iss-dyn) cmd=("$TIPROF" iss "$PROGRAMS/zstd-dynamic") ;;
	sim) cmd=("$TIPROF" sim "$PROGRAMS/zstd-static") ;;
	sim-dyn) cmd=("$TIPROF" sim "$PROGRAMS/zstd-dynamic") ;;
	esac
	set +e
	(cd "$d" && "${ENVV[@]}" "${cmd[@]}" "$@" <"$stdin" >"$d.out" 2>"$d.err")
	rc=$?
	set -e
	echo $rc >"$d.rc"
}

ok() { printf '  PASS  %s\n' "$*"; pass=$((pass + 1)); }
bad() { printf '  FAIL  %s\n' "$*"; fail=$((fail + 1)); }
skipped() { printf '  %s\n' "$*"; skip=$((skip + 1)); }  # the caller says SKIP (why)

# same REF TEST CASE WHAT [FILE...]: TEST's run of CASE against REF's: stdout, stderr, exit
# status and the named output files identical. Sets $why on failure.
same() {
	local r=$OUT/runs/$3.$1 t=$OUT/runs/$3.$2 f
	why=
	[ "$(cat "$t.rc")" = "$(cat "$r.rc")" ] || why="exit status $(cat "$t.rc"), $1 $(cat "$r.rc")"
	[ -n "$why" ] || cmp -s "$r.out" "$t.out" || why="stdout differs ($(wc -c <"$t.out") bytes, $1 $(wc -c <"$r.out"))"
	[ -n "$why" ] || cmp -s "$r.err" "$t.err" || why="stderr differs: $(head -c 300 "$t.err" | head -2 | tr '\n' ' ')"
	shift 4
	for f in "$@"; do
		[ -n "$why" ] || [ -f "$t/$f" ] || why="no output file $f"
		[ -n "$why" ] || cmp -s "$r/$f" "$t/$f" || why="output file $f differs"
	done
	[ -z "$why" ]
}

# check REF TEST CASE STDIN WHAT RC [FILE...] -- ARGS...: run CASE under both, compare; REF's
# exit status must be RC.
check() {
	local ref=$1 test=$2 c=$3 stdin=$4 what=$5 rc=$6 files=()
	shift 6
	while [ "$1" != -- ]; do files+=("$1"); shift; done
	shift
	run "$ref" "$c" "$stdin" "$@"
	run "$test" "$c" "$stdin" "$@"
	if [ "$(cat "$OUT/runs/$c.$ref.rc")" != "$rc" ]; then
		why="$ref's run: exit status $(cat "$OUT/runs/$c.$ref.rc"), not $rc: $(head -1 "$OUT/runs/$c.$ref.err")"
		return 1
	fi
	if same "$ref" "$test" "$c" "$what" ${files[@]+"${files[@]}"}; then
		ok "$test: $what: zstd $* (stdout $(wc -c <"$OUT/runs/$c.$test.out") bytes, exit $(cat "$OUT/runs/$c.$test.rc")) = $ref"
		return 0
	fi
	return 1
}

echo "== test-zstd: zstd-static, zstd-dynamic ($PROGRAMS) on tiprof iss / sim against $QEMU_RISCV64"
t0=$SECONDS

# --- iss: zstd-static on the ISS
check qemu iss c3 /dev/null "compress 4 MiB" 0 -- -3 -c in.bin ||
	bad "iss: compress 4 MiB: $why"
ln -f "$OUT/runs/c3.qemu.out" "$OUT/in/ref.zst"  # qemu's frame, input of the later runs
if check qemu iss d3 /dev/null "decompress qemu's frame" 0 -- -d -c ref.zst; then
	cmp -s "$OUT/runs/d3.iss.out" "$OUT/in/in.bin" && ok "iss: round trip: decompressed = in.bin" ||
		bad "iss: round trip: decompressed output differs from in.bin"
else
	bad "iss: decompress: $why"
fi
check qemu iss pipe "$OUT/in/small.bin" "stdin to stdout" 0 -- -3 ||
	bad "iss: stdin to stdout: $why"
check qemu iss c19 /dev/null "level 19, 64 KiB" 0 -- -19 -c tiny.bin ||
	bad "iss: level 19: $why"
check qemu iss list /dev/null "list a frame" 0 -- -l ref.zst ||
	bad "iss: -l: $why"
check qemu iss test /dev/null "test a frame" 0 -- -t ref.zst ||
	bad "iss: -t: $why"
check qemu iss missing /dev/null "a missing input file" 1 -- -d -c no-such-file.zst ||
	bad "iss: missing file: $why"
if ! check qemu iss file /dev/null "file to file" 0 out.zst -- -q -3 small.bin -o out.zst; then
	if grep -q "unknown system call 88 " "$OUT/runs/file.iss.err"; then
		skipped "SKIP (ISS has no utimensat, syscall 88, yet) iss: file to file: zstd copies small.bin's times to out.zst with it"
	else
		bad "iss: file to file: $why"
	fi
fi

# --- sim: zstd-static on the out-of-order core model; its stdout is the program's alone
for c in sim-c3 sim-d3; do
	if [ $c = sim-c3 ]; then
		args=(-3 -c small.bin) what="compress 256 KiB"
	else
		args=(-d -c small.zst) what="decompress qemu's frame"
	fi
	run qemu $c /dev/null "${args[@]}"
	[ $c != sim-c3 ] || ln -f "$OUT/runs/sim-c3.qemu.out" "$OUT/in/small.zst"
	run sim $c /dev/null "${args[@]}"
	r=$OUT/runs/$c.qemu t=$OUT/runs/$c.sim
	if [ "$(cat "$r.rc")" != 0 ]; then
		bad "sim: $what: qemu's run failed (exit $(cat "$r.rc"))"
	elif [ "$(cat "$t.rc")" != 0 ]; then
		bad "sim: $what: tiprof sim exit status $(cat "$t.rc"): $(head -2 "$t.err" | tr '\n' ' ')"
	elif cmp -s "$r.out" "$t.out"; then
		ok "sim: $what: zstd ${args[*]}: stdout $(wc -c <"$t.out") bytes = qemu ($(awk '$1 == "cycles" { print "cycles", $2; f = 1; exit } END { if (!f) print "no cycles line on stderr" }' "$t.err"))"
	elif [ "$(head -c "$(wc -c <"$r.out")" "$t.out" | cmp - "$r.out" >/dev/null 2>&1 && echo y)" = y ] &&
	     tail -c +"$(($(wc -c <"$r.out") + 1))" "$t.out" | head -1 | grep -q '^tiprof sim:'; then
		bad "sim: $what: the program's output is right, but tiprof sim's report follows it on stdout (it must go to stderr)"
	else
		bad "sim: $what: stdout differs from qemu's ($(wc -c <"$t.out") bytes, qemu $(wc -c <"$r.out"))"
	fi
done
[ "$(wc -c <"$OUT/runs/sim-d3.qemu.out")" = 262144 ] && cmp -s "$OUT/runs/sim-d3.qemu.out" "$OUT/in/small.bin" ||
	bad "sim: qemu's round trip of small.bin is not small.bin"

# --- dyn: zstd-dynamic on the ISS, once it loads dynamic programs
printf '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n' >"$OUT/hello.c"
"${CROSS_COMPILE}gcc" -o "$OUT/hello-dynamic" "$OUT/hello.c" || die "${CROSS_COMPILE}gcc: cannot build a trivial dynamic program"
set +e
"${ENVV[@]}" "$TIPROF" iss "$OUT/hello-dynamic" >"$OUT/hello.out" 2>"$OUT/hello.err"
set -e
if grep -q "only static executables" "$OUT/hello.err"; then
	skipped "SKIP (ISS has no dynamic loading yet) dyn: $(head -1 "$OUT/hello.err")"
else
	check qemu-dyn iss-dyn dc3 /dev/null "dynamic: compress 4 MiB" 0 -- -3 -c in.bin ||
		bad "iss-dyn: compress 4 MiB: $why"
	cmp -s "$OUT/runs/dc3.qemu-dyn.out" "$OUT/in/ref.zst" ||
		bad "qemu: zstd-dynamic and zstd-static compress in.bin differently"
	if check qemu-dyn iss-dyn dd3 /dev/null "dynamic: decompress" 0 -- -d -c ref.zst; then
		cmp -s "$OUT/runs/dd3.iss-dyn.out" "$OUT/in/in.bin" && ok "iss-dyn: round trip: decompressed = in.bin" ||
			bad "iss-dyn: round trip: decompressed output differs from in.bin"
	else
		bad "iss-dyn: decompress: $why"
	fi
	# the dynamic build on the core model, with the default sysroot
	run qemu-dyn sdc3 /dev/null -3 -c small.bin
	run sim-dyn sdc3 /dev/null -3 -c small.bin
	r=$OUT/runs/sdc3.qemu-dyn t=$OUT/runs/sdc3.sim-dyn
	if [ "$(cat "$t.rc")" = 0 ] && [ "$(cat "$r.rc")" = 0 ] && cmp -s "$t.out" "$r.out"; then
		ok "sim-dyn: dynamic: compress 256 KiB: zstd -3 -c small.bin: stdout $(wc -c <"$t.out") bytes = qemu -L ($(awk '$1 == "cycles" { print "cycles", $2; exit }' "$t.err"))"
	else
		bad "sim-dyn: compress 256 KiB: exit $(cat "$t.rc") (qemu $(cat "$r.rc")), $(wc -c <"$t.out") bytes vs $(wc -c <"$r.out"): $(head -2 "$t.err" | tr '\n' ' ')"
	fi
fi

echo "test-zstd: $pass passed, $fail failed, $skip skipped ($((SECONDS - t0)) s; runs in $OUT/runs)"
[ $fail -eq 0 ]
