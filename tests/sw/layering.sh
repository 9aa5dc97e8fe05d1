#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# layering.sh - the dependency rule of the layout (docs/layout.md): product code (sw/, driver/,
# lib/) includes nothing from sim/ or tests/, and `tiprof` builds and works without the
# simulator. Checked three ways:
#  1. no #include line of sw/, driver/ or lib/ names sim/ or tests/;
#  2. `make BUILD=$BUILD/nosim TIPROF_SIM=0 tiprof` (no simulator fragment is even read) builds,
#     and the compiler's own header lists (.d files) of every object name no file under sim/ or
#     tests/ - so no header reached through an include path either;
#  3. that tiprof lists no simulator subcommand, and its report, annotate and dump of a sample
#     file recorded by the full build are byte-identical to the full build's;
#  4. `make help` lists every target a fragment declares .PHONY and every `make TARGET` that
#     README.md and docs/ name;
#  5. every source file names its licence (an SPDX line in its first lines), and nothing
#     generated but the register map's outputs is tracked (docs/layout.md);
#  6. no make variable is assigned in two fragments.
# Usage: BUILD=build MAKE=make layering.sh
set -u
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
NOSIM=$BUILD/nosim
T=$BUILD/bin/tiprof
D=$BUILD/layering
pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "  ok    $*"; }
bad() { fail=$((fail + 1)); echo "  FAIL  $*"; }
rm -rf "$D" && mkdir -p "$D"

