#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/sim/pm/run-tests.sh - `make test-pm-sim`: the ProfileMe unit on the core model
# (tiprof sim -e profileme; sim/core/core_pm.c, sim/pm). Checks that
#  1. the interface only observes: with -e profileme and --truth the ROB trace, the Oracle
#     profile and every TIP sample are byte for byte those of the run without them;
#  2. every record the unit makes equals what the core did with the instructions that carried
#     the tags (pmsim checks each profile: PC, EA, event bits, abort reason, slot, every stage
#     stamp): the run must succeed, have checked profiles and none timed out, on three
#     workloads x the three core presets, single and paired, counting instructions or slots;
#  3. the truth closes its books: per PC, fetched = retired + trapped + squashed; the sums of
#     retired and trapped are the run's instructions; issues that retire = retired; the
#     wrong path is there (squashed behind mispredicts) on a branchy workload; the file's PM
#     records are what `tiprof dump` reads back (count = the run's report);
#  4. bad options give a one-line error and exit status 2;
#  5. end to end through the estimator (tiprof accuracy -e profileme, fixed seeds): the hot
#     instructions' counts mostly inside their 95% intervals, wasted issue slots from pairs
#     within 10% of the truth (docs/profileme-accuracy.md has the full measurement).
# Environment: TIPROF (the binary), WL_OUT (the workloads' folder).
set -eu
T=${TIPROF:-build/bin/tiprof}
WL=${WL_OUT:-build/workloads}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "  ok   $*"; }
bad() { echo "  FAIL $*"; fail=1; }
sim() { env -i "$T" sim --no-progress "$@"; }

# 1. observation only
sim --profile "$tmp/off.tip" --rob-trace "$tmp/off.rt" --oracle "$tmp/off.orc" \
	"$WL/quicksort" 5000 >/dev/null 2>"$tmp/off.err"
sim --profile "$tmp/on.tip" -e profileme --period 50 --pair 16 --truth "$tmp/on.truth" \
	--rob-trace "$tmp/on.rt" --oracle "$tmp/on.orc" "$WL/quicksort" 5000 >/dev/null \
	2>"$tmp/on.err"
"$T" dump "$tmp/off.tip" | grep -v '^tiprof sample file' > "$tmp/off.dump"
"$T" dump "$tmp/on.tip" | grep -v '^tiprof sample file\|^pm' > "$tmp/on.dump"
if cmp -s "$tmp/off.rt" "$tmp/on.rt" && cmp -s "$tmp/off.orc" "$tmp/on.orc" &&
   cmp -s "$tmp/off.dump" "$tmp/on.dump"; then
	ok "ProfileMe on: ROB trace, Oracle profile and the $(grep -c '^[0-9]' "$tmp/on.dump") TIP samples unchanged"
else
	bad "turning ProfileMe on changed the core's run (ROB trace, Oracle or TIP samples)"
fi

# 2. every record = the core's truth, on presets x workloads x sampling setups
check_run() {	# name, expect-wrong-path (0/1), tiprof sim arguments...
	name=$1 wp=$2
	shift 2
	if ! sim --profile "$tmp/r.tip" -e profileme "$@" >/dev/null 2>"$tmp/r.err"; then
		bad "$name: $(grep 'tiprof sim:' "$tmp/r.err" | tail -1)"
		return
	fi
	line=$(grep 'ProfileMe samples' "$tmp/r.err")
	checked=$(echo "$line" | sed -n 's/.* \([0-9]*\) profiles equal.*/\1/p')
	tout=$(echo "$line" | sed -n 's/.* \([0-9]*\) timed out.*/\1/p')
	ghost=$(echo "$line" | sed -n 's/.* \([0-9]*\) of them on the wrong path.*/\1/p')
	recs=$(echo "$line" | sed -n 's/^tiprof sim: \([0-9]*\) ProfileMe samples.*/\1/p')
	dumped=$("$T" dump "$tmp/r.tip" | grep -c '^pm [0-9]')
	if [ "${checked:-0}" -gt 0 ] && [ "$tout" = 0 ] && [ "$dumped" = "$recs" ] &&
	   { [ "$wp" = 0 ] || [ "$ghost" -gt 0 ]; }; then
		ok "$name: $recs records, all $checked profiles equal the core's truth ($ghost wrong-path)"
	else
		bad "$name: $line (dump read $dumped records)"
	fi
}
for cfg in 4wide 2wide 1wide; do
	check_run "$cfg quicksort paired" 1 --config "$cfg" --period 64 --pair 32 "$WL/quicksort" 3000
	check_run "$cfg ptrchase single" 0 --config "$cfg" --period 37 "$WL/ptrchase" 4096
