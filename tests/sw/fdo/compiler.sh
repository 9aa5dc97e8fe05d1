#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test-fdo-compiler (docs/fdo.md "Compiler formats"): the profiles tiprof fdo writes for the
# compilers are read by them and used.
#   riscv64: fdo_prog.c built -O2 -g by riscv64-linux-gnu-gcc-12, TIP samples from tiprof sim,
#            smoothed, written as LLVM text and GCC AutoFDO;
#   x86-64:  the same source built by gcc-12, branch records from tiprof lbr record.
# Each profile goes to gcc-12 (-fauto-profile) and clang (-fprofile-sample-use) for its target
# (and the riscv64 one to the x86-64 compilers too: the profile is keyed by source lines):
# no diagnostic at all under -Wall -Wextra, and the counts are in the IR
# (compiler_check.py: the called function's entry count = the profile's head count, the hot
# function's line counts among its block counts / branch weights), which they are not without
# the profile. Then planted bugs (MUTANTS: tiprof built with a sed-mutated sw/lib/srcprof.c)
# must fail the same checks, and bad inputs give one line and exit 1.
# Env: TIPROF, MUTANTS (paths build/fdo/mutant-NAME/tiprof), TMP.
set -u
T=${TIPROF:?}
D=${TMP:-build/fdo/compiler}
HERE=$(cd "$(dirname "$0")" && pwd)
CHECK="python3 $HERE/compiler_check.py"
SRC=$HERE/fdo_prog.c
RVCC=riscv64-linux-gnu-gcc-12
rm -rf "$D"
mkdir -p "$D"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  ok    $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL  $1"; }

# ---- programs and profiles
$RVCC -O2 -g -static -o "$D/prog.rv" "$SRC" || { echo "cannot build fdo_prog.c for riscv64"; exit 1; }
gcc-12 -O2 -g -o "$D/prog.x86" "$SRC" || { echo "cannot build fdo_prog.c for x86-64"; exit 1; }
env -i "$T" sim -c 512 --profile "$D/rv.tps" "$D/prog.rv" 20000 >"$D/sim.out" 2>"$D/sim.err" ||
	ko "tiprof sim --profile: $(tail -1 "$D/sim.err")"
"$T" lbr record -o "$D/x86.lbr" --period 100000 -- "$D/prog.x86" 3000000 >"$D/lbr.out" 2>"$D/lbr.err" ||
	ko "tiprof lbr record: $(tail -1 "$D/lbr.err")"

# profiles IN (rv.tps, x86.lbr) -> NAME.txt (LLVM), NAME.afdo (GCC), NAME.show (llvm-profdata)
profiles() {	# tiprof name input
	local t=$1 n=$2 in=$3
	"$t" fdo llvm-prof "$in" -o "$D/$n.txt" --json >"$D/$n.txt.json" 2>"$D/$n.err" &&
	"$t" fdo gcc-afdo "$in" -o "$D/$n.afdo" --json >"$D/$n.afdo.json" 2>>"$D/$n.err" &&
	llvm-profdata show --sample "$D/$n.txt" >"$D/$n.show" 2>>"$D/$n.err"
}
if profiles "$T" rv "$D/rv.tps" && profiles "$T" x86 "$D/x86.lbr"; then
	ok "written: $(python3 -c 'import json,sys
for f in sys.argv[1:]:
    j = json.load(open(f))
    print("%s %s: %d functions, %d lines, total %d, hottest %s;" % (j["kind"], j["format"],
          j["functions"], j["lines"], j["total"], j["hottest"]), end=" ")' \
		"$D"/rv.txt.json "$D"/rv.afdo.json "$D"/x86.txt.json "$D"/x86.afdo.json)"
	ok "llvm-profdata show --sample reads both LLVM profiles: $(grep -c '^Function:' "$D/rv.show") and $(grep -c '^Function:' "$D/x86.show") functions"
else
	ko "writing the profiles: $(cat "$D"/rv.err "$D"/x86.err 2>/dev/null | head -3)"
fi
# the GCC file decoded as gcc/auto-profile.cc reads it = the LLVM text of the same input
for n in rv x86; do
	if python3 "$HERE/afdo_read.py" "$D/$n.afdo" "$D/$n.txt" >"$D/$n.dec" 2>&1; then
		ok "$n.afdo $(cat "$D/$n.dec")"
	else
		ko "$n.afdo: $(cat "$D/$n.dec")"
	fi
