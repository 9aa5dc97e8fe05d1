#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# outputs.sh - test-lbr, output formats (docs/lbr.md "Outputs"), each read by its real
# consumer: perf.data by perf script / perf report / llvm-profgen, the LLVM text profile by
# llvm-profdata and clang -fprofile-sample-use, the AutoFDO text by create_llvm_prof, plus
# edge counts and bad use. A missing consumer is a failure naming the Debian package.
# Prints one line per check and "N passed, N failed". Needs BUILD (tiprof-lbr built).
set -u
B=${BUILD:-build}
TIPROF=$B/bin/tiprof
T=$B/lbr/tests
W=$B/lbr/outputs
HERE=$(dirname "$0")
PROFGEN=${LLVM_PROFGEN:-/usr/lib/llvm-14/bin/llvm-profgen}
rm -rf "$W"; mkdir -p "$W"
pass=0; failn=0
ok()  { echo "  PASS $*"; pass=$((pass + 1)); }
bad() { echo "  FAIL $*"; failn=$((failn + 1)); }
finish() { echo "$pass passed, $failn failed"; [ $failn -eq 0 ]; exit; }

missing=0
for t in "perf:linux-perf" "clang:clang" "llvm-profdata:llvm" "$PROFGEN:llvm-14" \
         "create_llvm_prof:autofdo" "python3:python3" "qemu-riscv64:qemu-user" \
         "riscv64-linux-gnu-gcc:gcc-riscv64-linux-gnu"; do
  cmd=${t%:*}; pkg=${t##*:}
  command -v "$cmd" > /dev/null 2>&1 \
    || { bad "$cmd not found: install the Debian package $pkg (sudo apt-get install $pkg, or make deps)"; missing=1; }
done
[ $missing -eq 0 ] || finish

# A hand-made records file with known stacks (no mappings: addresses stay raw): exact
# branch and fall-through counts, and the same stacks in perf script.
python3 - "$W/synth.lbr" <<'PY'
import struct, sys
def rec(t, body):
    body += b'\0' * (-len(body) % 8)
    return struct.pack('<II', t, 8 + len(body)) + body
def stack(pc, pairs, tid=42, t=2000):
    b = struct.pack('<IHHQQ', tid, len(pairs), 0, t, pc)
    return rec(3, b + b''.join(struct.pack('<QQ', f, to) for f, to in pairs))
f = b'TIPRLBR\0' + struct.pack('<II', 1, 32) + b'\0' * 16
f += rec(1, struct.pack('<IIQIIQ', 42, 16, 1000, 0, 1, 1000) + b'/synthetic\0')
f += rec(2, struct.pack('<IIQ', 42, 42, 1500))
f += stack(0x100, [(0x110, 0x200), (0x208, 0x300), (0x310, 0x120)])
f += stack(0x104, [(0x110, 0x200), (0x208, 0x300)], t=3000)
f += stack(0x100, [(0x110, 0x200), (0x208, 0x1f0)], t=4000)   # 0x1f0 > next from: no range
f += stack(0x100, [(0x110, 0x400), (0x408, 0x500)], t=5000)
f += stack(0x500, [(0x110, 0x600)], t=6000)                   # sample after the branch: no range
open(sys.argv[1], 'wb').write(f)
PY
exp_edges="0x110 0x200 3
0x208 0x300 2
0x110 0x400 1
0x110 0x600 1
0x208 0x1f0 1
0x310 0x120 1
0x408 0x500 1"
exp_blocks="0x100 0x110 3
0x200 0x208 3
0x104 0x110 1
0x300 0x310 1
0x400 0x408 1"
"$TIPROF" lbr edges "$W/synth.lbr" 2>&1 | grep -v '^#' > "$W/synth.edges"
"$TIPROF" lbr edges --blocks "$W/synth.lbr" 2>&1 | grep -v '^#' > "$W/synth.blocks"
[ "$(cat "$W/synth.edges")" = "$exp_edges" ] && [ "$(cat "$W/synth.blocks")" = "$exp_blocks" ] \
  && ok "edges on a hand-made records file: exact branch and fall-through counts" \
  || bad "edges on a hand-made records file: got $(tr '\n' ';' < "$W/synth.edges") / $(tr '\n' ';' < "$W/synth.blocks")"
"$TIPROF" lbr perf "$W/synth.lbr" -o "$W/synth.data" \
  && perf script -i "$W/synth.data" -F tid,time,ip,brstack 2> /dev/null | tr -s ' ' | sed 's/^ //' > "$W/synth.perf"
exp_perf="42 0.000002: 100 0x310/0x120/P/-/-/0/ 0x208/0x300/P/-/-/0/ 0x110/0x200/P/-/-/0/
42 0.000003: 104 0x208/0x300/P/-/-/0/ 0x110/0x200/P/-/-/0/
42 0.000004: 100 0x208/0x1f0/P/-/-/0/ 0x110/0x200/P/-/-/0/
42 0.000005: 100 0x408/0x500/P/-/-/0/ 0x110/0x400/P/-/-/0/
42 0.000006: 500 0x110/0x600/P/-/-/0/"
[ "$(sed 's/ *$//' "$W/synth.perf")" = "$exp_perf" ] && ok "perf script of a hand-made records file: exact tid, time, ip, branches newest first" \
  || bad "perf script of a hand-made records file: $(head -3 "$W/synth.perf")"

# The test program: clang, DWARF 4 (Debian's AutoFDO 0.19 gets nothing from DWARF 5).
P=$W/fdo_prog
if ! clang -O2 -gdwarf-4 -fdebug-info-for-profiling -Wall -Wextra -Werror -o "$P" "$HERE/fdo_prog.c" 2> "$W/cc.err"; then
  bad "clang cannot build fdo_prog: $(head -3 "$W/cc.err")"; finish
fi
"$TIPROF" lbr record -o "$W/fdo.lbr" --period 100000 -- "$P" 2000000 > "$W/fdo.out" 2>&1; rc=$?
"$TIPROF" lbr dump "$W/fdo.lbr" > "$W/fdo.dump"
nst=$(grep -c '^stack ' "$W/fdo.dump")
if [ $rc -eq 0 ] && grep -q '^fdo ' "$W/fdo.out" && [ "$nst" -ge 50 ]; then
  ok "recorded fdo_prog (clang -O2 -gdwarf-4): $nst stacks"
else
  bad "record fdo_prog: exit $rc, $nst stacks: $(head -2 "$W/fdo.out")"; finish
fi

# ---------------------------------------------------------------- perf.data
# perf script's samples against the records: ip = sample PC, then the same {from,to} pairs in
# the same order (newest first) as `tiprof lbr script`, stack for stack (compared as sorted
# line sets: perf orders by time, the records file by write).
cmp_perf() { # records perf.data label
  local rec=$1 pd=$2 label=$3
  "$TIPROF" lbr dump "$rec" > "$W/$label.dump" && "$TIPROF" lbr script "$rec" > "$W/$label.lbrscript" \
    && perf script -i "$pd" -F tid,ip,brstack > "$W/$label.perfscript" 2> "$W/$label.perf.err" \
    || { bad "$label: perf script failed: $(head -2 "$W/$label.perf.err")"; return; }
  if out=$(python3 - "$W/$label.dump" "$W/$label.lbrscript" "$W/$label.perfscript" 2>&1 <<'PY'
import re, sys
dump, lbrs, perfs = sys.argv[1:4]
pair = re.compile(r'0x([0-9a-f]+)/0x([0-9a-f]+)/')
pcs = [int(m, 16) for m in re.findall(r'^stack .* sample=0x([0-9a-f]+)', open(dump).read(), re.M)]
exp = []
for pc, line in zip(pcs, open(lbrs)):
    f = line.split()
    exp.append((int(f[0]), pc, tuple(pair.findall(line))))
got = []
for line in open(perfs):
    f = line.split()
    if f:
        got.append((int(f[0]), int(f[1], 16), tuple(pair.findall(line))))
if len(exp) != len(pcs):
    sys.exit('script and dump disagree')
if sorted(exp) != sorted(got):
    bad = [g for g in sorted(got) if g not in exp][:1] or [e for e in sorted(exp) if e not in got][:1]
    sys.exit('%d stacks in the records, %d perf samples; first difference: %s' % (len(exp), len(got), bad))
print('%d samples, %d branches, %d threads' % (len(got), sum(len(g[2]) for g in got), len({g[0] for g in got})))
PY
  ); then
    ok "$label: perf script -F tid,ip,brstack = tiprof lbr script + sample PCs ($out)"
  else
    bad "$label: perf script differs: $out"
  fi
}

if "$TIPROF" lbr perf "$W/fdo.lbr" -o "$W/perf.data" 2> "$W/perf.err"; then
  ok "tiprof lbr perf: $(stat -c %s "$W/perf.data") bytes"
else
  bad "tiprof lbr perf: $(cat "$W/perf.err")"; finish
fi
cmp_perf "$W/fdo.lbr" "$W/perf.data" fdo_prog
# 16 threads: a COMM per thread, samples of every thread.
"$TIPROF" lbr record -o "$W/thr.lbr" --period 200000 -- "$T/lbr_threads" 10000 > /dev/null 2>&1
"$TIPROF" lbr perf "$W/thr.lbr" -o "$W/thr.data" && cmp_perf "$W/thr.lbr" "$W/thr.data" lbr_threads

perf script -i "$W/perf.data" -F ip,sym,brstacksym > "$W/brstacksym" 2> "$W/brstacksym.err"
if grep -q 'hot_loop+0x[0-9a-f]*/next_rand+0x0/' "$W/brstacksym"; then
  ok "perf script -F brstacksym symbolizes (calls hot_loop -> next_rand+0x0)"
else
  bad "perf script brstacksym: $(head -c 300 "$W/brstacksym") $(head -2 "$W/brstacksym.err")"
fi
perf report -i "$W/perf.data" -b --stdio > "$W/report_b" 2> "$W/report_b.err"; rc=$?
top=$(grep -m1 '%' "$W/report_b" | tr -s ' ')
[ $rc -eq 0 ] && grep -q 'hot_loop' "$W/report_b" && ok "perf report -b --stdio: top branch:$top" \
  || bad "perf report -b: exit $rc: $(head -3 "$W/report_b.err")"
perf report -i "$W/perf.data" --branch-history --stdio > "$W/report_bh" 2> "$W/report_bh.err"; rc=$?
[ $rc -eq 0 ] && grep -q 'fdo_prog.c:[0-9]' "$W/report_bh" && ok "perf report --branch-history --stdio: source lines shown" \
  || bad "perf report --branch-history: exit $rc: $(head -3 "$W/report_bh.err")"
perf buildid-list -i "$W/perf.data" 2> /dev/null | grep -q "$(readelf -n "$P" | awk '/Build ID/ {print $3}') .*fdo_prog$" \
  && ok "perf buildid-list: fdo_prog's build ID in the header" || bad "perf buildid-list: no fdo_prog build ID"

# llvm-profgen on the same perf.data, and on perf script text with mmap events.
"$PROFGEN" --perfdata="$W/perf.data" --binary="$P" --format=text --output="$W/profgen.txt" > "$W/profgen.log" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^hot_loop:[1-9]' "$W/profgen.txt" && ok "llvm-profgen --perfdata: $(grep -c '^[^ ]' "$W/profgen.txt") functions, $(grep '^hot_loop:' "$W/profgen.txt")" \
  || bad "llvm-profgen --perfdata: exit $rc: $(tail -2 "$W/profgen.log")"
perf script -i "$W/perf.data" -F ip,brstack --show-mmap-events > "$W/perf.mmaps.script" 2> /dev/null
"$PROFGEN" --perfscript="$W/perf.mmaps.script" --binary="$P" --format=text --output="$W/profgen2.txt" > "$W/profgen2.log" 2>&1; rc=$?
[ $rc -eq 0 ] && cmp -s "$W/profgen.txt" "$W/profgen2.txt" && ok "llvm-profgen --perfscript (perf script --show-mmap-events): same profile" \
  || bad "llvm-profgen --perfscript: exit $rc: $(tail -2 "$W/profgen2.log")"

# AutoFDO reads perf.data itself too (its quipper parser, --profiler=perf).
create_llvm_prof --profile="$W/perf.data" --binary="$P" --format=text --out="$W/afdo_perf.prof" \
  --log_dir="$W" > "$W/afdo_perf.log" 2>&1; rc=$?
llvm-profdata show --sample "$W/afdo_perf.prof" > "$W/afdo_perf.show" 2>&1
[ $rc -eq 0 ] && grep -q '^Function: hot_loop: [1-9]' "$W/afdo_perf.show" \
  && ok "create_llvm_prof --profiler=perf on our perf.data: $(grep '^Function: hot_loop' "$W/afdo_perf.show")" \
  || bad "create_llvm_prof on perf.data: exit $rc: $(tail -2 "$W/afdo_perf.log")"

# ---------------------------------------------------------------- LLVM text sample profile
# The call count on hot_loop's call line, from a profile's text.
calls() { grep -o 'next_rand:[0-9]*' "$1" | head -1; }
if "$TIPROF" lbr llvm-prof "$W/fdo.lbr" -o "$W/fdo.prof" 2> "$W/llvmprof.err" \
   && llvm-profdata show --sample "$W/fdo.prof" > "$W/fdo.prof.show" 2>&1 \
   && grep -q '^Function: hot_loop: [1-9]' "$W/fdo.prof.show"; then
  ok "llvm-prof: llvm-profdata reads it: $(grep '^Function: hot_loop' "$W/fdo.prof.show")"
else
  bad "llvm-prof: $(cat "$W/llvmprof.err") $(head -3 "$W/fdo.prof.show" 2>/dev/null)"
fi
[ -n "$(calls "$W/fdo.prof")" ] && [ "$(calls "$W/fdo.prof")" = "$(calls "$W/profgen.txt")" ] \
  && ok "llvm-prof: call counts equal llvm-profgen's ($(calls "$W/fdo.prof"))" \
  || bad "llvm-prof: calls $(calls "$W/fdo.prof") vs llvm-profgen $(calls "$W/profgen.txt")"
clang -O2 -gdwarf-4 -fprofile-sample-use="$W/fdo.prof" -Wall -Wextra -Werror -emit-llvm -S \
  -o "$W/fdo_pgo.ll" "$HERE/fdo_prog.c" > "$W/pgo.err" 2>&1; rc=$?
n=$(grep -o 'function_entry_count", i64 [0-9]*' "$W/fdo_pgo.ll" 2>/dev/null | awk '{print $3}' | sort -n | tail -1)
nprof=$(grep -c 'br i1 .*!prof ' "$W/fdo_pgo.ll" 2>/dev/null)
if [ $rc -eq 0 ] && [ ! -s "$W/pgo.err" ] && [ "${n:-0}" -gt 100 ] && [ "${nprof:-0}" -gt 0 ]; then
  ok "clang -O2 -fprofile-sample-use: no warning, function_entry_count up to $n, $nprof branches with !prof weights"
else
  bad "clang -fprofile-sample-use: exit $rc, entry count ${n:-none}, ${nprof:-0} weighted branches: $(head -3 "$W/pgo.err")"
fi

# ---------------------------------------------------------------- AutoFDO text
if "$TIPROF" lbr afdo-text "$W/fdo.lbr" --binary "$P" -o "$W/fdo.afdo" 2> "$W/afdo.err" \
   && create_llvm_prof --profiler=text --profile="$W/fdo.afdo" --binary="$P" --format=text \
        --out="$W/afdo.prof" --log_dir="$W" > "$W/afdo.log" 2>&1 \
   && llvm-profdata show --sample "$W/afdo.prof" > "$W/afdo.show" 2>&1 \
   && grep -q '^Function: hot_loop: [1-9]' "$W/afdo.show"; then
  ok "afdo-text: create_llvm_prof made a profile: $(grep '^Function: hot_loop' "$W/afdo.show"); $(head -1 "$W/fdo.afdo") ranges"
else
  bad "afdo-text / create_llvm_prof: $(cat "$W/afdo.err") $(tail -2 "$W/afdo.log") $(head -2 "$W/afdo.show" 2>/dev/null)"
fi
[ -n "$(calls "$W/afdo.prof")" ] && [ "$(calls "$W/afdo.prof")" = "$(calls "$W/fdo.prof")" ] \
  && ok "afdo-text: create_llvm_prof's call counts equal llvm-prof's ($(calls "$W/afdo.prof"))" \
  || bad "afdo-text: calls $(calls "$W/afdo.prof") vs llvm-prof $(calls "$W/fdo.prof")"

# ---------------------------------------------------------------- edges
npairs=$(awk '/^stack / {n += NF - 6} END {print n + 0}' "$W/fdo.dump")
"$TIPROF" lbr edges "$W/fdo.lbr" > "$W/edges" 2> "$W/edges.err"
sum=$(awk '!/^#/ {s += $3} END {print s + 0}' "$W/edges")
if [ "$sum" -eq "$npairs" ] && ! grep -v '^#' "$W/edges" | grep -Evq '^[^ ]+ [^ ]+ [0-9]+$' \
   && grep -v '^#' "$W/edges" | head -3 | grep -q 'next_rand\|hot_loop'; then
  ok "edges: $(grep -vc '^#' "$W/edges") distinct branches, counts sum to the $npairs recorded; hottest: $(grep -v '^#' "$W/edges" | head -1)"
else
  bad "edges: sum $sum vs $npairs branches: $(head -3 "$W/edges") $(cat "$W/edges.err")"
fi
"$TIPROF" lbr edges --blocks "$W/fdo.lbr" > "$W/blocks" 2> "$W/blocks.err"
bsum=$(awk '!/^#/ {s += $3} END {print s + 0}' "$W/blocks")
[ "$bsum" -gt 0 ] && [ "$bsum" -le "$npairs" ] && grep -v '^#' "$W/blocks" | head -1 | grep -Eq '^[^ ]+\+0x[0-9a-f]+ [^ ]+\+0x[0-9a-f]+ [0-9]+$' \
  && ok "edges --blocks: $bsum fall-through ranges; hottest: $(grep -v '^#' "$W/blocks" | head -1)" \
  || bad "edges --blocks: $bsum ranges: $(head -3 "$W/blocks") $(cat "$W/blocks.err")"

# ---------------------------------------------------------------- RISC-V, CTR layout
# riscv64 records in the CTR layout (docs/lbr.md §5.1): an exact trace of two static riscv64
# programs (qemu-riscv64 single-step), stacks built by the tracer's RISC-V back end and
# records encoder on the host (lbr_ctr_trace), every entry's CTR fields checked against
# riscv64 objdump, then perf.data read by perf script -F brstack on this x86-64 host
# (check_ctr.py); `tiprof lbr script` prints what perf prints; the converters on the
# riscv64 binaries. (lbr_loops exits with its result's low bits: 7 for 12 bodies.)
RVOD=${RV_OBJDUMP:-riscv64-linux-gnu-objdump}
for rp in "lbr_indirect 20 0 tkbr,dcall,icall,ret,djmp" "lbr_loops 12 7 tkbr,dcall,ret,djmp,ijmp"; do
  set -- $rp; rv=$1; R=$B/lbr/rv/$rv
  qemu-riscv64 -singlestep -d nochain,exec -D "$W/$rv.qemu" "$R" "$2" > /dev/null 2>&1
  rc=$?; [ $rc -eq "$3" ] || { bad "ctr $rv: qemu-riscv64 -singlestep run: exit $rc, not $3"; continue; }
  "$T/lbr_ctr_trace" "$R" "$W/$rv.qemu" "$W/$rv.rv.lbr" > "$W/$rv.ctr.log" 2>&1 \
    || { bad "ctr $rv: lbr_ctr_trace: $(cat "$W/$rv.ctr.log")"; continue; }
  "$TIPROF" lbr dump "$W/$rv.rv.lbr" > "$W/$rv.rv.dump"
  "$RVOD" -d -M no-aliases "$R" > "$W/$rv.rv.od"
  "$TIPROF" lbr perf "$W/$rv.rv.lbr" -o "$W/$rv.rv.perf" 2> "$W/$rv.rv.perf.err"
  perf script -i "$W/$rv.rv.perf" -F ip,brstack > "$W/$rv.rv.ps" 2> "$W/$rv.rv.ps.err"
  perf report -i "$W/$rv.rv.perf" --header-only > "$W/$rv.rv.hdr" 2>&1
  if python3 "$HERE/check_ctr.py" "$W/$rv.rv.dump" "$W/$rv.rv.od" "$W/$rv.rv.ps" "$W/$rv.rv.hdr" \
       --need="$4" > "$W/$rv.check" 2>&1; then
    ok "ctr $rv: $(tail -1 "$W/$rv.check"); perf.data arch riscv64, perf script -F brstack equal"
  else
    bad "ctr $rv: $(head -5 "$W/$rv.check" | tr '\n' ' ')"
  fi
  python3 "$HERE/check_ctr.py" "$W/$rv.rv.dump" "$W/$rv.rv.od" "$W/$rv.rv.ps" "$W/$rv.rv.hdr" \
    --mutate > "$W/$rv.mut" 2>&1 \
    && ok "ctr $rv: altered records rejected ($(cat "$W/$rv.mut"))" \
    || bad "ctr $rv: an altered copy passed ($(cat "$W/$rv.mut"))"
  perf script -i "$W/$rv.rv.perf" -F brstack | sed 's/^ *//; s/ *$//; s/  */ /g' > "$W/$rv.ps.n"
  "$TIPROF" lbr script --no-tid "$W/$rv.rv.lbr" | sed 's/^ *//; s/ *$//; s/  */ /g' > "$W/$rv.ts.n"
  [ -s "$W/$rv.ts.n" ] && cmp -s "$W/$rv.ps.n" "$W/$rv.ts.n" \
    && ok "ctr $rv: tiprof lbr script prints what perf script -F brstack prints ($(wc -l < "$W/$rv.ts.n") stacks)" \
    || bad "ctr $rv: tiprof lbr script differs from perf script: $(diff "$W/$rv.ps.n" "$W/$rv.ts.n" | head -2)"
done
# Converters for riscv64 binaries on this host. llvm-prof (DWARF through libdw): read by
# llvm-profdata with the hot function; afdo-text and perf.data: create_llvm_prof (a -gdwarf-4
# build: the Debian autofdo reads no DWARF 5); llvm-profgen-14 has no RISC-V target.
R=$B/lbr/rv/lbr_indirect
"$TIPROF" lbr llvm-prof "$W/lbr_indirect.rv.lbr" -o "$W/rv.prof" 2> "$W/rv.prof.err" \
  && llvm-profdata show --sample "$W/rv.prof" > "$W/rv.prof.show" 2>&1 \
  && grep -q '^Function: body' "$W/rv.prof.show" \
  && ok "riscv64 llvm-prof: llvm-profdata reads it ($(grep -c '^Function:' "$W/rv.prof.show") functions; $(grep -m1 '^Function: body' "$W/rv.prof.show"))" \
  || bad "riscv64 llvm-prof: $(cat "$W/rv.prof.err") $(head -3 "$W/rv.prof.show" 2>/dev/null)"
if riscv64-linux-gnu-gcc -std=c11 -D_GNU_SOURCE -O1 -gdwarf-4 -static -o "$W/rvdw4" \
     "$HERE/lbr_indirect.c" 2> "$W/rvdw4.err" \
   && qemu-riscv64 -singlestep -d nochain,exec -D "$W/rvdw4.qemu" "$W/rvdw4" 20 > /dev/null 2>&1 \
   && "$T/lbr_ctr_trace" "$W/rvdw4" "$W/rvdw4.qemu" "$W/rvdw4.lbr" > /dev/null 2>&1; then
  "$TIPROF" lbr afdo-text "$W/rvdw4.lbr" -o "$W/rvdw4.afdo" 2> "$W/rvdw4.afdo.err"
  create_llvm_prof --profiler=text --profile="$W/rvdw4.afdo" --binary="$W/rvdw4" \
    --out="$W/rvdw4.t.prof" --format=text > "$W/rvdw4.t.log" 2>&1
  "$TIPROF" lbr perf "$W/rvdw4.lbr" -o "$W/rvdw4.perf" 2>> "$W/rvdw4.afdo.err"
  create_llvm_prof --profile="$W/rvdw4.perf" --binary="$W/rvdw4" --out="$W/rvdw4.p.prof" \
    --format=text > "$W/rvdw4.p.log" 2>&1
  if grep -q '^body:' "$W/rvdw4.t.prof" 2>/dev/null && grep -q '^body:' "$W/rvdw4.p.prof" 2>/dev/null; then
    ok "riscv64 afdo-text and perf.data: create_llvm_prof makes profiles with the hot function ($(grep -m1 '^body:' "$W/rvdw4.t.prof") / $(grep -m1 '^body:' "$W/rvdw4.p.prof"))"
  else
    bad "riscv64 create_llvm_prof: $(cat "$W/rvdw4.afdo.err" "$W/rvdw4.t.log" "$W/rvdw4.p.log" | head -3)"
  fi
else
  bad "riscv64 -gdwarf-4 build or its trace failed: $(cat "$W/rvdw4.err")"
fi
"$PROFGEN" --perfdata="$W/lbr_indirect.rv.perf" --binary="$R" --format=text \
  --output="$W/rv.profgen" > "$W/rv.profgen.log" 2>&1
echo "  INFO riscv64 llvm-profgen-14 (not counted): exit $?, $(head -1 "$W/rv.profgen.log") - use tiprof lbr llvm-prof for riscv64"

# ---------------------------------------------------------------- bad use
baduse() {
  local what=$1; shift
  "$@" > "$W/bad.out" 2> "$W/bad.err"; local rc=$?
  if [ $rc -ne 0 ] && [ "$(wc -l < "$W/bad.err")" -eq 1 ] && [ ! -s "$W/bad.out" ]; then
    ok "bad use, $what: exit $rc: $(cat "$W/bad.err")"
  else
    bad "bad use, $what: exit $rc, stderr: $(cat "$W/bad.err")"
  fi
}
baduse "perf, missing records file" "$TIPROF" lbr perf "$W/none.lbr" -o "$W/x.data"
baduse "perf, not a records file" "$TIPROF" lbr perf "$P" -o "$W/x.data"
baduse "perf, unwritable output" "$TIPROF" lbr perf "$W/fdo.lbr" -o /proc/nonexistent/perf.data
baduse "llvm-prof, binary not in the records" "$TIPROF" lbr llvm-prof "$W/fdo.lbr" --binary /bin/true
baduse "llvm-prof, binary without DWARF" "$TIPROF" lbr llvm-prof "$W/fdo.lbr" --binary "$(awk '/^mmap .*libc\.so/ {sub("path=", "", $NF); print $NF; exit}' "$W/fdo.dump")"
baduse "afdo-text, unwritable output" "$TIPROF" lbr afdo-text "$W/fdo.lbr" -o /proc/nonexistent/x.afdo
baduse "edges, no records file" "$TIPROF" lbr edges
baduse "edges, unknown option" "$TIPROF" lbr edges --bogus "$W/fdo.lbr"
finish
