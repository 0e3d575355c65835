// SPDX-License-Identifier: MIT
// The payload of a long user event for D (d/dutext.h): user:::event fires with arg1 =
// DUTEXT_ADDR and arg2 = the payload's stored size (kdtrace.c kdt_fire_payload), and while it
// fires copyin( ) and copyinstr( ) at DUTEXT_ADDR read the bytes the ring gets (kdt_uread asks
// kdt_text_read first). proc:::exec's args[0], the program's name, is served the same way.
// The window is per CPU: a firing runs on its CPU with interrupts off (kdtrace.c's rule), so
// no other firing sees it; it is cleared before the call returns.
#include <kernel/kdtrace.h>
#include <kernel/cpu.h>
#include <d/dutext.h>

static struct dutext text[KMAX_CPUS];

void kdt_text_set(const void *p, unsigned len)
{
    struct dutext *t = &text[cpu_id()];
    t->p = p;
    t->len = len;
}

void kdt_text_clear(void)
{
    kdt_text_set(NULL, 0);
}

int kdt_text_read(void *dst, uint64_t addr, unsigned n)
{
    return dutext_read(&text[cpu_id()], dst, addr, n);
}
