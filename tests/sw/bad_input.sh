#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bad_input.sh - every tiprof subcommand on bad input (docs/report.md, "Errors"): a missing
# file, a directory, an x86-64 ELF, a non-ELF, truncated and corrupt ELFs, an empty file,
# every prefix of a small valid sample file, foreign files (random bytes, a tiprof-lbr
# records file, an Oracle profile), an unknown configuration, unknown options, missing option
# values and bad numbers. Each must exit non-zero (1: unusable input, 2: bad command line)
# with nothing on stdout and exactly one line on stderr naming the input or option, leave
# no output file behind and never die from a signal. A handful also run under an
# AddressSanitizer/UBSan build of tiprof.
# Usage: bad_input.sh TIPROF TIPROF_SAN WORKLOADS TMPDIR [LIBTIPROF_LBR_SO]
set -u
T=$1 TSAN=$2 WL=$3 D=$4 LBR=${5:-}
PY=${PYTHON:-python3}
rm -rf "$D"
mkdir -p "$D"
pass=0 fail=0

# bad NAME WANT PATTERN CMD...: exit status WANT, empty stdout, one stderr line containing
# PATTERN (fixed string), no signal.
bad() {
	local name=$1 want=$2 pat=$3 st lines; shift 3
	"$@" >"$D/out" 2>"$D/err" </dev/null
	st=$?
	lines=$(wc -l <"$D/err")
	if [ "$st" -ne "$want" ] || [ -s "$D/out" ] || [ "$lines" -ne 1 ] ||
	   ! grep -qF -- "$pat" "$D/err"; then
		fail=$((fail + 1))
		echo "  FAIL  $name: exit $st (want $want), stdout $(wc -c <"$D/out") bytes," \
			"$lines stderr lines (want 1 with '$pat'):"
		head -5 "$D/err" | sed 's/^/        /'
	else
		pass=$((pass + 1))
		[ -n "${VERBOSE:-}" ] && echo "  ok    $name: $(cat "$D/err")"
	fi
	return 0
}
ok() { pass=$((pass + 1)); echo "  ok    $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL  $1"; }
absent() { # NAME PATH...: none of the paths exists (no partial output)
	local name=$1; shift
	for p in "$@"; do
		if [ -e "$p" ]; then ko "$name: $p was left behind"; return; fi
	done
	pass=$((pass + 1))
}

# ---- inputs
ELF=$WL/crc32
good=$D/good.tps
"$T" sim --profile "$good" --oracle "$D/good.orc" --period 65536 "$ELF" 6 >/dev/null 2>&1 ||
	{ echo "cannot record $good"; exit 1; }
size=$(stat -c %s "$good")
mkdir -p "$D/dir"
: >"$D/empty"
echo "hello, not an ELF" >"$D/text"
x86=$(type -P true)
$PY - "$ELF" "$D" <<'PY'
import os, random, struct, sys
elf, d = open(sys.argv[1], "rb").read(), sys.argv[2]
def put(name, data):
    open(os.path.join(d, name), "wb").write(data)
    os.chmod(os.path.join(d, name), 0o755)
random.seed(7)
put("random", bytes(random.getrandbits(8) for _ in range(4096)))
put("trunc-100.elf", elf[:100])
put("trunc-2k.elf", elf[:2048])
phoff = struct.unpack_from("<Q", elf, 32)[0]
def patch(name, off, fmt, val):
    b = bytearray(elf); struct.pack_into(fmt, b, off, val); put(name, bytes(b))
load = next(phoff + 56 * k for k in range(struct.unpack_from("<H", elf, 56)[0])
            if struct.unpack_from("<I", elf, phoff + 56 * k)[0] == 1)
