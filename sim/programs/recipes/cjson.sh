# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034  # sourced by build.sh, which reads the PROG_* variables
# sim/programs/recipes/cjson.sh - cJSON 1.7.15 (Debian 12 source package cjson, with Debian's
# security patches) with a driver written here (sim/programs/drivers/cjson_bench.c: parse,
# walk, print, re-parse, compare, minify), sourced by sim/programs/build.sh. cJSON.c is built
# with the flags of upstream's Makefile (-O2 -std=c89 -fstack-protector-strong, its warnings
# left out), the driver as C11 with -Wall -Wextra -Werror; statically linked.

PROG_PKG=cjson
PROG_OUTPUTS="cjson-bench-static"
PROG_EXTRA="drivers/cjson_bench.c"

# prog_build SRC OBJDIR BINDIR BUILDINFO (CC, JOBS from build.sh)
prog_build() {
	local src=$1 obj=$2 bin=$3 info=$4
	local lib="-std=c89 -O2 -fstack-protector-strong -g -gdwarf-4 -ffile-prefix-map=$src=cjson-1.7.15"
	local drv="-std=c11 -Wall -Wextra -Werror -O2 -I$src -g -gdwarf-4 -ffile-prefix-map=$PROG_DIR=sim/programs"
	cc_info "$info" "$src" CC "$CC"
	cc_info "$info" "$src" "CFLAGS cJSON.c" "$lib"
	cc_info "$info" "$src" "CFLAGS drivers/cjson_bench.c" "$(echo "$drv" | sed "s|$PROG_DIR|PROGRAMS|g")"
	cc_info "$info" "$src" "LDFLAGS cjson-bench-static" -static -lm
	cc_info "$info" "$src" sources cJSON.c "sim/programs/drivers/cjson_bench.c"
	cc_all "$src" "$obj" "$lib" cJSON.c || return 1
	cc_all "$PROG_DIR" "$obj" "$drv" drivers/cjson_bench.c || return 1
	# shellcheck disable=SC2046
	$CC -static -o "$bin/cjson-bench-static" $(cc_objs "$obj" cJSON.c drivers/cjson_bench.c) -lm
}
