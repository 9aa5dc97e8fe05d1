#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/sim/fullsys/unit.sh - the real driver on the real unit (make test-fullsys-unit,
# docs/fullsys.md): OpenSBI + the system tier's kernel boot on tiprof-fs --unit (the Verilated
# TIP unit behind the hart's CSRs, W=1 XLEN=64 FIFO 16, the C model in lockstep every cycle)
# with an initramfs of unit_init.c, the driver module (built here against the same kernel)
# and the riscv64 tiprof. The init probes, checks sysfs, runs `tiprof record` twice, prints
# the sample files in base64 and unloads the module (TIPROF-FS-UNIT lines). Then, on the host,
# check_unit.py compares the files with the samples the C model gave up to the driver's POPs
# (tiprof-fs --unit-log): sample for sample, and the lost counts with the model's; it must
# also reject two mutated copies.
# Environment: FS, OUT, KIMAGE, CROSS_COMPILE, OPENSBI, TIPROF (the host tiprof), LBR_RV (the
# directory of the riscv64 tiprof), MAKE, TIMEOUT (default 900 s).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
FS=${FS:?} OUT=${OUT:?} TIPROF=${TIPROF:?} LBR_RV=${LBR_RV:?}
KIMAGE=${KIMAGE:-$top/build/kernel/current/obj/arch/riscv/boot/Image}
CROSS_COMPILE=${CROSS_COMPILE:-riscv64-linux-gnu-}
MAKE=${MAKE:-make} TIMEOUT=${TIMEOUT:-900}
kobj=$(cd "$(dirname "$KIMAGE")/../../.." 2>/dev/null && pwd) || kobj=
if [ ! -r "$KIMAGE" ] || [ ! -r "$kobj/source/usr/gen_init_cpio.c" ]; then
	echo "fullsys-unit: FAIL: no kernel at $KIMAGE (make test-system builds and caches it)" >&2
	exit 1
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
echo "  KBUILD  $OUT/driver/tiprof_pmu.ko"
"$MAKE" --no-print-directory -s -C "$top/driver" KDIR="$kobj" OUT="$OUT/driver" \
	CROSS_COMPILE="$CROSS_COMPILE" W=1 KCFLAGS=-Werror
echo "  RVCC    $OUT/init"
"${CROSS_COMPILE}gcc" -static -O2 -Wall -Wextra -Werror -I"$top/include" -o "$OUT/init" \
	"$here/unit_init.c"
gcc -O2 -o "$OUT/gen_init_cpio" "$kobj/source/usr/gen_init_cpio.c"
cat >"$OUT/initramfs.list" <<EOF
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
dir /bin 0755 0 0
dir /lib 0755 0 0
dir /lib/modules 0755 0 0
file /init $OUT/init 0755 0 0
file /lib/modules/tiprof_pmu.ko $OUT/driver/tiprof_pmu.ko 0644 0 0
file /bin/tiprof $LBR_RV/tiprof 0755 0 0
EOF
"$OUT/gen_init_cpio" "$OUT/initramfs.list" >"$OUT/initramfs.cpio"

echo "== fullsys-unit: OpenSBI + Linux + the driver on tiprof-fs --unit (time limit ${TIMEOUT} s), console in $OUT/console.txt"
rm -f "$OUT/model.log" "$OUT/unit.vcd"
set +e
OUT=$OUT FS=$FS UNTIL= LIMIT=2000000000 TIMEOUT=$TIMEOUT TIPROF_NODE=1 TIPROF_W=1 TIPROF_FIFO=16 \
	FS_ARGS="--unit --unit-log $OUT/model.log --unit-vcd $OUT/unit.vcd" \
	"$here/boot-linux.sh" "$KIMAGE" "$OUT/initramfs.cpio" >"$OUT/boot.txt" 2>&1
rc=$?
set -e
grep -E '^TIPROF-FS-UNIT ' "$OUT/console.txt" || true
grep -E '^tiprof-fs: ' "$OUT/boot.txt" || true
fail=0
if [ $rc -ne 0 ]; then
	echo "fullsys-unit: FAIL: the machine did not power off cleanly (see $OUT/boot.txt):" >&2
	tail -n 8 "$OUT/boot.txt" >&2
	fail=1
fi
if grep -nE 'Oops|Kernel panic|kernel BUG|BUG:|WARNING:|Unable to handle|Call Trace' \
	"$OUT/console.txt" >&2; then
	echo "fullsys-unit: FAIL: the kernel reported a problem (above)" >&2
	fail=1
fi
done_line=$(tr -d '\r' <"$OUT/console.txt" | grep -E '^TIPROF-FS-UNIT-DONE ' || true)
if [ "$done_line" != "TIPROF-FS-UNIT-DONE pass=8 fail=0" ]; then
	echo "fullsys-unit: FAIL: want 'TIPROF-FS-UNIT-DONE pass=8 fail=0', got '$done_line'" >&2
	fail=1
fi
# the host side: the guest's files against the model's samples, and two mutations rejected
args=("$OUT/console.txt" "$OUT/model.log" --tiprof "$TIPROF" --nm "${CROSS_COMPILE}nm"
      --init "$OUT/init" --out "$OUT")
if [ $fail -eq 0 ]; then
	if res=$(python3 "$here/check_unit.py" "${args[@]}" 2>&1); then
		echo "fullsys-unit: host check PASS: $res"
	else
		echo "fullsys-unit: host check FAIL:"
		echo "$res" | sed 's/^/  /'
		fail=1
	fi
	for m in drop-sample change-address lost; do
		res=$(python3 "$here/check_unit.py" "${args[@]}" --mutate $m 2>&1) || true
		if grep -q '^FAIL ' <<<"$res"; then
			echo "fullsys-unit: host check rejects the mutation $m: $(grep -m1 '^FAIL ' <<<"$res")"
		else
			echo "fullsys-unit: FAIL: the host check accepted the mutation $m: $res"
			fail=1
		fi
	done
fi
[ $fail -eq 0 ] && echo "fullsys-unit: passed"
exit $fail
