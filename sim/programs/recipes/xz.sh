# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034  # sourced by build.sh, which reads the PROG_* variables
# sim/programs/recipes/xz.sh - the xz 5.4.1 command-line program (Debian 12 source package
# xz-utils, with Debian's patches), sourced by sim/programs/build.sh. liblzma and src/xz are
# compiled directly, without ./configure: the recipe writes the config.h that configure
# writes for riscv64-linux-gnu (every encoder, decoder, match finder and integrity check that
# Debian's build enables; getopt_long, clock_gettime, futimens, sysconf, sched_getaffinity),
# but single-threaded (no pthreads, so stream_encoder_mt.c, stream_decoder_mt.c and
# outqueue.c are left out, as configure --disable-threads leaves them out), no NLS, -O2,
# statically linked.

PROG_PKG=xz-utils
PROG_OUTPUTS="xz-static"

xz_config_h() {
	local f
	cat <<'H'
/* config.h for xz 5.4.1 on riscv64-linux-gnu, written by sim/programs/recipes/xz.sh */
#define ASSUME_RAM 128
#define NDEBUG 1
#define _GNU_SOURCE 1
#define PACKAGE "xz"
#define PACKAGE_BUGREPORT "xz@tukaani.org"
#define PACKAGE_NAME "XZ Utils"
#define PACKAGE_STRING "XZ Utils 5.4.1"
#define PACKAGE_TARNAME "xz"
#define PACKAGE_URL "https://tukaani.org/xz/"
#define PACKAGE_VERSION "5.4.1"
#define VERSION "5.4.1"
#define SIZEOF_SIZE_T 8
#define HAVE_CHECK_CRC32 1
#define HAVE_CHECK_CRC64 1
#define HAVE_CHECK_SHA256 1
#define HAVE_DECODERS 1
#define HAVE_ENCODERS 1
#define HAVE_LZIP_DECODER 1
#define HAVE_MICROLZMA 1
#define HAVE_MF_BT2 1
#define HAVE_MF_BT3 1
#define HAVE_MF_BT4 1
#define HAVE_MF_HC3 1
#define HAVE_MF_HC4 1
#define HAVE_CLOCK_GETTIME 1
#define HAVE_CLOCK_MONOTONIC 1
#define HAVE_DECL_CLOCK_MONOTONIC 1
#define HAVE_DECL_PROGRAM_INVOCATION_NAME 1
#define HAVE_FCNTL_H 1
#define HAVE_FUNC_ATTRIBUTE_CONSTRUCTOR 1
#define HAVE_FUTIMENS 1
#define HAVE_GETOPT_H 1
#define HAVE_GETOPT_LONG 1
#define HAVE_INTTYPES_H 1
#define HAVE_LIMITS_H 1
#define HAVE_MBRTOWC 1
#define HAVE_POSIX_FADVISE 1
#define HAVE_STDBOOL_H 1
#define HAVE__BOOL 1
#define HAVE_STDINT_H 1
#define HAVE_STDIO_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRINGS_H 1
#define HAVE_STRING_H 1
#define HAVE_SYS_PARAM_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_UINTPTR_T 1
#define HAVE_UNISTD_H 1
#define HAVE_WCWIDTH 1
#define STDC_HEADERS 1
#define TUKLIB_CPUCORES_SCHED_GETAFFINITY 1
#define TUKLIB_PHYSMEM_SYSCONF 1
H
	for f in ARM ARM64 ARMTHUMB DELTA IA64 LZMA1 LZMA2 POWERPC SPARC X86; do
		echo "#define HAVE_ENCODER_$f 1"
		echo "#define HAVE_DECODER_$f 1"
	done
}

# prog_build SRC OBJDIR BINDIR BUILDINFO (CC, JOBS from build.sh)
prog_build() {
	local src=$1 obj=$2 bin=$3 info=$4 srcs
	local l=src/liblzma
	local flags="-I$obj -I$src/src/common -I$src/$l/api -I$src/$l/common -I$src/$l/check
		-I$src/$l/lz -I$src/$l/rangecoder -I$src/$l/lzma -I$src/$l/delta -I$src/$l/simple
		-DHAVE_CONFIG_H -DTUKLIB_SYMBOL_PREFIX=lzma_ -std=gnu99 -O2 -g -gdwarf-4
		-ffile-prefix-map=$src=xz-5.4.1"
	flags=$(echo $flags)
	# shellcheck disable=SC2010  # plain file names
	srcs=$(cd "$src" && ls $l/common/*.c $l/check/*.c $l/lz/*.c $l/lzma/*.c $l/rangecoder/*.c \
		$l/delta/*.c $l/simple/*.c src/xz/*.c |
		grep -v -e _mt.c -e outqueue.c -e _tablegen.c -e _small.c
		echo src/common/tuklib_open_stdxxx.c src/common/tuklib_progname.c src/common/tuklib_exit.c \
			src/common/tuklib_mbstr_width.c src/common/tuklib_mbstr_fw.c \
			src/common/tuklib_physmem.c src/common/tuklib_cpucores.c)
	srcs=$(echo $srcs)
	xz_config_h >"$obj/config.h"
	cc_info "$info" "$src" CC "$CC"
	cc_info "$info" "$src" CFLAGS "$(echo "$flags" | sed "s|$obj|OBJ|g")"
	cc_info "$info" "$src" "config.h (OBJ/config.h)" "$(grep '^#define' "$obj/config.h" | cut -d' ' -f2 | tr '\n' ' ')"
	cc_info "$info" "$src" "LDFLAGS xz-static" -static
	cc_info "$info" "$src" sources $srcs
	# shellcheck disable=SC2086
	cc_all "$src" "$obj" "$flags" $srcs || return 1
	# shellcheck disable=SC2046,SC2086
	$CC -static -o "$bin/xz-static" $(cc_objs "$obj" $srcs)
}
