#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# sim/programs/inputs.sh - the inputs of the real-program suite (sim/programs/suite.txt), made
# deterministically in one folder, in which the suite's command lines run:
#   sim/programs/inputs.sh GEN OUTDIR
# GEN is the gen-input program (sim/programs/gen_input.c, built for the host). OUTDIR gets:
#   mixed-64K.bin mixed-1M.bin mixed-2M.bin mixed-4M.bin  gen-input SIZE 1 (compressors)
#   text-8K.txt text-2M.txt                               gen-input -k text SIZE 1 (pcre2grep)
#   json-8K.json json-2M.json                             gen-input -k json SIZE 1 (cjson-bench)
#   bench.lua bench.sql                                   copies of sim/programs/inputs/
#   luac-1.lua luac-600.lua                               bench.lua's text, 1 and 600 times,
#                                                         each copy a global function (luac)
# OUTDIR/.stamp holds a hash of this script, GEN and sim/programs/inputs/*; when it matches,
# nothing is made again.
set -euo pipefail

ME=sim/programs/inputs.sh
[ $# = 2 ] || { echo "usage: $ME GEN OUTDIR" >&2; exit 2; }
GEN=$1 OUT=$2
DIR=$(cd "$(dirname "$0")" && pwd)
[ -x "$GEN" ] || { echo "$ME: $GEN: gen-input missing or not executable" >&2; exit 1; }
key=$(cat "$0" "$GEN" "$DIR"/inputs/* | sha256sum | cut -d' ' -f1)
if [ -f "$OUT/.stamp" ] && [ "$(cat "$OUT/.stamp")" = "$key" ]; then
	exit 0
fi
echo "  INPUTS  $OUT"
rm -rf "$OUT.tmp"
mkdir -p "$OUT.tmp"
for s in 64K 1M 2M 4M; do "$GEN" "$s" 1 >"$OUT.tmp/mixed-$s.bin"; done
for s in 8K 2M; do
	"$GEN" -k text "$s" 1 >"$OUT.tmp/text-$s.txt"
	"$GEN" -k json "$s" 1 >"$OUT.tmp/json-$s.json"
done
cp "$DIR/inputs/bench.lua" "$DIR/inputs/bench.sql" "$OUT.tmp/"
# luac's input: bench.lua's text as the body of global functions
# bench_1 ... bench_K (globals: a chunk may have at most 200 locals).
for k in 1 600; do
	awk -v k=$k '
		FNR == 1 { while ((getline l < FILENAME) > 0) body[++n] = l }
		END {
			for (i = 1; i <= k; i++) {
				printf "function bench_%d(...)\n", i
				for (j = 1; j <= n; j++) print body[j]
				print "end"
			}
		}' "$DIR/inputs/bench.lua" >"$OUT.tmp/luac-$k.lua"
done
echo "$key" >"$OUT.tmp/.stamp"
rm -rf "$OUT"
mv "$OUT.tmp" "$OUT"
