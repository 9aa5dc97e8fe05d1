#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# count_insns.sh - dynamic instruction count of static riscv64 programs under
# qemu-user (Debian 12 ships no TCG plugins, so no libinsn.so).
#   count_insns.sh [-s | -f] prog[:arg] [prog[:arg]...]
#     -f  also print each program's instructions per function (QEMU's symbol
#         for the block's first address), the top eight, with their share.
#     -s  slow reference method: -singlestep -d nochain,exec makes every
#         translation block one instruction and logs one "Trace" line per
#         executed block, so the count is the number of Trace lines.
#     default: -d nochain,exec,in_asm logs each block's instructions once, when
#         it is translated ("IN:" then one "0x..." line per instruction), and
#         a "Trace" line, keyed by [cs_base/pc/flags/cflags], every time a
#         block runs; the count is the sum of the sizes of the blocks run.
#         A block is translated just before its first run, so the first
#         Trace after an IN: listing gives that listing's key. Blocks end at
#         every branch and ecall, and these programs take no synchronous
#         traps, so no block stops half way. About 5x faster than -s; the
#         two agree exactly (see README).
#   WL_QEMU=qemu-riscv64 (default)
# The programs run with an empty environment (env -i): glibc's start-up code
# scans the environment, so its size would shift the counts by a few dozen.
# Runs the programs in parallel (one per CPU); prints
# "<name> <instructions> (exit <status>)" per program, in argument order.
set -eu
qemu=$(command -v "${WL_QEMU:-qemu-riscv64}") || { echo "count_insns.sh: ${WL_QEMU:-qemu-riscv64} not found" >&2; exit 1; }
slow=0 funcs=0
case "${1:-}" in
-s) slow=1; shift ;;
-f) funcs=1; shift ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# count PROG ARG OUT: the log goes to fd 3, a pipe into the counter; the
# program's own output is dropped.
count() {
	if [ $slow = 1 ]; then
		{ env -i "$qemu" -singlestep -d nochain,exec -D /dev/fd/3 "$1" $2 3>&1 >/dev/null 2>&1; \
		  echo $? > "$3.rc"; } | grep -c '^Trace' > "$3.n" || true
	else
		{ env -i "$qemu" -d nochain,exec,in_asm -D /dev/fd/3 "$1" $2 3>&1 >/dev/null 2>&1; \
		  echo $? > "$3.rc"; } | awk -v funcs="$3.f" '
			/^IN:/         { inblk = 1; n = 0; next }
			inblk && /^0x/ { n++; next }
			/^Trace/ {
				key = $0; sub(/^[^[]*\[/, "", key); sub(/\].*/, "", key)
				if (inblk) { size[key] = n; inblk = 0 }
				if (!(key in size)) { unknown++; next }
				total += size[key]
				sym = $0; sub(/^[^]]*\] ?/, "", sym)
				per[sym == "" ? "?" : sym] += size[key]
			}
			END {
				if (unknown) print "?"; else printf "%.0f\n", total
				for (f in per)
					printf "%12.0f %5.1f%%  %s\n", per[f], 100 * per[f] / total, f | "sort -rn | head -8 > " funcs
			}' > "$3.n"
	fi
}

jobs=$(nproc 2>/dev/null || echo 1)
i=0
for p in "$@"; do
	prog=${p%%:*}; arg=; [ "$prog" != "$p" ] && arg=${p#*:}
	count "$prog" "$arg" "$tmp/$i" &
	i=$((i + 1))
	if [ $((i % jobs)) = 0 ]; then wait; fi
done
wait
i=0
for p in "$@"; do
	printf '  %-16s %12s instructions  (exit %s)\n' "$(basename "$p")" \
		"$(cat "$tmp/$i.n")" "$(cat "$tmp/$i.rc")"
	if [ $funcs = 1 ]; then sed 's/^/      /' "$tmp/$i.f"; fi
	i=$((i + 1))
done
