#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/kernel/sparse.sh - sparse for riscv kernel code: Debian 12's sparse
# (0.6.4) rejects the kernel's -march=rv64imac_zicsr_zifencei... string, so the
# Z-extension suffix is cut off the -march option before sparse sees it.
# Use as: make ... C=2 CHECK=$PWD/scripts/kernel/sparse.sh
args=()
for a in "$@"; do
	case $a in
	-march=*_*) args+=("${a%%_*}") ;;
	*) args+=("$a") ;;
	esac
done
exec "${SPARSE:-sparse}" "${args[@]}"
