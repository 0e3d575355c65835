// SPDX-License-Identifier: MIT
// Subroutine calls: the table of subroutines the engine runs (their DIF_S_ ids, argument kinds
// and result types), and the prototypes libdtrace checks of those the subset leaves out, so
// that misuse gets DTrace's error tag before "not supported".
#include "cg_impl.h"

struct subr { const char *name; unsigned id; const char *args; struct dtype ret; };
static const struct subr subrs[] = {
    { "strlen", DIF_S_STRLEN, "s", T_UINT64 }, { "strjoin", DIF_S_STRJOIN, "ss", T_STRING },
    { "substr", DIF_S_SUBSTR2, "si", T_STRING }, { "substr", DIF_S_SUBSTR3, "sii", T_STRING },
    { "index", DIF_S_INDEX, "ss", T_INT32 }, { "rindex", DIF_S_RINDEX, "ss", T_INT32 },
    { "index", DIF_S_INDEX3, "ssi", T_INT32 }, { "rindex", DIF_S_RINDEX3, "ssi", T_INT32 },
    { "strchr", DIF_S_STRCHR, "si", T_STRING }, { "strstr", DIF_S_STRSTR, "ss", T_STRING },
    { "lltostr", DIF_S_LLTOSTR, "i", T_STRING }, { "lltostr", DIF_S_LLTOSTR2, "ii", T_STRING },
    { "strtok", DIF_S_STRTOK, "Ss", T_STRING }, /* S: a string or NULL (0) */
    { "strtoll", DIF_S_STRTOLL, "s", T_INT64 }, { "strtoll", DIF_S_STRTOLL2, "si", T_INT64 },
    { "toupper", DIF_S_TOUPPER, "s", T_STRING }, { "tolower", DIF_S_TOLOWER, "s", T_STRING },
    { "json", DIF_S_JSON, "ss", T_STRING },
    { "speculation", DIF_S_SPECULATION, "", T_INT32 },
    { "basename", DIF_S_BASENAME, "s", T_STRING }, { "dirname", DIF_S_DIRNAME, "s", T_STRING },
    { "cleanpath", DIF_S_CLEANPATH, "s", T_STRING }, { "strrchr", DIF_S_STRRCHR, "si", T_STRING },
    { "rand", DIF_S_RAND, "", T_INT32 },
    { "progenyof", DIF_S_PROGENYOF, "i", T_INT32 },
    /* network byte order is big-endian; every board and host here is little-endian */
    { "htons", DIF_S_HTONS, "i", { .kind = DIF_TYPE_INT, .size = 2, .sign = 0 } },
    { "ntohs", DIF_S_HTONS, "i", { .kind = DIF_TYPE_INT, .size = 2, .sign = 0 } },
    { "htonl", DIF_S_HTONL, "i", T_UINT32 }, { "ntohl", DIF_S_HTONL, "i", T_UINT32 },
    { "htonll", DIF_S_HTONLL, "i", T_UINT64 }, { "ntohll", DIF_S_HTONLL, "i", T_UINT64 },
    /* copyin gives a void * into scratch: cast it to the type the bytes have */
    { "copyin", DIF_S_COPYIN, "ii", { .kind = DIF_TYPE_INT, .size = 8, .ptr = 1, .pkind = DT_NONE } },
    { "copyinstr", DIF_S_COPYINSTR, "i", T_STRING },
    { "copyinstr", DIF_S_COPYINSTR2, "ii", T_STRING },
    { "alloca", DIF_S_ALLOCA, "i", { .kind = DIF_TYPE_INT, .size = 8, .ptr = 1, .pkind = DT_NONE } },
};

/* cg_is_subr: a subroutine this compiler knows, or one DTrace has that the subset leaves out
 * (so that misuse is reported as misuse, not as an unknown name). */
