/* SPDX-License-Identifier: Apache-2.0 */
/*
 * elf_image.h - the loadable bytes and the GNU build-id of an ELF file (libelf), so tools
 * can decode the instruction at an address and check that a sample file belongs to an ELF.
 * No printing, no global state; errors come back as -1 with a one-line reason.
 */
#ifndef TIPROF_ELF_IMAGE_H
#define TIPROF_ELF_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#define ELF_IMAGE_BUILD_ID_MAX 64	/* longest build-id kept, bytes */

/* One PT_LOAD segment's file bytes. */
struct elf_seg {
	uint64_t vaddr;		/* first address */
	uint64_t size;		/* bytes present in the file (p_filesz) */
	uint8_t *data;		/* those bytes (owned) */
};

/* A loaded ELF. */
struct elf_image {
	struct elf_seg *seg;	/* PT_LOAD segments (owned) */
	size_t nseg;		/* how many */
	uint8_t build_id[ELF_IMAGE_BUILD_ID_MAX];	/* NT_GNU_BUILD_ID descriptor */
	size_t build_id_len;	/* its length, 0 if the ELF has none */
};

/* Read the PT_LOAD segments and build-id of path, a RISC-V ELF, into im (zeroed first).
 * Every size read from the file is checked against the file's size before use. Returns 0,
 * or -1 with a one-line reason naming path in err (nothing to free then). */
int elf_image_load(struct elf_image *im, const char *path, char *err, size_t errlen);

/* Release im (safe on a zeroed or failed image). */
void elf_image_free(struct elf_image *im);

/* Copy up to len bytes at addr into buf, stopping at the end of the segment holding addr.
 * Returns the bytes copied (0 if addr is in no segment). */
size_t elf_image_read(const struct elf_image *im, uint64_t addr, uint8_t *buf, size_t len);

/* Lower-case hex of id[0..len) into out (2*len+1 bytes, truncated to outlen). */
void elf_image_hex(const uint8_t *id, size_t len, char *out, size_t outlen);

#endif /* TIPROF_ELF_IMAGE_H */
