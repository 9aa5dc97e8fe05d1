# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034  # sourced by build.sh, which reads the PROG_* variables
# sim/programs/recipes/brotli.sh - the brotli 1.0.9 command-line program (Debian 12 source
# package brotli, with Debian's patches), sourced by sim/programs/build.sh. Built as upstream's
# Makefile builds it: c/common, c/dec, c/enc and c/tools/brotli.c with -O2 and -Ic/include,
# statically linked with -lm.

PROG_PKG=brotli
PROG_OUTPUTS="brotli-static"

# prog_build SRC OBJDIR BINDIR BUILDINFO (CC, JOBS from build.sh)
prog_build() {
	local src=$1 obj=$2 bin=$3 info=$4 srcs
	local flags="-O2 -I$src/c/include -g -gdwarf-4 -ffile-prefix-map=$src=brotli-1.0.9"
	srcs=$(cd "$src" && ls c/common/*.c c/dec/*.c c/enc/*.c c/tools/brotli.c)
	cc_info "$info" "$src" CC "$CC"
	cc_info "$info" "$src" CFLAGS "$flags"
	cc_info "$info" "$src" "LDFLAGS brotli-static" -static -lm
	cc_info "$info" "$src" sources $srcs
	# shellcheck disable=SC2086
	cc_all "$src" "$obj" "$flags" $srcs || return 1
	# shellcheck disable=SC2046,SC2086
	$CC -static -o "$bin/brotli-static" $(cc_objs "$obj" $srcs) -lm
}
