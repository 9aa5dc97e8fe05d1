# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034  # sourced by build.sh, which reads the PROG_* variables
# sim/programs/recipes/zstd.sh - the zstd command-line program (Debian 12 source package
# libzstd), sourced by sim/programs/build.sh. Built as upstream's `make -C programs
# zstd-release` builds it (same sources: lib/{common,compress,decompress,dictBuilder},
# lib/legacy v05-v07, programs/*.c; same -D flags), but with no threads, zlib, lzma or lz4,
# and no x86-64 assembly, so the program is simple and deterministic. Compiled once (the
# toolchain's default -fPIE), linked twice: zstd-static (-static) and zstd-dynamic (the
# toolchain's default: a dynamically linked PIE against /usr/riscv64-linux-gnu).

PROG_PKG=libzstd
PROG_OUTPUTS="zstd-static zstd-dynamic"

# prog_build SRC OBJDIR BINDIR BUILDINFO (CC, JOBS from build.sh)
prog_build() {
	local src=$1 obj=$2 bin=$3 info=$4 srcs
	local cppflags="-I$src/lib -I$src/lib/common -I$src/lib/compress -I$src/lib/dictBuilder
		-I$src/lib/legacy -DXXH_NAMESPACE=ZSTD_ -DDEBUGLEVEL=0 -DZSTD_LEGACY_SUPPORT=5
		-DBACKTRACE_ENABLE=0 -DZSTD_DISABLE_ASM"
	# upstream's release -O3, with DWARF 4 line tables for the profilers, build paths dropped
	local cflags="-O3 -g -gdwarf-4 -ffile-prefix-map=$src=zstd-1.5.4"
	cppflags=$(echo $cppflags)
	srcs=$(cd "$src" && ls lib/common/*.c lib/compress/*.c lib/decompress/*.c \
		lib/dictBuilder/*.c lib/legacy/zstd_v0[5-7].c programs/*.c)
	{
		echo "CC: $CC"
		echo "CPPFLAGS: $cppflags" | sed "s|$src|SRC|g"
		echo "CFLAGS: $cflags" | sed "s|$src|SRC|g"
		echo "LDFLAGS zstd-static: -static"
		echo "LDFLAGS zstd-dynamic: (none: the toolchain's default PIE)"
		echo "sources: $(echo $srcs)"
	} >"$info"
	# shellcheck disable=SC2086
	echo "$srcs" | xargs -P "$JOBS" -I{} sh -c \
		'o="$1/$(basename "$2" .c).o"; $3 $4 $5 -c "$6/$2" -o "$o" 2>"$o.log" || { cat "$o.log" >&2; exit 255; }' \
		sh "$obj" {} "$CC" "$cppflags" "$cflags" "$src"
	# shellcheck disable=SC2046
	$CC -static -o "$bin/zstd-static" $(for f in $srcs; do echo "$obj/$(basename "$f" .c).o"; done)
	# shellcheck disable=SC2046
	$CC -o "$bin/zstd-dynamic" $(for f in $srcs; do echo "$obj/$(basename "$f" .c).o"; done)
}
