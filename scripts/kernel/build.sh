#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/kernel/build.sh - build the tiprof system-test kernel (riscv64 Image +
# modules tree for out-of-tree modules) from Debian's linux-source-6.1 tarball.
#
#   scripts/kernel/build.sh [-jN]
#
# Config: `tinyconfig` + scripts/kernel/tiprof.config, then olddefconfig; the
# build fails if an option of the fragment did not survive.
# Cache: build/kernel/<key>/ where key = hash(tarball + fragment + this
# script); a finished build (build/kernel/<key>/ok) is reused.
# build/kernel/current links to the latest good build; its obj/ is the KDIR
# for out-of-tree modules and obj/arch/riscv/boot/Image the kernel.
# Environment: CROSS_COMPILE (riscv64-linux-gnu-), KERNEL_TARBALL, BUILD.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$top/build}
CROSS_COMPILE=${CROSS_COMPILE:-riscv64-linux-gnu-}
KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
frag=$here/tiprof.config
jobs=-j$(nproc)
for a in "$@"; do
	case $a in
	-j*) jobs=$a ;;
	*) echo "usage: $0 [-jN]" >&2; exit 2 ;;
	esac
done

if [ ! -r "$KERNEL_TARBALL" ]; then
	echo "kernel: $KERNEL_TARBALL missing; install it with:" >&2
	echo "  sudo apt-get install -y linux-source-6.1" >&2
	exit 1
fi
for t in "${CROSS_COMPILE}gcc" flex bison bc cpio; do
	command -v "$t" >/dev/null || {
		echo "kernel: $t missing; install it with:" >&2
		echo "  sudo apt-get install -y gcc-riscv64-linux-gnu flex bison bc cpio libssl-dev libelf-dev" >&2
		exit 1
	}
done

# The tarball's identity is its size, mtime and Debian package version: cheap,
# and any new upload changes at least one of them.
ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo unknown)
tid=$(stat -c '%s %Y' "$KERNEL_TARBALL")
key=$( { echo "$ver $tid $CROSS_COMPILE"; cat "$frag" "$0"; } | sha256sum | cut -c1-12)
kdir=$BUILD/kernel/$key
obj=$kdir/obj
src=$BUILD/kernel/src-$ver

if [ -e "$kdir/ok" ]; then
	ln -sfn "$key" "$BUILD/kernel/current"
	echo "== kernel: cached build $kdir (linux-source $ver)"
	exit 0
fi

t0=$(date +%s)
if [ ! -e "$src/.tiprof-extracted" ]; then
	echo "== kernel: extracting $KERNEL_TARBALL into $src"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xf "$KERNEL_TARBALL" -C "$src.tmp" --strip-components=1
	mv "$src.tmp" "$src"
	touch "$src/.tiprof-extracted"
fi
t1=$(date +%s)

rm -rf "$kdir"
mkdir -p "$obj"
mk=(make -s -C "$src" O="$obj" ARCH=riscv CROSS_COMPILE="$CROSS_COMPILE")
echo "== kernel: configuring (tinyconfig + ${frag#"$top"/})"
"${mk[@]}" tinyconfig >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$frag" >/dev/null
"${mk[@]}" olddefconfig >/dev/null
missing=0
while IFS= read -r line; do
	case $line in CONFIG_*) ;; *) continue ;; esac
	if ! grep -qx -- "$line" "$obj/.config"; then
		echo "kernel: $line did not survive olddefconfig (got: $(grep "^${line%%=*}=" "$obj/.config" || echo unset))" >&2
		missing=1
	fi
done <"$frag"
[ $missing -eq 0 ] || exit 1

echo "== kernel: building Image and modules ($jobs) in $obj"
"${mk[@]}" "$jobs" Image modules
t2=$(date +%s)
# The vDSO must need no dynamic relocation: nothing relocates it, so one is a
# pointer left 0 that faults in user space (see CONFIG_JUMP_LABEL in the
# fragment; an undefined key referenced only from __jump_table is harmless).
vdso=$obj/arch/riscv/kernel/vdso/vdso.so
if "${CROSS_COMPILE}readelf" -r "$vdso" | grep -q 'R_RISCV'; then
	echo "kernel: $vdso needs dynamic relocations:" >&2
	"${CROSS_COMPILE}readelf" -r "$vdso" >&2
	exit 1
fi
touch "$kdir/ok"
ln -sfn "$key" "$BUILD/kernel/current"
echo "== kernel: built $obj/arch/riscv/boot/Image in $((t2 - t0)) s (extract $((t1 - t0)) s, build $((t2 - t1)) s)"
