#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cli.sh - `tiprof pm` (docs/pm-report.md) on a sample file whose estimates are worked out by
# hand (pm_mkfile: 100 records, PERIOD 64, COLLIDED 25 -> scale 64 x 125/100 = 80): every view
# as text and as JSON (python3 -m json.tool; the hand-worked numbers read back from the JSON),
# -o, --sort/--event/--level/--top, convert (perf report reads the perf.data when perf is
# installed), and bad input: each error exits 1 (unusable input) or 2
# (bad command line) with nothing on stdout and one line on stderr naming the file or option.
# Then, when the simulator records ProfileMe (tiprof sim -e profileme), every view on a real
# workload with symbols. Run with the sanitized tiprof too (TIPROF_SAN).
# Usage: cli.sh TIPROF PM_MKFILE TMPDIR [TIPROF_SAN [WORKLOADS]]
set -u
T=$1 MK=$2 D=$3 TSAN=${4:-} WL=${5:-}
PY=${PYTHON:-python3}
rm -rf "$D" && mkdir -p "$D"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  ok    $*"; }
ko() { fail=$((fail + 1)); echo "  FAIL  $*"; }

# bad NAME WANT PATTERN CMD...: exit WANT, empty stdout, one stderr line containing PATTERN.
bad() {
	local name=$1 want=$2 pat=$3 st lines; shift 3
	"$@" >"$D/out" 2>"$D/err" </dev/null
	st=$?
	lines=$(wc -l <"$D/err")
	if [ "$st" -eq "$want" ] && [ ! -s "$D/out" ] && [ "$lines" -eq 1 ] &&
	   grep -qF -- "$pat" "$D/err"; then
		ok "$name: $(cat "$D/err")"
	else
		ko "$name: exit $st (want $want), stdout $(wc -c <"$D/out") bytes, $lines stderr lines (want 1 with '$pat'):"
		head -3 "$D/err" | sed 's/^/        /'
	fi
}

# json NAME FILE PYEXPR: FILE is valid JSON and PYEXPR (over j) is true.
json() {
	if ! $PY -m json.tool "$2" >/dev/null 2>"$D/jerr"; then
		ko "$1: not JSON: $(head -1 "$D/jerr")"
	elif $PY -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if ($3) else 1)" "$2"; then
		ok "$1"
	else
		ko "$1: $3 is false"
	fi
}

"$MK" "$D/a.tps" pm || { echo "pm_mkfile failed"; exit 1; }
"$MK" "$D/tip.tps" tip || { echo "pm_mkfile failed"; exit 1; }

for TT in "$T" ${TSAN:+"$TSAN"}; do
	tag=$(basename "$TT")
	echo "-- $tag: every view, text and JSON, on the hand-worked file"
	for v in report lat mem path pairs; do
		if "$TT" pm $v "$D/a.tps" >"$D/$v.txt" 2>"$D/$v.err" && [ -s "$D/$v.txt" ] &&
		   [ ! -s "$D/$v.err" ]; then
			ok "$tag pm $v: $(wc -l <"$D/$v.txt") lines of text"
		else
			ko "$tag pm $v (text): $(head -2 "$D/$v.err")"
		fi
		if "$TT" pm $v "$D/a.tps" --json --top 0 >"$D/$v.json" 2>"$D/$v.err"; then
			json "$tag pm $v --json is JSON" "$D/$v.json" "j['view'] == '$v'"
		else
			ko "$tag pm $v --json: $(head -2 "$D/$v.err")"
		fi
	done
done

echo "-- the hand-worked estimates (scale 80)"
R=$D/report.json
json "scale 64 x (100+0)/100 x 125/100 = 80, total 8000" "$R" \
	"abs(j['estimate']['scale'] - 80) < 1e-9 and abs(j['estimate']['total'] - 8000) < 1e-6"
json "0x1000: k 60 -> 4800; dc_miss k 20 -> 1600" "$R" \
	"[(i['events']['fetched']['est'], i['events']['dc_miss']['est']) for i in j['instructions'] if i['pc'] == '0x1000'] == [(4800, 1600)]"
json "0x1004: br_mispred k 10 -> 800 within its interval" "$R" \
	"[e['est'] for i in j['instructions'] if i['pc'] == '0x1004' for e in [i['events']['br_mispred']] if e['lo'] < 800 < e['hi']] == [800]"
