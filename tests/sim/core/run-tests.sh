#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# run-tests.sh - test-core: mechanism microbenchmarks of the timing model (load-to-use per
# cache level, MSHR-bounded memory-level parallelism, mispredicts on random vs predictable
# branches, IPC at the width, CSR flushes), the ROB-interface contract and the Oracle's exact
# accounting on every workload at its small size, a TIP-model smoke test, and the `tiprof sim`
# command. Each kernel runs at two sizes and the difference is divided by the difference in
# work, which cancels program start-up. Environment: RUN (core-run), UB (ubench), WL_OUT,
# WORKLOAD_SMALL, TEST_ORACLE, ILLEGAL, RUN_SAN (sanitized core-run), TIPROF (optional: the tiprof command). Last line: "N passed, N failed".
set -u
pass=0
fail=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok() { pass=$((pass + 1)); printf '  PASS  %s\n' "$*"; }
ko() { fail=$((fail + 1)); printf '  FAIL  %s\n' "$*"; }
# field NAME FILE: the value of NAME=... in a core-run output
field() { sed -n "s/^$1=\([^ ]*\).*/\1/p" "$2"; }
# run OUT ARGS...: core-run into OUT (program output dropped); non-zero on failure
run() { local o=$1; shift; "$RUN" "$@" > "$o.all" 2> "$o.err" && grep '=' "$o.all" > "$o"; }
# per DELTA A B FIELD: (B.FIELD - A.FIELD) / DELTA
per() { awk -v a="$(field "$4" "$2")" -v b="$(field "$4" "$3")" -v d="$1" \
	'BEGIN { printf "%.3f", (b - a) / d }'; }
# within X LO HI
within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }

# The Oracle's unit test (hand-made cycles for every commit state).
if out=$("$TEST_ORACLE" 2>&1); then ok "$out"; else ko "$out"; fi

# Load-to-use latency per level (TLBs off, so the cache latencies show alone): a sequential
# pointer chase round a ring that fits in L1 (16 KB), L2 (256 KB), the LLC (2 MB), or misses
# the LLC (8 MB, LRU thrashes). Expected: lat_l1, + lat_l2, + lat_llc, + lat_dram.
declare -A expect=([16384]=4 [262144]=16 [2097152]=41 [8388608]=141)
declare -A level=([16384]=L1 [262144]=L2 [2097152]=LLC [8388608]=DRAM)
for fp in 16384 262144 2097152 8388608; do
	s1=$((fp / 64 * 2)); s2=$((s1 + 20000))
	if run "$TMP/c1" --set tlb_entries=0 "$UB" chase $fp $s1 &&
	   run "$TMP/c2" --set tlb_entries=0 "$UB" chase $fp $s2; then
		l=$(per 20000 "$TMP/c1" "$TMP/c2" cycles); e=${expect[$fp]}
		if within "$l" "$(echo "$e * 0.95" | bc)" "$(echo "$e * 1.05 + 0.5" | bc)"; then
			ok "load-to-use ${level[$fp]} ($fp-byte ring): $l cycles (expected $e)"
		else
			ko "load-to-use ${level[$fp]} ($fp-byte ring): $l cycles (expected $e)"
		fi
	else
		ko "load-to-use $fp: core-run failed: $(cat "$TMP/c1.err" "$TMP/c2.err")"
	fi
done

# MSHR-bounded MLP: independent line loads missing the LLC; cycles per load should be
# DRAM latency / MSHRs, and halving the MSHRs should double it.
for m in 8 4; do
	run "$TMP/m1" --set mshrs=$m --set tlb_entries=0 "$UB" mlp 8388608 100000 &&
	run "$TMP/m2" --set mshrs=$m --set tlb_entries=0 "$UB" mlp 8388608 200000
	l=$(per 100000 "$TMP/m1" "$TMP/m2" cycles); e=$(echo "scale=3; 141 / $m" | bc)
	eval "mlp$m=$l"
	if within "$l" "$(echo "$e * 0.9" | bc)" "$(echo "$e * 1.25" | bc)"; then
		ok "MLP with $m MSHRs: $l cycles per independent DRAM load (141/$m = $e)"
	else
		ko "MLP with $m MSHRs: $l cycles per independent DRAM load (141/$m = $e)"
	fi
done
r=$(awk -v a="$mlp8" -v b="$mlp4" 'BEGIN { printf "%.2f", b / a }')
if within "$r" 1.7 2.3; then ok "MLP: 4 MSHRs / 8 MSHRs = $r"; else ko "MLP: 4 MSHRs / 8 MSHRs = $r (expected ~2)"; fi

