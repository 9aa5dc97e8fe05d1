#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# instr-build-prog.sh - build one program of sim/programs with the Xtpsd instrumenter:
# its recipe (sim/programs/recipes/NAME.sh) run with CC = sw/seldisp/tpsd-cc, on the sources
# make programs unpacked.   instr-build-prog.sh NAME PROG_DIR PROG_OUT OBJDIR BINDIR
# Environment: TPSD_CC, TPSD_KIND, TPSD_RT (as tpsd-cc). The helpers cc_all/cc_objs/cc_info
# do what sim/programs/build.sh's do (that script runs its main when sourced).
set -eu
name=$1 PROG_DIR=$2 pout=$3 obj=$4 bin=$5
recipe=$PROG_DIR/recipes/$name.sh
[ -f "$recipe" ] || { echo "instr-build-prog: $recipe: no such recipe" >&2; exit 1; }
cc_objs() { local o=$1 f; shift; for f in "$@"; do f=${f%.c}; echo "$o/${f//\//__}.o"; done; }
cc_all() {
	local src=$1 o=$2 flags=$3
	shift 3
	# shellcheck disable=SC2016  # the script is sh -c's, expanded there
	printf '%s\n' "$@" | xargs -P "$JOBS" -I{} sh -c \
		'f=$1; b=${f%.c}; o="$2/$(echo "$b" | sed "s|/|__|g").o"
		 $3 $4 -c "$5/$f" -o "$o" 2>"$o.log" || { echo "$5/$f:" >&2; cat "$o.log" >&2; exit 255; }' \
		sh {} "$o" "$CC" "$flags" "$src"
}
cc_info() { :; }
# shellcheck source=/dev/null
. "$recipe"
src=
for d in "$pout/src/$PROG_PKG"-*; do [ -d "$d" ] && src=$d; done
[ -n "$src" ] || { echo "instr-build-prog: no sources of $PROG_PKG in $pout/src (make programs)" >&2; exit 1; }
mkdir -p "$obj" "$bin"
CC=$(cd "$(dirname "$0")/../../../sw/seldisp" && pwd)/tpsd-cc JOBS=2 prog_build "$src" "$obj" "$bin" /dev/null