# the interval's definition checked with exact binomial sums: P(X >= 20 | lo) = P(X <= 20 | hi)
# = 0.025 for X ~ Binomial(100, bound / 8000)
json "dc_miss 20/100: Clopper-Pearson bounds satisfy the binomial tails (exact sums)" "$R" \
	"(lambda e, B: abs(sum(B(x, e['lo'] / 8000) for x in range(20, 101)) - 0.025) < 1e-6 and abs(sum(B(x, e['hi'] / 8000) for x in range(0, 21)) - 0.025) < 1e-6)([i for i in j['instructions'] if i['pc'] == '0x1000'][0]['events']['dc_miss'], lambda x, p: __import__('math').comb(100, x) * p ** x * (1 - p) ** (100 - x))"
json "rates per fetch: 0x1004 br_mispred 10/40 = 0.25 [0.1269, 0.4120], 0x1000 dc_miss 1/3" "$R" \
	"[(round(i['events']['br_mispred']['rate'], 4), round(i['events']['br_mispred']['rate_lo'], 4), round(i['events']['br_mispred']['rate_hi'], 4)) for i in j['instructions'] if i['pc'] == '0x1004'] == [(0.25, 0.1269, 0.412)] and [round(i['events']['dc_miss']['rate'], 4) for i in j['instructions'] if i['pc'] == '0x1000'] == [0.3333]"
json "lat: 0x1000 total latency mean (45 x 20 + 9 x 40) / 60 = 21, p90 45" "$D/lat.json" \
	"[(i['stages']['total']['mean'], i['stages']['total']['p90']) for i in j['instructions'] if i['pc'] == '0x1000'] == [(21, 45)]"
json "mem: 60 loads at 0x1000, 20 L1 misses at 40 cycles, 40 hits at 4; one 4 KiB region" "$D/mem.json" \
	"[(m['loads']['k'], m['classes']['l1_miss']['k'], m['classes']['l1_miss']['lat_mean'], m['classes']['l1_hit']['lat_mean']) for i in j['instructions'] for m in [i['mem']]] == [(60, 20, 40, 4)] and [r['base'] for r in j['regions']] == ['0x8000']"
json "path: 0x1004 under 0x00ff 20, 0x0f0f 20 (10 mispredicted)" "$D/path.json" \
	"sorted((p['hist'], p['n'], p['mispred']) for i in j['instructions'] if i['pc'] == '0x1004' for p in i['paths']) == [('0x00ff', 20, 5), ('0x0f0f', 20, 5)]"
json "pairs: 0x1000 one-sided overlap 2 x 8 x 6/6 = 16, wasted 4 x 21 - 16 = 68" "$D/pairs.json" \
	"[(i['overlap'], i['wasted'], i['one_sided']) for i in j['instructions'] if i['pc'] == '0x1000'] == [(16, 68, True)]"

echo "-- options"
"$T" pm report "$D/a.tps" --json --level function -e retired,load --sort load >"$D/f.json" 2>&1
json "--level function -e retired,load: one function row, events listed" "$D/f.json" \
	"j['events'] == ['retired', 'load'] and len(j['functions']) == 1 and j['instructions'] == []"
"$T" pm report "$D/a.tps" --json --top 1 --sort br_mispred >"$D/t.json" 2>&1
json "--top 1 --sort br_mispred: the branch" "$D/t.json" \
	"[i['pc'] for i in j['instructions']] == ['0x1004']"
"$T" pm lat "$D/a.tps" --json --sort mem --limit 1 >"$D/m.json" 2>&1
json "lat --sort mem: the load first" "$D/m.json" "[i['pc'] for i in j['instructions']] == ['0x1000']"
if "$T" pm mem "$D/a.tps" -o "$D/o.txt" >"$D/out" 2>&1 && [ ! -s "$D/out" ] &&
   grep -q 'Data regions' "$D/o.txt"; then ok "-o FILE writes the view there"; else ko "-o FILE"; fi
if "$T" help pm | grep -q -- '--sort KEY'; then ok "tiprof help pm lists --sort"; else ko "help pm"; fi