# Branch prediction: a branch on a random bit vs the same branch on a constant bit.
for mode in rbranch pbranch; do
	run "$TMP/b1" "$UB" $mode 10000 && run "$TMP/b2" "$UB" $mode 110000
	m=$(per 100000 "$TMP/b1" "$TMP/b2" br_mispred)
	if [ $mode = rbranch ]; then lo=0.40; hi=0.60; else lo=0; hi=0.02; fi
	if within "$m" $lo $hi; then ok "$mode: $m mispredicts per iteration (expected $lo..$hi)"
	else ko "$mode: $m mispredicts per iteration (expected $lo..$hi)"; fi
done

# IPC near the width on independent ALU operations, for each configuration.
for cfg in 4wide:4 2wide:2 1wide:1; do
	c=${cfg%%:*}; w=${cfg##*:}
	run "$TMP/a1" --config $c "$UB" alu 10000 && run "$TMP/a2" --config $c "$UB" alu 110000
	d=$(( $(field insns "$TMP/a2") - $(field insns "$TMP/a1") ))
	ipc=$(awk -v i=$d -v a="$(field cycles "$TMP/a1")" -v b="$(field cycles "$TMP/a2")" \
		'BEGIN { printf "%.3f", i / (b - a) }')
	if within "$ipc" "$(echo "$w * 0.9" | bc)" "$(echo "$w * 1.01" | bc)"; then ok "$c: IPC $ipc on independent adds"
	else ko "$c: IPC $ipc on independent adds (width $w)"; fi
done

# A CSR read is unique and flushes on commit: one flagged commit per frflags.
run "$TMP/f1" "$UB" csr 10000 && run "$TMP/f2" "$UB" csr 20000
f=$(per 10000 "$TMP/f1" "$TMP/f2" flush_commits)
of=$(field stack_other_flush "$TMP/f2")
if within "$f" 0.999 1.001 && within "$of" 0.2 1; then
	ok "csr: $f flushing commits per frflags, other-flush share $of"
else
	ko "csr: $f flushing commits per frflags, other-flush share $of"
fi

# Functional-unit latencies: 4 independent divides per iteration on the unpipelined divider
# (lat_div 20 -> 80 cycles), chains of 4 dependent multiplies (3 -> 12) and fadd.d (4 -> 16).
for k in "div 1:80" "mulchain:12" "faddchain:16"; do
	args=${k%%:*}; e=${k##*:}
	run "$TMP/u1" "$UB" $args 10000 && run "$TMP/u2" "$UB" $args 20000
	l=$(per 10000 "$TMP/u1" "$TMP/u2" cycles)
	if within "$l" "$(echo "$e * 0.97" | bc)" "$(echo "$e * 1.03" | bc)"; then
		ok "${args%% *}: $l cycles per iteration (expected $e)"
	else
		ko "${args%% *}: $l cycles per iteration (expected $e)"
	fi
done

# Store-to-load forwarding, and the memory-ordering replay: the load re-executes (one replay
# per iteration) and nothing commits with a flush flag.
run "$TMP/s1" "$UB" stlf 10000 && run "$TMP/s2" "$UB" stlf 20000
f=$(per 10000 "$TMP/s1" "$TMP/s2" stlf)
if within "$f" 0.99 1.01; then ok "stlf: $f forwarded loads per iteration"; else ko "stlf: $f forwarded loads per iteration"; fi
run "$TMP/r1" "$UB" replay 1 10000 && run "$TMP/r2" "$UB" replay 1 20000
f=$(per 10000 "$TMP/r1" "$TMP/r2" replays); fl=$(per 10000 "$TMP/r1" "$TMP/r2" flush_commits)
if within "$f" 0.99 1.01 && within "$fl" 0 0; then ok "replay: $f load replays per iteration, $fl flushing commits"
else ko "replay: $f load replays per iteration, $fl flushing commits (expected 1 and 0)"; fi

# Every workload at its small size, on every configuration: ROB contract every cycle
# (and the per-instruction records' order and stage times) and exact Oracle accounting.
for p in $WORKLOAD_SMALL; do
	w=${p%%:*}; s=${p##*:}
	if run "$TMP/w" --check --oracle "$WL_OUT/$w" $s && grep -q "^$w: OK" "$TMP/w.all" &&
	   grep -q '^contract=ok' "$TMP/w" && grep -q '^oracle=exact' "$TMP/w"; then
		ok "$w $s: contract and exact Oracle over $(field cycles "$TMP/w") cycles, IPC $(field ipc "$TMP/w")"
	else
		ko "$w $s: $(head -c 300 "$TMP/w.err")"
	fi
done
for c in 2wide 1wide; do
	for p in $WORKLOAD_SMALL; do
		w=${p%%:*}; s=${p##*:}
		if run "$TMP/w" --config $c --check --oracle "$WL_OUT/$w" $s &&
		   grep -q '^contract=ok' "$TMP/w" && grep -q '^oracle=exact' "$TMP/w"; then
			ok "$w $s on $c: contract and exact Oracle, IPC $(field ipc "$TMP/w")"
		else
			ko "$w $s on $c: $(head -c 300 "$TMP/w.err")"
		fi
	done
done

# W = 8 (eight banks) through --set: the contract and the TIP model with eight banks.
if run "$TMP/w" --set width=8 --set fetch_width=16 --set fetch_bytes=64 --check --oracle --tip \
	"$WL_OUT/quicksort" 5000 && grep -q '^contract=ok' "$TMP/w" && grep -q 'tip_bad=0' "$TMP/w"; then
	ok "quicksort 5000 with W=8: contract, exact Oracle, TIP model"
else
	ko "quicksort 5000 with W=8: $(head -c 300 "$TMP/w.err")"
fi

# The per-cycle ROB interface drives the C TIP model (periodic sampling every 997 cycles).
# Every sample must name committed addresses and agree with the Oracle's view of its cycle.
for w in crc32:6 ceilfloor:20; do
	if run "$TMP/t" --tip "$WL_OUT/${w%%:*}" ${w##*:} && grep -q 'tip_bad=0' "$TMP/t"; then
		ok "TIP model on ${w%%:*}: $(grep -o 'tip_samples=[0-9]*' "$TMP/t") samples, all at committed addresses and as the Oracle saw their cycle"
	else
		ko "TIP model on ${w%%:*}: $(head -c 300 "$TMP/t.err")"
	fi
done

# The same under AddressSanitizer/UBSan (model, Oracle and TIP model compiled with them).
if "$RUN_SAN" --check --oracle --tip "$WL_OUT/dispatch" 35000 > "$TMP/san" 2>&1 &&
   grep -q '^contract=ok' "$TMP/san" && grep -q 'tip_bad=0' "$TMP/san"; then
	ok "dispatch 35000 under ASan/UBSan: contract, exact Oracle, TIP model"
else
	ko "dispatch 35000 under ASan/UBSan: $(grep -v '=' "$TMP/san" | head -c 300)"
fi

# tiprof sim: JSON keys, exit codes, one-line errors.
if [ -n "${TIPROF:-}" ] && [ -x "$TIPROF" ]; then
	if "$TIPROF" sim --json -o "$TMP/j" "$WL_OUT/crc32" 6 > "$TMP/j.out" 2> "$TMP/j.err" &&
	   grep -q '^crc32: OK' "$TMP/j.out" && [ ! -s "$TMP/j.err" ] &&
	   [ "$(wc -l < "$TMP/j")" = 1 ] &&
	   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["exit_code"]==0 and d["cycles"]>0 and abs(sum(d["cycle_stack"].values())-1)<1e-5 and len(d["cycle_stack"])==7 and d["instructions"]>0 and d["ipc"]>0' "$TMP/j"; then
		ok "tiprof sim --json: one valid object"
	else
		ko "tiprof sim --json: $(head -c 300 "$TMP/j") $(head -c 300 "$TMP/j.err")"
	fi
	if "$TIPROF" sim --oracle "$TMP/prof" "$WL_OUT/matmul" 48 > "$TMP/o" 2>&1 &&
	   head -1 "$TMP/prof" | grep -q '^tiprof-oracle 1$' && grep -q 'execute' "$TMP/o"; then
		ok "tiprof sim --oracle: profile written, cycle stack printed"
	else
		ko "tiprof sim --oracle: $(head -c 300 "$TMP/o")"
	fi
	for bad in /nonexistent/prog /etc/hostname "$ILLEGAL"; do
		"$TIPROF" sim "$bad" > "$TMP/e" 2> "$TMP/e.err"; rc=$?
		if [ $rc -ne 0 ] && [ "$(wc -l < "$TMP/e.err")" = 1 ] && [ ! -s "$TMP/e" ]; then
			ok "tiprof sim $bad: exit $rc, $(cat "$TMP/e.err")"
		else
			ko "tiprof sim $bad: exit $rc, $(head -c 300 "$TMP/e.err")"
		fi
	done
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