patch("phoff-wrap.elf", 32, "<Q", 2**64 - 16)          # program headers "past" 2^64
patch("segoff-wrap.elf", load + 8, "<Q", 2**64 - 8)    # a PT_LOAD offset that wraps
patch("memsz-huge.elf", load + 40, "<Q", 2**44)        # a 16 TiB segment
patch("shoff-odd.elf", 40, "<Q", struct.unpack_from("<Q", elf, 40)[0] - 3)  # misaligned
patch("entry-unmapped.elf", 24, "<Q", 0x10)            # runs, faults at the first fetch
# a records file of tiprof-lbr (magic TIPRLBR\0), in case the tracer is not built
put("lbr-fake.data", b"TIPRLBR\0" + bytes(random.getrandbits(8) for _ in range(200)))
PY
lbr=$D/lbr-fake.data
if [ -n "$LBR" ] && [ -r "$LBR" ] &&
   TIPROF_LBR_LIB=$LBR "$T" lbr record -o "$D/lbr.data" -- "$x86" >/dev/null 2>&1 &&
   [ -s "$D/lbr.data" ]; then
	lbr=$D/lbr.data
fi

# ---- ELF inputs: sim, accuracy, report --elf, annotate --elf
elf_cases="nonexistent:cannot_open dir:not_a_regular_file empty:empty text:not random:not
	trunc-100.elf:corrupt trunc-2k.elf:corrupt phoff-wrap.elf:corrupt segoff-wrap.elf:corrupt
	memsz-huge.elf:1_GiB shoff-odd.elf:section"
for c in $elf_cases; do
	f=$D/${c%%:*}
	[ "${c%%:*}" = shoff-odd.elf ] && continue	# runs: the ISS reads no section header
	rm -rf "$D/o.tps" "$D/o.orc" "$D/o.rbt" "$D/svg"
	bad "sim ${c%%:*}" 1 "$f: " "$T" sim --profile "$D/o.tps" --oracle "$D/o.orc" \
		--rob-trace "$D/o.rbt" "$f" 6
	absent "sim ${c%%:*}: outputs" "$D/o.tps" "$D/o.orc" "$D/o.rbt"
done
for c in $elf_cases; do
	f=$D/${c%%:*}
	rm -rf "$D/o.tps" "$D/o.orc" "$D/o.rbt" "$D/svg"
	bad "accuracy ${c%%:*}" 1 "$f: " "$T" accuracy --period 64 --svg "$D/svg" \
		--rob-trace "$D/o.rbt" "$f" 6
	absent "accuracy ${c%%:*}: outputs" "$D/svg" "$D/o.rbt"
	# reading bytes does not care how large a segment is in memory
	[ "${c%%:*}" = memsz-huge.elf ] && continue
	bad "report --elf ${c%%:*}" 1 "$f: " "$T" report "$good" --elf "$f"
	bad "annotate --elf ${c%%:*}" 1 "$f: " "$T" annotate "$good" --elf "$f"
done
bad "sim x86-64 ELF" 1 "not a RISC-V ELF" "$T" sim "$x86"
bad "accuracy x86-64 ELF" 1 "not a RISC-V ELF" "$T" accuracy "$x86"
bad "report --elf x86-64 ELF" 1 "not a RISC-V ELF" "$T" report "$good" --elf "$x86"
bad "annotate --elf x86-64 ELF" 1 "not a RISC-V ELF" "$T" annotate "$good" --elf "$x86"
rm -rf "$D/o.tps" "$D/o.orc" "$D/o.rbt" "$D/svg"
bad "sim: a program that faults" 1 "entry-unmapped.elf: pc 0x10" "$T" sim \
	--profile "$D/o.tps" --oracle "$D/o.orc" --rob-trace "$D/o.rbt" "$D/entry-unmapped.elf"
absent "sim fault: outputs" "$D/o.tps" "$D/o.orc" "$D/o.rbt"
bad "accuracy: a program that faults" 1 "entry-unmapped.elf: pc 0x10" "$T" accuracy \
	--svg "$D/svg" --rob-trace "$D/o.rbt" "$D/entry-unmapped.elf"
absent "accuracy fault: outputs" "$D/svg" "$D/o.rbt"

# ---- sample-file inputs: report, annotate, dump, record --check
for f in nonexistent dir empty text random trunc-100.elf; do
	for c in report annotate dump "record --check"; do
		bad "$c $f" 1 "$D/$f: " "$T" $c "$D/$f"
	done
done
for c in report annotate dump "record --check"; do
	bad "$c: the program instead of the file" 1 "it is an ELF file" "$T" $c "$ELF"
	bad "$c: a tiprof-lbr records file" 1 "tiprof-lbr records file" "$T" $c "$lbr"
	bad "$c: an Oracle profile" 1 "Oracle profile" "$T" $c "$D/good.orc"
