#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/test-fresh.sh - prove the README's two set-up commands work on a fresh Debian 12
# machine: build a minimal Debian root with mmdebstrap, put a clean clone of the committed
# HEAD in it (/root/tiprof), and run there, as root, exactly `make demo` then `make test`.
#
#   sudo scripts/test-fresh.sh            (or: sudo make test-fresh)
#
# The root has only what a newcomer has before typing the commands: Debian's minbase
# (apt, dpkg, bash, coreutils, ...) plus `make`. Nothing of the project's dependencies is
# preinstalled: scripts/deps.sh (run by both targets) must install all of it. `git` is not
# in the root either: the clone is made on the host and copied in, so a build step that
# needs git would fail here (scripts/deps.sh does not install it).
#
# Mirror: the Debian entries (suites <codename>, <codename>-*) of the host's apt sources
# (/etc/apt/sources.list, sources.list.d/*.list and *.sources), so the root sees the same
# mirror and snapshot as the host; nothing but Debian's packages.
#
# Output on the host, under build/fresh/ of this checkout:
#   cache/root-<suite>-<date>-<key>.tar   the pristine root (mmdebstrap output), reused on
#                                         the same day with the same sources; every run
#                                         untars a fresh copy of it
#   run-<stamp>/ (and last -> it)         mmdebstrap.log, demo.log, test.log, packages.log
#                                         (what the two commands installed), summary.log
# The root itself is unpacked under $TIPROF_FRESH_TMP (default /var/tmp), outside the
# checkout, so that a `make clean` there cannot delete it mid-run; it is deleted on exit.
#
# The chroot runs in a private mount namespace (unshare --mount): /proc, /sys, /dev (+ a
# fresh devpts and /dev/shm) and /run are mounted there only, so they are invisible to the
# host and vanish with the namespace even if this script is killed; an EXIT/INT/TERM trap
# also stops whatever still runs in the root and unmounts. /tmp is the root's own /tmp
# directory (on disk, as on a Debian 12 install). The host's /etc/resolv.conf is copied in
# so that apt inside reaches the mirror.
#
# Environment:
#   TIPROF_FRESH_SUITE    Debian suite (default bookworm)
#   TIPROF_FRESH_MIRROR   replace the URI of the host's non-security Debian entries
#                         (a Debian mirror URI, as in the host's apt sources)
#   TIPROF_FRESH_SOURCES  replace the entries entirely: one-line "deb URI SUITE COMPONENTS"
#                         entries separated by newlines or ';'
#   TIPROF_FRESH_KEEP=1   keep the root after the run for inspection (path printed);
#                         enter it with the mounts: unshare -m sh -c 'mount -t proc p ROOT/proc; chroot ROOT'
#   TIPROF_FRESH_NOCACHE=1  rebuild the pristine root even if today's tarball exists
#   TIPROF_FRESH_TMP      where the root is unpacked (default /var/tmp)
# shellcheck disable=SC2317  # (the trap handlers are reached through trap)
set -euo pipefail

prog=test-fresh
export LC_ALL=C	# sort, comm and join must agree on one collation
die() { echo "$prog: error: $*" >&2; exit 1; }
say() { echo "$prog: $*"; }

