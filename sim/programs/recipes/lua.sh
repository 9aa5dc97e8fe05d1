# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034  # sourced by build.sh, which reads the PROG_* variables
# sim/programs/recipes/lua.sh - Lua 5.4.4's interpreter `lua` and compiler `luac` (Debian 12
# source package lua5.4, with Debian's patches), sourced by sim/programs/build.sh. Built as
# upstream's `make posix` builds them: every src/*.c, -DLUA_COMPAT_5_3 -DLUA_USE_POSIX (no
# dlopen or readline: static and simple), -O2, statically. One change for determinism:
# upstream seeds the string hash with time(NULL) and three addresses (lstate.c
# luai_makeseed), so hash tables would be laid out differently on every run; here the seed
# is the constant 0 (-Dluai_makeseed(L)=0u, the hook upstream provides for this).
# Debian's luaconf.h includes lua5.4-deb-multiarch.h, which debian/rules writes; so does this
# recipe (into the object folder), with DEB_HOST_MULTIARCH riscv64-linux-gnu.

PROG_PKG=lua5.4
PROG_OUTPUTS="lua-static luac-static"

# prog_build SRC OBJDIR BINDIR BUILDINFO (CC, JOBS from build.sh)
prog_build() {
	local src=$1 obj=$2 bin=$3 info=$4
	local core="lapi.c lcode.c lctype.c ldebug.c ldo.c ldump.c lfunc.c lgc.c llex.c lmem.c
		lobject.c lopcodes.c lparser.c lstate.c lstring.c ltable.c ltm.c lundump.c lvm.c lzio.c"
	local libs="lauxlib.c lbaselib.c lcorolib.c ldblib.c liolib.c lmathlib.c loadlib.c loslib.c
		lstrlib.c ltablib.c lutf8lib.c linit.c"
	local flags="-I$obj -O2 -DLUA_COMPAT_5_3 -DLUA_USE_POSIX -Dluai_makeseed(L)=0u
		-g -gdwarf-4 -ffile-prefix-map=$src=lua-5.4.4"
	local all f
	flags=$(echo $flags)
	all=$(for f in $core $libs lua.c luac.c; do echo "src/$f"; done)
	printf '#ifndef _LUA_DEB_MULTIARCH_\n#define _LUA_DEB_MULTIARCH_\n#define DEB_HOST_MULTIARCH "riscv64-linux-gnu"\n#endif\n' \
		>"$obj/lua5.4-deb-multiarch.h"
	cc_info "$info" "$src" CC "$CC"
	cc_info "$info" "$src" CFLAGS "$flags"
	cc_info "$info" "$src" "LDFLAGS lua-static luac-static" -static -lm
	cc_info "$info" "$src" sources $all
	# shellcheck disable=SC2086
	cc_all "$src" "$obj" "$flags" $all || return 1
	# shellcheck disable=SC2046,SC2086
	$CC -static -o "$bin/lua-static" $(cc_objs "$obj" $(for f in $core $libs lua.c; do echo "src/$f"; done)) -lm || return 1
	# shellcheck disable=SC2046,SC2086
	$CC -static -o "$bin/luac-static" $(cc_objs "$obj" $(for f in $core $libs luac.c; do echo "src/$f"; done)) -lm
}
