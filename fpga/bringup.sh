#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# fpga/bringup.sh - bring-up of a tiprof unit on a RISC-V board running Debian (docs/fpga.md).
#
# Checks the kernel, firmware (SBI) and bitstream (the unit's register map and parameters)
# versions, loads the driver, runs a self-test (identification registers read back through
# the driver, the hot instruction of a known loop on top of its profile, the unit's interrupt
# rate), records a workload and prints its report. One line per step:
#   bringup: <step> PASS|FAIL|SKIP <detail>
# then `bringup: done pass=N fail=N skip=N`; exit 0 only when nothing failed.
# POSIX sh; runs unchanged on a board and in the system tier (tests/system: the QEMU guest
# with the driver's stand-in unit, where tests/system/init.c sets the environment below).
#
# Environment (defaults for a board):
#   TIPROF              tiprof binary                                 (tiprof)
#   TIPROF_HOTLOOP      the known loop, fpga/hotloop.c                (tiprof-hotloop)
#   TIPROF_MODULE       a .ko path (insmod) or a module name (modprobe) (tiprof_pmu)
#   TIPROF_MODULE_PARAMS  module parameters                           (none)
#   TIPROF_INSMOD, TIPROF_MODPROBE, TIPROF_RMMOD, TIPROF_DMESG  the commands (insmod, ...)
#   TIPROF_KEEP_MODULE  1: leave the module loaded at the end         (0)
#   TIPROF_EXPECT_KERNEL  kernel release the board must run           (any)
#   TIPROF_EXPECT_SBI   text the kernel's "SBI implementation" line must contain (any)
#   TIPROF_EXPECT_MAP   the unit's register map version               (tiprof's, `tiprof version`)
#   TIPROF_EXPECT_W, TIPROF_EXPECT_XLEN, TIPROF_EXPECT_FIFO  the bitstream's unit parameters (any)
#   TIPROF_PERIOD       sampling period of the self-test, cycles      (10007)
#   TIPROF_SECS         seconds of the known loop                     (1)
#   TIPROF_LOOP_MS      milliseconds of the known loop, instead of TIPROF_SECS: for a slow
#                       simulated board, tests/sim/fullsys/bringup.sh (1000 x TIPROF_SECS)
#   TIPROF_MIN_IRQ_RATE interrupts per second the self-test requires  (1)
#   TIPROF_WORKLOAD     the command recorded at the end               ($TIPROF_HOTLOOP $TIPROF_SECS)
#   TIPROF_OUT          directory for the sample files                (./tiprof-bringup)

# shellcheck disable=SC2086 # the command variables are word-split on purpose
TIPROF=${TIPROF:-tiprof}
TIPROF_HOTLOOP=${TIPROF_HOTLOOP:-tiprof-hotloop}
TIPROF_MODULE=${TIPROF_MODULE:-tiprof_pmu}
TIPROF_MODULE_PARAMS=${TIPROF_MODULE_PARAMS:-}
TIPROF_INSMOD=${TIPROF_INSMOD:-insmod}
TIPROF_MODPROBE=${TIPROF_MODPROBE:-modprobe}
TIPROF_RMMOD=${TIPROF_RMMOD:-rmmod}
TIPROF_DMESG=${TIPROF_DMESG:-dmesg}
TIPROF_KEEP_MODULE=${TIPROF_KEEP_MODULE:-0}
TIPROF_PERIOD=${TIPROF_PERIOD:-10007}
TIPROF_SECS=${TIPROF_SECS:-1}
TIPROF_MIN_IRQ_RATE=${TIPROF_MIN_IRQ_RATE:-1}
TIPROF_WORKLOAD=${TIPROF_WORKLOAD:-"$TIPROF_HOTLOOP $TIPROF_SECS"}
TIPROF_OUT=${TIPROF_OUT:-./tiprof-bringup}
pmu=/sys/bus/event_source/devices/tiprof_pmu
nl='
'

npass=0
nfail=0
nskip=0
step() { # step NAME PASS|FAIL|SKIP DETAIL...
	name=$1
	verdict=$2
	shift 2
	echo "bringup: $name $verdict $*"
	case $verdict in
	PASS) npass=$((npass + 1)) ;;
	FAIL) nfail=$((nfail + 1)) ;;
	*) nskip=$((nskip + 1)) ;;
	esac
}
finish() {
	echo "bringup: done pass=$npass fail=$nfail skip=$nskip"
	[ "$nfail" -eq 0 ] && exit 0
	exit 1
}
# first line of file $1 into $val (empty if unreadable)
readval() {
	val=
	[ -r "$1" ] && IFS= read -r val <"$1"
	return 0
}
# value of "key=" ($1) in text $2 into $val
kv() {
	val=
	case $2 in
	*"$1="*)
		val=${2#*"$1="}
		val=${val%%"$nl"*}
		val=${val%%[ ,;]*}
		;;
	esac
}
# the tiprof_pmu line of /proc/interrupts: interrupts summed over the CPUs into $irqs
irq_count() {
	irqs=0
	while IFS= read -r line; do
		case $line in
		*tiprof*) ;;
		*) continue ;;
		esac
		set -- $line
		shift
		for f in "$@"; do
			case $f in
			'' | *[!0-9]*) break ;;
			esac
			irqs=$((irqs + f))
		done
	done </proc/interrupts
}

