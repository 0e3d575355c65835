// SPDX-License-Identifier: MIT
// Kernel symbols and variables: `sym is the address in the board image's symbol table (the
// front end's dcc_symbol), `name as a value reads the kernel's data object of that name when
// the clause runs (dcc_kvar, DIF_S_KVAR); Solaris names map to this kernel's where they can.
// The system's names (`utsname's members, `architecture, `platform) come from the engine's
// host (DIF_S_UNAME, d/duname.h), which knows them live and over a capture.
#include "cg_impl.h"
#include <d/duname.h>

dcc_symbol_fn dcc_symbol;
dcc_kvar_fn dcc_kvar;

/* cg_kernel_symbol: the address of `sym or mod`sym (name, as lexed) from the front end's kernel
 * image (dcc_symbol); errors as libdtrace words them for a name it cannot resolve. */
uint64_t cg_kernel_symbol(struct cg *g, const struct dnode *n)
{
    const char *name = n->s, *tick = strrchr(name, '`');
    char mod[64];
    size_t ml = (size_t)(tick - name);
    if (ml && name[ml - 1] == '`')
        dcc_error(g->cc, n->line, "D_SYM_BADREF", "%s: user symbols (``) are not supported "
                  "in this D subset", name);
    if (ml >= sizeof(mod) || !tick[1])
        dcc_error(g->cc, n->line, "D_SYNTAX", "syntax error near \"%s\"", name);
    memcpy(mod, name, ml);
    mod[ml] = 0;
    uint64_t addr;
    if (!dcc_symbol)
        dcc_error(g->cc, n->line, "D_IDENT_UNDEF", "failed to resolve %s: Unknown symbol name "
                  "(no kernel symbol table here: the host's dtrace and dcompile read the "
                  "image's with --kernel FILE, as make dtrace passes it)", name);
    if (dcc_symbol(mod, tick + 1, &addr) != 0)
        dcc_error(g->cc, n->line, "D_IDENT_UNDEF", "failed to resolve %s: Unknown symbol name",
                  name);
    return addr;
}

/* kernel_object: the image's data object `name (or mod`name), or the one a Solaris name means
 * here, in addr and size (dcc_kvar), and what to add to its value for the Solaris name's
 * (*delta: `mpid, the last process id given, is next_pid - 1); its errors are
 * kernel_variable's. */
static void kernel_object(struct cg *g, const struct dnode *n, uint64_t *addr, uint64_t *size,
                          int *delta)
{
    static const struct { const char *sol, *ours; int delta; } alias[] = {
        { "ncpus", "k_ncpus", 0 }, { "ncpus_online", "k_ncpus", 0 }, { "mpid", "next_pid", -1 },
    };
    const char *name = n->s, *tick = strrchr(name, '`'), *sym = tick + 1;
    char mod[64];
    size_t ml = (size_t)(tick - name);
    if ((ml && name[ml - 1] == '`') || ml >= sizeof(mod) || !tick[1] || !dcc_kvar)
        cg_kernel_symbol(g, n);    /* its errors, in its words */
    if (!dcc_kvar)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "%s: no kernel variables here (&%s is the "
                  "symbol's address)", name, name);
    memcpy(mod, name, ml);
    mod[ml] = 0;
    int found = dcc_kvar(mod, sym, addr, size) == 0;
    *delta = 0;
    for (unsigned i = 0; !found && i < sizeof(alias) / sizeof(alias[0]); i++)
        if (!strcmp(sym, alias[i].sol) && dcc_kvar(mod, alias[i].ours, addr, size) == 0) {
            found = 1;
            *delta = alias[i].delta;
        }
    if (!found)
        cg_kernel_symbol(g, n);    /* an unknown name: its error, in libdtrace's words */
    if (!found)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "%s is not a kernel variable (a data object "
                  "of the image; &%s is the symbol's address)", name, name);
}

/* kernel_read: r = the kernel's unsigned integer of size bytes at addr, read when the clause
 * runs (DIF_S_KVAR: the kernel reads it for a privileged consumer only). */
static unsigned kernel_read(struct cg *g, uint64_t addr, uint64_t size, struct dtype *t)
{
    unsigned r = cg_reg_alloc(g), rs = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, addr), r));
    cg_emit(g, DIF_INSTR(DIF_PUSHT, r, DIF_TYPE_INT, 0));
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, size), rs));
    cg_emit(g, DIF_INSTR(DIF_PUSHT, rs, DIF_TYPE_INT, 0));
    cg_reg_free(g, rs);
    cg_emit(g, DIF_INSTR_IDX(DIF_CALL, DIF_S_KVAR, r));
    *t = (struct dtype){ .kind = DIF_TYPE_INT, .size = (uint8_t)size };
    return r;
}

/* cg_kernel_variable: `name (or mod`name) as a value: the kernel's data object of that name in
 * the image's symbol table, or the one a Solaris name means here, read when the clause runs.
 * Its value is an unsigned integer of the object's size, which must be 1, 2, 4 or 8 bytes. */
