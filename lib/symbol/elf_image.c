/* SPDX-License-Identifier: Apache-2.0 */
/*
 * elf_image.c - PT_LOAD bytes and GNU build-id of an ELF via libelf (contract in
 * elf_image.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_image.h"

/* Find the NT_GNU_BUILD_ID note in the PT_NOTE segments. */
static void elf_image_find_build_id(struct elf_image *im, Elf *e, size_t nph)
{
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		d = elf_getdata_rawchunk(e, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR);
		if (!d)
			continue;
		while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp((const char *)d->d_buf + noff, "GNU", 4) == 0 &&
			    nh.n_descsz <= ELF_IMAGE_BUILD_ID_MAX) {
				memcpy(im->build_id, (const char *)d->d_buf + doff, nh.n_descsz);
				im->build_id_len = nh.n_descsz;
				return;
			}
		}
	}
}

/* Contract in elf_image.h. */
int elf_image_load(struct elf_image *im, const char *path, char *err, size_t errlen)
{
	int fd, ret = -1;
	Elf *e = NULL;
	size_t nph = 0;
	struct stat st;
	GElf_Ehdr eh;

	memset(im, 0, sizeof(*im));
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "libelf is unusable: %s", elf_errmsg(-1));
		return -1;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot open the ELF: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file, not an ELF file", path);
		goto out;
	}
	if (st.st_size == 0) {
		snprintf(err, errlen, "%s: the file is empty, not an ELF file", path);
		goto out;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		snprintf(err, errlen, "%s: not an ELF file", path);
		goto out;
	}
	if (eh.e_machine != EM_RISCV) {
		snprintf(err, errlen, "%s: not a RISC-V ELF file (e_machine %u)", path,
			 (unsigned)eh.e_machine);
		goto out;
	}
	if (eh.e_phoff > (uint64_t)st.st_size || (uint64_t)eh.e_phnum * eh.e_phentsize >
	    (uint64_t)st.st_size - eh.e_phoff || eh.e_shoff > (uint64_t)st.st_size ||
	    (uint64_t)eh.e_shnum * eh.e_shentsize > (uint64_t)st.st_size - eh.e_shoff) {
		snprintf(err, errlen, "%s: program or section headers outside the file (truncated "
			 "or corrupt ELF)", path);
		goto out;
	}
	if (elf_getphdrnum(e, &nph) != 0) {
		snprintf(err, errlen, "%s: bad program header table (truncated or corrupt ELF)",
			 path);
		goto out;
	}
	im->seg = calloc(nph ? nph : 1, sizeof(*im->seg));
	if (!im->seg) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		struct elf_seg *s = &im->seg[im->nseg];

		if (!gelf_getphdr(e, (int)i, &ph)) {
			snprintf(err, errlen, "%s: bad program header %zu (truncated or corrupt ELF)",
				 path, i);
			goto out;
		}
		if (ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		/* sizes from the file are checked before they size an allocation */
		if (ph.p_offset > (uint64_t)st.st_size ||
		    ph.p_filesz > (uint64_t)st.st_size - ph.p_offset) {
			snprintf(err, errlen, "%s: PT_LOAD segment %zu lies outside the file "
				 "(truncated or corrupt ELF)", path, i);
			goto out;
		}
		s->data = malloc(ph.p_filesz);
		if (!s->data || pread(fd, s->data, ph.p_filesz, (off_t)ph.p_offset) !=
		    (ssize_t)ph.p_filesz) {
			free(s->data);
			s->data = NULL;
			snprintf(err, errlen, "%s: cannot read PT_LOAD segment %zu", path, i);
			goto out;
		}
		s->vaddr = ph.p_vaddr;
		s->size = ph.p_filesz;
		im->nseg++;
	}
	elf_image_find_build_id(im, e, nph);
	ret = 0;
out:
	if (e)
		elf_end(e);
	close(fd);
	if (ret)
		elf_image_free(im);
	return ret;
}

/* Contract in elf_image.h. */
void elf_image_free(struct elf_image *im)
{
	for (size_t i = 0; i < im->nseg; i++)
		free(im->seg[i].data);
	free(im->seg);
	memset(im, 0, sizeof(*im));
}

/* Contract in elf_image.h. */
size_t elf_image_read(const struct elf_image *im, uint64_t addr, uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < im->nseg; i++) {
		const struct elf_seg *s = &im->seg[i];
		uint64_t avail;

		if (addr < s->vaddr || addr - s->vaddr >= s->size)
			continue;
		avail = s->size - (addr - s->vaddr);
		if (avail < len)
			len = (size_t)avail;
		memcpy(buf, s->data + (addr - s->vaddr), len);
		return len;
	}
	return 0;
}

/* Contract in elf_image.h. */
void elf_image_hex(const uint8_t *id, size_t len, char *out, size_t outlen)
{
	size_t o = 0;

	if (!outlen)
		return;
	for (size_t i = 0; i < len && o + 2 < outlen; i++, o += 2)
		snprintf(out + o, 3, "%02x", id[i]);
	out[o] = '\0';
}
