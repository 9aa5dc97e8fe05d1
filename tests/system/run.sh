#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/system/run.sh - the system test tier: boot the tiprof kernel under
# qemu-system-riscv64 (virt, rv64 + sscofpmf, Debian's OpenSBI fw_jump) with an
# initramfs of our own static init (tests/system/init.c) and the driver module,
# on the virt device tree plus a "tiprof,tip-v1" node (no unit behind it).
# The init prints `TIPROF-CHECK <name> PASS|FAIL|SKIP <detail>` lines; this
# script fails on any FAIL or SKIP, a missing result, a kernel oops/panic/
# WARNING, or a hang (time limit TIMEOUT, default 180 s). The init also runs
# the riscv64 software branch tracer (sw/lbr/) on test programs and dumps the
# records to the console; check_lbr_rv.py checks them here against riscv64
# objdump and a qemu-riscv64 exact trace (`TIPROF-HOST` lines), and must
# reject two mutated copies.
#
#   tests/system/run.sh            build what is missing, boot, check
# Environment: BUILD, CROSS_COMPILE, QEMU, QEMU_USER, OPENSBI, TIMEOUT, JOBS, MAKE,
# LBR_RV (the directory of the riscv64 tiprof - help, version, dump, record, lbr - and
# libtiprof-lbr.so; `make lbr-riscv64` here if unset), RV_SYSROOT (riscv64 loader and libc,
# /usr/riscv64-linux-gnu).
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
need "${CROSS_COMPILE}objdump" binutils-riscv64-linux-gnu
need "${QEMU_USER:=qemu-riscv64}" qemu-user
need python3 python3
need go golang-go
[ -d /usr/share/gocode/src/mvdan.cc/sh/v3/interp ] || {
	echo "system: the shell interpreter's sources are missing: sudo apt-get install -y golang-mvdan-sh-dev" >&2
	exit 1
}
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
"${CROSS_COMPILE}gcc" -static -O2 -Wall -Wextra -Werror -I"$top/include" -I"$top/driver" -I"$top/driver/hw" -o "$out/init" "$here/init.c"
# tiprof and the software branch tracer's library for riscv64 (sw/lbr/lbr.mk; built by
# `make test-system`, else here) and dynamically linked, non-PIE riscv64 test programs (fixed addresses for the
# host-side objdump check), with the loader and libc they need from Debian's cross packages.
if [ -z "${LBR_RV:-}" ]; then
	LBR_RV=$BUILD/lbr-riscv64
	"$MAKE" --no-print-directory -s -C "$top" BUILD="$BUILD" CROSS_COMPILE="$CROSS_COMPILE" \
		lbr-riscv64
fi
RV_SYSROOT=${RV_SYSROOT:-/usr/riscv64-linux-gnu}
rv_loader=$RV_SYSROOT/lib/ld-linux-riscv64-lp64d.so.1
rv_libc=$RV_SYSROOT/lib/libc.so.6
for f in "$LBR_RV/libtiprof-lbr.so" "$LBR_RV/tiprof" "$rv_loader" "$rv_libc"; do
	[ -r "$f" ] || { echo "system: $f missing (make lbr-riscv64; sudo apt-get install -y libc6-riscv64-cross)" >&2; exit 1; }
done
# copies: the guest and the host-side check must see the same build of the tracer
cp "$LBR_RV/libtiprof-lbr.so" "$LBR_RV/tiprof" "$out/"
LBR_RV=$out
# the programs of init.c's lbr_progs[], -O1 -g like the x86-64 ones; -z now: no lazy binding
# through the PLT header, which objdump shows as data
lbr_progs="lbr_loops lbr_indirect lbr_recurse lbr_signal lbr_threads"
for p in $lbr_progs; do
	echo "  RVCC    $out/$p (dynamic, no PIE, -z now)"
	"${CROSS_COMPILE}gcc" -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g -no-pie \
		-Wl,-z,now -o "$out/$p" "$top/tests/sw/lbr/$p.c"
done
# every DT_NEEDED must be in the initramfs (libc only, since glibc 2.34)
for f in "$LBR_RV/libtiprof-lbr.so" $(printf "$out/%s " $lbr_progs); do
	needed=$("${CROSS_COMPILE}readelf" -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u)
	[ "$needed" = libc.so.6 ] || { echo "system: $f needs $needed; only libc.so.6 is in the initramfs" >&2; exit 1; }
done
# /bin/sh for fpga/bringup.sh (no busybox: Debian 12 has no riscv64 binaries): a POSIX
# shell interpreter on Debian's mvdan.cc/sh, static riscv64 Go; and the bring-up
# self-test's known loop (fpga/hotloop.c)
echo "  GO      $out/sh (riscv64, mvdan.cc/sh interpreter)"
GOPATH=/usr/share/gocode GO111MODULE=off GOFLAGS= GOOS=linux GOARCH=riscv64 CGO_ENABLED=0 \
	GOCACHE="$BUILD/gocache" go build -trimpath -o "$out/sh" "$here/sh/main.go"