# 1. include lines
if grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<][^">]*(sim|tests)/' \
	sw driver lib --include='*.c' --include='*.h' >"$D/includes"; then
	bad "product code includes simulator or test code:"; sed 's/^/        /' "$D/includes"
else
	ok "no #include of sim/ or tests/ in sw/, driver/, lib/"
fi

# 2. the build without the simulator, and the headers its objects really read
if $MAKE --no-print-directory -s BUILD="$NOSIM" TIPROF_SIM=0 tiprof >"$D/build.log" 2>&1; then
	ok "tiprof builds with TIPROF_SIM=0 ($NOSIM/bin/tiprof)"
else
	bad "tiprof without the simulator does not build:"; tail -20 "$D/build.log" | sed 's/^/        /'
fi
nd=$(find "$NOSIM/obj" -name '*.d' 2>/dev/null | wc -l)
if [ "$nd" -gt 0 ] && ! cat $(find "$NOSIM/obj" -name '*.d') | tr ' \\' '\n\n' | \
	grep -E '^(\./)?(sim|tests)/' >"$D/deps"; then
	ok "the $nd objects of the simulator-free tiprof read no header under sim/ or tests/"
else
	bad "simulator-free objects depend on sim/ or tests/ ($nd .d files):"; sort -u "$D/deps" | head | sed 's/^/        /'
fi

# 3. what that tiprof offers, and the same answers as the full build
N=$NOSIM/bin/tiprof
"$N" help >"$D/help" 2>&1
if grep -qE '^  (sim|accuracy|iss|trace) ' "$D/help"; then
	bad "simulator subcommands listed without the simulator"
elif grep -qE '^  report ' "$D/help" && grep -qE '^  annotate ' "$D/help" &&
     grep -qE '^  record ' "$D/help" && grep -qE '^  lbr ' "$D/help"; then
	ok "without the simulator: report, annotate, record, dump, lbr; no sim, accuracy, iss, trace"
else
	bad "tiprof help without the simulator: $(tr '\n' ' ' <"$D/help")"
fi
st=0; "$N" sim x >/dev/null 2>"$D/sim.err" || st=$?
if [ "$st" -eq 2 ] && grep -q "not a tiprof command" "$D/sim.err"; then
	ok "'tiprof sim' without the simulator: $(cat "$D/sim.err")"
else
	bad "'tiprof sim' without the simulator: exit $st, $(cat "$D/sim.err")"
fi
wl=$BUILD/workloads/crc32
if env -i "$T" sim --profile "$D/crc32.tps" "$wl" 2 >/dev/null 2>"$D/rec.err"; then
	for c in "report" "report --level instruction --limit 10" "report --cycle-stack" \
		 "annotate" "dump"; do
		# shellcheck disable=SC2086
		"$T" $c "$D/crc32.tps" >"$D/full.out" 2>&1; s1=$?
		# shellcheck disable=SC2086
		"$N" $c "$D/crc32.tps" >"$D/nosim.out" 2>&1; s2=$?
		if [ $s1 -eq 0 ] && [ $s2 -eq 0 ] && cmp -s "$D/full.out" "$D/nosim.out"; then
			ok "tiprof $c: same output with and without the simulator ($(wc -l <"$D/full.out") lines)"
		else
			bad "tiprof $c: exit $s1/$s2, outputs differ (see $D)"
		fi
	done
else
	bad "tiprof sim --profile $wl: $(cat "$D/rec.err")"
fi
# 4. make help
$MAKE --no-print-directory -s help | awk 'NR > 1 {print $1}' | sort -u >"$D/helped"
$MAKE --no-print-directory -pn help 2>/dev/null | sed -n 's/^\.PHONY: //p' | tr ' ' '\n' |
	grep . | sort -u >"$D/phony"
missing=$(comm -23 "$D/phony" "$D/helped" | tr '\n' ' ')
[ -z "$missing" ] && ok "make help lists all $(wc -l <"$D/phony") phony targets" ||
	bad "phony targets without a '## target: what' line: $missing"
grep -ohE '`make [a-z][a-z0-9-]*' README.md docs/*.md | sed 's/^`make //' | sort -u >"$D/named"
missing=$(comm -23 "$D/named" "$D/helped" | tr '\n' ' ')
[ -z "$missing" ] && ok "make help lists all $(wc -l <"$D/named") targets README.md and docs/ name" ||
	bad "targets named in README.md or docs/ but not in make help: $missing"

# 5. licence lines, nothing generated tracked
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files | grep -E '\.(c|h|sv|sh|py|mk|awk|def|f|vlt|cfg|waive)$|(^|/)(Makefile|Kbuild)$|^\.ci/run$' |
		while read -r f; do head -4 "$f" | grep -q 'SPDX-License-Identifier' || echo "$f"; done >"$D/nolicence"
	[ -s "$D/nolicence" ] && bad "source files without an SPDX licence line: $(tr '\n' ' ' <"$D/nolicence")" ||
		ok "every tracked source file has an SPDX licence line"
	git ls-files | grep -E '(^|/)__pycache__/|\.(o|a|so|pyc|d|vcd|vvp)$' >"$D/generated"
	[ -s "$D/generated" ] && bad "generated files tracked: $(tr '\n' ' ' <"$D/generated")" ||
		ok "no build output or __pycache__ tracked"
fi

# 6. one owner per make variable: every fragment is read into one make, so a variable two
#    fragments assign (with =, := or ?=; += appends are how fragments share a list) makes the
#    later one win in the earlier one's recipes (PM_DIR and SD_OUT did: the ProfileMe RTL builds
#    looked for their includes in sw/pm, test-seldisp-isa for its programs in the RTL's logs)
git ls-files 'Makefile' '*.mk' | xargs awk '
	match($0, /^[A-Za-z_][A-Za-z0-9_.\/-]*[ \t]*(:=|\?=|=)/) && $0 !~ /^[^=]*==/ {
		name = $0; sub(/[ \t]*(:=|\?=|=).*/, "", name)
		if (name in where && where[name] != FILENAME) print name ": " where[name] " and " FILENAME
		else where[name] = FILENAME
	}' > "$D/vars"
if [ -s "$D/vars" ]; then
	bad "make variables assigned in two fragments:"; sed 's/^/        /' "$D/vars"
else
	ok "every make variable is assigned in one fragment ($(git ls-files 'Makefile' '*.mk' | wc -l) files)"
fi

echo "test-layering: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
