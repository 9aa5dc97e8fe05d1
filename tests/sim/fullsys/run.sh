#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/sim/fullsys/run.sh - the full-system machine's tier (make test-fullsys).
# 1. Every bare-metal program (bm_*.elf) runs on tiprof-fs and on qemu-system-riscv64
#    (-machine virt -bios none): both must power off through the test device with status 0
#    and print the same UART text (or the committed .expect, for what QEMU cannot run:
#    bm_unit runs with the TIP unit, tiprof-fs --unit).
# 2. Debian's OpenSBI fw_jump boots on tiprof-fs with the committed device tree: its banner
#    (platform name, ISA, domain, boot hart's MEDELEG/MIDELEG) is printed and it reaches the
#    payload address 0x80200000 in S-mode.
# 3. When the system tier's kernel is built (KIMAGE, cached by scripts/kernel/build.sh; this
#    tier does not build it), OpenSBI + the kernel + an initramfs with init.c boot to user
#    space, print the hart as the kernel sees it and power off: status 0.
# Environment: FS (tiprof-fs), DTB, QEMU, OPENSBI, OUT (scratch directory), KIMAGE,
# CROSS_COMPILE.
set -euo pipefail
FS=${FS:?} DTB=${DTB:?} QEMU=${QEMU:-qemu-system-riscv64} OUT=${OUT:?}
OPENSBI=${OPENSBI:-/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin}
fail=0 n=0
# QEMU's hart as close to tiprof-fs's as QEMU 7.2 allows (it has no option to drop Sv48/Sv57)
QCPU=rv64,h=false,sstc=false,sscofpmf=on
mkdir -p "$OUT/run"
command -v "$QEMU" >/dev/null || { echo "fullsys: $QEMU missing: sudo apt-get install -y qemu-system-misc" >&2; exit 1; }

for elf in "$@"; do
	p=$(basename "$elf" .elf)
	ours=$OUT/run/$p.fs.txt theirs=$OUT/run/$p.qemu.txt
	set +e
	# bm_unit*: the TIP unit behind the CSRs (tiprof-fs --unit; QEMU has none: .expect)
	uflag=; case $p in bm_unit*) uflag=--unit ;; esac
	timeout 20 "$FS" $uflag --max-insns 50000000 --elf "$elf" >"$ours" 2>"$OUT/run/$p.fs.err"
	rc1=$?
	set -e
	# a program QEMU 7.2 cannot judge (its .S says why) has a committed expected output
	expect=$(dirname "$0")/$p.expect
	if [ -r "$expect" ]; then
		n=$((n + 1))
		if [ $rc1 -eq 0 ] && diff -u "$expect" "$ours" >"$OUT/run/$p.diff"; then
			echo "fullsys: $p: $(wc -l <"$ours") lines = $p.expect"
		else
			echo "fullsys: FAIL $p: exit status $rc1, output (+) differs from $expect (-):"
			head -40 "$OUT/run/$p.diff"
			fail=1
		fi
		cp "$expect" "$theirs"	# what mutants.sh compares against
		continue
	fi
	set +e
	timeout 30 "$QEMU" -machine virt -cpu "$QCPU" -smp 1 -m 128M -bios none -kernel "$elf" -nographic \
		-monitor none -serial stdio </dev/null 2>"$OUT/run/$p.qemu.err" | tr -d '\r' >"$theirs"
	rc2=${PIPESTATUS[0]}
	set -e
	n=$((n + 1))
	if [ $rc1 -ne 0 ] || [ $rc2 -ne 0 ]; then
		echo "fullsys: FAIL $p: exit status tiprof-fs $rc1, qemu $rc2"
		cat "$OUT/run/$p.fs.err" >&2
		fail=1
	elif ! diff -u "$theirs" "$ours" >"$OUT/run/$p.diff"; then
		echo "fullsys: FAIL $p: UART output differs from qemu-system-riscv64's (- qemu, + tiprof-fs):"
		head -40 "$OUT/run/$p.diff"
		fail=1
	else
		echo "fullsys: $p: $(wc -l <"$ours") lines = qemu-system-riscv64's"
	fi
done

# OpenSBI fw_jump up to the payload (no kernel: stop when the pc reaches 0x80200000)
if [ -r "$OPENSBI" ]; then
	log=$OUT/run/opensbi.txt
	set +e
	timeout 60 "$FS" --stats --bios "$OPENSBI" --dtb "$DTB" --stop-pc 0x80200000 \
		--max-insns 100000000 >"$log" 2>"$OUT/run/opensbi.err"
	rc=$?
	set -e
	n=$((n + 1))
	missing=
	for want in "OpenSBI v" "Platform Name             : tiprof full-system machine" \
		"Platform HART Count       : 1" "Boot HART Base ISA        : rv64imafdc" \
		"Boot HART MIDELEG         : 0x0000000000002222" \
		"Boot HART ISA Extensions  : sscofpmf,time" "Boot HART MHPM Count      : 16" \
		"Domain0 Next Address      : 0x0000000080200000" \
		"Domain0 Next Mode         : S-mode"; do
		grep -qF "$want" "$log" || missing="$missing [$want]"
	done
	# the same firmware and device tree on QEMU, its hart trimmed to ours (no H, no Sstc,
	# no HPM counters): the same banner, byte for byte
	set +e
	timeout 5 "$QEMU" -machine virt -cpu "$QCPU" -smp 1 -m 128M -bios "$OPENSBI" -dtb "$DTB" \
		-nographic -monitor none -serial stdio </dev/null 2>/dev/null | tr -d '\r' >"$log.qemu"
	set -e
	if ! tr -d '\r' <"$log" | diff -u "$log.qemu" - >"$log.diff"; then
		missing="$missing [the banner differs from qemu-system-riscv64's, see $log.diff]"
	fi
	if [ $rc -ne 3 ] || ! grep -q "stop pc reached.*S mode" "$OUT/run/opensbi.err" || [ -n "$missing" ]; then
		echo "fullsys: FAIL opensbi: status $rc (want 3: stopped at the payload), missing:$missing"
		tail -n 5 "$log" "$OUT/run/opensbi.err" >&2
		fail=1
	else
		echo "fullsys: opensbi: banner = qemu-system-riscv64's, payload reached: $(sed -n '1s/^tiprof-fs: //p' "$OUT/run/opensbi.err")"
	fi
