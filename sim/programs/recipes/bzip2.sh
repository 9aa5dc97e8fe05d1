# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034  # sourced by build.sh, which reads the PROG_* variables
# sim/programs/recipes/bzip2.sh - bzip2 1.0.8 (Debian 12 source package bzip2), sourced by
# sim/programs/build.sh. Built as upstream's Makefile builds the `bzip2` program (the same
# seven library files and bzip2.c, the same -D_FILE_OFFSET_BITS=64 -O2), statically.

PROG_PKG=bzip2
PROG_OUTPUTS="bzip2-static"

# prog_build SRC OBJDIR BINDIR BUILDINFO (CC, JOBS from build.sh)
prog_build() {
	local src=$1 obj=$2 bin=$3 info=$4
	local srcs="blocksort.c huffman.c crctable.c randtable.c compress.c decompress.c bzlib.c bzip2.c"
	local flags="-D_FILE_OFFSET_BITS=64 -O2 -g -gdwarf-4 -ffile-prefix-map=$src=bzip2-1.0.8"
	cc_info "$info" "$src" CC "$CC"
	cc_info "$info" "$src" CFLAGS "$flags"
	cc_info "$info" "$src" "LDFLAGS bzip2-static" -static
	cc_info "$info" "$src" sources $srcs
	# shellcheck disable=SC2086
	cc_all "$src" "$obj" "$flags" $srcs || return 1
	# shellcheck disable=SC2046,SC2086
	$CC -static -o "$bin/bzip2-static" $(cc_objs "$obj" $srcs)
}
