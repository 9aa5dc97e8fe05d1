#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/sim/fullsys/mutants.sh - planted bugs in the full-system hart (sim/fullsys/fs_hart.c)
# that the bare-metal programs must catch: each mutant is built as its own tiprof-fs and
# every program is run on it; at least one must print something other than QEMU's output
# saved by run.sh ($OUT/run/<prog>.qemu.txt) or fail to pass.
#   mutants.sh CC "CFLAGS" OUT LIBS... -- ELF...
# LIBS are objects and libraries linked with every mutant (the TIP unit's: fs_unit.o, the
# Verilated unit, the harness); LINK (default CC) links them (a C++ driver for the Verilated
# library).
set -euo pipefail
cc=$1 cflags=$2 out=$3
shift 3
libs=()
while [ "$1" != -- ]; do libs+=("$1"); shift; done
shift
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../../sim/fullsys" && pwd)
mkdir -p "$out/mutants"
# name@@text in fs_hart.c@@its replacement (fixed strings; each must occur)
mutants=(
	"no delegation of exceptions@@m->priv <= FS_PRV_S && ((deleg >> code) & 1)@@0"
	"A bit not set by the walk@@pte |= PTE_A | (acc == ISS_ACC_W ? PTE_D : 0);@@pte |= (acc == ISS_ACC_W ? PTE_D : 0);"
	"D bit not set on a write@@pte |= PTE_A | (acc == ISS_ACC_W ? PTE_D : 0);@@pte |= PTE_A;"
	"SUM ignored@@(acc == ISS_ACC_X || !(m->mstatus & MS_SUM))@@(acc == ISS_ACC_X)"
	"MXR ignored@@((m->mstatus & MS_MXR) && (fl & PTE_X))@@0"
	"vectored mtvec ignored@@if ((tvec & 3) == 1 && irq)@@if (0)"
	"SPP not saved@@(m->priv == FS_PRV_S ? MS_SPP : 0) |@@0 |"
	"mret does not restore MIE@@((m->mstatus & MS_MPIE) ? MS_MIE : 0) | MS_MPIE;@@MS_MPIE;"
	"ecall from S reported as from U@@return 8 + (int)m->priv;@@return 8;"
	"stale TLB after sfence.vma@@		tlb_flush(m);
		return 0;
	default:@@		return 0;
	default:"
	"mideleg ignored for M interrupts@@pend & ~m->mideleg : 0;@@pend : 0;"
	"sie not masked by mideleg@@case CSR_SIE: *v = m->mie & m->mideleg;@@case CSR_SIE: *v = m->mie;"
	"page fault for a U page from S missed@@if (p == FS_PRV_S && (fl & PTE_U)@@if (0"
	"interrupt priority MSI before MTI lost@@{ IRQ_MEI, IRQ_MSI, IRQ_MTI,@@{ IRQ_MEI, IRQ_MTI, IRQ_MSI,"
	"FS=Off not trapping@@iss_set_fp_off(m->iss, !(m->mstatus & MS_FS));@@(void)0;"
	"counter overflow raises no LCOFI@@m->mip |= 1ull << IRQ_LCOFI;@@(void)0;"
	"SINH ignored@@mode == FS_PRV_S ? HPM_SINH : HPM_UINH@@mode == FS_PRV_S ? 0 : HPM_UINH"
	"mcountinhibit ignored@@if (((m->mcountinhibit >> (k + 3)) & 1) ||@@if ("
	"mcycle/minstret not frozen@@	if ((m->mcountinhibit >> k) & 1)
		return m->frozen[k >> 1];@@"
	"the unit's interrupt 16 not delegated@@m->mideleg = (v & MIDELEG_W) | UNIT_BIT(m);@@m->mideleg = v & MIDELEG_W;"
	"the unit's irq_o not wired to mip@@((uint64_t)fs_unit_irq(m->unit) << IRQ_UNIT)@@0"
	"interrupt 16 never taken@@IRQ_LCOFI, IRQ_UNIT };@@IRQ_LCOFI };"
	"the unit's CSRs not routed to it (reads)@@	if (m->unit && fs_unit_owns(csr))
		return unit_csr(m, 0, csr, 0, v);@@"
	"an access to the unit from the wrong privilege@@fs_unit_csr(m->unit, m->cur_pc, m->priv,@@fs_unit_csr(m->unit, m->cur_pc, 3,"
)
orig=$(cat "$src/fs_hart.c"; echo x)
orig=${orig%x}
caught=0 total=0
for mu in "${mutants[@]}"; do
	name=${mu%%@@*} rest=${mu#*@@}
	old=${rest%%@@*} new=${rest#*@@}
	total=$((total + 1))
	d=$out/mutants/m$total
	mkdir -p "$d"
	case $orig in *"$old"*) ;; *) echo "fullsys-mutants: '$name': text not in fs_hart.c" >&2; exit 1 ;; esac
	printf '%s' "${orig/"$old"/"$new"}" >"$d/fs_hart.c"
	# shellcheck disable=SC2086
	for f in "$d/fs_hart.c" "$src/fs_dev.c" "$src/fs_main.c"; do
		$cc $cflags -w -I"$src" -c -o "$d/$(basename "$f" .c).o" "$f"
	done
	${LINK:-$cc} -o "$d/tiprof-fs" "$d/fs_hart.o" "$d/fs_dev.o" "$d/fs_main.o" "${libs[@]}"
	hit=
	for elf in "$@"; do
		p=$(basename "$elf" .elf)
		uflag=; case $p in bm_unit*) uflag=--unit ;; esac
		if ! timeout 20 "$d/tiprof-fs" $uflag --max-insns 5000000 --elf "$elf" >"$d/$p.txt" 2>/dev/null ||
		   ! cmp -s "$d/$p.txt" "$out/run/$p.qemu.txt"; then
			hit=$p
			break
		fi
	done
	if [ -n "$hit" ]; then
		caught=$((caught + 1))
		echo "fullsys-mutants: caught by $hit: $name"
	else
		echo "fullsys-mutants: MISSED: $name"
	fi
done
echo "fullsys-mutants: $caught of $total planted bugs caught"
[ $caught -eq $total ]
