#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Mutation check across configurations: plants each bug of tests/rtl/mutants.txt into a copy of
# the RTL, builds it with Verilator in every configuration (W-XLEN-DEPTH) the bug can affect
# (mutants.txt's fifth column), runs the directed benches of that configuration and a random
# differential run, and prints the kill matrix: K killed, S survived, B did not build, - the bug
# cannot affect the configuration. Fails unless every applicable cell is K.
# Builds are cached under BUILD/mutants/CONFIG/mN-HASH, HASH over the mutated sources, the
# testbench, the harness and model libraries and the Verilator command, so a rerun only runs
# the benches.
# Usage: mutant_matrix.sh [--list] VERILATOR BUILD "CONFIGS" LIB...
#   --list: one line per mutant (make test-tip-mutants, one configuration) instead of the matrix
#   BUILD/vtip/CONFIG/ must hold the configuration's normal build (its harness library is linked)
#   LIB: the C libraries the harness links, as absolute paths
# Environment: MUT_JOBS (parallel builds, 2), MUT_CYCLES (random run, 300000), MUT_SEED (7).
set -u
list=0
[ "${1:-}" = --list ] && { list=1; shift; }
verilator=$1 build=$2 configs=$3
shift 3
libs="$*"
top=$(pwd)
cache=$build/mutants
mkdir -p "$cache"; res=$(mktemp -d "$cache/results.XXXXXX"); trap 'rm -rf "$res"' EXIT
rtl=$(grep -v '^//' rtl/tiprof.f)
jobs=${MUT_JOBS:-2} cycles=${MUT_CYCLES:-300000} seed=${MUT_SEED:-7}
vflags="--cc --exe --main --timing --assert -O3 --x-assign fast --x-initial fast -Wno-fatal"

# affects SPEC CONFIG: the mutant's configuration conditions (mutants.txt) hold for CONFIG
affects() {
  local cond key v ok w x d
  IFS=- read -r w x d <<<"$2"
  for cond in $1; do
    key=${cond%%=*}
    case $key in W) v=$w ;; XLEN) v=$x ;; D) v=$d ;; *) echo "mutants.txt: bad condition $cond" >&2; exit 2 ;; esac
    ok=0
    for c in $(tr ',' ' ' <<<"${cond#*=}"); do
      if [ "$c" = npow2 ]; then [ $((v & (v - 1))) -ne 0 ] && ok=1
      elif [ "$c" = "$v" ]; then ok=1; fi
    done
    [ $ok -eq 1 ] || return 1
  done
  return 0
}

# benches CONFIG: directed benches listed for CONFIG in directed.cfg; the benches listed for all
# four widths are parameterized by the configuration and run on any (csr_rules, fifo_full_pop)
benches() {
  awk -v c="$1" '$0 !~ /^#/ && NF {
    any = 0; w1 = w2 = w4 = w8 = 0
    for (i = 2; i <= NF; i++) {
      if ($i == c) any = 1
      split($i, p, "-"); if (p[1] == 1) w1 = 1; if (p[1] == 2) w2 = 1; if (p[1] == 4) w4 = 1; if (p[1] == 8) w8 = 1
    }
    if (any || (w1 && w2 && w4 && w8)) print $1 }' tests/rtl/directed.cfg
  echo random
}

