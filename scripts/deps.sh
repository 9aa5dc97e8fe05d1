#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install the Debian 12 packages tiprof needs, or print the exact apt-get line when not root.
set -euo pipefail

pkgs=(make gcc g++ python3 file xz-utils verilator iverilog yosys nextpnr-ice40
      gcc-riscv64-linux-gnu libc6-dev-riscv64-cross linux-libc-dev-riscv64-cross
      binutils-riscv64-linux-gnu qemu-user
      libdw-dev libelf-dev libzydis-dev libglpk-dev gtkwave   # libglpk-dev: min-cost flow (sw/fdo)
      linux-source-6.1 qemu-system-misc opensbi device-tree-compiler flex bison bc cpio
      sparse libssl-dev
      linux-perf clang llvm llvm-14 autofdo
      libxml2-utils librsvg2-bin
      dpkg-dev tcl z3
      fpga-icestorm fpga-icestorm-chipdb    # icepack, icetime: fpga/pnr.sh (docs/fpga.md)
      golang-go golang-mvdan-sh-dev         # the system tier's riscv64 /bin/sh (tests/system/sh)
      slurm-wlm munge)   # slurm-wlm, munge: tests/sim/campaign (a single-node Slurm the test starts itself)

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
# slurm-wlm and munge ship services; inside a container (no init) their postinst must not start
# them: Debian's policy-rc.d convention (exit 101 = "action forbidden"), in place only for the
# install when the root has none (tests/sim/campaign starts its own daemons in a temp dir).
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
  chmod 755 /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
