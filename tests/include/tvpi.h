/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tvpi.h - what every VPI bridge of a testbench needs (Icarus Verilog has no DPI-C): a
 * system task's arguments, values in and out of them, and the registration of a
 * testbench's $<prefix>_init, $<prefix>_tick and $<prefix>_final tasks. Header-only: each
 * bridge (tests/rtl/vpi.c, tests/rtl/pm/pm_vpi.c) is one .vpi module that includes it once.
 */
#ifndef TIPROF_TVPI_H
#define TIPROF_TVPI_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpi_user.h"

/* The most 32-bit words one argument carries (tvpi_put_words). */
#define TVPI_MAX_WORDS 32

/* The handles of the current system task's n arguments into args; any other number of
 * arguments ends the simulation with "<task>: expects <n> arguments". */
static void __attribute__((unused)) tvpi_args(vpiHandle *args, int n, const char *task)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL);
	vpiHandle it = vpi_iterate(vpiArgument, call);
	int got = 0;
	vpiHandle a;

	while (it && (a = vpi_scan(it)) != NULL) {
		if (got < n)
			args[got] = a;
		got++;
	}
	if (got != n) {
		vpi_printf("%s: expects %d arguments\n", task, n);
		exit(2);
	}
}

/* The low 64 bits of an argument's value. */
static uint64_t __attribute__((unused)) tvpi_get_u64(vpiHandle h)
{
	s_vpi_value v = { .format = vpiVectorVal };
	int bits = vpi_get(vpiSize, h);

	vpi_get_value(h, &v);
	return (uint64_t)(uint32_t)v.value.vector[0].aval |
	       (bits > 32 ? (uint64_t)(uint32_t)v.value.vector[1].aval << 32 : 0);
}

/* An argument's value as nwords (<= TVPI_MAX_WORDS) 32-bit words, word 0 lowest; words beyond
 * the argument's width read 0. */
static void __attribute__((unused)) tvpi_get_words(vpiHandle h, uint32_t *words, unsigned nwords)
{
	s_vpi_value v = { .format = vpiVectorVal };
	unsigned have = ((unsigned)vpi_get(vpiSize, h) + 31) / 32;

	vpi_get_value(h, &v);
	for (unsigned i = 0; i < nwords; i++)
		words[i] = i < have ? (uint32_t)v.value.vector[i].aval : 0;
}

/* A string argument into buf (n bytes, truncated). */
static void __attribute__((unused)) tvpi_get_str(vpiHandle h, char *buf, size_t n)
{
	s_vpi_value v = { .format = vpiStringVal };

	vpi_get_value(h, &v);
	snprintf(buf, n, "%s", v.value.str);
}

/* Write nwords (<= TVPI_MAX_WORDS) 32-bit words, word 0 lowest, to an argument, now. */
static void __attribute__((unused))
tvpi_put_words(vpiHandle h, const uint32_t *words, unsigned nwords)
{
	s_vpi_vecval vec[TVPI_MAX_WORDS];
	s_vpi_value v = { .format = vpiVectorVal };

	if (nwords > TVPI_MAX_WORDS) {
		vpi_printf("tvpi_put_words: %u words, at most %u\n", nwords, TVPI_MAX_WORDS);
		exit(2);
	}
	for (unsigned i = 0; i < nwords; i++) {
		vec[i].aval = (PLI_INT32)words[i];
		vec[i].bval = 0;
	}
	v.value.vector = vec;
	vpi_put_value(h, &v, NULL, vpiNoDelay);
}

static void __attribute__((unused)) tvpi_put_u32(vpiHandle h, uint32_t x)
{
	tvpi_put_words(h, &x, 1);
}

static void __attribute__((unused))
tvpi_register_task(const char *name, PLI_INT32 (*calltf)(PLI_BYTE8 *))
{
	s_vpi_systf_data tf;

	memset(&tf, 0, sizeof(tf));
	tf.type = vpiSysTask;
	tf.tfname = (PLI_BYTE8 *)(uintptr_t)name;
	tf.calltf = calltf;
	vpi_register_systf(&tf);
}

/* Register a testbench's three tasks $<prefix>_init, $<prefix>_tick and $<prefix>_final
 * (prefix without the $, at most 60 characters). */
static void __attribute__((unused))
tvpi_register_tb(const char *prefix, PLI_INT32 (*init)(PLI_BYTE8 *),
		 PLI_INT32 (*tick)(PLI_BYTE8 *), PLI_INT32 (*final)(PLI_BYTE8 *))
{
	/* vpi_register_systf keeps the name pointer: the names live as long as the simulation */
	static char names[3][72];
	static const char *const what[3] = { "init", "tick", "final" };
	PLI_INT32 (*const calltf[3])(PLI_BYTE8 *) = { init, tick, final };

	for (int i = 0; i < 3; i++) {
		snprintf(names[i], sizeof(names[i]), "$%s_%s", prefix, what[i]);
		tvpi_register_task(names[i], calltf[i]);
	}
}

#endif /* TIPROF_TVPI_H */