# cell INDEX CONFIG FILE OLD NEW: build (or reuse) the mutant in CONFIG, run the benches, write
# res/CONFIG.INDEX: "K bench (assertion a_x)", "S" or "B"
cell() {
  local i=$1 cfg=$2 w x d tmp key dir b a base=$build/vtip/$2
  IFS=- read -r w x d <<<"$cfg"
  mkdir -p "$cache/$cfg"
  tmp=$(mktemp -d "$cache/$cfg/tmp.XXXXXX")
  mkdir -p "$tmp/rtl"; cp $rtl "$tmp/rtl/"
  python3 - "$tmp/$3" "$4" "$5" <<'PY' || { echo "B mutation does not apply" > "$res/$cfg.$i"; rm -rf "$tmp"; return; }
import sys
path, old, new = sys.argv[1], sys.argv[2].replace('\\n', '\n'), sys.argv[3].replace('\\n', '\n')
s = open(path).read()
if s.count(old) != 1:
    sys.exit(f"mutate: '{old}' occurs {s.count(old)} times in {path}")
open(path, 'w').write(s.replace(old, new))
PY
  key=$( { cd "$tmp" && cat $rtl; cd "$top" && cat tests/rtl/tiprof_tb.sv rtl/tiprof_pm_tieoff.svh \
           rtl/lint/verilator.vlt "$base/harness/libtiprof_tb.a" $libs; echo "$cfg $vflags"; "$verilator" --version; } |
         sha256sum | cut -c1-16)
  dir=$cache/$cfg/m$i-$key
  if [ -x "$dir/obj/Vtiprof_tb" ]; then
    rm -rf "$tmp"
  else
    rm -rf "$cache/$cfg/m$i-"*; mv "$tmp" "$dir"
    if ! ( cd "$dir" && $verilator $vflags -Mdir obj --top-module tiprof_tb -I"$top/rtl" -LDFLAGS -lm \
             -GW="$w" -GXLEN="$x" -GDEPTH="$d" "$top/rtl/lint/verilator.vlt" $rtl "$top/tests/rtl/tiprof_tb.sv" \
             "$top/$base/harness/libtiprof_tb.a" $libs >verilate.log 2>&1 &&
           make -s -C obj -f Vtiprof_tb.mk OPT_FAST=-O2 OPT_SLOW=-O1 >build.log 2>&1 ); then
      echo "B (log: $dir)" > "$res/$cfg.$i"; rm -rf "$dir/obj/Vtiprof_tb"; return
    fi
  fi
  for b in $(benches "$cfg"); do
    if ! "$dir/obj/Vtiprof_tb" +bench="$b" +seed="$seed" +cycles="$cycles" +outdir="$dir" >"$dir/$b.log" 2>&1 ||
       ! grep -q "tip-harness: PASS" "$dir/$b.log"; then
      a=$(grep -m1 'Assertion failed in' "$dir/$b.log" | grep -oE '(\.|: )a_[a-z0-9_]+' | head -1 | sed 's/^[.: ]*//')
      echo "K $b${a:+ (assertion $a)}" > "$res/$cfg.$i"; return
    fi
  done
  echo "S" > "$res/$cfg.$i"
}

# ---------------------------------------------------------------- run every applicable cell
n=0; whats=(); specs=()
while IFS=$'\t' read -r file old new what spec; do
  case $file in ''|'#'*) continue ;; esac
  n=$((n + 1)); whats[n]=$what; specs[n]=${spec:-}
  for cfg in $configs; do
    affects "${spec:-}" "$cfg" || continue
    cell $n "$cfg" "$file" "$old" "$new" &
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  done
done < tests/rtl/mutants.txt
wait

# ---------------------------------------------------------------- report
bad=0 killed=0 skipped=0
if [ $list -eq 1 ]; then
  cfg=$configs
  for i in $(seq 1 $n); do
    if ! affects "${specs[i]}" "$cfg"; then skipped=$((skipped + 1)); continue; fi
    r=$(cat "$res/$cfg.$i" 2>/dev/null || echo S)
    case $r in
      K*) killed=$((killed + 1)); printf '  ok    mutant %2d killed by %-14s  %s\n' $i "${r#K }" "${whats[i]}" ;;
      *)  bad=$((bad + 1)); printf '  FAIL  mutant %2d %s: %s\n' $i "$([ "$r" = S ] && echo SURVIVED || echo "did not build $r")" "${whats[i]}" ;;
    esac
  done
  [ $skipped -gt 0 ] && echo "  ($skipped mutants cannot affect $cfg: make test-tip-mutant-matrix builds them where they can)"
  echo "test-tip-mutants: $killed passed, $bad failed"
  [ $bad -eq 0 ]; exit
fi
printf '  %-3s' m; for cfg in $configs; do printf ' %-8s' "$cfg"; done; printf ' bug\n'
for i in $(seq 1 $n); do
  printf '  %-3s' $i
  for cfg in $configs; do
    if ! affects "${specs[i]}" "$cfg"; then c=-
    else
      r=$(cat "$res/$cfg.$i" 2>/dev/null || echo S); c=${r%% *}
      if [ "$c" = K ]; then killed=$((killed + 1)); else bad=$((bad + 1)); fi
    fi
    printf ' %-8s' "$c"
  done
  printf ' %s\n' "${whats[i]}"
done
echo "  killed by (bench, and the assertion that stopped it first):"
for i in $(seq 1 $n); do
  line=
  for cfg in $configs; do
    [ -f "$res/$cfg.$i" ] || continue
    line="$line${line:+; }$cfg $(sed 's/^[KSB] *//' "$res/$cfg.$i")"
  done
  printf '  %-3s %s\n' $i "$line"
done
echo "test-tip-mutant-matrix: $n mutants x $(wc -w <<<"$configs") configurations: $killed killed, $bad survived or did not build"
[ $bad -eq 0 ]
