#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_campaign.sh - make test-campaign: sim/campaign/campaign.py end to end (docs/campaign.md).
#   1. bad descriptions: one line naming FILE:LINE and the problem, exit 2, nothing written
#   2. a tiny campaign locally (2 parallel jobs); one job's tiprof killed mid-run with SIGKILL:
#      only that job is lost (recorded as killed), the rest merge; `--only` re-runs it alone and
#      the merge is complete; a third run runs nothing
#   3. results equal direct `tiprof accuracy` runs of the same command lines
#   4. a job forced to fail (its program is not an ELF): reported with its exit status and
#      stderr tail, the other job merged
#   5. charts: xmllint parses every SVG; each holds the expected series, bars and points
#   6. the same campaign on a real single-node Slurm (slurm-local.sh: munged, slurmctld, slurmd
#      in a temp folder, stopped by a trap): a job array; one task cancelled mid-run (scancel)
#      is recorded and re-run alone; the merged results equal the local run's byte for byte
# Environment: TIPROF (tiprof binary), WORKLOADS (build/workloads), OUT (scratch folder),
# PYTHON (python3). Numbers are never hard-coded: runs are compared with each other.
set -euo pipefail

TIPROF=${TIPROF:-build/bin/tiprof}
WORKLOADS=${WORKLOADS:-build/workloads}
OUT=${OUT:-build/campaign-test}
PYTHON=${PYTHON:-python3}
CAMPAIGN="$PYTHON sim/campaign/campaign.py"
T0=$(date +%s.%N)