done
bad "report --svg on a bad file" 1 "$D/random: " "$T" report "$D/random" --svg "$D/o.svg"
absent "report --svg on a bad file: output" "$D/o.svg"
bad "report --svg into a missing directory" 1 "$D/no/such/o.svg: " "$T" report "$good" \
	--svg "$D/no/such/o.svg"
bad "report --svg onto a directory" 1 "$D/dir: " "$T" report "$good" --svg "$D/dir"
absent "report --svg onto a directory: temporary file" "$D/.dir."*
bad "report --oracle: a sample file" 1 "not a tiprof Oracle profile" "$T" report "$good" \
	--oracle "$good"
bad "report --oracle: missing" 1 "$D/nonexistent" "$T" report "$good" --oracle \
	"$D/nonexistent"
bad "annotate: unknown function" 1 "no_such_function" "$T" annotate "$good" --function \
	no_such_function
bad "report: unknown function" 1 "no_such_function" "$T" report "$good" --cycle-stack \
	--function no_such_function

# Every prefix of a small valid file (header, 11 samples, trailer): every byte of the header
# and the first records, then every 3rd byte for report and every 11th for dump, annotate
# and record --check. dump streams: it may have printed records before the damage.
n_tr=0 bad_tr=0
for ((n = 0; n < size; n++)); do
	head -c "$n" "$good" >"$D/prefix.tps"
	cmds=()
	[ "$n" -lt 200 ] || [ $((n % 3)) -eq 0 ] && cmds=(report)
	[ "$n" -lt 150 ] || [ $((n % 11)) -eq 0 ] && cmds=(report dump annotate "record --check")
	for c in "${cmds[@]}"; do
		$T $c "$D/prefix.tps" >"$D/out" 2>"$D/err"
		st=$?
		n_tr=$((n_tr + 1))
		if [ "$st" -ne 1 ] || { [ -s "$D/out" ] && [ "$c" != dump ]; } ||
		   [ "$(wc -l <"$D/err")" -ne 1 ] || ! grep -qE \
		   "prefix.tps: (the file is empty|truncated at byte $n |truncated: the file ends)" \
		   "$D/err"; then
			bad_tr=$((bad_tr + 1))
			[ "$bad_tr" -le 5 ] && echo "  FAIL  $c on the first $n bytes: exit $st:" \
				"$(head -2 "$D/err")"
		fi
	done
done
[ "$bad_tr" -eq 0 ] && ok "$n_tr runs on prefixes of a $size-byte sample file: exit 1, one line 'truncated at byte N'" ||
	ko "$bad_tr of $n_tr truncated-file runs"

# ---- command lines: unknown options, missing values, bad numbers, unknown names
for c in sim accuracy report annotate dump record; do
	bad "$c --bogus" 2 "'--bogus'" "$T" $c --bogus "$good"
done
for o in --config --period --rand-bits --profile --oracle --rob-trace; do
	bad "sim $o without a value" 2 "'$o'" "$T" sim "$o"
done
for o in --config --period --rand-bits --skid --sweep --svg --rob-trace --policies; do
	bad "accuracy $o without a value" 2 "'$o'" "$T" accuracy "$o"
done
for o in --elf --oracle --limit --level --svg --function; do
	bad "report $o without a value" 2 "'$o'" "$T" report "$good" "$o"
done
for o in --elf --function; do
	bad "annotate $o without a value" 2 "'$o'" "$T" annotate "$good" "$o"
done
for o in -o --period --random-bits --aux-pages --check; do
	bad "record $o without a value" 2 "$o" "$T" record "$o"
done
for v in 0 -1 -18446744073709551615 99999999999999999999 4294967296 "" 1x 0x; do
	bad "sim --period '$v'" 2 "'$v'" "$T" sim --period "$v" "$ELF" 6
	bad "accuracy --period '$v'" 2 "'$v'" "$T" accuracy --period "$v" "$ELF" 6
	bad "record --period '$v'" 2 "--period" "$T" record --period "$v" -- true