done

# the exact profile of the same run (tiprof iss --truth) through the same writer: the head
# counts are the true call counts, computed here from the program's logic
env -i "$T" iss --truth "$D/rv.exact" "$D/prog.rv" 20000 >/dev/null 2>"$D/iss.err"
if "$T" fdo llvm-prof "$D/rv.exact" --elf "$D/prog.rv" -o "$D/exact.txt" 2>"$D/exact.err" &&
   llvm-profdata show --sample "$D/exact.txt" >"$D/exact.show" 2>>"$D/exact.err" &&
   python3 - "$D/exact.show" >"$D/exact.check" 2>&1 <<'EOF'
import re, sys
head = {m.group(1): int(m.group(2)) for m in
        re.finditer(r'^Function: (\w+): \d+, (\d+),', open(sys.argv[1]).read(), re.M)}
n = 20000
want = {'mix': sum(1 for i in range(n) if i % 61 and i & 3),   # fdo_prog.c's hot loop
        'rare': sum(1 for i in range(n) if i % 61 == 0), 'hot': 1}
assert all(head.get(f) == c for f, c in want.items()), (head, want)
print(', '.join('%s %d' % (f, c) for f, c in sorted(want.items())))
EOF
then
	ok "exact profile (iss --truth) -> LLVM text: head counts = the true call counts ($(cat "$D/exact.check"))"
else
	ko "exact profile: $(cat "$D/iss.err" "$D/exact.err" "$D/exact.check" 2>/dev/null | tail -3)"
fi
# calls through auipc + jalr (linked --no-relax: no call becomes a jal) get the same call targets
targets() { grep -o ' [A-Za-z_][A-Za-z0-9_.]*:[0-9][0-9]*' "$1" | sort | tr -d '\n'; }
$RVCC -O2 -g -static -Wl,--no-relax -o "$D/prog-norelax.rv" "$SRC"
env -i "$T" iss --truth "$D/norelax.exact" "$D/prog-norelax.rv" 20000 >/dev/null 2>&1
"$T" fdo llvm-prof "$D/norelax.exact" --elf "$D/prog-norelax.rv" -o "$D/norelax.txt" 2>"$D/norelax.err"
n_auipc=$(riscv64-linux-gnu-objdump -d "$D/prog-norelax.rv" | grep -c 'jalr.*<\(mix\|rare\|hot\)>')
if [ "$n_auipc" -ge 3 ] && [ -n "$(targets "$D/exact.txt")" ] &&
   [ "$(targets "$D/exact.txt")" = "$(targets "$D/norelax.txt")" ]; then
	ok "auipc + jalr calls ($n_auipc to mix/rare/hot) give the jal build's call targets:$(targets "$D/norelax.txt")"
else
	ko "auipc + jalr calls ($n_auipc): targets '$(targets "$D/norelax.txt")', the jal build's '$(targets "$D/exact.txt")' $(cat "$D/norelax.err")"
fi
# a profile file written by fdo smooth gives the same profile as its sample file
"$T" fdo smooth "$D/rv.tps" -o "$D/rv.fdo" 2>"$D/smooth.err" &&
	"$T" fdo gcc-afdo "$D/rv.fdo" --elf "$D/prog.rv" -o "$D/rv-fdo.afdo" 2>>"$D/smooth.err" &&
	cmp -s "$D/rv.afdo" "$D/rv-fdo.afdo" && ok "fdo smooth's profile file -> gcc-afdo: the same bytes as from the sample file" ||
	ko "profile file input: $(cat "$D/smooth.err")"

