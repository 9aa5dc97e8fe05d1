#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# sim/programs/build.sh - real third-party programs for the simulator, cross-built for riscv64
# from pinned Debian 12 source packages.
#   sim/programs/build.sh [PROGRAM...]     (default: every recipe in sim/programs/recipes/)
#   sim/programs/build.sh --lock PKG=VERSION   (print the lock lines of a new source package)
# For each program, its recipe (sim/programs/recipes/PROGRAM.sh) names a source package
# whose exact version and file hashes are pinned in sim/programs/programs.lock. This script
#  1. fetches the source package without root and without touching /etc/apt: a private apt
#     configuration under $BUILD/programs/apt/ (its own sources.list with one deb-src line for
#     the Debian mirror the host's own apt sources use, its own state, lists and cache), then
#     `apt-get update` and `apt-get source --download-only PKG=VERSION`;
#  2. checks the sha256 of every downloaded file against the lock, then unpacks and patches
#     it with `dpkg-source -x` into $BUILD/programs/src/PKG-VERSION/ (kept, with the lock
#     lines it was made from in .tiprof-lock: a second run neither downloads nor unpacks);
#  3. runs the recipe's `prog_build SRC OBJDIR BINDIR BUILDINFO` (CC, JOBS and PROG_DIR, this
#     folder, set) into $BUILD/programs/obj/PROGRAM/ and $BUILD/programs/bin/, unless
#     $BUILD/programs/bin/PROGRAM.stamp says the same lock lines, recipe, this script, the
#     recipe's PROG_EXTRA files (sources of this folder it compiles, e.g. a driver) and
#     compiler made them (so a rebuild costs nothing); PROGRAM.buildinfo records the flags.
# Environment: BUILD (default build), CROSS_COMPILE (default riscv64-linux-gnu-),
#   TIPROF_PROGRAMS_MIRROR (a Debian mirror URI; default: the host's apt sources' mirror),
#   TIPROF_PROGRAMS_SUITE (default bookworm), JOBS (default nproc: files compiled at once by
#   a recipe), PROG_JOBS (default 2: programs built at once).
set -eu
set -o pipefail

ME=sim/programs/build.sh
DIR=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
CROSS_COMPILE=${CROSS_COMPILE:-riscv64-linux-gnu-}
SUITE=${TIPROF_PROGRAMS_SUITE:-bookworm}
JOBS=${JOBS:-$(nproc)}
LOCK=$DIR/programs.lock
OUT=$BUILD/programs
APTDIR=$OUT/apt

die() { echo "$ME: $*" >&2; exit 1; }

[ -f "$LOCK" ] || die "$LOCK: lock file missing"

# The lock's lines for one source package: "PKG VERSION FILE SHA256", comments and blank lines
# dropped, sorted so that the cache key does not depend on their order.
lock_lines() {
	awk -v p="$1" '$1 == p && !/^#/ { print $1, $2, $3, $4 }' "$LOCK" | sort
}

# The Debian mirror the host's own apt sources use for $SUITE (deb822 .sources files first,
# then one-line sources.list files): "URI KEYRING" (KEYRING may be empty).
host_mirror() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v suite="$SUITE" '
			BEGIN { RS = ""; FS = "\n" }
			{
				types = uris = suites = key = ""; enabled = 1
				for (i = 1; i <= NF; i++) {
					l = $i
					if (l ~ /^[ \t]*#/) continue
					if (l ~ /^Types:/)     { sub(/^Types:[ \t]*/, "", l); types = " " l " " }
					if (l ~ /^URIs:/)      { sub(/^URIs:[ \t]*/, "", l); uris = l }
					if (l ~ /^Suites:/)    { sub(/^Suites:[ \t]*/, "", l); suites = " " l " " }
					if (l ~ /^Signed-By:/) { sub(/^Signed-By:[ \t]*/, "", l); key = l }
					if (l ~ /^Enabled:[ \t]*no/) enabled = 0
				}
				if (enabled && types ~ / deb / && suites ~ (" " suite " ") && uris != "") {
					split(uris, u, /[ \t]+/); print u[1], (key ~ /^\// ? key : ""); exit
				}
			}' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk -v suite="$SUITE" '
			$1 == "deb" {
				key = ""; i = 2
				if ($2 ~ /^\[/) {
					for (; i <= NF; i++) {
						if ($i ~ /signed-by=/) { key = $i; sub(/.*signed-by=/, "", key); sub(/\]$/, "", key) }
						if ($i ~ /\]$/) break
					}
					i++
				}
				if ($(i + 1) == suite) { print $i, key; exit }
			}' "$f"
	done
}