fail=0
pass() { printf '  PASS  %s\n' "$*"; }
bad() { printf '  FAIL  %s\n' "$*"; fail=1; }
check() { # check DESCRIPTION COMMAND...: PASS when the command succeeds
	local d=$1; shift
	if "$@"; then pass "$d"; else bad "$d"; fi
}
section() { echo "-- $* (at $(elapsed "$T0") s)"; }
elapsed() { "$PYTHON" -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(date +%s.%N)"; }

# A campaign run in the background, in a process group of its own (setsid): an interrupted
# test ends it with everything it started (runners, tiprof), through the EXIT trap.
BG=""
run_bg() { setsid "$@" & BG=$!; }
kill_bg() { if [ -n "$BG" ]; then kill -TERM -- "-$BG" 2>/dev/null || true; fi; }
trap kill_bg EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
echo "== test-campaign: $TIPROF, workloads from $WORKLOADS, scratch $OUT"
for w in matmul crc32 ptrchase; do
	[ -x "$WORKLOADS/$w" ] || { echo "  FAIL  $WORKLOADS/$w missing (make workloads)"; exit 1; }
done
[ -x "$TIPROF" ] || { echo "  FAIL  $TIPROF missing"; exit 1; }
export TIPROF
# tiprof accuracy itself must work, or every job below fails for a reason not the campaign's
if ! env -i "$TIPROF" accuracy --json --period 64 -o "$OUT/preflight.json" "$WORKLOADS/matmul" 48 \
	> /dev/null 2> "$OUT/preflight.err"; then
	echo "  FAIL  tiprof accuracy fails on its own: $(tail -1 "$OUT/preflight.err")"
	exit 1
fi

# ---- 1. bad descriptions --------------------------------------------------------------------
section "1. bad descriptions"
good_wl="workload matmul $WORKLOADS/matmul 48"
bad_case() { # bad_case NAME EXPECTED-REGEX LINES...: the description fails with one line
	# "campaign.py: FILE" + EXPECTED-REGEX (or EXPECTED-REGEX alone when it starts with ^)
	local name=$1 want=$2; shift 2
	local f="$OUT/bad/$name.campaign" rc=0
	mkdir -p "$OUT/bad"
	printf '%s\n' "$@" > "$f"
	$CAMPAIGN run "$f" -o "$OUT/bad/out-$name" > "$OUT/bad/$name.stdout" 2> "$OUT/bad/$name.stderr" || rc=$?
	local n
	n=$(wc -l < "$OUT/bad/$name.stderr")
	local re="^campaign.py: $f$want"
	[ "${want:0:1}" = "^" ] && re=$want	# a message about another file (a suite)
	if [ "$rc" = 2 ] && [ "$n" = 1 ] && grep -Eq "$re" "$OUT/bad/$name.stderr" &&
	   [ ! -e "$OUT/bad/out-$name" ] && [ ! -s "$OUT/bad/$name.stdout" ]; then
		pass "$name: $(cat "$OUT/bad/$name.stderr")"
	else
		bad "$name: exit $rc, $n lines: $(head -c 300 "$OUT/bad/$name.stderr")"
	fi
}
bad_case unknown-key ":3: unknown key 'colour'" "name x" "$good_wl" "colour red"
bad_case no-program ":2: workload 'nope': no such program" "name x" "workload nope $OUT/no/such/prog 1"
bad_case bad-period ":3: period '0x40': an integer" "name x" "$good_wl" "period 64 0x40"
bad_case zero-period ":2: period '0': an integer" "$good_wl" "period 0"
bad_case bad-config ":3: config '3wide': unknown configuration '3wide'" "# a comment" "$good_wl" "config 4wide 3wide"
bad_case bad-mode ":2: mode 'sometimes'" "$good_wl" "mode random sometimes"
bad_case twice ":3: 'period' given twice \\(first on line 2\\)" "$good_wl" "period 64" "period 128"
bad_case dup-value ":2: config '4wide' given twice" "$good_wl" "config 4wide 4wide"
bad_case dup-workload ":2: workload 'matmul' given twice \\(first at $OUT/bad/dup-workload.campaign:1\\)" "$good_wl" "$good_wl"
bad_case quote ":2: No closing quotation" "$good_wl" "options --skid '40"
bad_case owned-option ":2: options: '--period' is set by the campaign" "$good_wl" "options --period 5"
bad_case bad-option ":2: options: unknown option '--frobnicate'" "$good_wl" "options --frobnicate"
bad_case no-workload ": no 'workload' or 'suite' line" "name x" "config 4wide"
mkdir -p "$OUT/bad"
printf '# a suite\nm short matmul 48\nm full matmul 480\nbroken short\n' > "$OUT/bad/suite-bad.txt"
printf 'm short matmul 48\nm full matmul 480\n' > "$OUT/bad/suite.txt"
bad_case suite-size ":1: suite '$OUT/bad/suite.txt' has no program of size 'tiny' \\(sizes: full, short\\)" "suite $OUT/bad/suite.txt tiny $WORKLOADS"
bad_case suite-line "^campaign.py: $OUT/bad/suite-bad.txt:4: NAME SIZE BINARY \\[ARGS...\\] expected$" "suite $OUT/bad/suite-bad.txt short $WORKLOADS"
bad_case suite-missing ":1: suite '$OUT/bad/none.txt': cannot read: No such file or directory" "suite $OUT/bad/none.txt short"
bad_case workdir ":2: workdir: no such folder '$OUT/none'" "$good_wl" "workdir $OUT/none"
bad_case no-stdin ":2: workload: no such input file '$OUT/none.txt'" "$good_wl" "workload w $WORKLOADS/matmul < $OUT/none.txt"
bad_case stdin-mid ":1: workload: '< FILE' must end the line" "workload w $WORKLOADS/matmul < $OUT/none.txt 48"
bad_case bad-seed ":2: seed '0'" "$good_wl" "seed 0"
rc=0
printf '%s\n' "$good_wl" > "$OUT/bad/only.campaign"
$CAMPAIGN run "$OUT/bad/only.campaign" -o "$OUT/bad/out-only" --only matmul.4wide.p64.random,nope \
	2> "$OUT/bad/only.stderr" || rc=$?
if [ $rc = 2 ] && [ "$(wc -l < "$OUT/bad/only.stderr")" = 1 ] && grep -q "^campaign.py: --only: no job 'nope'" "$OUT/bad/only.stderr" &&
   [ ! -e "$OUT/bad/out-only" ]; then
	pass "--only with an unknown job: $(cat "$OUT/bad/only.stderr")"
else
	bad "--only with an unknown job: exit $rc: $(cat "$OUT/bad/only.stderr")"
fi

# ---- 2. a tiny campaign locally, one job killed -------------------------------------------
section "2. tiny campaign locally (2 jobs in parallel), one job killed mid-run"
TINY="$OUT/tiny.campaign"
cat > "$TINY" <<EOF
# the test's tiny campaign: 3 workloads x 2 configurations x 2 periods = 12 jobs
name tiny
workload matmul   $WORKLOADS/matmul 48
workload crc32    $WORKLOADS/crc32 6
workload ptrchase $WORKLOADS/ptrchase 32768   # the longest (about 1 s): the one killed
config 4wide 2wide
period 64 256
mode random
EOF
VICTIM=ptrchase.4wide.p64.random     # its tiprof is killed
VICTIM2=ptrchase.2wide.p256.random   # its runner (campaign.py job) is killed
LOCAL="$OUT/local"
njobs=$($CAMPAIGN list "$TINY" | wc -l)
check "the description expands to 12 jobs" [ "$njobs" = 12 ]

# Wait until JOB of results folder RES is running; print the pid of its tiprof (or its
# Slurm task with 'slurm').
wait_running() {
	local res=$1 job=$2 what=${3:-pid} _ v
	for _ in $(seq 2400); do	# up to 2 min: the jobs before it may run slowly on a loaded machine
		# sed, not a python start-up per poll: a victim job lasts about a second, and on a
		# loaded machine a poll that takes longer can miss it
		if [ -s "$res/running/$job.json" ]; then
			# a pid, or a Slurm task "JOBID_TASK"
			v=$(sed -n "s/^ *\"$what\": \"\{0,1\}\([0-9_][0-9_]*\).*/\1/p" "$res/running/$job.json" 2>/dev/null)
			[ -n "$v" ] && { echo "$v"; return 0; }
		fi
		sleep 0.05
	done
	return 1
}

t=$(date +%s.%N)
rc=0
run_bg "$PYTHON" sim/campaign/campaign.py run "$TINY" -o "$LOCAL" -j 2 > "$OUT/local-run1.out" 2>&1
runner=$BG
if pid=$(wait_running "$LOCAL" "$VICTIM"); then
	kill -KILL "$pid"
	pass "killed $VICTIM's tiprof (pid $pid) mid-run"
else
	bad "$VICTIM never seen running"
fi
pid2=""
if rpid=$(wait_running "$LOCAL" "$VICTIM2" runner_pid) && pid2=$(wait_running "$LOCAL" "$VICTIM2"); then
	kill -KILL "$rpid"
	pass "killed $VICTIM2's runner (pid $rpid) mid-run"
else
	bad "$VICTIM2 never seen running"
fi
wait "$runner" || rc=$?
BG=""
t_local=$(elapsed "$t")
check "run 1 exits 1 (jobs failed)" [ "$rc" = 1 ]
check "run 1 reports the job whose tiprof was killed" grep -q "FAILED  $VICTIM  killed by signal 9 (SIGKILL)" "$OUT/local-run1.out"
check "its failure record says SIGKILL" grep -q '"signal": 9' "$LOCAL/failed/$VICTIM.json"
check "run 1 reports the job whose runner was killed" grep -q "FAILED  $VICTIM2  runner killed by signal 9" "$OUT/local-run1.out"
# gone, or a zombie nobody reaps (a container's init may not)
gone() { [ -n "$1" ] && { [ ! -e "/proc/$1" ] || grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }; }
check "the killed runner's tiprof (pid $pid2) died with it (PR_SET_PDEATHSIG)" gone "$pid2"
no_tmp() { ! compgen -G "$1/.tmp*" > /dev/null; }
check "no temporary report left" no_tmp "$LOCAL/results"
check "10 of 12 jobs merged, the killed ones listed failed" \
	grep -Eq "merged 10 of 12 jobs; missing 0; failed 2 \(($VICTIM $VICTIM2|$VICTIM2 $VICTIM)\)" "$OUT/local-run1.out"
check "the re-run command is printed" grep -q -- "--only $VICTIM,$VICTIM2" "$OUT/local-run1.out"
rc=0
$CAMPAIGN status "$TINY" -o "$LOCAL" > "$OUT/status1.out" || rc=$?
check "status: 10 done, 2 failed (exit 1)" bash -c "[ $rc = 1 ] && grep -q '10 done, 2 failed' '$OUT/status1.out'"

rc=0
$CAMPAIGN run "$TINY" -o "$LOCAL" -j 2 --only "$VICTIM,$VICTIM2" > "$OUT/local-run2.out" 2>&1 || rc=$?
check "--only $VICTIM,$VICTIM2 re-runs them alone: exit 0" [ "$rc" = 0 ]
check "  ... 2 jobs run, 10 already finished" grep -q "12 jobs, 10 already finished, 2 to run" "$OUT/local-run2.out"
check "  ... merge complete (12 of 12)" grep -q "merged 12 of 12 jobs ->" "$OUT/local-run2.out"
check "  ... failure records gone" [ -z "$(ls -A "$LOCAL/failed")" ]
check "results.json: complete" "$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["complete"] and d["merged"] == 12 and not d["failed"]))' "$LOCAL/merged/results.json"
rc=0
$CAMPAIGN run "$TINY" -o "$LOCAL" -j 2 > "$OUT/local-run3.out" 2>&1 || rc=$?
check "a third run runs nothing (12 already finished)" \
	bash -c "[ $rc = 0 ] && grep -q '12 jobs, 12 already finished, 0 to run' '$OUT/local-run3.out'"
t=$(date +%s.%N)
$CAMPAIGN run "$TINY" -o "$OUT/local-clean" -j 2 > "$OUT/local-clean.out" 2>&1 ||
	bad "an uninterrupted local run failed: $(tail -3 "$OUT/local-clean.out")"
t_clean=$(elapsed "$t")
check "an uninterrupted local run gives the same merged results" \
	cmp -s "$LOCAL/merged/results.csv" "$OUT/local-clean/merged/results.csv"

# ---- 3. results = direct tiprof accuracy runs ------------------------------------------------
section "3. results equal direct tiprof accuracy runs"
for j in matmul.2wide.p256.random "$VICTIM" "$VICTIM2"; do
	# the job's own command line, with an empty environment, its report to a file, the
	# program's output to a regular file (as a job's: glibc sizes stdout's buffer by it)
	if "$PYTHON" - "$LOCAL/results/$j.json" "$OUT/direct-$j.json" <<'EOF'; then
import json, subprocess, sys
r = json.load(open(sys.argv[1]))
argv = r["argv"][:]
i = argv.index("--")
argv[i:i] = ["-o", sys.argv[2]]
with open(sys.argv[2] + ".stdout", "wb") as f:
    subprocess.run(argv, env={}, stdin=subprocess.DEVNULL, stdout=f, check=True)
d = json.load(open(sys.argv[2]))
sys.exit(0 if d == r["accuracy"] and d["policies"] else 1)
EOF
		pass "$j: its result = a direct run of its command line"
	else
		bad "$j: result differs from a direct run"
	fi
done

# Seeds: 'seed 7 8' runs each job with tiprof accuracy --sampler-seed N; the two seeds sample
# different cycles (different TIP errors) and each equals a direct run with that seed.
if "$TIPROF" help accuracy | grep -q -- '--sampler-seed'; then
	printf '%s\n' "name seeds" "$good_wl" "period 64" "seed 7 8" > "$OUT/seeds.campaign"
	if $CAMPAIGN run "$OUT/seeds.campaign" -o "$OUT/seeds" -j 2 > "$OUT/seeds.out" 2>&1 &&
	   "$PYTHON" - "$OUT/seeds/results" "$OUT" > "$OUT/seeds.check" 2>&1 <<'EOF'; then
import json, os, subprocess, sys
res, out = sys.argv[1:3]
errs = {}
for seed in ("7", "8"):
    r = json.load(open(os.path.join(res, f"matmul.4wide.p64.random.s{seed}.json")))
    argv = r["argv"][:]
    assert argv[argv.index("--sampler-seed") + 1] == seed, argv
    i = argv.index("--")
    d_path = os.path.join(out, f"seed-direct-{seed}.json")
    argv[i:i] = ["-o", d_path]
    with open(d_path + ".stdout", "wb") as f:
        subprocess.run(argv, env={}, stdin=subprocess.DEVNULL, stdout=f, check=True)
    d = json.load(open(d_path))
    assert d == r["accuracy"], f"seed {seed}: result differs from a direct run"
    errs[seed] = d["policies"]["TIP"]["instruction"]
assert errs["7"] != errs["8"], f"seeds 7 and 8 gave the same TIP error {errs['7']}"
print(f"TIP instruction error {errs['7']:.4f} (seed 7) vs {errs['8']:.4f} (seed 8)")
EOF
		pass "seed 7 8: each job = a direct --sampler-seed run, the seeds sample different cycles: $(cat "$OUT/seeds.check")"
	else
		bad "seeded campaign: $(tail -3 "$OUT/seeds.out") $(tail -3 "$OUT/seeds.check" 2>/dev/null)"
	fi
else
	bad "tiprof accuracy has no --sampler-seed"
fi

# ---- 4. a job forced to fail -------------------------------------------------------------------
section "4. a failing job"
printf '#!/bin/sh\necho not an ELF\n' > "$OUT/not-elf"
chmod +x "$OUT/not-elf"
cat > "$OUT/fail.campaign" <<EOF
name fail
workload matmul $WORKLOADS/matmul 48
workload broken $OUT/not-elf
EOF
rc=0
$CAMPAIGN run "$OUT/fail.campaign" -o "$OUT/fail" -j 2 > "$OUT/fail.out" 2>&1 || rc=$?
check "exit 1" [ "$rc" = 1 ]
check "the failed job is reported with its exit status and message" \
	grep -Eq "FAILED  broken.4wide.p64.random  exit 1: .*not-elf" "$OUT/fail.out"
check "its record: exit status 1, stderr tail" "$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["exit"] == 1 and d["stderr_tail"] and "not-elf" in d["stderr_tail"][-1]))' "$OUT/fail/failed/broken.4wide.p64.random.json"
check "the other job merged (1 of 2, failed listed)" \
	grep -q "merged 1 of 2 jobs; missing 0; failed 1 (broken.4wide.p64.random)" "$OUT/fail.out"
check "results.md names the failed job" grep -q "failed: broken.4wide.p64.random" "$OUT/fail/merged/results.md"
check "merge --require-complete exits 1" bash -c "! $CAMPAIGN merge '$OUT/fail.campaign' -o '$OUT/fail' --require-complete >/dev/null"

# ---- 4b. standard input -----------------------------------------------------------------------
section "4b. a workload reading its standard input ('< FILE')"
# sum: byte count and hash of its standard input, or of the file named by its argument
cat > "$OUT/sum.c" <<'CEOF'
#include <stdio.h>
int main(int argc, char **argv)
{
	unsigned long n = 0, sum = 0;
	int ch;

	if (argc > 1 && !freopen(argv[1], "rb", stdin)) {
		perror(argv[1]);
		return 1;
	}

	while ((ch = getchar()) != EOF) {
		n++;
		sum = sum * 31 + (unsigned char)ch;
	}
	printf("bytes=%lu sum=%lu\n", n, sum);
	return 0;
}
CEOF
"${CROSS_COMPILE:-riscv64-linux-gnu-}gcc" -O2 -static -o "$OUT/sum" "$OUT/sum.c"
head -c 3000 "$OUT/sum.c" > "$OUT/sum-input.txt"
printf 'workload sum %s < %s\n' "$OUT/sum" "$OUT/sum-input.txt" > "$OUT/stdin.campaign"
want=$("$PYTHON" -c 'import sys
d = open(sys.argv[1], "rb").read()
s = 0
for b in d:
    s = (s * 31 + b) % 2**64
print(f"bytes={len(d)} sum={s}")' "$OUT/sum-input.txt")
rc=0
$CAMPAIGN run "$OUT/stdin.campaign" -o "$OUT/stdin" > "$OUT/stdin.out" 2>&1 || rc=$?
check "the job ran (exit $rc)" [ "$rc" = 0 ]
check "the program read the file on its standard input ($want)" \
	grep -qx "$want" "$OUT/stdin/logs/sum.4wide.p64.random.stdout"
check "list shows the input" grep -q "< $OUT/sum-input.txt\$" <($CAMPAIGN list "$OUT/stdin.campaign")

section "4c. a program suite (suite FILE SIZE BINDIR) run in a working folder (workdir)"
mkdir -p "$OUT/suite-bin" "$OUT/wd"
cp "$OUT/sum" "$OUT/suite-bin/sum"
ln -sf "$(cd "$WORKLOADS" && pwd)/matmul" "$OUT/suite-bin/matmul"
cp "$OUT/sum-input.txt" "$OUT/wd/input.txt"
cat > "$OUT/suite.txt" <<'EOF'
# NAME SIZE BINARY ARGUMENTS (the format of sim/programs/suite.txt)
sum     short sum    input.txt
sum     full  sum    no-such-file.txt
matmul  short matmul 48
matmul  full  matmul 480
EOF
printf 'suite %s short %s\nworkdir %s\n' "$OUT/suite.txt" "$OUT/suite-bin" "$OUT/wd" > "$OUT/suite.campaign"
rc=0
$CAMPAIGN run "$OUT/suite.campaign" -o "$OUT/suite" > "$OUT/suite.out" 2>&1 || rc=$?
check "the suite's two short programs ran (exit $rc)" \
	bash -c "[ $rc = 0 ] && grep -q 'suite: 2 jobs, 0 already finished, 2 to run' '$OUT/suite.out'"
check "sum read input.txt from the working folder ($want)" \
	grep -qx "$want" "$OUT/suite/logs/sum.4wide.p64.random.stdout"
check "matmul ran with the suite's arguments" grep -q "^matmul: OK size=48 " "$OUT/suite/logs/matmul.4wide.p64.random.stdout"
check "list shows the working folder" grep -q "(cd $OUT/wd && " <($CAMPAIGN list "$OUT/suite.campaign")

# ---- 5. charts -----------------------------------------------------------------------------------
section "5. charts"
charts=("$LOCAL"/merged/charts/*.svg)
check "xmllint parses all ${#charts[@]} charts" xmllint --noout "${charts[@]}"
if "$PYTHON" - "$LOCAL/merged" <<'EOF'; then
import json, os, sys, xml.etree.ElementTree as ET
md = sys.argv[1]
res = json.load(open(os.path.join(md, "results.json")))
pols = [p for p in res["policies"] if p != "Ideal"]
wls = list(dict.fromkeys(r["workload"] for r in res["rows"]))
periods = sorted({r["period"] for r in res["rows"]})
cfgs = sorted({r["config"] for r in res["rows"]})
ns = "{http://www.w3.org/2000/svg}"
want = {f"policies-{c}-p{p}-random-{lv}.svg" for c in cfgs for p in periods for lv in ("instruction", "basic_block", "function")}
want |= {f"period-{c}-random-{lv}.svg" for c in cfgs for lv in ("instruction", "basic_block", "function")}
have = set(os.listdir(os.path.join(md, "charts")))
assert have == want, (sorted(have ^ want))
rows = {(r["config"], r["period"], r["workload"], r["policy"]): r for r in res["rows"]}
for f in sorted(have):
    root = ET.parse(os.path.join(md, "charts", f)).getroot()
    series = [g for g in root.iter(ns + "g") if g.get("class") == "series"]
    names = [g.get("data-series") for g in series]
    lv = f.rsplit("-", 1)[1][:-4]
    cfg = f.split("-")[1]
    if f.startswith("policies-"):
        p = int(f.split("-")[2][1:])
        assert names == pols, (f, names)
        for g in series:
            bars = [r for r in g.iter(ns + "rect") if r.get("class") == "bar"]
            assert [b.get("data-category") for b in bars] == wls + ["mean"], (f, g.get("data-series"))
            for b in bars[:-1]:  # each bar's value is the table's
                v = 100 * rows[(cfg, p, b.get("data-category"), g.get("data-series"))][lv]
                assert abs(float(b.get("data-value")) - v) <= 1e-5 * max(1, v), (f, b.attrib, v)
    else:
        assert names == res["policies"], (f, names)
        for g in series:
            pts = [c for c in g.iter(ns + "circle") if c.get("class") == "point"]
            assert [int(c.get("data-x")) for c in pts] == periods, (f, g.get("data-series"))
EOF
	pass "every chart has its series (policies), bars (workloads + mean) and points (periods)"
else
	bad "chart contents"
fi

# ---- 6. the same campaign on a real single-node Slurm ------------------------------------------
section "6. the same campaign on a single-node Slurm (slurm-wlm $(dpkg-query -W -f='${Version}' slurmctld 2>/dev/null || echo '?'))"
CLUSTER="$OUT/slurm-cluster"
stop_cluster() { sim/campaign/slurm-local.sh stop "$CLUSTER" || true; }
trap 'kill_bg; stop_cluster' EXIT	# also when the test is interrupted or killed (INT/TERM traps)
t=$(date +%s.%N)
if ! sim/campaign/slurm-local.sh start "$CLUSTER" 2 > "$OUT/slurm-start.out" 2>&1; then
	bad "single-node Slurm did not start: $(tail -3 "$OUT/slurm-start.out")"
	for f in "$CLUSTER"/log/*.log; do echo "  --- $f"; tail -n 5 "$f" | sed 's/^/  /'; done
	exit 1
fi
t_start=$(elapsed "$t")
export SLURM_CONF="$CLUSTER/etc/slurm.conf"
pass "munged, slurmctld, slurmd up in $t_start s: $(sinfo -h -o '%P %D %T %C' | head -1) (partition nodes state cpus A/I/O/T)"
SL="$OUT/slurm"
t=$(date +%s.%N)
rc=0
run_bg "$PYTHON" sim/campaign/campaign.py run "$TINY" -o "$SL" --slurm --wait > "$OUT/slurm-run1.out" 2>&1
runner=$BG
if task=$(wait_running "$SL" "$VICTIM" slurm); then
	scancel "$task"
	pass "scancel $task ($VICTIM) mid-run"
else
	bad "$VICTIM never seen running on Slurm"
fi
wait "$runner" || rc=$?
BG=""
t_slurm=$(elapsed "$t")
check "run --slurm --wait exits 1 (a task was cancelled)" [ "$rc" = 1 ]
check "a job array was submitted" grep -Eq "submitted Slurm array job [0-9]+: 12 tasks" "$OUT/slurm-run1.out"
check "the cancelled job is reported" grep -Eq "FAILED  $VICTIM  runner got signal 15" "$OUT/slurm-run1.out"
check "11 of 12 merged" grep -q "merged 11 of 12 jobs; missing 0; failed 1 ($VICTIM)" "$OUT/slurm-run1.out"
arr=$(sed -n 's/.*submitted Slurm array job \([0-9]*\):.*/\1/p' "$OUT/slurm-run1.out")
ntask=$(grep -o "sched: Allocate JobId=${arr}_[0-9]*" "$CLUSTER/log/slurmctld.log" | sort -u | wc -l)
check "slurmctld ran all 12 tasks of array $arr ($ntask allocations logged)" [ "$ntask" = 12 ]
check "every result was written by a Slurm task" "$PYTHON" -c 'import json,glob,sys; rs=[json.load(open(f)) for f in glob.glob(sys.argv[1] + "/results/*.json")]; sys.exit(not (len(rs) == 11 and all(r["slurm"] and r["slurm"].startswith(sys.argv[2] + "_") for r in rs)))' "$SL" "$arr"
t=$(date +%s.%N)
rc=0
$CAMPAIGN run "$TINY" -o "$SL" --slurm --wait --only "$VICTIM" > "$OUT/slurm-run2.out" 2>&1 || rc=$?
t_slurm2=$(elapsed "$t")
check "--slurm --only $VICTIM: 1 task, exit 0, merge complete" \
	bash -c "[ $rc = 0 ] && grep -Eq 'array job [0-9]+: 1 tasks' '$OUT/slurm-run2.out' && grep -q 'merged 12 of 12 jobs ->' '$OUT/slurm-run2.out'"
check "Slurm's merged results.csv = the local run's" cmp "$LOCAL/merged/results.csv" "$SL/merged/results.csv"
check "Slurm's merged results.json = the local run's" cmp "$LOCAL/merged/results.json" "$SL/merged/results.json"
check "Slurm's results.md = the local run's" cmp "$LOCAL/merged/results.md" "$SL/merged/results.md"
if "$PYTHON" - "$LOCAL" "$SL" <<'EOF'; then
import json, glob, os, sys
a, b = sys.argv[1], sys.argv[2]
fs = sorted(os.path.basename(f) for f in glob.glob(a + "/results/*.json"))
assert len(fs) == 12 and fs == sorted(os.path.basename(f) for f in glob.glob(b + "/results/*.json"))
for f in fs:
    assert json.load(open(f"{a}/results/{f}"))["accuracy"] == json.load(open(f"{b}/results/{f}"))["accuracy"], f
EOF
	pass "each job's accuracy report: Slurm = local"
else
	bad "a job's report differs between Slurm and local"
fi
t=$(date +%s.%N)
$CAMPAIGN run "$TINY" -o "$OUT/slurm-clean" --slurm --wait --per-task 3 --max-running 2 \
	--sbatch-args "--time=10 --job-name=tiny-clean" > "$OUT/slurm-clean.out" 2>&1 ||
	bad "an uninterrupted Slurm run failed: $(tail -3 "$OUT/slurm-clean.out")"
t_slurm_clean=$(elapsed "$t")
check "an uninterrupted Slurm run, 3 jobs per task: 4 tasks for 12 jobs" \
	grep -Eq "submitted Slurm array job [0-9]+: 4 tasks for 12 jobs" "$OUT/slurm-clean.out"
arr2=$(sed -n 's/.*submitted Slurm array job \([0-9]*\):.*/\1/p' "$OUT/slurm-clean.out")
check "  ... --sbatch-args reached sbatch (job name tiny-clean)" \
	bash -c "scontrol show job $arr2 | grep -q 'JobName=tiny-clean'"
check "  ... the same merged results" cmp -s "$LOCAL/merged/results.csv" "$OUT/slurm-clean/merged/results.csv"
stop_cluster
trap kill_bg EXIT
left=""
for f in munged slurmctld slurmd; do
	[ -e "$CLUSTER/run/$f.pid" ] && left="$left $f"
done
check "daemons stopped" [ -z "$left" ]

echo "   times: local 12 jobs (2 parallel) with the kill: $t_local s, uninterrupted: $t_clean s;" \
     "Slurm start $t_start s, array with the cancel: $t_slurm s, re-run of 1 task: $t_slurm2 s," \
     "uninterrupted array: $t_slurm_clean s; whole test $(elapsed "$T0") s"
if [ $fail = 0 ]; then
	echo "test-campaign: PASS"
else
	echo "test-campaign: FAIL"
	exit 1
fi