# compile SRC with a profile; the diagnostics in $D/$out.diag, the IR/dump in $D/$out.ir
gcc_use() {	# compiler afdo out
	rm -f "$D/$3".ir
	"$1" -O2 -g -Wall -Wextra -fauto-profile="$2" -fdump-tree-optimized="$D/$3.ir" \
		-c "$SRC" -o "$D/$3.o" >"$D/$3.diag" 2>&1
}
clang_use() {	# target profile out
	clang --target="$1" -O2 -g -Wall -Wextra -fprofile-sample-use="$2" -emit-llvm -S \
		-o "$D/$3.ir" "$SRC" >"$D/$3.diag" 2>&1
}
# judge: exit status, no diagnostic, the counts are there
judge() {	# kind out show
	[ -s "$D/$2.ir" ] && [ ! -s "$D/$2.diag" ] && $CHECK "$1" "$D/$2.ir" "$3" >"$D/$2.check" 2>&1
}
use_all() {	# prefix rvprof x86prof -> runs the six compilations, prints the failures
	local p=$1 rv=$2 x86=$3 bad=""
	gcc_use $RVCC "$D/$rv.afdo" "$p-gcc-rv" && judge gcc "$p-gcc-rv" "$D/$rv.show" || bad="$bad gcc-rv"
	gcc_use gcc-12 "$D/$rv.afdo" "$p-gcc-x86-rvprof" && judge gcc "$p-gcc-x86-rvprof" "$D/$rv.show" || bad="$bad gcc-x86-rvprof"
	gcc_use gcc-12 "$D/$x86.afdo" "$p-gcc-x86" && judge gcc "$p-gcc-x86" "$D/$x86.show" || bad="$bad gcc-x86"
	clang_use riscv64-linux-gnu "$D/$rv.txt" "$p-clang-rv" && judge clang "$p-clang-rv" "$D/$rv.show" || bad="$bad clang-rv"
	clang_use x86_64-linux-gnu "$D/$rv.txt" "$p-clang-x86-rvprof" && judge clang "$p-clang-x86-rvprof" "$D/$rv.show" || bad="$bad clang-x86-rvprof"
	clang_use x86_64-linux-gnu "$D/$x86.txt" "$p-clang-x86" && judge clang "$p-clang-x86" "$D/$x86.show" || bad="$bad clang-x86"
	echo "$bad"
}

bad=$(use_all ok rv x86)
if [ -z "$bad" ]; then
	for c in gcc-rv gcc-x86 clang-rv clang-x86; do ok "$c: no diagnostic; $(cat "$D/ok-$c.check")"; done
	ok "gcc-12 and clang for x86-64 read the riscv64 profile too (source-level keys)"
else
	for c in $bad; do
		ko "$c: $(head -3 "$D/ok-$c.diag" 2>/dev/null) $(cat "$D/ok-$c.check" 2>/dev/null)"
	done
fi
# a clang-built riscv64 program (-fdebug-info-for-profiling): its discriminators are kept (LLVM's
# base ones), a GCC-built one's are dropped (they mean nothing to clang)
if clang --target=riscv64-linux-gnu -O2 -g -fdebug-info-for-profiling -static -o "$D/prog.clang.rv" \
	"$SRC" >"$D/clangrv.diag" 2>&1 &&
   env -i "$T" sim -c 512 --profile "$D/clang.tps" "$D/prog.clang.rv" 20000 >/dev/null 2>>"$D/clangrv.diag" &&
   "$T" fdo llvm-prof "$D/clang.tps" -o "$D/clang.txt" 2>>"$D/clangrv.diag" &&
   llvm-profdata show --sample "$D/clang.txt" >"$D/clang.show" 2>>"$D/clangrv.diag" &&
   clang --target=riscv64-linux-gnu -O2 -g -fdebug-info-for-profiling -Wall -Wextra \
	-fprofile-sample-use="$D/clang.txt" -emit-llvm -S -o "$D/clang-rv.ir" "$SRC" >"$D/clang-rv.diag" 2>&1 &&
   [ ! -s "$D/clang-rv.diag" ] && $CHECK clang "$D/clang-rv.ir" "$D/clang.show" >"$D/clang-rv.check" 2>&1 &&
   grep -q '^ *[0-9]*\.[1-9][0-9]*: ' "$D/clang.txt" && ! grep -q '^ *[0-9]*\.[0-9]*: ' "$D/rv.txt"; then
	ok "clang-built riscv64: discriminators kept ($(grep -c '^ *[0-9]*\.[1-9][0-9]*: ' "$D/clang.txt") lines; none from the gcc build); clang: $(cat "$D/clang-rv.check")"
else
	ko "clang-built riscv64: $(cat "$D/clangrv.diag" "$D/clang-rv.diag" "$D/clang-rv.check" 2>/dev/null | head -3)"
fi

