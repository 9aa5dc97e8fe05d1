/* SPDX-License-Identifier: Apache-2.0 */
/* C reference model of the selective-dispatch front-end blocks, from docs/seldisp-rtl.md and
 * docs/seldisp.md section 3 (see sd_model.h). */
#include <string.h>

#include "sd_model.h"

static uint64_t pcmask(unsigned pcw)
{
	return pcw >= 64 ? ~0ull : (1ull << pcw) - 1;
}

/* ---- pfstate ------------------------------------------------------------------------- */
uint64_t sd_pf_pack(const struct sd_pf *s)
{
	uint64_t v = (uint64_t)(s->flags & 0xf) | (uint64_t)(s->depth & 0xf) << 4 |
		     (uint64_t)(s->ovf & 0xffff) << 8 | (uint64_t)(s->err & 1) << 24;

	for (unsigned k = 0; k < 8; k++)
		v |= (uint64_t)(s->stack[k] & 0xf) << (32 + 4 * k);
	return v;
}

void sd_pf_op(struct sd_pf *s, unsigned fn, unsigned m)
{
	m &= 0xf;
	switch (fn & 3) {
	case 0: /* setpf: FLAGS |= m */
		s->flags |= m;
		break;
	case 1: /* resetpf: FLAGS &= ~m */
		s->flags &= ~m & 0xf;
		break;
	case 2: /* pushpf */
		if (s->depth < 8)
			s->stack[s->depth++] = s->flags;
		else if (s->ovf < 0xffff)
			s->ovf++;
		else
			s->err = 1;
		break;
	default: /* poppf */
		if (s->ovf > 0) {
			s->ovf--;
		} else if (s->depth > 0) {
			s->depth--;
			s->flags = s->stack[s->depth];
			s->stack[s->depth] = 0;   /* entries at and above DEPTH read 0 */
		} else {
			s->err = 1;
		}
		break;
	}
}

void sd_pf_warl(struct sd_pf *s, uint64_t v)
{
	s->flags = (unsigned)v & 0xf;
	s->depth = (unsigned)(v >> 4) & 0xf;
	if (s->depth > 8)
		s->depth = 8;
	s->ovf = (unsigned)(v >> 8) & 0xffff;
	s->err = (unsigned)(v >> 24) & 1;
	for (unsigned k = 0; k < 8; k++)
		s->stack[k] = k < s->depth ? (unsigned)(v >> (32 + 4 * k)) & 0xf : 0;
}

/* ---- flags --------------------------------------------------------------------------- */
void sd_flags_reset(struct sd_flags *m, const struct sd_flags_cfg *cfg)
{
	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
}

void sd_flags_eval(const struct sd_flags *m, struct sd_flags_out *o)
{
	o->arch = sd_pf_pack(&m->arch);
	o->spec = sd_pf_pack(&m->spec);
	o->flags = m->spec.flags;
}

void sd_flags_clock(struct sd_flags *m, const struct sd_flags_in *in)
{
	struct sd_pf arch = m->arch, spec = m->spec;

	if (in->csr_we) {
		sd_pf_warl(&arch, in->csr_wdata);
	} else {
		for (unsigned i = 0; i < m->cfg.rw; i++)
			if (in->ret_valid >> i & 1)
				sd_pf_op(&arch, in->ret_fn[i], in->ret_mask[i]);
	}
	if (in->csr_we)
		spec = arch;
	else if (in->flush)
		spec = arch;
	else if (in->restore)
		spec = m->ckpt[in->restore_id];
	else if (in->dec_valid)
		sd_pf_op(&spec, in->dec_fn, in->dec_mask);
	for (unsigned k = 0; k < m->cfg.ckpt; k++)
		if (in->ckpt_we >> k & 1)
			m->ckpt[k] = m->spec;        /* the state before this cycle's decode */
	m->arch = arch;
	m->spec = spec;
}

/* ---- filter -------------------------------------------------------------------------- */
void sd_filter_reset(struct sd_filter *m, const struct sd_filter_cfg *cfg)
{
	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
}

void sd_filter_eval(const struct sd_filter *m, const struct sd_filter_in *in,
		    struct sd_filter_out *o)
{
	int stop = in->stall || in->flush;

