#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Mutation check of the RTL tests, fast form (make test-tip-mutants): plants each bug of
# tests/rtl/mutants.txt that can affect W=2 XLEN=64 FIFO 16 into a copy of the RTL, builds it
# with the same C harness and runs the directed benches and a random differential run; every
# mutant must be killed. Prints 'N passed, N failed'. make test-tip-mutant-matrix builds every
# mutant in six configurations (tests/rtl/mutant_matrix.sh, which does the work here too; its
# builds are cached under BUILD/mutants/).
# Usage: mutate.sh VERILATOR HARNESS_DIR LIB...   (HARNESS_DIR = BUILD/vtip/2-64-16, already
# built; LIB: the C libraries the harness links, as absolute paths)
set -u
verilator=$1 base=$2
shift 2
exec "$(dirname "$0")/mutant_matrix.sh" --list "$verilator" "$(dirname "$(dirname "$base")")" \
  "$(basename "$base")" "$@"
