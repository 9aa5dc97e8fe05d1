// SPDX-License-Identifier: Apache-2.0
// lib/symbol/elf_build_id.c - the GNU build-id from an ELF64 file's PT_NOTE segments, no libelf.
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "elf_build_id.h"

static int read_at(FILE *f, long size, uint64_t off, void *buf, size_t len)
{
	if (off > (uint64_t)size || len > (uint64_t)size - off)
		return -1;
	if (fseek(f, (long)off, SEEK_SET) || fread(buf, 1, len, f) != len)
		return -1;
	return 0;
}

/* The build-id in one PT_NOTE segment [off, off+len): 0 if none. */
static int scan_notes(FILE *f, long size, uint64_t off, uint64_t len, uint8_t *id, size_t max)
{
	uint64_t pos = 0;

	while (pos + sizeof(Elf64_Nhdr) <= len) {
		Elf64_Nhdr nh;
		char name[4];
		uint64_t namesz, descsz;

		if (read_at(f, size, off + pos, &nh, sizeof(nh)))
			return 0;
		namesz = (nh.n_namesz + 3u) & ~3u;
		descsz = (nh.n_descsz + 3u) & ~3u;
		if (namesz + descsz > len - pos - sizeof(nh))
			return 0;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !read_at(f, size, off + pos + sizeof(nh), name, 4) && !memcmp(name, "GNU", 4)) {
			if (nh.n_descsz == 0 || nh.n_descsz > max ||
			    read_at(f, size, off + pos + sizeof(nh) + namesz, id, nh.n_descsz))
				return 0;
			return (int)nh.n_descsz;
		}
		pos += sizeof(nh) + namesz + descsz;
	}
	return 0;
}

int elf_build_id(const char *path, uint8_t *id, size_t max)
{
	FILE *f = fopen(path, "rb");
	Elf64_Ehdr eh;
	long size;
	int n = 0;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    read_at(f, size, 0, &eh, sizeof(eh)) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_phentsize != sizeof(Elf64_Phdr)) {
		fclose(f);
		errno = ENOEXEC;
		return -1;
	}
	for (unsigned i = 0; i < eh.e_phnum && n == 0; i++) {
		Elf64_Phdr ph;

		if (read_at(f, size, eh.e_phoff + (uint64_t)i * sizeof(ph), &ph, sizeof(ph)))
			break;
		if (ph.p_type == PT_NOTE)
			n = scan_notes(f, size, ph.p_offset, ph.p_filesz, id, max);
	}
	fclose(f);
	return n;
}
