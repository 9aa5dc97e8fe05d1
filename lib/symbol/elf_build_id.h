/* SPDX-License-Identifier: Apache-2.0 */
/* lib/symbol/elf_build_id.h - the GNU build-id of an ELF64 file from its PT_NOTE segments, with
 * no libelf (tiprof record on a riscv64 board, which has no libelf here, names the recorded
 * program by it). */
#ifndef TIPROF_ELF_BUILD_ID_H
#define TIPROF_ELF_BUILD_ID_H

#include <stddef.h>
#include <stdint.h>

/* Read the NT_GNU_BUILD_ID descriptor of the little-endian ELF64 file path into id (at most
 * max bytes). Returns its length, 0 if the file has none (or its note is longer than max), or
 * -1 if path cannot be read as an ELF64 file (errno set). Every offset and size is checked
 * against the file's size. */
int elf_build_id(const char *path, uint8_t *id, size_t max);

#endif
