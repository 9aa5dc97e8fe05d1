#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# tests/sim/sampled/bench.sh - `make bench-sampled`: the error sampled simulation introduces.
# Each program runs twice under `tiprof accuracy` (4-wide, period 64, random interval): in full
# detail and sampled (--windows $WINDOWS, default 2000,2000,30000), both writing their Oracle
# profile and JSON report; tests/sim/sampled/compare.py prints per program the detailed
# fraction, the measured speed-up (wall time of the two runs), the distance between the two
# Oracle profiles (instruction and function level), CPI, and each policy's instruction-level
# error full -> sampled. Then one line with the largest change of a policy's error next to
# the smallest gap between two policies' errors. Runs one program at a time.
# Environment: TIPROF, WL_OUT, PROGRAMS (build/programs; real programs are skipped when not
# built: make programs), WINDOWS.
set -eu
T=$(realpath "${TIPROF:-build/bin/tiprof}")
WL=${WL_OUT:-build/workloads}
PR=${PROGRAMS:-build/programs}
W=${WINDOWS:-2000,2000,30000}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }

# name | folder to run in | program and arguments
runs=(
	"quicksort|.|$WL/quicksort 50000"
	"matmul|.|$WL/matmul 96"
	"dispatch|.|$WL/dispatch 300000"
	"ptrchase|.|$WL/ptrchase 65536"
)
for p in cjson lua pcre2grep; do
	line=$(awk -v p=$p '$1 == p && $2 == "short" { $1 = ""; $2 = ""; print }' sim/programs/suite.txt)
	set -- $line
	bin=$1; shift
	if [ -x "$PR/bin/$bin" ] && [ -d "$PR/inputs" ]; then
		runs+=("$p-short|$PR/inputs|$(realpath "$PR/bin/$bin") $*")
	else
		echo "  ($p: not built, skipped; make programs program-inputs)"
	fi
done

echo "  windows W,D,U = $W (measure W, detailed warm-up D, functional warming U instructions)"
for r in "${runs[@]}"; do
	IFS='|' read -r name dir cmd <<< "$r"
	set -- $cmd
	elf=$(realpath "$1")
	t0=$(now)
	(cd "$dir" && env -i "$T" accuracy --period 64 --no-progress --json \
		-o "$tmp/$name.full.json" --oracle "$tmp/$name.full.orc" "$@" > /dev/null < /dev/null)
	t1=$(now)
	(cd "$dir" && env -i "$T" accuracy --period 64 --no-progress --json \
		-o "$tmp/$name.samp.json" --oracle "$tmp/$name.samp.orc" --windows "$W" "$@" \
		> /dev/null < /dev/null)
	t2=$(now)
	SPEEDUP=$(echo "($t1 - $t0) / ($t2 - $t1)" | bc -l) python3 "$here/compare.py" "$elf" \
		"$tmp/$name.full.orc" "$tmp/$name.full.json" "$tmp/$name.samp.orc" \
		"$tmp/$name.samp.json" "$name" | tee -a "$tmp/lines"
done
python3 - "$tmp/lines" <<'PY'
import re, sys
rows = [dict(kv.split('=') for kv in re.findall(r'\w+=[\d.]+', l)) for l in open(sys.argv[1])]
print('  over %d programs: Oracle distance sampled vs full: instruction level mean %.2f%% '
      '(max %.2f%%), function level mean %.2f%% (max %.2f%%); CPI off by %.2f%% mean; '
      'a policy\'s instruction-level error changes by %.2f points on average (largest %.2f), '
      'while two policies differ by %.2f points on average' % (
    len(rows), 100 * sum(float(r['oracle_inst']) for r in rows) / len(rows),
    100 * max(float(r['oracle_inst']) for r in rows),
    100 * sum(float(r['oracle_func']) for r in rows) / len(rows),
    100 * max(float(r['oracle_func']) for r in rows),
    100 * sum(float(r['cpi_rel']) for r in rows) / len(rows),
    100 * sum(float(r['policy_err_meandiff']) for r in rows) / len(rows),
    100 * max(float(r['policy_err_maxdiff']) for r in rows),
    100 * sum(float(r['policy_pairdiff']) for r in rows) / len(rows)))
PY
