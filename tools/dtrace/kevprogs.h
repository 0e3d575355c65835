// SPDX-License-Identifier: MIT
// dtrace -i's programs: their USDT and pid probes from the ELF files the capture's build ids
// name (tool_syms.h), $target from the capture, and what to pass when a probe matches nothing.
#ifndef DTRACE_KEVPROGS_H
#define DTRACE_KEVPROGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* kevprogs_load: once (after syms_trace), reads the USDT sites and functions of every program
 * of the capture whose file is found by build id, those given with --elf aside (read before);
 * the number of files read by this call (0 after the first). */
int kevprogs_load(void);
/* kevprogs_hint: after a probe that matched nothing (kevprogs_load having run): the capture's
 * programs with and without a file, and what to pass for the others. */
void kevprogs_hint(FILE *f);
/* kevprogs_target: $target from the capture when no -c or -p gave it: obj was compiled with
 * $target = placeholder; the only process that ran the programs its pid$target probes name.
 * 0 with *target set, or -1 after saying what to pass (no pid$target probe, or no process, or
 * several). */
int kevprogs_target(const char *capture, const void *obj, size_t len, uint32_t placeholder,
                    int64_t *target);

#endif
