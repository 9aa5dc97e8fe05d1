#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# instr-mutants.sh - planted bugs in the instrumenter and runtime of sw/seldisp; each must
# make instr-tests.sh fail.   instr-mutants.sh OUT SWDIR  (environment as instr-tests.sh)
set -u
OUT=$1 SW=$2
here=$(dirname "$0")
caught=0 missed=0
# name|file|python regex|replacement
MUTANTS=(
	"no leader after a conditional branch|tpsd_instrument.py|        if op in BRANCHES:\n            pending = True|        if op in BRANCHES:\n            pass"
	"no poppf before a tail call|tpsd_instrument.py|            pre \+= INSN_POPPF\n        elif op == \"ret\"|            pass\n        elif op == \"ret\""
	"descriptor off by one counter|tpsd_instrument.py|\(8 \* k, site|(8 * k + 8, site"
	"tick entry does not restore a1|tpsd_rt.c|ld a1, 72\(sp\)|nop"
	"window switch leaves the active frames|tpsd_rt.c|TP_PFSTATE_WRITE\(st\);|(void)st;"
)
for m in "${MUTANTS[@]}"; do
	IFS='|' read -r name file re rep <<<"$m"
	d=$OUT/mut
	rm -rf "$d" && mkdir -p "$d" && cp "$SW"/* "$d/"
	python3 - "$d/$file" "$re" "$rep" <<'EOF' || { echo "  ERROR mutant not applied: $name"; exit 1; }
import re, sys
p, rx, rep = sys.argv[1], sys.argv[2].replace("\\n", "\n"), sys.argv[3].replace("\\n", "\n")
s = open(p).read()
t, n = re.subn(rx, lambda m: rep, s, count=1)
if n != 1:
    sys.exit(1)
open(p, "w").write(t)
EOF
	if SDI_STOP=1 bash "$here/instr-tests.sh" "$d/run" "$d" >"$d.log" 2>&1; then
		missed=$((missed + 1)); echo "  MISSED  $name"
	else
		caught=$((caught + 1)); echo "  caught  $name: $(grep -m1 FAIL "$d.log" | cut -c1-110)"
	fi
done
echo "planted bugs: $caught caught, $missed missed"
[ "$missed" = 0 ]
