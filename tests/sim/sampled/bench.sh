#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# tests/sim/sampled/bench.sh - `make bench-sampled`: the error sampled simulation introduces.
# Each program runs twice under `tiprof accuracy` (4-wide, random interval): in full detail
# (period $PERIOD, default 64) and sampled (--windows $WINDOWS, default 2000,2000,30000;
# period $SAMPLED_PERIOD, default PERIOD/16, so that both take about as many samples while the
# sampled run measures about a 17th of the cycles), both writing their Oracle
# profile and JSON report; tests/sim/sampled/compare.py prints per program the detailed
# fraction, the measured speed-up (wall time of the two runs), the distance between the two
# Oracle profiles (instruction and function level), CPI, and each policy's instruction-level
# error full -> sampled. Then per windows setting one summary line: the Oracle distances, and
# how much a policy's error moves next to how far apart two policies' errors are. WINDOWS may
# list several settings (separated by spaces); the default compares 2000,2000,30000 with
# 500,1000,7500 (about the same measured fraction in 4 times as many, shorter windows) and with
# the control 2000,32000,0: the same windows measured, but everything between them simulated
# in detail (no warming, exact state) - what remains there is the error of measuring only
# these windows of the execution, not of warming. Runs one program at a time.
# Environment: TIPROF, WL_OUT, PROGRAMS (build/programs; real programs are skipped when not
# built: make programs), WINDOWS, PERIOD, SAMPLED_PERIOD.
set -eu
T=$(realpath "${TIPROF:-build/bin/tiprof}")
WL=${WL_OUT:-build/workloads}
PR=${PROGRAMS:-build/programs}
WL_SET=${WINDOWS:-2000,2000,30000 500,1000,7500 2000,32000,0}
P=${PERIOD:-64}
# the sampled run measures W/(W+D+U) = 1/17 of the instructions with the default windows (and
# simulates about 1/8 in detail, D and the drains included): its TIP period is 16 times
# shorter, so both runs take about as many samples (statistical error alike)
PS=${SAMPLED_PERIOD:-$((P / 16 > 0 ? P / 16 : 1))}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }

# name, folder to run in, program, arguments (shell words), separated by US
US=$'\x1f'
runs=(
	"quicksort${US}.${US}$WL/quicksort${US}50000"
	"matmul${US}.${US}$WL/matmul${US}96"
	"dispatch${US}.${US}$WL/dispatch${US}300000"
	"ptrchase${US}.${US}$WL/ptrchase${US}65536"
)
for p in cjson lua pcre2grep sqlite3 xz; do
	bin=$(awk -v p=$p '$1 == p && $2 == "short" { print $3 }' sim/programs/suite.txt)
	args=$(awk -v p=$p '$1 == p && $2 == "short" { $1 = ""; $2 = ""; $3 = ""; print }' \
		sim/programs/suite.txt)
	if [ -x "$PR/bin/$bin" ] && [ -d "$PR/inputs" ]; then
		runs+=("$p-short${US}$PR/inputs${US}$PR/bin/$bin${US}$args")
	else
		echo "  ($p: not built, skipped; make programs program-inputs)"
	fi
done

echo "  windows W,D,U = $WL_SET (measure W, detailed warm-up D, functional warming U instructions);"
echo "  TIP period $P cycles in the full runs, $PS in the sampled ones (about as many samples)"
for r in "${runs[@]}"; do
	IFS=$US read -r name dir elf args <<< "$r"
	elf=$(realpath "$elf")
	eval "set -- $args"
	t0=$(now)
	(cd "$dir" && env -i "$T" accuracy --period "$P" --no-progress --json \
		-o "$tmp/$name.full.json" --oracle "$tmp/$name.full.orc" "$elf" "$@" > /dev/null \
		< /dev/null)
	t1=$(now)
	for W in $WL_SET; do
		t2=$(now)
		(cd "$dir" && env -i "$T" accuracy --period "$PS" --no-progress --json \
			-o "$tmp/$name.samp.json" --oracle "$tmp/$name.samp.orc" --windows "$W" \
			"$elf" "$@" > /dev/null < /dev/null)
		t3=$(now)
		SPEEDUP=$(echo "($t1 - $t0) / ($t3 - $t2)" | bc -l) python3 "$here/compare.py" "$elf" \
			"$tmp/$name.full.orc" "$tmp/$name.full.json" "$tmp/$name.samp.orc" \
			"$tmp/$name.samp.json" "$name $W" | tee -a "$tmp/lines.$W"
	done
done
for W in $WL_SET; do
	echo -n "  $W: "
	python3 - "$tmp/lines.$W" <<'PY'
import re, sys
rows = [dict(kv.split('=') for kv in re.findall(r'\w+=[\d.]+', l)) for l in open(sys.argv[1])]
print('over %d programs: Oracle distance sampled vs full: instruction level mean %.2f%% '
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
done
