// SPDX-License-Identifier: MIT
// DTrace subroutines this engine knows by name but does not implement yet, each with the
// reason a user is told (D_FUNC_UNSUPP), so that `vstackdepth` says what is missing
// instead of suggesting the call is malformed. A subroutine leaves this table when cg_call.c's
// subroutine table gains it.
#include "dcc_impl.h"
#include "dutil.h"

const char *d_subr_unsupported(const char *name)
{
    static const struct { const char *name, *why; } subrs[] = {
        { "vstackdepth", "no virtual machine stacks here" },
        { "strip", "no pointer authentication here" },
    };
    for (size_t k = 0; k < sizeof(subrs) / sizeof(subrs[0]); k++)
        if (!d_strcmp(subrs[k].name, name))
            return subrs[k].why;
    return NULL;
}
