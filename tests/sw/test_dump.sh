#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_dump.sh - `tiprof dump` (and the command table) from the outside: exit codes,
# output of a good file, and the one-line message for a truncated, missing, empty,
# foreign or corrupted input. Never a crash (a signal exit fails the test).
# Usage: test_dump.sh TIPROF SF_MKFILE TMPDIR
set -u
TIPROF=$1 MKFILE=$2 DIR=$3
mkdir -p "$DIR"
pass=0 fail=0

ok()   { pass=$((pass + 1)); }
bad()  { fail=$((fail + 1)); echo "  FAIL: $*"; }

# run NAME WANT_STATUS STDERR_PATTERN CMD...: status, stderr one line matching pattern
# (or empty when the pattern is '-'), stdout kept in $DIR/out.
run() {
	local name=$1 want=$2 pat=$3; shift 3
	"$@" >"$DIR/out" 2>"$DIR/err"
	local st=$? lines
	lines=$(wc -l <"$DIR/err")
	if [ "$st" -ne "$want" ]; then bad "$name: exit $st, want $want"; return; fi
	if [ "$pat" = - ]; then
		[ -s "$DIR/err" ] && { bad "$name: unexpected stderr: $(cat "$DIR/err")"; return; }
	else
		[ "$lines" -eq 1 ] || { bad "$name: stderr has $lines lines: $(cat "$DIR/err")"; return; }
		grep -q -- "$pat" "$DIR/err" || { bad "$name: stderr '$(cat "$DIR/err")' lacks '$pat'"; return; }
		echo "  $name: $(cat "$DIR/err")"
	fi
	ok
}

good=$DIR/good.tps
"$MKFILE" "$good" 4 64 20 || { echo "cannot make the test file"; exit 1; }

run "good file" 0 - "$TIPROF" dump "$good"
n=$(grep -c '^[0-9]*: cycle=' "$DIR/out")
[ "$n" -eq 20 ] && ok || bad "good file: $n sample lines, want 20"
grep -q '^tiprof sample file 1\.2$' "$DIR/out" && ok || bad "good file: no header line"
grep -q '^pm ' "$DIR/out" && bad "good file: PM lines in a file without PM records" || ok
grep -q '^workload: /opt/bench/mcf ' "$DIR/out" && ok || bad "good file: no workload line"
grep -q '^trailer: samples=20 lost_unit=5 lost_sw=1 ' "$DIR/out" && ok || bad "good file: trailer"
grep -q '^3: cycle=4000 drained bank=3 valid=0x08 priv=U ctx=0x0001 \[3\]=0x0000000000010300$' \
	"$DIR/out" && ok || bad "good file: sample 3 line"
run "stdin" 0 - "$TIPROF" dump - <"$good"
cmp -s "$DIR/out" <("$TIPROF" dump "$good") && ok || bad "stdin dump differs"
"$MKFILE" "$DIR/x32.tps" 2 32 8 && run "XLEN=32 file" 0 - "$TIPROF" dump "$DIR/x32.tps"
grep -q '^0: cycle=1000 computing bank=0 valid=0x03 priv=U ctx=0x0001 \[0\]=0x00010000 \[1\]=0x00010004$' \
	"$DIR/out" && ok || bad "XLEN=32 file: sample 0 line"

# ProfileMe records (format 1.2): the TIP lines are byte-identical to the file without them
"$MKFILE" "$DIR/pm.tps" 4 64 20 6 && run "file with ProfileMe records" 0 - "$TIPROF" dump "$DIR/pm.tps"
cp "$DIR/out" "$DIR/pm.out"
"$TIPROF" dump "$good" >"$DIR/good.out"
cmp -s "$DIR/good.out" <(grep -v '^pm ' "$DIR/pm.out") && ok || bad "TIP lines differ with PM records"
[ "$(grep -c '^pm [0-9]*: cycle=' "$DIR/pm.out")" -eq 6 ] && ok || bad "not 6 PM sample lines"
grep -q '^pm config: F=2 tags=2 FIFO=8 issue_width=4 period=1024 ctrl=0x4af3 (en mode=random-interval rand_bits=10 unit=insts pair priv=U,S,H,M) window=16 timeout=65535 evfilt=mask:0x0000,match:0x0000 latfilt=sel:0,thresh:0$' \
	"$DIR/pm.out" && ok || bad "PM config line: $(grep '^pm config' "$DIR/pm.out")"
grep -q '^pm 1: cycle=6000 single | p0 pc=0x0000000000010404 ea=0x0000000000020040 ev=RETIRED,DC_MISS,LOAD,EA_VALID priv=U ctx=0x0001 slot=0 path=0x0000 map=1 issue=3 mem=4 complete=44 end=46$' \
	"$DIR/pm.out" && ok || bad "PM sample 1 line: $(grep '^pm 1:' "$DIR/pm.out")"
grep -q '^pm 2: cycle=7000 pair dist=3 cycles=1 | p0 pc=0x0000000000010408 .* | p1 pc=0x0000000000010500 ea=0x0000000000000000 ev=RETIRED priv=U ctx=0x0001 slot=1 path=0x0000 map=1 issue=3 complete=5 end=7$' \
	"$DIR/pm.out" && ok || bad "PM sample 2 (pair) line: $(grep '^pm 2:' "$DIR/pm.out")"
