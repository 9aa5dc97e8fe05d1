# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034  # sourced by build.sh, which reads the PROG_* variables
# sim/programs/recipes/zlib.sh - zlib 1.2.13's minigzip (Debian 12 source package zlib),
# sourced by sim/programs/build.sh. The library's fifteen files and test/minigzip.c, with the
# flags zlib's ./configure picks on Linux (-O3 -D_LARGEFILE64_SOURCE=1 -DHAVE_HIDDEN; unistd.h
# and stdarg.h present), statically linked. minigzip writes gzip headers with no time stamp,
# so its output depends on its input alone.

PROG_PKG=zlib
PROG_OUTPUTS="minigzip-static"

# prog_build SRC OBJDIR BINDIR BUILDINFO (CC, JOBS from build.sh)
prog_build() {
	local src=$1 obj=$2 bin=$3 info=$4
	local srcs="adler32.c crc32.c deflate.c infback.c inffast.c inflate.c inftrees.c trees.c
		zutil.c compress.c uncompr.c gzclose.c gzlib.c gzread.c gzwrite.c test/minigzip.c"
	local flags="-I$src -O3 -D_LARGEFILE64_SOURCE=1 -DHAVE_HIDDEN -DHAVE_UNISTD_H -DHAVE_STDARG_H
		-g -gdwarf-4 -ffile-prefix-map=$src=zlib-1.2.13"
	flags=$(echo $flags)
	cc_info "$info" "$src" CC "$CC"
	cc_info "$info" "$src" CFLAGS "$flags"
	cc_info "$info" "$src" "LDFLAGS minigzip-static" -static
	cc_info "$info" "$src" sources $srcs
	# shellcheck disable=SC2086
	cc_all "$src" "$obj" "$flags" $srcs || return 1
	# shellcheck disable=SC2046,SC2086
	$CC -static -o "$bin/minigzip-static" $(cc_objs "$obj" $srcs)
}
