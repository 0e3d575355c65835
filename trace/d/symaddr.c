// SPDX-License-Identifier: MIT
// The D subroutines that keep an address as a symbolic value (func, sym, mod, ufunc, usym,
// umod, uaddr): each one's record type letter (trace/include/d/dif.h). As in DTrace they
// compute nothing on the board: the value is the address itself, recorded, traced or used as
// an aggregation key, and the consumer prints it as a token the host names from the ELF
// files (trace/d/csymaddr.c, tools/stacksym; docs/profiling.md). func and sym are one
// action in DTrace (DT_ACT_SYM), as are ufunc and usym (DT_ACT_USYM).
#include "dcc_impl.h"
#include "dutil.h"

char d_symaddr_type(const char *name)
{
    static const struct { const char *name; char type; } subrs[] = {
        { "func", 'y' }, { "sym", 'y' }, { "mod", 'm' },
        { "ufunc", 'u' }, { "usym", 'u' }, { "umod", 'n' }, { "uaddr", 'a' },
    };
    for (size_t k = 0; k < sizeof(subrs) / sizeof(subrs[0]); k++)
        if (!d_strcmp(subrs[k].name, name))
            return subrs[k].type;
    return 0;
}
