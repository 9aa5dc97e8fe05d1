#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install the Debian 12 packages tiprof needs, or print the exact apt-get line when not root.
set -euo pipefail

pkgs=(make gcc g++ python3 file xz-utils verilator iverilog yosys nextpnr-ice40
      gcc-riscv64-linux-gnu libc6-dev-riscv64-cross linux-libc-dev-riscv64-cross
      binutils-riscv64-linux-gnu qemu-user
      libdw-dev libelf-dev libzydis-dev gtkwave
      linux-source-6.1 qemu-system-misc opensbi device-tree-compiler flex bison bc cpio
      sparse libssl-dev
      linux-perf clang llvm llvm-14 autofdo
      libxml2-utils librsvg2-bin
      dpkg-dev z3)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "tiprof: missing Debian packages; install them with:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "== installing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
