#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the TIP benches on one simulator and prints 'N passed, N failed'.
#   run.sh model     RUNNER   directed benches + a short random run on the C model alone
#   run.sh verilator VTIPDIR  directed benches + random differential runs on every cached build
#   run.sh icarus    ITIPDIR  directed benches + short random runs under Icarus (VPI)
# Environment: TIP_OUT (logs), TIP_SEED, TIP_RANDOM_CYCLES, TIP_CONFIGS, VVP, TIP_ONLY_BUILT.
set -u
sim=$1; where=$2
out=${TIP_OUT:-build/tip/logs}
seed=${TIP_SEED:-1}
configs=${TIP_CONFIGS:-2-64-4}
rcycles=${TIP_RANDOM_CYCLES:-1800000}
pass=0; fail=0; rlogs=()

run_one() { # config bench seed cycles
  local cfg=$1 bench=$2 s=$3 n=$4 w x d st log
  # TIP_ONLY_BUILT: only the configurations built in VTIPDIR (the netlist check builds two)
  [ -n "${TIP_ONLY_BUILT:-}" ] && [ "$sim" = verilator ] && [ ! -x "$where/$cfg/Vtiprof_tb" ] && return
  IFS=- read -r w x d st <<<"$cfg"   # W-XLEN-DEPTH[-s]: -s = the unit's input stage
  log=$out/$sim-$bench-$cfg-$s.log
  case $sim in
    model) "$where" --bench "$bench" --w "$w" --xlen "$x" --depth "$d" --stage "$([ "$st" = s ] && echo 1 || echo 0)" --seed "$s" \
             --cycles "$n" --outdir "$out" >"$log" 2>&1 ;;
    verilator) "$where/$cfg/Vtiprof_tb" +bench="$bench" +seed="$s" +cycles="$n" \
             +outdir="$out" >"$log" 2>&1 ;;
    icarus) "${VVP:-vvp}" -n -M "$where" -m tiprof_vpi "$where/$cfg.vvp" +bench="$bench" \
             +seed="$s" +cycles="$n" +outdir="$out" >"$log" 2>&1 ;;
  esac
  local rc=$?
  if [ $rc -eq 0 ] && grep -q "tip-harness: PASS" "$log"; then
    pass=$((pass + 1))
    printf '  ok    %-9s %-22s %-8s %s\n' "$sim" "$bench" "$cfg" "$(grep -o '[0-9]* cycles, [0-9]* checks' "$log")"
  else
    fail=$((fail + 1))
    printf '  FAIL  %-9s %-22s %-8s seed=%s (log: %s)\n' "$sim" "$bench" "$cfg" "$s" "$log"
    grep -E "FAIL|waveform|Assertion failed|FATAL|%Error" "$log" | sed 's/^/        /'
  fi
}

echo "== test-tip ($sim): seed $seed"
# Directed benches: each on the configurations it supports (it refuses the others).
while read -r b bcfgs; do
  case $b in ''|'#'*) continue ;; esac
  for cfg in $bcfgs; do run_one "$cfg" "$b" "$seed" 100000; done
done < tests/rtl/directed.cfg
# Random differential runs.
i=0
for cfg in $configs; do
  case $sim in
    model) n=200000 ;;
    verilator) n=$rcycles ;;
    icarus) n=30000 ;;
  esac
  run_one "$cfg" random $((seed + i)) "$n"
  rlogs+=("$out/$sim-random-$cfg-$((seed + i)).log")
  i=$((i + 1))
done
# Functional coverage (docs/verification.md "Coverage"): the bins and crosses of each random
# run's "tip-harness: coverage: W=w bin=n ..." line summed per W over this simulator's random
# runs into $out/$sim-coverage.txt. For Verilator at the full length (TIP_RANDOM_CYCLES >=
# 1800000, i.e. make test-tip-verilator) every bin must be hit unless tests/rtl/
# coverage-unreachable.txt declares it unreachable or contract-only for that W (with the
# reason); a bin declared unreachable that is hit fails too. TIP_COVERAGE_REQUIRE=0/1 overrides.
if [ "$sim" != model ]; then
  require=${TIP_COVERAGE_REQUIRE:-$([ "$sim" = verilator ] && [ "$rcycles" -ge 1800000 ] && echo 1 || echo 0)}
  rep=$out/$sim-coverage.txt
  cat "${rlogs[@]}" 2>/dev/null | grep -h "tip-harness: coverage: W=" |
    awk -v unr=tests/rtl/coverage-unreachable.txt '
      BEGIN { while ((getline l < unr) > 0) { if (l ~ /^#/ || l !~ /[^ \t]/) continue
                split(l, f, /\t+/); nu++; uw[nu] = f[1]; ub[nu] = f[2]; uc[nu] = f[3]; ur[nu] = f[4] } }
      { w = $3; sub(/^W=/, "", w); ws[w] = 1
        for (i = 4; i <= NF; i++) { split($i, kv, "="); if (!(kv[1] in seen)) { seen[kv[1]] = 1; order[++nb] = kv[1] }
          s[w, kv[1]] += kv[2] } }
      function glob(p, t) { gsub(/\*/, ".*", p); return t ~ ("^" p "$") }
      END { for (w = 1; w <= 8; w *= 2) if (w in ws) for (i = 1; i <= nb; i++) {
          b = order[i]; c = s[w, b] + 0; why = ""
          for (k = 1; k <= nu; k++) if (glob(uw[k], w) && glob(ub[k], b)) { why = ur[k]; cl = uc[k]; break }
          if (why == "") st = c ? "hit" : "MISSED"
          else if (cl == "contract") st = "contract (" (c ? "hit" : "not hit") ", not required): " why
          else st = c ? "HIT-BUT-DECLARED-UNREACHABLE" : "unreachable: " why
          printf "W=%s %-38s %10d  %s\n", w, b, c, st } }' > "$rep"
  nbins=$(wc -l < "$rep"); nhit=$(grep -c ' hit$' "$rep"); nunr=$(grep -c '  unreachable: ' "$rep")
  ncon=$(grep -c '  contract (' "$rep"); nconh=$(grep -c '  contract (hit' "$rep")
  bad=$(grep -E ' (MISSED|HIT-BUT-DECLARED-UNREACHABLE)$' "$rep" | awk '{print $1 ":" $2 "(" $4 ")"}' | tr '\n' ' ')
  printf '  coverage (%s random runs, per W): %d bins: %d required and hit, %d unreachable, %d contract-only (%d of them hit), %d missed (report: %s)\n' \
    "$sim" "$nbins" "$nhit" "$nunr" "$ncon" "$nconh" "$((nbins - nhit - nunr - ncon))" "$rep"
  if [ "$require" = 1 ]; then
    if [ -n "$bad" ] || [ "$nbins" -eq 0 ]; then fail=$((fail + 1)); echo "  FAIL  coverage: $bad"
    else pass=$((pass + 1)); fi
  elif [ -n "$bad" ]; then echo "  (not required at this length: $bad)" | cut -c1-400; fi
fi
echo "test-tip-$sim: $pass passed, $fail failed"
[ $fail -eq 0 ]
