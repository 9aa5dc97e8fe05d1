#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# bench.sh - bench-seldisp-core: simulated cycles of Xtpsd programs on the 4-wide core model
# per selective-dispatch mode (docs/core.md "Selective dispatch" records the table): sd_count
# (C; profiling on / off; its build without the extension, sd_count_none, is the
# uninstrumented baseline), the quicksort workload instrumented by hand (sd_qsort; baseline
# sd_qsort_none) and sd_core's toggle loop (flag 0 half of the time). For sd_count
# the overhead is (cycles - uninstrumented) / uninstrumented and the reduction is the share
# of plain instrumentation's overhead a mode removes. Environment: RUN (core-run), SD_COUNT,
# SD_CORE, SD_QSORT; N (sd_count's iterations, default 1000), QN (sd_qsort's keys, 20000).
set -u
N=${N:-1000}
NONE=${SD_COUNT%/*}/sd_count_none
MODES=("plain:"
       "filter:--set sd_mode=1"
       "filter+bp=ignore:--set sd_mode=1 --set sd_bp=1"
       "filter+bp=flag:--set sd_mode=1 --set sd_bp=2"
       "filter+bp=predbit:--set sd_mode=1 --set sd_bp=3"
       "filter+pfp:--set sd_mode=1 --set sd_pfp=1"
       "filter+predbit+pfp:--set sd_mode=1 --set sd_bp=3 --set sd_pfp=1")
cyc() { env -i "$RUN" "$@" 2>/dev/null | sed -n 's/^cycles=//p'; }

# table TITLE BASELINE_CYCLES ELF ARG: cycles, overhead and reduction per mode, profiling on/off
table() {
	local title=$1 base=$2 elf=$3 arg=$4 m name set line p c pl_on="" pl_off="" pl
	printf '%s; uninstrumented: %s cycles\n' "$title" "$base"
	printf '%-22s %12s %9s %10s   %12s %9s %10s\n' mode "on: cycles" overhead reduction \
		"off: cycles" overhead reduction
	for m in "${MODES[@]}"; do
		name=${m%%:*}; set=${m#*:}
		line=$(printf '%-22s' "$name")
		for p in on off; do
			# shellcheck disable=SC2086
			c=$(cyc $set "$elf" "$p" "$arg")
			if [ "$name" = plain ]; then eval "pl_$p=$c"; fi
			eval "pl=\$pl_$p"
			line+=$(awk -v c="$c" -v b="$base" -v pl="$pl" 'BEGIN {
				o = (c - b) / b * 100; op = (pl - b) / b * 100;
				printf " %12d %8.1f%% %9.1f%%  ", c, o, op ? (op - o) / op * 100 : 0 }')
		done
		echo "$line"
	done
}

table "sd_count N=$N, 4wide" "$(cyc "$NONE" on "$N")" "$SD_COUNT" "$N"
echo
QN=${QN:-20000}
table "sd_qsort (quicksort instrumented by hand) N=$QN, 4wide" \
	"$(cyc "${SD_QSORT}_none" on "$QN")" "$SD_QSORT" "$QN"
echo
printf 'sd_core toggle (1000 iterations, flag 0 set in 500), 4wide\n%-22s %12s\n' mode cycles
for m in "${MODES[@]}"; do
	name=${m%%:*}; set=${m#*:}
	# shellcheck disable=SC2086
	printf '%-22s %12s\n' "$name" "$(cyc $set "$SD_CORE" t)"
done
