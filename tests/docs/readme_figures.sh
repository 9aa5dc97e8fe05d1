#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# readme_figures.sh - README's demo figures are what `make demo` prints: the sentence that
# begins "Quicksort 20000 (`make demo`, step 4" quotes the picked period, the TIP samples and
# every policy's instruction-level error; ACCURACY is the report of the same command the demo
# runs (env -i tiprof accuracy build/workloads/quicksort 20000). Any figure that differs, or
# is missing on either side, fails with both values.
# Usage: readme_figures.sh README.md ACCURACY
set -u
exec python3 - "$1" "$2" <<'PY'
import re, sys
readme, report = open(sys.argv[1]).read(), open(sys.argv[2]).read()
m = re.search(r"Quicksort 20000 \(`make demo`, step 4(.*?)at instruction level", readme, re.S)
if not m:
    sys.exit("test-readme: FAIL: README.md has no sentence 'Quicksort 20000 (`make demo`, step 4 ... "
             "at instruction level'")
said = " ".join(m.group(1).split())
policies = ["TIP", "TIP-ILP", "NCI", "NCI+ILP", "LCI", "Dispatch", "Software"]
want, got = {}, {}
for name, rx_readme, rx_report in [
        ("period", r"period (\d+)", r"period (\d+) picked"),
        ("samples", r"(\d+) samples", r"(\d+) TIP samples")]:
    a, b = re.search(rx_readme, said), re.search(rx_report, report)
    want[name] = a and a.group(1)
    got[name] = b and b.group(1)
for p in policies:
    a = re.search(r"(?<![\w+-])" + re.escape(p) + r" (\d+\.\d\d)%", said)
    b = re.search(r"^ +" + re.escape(p) + r" +(\d+\.\d\d)% ", report, re.M)
    want[p] = a and a.group(1)
    got[p] = b and b.group(1)
bad = [k for k in want if not want[k] or not got[k] or want[k] != got[k]]
for k in want:
    print("  %-8s README %-8s make demo %-8s %s" % (k, want[k], got[k], "FAIL" if k in bad else "ok"))
if bad:
    sys.exit("test-readme: FAIL: %d README figure(s) differ from make demo: %s" %
             (len(bad), ", ".join(bad)))
print("test-readme: %d figures in README equal make demo's" % len(want))
PY
