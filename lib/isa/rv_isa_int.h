/* SPDX-License-Identifier: Apache-2.0 */
/* Internal interface between the decoder files of lib/isa (not for users
 * of the library). */
#ifndef TIPROF_RV_ISA_INT_H
#define TIPROF_RV_ISA_INT_H

#include "rv_isa.h"

/* Complete *o for operation op at pc: static classification (fu, fmt,
 * flags, mem_size), control-transfer kind and static target. The caller
 * has set len, raw, register numbers and imm. Returns o->len. */
int rv__finish(struct rv_insn *o, enum rv_op op, uint64_t pc);

/* Expand the 16-bit instruction h into *o (registers and immediate of the
 * expanded 32-bit form). Returns the op, or RV_OP_ILLEGAL for reserved
 * encodings. */
enum rv_op rv__expand_c(uint16_t h, struct rv_insn *o);

#endif /* TIPROF_RV_ISA_INT_H */