echo "  RVCC    $out/tiprof-hotloop (static)"
"${CROSS_COMPILE}gcc" -O2 -static -Wall -Wextra -Werror -o "$out/tiprof-hotloop" "$top/fpga/hotloop.c"
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
dir /tmp 1777 0 0
file /lib/ld-linux-riscv64-lp64d.so.1 $rv_loader 0755 0 0
dir /lib/riscv64-linux-gnu 0755 0 0
file /lib/riscv64-linux-gnu/libc.so.6 $rv_libc 0755 0 0
file /bin/tiprof $LBR_RV/tiprof 0755 0 0
file /bin/libtiprof-lbr.so $LBR_RV/libtiprof-lbr.so 0755 0 0
file /bin/sh $out/sh 0755 0 0
file /bin/bringup.sh $top/fpga/bringup.sh 0755 0 0
file /bin/tiprof-hotloop $out/tiprof-hotloop 0755 0 0
EOF
for p in $lbr_progs; do
	echo "file /bin/$p $out/$p 0755 0 0" >>"$out/initramfs.list"
done
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
# 5. the software branch tracer's records (check lbr_rv_records dumped them to the console):
# every {from,to} against riscv64 objdump, and the stacks inside the executable against an
# exact trace of the same program (qemu-riscv64 user mode, one instruction per block). The
# checker must also reject two mutated copies of lbr_loops' records.
if grep -q '^TIPROF-CHECK lbr_rv_records PASS' "$out/console.txt"; then
	for p in $lbr_progs; do
		"$QEMU_USER" -L "$RV_SYSROOT" -singlestep -d nochain,exec -D "$out/$p.exact" \
			"$out/$p" 2 >/dev/null || true
		args=("$out/console.txt" "$out/$p" --prog "$p" --exact "$out/$p.exact"
		      --objdump "${CROSS_COMPILE}objdump" --readelf "${CROSS_COMPILE}readelf"
		      --obj "/lib/riscv64-linux-gnu/libc.so.6=$rv_libc"
		      --obj "/lib/ld-linux-riscv64-lp64d.so.1=$rv_loader"
		      --obj "/bin/libtiprof-lbr.so=$LBR_RV/libtiprof-lbr.so")
		# lbr_signal's stacks nearly all pass through libc (raise): few (0-3) lie wholly in
		# the executable, where the exact trace applies
		[ "$p" = lbr_signal ] && args+=(--min-exact 0)
		# 16 threads + main: all 17 traced; every stack against its own thread's exact trace
		# (qemu's per-thread CPU index); int3 in a threaded program gives few stacks per
		# thread (foreign traps, library stops end them: 1-9 per worker), so >= 12 workers
		[ "$p" = lbr_threads ] && args+=(--threads 17 --exact-threads 12)
		if res=$(python3 "$here/check_lbr_rv.py" "${args[@]}" 2>&1); then
			echo "TIPROF-HOST lbr_rv_check_$p PASS $res"
		else
			echo "TIPROF-HOST lbr_rv_check_$p FAIL"
			echo "$res" | sed 's/^/  /'
			fail=1
		fi
		# the same records (CTR layout) rebuilt from the dump, through the host's tiprof lbr
		# perf and perf script -F brstack (tests/sw/lbr/ctr_perf.py, docs/lbr.md 9)
		if res=$(python3 "$top/tests/sw/lbr/ctr_perf.py" "$out/console.txt" "$p" \
		         "$BUILD/bin/tiprof" "$out/ctr" 2>&1); then
			echo "TIPROF-HOST lbr_rv_perf_$p PASS $res"
		else
			echo "TIPROF-HOST lbr_rv_perf_$p FAIL"
			echo "$res" | sed 's/^/  /'
			fail=1
		fi
		[ "$p" = lbr_loops ] || continue
		for m in off-by-2 swap; do
			# rejected with a FAIL line (not a crash of the checker)
			res=$(python3 "$here/check_lbr_rv.py" "${args[@]}" --mutate $m 2>&1) || true
			if grep -q '^FAIL ' <<<"$res"; then
				echo "TIPROF-HOST lbr_rv_check_${p}_mutated_$m PASS rejected"
			else
				echo "TIPROF-HOST lbr_rv_check_${p}_mutated_$m FAIL: not rejected"
				fail=1
			fi
		done
	done
fi
printf '== system: boot to results %.1f s (qemu exit %d)\n' "$(echo "$t1 - $t0" | bc)" $rc
[ $fail -eq 0 ] || exit 1
echo "== system: all checks passed"