grep -q '^pm counts: samples=6 taken=6 lost=1 filtered=0 collided=2 lost_sw=0$' "$DIR/pm.out" && ok ||
	bad "PM counts line"
grep -q '^trailer: samples=20 ' "$DIR/pm.out" && ok || bad "trailer counts PM samples"

size=$(stat -c %s "$good")
head -c $((size - 10)) "$good" >"$DIR/trunc.tps"
run "truncated file" 1 "trunc.tps: truncated at byte" "$TIPROF" dump "$DIR/trunc.tps"
head -c 30 "$good" >"$DIR/trunc-hdr.tps"
run "truncated header" 1 "trunc-hdr.tps: truncated at byte 30 inside the header" \
	"$TIPROF" dump "$DIR/trunc-hdr.tps"
: >"$DIR/empty.tps"
run "empty file" 1 "empty.tps: the file is empty" "$TIPROF" dump "$DIR/empty.tps"
run "missing file" 1 "nope.tps: cannot open: No such file or directory" \
	"$TIPROF" dump "$DIR/nope.tps"
run "ELF file" 1 "tiprof: not a tiprof sample file: bad magic (it is an ELF file" \
	"$TIPROF" dump "$TIPROF"
run "text file" 1 "test_dump.sh: not a tiprof sample file" "$TIPROF" dump "$0"
run "directory" 1 "$DIR: " "$TIPROF" dump "$DIR"

# corrupted copies: any exit 0 or 1 with at most one stderr line, never a signal
crashes=0 multi=0
for seed in $(seq 1 200); do
	cp "$good" "$DIR/c.tps"
	off=$(( (seed * 7919) % size ))
	printf "\\x$(printf %02x $(( (seed * 31) % 256 )))" |
		dd of="$DIR/c.tps" bs=1 seek="$off" conv=notrunc status=none
	"$TIPROF" dump "$DIR/c.tps" >/dev/null 2>"$DIR/err"
	st=$?
	[ "$st" -le 1 ] || crashes=$((crashes + 1))
	[ "$(wc -l <"$DIR/err")" -le 1 ] || multi=$((multi + 1))
done
[ "$crashes" -eq 0 ] && ok || bad "$crashes corrupted files gave an exit status > 1"
[ "$multi" -eq 0 ] && ok || bad "$multi corrupted files gave more than one stderr line"

rm -rf "$DIR/nofile"; mkdir -p "$DIR/nofile"	# a rerun must not find the last run's copy
run "no arguments: tiprof.tps, as perf report reads perf.data" 1 "tiprof.tps: cannot open" \
	sh -c 'cd "$1" && exec "$2" dump' sh "$DIR/nofile" "$(realpath "$TIPROF")"
cp "$good" "$DIR/nofile/tiprof.tps"
run "no arguments, tiprof.tps present" 0 - sh -c 'cd "$1" && exec "$2" dump' sh "$DIR/nofile" \
	"$(realpath "$TIPROF")"
run "-i FILE" 0 - "$TIPROF" dump -i "$good"
run "--input=FILE" 0 - "$TIPROF" dump --input="$good"
run "two files" 2 "more than one FILE" "$TIPROF" dump "$good" "$good"
run "-i and an operand" 2 "more than one FILE" "$TIPROF" dump -i "$good" "$good"
run "a flag with a value" 2 "takes no value" "$TIPROF" report --json=1 "$good"
run "unknown option" 2 "unknown option" "$TIPROF" dump -x
run "unknown command" 2 "'frobnicate' is not a tiprof command" "$TIPROF" frobnicate
run "help" 0 - "$TIPROF" help
grep -q '^  dump ' "$DIR/out" && ok || bad "help does not list dump"
run "help dump" 0 - "$TIPROF" help dump
run "version" 0 - "$TIPROF" version
# the register map's version from its one source, spec/tiprof_regs.json
regver=$(python3 -c 'import json, sys; i = json.load(open(sys.argv[1]))["id"]; print("%d\\.%d" % (i["version_major"], i["version_minor"]))' "$(dirname "$0")/../../spec/tiprof_regs.json")
grep -q "^tiprof .* (sample file format 1\\.2, TIP register map $regver)\$" "$DIR/out" && ok ||
	bad "version line: $(cat "$DIR/out")"
"$TIPROF" >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "no command: want exit 2"

# -h/--help on every subcommand the table lists is `tiprof help CMD`
cmds=$("$TIPROF" help | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p')
ncmd=0
for c in $cmds; do
	ncmd=$((ncmd + 1))
	"$TIPROF" help "$c" >"$DIR/help.want" 2>&1
	for h in --help -h; do
		"$TIPROF" "$c" "$h" >"$DIR/help.got" 2>&1 && cmp -s "$DIR/help.want" "$DIR/help.got" &&
			ok || bad "tiprof $c $h: not tiprof help $c ($(head -1 "$DIR/help.got"))"
	done
done
[ "$ncmd" -ge 7 ] && ok || bad "tiprof help lists only $ncmd commands"
for s in record script dump perf llvm-prof afdo-text edges stat; do
	"$TIPROF" lbr "$s" --help >"$DIR/help.got" 2>&1 && grep -q "^usage: tiprof lbr record" "$DIR/help.got" &&
		ok || bad "tiprof lbr $s --help: $(head -1 "$DIR/help.got")"
done
echo "  --help on all $ncmd subcommands and the 8 of tiprof lbr"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