# the checks see the profile, not the compiler's own guesses: without one they fail
gcc-12 -O2 -g -fdump-tree-optimized="$D/none-gcc.ir" -c "$SRC" -o "$D/none.o"
clang -O2 -g -emit-llvm -S -o "$D/none-clang.ir" "$SRC"
if ! $CHECK gcc "$D/none-gcc.ir" "$D/x86.show" >/dev/null 2>&1 &&
   ! $CHECK clang "$D/none-clang.ir" "$D/x86.show" >/dev/null 2>&1; then
	ok "without the profile the same checks fail (gcc and clang)"
else
	ko "a check passes without any profile"
fi

# ---- planted bugs: every mutant tiprof must fail some compiler check
for m in ${MUTANTS:-}; do
	name=$(basename "$(dirname "$m")")
	if ! profiles "$m" "$name-rv" "$D/rv.tps" || ! profiles "$m" "$name-x86" "$D/x86.lbr"; then
		ok "$name: caught writing ($(head -1 "$D/$name-rv.err"))"
		continue
	fi
	bad=$(use_all "$name" "$name-rv" "$name-x86")
	if [ -n "$bad" ]; then
		first=${bad# }
		first=${first%% *}
		ok "$name: caught by$bad ($(cat "$D/$name-$first.diag" "$D/$name-$first.check" 2>/dev/null | head -c 150 | tr '\n' ' '))"
	else
		ko "$name: not caught (every compiler check passed)"
	fi
done

# ---- bad inputs: one line on stderr naming the input, exit 1, no output file
one_line() {	# what out cmd...
	local what=$1 out=$2
	shift 2
	rm -f "$out"
	"$@" >"$D/bad.out" 2>"$D/bad.err"
	local rc=$?
	if [ "$rc" = 1 ] && [ "$(wc -l <"$D/bad.err")" = 1 ] && [ ! -s "$D/bad.out" ] && [ ! -e "$out" ]; then
		ok "$what: $(cat "$D/bad.err")"
	else
		ko "$what: exit $rc, stderr: $(head -3 "$D/bad.err")"
	fi
}
O=$D/bad.afdo
sed 's/h \*= 16777619u;/h *= 16777619u; h += 1;/' "$SRC" >"$D/other.c"
$RVCC -O2 -g -static -o "$D/other.rv" "$D/other.c"
one_line "sample file of another binary (stale profile)" "$O" "$T" fdo gcc-afdo "$D/rv.tps" --elf "$D/other.rv" -o "$O"
one_line "profile file of another binary (stale profile)" "$O" "$T" fdo llvm-prof "$D/rv.fdo" --elf "$D/other.rv" -o "$O"
one_line "profile file without --elf" "$O" "$T" fdo gcc-afdo "$D/rv.fdo" -o "$O"
riscv64-linux-gnu-strip -o "$D/stripped.rv" "$D/prog.rv"
one_line "stripped binary" "$O" "$T" fdo gcc-afdo "$D/rv.fdo" --elf "$D/stripped.rv" -o "$O"
riscv64-linux-gnu-strip --strip-debug -o "$D/nodebug.rv" "$D/prog.rv"
one_line "binary without DWARF (same build id)" "$O" "$T" fdo llvm-prof "$D/rv.tps" --elf "$D/nodebug.rv" -o "$O"
strip -o "$D/stripped.x86" "$D/prog.x86"
"$T" lbr record -o "$D/stripped.lbr" --period 100000 -- "$D/stripped.x86" 300000 >/dev/null 2>&1
one_line "records of a stripped x86-64 binary" "$O" "$T" fdo llvm-prof "$D/stripped.lbr" -o "$O"
env -i "$T" sim -c 4000000000 --profile "$D/empty.tps" "$D/prog.rv" 10 >/dev/null 2>&1
one_line "empty sample file" "$O" "$T" fdo gcc-afdo "$D/empty.tps" -o "$O"
: >"$D/zero.tps"
one_line "zero-byte file" "$O" "$T" fdo llvm-prof "$D/zero.tps" --elf "$D/prog.rv" -o "$O"
one_line "missing file" "$O" "$T" fdo llvm-prof "$D/nonexistent.tps" -o "$O"
one_line "unwritable output" "$D/no/such/dir/x" "$T" fdo llvm-prof "$D/rv.tps" -o "$D/no/such/dir/x"

echo "test-fdo-compiler: $pass passed, $fail failed"
[ "$fail" = 0 ]