# the known loop's duration: its argument (seconds) and the same in milliseconds
if [ -n "${TIPROF_LOOP_MS:-}" ]; then
	case $TIPROF_LOOP_MS in
	*[!0-9]* | 0*)
		step setup FAIL "TIPROF_LOOP_MS='$TIPROF_LOOP_MS' is not a number of milliseconds > 0"
		finish
		;;
	esac
	loop_ms=$TIPROF_LOOP_MS
	loop_arg=$((loop_ms % 1000))
	case $loop_arg in ?) loop_arg=00$loop_arg ;; ??) loop_arg=0$loop_arg ;; esac
	loop_arg=$((loop_ms / 1000)).$loop_arg
else
	loop_ms=$((TIPROF_SECS * 1000))
	loop_arg=$TIPROF_SECS
fi
mkdir -p "$TIPROF_OUT" 2>/dev/null || [ -d "$TIPROF_OUT" ] || {
	step setup FAIL "cannot create $TIPROF_OUT"
	finish
}

# ---- 1. versions: kernel, firmware (SBI), tiprof, and later the bitstream's unit
readval /proc/sys/kernel/osrelease
krel=$val
if [ -z "$krel" ]; then
	step kernel FAIL "cannot read /proc/sys/kernel/osrelease (is /proc mounted?)"
elif [ -n "${TIPROF_EXPECT_KERNEL:-}" ] && [ "$krel" != "$TIPROF_EXPECT_KERNEL" ]; then
	step kernel FAIL "running $krel, expected $TIPROF_EXPECT_KERNEL"
else
	step kernel PASS "Linux $krel"
fi
sbi=
log=$($TIPROF_DMESG 2>/dev/null) || log=
while IFS= read -r line; do
	case $line in
	*"SBI specification v"* | *"SBI implementation ID"*) sbi="$sbi${sbi:+; }${line#*] }" ;;
	esac
done <<EOF
$log
EOF
if [ -z "$sbi" ]; then
	step firmware FAIL "no SBI lines in the kernel log ($TIPROF_DMESG)"
elif [ -n "${TIPROF_EXPECT_SBI:-}" ]; then
	case $sbi in
	*"$TIPROF_EXPECT_SBI"*) step firmware PASS "$sbi" ;;
	*) step firmware FAIL "$sbi; expected '$TIPROF_EXPECT_SBI'" ;;
	esac
else
	step firmware PASS "$sbi"
fi
tv=$($TIPROF version 2>&1)
case $tv in
*"TIP register map "*)
	map=${tv##*TIP register map }
	map=${map%%)*}
	step tiprof PASS "$tv"
	;;
*)
	step tiprof FAIL "'$TIPROF version' gave: $tv"
	finish
	;;
esac
want_map=${TIPROF_EXPECT_MAP:-$map}

# ---- 2. the driver
loaded_here=0
if [ -d "$pmu" ]; then
	step module PASS "already loaded ($pmu)"
else
	case $TIPROF_MODULE in
	*.ko) out=$($TIPROF_INSMOD "$TIPROF_MODULE" $TIPROF_MODULE_PARAMS 2>&1) ;;
	*) out=$($TIPROF_MODPROBE "$TIPROF_MODULE" $TIPROF_MODULE_PARAMS 2>&1) ;;
	esac
	rc=$?
	if [ $rc -ne 0 ]; then
		step module FAIL "loading $TIPROF_MODULE $TIPROF_MODULE_PARAMS: exit $rc: $out"
		finish
	fi
	loaded_here=1
	if [ -d "$pmu" ]; then
		step module PASS "$TIPROF_MODULE $TIPROF_MODULE_PARAMS loaded, $pmu registered"
	else
		msg=
		while IFS= read -r line; do
			case $line in *tiprof*) msg=${line#*] } ;; esac
		done <<EOF
$($TIPROF_DMESG 2>/dev/null)
EOF
		step module FAIL "loaded, but no PMU: the driver said: $msg"
		finish
	fi
fi
standin=0
readval /sys/module/tiprof_pmu/parameters/fake_unit
[ "$val" = Y ] && standin=1

# ---- 3. self-test
# a. identification registers (TIP_ID, TIP_PARAMS) read back through the driver: the
# bitstream's register map version and unit parameters
readval $pmu/caps/version
ver=$val
readval $pmu/caps/commit_width
w=$val
readval $pmu/caps/xlen
xlen=$val
readval $pmu/caps/fifo_depth
fifo=$val
readval $pmu/cpumask
cpus=$val
bad=
[ "$ver" = "$want_map" ] || bad="$bad register map $ver, want $want_map;"
case $w in 1 | 2 | 4 | 8) ;; *) bad="$bad W=$w;" ;; esac
case $xlen in 32 | 64) ;; *) bad="$bad XLEN=$xlen;" ;; esac
case $fifo in '' | 0 | *[!0-9]*) bad="$bad FIFO depth '$fifo';" ;; esac
[ -n "${TIPROF_EXPECT_W:-}" ] && [ "$w" != "$TIPROF_EXPECT_W" ] && bad="$bad W=$w, want $TIPROF_EXPECT_W;"
[ -n "${TIPROF_EXPECT_XLEN:-}" ] && [ "$xlen" != "$TIPROF_EXPECT_XLEN" ] && bad="$bad XLEN=$xlen, want $TIPROF_EXPECT_XLEN;"
[ -n "${TIPROF_EXPECT_FIFO:-}" ] && [ "$fifo" != "$TIPROF_EXPECT_FIFO" ] && bad="$bad FIFO=$fifo, want $TIPROF_EXPECT_FIFO;"
unit="map $ver W=$w XLEN=$xlen FIFO=$fifo CPUs $cpus"
[ $standin -eq 1 ] && unit="$unit (the driver's stand-in unit, fake_unit=1)"
if [ -n "$bad" ]; then
	step registers FAIL "$unit:$bad"