# apt-get with the private configuration: nothing under /etc/apt or /var/lib/apt is written.
apt_private() {
	local user
	user=$(id -un)
	apt-get -q \
		-o Dir::Etc::SourceList="$APTDIR/sources.list" \
		-o Dir::Etc::SourceParts="$APTDIR/sources.list.d" \
		-o Dir::State="$APTDIR/state" \
		-o Dir::Cache="$APTDIR/cache" \
		-o APT::Sandbox::User="$user" \
		"$@"
}

apt_setup() {
	local mirror key
	mkdir -p "$APTDIR/sources.list.d" "$APTDIR/state/lists/partial" "$APTDIR/cache/archives/partial"
	if [ -n "${TIPROF_PROGRAMS_MIRROR:-}" ]; then
		mirror=$TIPROF_PROGRAMS_MIRROR; key=
	else
		read -r mirror key < <(host_mirror | head -1; echo) || true
		[ -n "$mirror" ] || die "/etc/apt: no 'deb' source for suite $SUITE in sources.list or sources.list.d/*.sources; set TIPROF_PROGRAMS_MIRROR=URI"
	fi
	[ -n "$key" ] || key=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -r "$key" ] || die "$key: keyring for $mirror not readable (Debian package debian-archive-keyring)"
	echo "deb-src [signed-by=$key] $mirror $SUITE main" >"$APTDIR/sources.list.new"
	if ! cmp -s "$APTDIR/sources.list.new" "$APTDIR/sources.list" 2>/dev/null; then
		mv "$APTDIR/sources.list.new" "$APTDIR/sources.list"
		rm -f "$APTDIR/updated"
	else
		rm -f "$APTDIR/sources.list.new"
	fi
}

# The private apt configuration with fresh package lists (once: `updated` marks them).
apt_update() {
	apt_setup >&2
	if [ ! -f "$APTDIR/updated" ]; then
		echo "  APT     update ($(cut -d' ' -f3-5 "$APTDIR/sources.list"))" >&2
		apt_private update >"$APTDIR/update.log" 2>&1 ||
			die "apt-get update with $APTDIR/sources.list failed: $(grep -E '^(E|W):' "$APTDIR/update.log" | head -1)"
		touch "$APTDIR/updated"
		UPDATED_NOW=1
	fi
}
UPDATED_NOW=0

# Download PKG=VERSION into $OUT/dl/ (unless every locked file is there with its hash) and check
# every file's sha256 against the lock.
fetch() {
	local pkg=$1 ver=$2 dl=$OUT/dl name sum got ok=1
	mkdir -p "$dl"
	while read -r _ _ name sum; do
		[ -f "$dl/$name" ] && [ "$(sha256sum <"$dl/$name" | cut -d' ' -f1)" = "$sum" ] || ok=0
	done < <(lock_lines "$pkg")
	[ $ok = 1 ] && return 0
	apt_update
	echo "  APT     source $pkg=$ver"
	local log=$OUT/dl/$pkg.log
	# Lists from an earlier run may be stale (the mirror moved on): update them once and retry.
	if ! (cd "$dl" && apt_private source --download-only "$pkg=$ver") >"$log" 2>&1; then
		[ "$UPDATED_NOW" = 0 ] ||
			die "apt-get source --download-only $pkg=$ver failed (log $log): $(grep -E '^E:' "$log" | head -1)"
		rm -f "$APTDIR/updated"
		apt_update
		echo "  APT     source $pkg=$ver (with fresh lists)"
		(cd "$dl" && apt_private source --download-only "$pkg=$ver") >"$log" 2>&1 ||
			die "apt-get source --download-only $pkg=$ver failed (log $log): $(grep -E '^E:' "$log" | head -1)"
	fi
	while read -r _ _ name sum; do
		[ -f "$dl/$name" ] || die "$pkg=$ver: apt-get source did not download $name named in $LOCK"
		got=$(sha256sum <"$dl/$name" | cut -d' ' -f1)
		[ "$got" = "$sum" ] || die "$dl/$name: sha256 $got, but $LOCK says $sum"
	done < <(lock_lines "$pkg")
}