echo "-- convert to perf.data"
# the converter maps the program's segments: the hand-worked samples with a real ELF named
if [ -n "$WL" ] && [ -x "$WL/quicksort" ] && "$MK" "$D/c.tps" pm "$WL/quicksort"; then
	if "$T" pm convert "$D/c.tps" -o "$D/c.perf.data" 2>"$D/conv.err" &&
	   grep -q '100 ProfileMe samples of .*: 110 perf samples written' "$D/conv.err"; then
		ok "pm convert: $(cat "$D/conv.err")"
	else
		ko "pm convert: $(head -1 "$D/conv.err")"
	fi
	if command -v perf >/dev/null 2>&1; then
		perf report -i "$D/c.perf.data" --stdio --sort sym 2>/dev/null >"$D/perf.txt"
		if grep -q "Samples: 110 " "$D/perf.txt"; then
			ok "perf report reads it: 110 samples"
		else
			ko "perf report: $(grep -m1 Samples "$D/perf.txt")"
		fi
	fi
	bad "convert to an unwritable path" 1 "no/dir/x" "$T" pm convert "$D/c.tps" -o "$D/no/dir/x"
else
	echo "  (no workload ELF: the conversion itself is skipped)"
fi
bad "convert of a file whose ELF is missing" 1 "$D/a.tps" "$T" pm convert "$D/a.tps" -o "$D/a.data"

echo "-- bad input (exit 1) and bad command lines (exit 2)"
bad "missing file" 1 "$D/none.tps" "$T" pm report "$D/none.tps"
bad "a TIP file" 1 "no ProfileMe records" "$T" pm lat "$D/tip.tps"
head -c 300 "$D/a.tps" >"$D/short.tps"
bad "truncated file" 1 "$D/short.tps" "$T" pm report "$D/short.tps"
printf 'not a sample file at all\n' >"$D/junk.tps"
bad "foreign file" 1 "$D/junk.tps" "$T" pm pairs "$D/junk.tps"
"$MK" "$D/elf.tps" pm "$D/no-such-elf" >/dev/null 2>&1
bad "named ELF missing" 1 "no-such-elf" "$T" pm report "$D/elf.tps"
bad "--elf missing" 1 "nope.elf" "$T" pm mem "$D/a.tps" --elf "$D/nope.elf"
bad "no view" 2 "missing view" "$T" pm
bad "unknown view" 2 "'bogus' is not a view" "$T" pm bogus "$D/a.tps"
bad "unknown --sort" 2 "--sort" "$T" pm report "$D/a.tps" --sort nope
bad "unknown --event" 2 "--event" "$T" pm report "$D/a.tps" -e dc_miss,nope
bad "bad --level" 2 "--level" "$T" pm report "$D/a.tps" --level block
bad "bad --top" 2 "--top" "$T" pm report "$D/a.tps" --top x
bad "two files" 2 "FILE" "$T" pm report "$D/a.tps" "$D/a.tps"
bad "unwritable -o" 1 "cannot write" "$T" pm report "$D/a.tps" -o "$D/no/dir/x"
bad "convert without -o" 2 "-o OUT.perf.data" "$T" pm convert "$D/a.tps"
bad "convert of a TIP file" 1 "no ProfileMe records" "$T" pm convert "$D/tip.tps" -o "$D/t.data"
[ -n "$TSAN" ] && bad "sanitized: truncated file" 1 "$D/short.tps" "$TSAN" pm path "$D/short.tps"

# A real workload, when this tiprof's simulator records ProfileMe.
if [ -n "$WL" ] && [ -x "$WL/quicksort" ] && "$T" help sim 2>/dev/null | grep -q profileme; then
	echo "-- quicksort 3000 on the core model, ProfileMe every 128 instructions, pairs within 32"
	if "$T" sim -e profileme -c 128 --pair 32 --profile "$D/qs.tps" --no-progress \
		"$WL/quicksort" 3000 >/dev/null 2>"$D/sim.err"; then
		for v in report lat mem path pairs; do
			if "$T" pm $v "$D/qs.tps" --json >"$D/qs-$v.json" 2>"$D/qs.err"; then
				json "quicksort: pm $v --json" "$D/qs-$v.json" "j['view'] == '$v'"
			else
				ko "quicksort: pm $v: $(head -1 "$D/qs.err")"
			fi
		done
		json "quicksort: qs_sort is the hottest function" "$D/qs-report.json" \
			"j['functions'][0]['name'] == 'qs_sort'"
		json "quicksort: pairs used and wasted slots computed" "$D/qs-pairs.json" \
			"j['recording']['pairs_used'] > 0 and any(i['wasted'] is not None for i in j['instructions'])"
	else
		ko "tiprof sim -e profileme: $(tail -1 "$D/sim.err")"
	fi
else
	echo "-- (no ProfileMe in this tiprof's simulator: the workload run is skipped)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
