#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/sim/fullsys/bringup.sh - the FPGA bring-up script, fpga/bringup.sh, unchanged, on the
# simulated board (make test-fullsys-bringup, docs/fullsys.md, docs/fpga.md): OpenSBI + the
# system tier's kernel on tiprof-fs --unit (the Verilated TIP unit, W=1 XLEN=64 FIFO 16, the C
# model in lockstep) with an initramfs of bringup_init.c (PID 1, and insmod/rmmod/dmesg), the
# real driver, the riscv64 tiprof, fpga/hotloop.c (static), fpga/bringup.sh and /bin/sh (the
# system tier's Go POSIX shell, tests/system/sh, built as tests/system/run.sh builds it). The
# init runs the script and powers off; bringup_check.py then checks the console: a PASS line
# for every step, hot_loop and irq_rate included (they SKIP on the system tier's stand-in).
# Environment: FS, OUT, KIMAGE, CROSS_COMPILE, OPENSBI, LBR_RV (the directory of the riscv64
# tiprof), MAKE, BUILD (GOCACHE in BUILD/gocache), TIMEOUT (default 1500 s).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
FS=${FS:?} OUT=${OUT:?} LBR_RV=${LBR_RV:?}
KIMAGE=${KIMAGE:-$top/build/kernel/current/obj/arch/riscv/boot/Image}
CROSS_COMPILE=${CROSS_COMPILE:-riscv64-linux-gnu-}
MAKE=${MAKE:-make} TIMEOUT=${TIMEOUT:-1500} BUILD=${BUILD:-$top/build}
kobj=$(cd "$(dirname "$KIMAGE")/../../.." 2>/dev/null && pwd) || kobj=
if [ ! -r "$KIMAGE" ] || [ ! -r "$kobj/source/usr/gen_init_cpio.c" ]; then
	echo "fullsys-bringup: FAIL: no kernel at $KIMAGE (make test-system builds and caches it)" >&2
	exit 1
fi
[ -d /usr/share/gocode/src/mvdan.cc/sh/v3/interp ] || {
	echo "fullsys-bringup: FAIL: the shell interpreter's sources are missing: sudo apt-get install -y golang-mvdan-sh-dev" >&2
	exit 1
}
mkdir -p "$OUT" "$BUILD"
OUT=$(cd "$OUT" && pwd) BUILD=$(cd "$BUILD" && pwd)
echo "  KBUILD  $OUT/driver/tiprof_pmu.ko"
"$MAKE" --no-print-directory -s -C "$top/driver" KDIR="$kobj" OUT="$OUT/driver" \
	CROSS_COMPILE="$CROSS_COMPILE" W=1 KCFLAGS=-Werror
echo "  RVCC    $OUT/init"
"${CROSS_COMPILE}gcc" -static -O2 -Wall -Wextra -Werror -o "$OUT/init" "$here/bringup_init.c"
echo "  GO      $OUT/sh (riscv64, mvdan.cc/sh interpreter)"
GOPATH=/usr/share/gocode GO111MODULE=off GOFLAGS='' GOOS=linux GOARCH=riscv64 CGO_ENABLED=0 \
	GOCACHE="$BUILD/gocache" go build -trimpath -o "$OUT/sh" "$top/tests/system/sh/main.go"
echo "  RVCC    $OUT/tiprof-hotloop (static)"
"${CROSS_COMPILE}gcc" -O2 -static -Wall -Wextra -Werror -o "$OUT/tiprof-hotloop" "$top/fpga/hotloop.c"
gcc -O2 -o "$OUT/gen_init_cpio" "$kobj/source/usr/gen_init_cpio.c"
cat >"$OUT/initramfs.list" <<EOF2
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
dir /bin 0755 0 0
dir /tmp 1777 0 0
dir /lib 0755 0 0
dir /lib/modules 0755 0 0
file /init $OUT/init 0755 0 0
file /lib/modules/tiprof_pmu.ko $OUT/driver/tiprof_pmu.ko 0644 0 0
file /bin/tiprof $LBR_RV/tiprof 0755 0 0
file /bin/sh $OUT/sh 0755 0 0
file /bin/bringup.sh $top/fpga/bringup.sh 0755 0 0
file /bin/tiprof-hotloop $OUT/tiprof-hotloop 0755 0 0
EOF2
"$OUT/gen_init_cpio" "$OUT/initramfs.list" >"$OUT/initramfs.cpio"

echo "== fullsys-bringup: fpga/bringup.sh on tiprof-fs --unit (time limit ${TIMEOUT} s), console in $OUT/console.txt"
t0=$(date +%s)
set +e
export OUT FS
UNTIL='' LIMIT=3000000000 TIMEOUT=$TIMEOUT TIPROF_NODE=1 TIPROF_W=1 TIPROF_FIFO=16 \
	FS_ARGS="--unit" "$here/boot-linux.sh" "$KIMAGE" "$OUT/initramfs.cpio" >"$OUT/boot.txt" 2>&1
rc=$?
set -e
t1=$(date +%s)
tr -d '\r' <"$OUT/console.txt" | grep -E '^(bringup: |TIPROF-FS-BRINGUP)' || true
grep -E '^tiprof-fs: ' "$OUT/boot.txt" || true
echo "fullsys-bringup: boot + script + power-off $((t1 - t0)) s wall"
fail=0
if [ $rc -ne 0 ]; then
	echo "fullsys-bringup: FAIL: the machine did not power off cleanly (see $OUT/boot.txt):" >&2
	tail -n 8 "$OUT/boot.txt" >&2
	fail=1
fi
# the host side: the script's lines (tiprof_hot's address from the host's nm of the same
# binary), and five damaged copies of the console rejected
hot=$("${CROSS_COMPILE}nm" "$OUT/tiprof-hotloop" | awk '$3 == "tiprof_hot" { print $1 }')
args=("$OUT/console.txt" --hot "0x$hot")
if res=$(python3 "$here/bringup_check.py" "${args[@]}" 2>&1); then
	echo "fullsys-bringup: host check $res"
else
	echo "fullsys-bringup: host check FAIL:"
	while IFS= read -r l; do echo "  $l"; done <<<"$res"
	fail=1
fi
if [ $fail -eq 0 ]; then
	for m in skip-hot no-irq exit wrong-hot flat; do
		res=$(python3 "$here/bringup_check.py" "${args[@]}" --mutate $m 2>&1) || true
		if grep -q '^FAIL ' <<<"$res"; then
			echo "fullsys-bringup: host check rejects the mutation $m: $res"
		else
			echo "fullsys-bringup: FAIL: the host check accepted the mutation $m: $res"
			fail=1
		fi
	done
fi
[ $fail -eq 0 ] && echo "fullsys-bringup: passed"
exit $fail