done
check_run "4wide dispatch paired, periodic" 1 --period 100 --periodic --pair 256 "$WL/dispatch" 20000
check_run "4wide matmul paired, seed 7" 0 --period 200 --pair 8 --sampler-seed 7 "$WL/matmul" 24

# 3. the truth's books
sim --truth "$tmp/t.truth" --json -o "$tmp/t.json" "$WL/quicksort" 5000 >/dev/null
insns=$(sed -n 's/.*"instructions": \([0-9]*\).*/\1/p' "$tmp/t.json")
issued=$(sed -n 's/^# issued //p' "$tmp/t.truth")
if awk -F'\t' -v insns="$insns" -v issued="$issued" '
	/^#/ || $1 == "pc" { next }
	{ if ($2 != $3 + $4 + $5 + $6) bad++; r += $3; t += $4; sq += $5 }
	END { exit !(bad == 0 && r + t == insns && r == issued && sq > 0) }' "$tmp/t.truth"; then
	ok "truth: per PC fetched = retired + trapped + squashed; $insns instructions; issues = retired; wrong path present"
else
	bad "truth books do not close (instructions $insns, issued $issued)"
fi
if cmp -s "$tmp/t.truth" "$tmp/on.truth"; then
	ok "truth without recording = truth while recording (the unit changes nothing)"
else
	bad "the truth differs with and without the ProfileMe unit recording"
fi

# 5. the estimates end to end (tiprof accuracy -e profileme; fixed seeds: deterministic)
acc() { env -i "$T" accuracy -e profileme --no-progress --json -o "$tmp/acc.json" "$@" >/dev/null; }
acc --period 256 --sampler-seed 3 "$WL/quicksort" 5000
if python3 - "$tmp/acc.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["coverage"]
print(f"    coverage {c['covered']}/{c['counts']}, mean relative error {c['mean_rel_error']:.3f}")
sys.exit(not (c["counts"] >= 40 and c["covered"] >= 0.8 * c["counts"] and c["mean_rel_error"] < 0.25))
PY
then ok "accuracy: the 20 hottest instructions' counts mostly inside their 95% intervals"
else bad "accuracy: coverage or error of the estimates out of bounds"
fi
acc --period 256 --pair 256 --sampler-seed 5 "$WL/quicksort" 5000
if python3 - "$tmp/acc.json" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))["wasted"]
err = (w["estimate"] - w["true"]) / w["true"]
print(f"    wasted issue slots of {w['instructions']} instructions: true {w['true']:.4g}, estimated {w['estimate']:.4g} ({100 * err:+.1f}%)")
sys.exit(not (w["instructions"] >= 10 and abs(err) < 0.1))
PY
then ok "accuracy: wasted issue slots from pairs within 10% of the truth"
else bad "accuracy: wasted issue slots from pairs off by more than 10%"
fi

# 4. bad options
bad_opt() {	# expected message part, arguments...
	want=$1
	shift
	st=0
	sim "$@" "$WL/quicksort" 100 >/dev/null 2>"$tmp/e" || st=$?
	if [ "$st" = 2 ] && [ "$(wc -l <"$tmp/e")" = 1 ] && grep -q -- "$want" "$tmp/e"; then
		ok "$* -> $(cat "$tmp/e")"
	else
		bad "$* -> status $st: $(cat "$tmp/e")"
	fi
}
bad_opt "unknown event" --profile "$tmp/x.tip" -e cycles
bad_opt "needs --profile" -e profileme
bad_opt "need -e profileme" --profile "$tmp/x.tip" --pair 4
bad_opt "pair" --profile "$tmp/x.tip" -e profileme --pair 257
bad_opt "pair" --profile "$tmp/x.tip" -e profileme --pair 0
[ ! -e "$tmp/x.tip" ] && ok "no sample file left by a refused command" || bad "a refused command left $tmp/x.tip"

exit $fail