else
	step registers PASS "$unit"
fi

# b. the known loop: its divide must be the most sampled instruction
irq_count
irq0=$irqs
out=$($TIPROF record -o "$TIPROF_OUT/hotloop.tps" --period "$TIPROF_PERIOD" -- \
	$TIPROF_HOTLOOP "$loop_arg" 2>&1)
rc=$?
irq_count
irq1=$irqs
hot=
kv hot "$out"
hot=$val
chk=$($TIPROF record --check "$TIPROF_OUT/hotloop.tps" 2>&1)
crc=$?
kv samples "$chk"
samples=$val
kv top "$chk"
top=$val
if [ $rc -ne 0 ] || [ $crc -ne 0 ] || [ -z "$hot" ] || [ -z "$samples" ]; then
	step hot_loop FAIL "record exit $rc, --check exit $crc: $out $chk"
elif [ "$samples" -lt 10 ]; then
	step hot_loop FAIL "only $samples samples: $chk"
elif [ $standin -eq 1 ]; then
	step hot_loop SKIP "$samples samples, top $top; the stand-in unit's addresses are synthetic, so the loop's divide ($hot) cannot top them"
elif [ "${top%%:*}" = "$hot" ]; then
	step hot_loop PASS "the divide at $hot tops the profile: ${top#*:} of $samples samples"
else
	step hot_loop FAIL "the divide is at $hot but the most sampled address is $top of $samples samples"
fi

# c. interrupt rate over the known loop (/proc/interrupts, the tiprof_pmu line)
d=$((irq1 - irq0))
rate=$(((d * 1000 + loop_ms - 1) / loop_ms))
if [ $standin -eq 1 ]; then
	step irq_rate SKIP "$d interrupts in $loop_arg s: the stand-in calls the handler from a timer, not through the interrupt line"
elif [ "$rate" -ge "$TIPROF_MIN_IRQ_RATE" ]; then
	step irq_rate PASS "$d interrupts in $loop_arg s ($rate/s, $samples samples, FIFO $fifo)"
else
	step irq_rate FAIL "$d interrupts in $loop_arg s ($rate/s, want >= $TIPROF_MIN_IRQ_RATE/s; is the unit's interrupt wired?)"
fi

# ---- 4. record the workload and report it
out=$($TIPROF record -o "$TIPROF_OUT/workload.tps" --period "$TIPROF_PERIOD" -- $TIPROF_WORKLOAD 2>&1)
rc=$?
chk=$($TIPROF record --check "$TIPROF_OUT/workload.tps" 2>&1)
crc=$?
kv samples "$chk"
if [ $rc -ne 0 ] || [ $crc -ne 0 ] || [ -z "$val" ] || [ "$val" -eq 0 ]; then
	step record FAIL "'$TIPROF_WORKLOAD': record exit $rc, --check exit $crc: $out $chk"
else
	step record PASS "$TIPROF_WORKLOAD: $chk"
	echo "bringup: report of $TIPROF_OUT/workload.tps:"
	if rep=$($TIPROF report "$TIPROF_OUT/workload.tps" 2>&1); then
		echo "$rep"
	else
		# a tiprof without report (the static riscv64 build): the first samples
		echo "  (no 'tiprof report' in this build: $rep)"
		i=0
		while IFS= read -r line; do
			[ $i -lt 12 ] && echo "  $line"
			i=$((i + 1))
		done <<EOF
$($TIPROF dump "$TIPROF_OUT/workload.tps" 2>&1)
EOF
		echo "  ($i lines of tiprof dump)"
	fi
fi

# ---- 5. unload (what this script loaded)
if [ $loaded_here -eq 1 ] && [ "$TIPROF_KEEP_MODULE" != 1 ]; then
	if out=$($TIPROF_RMMOD tiprof_pmu 2>&1) && [ ! -d "$pmu" ]; then
		step unload PASS "tiprof_pmu removed"
	else
		step unload FAIL "$TIPROF_RMMOD tiprof_pmu: $out"
	fi
fi
finish
