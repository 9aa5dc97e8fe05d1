#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run.sh - driver of tests/lib/symbol/test_symbol.c (lib/symbol: code map, ELF image, source
# lines): for each RISC-V ELF given, and for a tiny 64-bit and a tiny 32-bit ELF built here,
# writes what binutils says about it (the independent oracle the test compares the library
# against), then runs the test once on all of them; its last line is "N passed, M failed".
#
# Usage: run.sh TEST_BIN OUTDIR [ELF...]   (CROSS_COMPILE defaults to riscv64-linux-gnu-)
#
# OUTDIR/<name>/ for each ELF (<name> its file name):
#   elf       the ELF itself (a copy)
#   class     ELF64 or ELF32 (readelf -h)
#   funcs     "start size name": every FUNC symbol with a size (readelf -s)
#   sections  "addr size": every executable PROGBITS section (readelf -S)
#   loads     "vaddr filesz": every PT_LOAD segment (readelf -l)
#   buildid   the GNU build-id in hex, empty if none (readelf -n)
#   insns     "addr word kind target": every instruction (objdump -d -z); word as objdump prints
#             it (little-endian value of 2 or 4 bytes), kind T (branch, j, jal: static target),
#             I (jr, jalr, ret) or - (no control transfer), target in hex or -
#   lines     "addr file line": addr2line for every byte of the DWARF address ranges and for
#             every 97th instruction ("?? 0" where there is no line)
#   nodebug   the ELF without DWARF (strip -g);  stripped: without any symbols (strip -s)
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: $0 TEST_BIN OUTDIR [ELF...]" >&2; exit 2; }
bin=$1
out=$2
shift 2
X=${CROSS_COMPILE:-riscv64-linux-gnu-}

for t in gcc readelf objdump addr2line strip; do
	command -v "$X$t" >/dev/null || { echo "run.sh: $X$t not found" >&2; exit 1; }
done
rm -rf "$out" && mkdir -p "$out/tmp"

# A tiny static ELF (a few KB: the test truncates it at every length and corrupts its headers),
# once 64-bit and once 32-bit (the code map must refuse that one; the ELF image reads it).
cat >"$out/tiny.c" <<'EOF'
static int sq(int x) { return x * x; }
int acc(const int *v, int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		if (v[i] > 0)
			s += sq(v[i]);
	return s;
}
static const int data[4] = { 1, -2, 3, 4 };
void _start(void)
{
	register long a0 __asm__("a0") = acc(data, 4);
	register long a7 __asm__("a7") = 93;

	__asm__ volatile("ecall" : : "r"(a0), "r"(a7));
	for (;;)
		;
}
EOF
mkdir -p "$out/src"
"${X}gcc" -O1 -g -static -nostdlib -fno-inline -Wl,--build-id -o "$out/src/tiny" "$out/tiny.c"
"${X}gcc" -march=rv32imac -mabi=ilp32 -O1 -g -static -nostdlib -fno-inline -Wl,--build-id \
	-o "$out/src/tiny32" "$out/tiny.c"

# oracle ELF DIR: the files above for ELF, written into DIR.
oracle() {
	local elf=$1 d=$2
	mkdir -p "$d"
	cp "$elf" "$d/elf"
	"${X}readelf" -h "$elf" | awk '/Class:/ { print $2 }' >"$d/class"
	"${X}readelf" -sW "$elf" | awk '$4 == "FUNC" && $3 != "0" { print $2, $3, $8 }' >"$d/funcs"
	"${X}readelf" -SW "$elf" | sed -n 's/^ *\[ *[0-9]*\] *//p' |
		awk '$2 == "PROGBITS" && $7 ~ /X/ { print $3, $5 }' >"$d/sections"
	"${X}readelf" -lW "$elf" | awk '$1 == "LOAD" { print $3, $5 }' >"$d/loads"
	"${X}readelf" -n "$elf" | awk '/Build ID:/ { print $3 }' >"$d/buildid"
	"${X}objdump" -d -z "$elf" | awk -F'\t' '
		/^ *[0-9a-f]+:\t/ {
			addr = $1; sub(/^ */, "", addr); sub(/:$/, "", addr)
			word = $2; gsub(/ /, "", word)
			split($3, m, " "); mn = m[1]
			kind = "-"; target = "-"
			if (mn ~ /^(beq|bne|blt|bge|bltu|bgeu|beqz|bnez|blez|bgez|bltz|bgtz)$/ ||
			    mn ~ /^(bgt|ble|bgtu|bleu|j|jal)$/) {
				n = split($4, ops, ","); split(ops[n], t, " ")
				kind = "T"; target = t[1]
			} else if (mn ~ /^(jr|jalr|ret)$/) {
				kind = "I"
			}
			print addr, word, kind, target
		}' >"$d/insns"
	# addr2line on every byte of the DWARF ranges and on a spread of other instructions
	{
		"${X}readelf" --debug-dump=aranges "$elf" 2>/dev/null |
			awk 'NF == 2 && $1 ~ /^[0-9a-f]+$/ && $2 ~ /^[0-9a-f]+$/' |
			while read -r a n; do
				for ((i = 0; i < 0x$n; i++)); do printf '0x%x\n' $((0x$a + i)); done
			done
		awk 'NR % 97 == 1 { print "0x" $1 }' "$d/insns"
	} | sort -u >"$d/line-addrs"
	"${X}addr2line" -a -e "$elf" <"$d/line-addrs" | awk '
		NR % 2 == 1 { addr = $1; sub(/^0x0*/, "", addr); if (addr == "") addr = "0"; next }
		{
			sub(/ \(discriminator [0-9]+\)$/, "")
			i = match($0, /:[^:]*$/)
			file = substr($0, 1, i - 1); line = substr($0, i + 1)
			if (file == "??" || line !~ /^[0-9]+$/) { file = "??"; line = 0 }
			print addr, file, line
		}' >"$d/lines"
	"${X}strip" -g -o "$d/nodebug" "$elf"
	"${X}strip" -s -o "$d/stripped" "$elf"
}

names=()
for elf in "$@" "$out/src/tiny" "$out/src/tiny32"; do
	name=$(basename "$elf")
	oracle "$elf" "$out/$name"
	names+=("$name")
done
exec "$bin" "$out" "${names[@]}"