# ----------------------------------------------------------------------------------------
# Inside stage: run by the outer stage under `unshare --mount` (private propagation).
#   test-fresh.sh --inside ROOT LOGDIR
# Mounts, runs `make demo` and `make test` in ROOT/root/tiprof, prints OK/FAIL.
# Exit status: 0 both passed, 1 a command failed, 2 set-up failed.
# ----------------------------------------------------------------------------------------
IN_ROOT=
inside_cleanup() {
	set +e
	[ -n "$IN_ROOT" ] || return 0
	kill_root_procs "$IN_ROOT"
	local m
	for m in run dev/shm dev/pts dev sys proc; do
		mountpoint -q "$IN_ROOT/$m" && umount -R "$IN_ROOT/$m" 2>/dev/null
	done
}
inside() {
	local root=$1 logdir=$2
	IN_ROOT=$root
	trap inside_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM

	mount -t proc proc "$root/proc" || die "could not mount /proc in the root"
	mount -t sysfs sysfs "$root/sys" || die "could not mount /sys in the root"
	# A booted Debian 12 has the cgroup2 hierarchy on /sys/fs/cgroup (systemd mounts it);
	# slurmd (tests/sim/campaign) needs it. Bind the host's, as a booted machine would see one.
	if mountpoint -q /sys/fs/cgroup; then
		mount --rbind /sys/fs/cgroup "$root/sys/fs/cgroup" ||
			die "could not mount /sys/fs/cgroup in the root"
	fi
	# the host's device nodes (null, zero, random, tty, ...), then a devpts and a /dev/shm of
	# our own, as on a booted machine
	mount --rbind /dev "$root/dev" || die "could not bind-mount /dev in the root"
	mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$root/dev/pts" \
		|| die "could not mount a devpts on /dev/pts in the root"
	mount -t tmpfs -o mode=1777,nosuid,nodev shm "$root/dev/shm" \
		|| die "could not mount a tmpfs on /dev/shm in the root"
	mount -t tmpfs -o mode=755,nosuid,nodev run "$root/run" || die "could not mount a tmpfs on /run in the root"
	mkdir -m 1777 "$root/run/lock"

	# a login shell's environment on a fresh machine, nothing inherited from the caller
	local -a envv=(env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash TERM=dumb
	               LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
	local cmd t0 dt rc
	for cmd in demo test; do
		say "make $cmd: running in /root/tiprof (log: $logdir/$cmd.log)"
		t0=$(date +%s)
		rc=0
		# shellcheck disable=SC2016
		chroot "$root" "${envv[@]}" /bin/bash -c 'cd /root/tiprof && exec make "$1"' \
			make "$cmd" </dev/null >"$logdir/$cmd.log" 2>&1 || rc=$?
		dt=$(( $(date +%s) - t0 ))
		echo "make $cmd: rc=$rc seconds=$dt" >>"$logdir/summary.log"
		if [ "$rc" -ne 0 ]; then
			say "make $cmd: FAIL (exit $rc) in $dt s; last 40 lines of $logdir/$cmd.log:"
			tail -n 40 "$logdir/$cmd.log" | sed 's/^/    /'
			chroot "$root" apt-mark showmanual >"$logdir/manual-after.txt" 2>/dev/null || true
			return 1
		fi
		say "make $cmd: OK in $dt s"
	done
	chroot "$root" apt-mark showmanual >"$logdir/manual-after.txt" 2>/dev/null || true
	return 0
}

# Stop every process whose root directory is ROOT (what runs in the chroot), by pid:
# TERM, then KILL what is left after a few seconds.
kill_root_procs() {
	local root=$1 sig p r pids
	for sig in TERM TERM KILL KILL; do
		pids=()
		for p in /proc/[0-9]*; do
			r=$(readlink "$p/root" 2>/dev/null) || continue
			[ "$r" = "$root" ] && pids+=("${p#/proc/}")
		done
		[ ${#pids[@]} -eq 0 ] && return 0
		kill -s "$sig" "${pids[@]}" 2>/dev/null || true
		sleep 3
	done
}

if [ "${1:-}" = --inside ]; then
	[ $# -eq 3 ] || die "usage: $0 --inside ROOT LOGDIR"
	inside "$2" "$3"	# (not in an || list: keeps set -e active inside)
	exit 0
fi

# ----------------------------------------------------------------------------------------
# Outer stage
# ----------------------------------------------------------------------------------------
[ $# -eq 0 ] || die "usage: $0 (no arguments; see the environment variables in its header)"
[ "$(id -u)" -eq 0 ] || die "must run as root (it builds a Debian root with mmdebstrap and chroots into it): sudo $0"

T0=$(date +%s)
self=$(readlink -f "$0")
top=$(git -C "$(dirname "$self")" rev-parse --show-toplevel 2>/dev/null) \
	|| die "$(dirname "$self") is not inside a git checkout (git missing?)"
for t in tar awk sha256sum unshare chroot mountpoint dpkg-query; do
	command -v "$t" >/dev/null || die "host tool '$t' missing"
done

SUITE=${TIPROF_FRESH_SUITE:-bookworm}
VARIANT=minbase
# make: to type `make` at all. No git (the clone is copied in from the host), no
# ca-certificates (the Debian mirror is reached over http, with apt's own signatures).
INCLUDE="make"
ARCH=$(dpkg --print-architecture)
TMPBASE=${TIPROF_FRESH_TMP:-/var/tmp}

# 1. mmdebstrap on the host
if ! command -v mmdebstrap >/dev/null; then
	command -v apt-get >/dev/null || die "mmdebstrap missing and no apt-get to install it"
	say "installing mmdebstrap on the host"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null 2>&1; then
		apt-get update -qq || die "apt-get update failed on the host"
		apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null \
			|| die "could not install mmdebstrap on the host (apt-get install mmdebstrap failed)"
	fi
	command -v mmdebstrap >/dev/null || die "mmdebstrap still missing after apt-get install"
fi

# 2. the Debian sources: the host's, as "URI SUITE COMPONENTS" lines
host_sources() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		awk '$1 == "deb" {
			i = 2
			if ($i ~ /^\[/) { while (i < NF && $i !~ /\]$/) i++; i++ }
			c = ""
			for (j = i + 2; j <= NF && $j !~ /^#/; j++) c = c " " $j
			print $i, $(i + 1) c
		}' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk 'function flush(  n, m, a, b, U, S) {
			if (types ~ /(^|[ \t])deb([ \t]|$)/ && tolower(en) != "no") {
				n = split(uris, U, /[ \t]+/); m = split(suites, S, /[ \t]+/)
				for (a = 1; a <= n; a++) for (b = 1; b <= m; b++) print U[a], S[b], comps
			}
			types = uris = suites = comps = ""; en = "yes"
		}
		BEGIN { en = "yes" }
		/^[ \t]*#/ { next }
		/^[ \t]*$/ { flush(); next }
		/^[A-Za-z0-9-]+:/ {
			k = tolower(substr($0, 1, index($0, ":") - 1)); v = substr($0, index($0, ":") + 1)
			gsub(/^[ \t]+|[ \t]+$/, "", v)
			if (k == "types") types = v; else if (k == "uris") uris = v
			else if (k == "suites") suites = v; else if (k == "components") comps = v
			else if (k == "enabled") en = v
		}
		END { flush() }' "$f"
	done
}

declare -a SOURCES=()
if [ -n "${TIPROF_FRESH_SOURCES:-}" ]; then
	while IFS= read -r l; do
		l=$(echo "$l" | sed 's/^[ \t]*//; s/[ \t]*$//')
		[ -n "$l" ] && SOURCES+=("$l")
	done < <(printf '%s\n' "$TIPROF_FRESH_SOURCES" | tr ';' '\n')
else
	hostcode=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	[ -n "$hostcode" ] || hostcode=$SUITE
	while read -r uri suite comps; do
		# only Debian's own suites of the host's release (bookworm, bookworm-updates,
		# bookworm-security, ...): no third-party repositories
		[[ $suite =~ ^${hostcode}(-[a-z-]+)?$ ]] || continue
		suite=$SUITE${suite#"$hostcode"}
		if [ -n "${TIPROF_FRESH_MIRROR:-}" ] && [[ $suite != *-security ]]; then
			uri=$TIPROF_FRESH_MIRROR
		fi
		SOURCES+=("deb $uri $suite ${comps:-main}")
	done < <(host_sources | awk '!seen[$0]++')
	if [ ${#SOURCES[@]} -eq 0 ]; then
		[ -n "${TIPROF_FRESH_MIRROR:-}" ] \
			|| die "no Debian '$hostcode' entries in the host's apt sources; set TIPROF_FRESH_MIRROR or TIPROF_FRESH_SOURCES"
		SOURCES=("deb $TIPROF_FRESH_MIRROR $SUITE main" "deb $TIPROF_FRESH_MIRROR $SUITE-updates main")
	fi
fi
# dedupe, keeping order (a mirror override can map two entries to one)
mapfile -t SOURCES < <(printf '%s\n' "${SOURCES[@]}" | awk '!seen[$0]++')

# 3. output directories
FRESH=$top/build/fresh
stamp=$(date -u +%Y%m%d-%H%M%S)
LOGDIR=$FRESH/run-$stamp
mkdir -p "$FRESH/cache" "$LOGDIR"
ln -sfn "run-$stamp" "$FRESH/last"
say "logs: $LOGDIR"
printf '%s\n' "${SOURCES[@]}" >"$LOGDIR/sources.list"
say "suite $SUITE ($ARCH), sources:"
printf '    %s\n' "${SOURCES[@]}"

# 4. the pristine root (cached per day + sources + recipe)
mmver=$(dpkg-query -W -f='${Version}' mmdebstrap 2>/dev/null || echo unknown)
key=$( { echo "recipe=1 suite=$SUITE arch=$ARCH variant=$VARIANT include=$INCLUDE mmdebstrap=$mmver"
         printf '%s\n' "${SOURCES[@]}"; } | sha256sum | cut -c1-12)
day=$(date -u +%Y%m%d)
TARBALL=$FRESH/cache/root-$SUITE-$day-$key.tar
t0=$(date +%s)
if [ -s "$TARBALL" ] && [ "${TIPROF_FRESH_NOCACHE:-0}" != 1 ]; then
	say "root: cached $TARBALL (built $(date -u -r "$TARBALL" '+%F %T') UTC)"
	ROOT_NOTE="cached"
else
	say "root: building with mmdebstrap --variant=$VARIANT --include=$INCLUDE $SUITE (log: $LOGDIR/mmdebstrap.log)"
	rm -f "$TARBALL.tmp"
	if ! mmdebstrap --variant="$VARIANT" --include="$INCLUDE" --architectures="$ARCH" \
		--format=tar "$SUITE" "$TARBALL.tmp" "${SOURCES[@]}" >"$LOGDIR/mmdebstrap.log" 2>&1; then
		rm -f "$TARBALL.tmp"
		tail -n 20 "$LOGDIR/mmdebstrap.log" | sed 's/^/    /' >&2
		die "mmdebstrap failed building the $SUITE root (full log: $LOGDIR/mmdebstrap.log)"
	fi
	mv "$TARBALL.tmp" "$TARBALL"
	# keep only the newest pristine root
	find "$FRESH/cache" -maxdepth 1 -name 'root-*.tar' ! -path "$TARBALL" -delete
	dt=$(( $(date +%s) - t0 ))
	say "root: built in $dt s ($(du -m "$TARBALL" | cut -f1) MB tarball)"
	ROOT_NOTE="built in $dt s"
	echo "root: built in $dt s" >>"$LOGDIR/summary.log"
fi

# 5. a fresh copy of it, outside the checkout
mkdir -p "$TMPBASE"
ROOT=$(mktemp -d "$TMPBASE/tiprof-fresh.XXXXXX")
INNER_PID=
cleanup() {
	local rc=$?
	set +e
	trap - EXIT INT TERM
	[ -n "$INNER_PID" ] && kill -TERM "$INNER_PID" 2>/dev/null
	kill_root_procs "$ROOT"
	[ -n "$INNER_PID" ] && wait "$INNER_PID" 2>/dev/null
	if [ "${TIPROF_FRESH_KEEP:-0}" = 1 ]; then
		say "kept the root: $ROOT (delete it with: rm -rf --one-file-system $ROOT)"
	else
		# no mount of ours is visible in this namespace, so this only deletes the copy
		rm -rf --one-file-system "$ROOT"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT
trap 'say "terminated"; exit 143' TERM

t0=$(date +%s)
tar -C "$ROOT" --numeric-owner --xattrs --xattrs-include='*' -xpf "$TARBALL" \
	|| die "could not unpack $TARBALL into $ROOT"
chmod 755 "$ROOT"
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf" || die "could not copy /etc/resolv.conf into the root"
[ -s "$ROOT/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$ROOT/etc/hosts"
dpkg-query --admindir="$ROOT/var/lib/dpkg" -W -f='${db:Status-Abbrev} ${Package}:${Architecture} ${Version}\n' \
	| awk '$1 ~ /^ii/ { print $2, $3 }' | sort >"$LOGDIR/packages-pristine.txt"
say "root: unpacked in $(( $(date +%s) - t0 )) s into $ROOT ($(wc -l <"$LOGDIR/packages-pristine.txt") packages)"

# 6. a clean clone of the committed HEAD
head=$(git -C "$top" rev-parse HEAD)
git clone -q --no-hardlinks "$top" "$ROOT/root/tiprof" || die "git clone of $top failed"
git -C "$ROOT/root/tiprof" checkout -q "$head" || die "could not check out $head in the clone"
say "clone: $(git -C "$ROOT/root/tiprof" log -1 --format='%h %s' | cut -c1-100)"
echo "head: $head" >>"$LOGDIR/summary.log"

# 7. the two commands, in a private mount namespace
rc=0
unshare --mount --propagation private -- bash "$self" --inside "$ROOT" "$LOGDIR" &
INNER_PID=$!
wait "$INNER_PID" || rc=$?
INNER_PID=

# 8. what the two commands installed
dpkg-query --admindir="$ROOT/var/lib/dpkg" -W -f='${db:Status-Abbrev} ${Package}:${Architecture} ${Version}\n' \
	| awk '$1 ~ /^ii/ { print $2, $3 }' | sort >"$LOGDIR/packages-after.txt"
{
	echo "# packages installed in the fresh $SUITE root by \`make demo\` + \`make test\` (scripts/deps.sh)"
	echo "# head $head; $(date -u '+%F %T') UTC"
	echo "# installed as requested (apt-mark showmanual, minus the pristine root's packages):"
	if [ -s "$LOGDIR/manual-after.txt" ]; then
		comm -13 <(awk '{ sub(/:.*/, "", $1); print $1 }' "$LOGDIR/packages-pristine.txt" | sort -u) \
			<(sort -u "$LOGDIR/manual-after.txt") | tr '\n' ' ' | fold -s -w 100 | sed 's/^/#   /'
		echo
	fi
	echo "# all new packages (name:arch version):"
	join -v 2 <(awk '{ print $1 }' "$LOGDIR/packages-pristine.txt") "$LOGDIR/packages-after.txt"
	echo "# packages whose version changed:"
	join "$LOGDIR/packages-pristine.txt" "$LOGDIR/packages-after.txt" | awk '$2 != $3'
} >"$LOGDIR/packages.log"
nnew=$(join -v 2 <(awk '{ print $1 }' "$LOGDIR/packages-pristine.txt") "$LOGDIR/packages-after.txt" | wc -l)
say "packages: $(wc -l <"$LOGDIR/packages-pristine.txt") in the pristine root, $nnew added by the two commands (list: $LOGDIR/packages.log)"

total=$(( $(date +%s) - T0 ))
echo "total: $total s (root $ROOT_NOTE); rc=$rc" >>"$LOGDIR/summary.log"
if [ "$rc" -eq 0 ]; then
	say "PASS: make demo and make test on a fresh $SUITE root; total $total s (root $ROOT_NOTE)"
else
	say "FAIL (see $LOGDIR); total $total s (root $ROOT_NOTE)"
fi
exit "$rc"