else
	echo "fullsys: FAIL: $OPENSBI missing: sudo apt-get install -y opensbi"
	fail=1
fi
# Linux to user space and power-off
top=$(cd "$(dirname "$0")/../../.." && pwd)
KIMAGE=${KIMAGE:-$top/build/kernel/current/obj/arch/riscv/boot/Image}
CROSS_COMPILE=${CROSS_COMPILE:-riscv64-linux-gnu-}
# The same boot on QEMU (same firmware, kernel, initramfs and device tree; QEMU puts the
# initrd elsewhere): the consoles must be equal but for the memory line (the reservations
# differ by the initrd's place), the initrd's unpacking and release (asynchronous: their
# lines move against the initcalls') and the mmu line (QEMU 7.2 always has Sv57, the kernel takes the largest mode).
linux_vs_qemu() {
	local f='^(Memory: |Unpacking initramfs|Freeing initrd memory|TIPROF-FS-INIT cpuinfo mmu)'
	set +e
	timeout 60 "$QEMU" -machine virt -cpu "$QCPU" -smp 1 -m 128M -bios "$OPENSBI" \
		-kernel "$KIMAGE" -initrd "$ld/initramfs.cpio" -dtb "$ld/linux.dtb" -nographic \
		-monitor none -serial stdio -no-reboot </dev/null 2>/dev/null | tr -d '\r' >"$ld/console.qemu"
	set -e
	tr -d '\r' <"$ld/console.txt" | grep -Ev "$f" >"$ld/console.fs.cmp"
	grep -Ev "$f" "$ld/console.qemu" >"$ld/console.qemu.cmp"
	diff -u "$ld/console.qemu.cmp" "$ld/console.fs.cmp" >"$ld/console.diff" ||
		{ echo "fullsys: linux: console differs from qemu-system-riscv64's:"; head -30 "$ld/console.diff"; return 1; }
}
if [ -r "$KIMAGE" ] && [ -r "$(dirname "$KIMAGE")/../../../source/usr/gen_init_cpio.c" ]; then
	ld=$OUT/linux
	mkdir -p "$ld"
	"${CROSS_COMPILE}gcc" -static -O2 -Wall -Wextra -Werror -o "$ld/init" "$(dirname "$0")/init.c"
	gcc -O2 -o "$ld/gen_init_cpio" "$(dirname "$KIMAGE")/../../../source/usr/gen_init_cpio.c"
	printf '%s\n' "dir /dev 0755 0 0" "nod /dev/console 0600 0 0 c 5 1" "dir /proc 0755 0 0" \
		"file /init $ld/init 0755 0 0" >"$ld/initramfs.list"
	"$ld/gen_init_cpio" "$ld/initramfs.list" >"$ld/initramfs.cpio"
	n=$((n + 1))
	if OUT=$ld UNTIL= LIMIT=1000000000 TIMEOUT=120 FS=$FS OPENSBI=$OPENSBI \
		"$(dirname "$0")/boot-linux.sh" "$KIMAGE" "$ld/initramfs.cpio" >"$ld/boot.txt" 2>&1 &&
	   grep -q '^TIPROF-FS-INIT cpuinfo isa.*: rv64imafdc' "$ld/console.txt" &&
	   grep -q '^TIPROF-FS-INIT cpuinfo mmu.*: sv39' "$ld/console.txt" &&
	   grep -q '^TIPROF-FS-INIT loop 499999500000, clock advanced yes' "$ld/console.txt" &&
	   grep -q '^TIPROF-FS-INIT done' "$ld/console.txt" && linux_vs_qemu; then
		echo "fullsys: linux: user space ran and powered off, console = qemu-system-riscv64's: $(grep -h 'tiprof-fs:' "$ld/boot.txt" | sed -n '1s/^tiprof-fs: //p')"
	else
		echo "fullsys: FAIL linux: see $ld/console.txt and $ld/boot.txt"
		tail -n 12 "$ld/console.txt" "$ld/boot.txt"
		fail=1
	fi
elif [ -n "${FS_REQUIRE_LINUX:-}" ]; then
	echo "fullsys: FAIL linux: no kernel at $KIMAGE, and FS_REQUIRE_LINUX is set (.ci/run after make test-system)"
	fail=1
else
	echo "fullsys: linux: no cached kernel at $KIMAGE (make test-system builds it): not booted"
fi
[ $fail -eq 0 ] && echo "fullsys: $n passed"
exit $fail
