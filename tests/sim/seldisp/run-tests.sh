#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# run-tests.sh - test-seldisp-core: selective dispatch on the core model (docs/core.md
# "Selective dispatch", docs/seldisp.md section 5). Xtpsd programs (sd_count in C, sd_asm
# and sd_core in assembler) run in every mode - plain, decode filter, filter + each branch
# strategy, filter + profile flag predictor, all together with a poppf hazard - with the
# ISS's output and exit status; core-run --check --oracle holds the ROB contract and the
# Oracle's exact accounting, finds no profile instruction whose flag was clear and no pf.blk
# in the ROB, and accounts for every ISS instruction (retired, dropped at decode or skipped at
# fetch); the front end's flag copy never disagrees with the ISS. Directed (sd_core): the
# predictor's mispredictions and missed skips are exactly 2 per flag transition, the filter
# drops exactly the profile instructions and skipped-block bytes, the three branch strategies
# differ as they should, the poppf hazard costs cycles only when set. Also under ASan/UBSan,
# and `tiprof sim` prints the statistics; the workloads (no Xtpsd) run exactly as with it off. Environment: RUN, RUN_SAN, TIPROF, SD_COUNT,
# SD_ASM, SD_CORE, SD_QSORT, WL_OUT, WORKLOAD_SMALL. Last line: "N passed, N failed".
set -u
pass=0
fail=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok() { pass=$((pass + 1)); printf '  PASS  %s\n' "$*"; }
ko() { fail=$((fail + 1)); printf '  FAIL  %s\n' "$*"; }
field() { sed -n "s/^$1=\([^ ]*\).*/\1/p" "$2"; }

MODES=("plain:"
       "filter:--set sd_mode=1"
       "filter+bp=ignore:--set sd_mode=1 --set sd_bp=1"
       "filter+bp=flag:--set sd_mode=1 --set sd_bp=2"
       "filter+bp=predbit:--set sd_mode=1 --set sd_bp=3"
       "filter+pfp:--set sd_mode=1 --set sd_pfp=1"
       "filter+predbit+pfp+poppf2:--set sd_mode=1 --set sd_bp=3 --set sd_pfp=1 --set sd_poppf_lat=2"
       "filter+blk=redirect:--set sd_mode=1 --set sd_blk=1")

# every mode on 4wide, and the 2-wide core in two modes
RUNS=("4wide:${MODES[0]}" "4wide:${MODES[1]}" "4wide:${MODES[2]}" "4wide:${MODES[3]}"
      "4wide:${MODES[4]}" "4wide:${MODES[5]}" "4wide:${MODES[6]}" "4wide:${MODES[7]}"
      "2wide:${MODES[1]}" "2wide:${MODES[6]}")
