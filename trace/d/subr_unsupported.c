// SPDX-License-Identifier: MIT
// DTrace subroutines this engine knows by name but does not implement yet, each with the
// reason a user is told (D_FUNC_UNSUPP), so that `ufunc(uregs[R_PC])` says what is missing
// instead of suggesting the call is malformed. A subroutine leaves this table when cg.c's
// subroutine table gains it.
#include "dcc_impl.h"
#include "dutil.h"

const char *d_subr_unsupported(const char *name)
{
    static const struct { const char *name, *why; } subrs[] = {
        { "func", "it names the kernel function holding an address: no kernel symbols yet" },
        { "sym", "it names the kernel symbol holding an address: no kernel symbols yet" },
        { "mod", "it names the kernel module holding an address: no kernel symbols yet" },
        { "ufunc", "it names the user function holding an address: no user symbols yet" },
        { "usym", "it names the user symbol holding an address: no user symbols yet" },
        { "umod", "it names the user module holding an address: no user symbols yet" },
        { "uaddr", "it prints a user address symbolically: no user symbols yet" },
        { "vstackdepth", "no virtual machine stacks here" },
        { "strip", "no pointer authentication here" },
    };
    for (size_t k = 0; k < sizeof(subrs) / sizeof(subrs[0]); k++)
        if (!d_strcmp(subrs[k].name, name))
            return subrs[k].why;
    return NULL;
}