# Unpacked, patched sources of PKG at $OUT/src/PKG-VERSION, cached by its lock lines.
unpack() {
	local pkg=$1 lines ver dsc src
	lines=$(lock_lines "$pkg")
	[ -n "$lines" ] || die "$LOCK: no entry for source package $pkg"
	ver=$(echo "$lines" | awk '{ print $2 }' | sort -u)
	[ "$(echo "$ver" | wc -l)" = 1 ] || die "$LOCK: $pkg has more than one version: $(echo $ver)"
	dsc=$(echo "$lines" | awk '$3 ~ /\.dsc$/ { print $3 }')
	[ -n "$dsc" ] || die "$LOCK: $pkg=$ver has no .dsc line"
	src=$OUT/src/$pkg-$ver
	SRC=$src
	if [ -f "$src/.tiprof-lock" ] && [ "$(cat "$src/.tiprof-lock")" = "$lines" ]; then
		return 0
	fi
	fetch "$pkg" "$ver"
	echo "  UNPACK  $dsc -> $src"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$OUT/src"
	dpkg-source --no-copy -x "$OUT/dl/$dsc" "$src.tmp" >"$src.log" 2>&1 ||
		die "dpkg-source -x $OUT/dl/$dsc failed (log $src.log): $(grep -E 'error' "$src.log" | head -1)"
	echo "$lines" >"$src.tmp/.tiprof-lock"
	mv "$src.tmp" "$src"
}

# Helpers for recipes (sourced into this shell, so they may use these):
# cc_objs OBJDIR FILE...: the object of each source FILE (a path relative to the sources;
# its slashes become "__", so that files of one name in two folders do not collide).
cc_objs() {
	local obj=$1 f
	shift
	for f in "$@"; do f=${f%.c}; echo "$obj/${f//\//__}.o"; done
}
# cc_all SRC OBJDIR "FLAGS" FILE...: compile each FILE (relative to SRC) with $CC FLAGS into
# cc_objs's object, $JOBS at a time; a failure prints that file's compiler messages and returns
# non-zero. (prog_build runs under `|| die`, where set -e does not act: recipes `|| return 1`.)
cc_all() {
	local src=$1 obj=$2 flags=$3
	shift 3
	printf '%s\n' "$@" | xargs -P "$JOBS" -I{} sh -c \
		'f=$1; b=${f%.c}; o="$2/$(echo "$b" | sed "s|/|__|g").o"
		 $3 $4 -c "$5/$f" -o "$o" 2>"$o.log" || { echo "$5/$f:" >&2; cat "$o.log" >&2; exit 255; }' \
		sh {} "$obj" "$CC" "$flags" "$src"
}
# cc_info BUILDINFO SRC KEY VALUE...: append "KEY: VALUE..." to BUILDINFO with SRC shown as SRC.
cc_info() {
	local info=$1 src=$2 key=$3
	shift 3
	echo "$key: $(echo "$@" | sed "s|$src|SRC|g")" >>"$info"
}

