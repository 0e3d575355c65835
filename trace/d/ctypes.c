// SPDX-License-Identifier: MIT
// The C type names of illumos's <sys/types.h> that D programs use as if they were D's own
// (DTrace takes them from the kernel's type information): integer typedefs the declaration
// parser (decl.c) resolves when no user typedef of that name exists. A table, no code of its own.
#include "dcc_impl.h"

#define S(n) { .kind = DIF_TYPE_INT, .size = n, .sign = 1 }
#define U(n) { .kind = DIF_TYPE_INT, .size = n, .sign = 0 }

static const struct { const char *name; struct dtype type; } ctypes[] = {
    { "u_char", U(1) }, { "u_short", U(2) }, { "u_int", U(4) }, { "u_long", U(8) },
    { "longlong_t", S(8) }, { "hrtime_t", S(8) },
    { "uid_t", U(4) }, { "gid_t", U(4) }, { "off_t", S(8) }, { "time_t", S(8) },
    { "clock_t", S(8) }, { "dev_t", U(8) }, { "major_t", U(4) }, { "minor_t", U(4) },
    { "processorid_t", S(4) }, { "zoneid_t", S(4) }, { "taskid_t", S(4) },
    { "projid_t", S(4) }, { "poolid_t", S(4) }, { "ctid_t", S(4) }, { "lgrp_id_t", S(4) },
    { "psetid_t", S(4) }, { "offset_t", S(8) }, { "diskaddr_t", U(8) },
};

/* dcc_ctype: the type a C type name stands for; 0 if it is none of them. */
int dcc_ctype(const char *name, struct dtype *t)
{
    for (size_t k = 0; k < sizeof(ctypes) / sizeof(ctypes[0]); k++)
        if (!strcmp(ctypes[k].name, name)) {
            *t = ctypes[k].type;
            return 1;
        }
    return 0;
}