int cg_is_subr(const char *s)
{
    static const char *const others[] = { "alloca", "basename", "bcopy", "cleanpath",
        "copyin", "copyinstr", "copyinto", "dirname", "getmajor", "getminor", "htonl",
        "htonll", "htons", "inet_ntoa", "inet_ntoa6", "inet_ntop", "mutex_owned",
        "mutex_owner", "mutex_type_adaptive", "ntohl", "ntohll", "ntohs", "rand",
        "rw_iswriter", "rw_read_held", "rw_write_held", "strrchr", "strtok",
        "ddi_pathname", "msgdsize", "msgsize", "getf", "json", "tracemem", "setopt",
        "freopen", "ftruncate", "jstack", "stop", "lltostr", "stringof" };
    for (size_t k = 0; k < sizeof(subrs) / sizeof(subrs[0]); k++)
        if (!strcmp(subrs[k].name, s))
            return 1;
    for (size_t k = 0; k < sizeof(others) / sizeof(others[0]); k++)
        if (!strcmp(others[k], s))
            return 1;
    return 0;
}

/* cg_proto_other: the prototype checks libdtrace makes of a subroutine or action this subset
 * does not run (dt_open.c's prototypes: 'i' integer, 's' string, 'p' pointer, '@' any;
 * upper case: optional), so that misuse gets DTrace's tag before "not supported". The
 * arguments are checked first, as libdtrace cooks them first. */
void cg_proto_other(struct cg *g, struct dnode *n)
{
    static const struct { const char *name, *args; } protos[] = {
        { "trace", "@" }, { "exit", "i" }, { "chill", "i" }, { "raise", "i" }, { "panic", "" },
        { "breakpoint", "" }, { "freeze", "" }, { "stop", "" }, { "copyout", "pii" }, { "copyoutstr", "sii" },
        { "mutex_owned", "p" }, { "mutex_owner", "p" }, { "mutex_type_adaptive", "p" },
        { "mutex_type_spin", "p" }, { "rw_read_held", "p" }, { "rw_write_held", "p" },
        { "rw_iswriter", "p" }, { "alloca", "i" }, { "getmajor", "i" },
        { "getminor", "i" }, { "msgsize", "p" }, { "msgdsize", "p" }, { "copyin", "ii" },
        { "copyinstr", "iI" }, { "copyinto", "iip" }, { "bcopy", "ppi" }, { "basename", "s" },
        { "dirname", "s" }, { "cleanpath", "s" }, { "strrchr", "si" }, { "strtok", "ss" },
        { "rand", "" }, { "htons", "i" }, { "htonl", "i" }, { "htonll", "i" }, { "ntohs", "i" },
        { "ntohl", "i" }, { "ntohll", "i" }, { "inet_ntoa", "p" }, { "inet_ntoa6", "p" },
        { "inet_ntop", "ip" }, { "ddi_pathname", "pi" }, { "setopt", "sS" },
        { "freopen", "s" }, { "ftruncate", "" }, { "print", "@" },
    };
    for (struct dnode *a = n->b; a; a = a->next)
        (void)cg_type_of(g, a);
    for (size_t k = 0; k < sizeof(protos) / sizeof(protos[0]); k++) {
        if (strcmp(protos[k].name, n->s) != 0)
            continue;
        const char *pa = protos[k].args;
        unsigned max = (unsigned)strlen(pa), min = 0, argc = cg_count_list(n->b);
        while (min < max && !(pa[min] >= 'A' && pa[min] <= 'Z'))
            min++;
        if (argc < min || argc > max)
            dcc_error(g->cc, n->line, "D_PROTO_LEN", "%s( ) prototype mismatch: %u arg%s passed, "
                      "%u expected", n->s, argc, argc == 1 ? "" : "s", min);
        unsigned i = 0;
        for (struct dnode *a = n->b; a; a = a->next, i++) {
            char want = (char)(pa[i] | 0x20);
            struct dtype t = cg_type_of(g, a);
            if (want != '@' && (want == 's') != (t.kind == DIF_TYPE_STR))
                dcc_error(g->cc, n->line, "D_PROTO_ARG", "%s( ) argument #%u is incompatible "
                          "with prototype", n->s, i + 1);
        }
        return;
    }
}

/* is_dtrace_func: a name DTrace defines as a function (subroutine, action or aggregating
 * function); calling any other name is D_FUNC_UNDEF, as libdtrace's dt_node_func finds. */