unsigned cg_kernel_variable(struct cg *g, const struct dnode *n, struct dtype *t)
{
    uint64_t addr = 0, size = 0;
    int delta;
    kernel_object(g, n, &addr, &size, &delta);
    if (size != 1 && size != 2 && size != 4 && size != 8)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "%s: a kernel variable of %u bytes: D reads "
                  "integers of 1, 2, 4 or 8 bytes (&%s is its address)", n->s, (unsigned)size,
                  n->s);
    unsigned r = kernel_read(g, addr, size, t);
    if (delta) {
        unsigned rd = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, (uint64_t)(int64_t)delta), rd));
        cg_emit(g, DIF_INSTR(DIF_ADD, r, rd, r));
        cg_reg_free(g, rd);
        *t = T_INT32;   /* Solaris's pid_t */
    }
    return r;
}

/* cg_kernel_element: `name[i], an element of a kernel array whose element type D knows (the
 * symbol table gives only the object's size): Solaris's `avenrun, int[3], and `hp_avenrun,
 * the same averages with 16 fraction bits (int64_t[3] on Solaris, 32 bits here: a load below
 * 65536), kernel/kloadavg.c. The index is a constant within the object, checked here; the
 * element is read as cg_kernel_variable reads an object. */
unsigned cg_kernel_element(struct cg *g, const struct dnode *n, struct dtype *t)
{
    static const struct { const char *name; unsigned elem; } arrays[] = {
        { "avenrun", 4 }, { "hp_avenrun", 4 },
    };
    const char *sym = strrchr(n->s, '`') + 1;
    unsigned elem = 0;
    for (unsigned i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++)
        if (!strcmp(sym, arrays[i].name))
            elem = arrays[i].elem;
    uint64_t addr = 0, size = 0;
    int delta;
    kernel_object(g, n, &addr, &size, &delta);
    if (!elem)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "%s[]: D knows the element type of no kernel "
                  "array but `avenrun's and `hp_avenrun's (the symbol table gives only sizes): "
                  "read %s whole or at &%s", n->s, n->s, n->s);
    int64_t i;
    if (!n->b || n->b->next || !cg_const_value(n->b, &i))
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "%s[]: a kernel array takes one constant "
                  "index here", n->s);
    if (i < 0 || (uint64_t)i >= size / elem)
        dcc_error(g->cc, n->line, "D_ARR_BADREF", "%s[%d]: the index is outside the array "
                  "(%u elements)", n->s, (int)i, (unsigned)(size / elem));
    return kernel_read(g, addr + (uint64_t)i * elem, elem, t);
}

/* uname_member: the d/duname.h member that `utsname.member (member non-NULL) or `name (member
 * NULL) names; -1 when it names none. */
static int uname_member(const struct dnode *n, const char *member)
{
    static const char *const members[] = { [DUN_SYSNAME] = "sysname",
        [DUN_NODENAME] = "nodename", [DUN_RELEASE] = "release", [DUN_VERSION] = "version",
        [DUN_MACHINE] = "machine" };
    const char *name = n->kind == N_IDENT && n->s ? n->s : "";
    if (!strcmp(name, "`utsname") || !strcmp(name, "kernel`utsname")) {
        for (int k = 0; member && k < (int)(sizeof(members) / sizeof(members[0])); k++)
            if (!strcmp(members[k], member))
                return k;
        return -1;
    }
    if (member)
        return -1;
    return !strcmp(name, "`architecture") ? DUN_ARCHITECTURE
         : !strcmp(name, "`platform") ? DUN_PLATFORM : -1;
}

/* cg_is_uname: n (with member: n.member) is one of the system's names D reads as a string */
int cg_is_uname(const struct dnode *n, const char *member)
{
    const char *name = n->kind == N_IDENT && n->s ? n->s : "";
    return uname_member(n, member) >= 0 || (member && (!strcmp(name, "`utsname") ||
                                                       !strcmp(name, "kernel`utsname")));
}

/* cg_uname: `utsname.member, `architecture or `platform: a string the engine's host gives
 * (DIF_S_UNAME) when the clause runs. A member struct utsname does not have is Solaris's
 * D_TYPE_MEMBER error. */
unsigned cg_uname(struct cg *g, const struct dnode *n, const char *member, struct dtype *t)
{
    int k = uname_member(n, member);
    if (k < 0)
        dcc_error(g->cc, n->line, "D_TYPE_MEMBER", "%s is not a member of struct utsname",
                  member ? member : n->s);
    unsigned r = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, (uint64_t)k), r));
    cg_emit(g, DIF_INSTR(DIF_PUSHT, r, DIF_TYPE_INT, 0));
    cg_emit(g, DIF_INSTR_IDX(DIF_CALL, DIF_S_UNAME, r));
    *t = T_STRING;
    return r;
}