done
for v in 32 -1 99999999999999999999 x; do
	bad "sim --rand-bits '$v'" 2 "'$v'" "$T" sim --rand-bits "$v" "$ELF" 6
	bad "accuracy --rand-bits '$v'" 2 "'$v'" "$T" accuracy --rand-bits "$v" "$ELF" 6
	bad "record --random-bits '$v'" 2 "--random-bits" "$T" record --random-bits "$v" -- true
done
bad "sim: --rand-bits without a value" 2 "missing value" "$T" sim --rand-bits
bad "accuracy --skid -5" 2 "'-5'" "$T" accuracy --skid -5 "$ELF" 6
for v in 0 ,, -1 64,64 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17 -18446744073709551615; do
	bad "accuracy --sweep '$v'" 2 "--sweep" "$T" accuracy --sweep "$v" "$ELF" 6
done
for v in -1 99999999999999999999 "" x; do
	bad "report --limit '$v'" 2 "'$v'" "$T" report "$good" --limit "$v"
done
bad "record --aux-pages 3" 2 "--aux-pages" "$T" record --aux-pages 3 -- true
bad "sim: unknown configuration" 2 "'8wide'" "$T" sim --config 8wide "$ELF" 6
bad "accuracy: unknown configuration" 2 "'8wide'" "$T" accuracy --config 8wide "$ELF" 6
bad "accuracy: unknown policy name" 2 "unknown policy 'PEBS'" "$T" accuracy --policies TIP,PEBS "$ELF" 6
bad "accuracy: repeated policy name" 2 "repeated policy 'nci'" "$T" accuracy --policies NCI,nci "$ELF" 6
bad "accuracy: empty policy list" 2 "unknown policy ''" "$T" accuracy --policies "" "$ELF" 6
bad "report: unknown level" 2 "'page'" "$T" report "$good" --level page
bad "no subcommand named policy" 2 "'policy'" "$T" policy "$good"
for c in sim accuracy record; do
	bad "$c without its program" 2 "tiprof help $c" "$T" $c
done
for c in report annotate dump; do	# perf report reads perf.data; these read tiprof.tps
	bad "$c without its input: tiprof.tps" 1 "tiprof.tps: cannot open" \
		sh -c 'mkdir -p "$1" && cd "$1" && exec "$2" "$3"' sh "$(realpath -m "$D/no-tps-here")" \
		"$(realpath "$T")" $c
done
echo "  ($pass checks so far)"

# ---- a handful under AddressSanitizer/UBSan (the success path of the new views too)
if [ -x "$TSAN" ]; then
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
	for f in phoff-wrap.elf segoff-wrap.elf memsz-huge.elf trunc-2k.elf; do
		bad "sanitized: sim $f" 1 "$D/$f: " "$TSAN" sim "$D/$f" 6
		bad "sanitized: accuracy $f" 1 "$D/$f: " "$TSAN" accuracy --period 64 "$D/$f" 6
	done
	for f in phoff-wrap.elf segoff-wrap.elf shoff-odd.elf trunc-2k.elf; do
		bad "sanitized: report --elf $f" 1 "$D/$f: " "$TSAN" report "$good" --elf "$D/$f"
	done
	for n in 0 30 100 $((size / 2)) $((size - 1)); do
		head -c "$n" "$good" >"$D/prefix.tps"
		bad "sanitized: report on $n bytes" 1 "prefix.tps: " "$TSAN" report "$D/prefix.tps"
	done
	bad "sanitized: dump random bytes" 1 "random: " "$TSAN" dump "$D/random"
	bad "sanitized: record --check lbr" 1 "tiprof-lbr" "$TSAN" record --check "$lbr"
	if "$TSAN" report "$good" --cycle-stack --svg "$D/san.svg" >"$D/san.txt" 2>"$D/err" &&
	   "$TSAN" report "$good" --cycle-stack --json --level instruction >/dev/null 2>>"$D/err" &&
	   "$TSAN" annotate "$good" >/dev/null 2>>"$D/err" && [ ! -s "$D/err" ]; then
		ok "sanitized: report --cycle-stack (text, JSON, SVG) and annotate run clean"
	else
		ko "sanitized: report --cycle-stack / annotate: $(head -5 "$D/err")"
	fi
else
	ko "no sanitized tiprof at $TSAN"
fi

echo "bad inputs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