static int is_dtrace_func(const char *s)
{
    static const char *const others[] = { "func", "mod", "sym", "ufunc", "umod", "usym",
        "uaddr", "printm", "strip", "vstackdepth", "speculation" };
    if (cg_is_subr(s) || cg_is_action(s))
        return 1;
    for (size_t k = 0; k < DIF_AGG_NFUNCS; k++)
        if (!strcmp(cg_aggfuncs[k], s))
            return 1;
    for (size_t k = 0; k < sizeof(others) / sizeof(others[0]); k++)
        if (!strcmp(others[k], s))
            return 1;
    return 0;
}

unsigned cg_call(struct cg *g, struct dnode *n, struct dtype *t)
{
    unsigned nargs = cg_count_list(n->b);
    const struct subr *s = NULL;
    int known = 0;
    for (size_t k = 0; k < sizeof(subrs) / sizeof(subrs[0]); k++) {
        if (strcmp(subrs[k].name, n->s) != 0)
            continue;
        known = 1;
        if (strlen(subrs[k].args) == nargs)
            s = &subrs[k];
    }
    if (!known && !is_dtrace_func(n->s))
        dcc_error(g->cc, n->line, "D_FUNC_UNDEF", "undefined function name: %s", n->s);
    if (!known)
        cg_proto_other(g, n);
    if (!known && cg_is_action(n->s) && strcmp(n->s, "printa") != 0) {
        /* an action where a value is wanted: no value (the operator using it says so) */
        if (!strcmp(n->s, "printf") && !nargs)
            dcc_error(g->cc, n->line, "D_PROTO_LEN", "printf( ) prototype mismatch: 0 args "
                      "passed, at least 1 expected");
        unsigned rv = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR(DIF_MOV, 0, 0, rv));
        *t = (struct dtype){ .kind = DT_NONE };
        return rv;
    }
    if (!known && d_symaddr_type(n->s))
        dcc_error(g->cc, n->line, "D_PROTO_FUNC", "%s( ) is an address printed by name: a value "
                  "only in trace( ), printf( ) and aggregation keys", n->s);
    if (!known && d_subr_unsupported(n->s))
        dcc_error(g->cc, n->line, "D_FUNC_UNSUPP", "%s( ) is a DTrace subroutine this engine "
                  "does not support yet (%s)", n->s, d_subr_unsupported(n->s));
    if (!known)
        dcc_error(g->cc, n->line, "D_PROTO_FUNC",
                  "%s( ) is not a subroutine that returns a value here", n->s);
    if (!s)
        dcc_error(g->cc, n->line, "D_PROTO_LEN", "%s( ) prototype mismatch: %d args passed",
                  n->s, (int)nargs);
    unsigned regs[DIF_TUPMAX], ptype[DIF_TUPMAX], k = 0;
    struct dtype at;
    for (struct dnode *a = n->b; a; a = a->next, k++) {
        regs[k] = cg_expr(g, a, &at);
        ptype[k] = s->args[k] == 's' ? DIF_TYPE_STR : at.kind;
        int64_t zero;
        if (s->args[k] == 'S' && at.kind == DIF_TYPE_INT && cg_const_value(a, &zero) && !zero)
            at.kind = DIF_TYPE_STR; /* NULL: go on with the last string (pushed as an int) */
        if ((at.kind == DIF_TYPE_STR) != (s->args[k] == 's' || s->args[k] == 'S') ||
            at.kind == DT_NONE || at.kind == DT_SOU) /* a struct by value is no argument */
            dcc_error(g->cc, a->line, "D_PROTO_ARG", "%s( ) argument #%d is incompatible with "
                      "prototype", n->s, (int)k + 1);
    }
    for (unsigned j = 0; j < nargs; j++)
        cg_emit(g, DIF_INSTR(DIF_PUSHT, regs[j], ptype[j], 0));
    for (unsigned j = nargs; j-- > 0;)
        cg_reg_free(g, regs[j]);
    unsigned rd = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR_IDX(DIF_CALL, s->id, rd));
    if (s->id == DIF_S_ALLOCA || s->id == DIF_S_COPYIN)
        g->keep_scratch = 1;
    *t = s->ret;
    return rd;
}
