// SPDX-License-Identifier: MIT
// The consumer's stacks: a stack id (d/dstacks.h) printed as libdtrace's dt_print_stack
// prints a stack: a newline, then one line per frame, indented by 14 (its stackindent
// default). The board has no symbols, so a frame is its address, as libdtrace prints a pc
// it cannot resolve ("0x%llx"); the host symbolises those lines (tools/stacksym/stacksym.c,
// `make dtrace`; docs/profiling.md).
#include <d/dcons.h>
#include <d/dstacks.h>
#include "dutil.h"

#define STACK_INDENT 14

const struct dvm_state *dcons_stack_state;

void dcons_stack_print(const struct dcons_out *o, uint64_t id)
{
    unsigned n = 0, kind;
    const uint64_t *pcs = dcons_stack_state ? dvm_stack_get(dcons_stack_state, id, &n, &kind)
                                            : NULL;
    o->write(o->arg, "\n", 1);
    for (unsigned i = 0; pcs && i < n; i++) {
        char line[STACK_INDENT + 24], *p = line + STACK_INDENT;
        static const char hex[] = "0123456789abcdef";
        char digits[16];
        unsigned nd = 0;
        uint64_t pc = pcs[i];
        memset(line, ' ', STACK_INDENT);
        do {
            digits[nd++] = hex[pc & 15u];
            pc >>= 4;
        } while (pc);
        *p++ = '0';
        *p++ = 'x';
        while (nd)
            *p++ = digits[--nd];
        *p++ = '\n';
        o->write(o->arg, line, (size_t)(p - line));
    }
}
