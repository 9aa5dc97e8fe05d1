#!/usr/bin/env bash
# tests/system/run.sh - the system test tier: boot the tiprof kernel under
# qemu-system-riscv64 (virt, rv64 + sscofpmf, Debian's OpenSBI fw_jump) with an
# initramfs of our own static init (tests/system/init.c) and the driver module,
# on the virt device tree plus a "tiprof,tip-v1" node (no unit behind it).
# The init prints `TIPROF-CHECK <name> PASS|FAIL|SKIP <detail>` lines; this
# script fails on any FAIL or SKIP, a missing result, a kernel oops/panic/
# WARNING, or a hang (time limit TIMEOUT, default 180 s).
#
#   tests/system/run.sh            build what is missing, boot, check
# Environment: BUILD, CROSS_COMPILE, QEMU, OPENSBI, TIMEOUT, JOBS, MAKE,
# TIPROF_RECORD (the static riscv64 tiprof-record; built here if unset).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$top/build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
CROSS_COMPILE=${CROSS_COMPILE:-riscv64-linux-gnu-}
QEMU=${QEMU:-qemu-system-riscv64}
OPENSBI=${OPENSBI:-/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin}
TIMEOUT=${TIMEOUT:-180}
JOBS=${JOBS:-$(nproc)}
MAKE=${MAKE:-make}
out=$BUILD/system
mkdir -p "$out"

need() {
	command -v "$1" >/dev/null || {
		echo "system: $1 missing; install it with: sudo apt-get install -y $2" >&2
		exit 1
	}
}
need "$QEMU" qemu-system-misc
need dtc device-tree-compiler
need "${CROSS_COMPILE}gcc" gcc-riscv64-linux-gnu
[ -r "$OPENSBI" ] || { echo "system: $OPENSBI missing: sudo apt-get install -y opensbi" >&2; exit 1; }

# 1. kernel (cached), module, init, initramfs
BUILD=$BUILD "$top/scripts/kernel/build.sh" "-j$JOBS"
kobj=$BUILD/kernel/current/obj
ksrc=$(readlink -f "$kobj/source")
image=$kobj/arch/riscv/boot/Image
echo "  KBUILD  $BUILD/driver/tiprof_pmu.ko (W=1, -Werror)"
"$MAKE" --no-print-directory -s -C "$top/driver" KDIR="$kobj" OUT="$BUILD/driver" \
	CROSS_COMPILE="$CROSS_COMPILE" W=1 KCFLAGS=-Werror
echo "  CC      $out/init"
"${CROSS_COMPILE}gcc" -static -O2 -Wall -Wextra -Werror -I"$top/include" -o "$out/init" "$here/init.c"
# `tiprof record` for the guest: built by `make test-system` (sw/sw.mk), else here
if [ -z "${TIPROF_RECORD:-}" ]; then
	TIPROF_RECORD=$out/tiprof-record
	echo "  CC      $TIPROF_RECORD"
	"${CROSS_COMPILE}gcc" -static -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -O2 \
		-Wall -Wextra -Werror -I"$top/include" -I"$top/sw" -DTIPROF_RECORD_MAIN \
		-o "$TIPROF_RECORD" "$top/sw/cmd-record.c" "$top/sw/lib/perf_aux.c" \
		"$top/sw/lib/sample_file.c"
fi
echo "  HOSTCC  $out/gen_init_cpio"
gcc -O2 -o "$out/gen_init_cpio" "$ksrc/usr/gen_init_cpio.c"
cat >"$out/initramfs.list" <<EOF
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
dir /lib 0755 0 0
dir /lib/modules 0755 0 0
file /init $out/init 0755 0 0
file /lib/modules/tiprof_pmu.ko $BUILD/driver/tiprof_pmu.ko 0644 0 0
dir /bin 0755 0 0
file /bin/tiprof-record $TIPROF_RECORD 0755 0 0
EOF
echo "  CPIO    $out/initramfs.cpio"
"$out/gen_init_cpio" "$out/initramfs.list" >"$out/initramfs.cpio"

# 2. device tree: QEMU's own for this machine, plus the TIP node. The unit's
# interrupt is local interrupt 16 of each hart (the first platform-defined
# one); nothing raises it here, as no unit answers.
qemu=("$QEMU" -machine virt -cpu rv64,sscofpmf=on -smp 2 -m 256M -nographic
      -bios "$OPENSBI" -kernel "$image" -initrd "$out/initramfs.cpio"
      -append "console=ttyS0 earlycon=sbi panic=-1 oops=panic")
"${qemu[@]}" -machine dumpdtb="$out/virt.dtb" >/dev/null 2>&1
dtc -q -I dtb -O dts -o "$out/virt.dts" "$out/virt.dtb"
sed '$d' "$out/virt.dts" >"$out/tiprof-virt.dts"
cat >>"$out/tiprof-virt.dts" <<EOF

	tiprof {
		compatible = "tiprof,tip-v1";
		tiprof,local-interrupt = <16>;
		tiprof,commit-width = <2>;
		tiprof,xlen = <64>;
		tiprof,fifo-depth = <16>;
	};
};
EOF
dtc -q -I dts -O dtb -o "$out/tiprof-virt.dtb" "$out/tiprof-virt.dts"

# 3. boot
echo "== system: booting ($QEMU, time limit ${TIMEOUT} s), console in $out/console.log"
t0=$(date +%s.%N)
set +e
timeout --foreground -k 5 "$TIMEOUT" "${qemu[@]}" -dtb "$out/tiprof-virt.dtb" -no-reboot \
	</dev/null >"$out/console.log" 2>&1
rc=$?
set -e
t1=$(date +%s.%N)
tr -d '\r' <"$out/console.log" >"$out/console.txt"

# 4. verdict
fail=0
grep -E '^TIPROF-(CHECK|DONE|INIT)' "$out/console.txt" || true
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	echo "system: FAIL: no power-off within ${TIMEOUT} s (hang); last lines:" >&2
	tail -20 "$out/console.txt" >&2
	fail=1
fi
if grep -nE 'Oops|Kernel panic|kernel BUG|BUG:|WARNING:|Unable to handle|Call Trace' \
	"$out/console.txt" >&2; then
	echo "system: FAIL: the kernel reported a problem (above; full log $out/console.txt)" >&2
	fail=1
fi
want=$(sed -n 's/^TIPROF-INIT start \([0-9]*\) checks$/\1/p' "$out/console.txt")
got=$(grep -c '^TIPROF-CHECK ' "$out/console.txt" || true)
if [ -z "$want" ]; then
	echo "system: FAIL: init never started (see $out/console.txt)" >&2
	fail=1
elif [ "$got" -ne "$want" ]; then
	echo "system: FAIL: $got of $want check results" >&2
	fail=1
fi
if ! grep -q '^TIPROF-DONE ' "$out/console.txt"; then
	echo "system: FAIL: no TIPROF-DONE line" >&2
	fail=1
fi
if grep -qE '^TIPROF-CHECK [^ ]+ (FAIL|SKIP)' "$out/console.txt"; then
	echo "system: FAIL: failed or skipped checks above" >&2
	fail=1
fi
printf '== system: boot to results %.1f s (qemu exit %d)\n' "$(echo "$t1 - $t0" | bc)" $rc
[ $fail -eq 0 ] || exit 1
echo "== system: all checks passed"
