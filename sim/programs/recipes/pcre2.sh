# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034  # sourced by build.sh, which reads the PROG_* variables
# sim/programs/recipes/pcre2.sh - pcre2grep of PCRE2 10.42 (Debian 12 source package pcre2),
# sourced by sim/programs/build.sh. Built as upstream's build with its generic configuration
# builds it (src/config.h.generic, src/pcre2.h.generic, src/pcre2_chartables.c.dist copied
# into the object folder, as src/README's "building PCRE2 without using autotools" says): the
# 8-bit library (libpcre2_8's sources in Makefile.am) and src/pcre2grep.c, with Unicode
# support, -O2, statically. Without the JIT (sljit has a riscv64 back end, but a program that
# writes and runs its own code is not what this suite measures), zlib or bzip2 input.

PROG_PKG=pcre2
PROG_OUTPUTS="pcre2grep-static"

# prog_build SRC OBJDIR BINDIR BUILDINFO (CC, JOBS from build.sh)
prog_build() {
	local src=$1 obj=$2 bin=$3 info=$4 f
	local lib="auto_possess compile config context convert dfa_match error extuni find_bracket
		jit_compile maketables match match_data newline ord2utf pattern_info script_run
		serialize string_utils study substitute substring tables ucd valid_utf xclass"
	local srcs
	srcs="$(for f in $lib; do echo "src/pcre2_$f.c"; done) src/pcre2grep.c"
	local flags="-I$obj -I$src/src -DHAVE_CONFIG_H -DPCRE2_CODE_UNIT_WIDTH=8 -DPCRE2_STATIC
		-DSUPPORT_PCRE2_8 -DSUPPORT_UNICODE -DHAVE_STDINT_H -DHAVE_INTTYPES_H -DHAVE_LIMITS_H
		-DHAVE_STDIO_H -DHAVE_STDLIB_H -DHAVE_STRING_H -DHAVE_STRINGS_H -DHAVE_STRERROR
		-DHAVE_MEMMOVE -DHAVE_UNISTD_H -DHAVE_DIRENT_H -DHAVE_SYS_STAT_H -DHAVE_SYS_TYPES_H
		-DHAVE_SYS_WAIT_H -DHAVE_WCHAR_H -DHAVE_REALPATH
		-O2 -g -gdwarf-4 -ffile-prefix-map=$src=pcre2-10.42 -ffile-prefix-map=$obj=pcre2-10.42/src"
	flags=$(echo $flags)
	cp "$src/src/config.h.generic" "$obj/config.h"
	cp "$src/src/pcre2.h.generic" "$obj/pcre2.h"
	cp "$src/src/pcre2_chartables.c.dist" "$obj/pcre2_chartables.c"
	cc_info "$info" "$src" CC "$CC"
	cc_info "$info" "$src" CFLAGS "$(echo "$flags" | sed "s|$obj|OBJ|g")"
	cc_info "$info" "$src" "LDFLAGS pcre2grep-static" -static
	cc_info "$info" "$src" sources $srcs "(and OBJ/pcre2_chartables.c, a copy of src/pcre2_chartables.c.dist)"
	# shellcheck disable=SC2086
	cc_all "$src" "$obj" "$flags" $srcs || return 1
	cc_all "$obj" "$obj" "$flags" pcre2_chartables.c || return 1
	# shellcheck disable=SC2046,SC2086
	$CC -static -o "$bin/pcre2grep-static" $(cc_objs "$obj" $srcs pcre2_chartables.c)
}
