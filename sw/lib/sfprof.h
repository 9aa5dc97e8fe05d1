/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sfprof.h - a sample file turned into a per-address profile, for `tiprof report` and
 * `tiprof annotate`: reads the file through the sample-file module, opens the workload ELF
 * (the header's path unless the caller names one), checks the GNU build-id, decodes
 * stalled instructions to split stalls into load / store / ALU (rv_decode) and attributes
 * every sample time-proportionally (attrib.h). Functions and blocks come from
 * lib/symbol/code_map. No printing, no global state.
 */
#ifndef TIPROF_SFPROF_H
#define TIPROF_SFPROF_H

#include <stddef.h>
#include <stdint.h>

#include "attrib.h"
#include "code_map.h"
#include "elf_image.h"
#include "sample_file.h"

/* A loaded profile. */
struct sfprof {
	struct sf_header hdr;		/* the file's header */
	struct sf_trailer trailer;	/* its trailer */
	char elf[SF_PATH_MAX + 1];	/* the ELF used */
	struct elf_image img;		/* its bytes and build-id */
	struct code_map map;		/* its functions and blocks */
	int map_ok;			/* map was loaded */
	struct attr_prof prof;		/* per-address attribution, in samples */
};

/* Read file (elf: NULL for the header's path) into p (zeroed first). Returns 0, or -1
 * with a one-line message in err that names the file and says what to do. Call
 * sfprof_free in both cases. */
int sfprof_load(struct sfprof *p, const char *file, const char *elf, char *err, size_t errlen);

/* Release p. */
void sfprof_free(struct sfprof *p);

/* attr_kind_fn over p's ELF (ctx is the struct sfprof): decode the instruction at addr. */
int sfprof_kind(void *ctx, uint64_t addr);

/* Name of the sampling mode of h ("periodic", "random-interval", "random-period"). */
const char *sfprof_mode_name(const struct sf_header *h);

#endif /* TIPROF_SFPROF_H */