# Build one program from its recipe, unless its stamp matches.
# build_program PROG [prepare]: with prepare, only check the stamp (UP-TO-DATE) or fetch and
# unpack the sources, and set NEEDS_BUILD (0 or 1) and SLOW (the recipe's PROG_SLOW).
build_program() {
	local prog=$1 mode=${2:-build} recipe=$DIR/recipes/$1.sh stamp key o
	[ -f "$recipe" ] || die "$recipe: no recipe for program $prog"
	PROG_PKG='' PROG_OUTPUTS='' PROG_EXTRA='' PROG_SLOW=''
	NEEDS_BUILD=0 SLOW=''
	unset -f prog_build
	# shellcheck source=/dev/null
	. "$recipe"
	[ -n "$PROG_PKG" ] && [ -n "$PROG_OUTPUTS" ] && declare -F prog_build >/dev/null ||
		die "$recipe: must set PROG_PKG and PROG_OUTPUTS and define prog_build"
	command -v "${CROSS_COMPILE}gcc" >/dev/null || die "${CROSS_COMPILE}gcc: not found (Debian package gcc-riscv64-linux-gnu)"
	for o in $PROG_EXTRA; do [ -f "$DIR/$o" ] || die "$recipe: PROG_EXTRA names $DIR/$o, which is missing"; done
	key=$( { lock_lines "$PROG_PKG"; cat "$recipe" "$0"; for o in $PROG_EXTRA; do cat "$DIR/$o"; done
		"${CROSS_COMPILE}gcc" --version | head -1; echo "$CROSS_COMPILE"; } | sha256sum | cut -d' ' -f1)
	stamp=$OUT/bin/$prog.stamp
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ]; then
		local all=1
		for o in $PROG_OUTPUTS; do [ -f "$OUT/bin/$o" ] || all=0; done
		[ $all = 1 ] && { echo "  UP-TO-DATE $prog ($(cd "$OUT/bin" && echo $PROG_OUTPUTS))"; return 0; }
	fi
	unpack "$PROG_PKG"
	if [ "$mode" = prepare ]; then
		NEEDS_BUILD=1 SLOW=$PROG_SLOW
		return 0
	fi
	rm -f "$stamp"
	rm -rf "$OUT/obj/$prog"
	mkdir -p "$OUT/obj/$prog" "$OUT/bin"
	local t0=$SECONDS
	rm -f "$OUT/bin/$prog.buildinfo"
	CC=${CROSS_COMPILE}gcc JOBS=$JOBS PROG_DIR=$DIR prog_build "$SRC" "$OUT/obj/$prog" "$OUT/bin" "$OUT/bin/$prog.buildinfo" ||
		die "$recipe: build of $prog failed (logs in $OUT/obj/$prog/)"
	for o in $PROG_OUTPUTS; do
		[ -f "$OUT/bin/$o" ] || die "$recipe: build of $prog made no $OUT/bin/$o"
	done
	{
		echo "source: $(lock_lines "$PROG_PKG" | awk '{ print $1 "=" $2; exit }')"
		echo "compiler: $("${CROSS_COMPILE}gcc" --version | head -1)"
		echo "build time: $((SECONDS - t0)) s on $JOBS jobs"
		for o in $PROG_OUTPUTS; do
			echo "output: $o $(sha256sum <"$OUT/bin/$o" | cut -d' ' -f1) $(file -b "$OUT/bin/$o" | cut -d, -f1-2,5)"
		done
	} >>"$OUT/bin/$prog.buildinfo"
	echo "$key" >"$stamp"
	echo "  BUILT   $prog in $((SECONDS - t0)) s: $(cd "$OUT/bin" && echo $PROG_OUTPUTS) (flags: $OUT/bin/$prog.buildinfo)"
}

# --lock PKG=VERSION: download a source package (PKG may name a binary package) into a new
# folder and print its lock lines, to paste into programs.lock after reviewing them.
if [ "${1:-}" = --lock ]; then
	[ $# = 2 ] && [[ "$2" == *=* ]] || die "usage: $ME --lock PKG=VERSION"
	apt_update
	mkdir -p "$OUT"
	d=$(mktemp -d "$OUT/lock.XXXXXX")
	(cd "$d" && apt_private source --download-only "$2") >"$d.log" 2>&1 ||
		die "apt-get source --download-only $2 failed (log $d.log): $(grep -E '^E:' "$d.log" | head -1)"
	dsc=$(ls "$d"/*.dsc 2>/dev/null | head -1)
	[ -n "$dsc" ] || die "$2: apt-get source downloaded no .dsc (log $d.log)"
	src=$(sed -n 's/^Source: *//p' "$dsc" | head -1)
	ver=$(sed -n 's/^Version: *//p' "$dsc" | head -1)
	echo "# files in $d"
	for f in "$d"/*; do echo "$src $ver $(basename "$f") $(sha256sum <"$f" | cut -d' ' -f1)"; done
	exit 0
fi

progs=("$@")
if [ ${#progs[@]} -eq 0 ]; then
	for r in "$DIR"/recipes/*.sh; do progs+=("$(basename "$r" .sh)"); done
fi
# Fetch and unpack one package at a time (one apt), then build up to PROG_JOBS programs at
# once (default 2; each recipe compiles JOBS files at once), those whose recipe says
# PROG_SLOW=1 first: sqlite3's single 8.6 MB file keeps one core busy for most of a build.
todo=() slow=()
for p in "${progs[@]}"; do
	build_program "$p" prepare
	if [ "$NEEDS_BUILD" = 1 ]; then
		if [ -n "$SLOW" ]; then slow+=("$p"); else todo+=("$p"); fi
	fi
done
todo=(${slow[@]+"${slow[@]}"} ${todo[@]+"${todo[@]}"})
PROG_JOBS=${PROG_JOBS:-2}
running=0 failed=0
for p in ${todo[@]+"${todo[@]}"}; do
	if [ "$running" -ge "$PROG_JOBS" ]; then
		wait -n || failed=1
		running=$((running - 1))
	fi
	build_program "$p" &
	running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
	wait -n || failed=1
	running=$((running - 1))
done
[ $failed = 0 ] || die "a program failed to build (its error is above)"