# check_prog NAME ELF ARGS...: each of RUNS
check_prog() {
	local name=$1; shift
	local ref="$TMP/ref.out" rc_ref
	env -i "$TIPROF" iss "$@" > "$ref" 2>/dev/null; rc_ref=$?
	for cfgm in "${RUNS[@]}"; do
		local cfg=${cfgm%%:*} rest=${cfgm#*:}
		local mode=${rest%%:*} set=${rest#*:} o="$TMP/o" rc
		# shellcheck disable=SC2086
		env -i "$RUN" --config "$cfg" --check --oracle $set "$@" > "$o.all" 2> "$o.err"; rc=$?
		grep -v '=' "$o.all" > "$o.prog"; grep '=' "$o.all" > "$o"
		local why=""
		if ! grep -q '^contract=ok' "$o"; then why="core-run: $(head -2 "$o.err")"
		elif [ "$rc" != "$rc_ref" ]; then why="exit $rc, the ISS's $rc_ref"
		elif ! cmp -s "$o.prog" <(grep -v '=' "$ref"); then why="stdout differs from the ISS's"
		elif [ "$(field oracle "$o")" != exact ]; then why="Oracle not exact"
		elif [ "$mode" != plain ] && [ "$(field sd_spec_mismatch "$o")" != 0 ]; then
			why="front-end flag copy disagreed with the ISS $(field sd_spec_mismatch "$o") times"
		elif [ "$mode" != plain ] && [ "$(field sd_fetch_drop "$o")" != "$(field sd_dropped "$o")" ]; then
			why="fetched-and-dropped $(field sd_fetch_drop "$o") != decoded-and-dropped $(field sd_dropped "$o")"
		fi
		local cyc
		cyc=$(field cycles "$o")
		if [ -z "$why" ]; then
			ok "$name $cfg $mode: output = ISS, contract, Oracle exact, filtered never in the ROB ($cyc cycles, $(field insns "$o") in the ROB, $(field sd_dropped "$o") dropped, $(field sd_bdt_skipped "$o") skipped at fetch)"
		else
			ko "$name $cfg $mode: $why"
		fi
	done
}

check_prog "sd_count on 200" "$SD_COUNT" on 200
check_prog "sd_count off 200" "$SD_COUNT" off 200
check_prog "sd_asm" "$SD_ASM"
check_prog "sd_core toggle" "$SD_CORE" t
check_prog "sd_core poppf" "$SD_CORE" p
# the quicksort workload instrumented by hand: fewer modes (it is longer)
RUNS=("4wide:${MODES[0]}" "4wide:${MODES[1]}" "4wide:${MODES[5]}" "4wide:${MODES[6]}"
      "2wide:${MODES[6]}")
check_prog "sd_qsort on 2000" "$SD_QSORT" on 2000
check_prog "sd_qsort off 2000" "$SD_QSORT" off 2000

# r NAME ARGS...: core-run --check into $TMP/NAME
r() { local n=$1; shift; env -i "$RUN" --check "$@" > "$TMP/$n.all" 2> "$TMP/$n.err"; grep '=' "$TMP/$n.all" > "$TMP/$n"; }
# expect NAME FIELD OP VALUE TEXT
expect() {
	local v
	v=$(field "$2" "$TMP/$1")
	if [ -n "$v" ] && [ "$v" "$3" "$4" ]; then ok "$5: $2 = $v"; else ko "$5: $2 = '$v' (expected $3 $4)"; fi
}

# The profile flag predictor: 10 clear->set transitions x 2 leaders = 20 mispredictions, each
# refetching after the front-end latency (5), 10 set->clear x 2 = 20 missed skips.
r pfp --set sd_mode=1 --set sd_pfp=1 "$SD_CORE" t
expect pfp sd_bdt_mispred -eq 20 "BDT mispredictions (flag 0 set 10 times, 2 leaders)"
expect pfp sd_bdt_recovery -eq 100 "BDT recovery cycles (20 x frontend_lat 5)"
expect pfp sd_bdt_missed -eq 20 "BDT missed skips (flag 0 cleared 10 times, 2 leaders)"
expect pfp sd_bdt_skips -ge 950 "BDT skips over 1000 iterations x 2 leaders, half with flag clear"
# ... and what is left to the filter: the 500 pf.blk headers of the flag-set iterations
# (predicted set: fetched, dropped), 6 per set->clear transition (header + 4 + pf.inc, the
# missed skip) x 10, and the first iteration's 6 (no entry yet): 566 - zero per flag-clear
# iteration once warm.
expect pfp sd_dropped -eq 566 "BDT: instructions still fetched and dropped (500 + 10 x 6 + 6)"
# a writer between fetch and decode locks the entries: 2 x 20 transitions at most
r lockless --set sd_mode=1 --set sd_pfp=1 --set fetch_buf=64 "$SD_CORE" t
expect lockless sd_bdt_mispred -le 20 "BDT mispredictions with a 64-entry fetch buffer (locks may save some)"
# The decode filter: per clear iteration pf.blk + its 4 instructions + pf.inc, per set
# iteration pf.blk: 500 x 6 + 500 = 3500 dropped, 2000 of them in skipped blocks.
r filt --set sd_mode=1 "$SD_CORE" t
expect filt sd_dropped -eq 3500 "decode filter: dropped instructions"
expect filt sd_walked -eq 2000 "decode filter: skipped-block instructions fetched by the core"
expect filt sd_executed -eq 500 "decode filter: pf.inc executed (flag set)"
expect filt sd_pbr_walked -eq 500 "decode filter: branches in skipped blocks"
# sd_blk 1, the RTL's pf.blk (docs/seldisp-rtl.md section 2): a skipped block is never fetched
# (a decode redirect): per clear iteration pf.blk + pf.inc, per set iteration pf.blk dropped.
r blk --set sd_mode=1 --set sd_blk=1 "$SD_CORE" t
expect blk sd_dropped -eq 1500 "pf.blk by decode redirect: dropped instructions (500 x 2 + 500)"
expect blk sd_walked -eq 0 "pf.blk by decode redirect: no skipped-block instruction fetched"
# Branch strategies on the block's always-taken branch.
for k in 0 1 2 3; do r bp$k --set sd_mode=1 --set sd_bp=$k "$SD_CORE" t; done
expect bp0 sd_pbr_redirect -ge 400 "no strategy: skipped blocks' taken branch redirects fetch"
expect bp1 sd_pbr_redirect -le 20 "ignored-instruction updates: 2 redirects per clear phase at most"
expect bp1 sd_pbr_exec_mispred -ge 10 "ignored-instruction updates: the executed branch relearns taken"
expect bp2 sd_pbr_redirect -eq 0 "profile-flag based: the flag-clear partition never predicts taken"
expect bp3 sd_pbr_redirect -eq 0 "prediction-bit based: a known profile branch is not followed"
expect bp3 sd_pbr_exec_mispred -le 1 "prediction-bit based: the executed branch keeps its history"
c0=$(field cycles "$TMP/bp0"); c3=$(field cycles "$TMP/bp3")
if [ "$c3" -lt "$c0" ]; then ok "predbit $c3 cycles < no strategy $c0"; else ko "predbit $c3 cycles >= no strategy $c0"; fi
# The poppf hazard: 1000 pf.inc right behind a poppf.
r pop0 --set sd_mode=1 "$SD_CORE" p
r pop3 --set sd_mode=1 --set sd_poppf_lat=3 "$SD_CORE" p
expect pop0 sd_poppf_stall -eq 0 "poppf hazard off (stack in the front end)"
expect pop3 sd_poppf_stall -ge 1000 "poppf hazard of 3 cycles: decode stalls"
d=$(( $(field cycles "$TMP/pop3") - $(field cycles "$TMP/pop0") ))
if [ "$d" -ge 1000 ]; then ok "poppf hazard of 3 cycles: +$d cycles over 1000 iterations"; else ko "poppf hazard: +$d cycles"; fi
# Plain mode has no selective-dispatch counters and the same timing as before them.
r plain "$SD_CORE" t
if ! grep -q '^sd_' "$TMP/plain"; then ok "plain: no selective-dispatch statistics"; else ko "plain printed sd_ fields"; fi

# Under ASan/UBSan, every mechanism at once.
if env -i "$RUN_SAN" --check --oracle --set sd_mode=1 --set sd_bp=1 --set sd_pfp=1 \
	--set sd_poppf_lat=1 "$SD_COUNT" on 100 > "$TMP/san" 2>&1 && grep -q '^contract=ok' "$TMP/san"; then
	ok "sanitized core-run, sd_count on 100, all mechanisms"
else
	ko "sanitized core-run: $(grep -v '=' "$TMP/san" | tail -3)"
fi

# tiprof sim: the configuration suffix and the statistics line / JSON object.
if env -i "$TIPROF" sim --config 4wide,sd_mode=1,sd_pfp=1 "$SD_CORE" t > /dev/null 2> "$TMP/sim" &&
   grep -Eq 'selective dispatch: [0-9]+ dropped at decode' "$TMP/sim"; then
	ok "tiprof sim --config 4wide,sd_mode=1,sd_pfp=1: $(grep 'selective dispatch' "$TMP/sim" | sed 's/^ *//')"
else
	ko "tiprof sim selective dispatch line: $(tail -3 "$TMP/sim")"
fi
if env -i "$TIPROF" sim --json --config 2wide,sd_mode=1 "$SD_CORE" t > /dev/null 2> "$TMP/simj" &&
   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["seldisp"]["dropped"] == 3500' "$TMP/simj"; then
	ok "tiprof sim --json: seldisp.dropped = 3500"
else
	ko "tiprof sim --json seldisp: $(tail -2 "$TMP/simj")"
fi
if ! env -i "$TIPROF" sim --config 4wide,sd_pfp=1 "$SD_CORE" t > /dev/null 2> "$TMP/bad"; then
	ok "tiprof sim refuses sd_pfp without sd_mode: $(head -1 "$TMP/bad")"
else
	ko "tiprof sim accepted sd_pfp=1 without sd_mode=1"
fi
if ! env -i "$TIPROF" sim --config 4wide,sd_nope=1 "$SD_CORE" t > /dev/null 2>&1; then
	ok "tiprof sim refuses an unknown configuration field"
else
	ko "tiprof sim accepted sd_nope=1"
fi

# Programs without Xtpsd: all mechanisms on change nothing (every counter, the cycle stack).
for spec in $WORKLOAD_SMALL; do
	w=${spec%%:*}; a=${spec##*:}
	env -i "$RUN" --check --oracle "$WL_OUT/$w" "$a" 2>/dev/null | grep '=' | grep -v '^sd_' > "$TMP/wl0"
	env -i "$RUN" --check --oracle --set sd_mode=1 --set sd_bp=3 --set sd_pfp=1 --set sd_poppf_lat=4 \
		"$WL_OUT/$w" "$a" 2>/dev/null | grep '=' | grep -v '^sd_' > "$TMP/wl1"
	if grep -q '^contract=ok' "$TMP/wl0" && cmp -s "$TMP/wl0" "$TMP/wl1"; then
		ok "$w $a without Xtpsd: every counter and the cycle stack the same with all mechanisms on ($(field cycles "$TMP/wl0") cycles)"
	else
		ko "$w $a without Xtpsd: the run changed with selective dispatch on"
	fi
done

# sampled simulation (functional warming between windows) and every accuracy policy over a
# filtered run
if env -i "$TIPROF" accuracy --config 4wide,sd_mode=1,sd_bp=1,sd_pfp=1 --windows 20000,5000,2000 \
	"$SD_COUNT" off 200 > "$TMP/acc" 2>&1; then
	ok "tiprof accuracy --windows on a filtered run (warming resynchronizes the flag copy)"
else
	ko "tiprof accuracy --windows with sd_mode 1: $(tail -2 "$TMP/acc")"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