	memset(o, 0, sizeof(*o));
	for (unsigned i = 0; i < m->cfg.w; i++) {
		const struct sd_slot *s = &in->s[i];
		int set;

		if (!s->valid)
			continue;
		if (stop || (m->pop && (s->cls == SD_CLS_PROF || s->cls == SD_CLS_BLK))) {
			stop = 1;
			continue;
		}
		o->ready |= 1u << i;
		set = in->flags >> s->flag & 1;
		switch (s->cls) {
		case SD_CLS_OTHER:
			o->disp |= 1u << i;
			break;
		case SD_CLS_PROF:
			if (set)
				o->disp |= 1u << i;
			break;
		case SD_CLS_BLK:
			/* resolved here: a branch to follow, taken when the flag is clear */
			o->upd_valid = 1;
			o->upd_pc = s->pc;
			o->upd_follow = s->follow;
			o->upd_flag = s->flag;
			o->upd_clear = !set;
			if (!set != !!s->pskip) {
				o->redirect = 1;
				o->redirect_pc = !set ? s->follow : (s->pc + 4) & pcmask(m->cfg.pcw);
			}
			stop = 1;   /* one pf.blk per cycle */
			break;
		default: /* flag control: dispatched, and the last accepted slot */
			o->disp |= 1u << i;
			o->wr_valid = 1;
			o->wr_fn = s->fn;
			o->wr_mask = s->mask;
			stop = 1;
			break;
		}
	}
}

void sd_filter_clock(struct sd_filter *m, const struct sd_filter_in *in)
{
	struct sd_filter_out o;

	sd_filter_eval(m, in, &o);
	if (in->flush || m->cfg.poplat == 0)
		m->pop = 0;
	else if (o.wr_valid && o.wr_fn == 3)
		m->pop = m->cfg.poplat;
	else if (m->pop)
		m->pop--;
}

/* ---- profile flag predictor ---------------------------------------------------------- */
unsigned sd_writer_mask(unsigned fn, unsigned mask)
{
	switch (fn & 3) {
	case 0:
	case 1:
		return mask & 0xf;
	case 2:
		return 0;       /* pushpf leaves the flags */
	default:
		return 0xf;     /* poppf may restore any */
	}
}

void sd_fpred_reset(struct sd_fpred *m, const struct sd_fpred_cfg *cfg)
{
	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
}

static unsigned bdt_index(const struct sd_fpred *m, uint64_t pc)
{
	return (unsigned)(pc >> 1) & (m->cfg.entries - 1);
}

/* flags with a writer between fetch and decode, counting this cycle's fetch */
static unsigned locked_flags(const struct sd_fpred *m, const struct sd_fpred_in *in)
{
	unsigned l = 0;

	for (unsigned f = 0; f < 4; f++)
		if (m->inflight[f])
			l |= 1u << f;
	for (unsigned i = 0; i < m->cfg.w; i++)
		if (in->wf_valid >> i & 1)
			l |= in->wf_mask[i] & 0xf;
	return l;
}

void sd_fpred_eval(const struct sd_fpred *m, const struct sd_fpred_in *in, struct sd_fpred_out *o)
{
	uint64_t pm = pcmask(m->cfg.pcw), pc = in->lk_pc & pm;
	const struct sd_bdt_entry *e = &m->e[bdt_index(m, pc)];
	unsigned locked = locked_flags(m, in);

	memset(o, 0, sizeof(*o));
	o->hit = in->lk_valid && e->valid && (e->leader >> 1) == (pc >> 1);
	o->locked = o->hit && (locked >> e->flag & 1);
	o->skip = o->hit && e->pred_clear && !(locked >> e->flag & 1);
	o->target = (pc + 2ull * e->off) & pm;
}

void sd_fpred_clock(struct sd_fpred *m, const struct sd_fpred_in *in)
{
	uint64_t pm = pcmask(m->cfg.pcw);

	for (unsigned f = 0; f < 4; f++) {
		unsigned n = m->inflight[f];

		if (in->fe_flush) {
			n = 0;
		} else {
			for (unsigned i = 0; i < m->cfg.w; i++)
				if ((in->wf_valid >> i & 1) && (in->wf_mask[i] >> f & 1))
					n++;
			if (in->wd_valid && (in->wd_mask >> f & 1))
				n--;
		}
		m->inflight[f] = n & ((1u << m->cfg.lockw) - 1);
	}
	if (in->upd_valid) {
		uint64_t pc = in->upd_pc & pm;
		struct sd_bdt_entry *e = &m->e[bdt_index(m, pc)];

		e->valid = 1;
		e->leader = pc;
		e->off = (unsigned)(((in->upd_follow - in->upd_pc) & pm) >> 1) & 0xfff;
		e->flag = in->upd_flag & 3;
		e->pred_clear = !!in->upd_clear;
	}
}
