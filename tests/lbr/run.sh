#!/usr/bin/env bash
# run.sh - test-lbr: the software branch tracer on programs with known control flow.
# For each program: an untraced run (reference output and exit status), a traced run (same
# output and status required), an exact single-stepped run (lbr_exact), and check.py (objdump
# + exact-trace checks). Then `tiprof-lbr record`/`script` end to end and bad use.
# Prints one line per check and a final "N passed, N failed". Needs BUILD.
set -u
B=${BUILD:-build}
T=$B/lbr/tests
BIN=$B/bin/tiprof-lbr
SO=$(readlink -f $B/lib/libtiprof-lbr.so)
W=$B/lbr/run
HERE=$(dirname "$0")
rm -rf "$W"; mkdir -p "$W"
pass=0; failn=0
ok()  { echo "  PASS $*"; pass=$((pass + 1)); }
bad() { echo "  FAIL $*"; failn=$((failn + 1)); }

"$T/test_lbr_unit" > "$W/unit.log" 2>&1 && ok "unit tests ($(tail -1 "$W/unit.log"))" || { cat "$W/unit.log"; bad "unit tests"; }

# program  exact-reps traced-reps period(ns)  extra check.py args
PROGS=(
  "lbr_loops    0002 3000 200000"
  "lbr_indirect 0002 3000 200000"
  "lbr_recurse  0002 3000 200000"
  "lbr_signal   0002 1000 200000"
  "lbr_threads  0002 2000 200000 --exe-only"
)
# Identical environments of the same size (so the same stack layout), and the tracer started
# in both runs (so libc's state, e.g. malloc's, evolves the same), but in the exact run with a
# period no run reaches: no sample, no stop, only the single-stepping.
envof() { printf 'LD_BIND_NOW=1 LD_PRELOAD=%s TIPROF_LBR_OUT=%s TIPROF_LBR_PERIOD=%012d' "$SO" "$W/$2.$1.lbr" "$3"; }
NEVER=999999999999

# Exact runs in the background (they are the slow part), two at a time.
for spec in "${PROGS[@]}"; do
  set -- $spec; p=$1
  ( env -i $(envof x "$p" $NEVER) "$T/lbr_exact" "$W/$p.exact" "$T/$p" "$2" > "$W/$p.exact.out" 2>&1 ) &
  [ $(jobs -r | wc -l) -ge 2 ] && wait -n
done

for spec in "${PROGS[@]}"; do
  set -- $spec; p=$1; reps=$3; period=$4; shift 4; extra="$*"
  "$T/$p" "$reps" > "$W/$p.ref" 2>&1; ref_rc=$?
  env -i $(envof t "$p" "$period") setarch -R "$T/$p" "$reps" > "$W/$p.out" 2>&1; rc=$?
  if [ $rc -eq $ref_rc ] && cmp -s "$W/$p.ref" "$W/$p.out"; then
    ok "$p: traced output and exit status ($rc) unchanged"
  else
    bad "$p: traced run differs (exit $rc vs $ref_rc): $(head -c 200 "$W/$p.out")"
  fi
done
wait
for spec in "${PROGS[@]}"; do
  set -- $spec; p=$1; shift 4; extra="$*"
  "$BIN" dump "$W/$p.t.lbr" > "$W/$p.dump" 2> "$W/$p.dump.err" || bad "$p: dump failed: $(cat "$W/$p.dump.err")"
  objdump -d --no-show-raw-insn "$T/$p" > "$W/$p.objd"
  if out=$(python3 "$HERE/check.py" "$W/$p.dump" "$W/$p.exact" "$W/$p.objd" "$T/$p" $extra 2>&1); then
    ok "$p: every {from,to} is a real taken branch${out:+
$out}"
  else
    bad "$p: branch checks
$out"
  fi
done

# 16 threads: every thread traced (16 workers + main).
n=$(grep -c '^thread ' "$W/lbr_threads.dump")
nst=$(awk '/^stack /{print $2}' "$W/lbr_threads.dump" | sort -u | wc -l)
[ "$n" -ge 17 ] && [ "$nst" -ge 16 ] && ok "lbr_threads: $n threads traced, stacks from $nst of them" \
  || bad "lbr_threads: $n threads traced, stacks from $nst (want >= 17, >= 16)"
# Signal program: its handlers (SIGUSR1, SIGTRAP, the tracer's own realtime signal) all ran.
grep -q 'per-rep usr1=10 trap=1 rt=1' "$W/lbr_signal.out" && ok "lbr_signal: program handlers chained" \
  || bad "lbr_signal: handlers: $(cat "$W/lbr_signal.out")"

# record / script end to end, exit status passed through.
"$BIN" record -o "$W/rec.lbr" --period 1000000 --depth 8 -- "$T/lbr_recurse" 2000 > "$W/rec.out" 2>&1; rc=$?
[ $rc -eq 3 ] && grep -q '^recurse 406$' "$W/rec.out" && ok "record: output and exit status 3 passed through" \
  || bad "record: exit $rc, output $(cat "$W/rec.out")"
"$BIN" script "$W/rec.lbr" > "$W/rec.script" 2>&1
if grep -Eq '^ *[0-9]+ ( 0x[0-9a-f]+/0x[0-9a-f]+/P/-/-/0){8}$' "$W/rec.script" \
   && ! grep -Evq '^ *[0-9]+ ( 0x[0-9a-f]+/0x[0-9a-f]+/P/-/-/0)+$' "$W/rec.script"; then
  ok "script: $(wc -l < "$W/rec.script") brstack lines, depth 8"
else
  bad "script output: $(head -2 "$W/rec.script")"
fi
{ "$BIN" record -o "$W/sig.lbr" -- sh -c 'kill -TERM $$' > /dev/null 2>&1; rc=$?; } 2> /dev/null
[ $rc -eq 143 ] && ok "record: death by SIGTERM passed through (status $rc)" || bad "record: SIGTERM gave $rc"

# Bad use: one line on stderr, non-zero exit, command not run.
baduse() {
  local what=$1; shift
  "$@" > "$W/bad.out" 2> "$W/bad.err"; local rc=$?
  if [ $rc -ne 0 ] && [ "$(wc -l < "$W/bad.err")" -eq 1 ] && [ ! -s "$W/bad.out" ]; then
    ok "bad use, $what: exit $rc: $(cat "$W/bad.err")"
  else
    bad "bad use, $what: exit $rc, stderr: $(cat "$W/bad.err")"
  fi
}
baduse "missing command" "$BIN" record -o "$W/x.lbr"
baduse "missing command after --" "$BIN" record -o "$W/x.lbr" --
baduse "period 0" "$BIN" record --period 0 -o "$W/x.lbr" -- "$T/lbr_recurse" 1
baduse "depth 65" "$BIN" record --depth 65 -o "$W/x.lbr" -- "$T/lbr_recurse" 1
baduse "unknown event" "$BIN" record --event bogus -o "$W/x.lbr" -- "$T/lbr_recurse" 1
baduse "unwritable output" "$BIN" record -o /proc/nonexistent/x.lbr -- "$T/lbr_recurse" 1
baduse "script of a non-records file" "$BIN" script "$T/lbr_exact"
baduse "no subcommand" "$BIN"

echo "$pass passed, $failn failed"
[ $failn -eq 0 ]
