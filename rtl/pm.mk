# SPDX-License-Identifier: Apache-2.0
# rtl/pm.mk - RTL verification of the ProfileMe subsystem (docs/profileme.md "RTL"); included by
# rtl/rtl.mk.

# ProfileMe configurations linted by lint-rtl: pF-XLEN-DEPTH-TAGS[-s] (the unit with PmF = F).
PM_LINT_CONFIGS := p1-32-1-1 p2-64-16-2 p4-64-8-2 p8-64-3-2 p4-32-2-2-s p8-32-5-1
