#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/sim/fullsys/boot-linux.sh - boot Debian's OpenSBI fw_jump, the project's kernel and an
# initramfs on the full-system machine, until the UART prints UNTIL (default: the system
# tier's init's first line; empty: until the guest powers off, which must be with status 0)
# or LIMIT instructions. The device tree is the committed one with
# /chosen naming the initrd (tiprof-fs loads it at RAM + 64 MiB) and the system tier's
# kernel command line. Prints tiprof-fs's figures (instructions, seconds, MIPS).
#   tests/sim/fullsys/boot-linux.sh IMAGE INITRD
# Environment: FS, DTS (sim/fullsys/tiprof-fs.dts), OPENSBI, OUT, UNTIL, LIMIT, TIMEOUT,
# TIPROF_NODE=1 (add the system tier's "tiprof,tip-v1" node, commit width TIPROF_W (default 2)
# and FIFO depth TIPROF_FIFO (default 16): with no unit behind it the driver's fake-unit checks
# run; with FS_ARGS=--unit the Verilated unit answers, W=1 FIFO 64), FS_ARGS (more tiprof-fs
# options, e.g. --unit --unit-log FILE).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
image=${1:?usage: boot-linux.sh IMAGE INITRD} initrd=${2:?usage: boot-linux.sh IMAGE INITRD}
FS=${FS:-$top/build/fullsys/tiprof-fs} DTS=${DTS:-$top/sim/fullsys/tiprof-fs.dts}
OPENSBI=${OPENSBI:-/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin}
OUT=${OUT:-$top/build/fullsys/linux} UNTIL=${UNTIL-TIPROF-INIT start}
LIMIT=${LIMIT:-3000000000} TIMEOUT=${TIMEOUT:-600}
mkdir -p "$OUT"
start=0x84000000
end=$(printf '0x%x' $((start + $(stat -c %s "$initrd"))))
sed -e "s|bootargs = \"[^\"]*\";|bootargs = \"console=ttyS0 earlycon=sbi panic=-1 oops=panic\";\n\t\tlinux,initrd-start = <0x0 $start>;\n\t\tlinux,initrd-end = <0x0 $end>;|" \
	"$DTS" >"$OUT/linux.dts"
if [ "${TIPROF_NODE:-0}" = 1 ]; then
	sed -i '$d' "$OUT/linux.dts"
	cat >>"$OUT/linux.dts" <<EOF2

	tiprof {
		compatible = "tiprof,tip-v1";
		tiprof,local-interrupt = <16>;
		tiprof,commit-width = <${TIPROF_W:-2}>;
		tiprof,xlen = <64>;
		tiprof,fifo-depth = <${TIPROF_FIFO:-16}>;
	};
};
EOF2
fi
dtc -q -I dts -O dtb -o "$OUT/linux.dtb" "$OUT/linux.dts"
set +e
# shellcheck disable=SC2086
timeout "$TIMEOUT" "$FS" ${FS_ARGS:-} --stats --bios "$OPENSBI" --kernel "$image" --initrd "$initrd" \
	--dtb "$OUT/linux.dtb" ${UNTIL:+--until "$UNTIL"} --max-insns "$LIMIT" \
	>"$OUT/console.txt" 2>"$OUT/stats.txt"
rc=$?
set -e
cat "$OUT/stats.txt"
if [ -z "$UNTIL" ]; then
	[ $rc -eq 0 ] || { echo "boot-linux: status $rc, not a power-off; last lines of $OUT/console.txt:" >&2; tail -n 15 "$OUT/console.txt" >&2; exit 1; }
	echo "boot-linux: powered off; console in $OUT/console.txt"
	exit 0
fi
grep -qF "$UNTIL" "$OUT/console.txt" || { echo "boot-linux: '$UNTIL' not printed (status $rc); last lines of $OUT/console.txt:" >&2; tail -n 15 "$OUT/console.txt" >&2; exit 1; }
echo "boot-linux: '$UNTIL' printed; console in $OUT/console.txt"
