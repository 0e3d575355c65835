// SPDX-License-Identifier: MIT
// The D code generator: walks the parsed clauses in program order, types every expression
// (C promotions over 64-bit registers, strings by reference), resolves probe descriptions
// against the probe table, and lays out the DIF object (d/dif.h). Invariants of what it
// emits: registers are allocated LIFO from %r1..%r15 and %r0 is never a destination;
// branches are patched to strictly forward targets; every program ends with RET. The output
// must still pass dif_verify(): the kernel does not trust the compiler either.
#include "dcc_impl.h"
#include <d/dprinfo.h>
#include <d/dprobes.h>
#include <d/dfbt.h>

#define CAP_INSNS   16384u
#define CAP_INTS    1024u
#define CAP_STRS    32768u
#define CAP_ACTS    1024u
#define CAP_CLAUSES 256u
#define CAP_PROBES  2048u
/* Enablings (clause, probe pairs): the table starts at CAP_ECBS_FIRST and doubles as clauses
 * on wide descriptions (fbt:::entry over every kernel function) need, in place when it is the
 * arena's last allocation; CAP_ECBS bounds it (the kernel's engine keeps per-CPU state for
 * each, docs/fbt.md, "Heavy programs"), and the arena's size bounds it before that on a
 * board (DTRACE_CC_ARENA). */
#define CAP_ECBS_FIRST 4096u
#define CAP_ECBS       32768u

struct sym {
    const char *name;
    uint8_t scope;
    uint8_t defined;
    struct dtype type;
    char keys[DIF_TUPMAX + 1];
    uint8_t mem;        /* a variable in D memory (DIF_TYPE_MEM): a struct/union or an array */
    uint8_t isarr;      /* a declared array of nelem elements of `type` */
    uint32_t nelem;
};

/* An object in D memory an expression denotes (addr_of below): its type, and whether it is
 * an array of nelem elements or a bit-field of `bits` bits. */
struct obj {
    struct dtype t;
    uint32_t nelem;
    uint8_t isarr, bits;
};

struct aggsym {
    const char *name;
    int func;
    int line;
    char keys[DIF_RECMAX + 1];
    int64_t param[DIF_AGGPARAMS];
};

struct cg {
    struct dcc *cc;
    uint32_t *insns;
    unsigned ninsns, start;
    uint64_t *ints;
    unsigned nints;
    char *strs;
    unsigned strlen;
    struct sym syms[DIF_MAXVARS];
    unsigned nsyms;
    struct aggsym aggs[DIF_MAXAGGS];
    unsigned naggs;
    struct dif_act *acts;
    unsigned nacts;
    struct dif_clause *clauses;
    unsigned nclauses;
    struct dif_probe *probes;
    unsigned nprobes;
    struct dif_ecb *ecbs;
    unsigned necbs, capecbs;
    uint16_t regs; /* bit r set: %rr in use */
    unsigned depth; /* expr() nesting */
    char rec[DIF_RECMAX + 1];
    unsigned nrec;
    int line;
    struct xbind *xb; /* translator parameters in scope, innermost first */
    int keep_scratch; /* the clause calls alloca( ) or copyin( ): DIF_CLF_SCRATCH */
    unsigned cur_clause; /* the clause being compiled (its enablings say its probes) */
    struct dnode *float_node; /* a printf( ) argument that may be a float (push_float) */
    unsigned addrof;  /* inside the operand of unary & */
    const char *cur_desc; /* the clause's first probe description (messages) */
};

/* A translator's (or an inline array's) parameter while its expression is compiled: the
 * name stands for the operand (evaluated where the name appears, in the scope outside the
 * binding), typed as declared. An inline's parameters are bound together: `more` says the
 * next outer bind is of the same group. */
struct xbind {
    const char *name;
    struct dnode *arg;
    struct dtype type;
    struct xbind *outer;
    uint8_t more;
};

/* xb_find: the parameter `name` of the innermost group of binds, or NULL; *outside (may be
 * NULL) is the scope its operand compiles in. */
static struct xbind *xb_find(struct cg *g, const char *name, struct xbind **outside)
{
    struct xbind *b = g->xb, *hit = NULL;
    for (; b; b = b->outer) {
        if (!hit && !strcmp(b->name, name))
            hit = b;
        if (!b->more)
            break;
    }
    if (outside)
        *outside = b ? b->outer : NULL;
    return hit;
}

#define T_INT64  ((struct dtype){ .kind = DIF_TYPE_INT, .size = 8, .sign = 1 })
#define T_UINT64 ((struct dtype){ .kind = DIF_TYPE_INT, .size = 8, .sign = 0 })
#define T_INT32  ((struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 1 })
#define T_UINT32 ((struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 0 })
#define T_STRING ((struct dtype){ .kind = DIF_TYPE_STR, .size = 0, .sign = 0 })

/* ---- object tables ------------------------------------------------------------------------ */

static unsigned emit(struct cg *g, uint32_t ins)
{
    if (g->ninsns == CAP_INSNS || g->ninsns - g->start >= DIF_MAXPROG)
        dcc_error(g->cc, g->line, "D_DIF_SIZE", "program too large");
    g->insns[g->ninsns++] = ins;
    return g->ninsns - 1 - g->start;
}

static unsigned here(struct cg *g) { return g->ninsns - g->start; }

static void patch(struct cg *g, unsigned pc, unsigned op)
{
    g->insns[g->start + pc] = DIF_INSTR_BR(op, here(g));
}

static unsigned intern_int(struct cg *g, uint64_t v)
{
    for (unsigned k = 0; k < g->nints; k++)
        if (g->ints[k] == v)
            return k;
    if (g->nints == CAP_INTS)
        dcc_error(g->cc, g->line, "D_DIF_SIZE", "too many integer constants");
    g->ints[g->nints] = v;
    return g->nints++;
}

static uint32_t intern_str(struct cg *g, const char *s)
{
    size_t n = strlen(s);
    for (unsigned off = 0; off < g->strlen; off += (unsigned)strlen(g->strs + off) + 1)
        if (strcmp(g->strs + off, s) == 0)
            return off;
    if (g->strlen + n + 1 > CAP_STRS || g->strlen + n + 1 > 65535)
        dcc_error(g->cc, g->line, "D_DIF_SIZE", "string table full");
    memcpy(g->strs + g->strlen, s, n + 1);
    g->strlen += (unsigned)n + 1;
    return g->strlen - (unsigned)n - 1;
}

static unsigned reg_alloc(struct cg *g)
{
    for (unsigned r = 1; r < DIF_NREGS; r++)
        if (!(g->regs & (1u << r))) {
            g->regs |= (uint16_t)(1u << r);
            return r;
        }
    dcc_error(g->cc, g->line, "D_NOREG", "insufficient registers to generate code");
}

static void reg_free(struct cg *g, unsigned r) { g->regs &= (uint16_t)~(1u << r); }

static char type_letter(struct dtype t)
{
    if (t.kind == DIF_TYPE_STR)
        return 's';
    static const char s[9] = { 0, 'b', 'h', 0, 'i', 0, 0, 0, 'l' };
    static const char u[9] = { 0, 'B', 'H', 0, 'I', 0, 0, 0, 'L' };
    return t.sign ? s[t.size] : u[t.size];
}

/* ---- types -------------------------------------------------------------------------------- */

static struct dtype promote(struct dtype t)
{
    if (t.size < 4)
        return T_INT32;
    return t;
}

static struct dtype arith(struct dtype a, struct dtype b)
{
    a = promote(a);
    b = promote(b);
    if (a.size == b.size)
        return (struct dtype){ .kind = DIF_TYPE_INT, .size = a.size, .sign = (uint8_t)(a.sign && b.sign) };
    return a.size > b.size ? a : b;
}

static void need_int(struct cg *g, struct dtype t, int line, const char *op)
{
    if (t.kind != DIF_TYPE_INT)
        dcc_error(g->cc, line, "D_OP_INT", "operator %s requires an operand of integral type", op);
}

/* convert: makes reg hold a value of type `to` from type `from` (ints only). */
static void convert(struct cg *g, unsigned r, struct dtype from, struct dtype to)
{
    if (to.kind != DIF_TYPE_INT || from.kind != DIF_TYPE_INT || to.size == 8)
        return;
    if (to.size < from.size || to.sign != from.sign || from.size == 8)
        emit(g, DIF_INSTR(to.sign ? DIF_SEXT : DIF_ZEXT, r, to.size, r));
}

/* ---- constants ---------------------------------------------------------------------------- */

static int const_value(struct dnode *n, int64_t *v)
{
    int64_t a, b;
    switch (n->kind) {
    case N_INT:
        *v = n->ival;
        return 1;
    case N_UN:
        if (!const_value(n->a, &a))
            return 0;
        *v = n->op == T_MINUS ? (int64_t)(0 - (uint64_t)a) : n->op == T_TILDE ? ~a
             : n->op == T_NOT ? !a : a;
        return 1;
    case N_CAST:
        return const_value(n->a, v);
    case N_BIN:
        if (!const_value(n->a, &a) || !const_value(n->b, &b))
            return 0;
        switch (n->op) {
        case T_PLUS: *v = (int64_t)((uint64_t)a + (uint64_t)b); return 1;
        case T_MINUS: *v = (int64_t)((uint64_t)a - (uint64_t)b); return 1;
        case T_STAR: *v = (int64_t)((uint64_t)a * (uint64_t)b); return 1;
        case T_SLASH: case T_PERCENT:
            if (b == 0 || (b == -1 && a == INT64_MIN))
                return 0;
            *v = n->op == T_SLASH ? a / b : a % b;
            return 1;
        case T_SHL: *v = (int64_t)((uint64_t)a << (b & 63)); return 1;
        case T_SHR: *v = a >> (b & 63); return 1;
        case T_AMP: *v = a & b; return 1;
        case T_BAR: *v = a | b; return 1;
        case T_CARET: *v = a ^ b; return 1;
        default: return 0;
        }
    default:
        return 0;
    }
}

/* ---- variables ---------------------------------------------------------------------------- */

static struct sym *sym_find(struct cg *g, const char *name, int scope)
{
    for (unsigned k = 0; k < g->nsyms; k++) {
        int s = g->syms[k].scope;
        if (strcmp(g->syms[k].name, name) != 0)
            continue;
        if (s == scope || (scope == DIF_SCOPE_GLOBAL && s == DIF_SCOPE_ARRAY) ||
            (scope == DIF_SCOPE_ARRAY && s == DIF_SCOPE_GLOBAL))
            return &g->syms[k];
    }
    return NULL;
}

static struct sym *sym_new(struct cg *g, const char *name, int scope, int line)
{
    if (g->nsyms == DIF_MAXVARS)
        dcc_error(g->cc, line, "D_DIF_SIZE", "too many variables");
    struct sym *s = &g->syms[g->nsyms++];
    s->name = name;
    s->scope = (uint8_t)scope;
    return s;
}

static unsigned sym_id(struct cg *g, struct sym *s) { return (unsigned)(s - g->syms); }

static const char *scope_prefix(int scope)
{
    return scope == DIF_SCOPE_SELF ? "self->" : scope == DIF_SCOPE_THIS ? "this->" : "";
}

struct builtin { const char *name; unsigned id; struct dtype type; };
static const struct builtin builtins[] = {
    { "arg0", DIF_B_ARG0, T_INT64 }, { "arg1", DIF_B_ARG0 + 1, T_INT64 },
    { "arg2", DIF_B_ARG0 + 2, T_INT64 }, { "arg3", DIF_B_ARG0 + 3, T_INT64 },
    { "arg4", DIF_B_ARG0 + 4, T_INT64 }, { "arg5", DIF_B_ARG0 + 5, T_INT64 },
    { "arg6", DIF_B_ARG0 + 6, T_INT64 }, { "arg7", DIF_B_ARG0 + 7, T_INT64 },
    { "arg8", DIF_B_ARG0 + 8, T_INT64 }, { "arg9", DIF_B_ARG0 + 9, T_INT64 },
    { "timestamp", DIF_B_TIMESTAMP, T_UINT64 }, { "vtimestamp", DIF_B_VTIMESTAMP, T_UINT64 },
    { "walltimestamp", DIF_B_WALLTIMESTAMP, T_INT64 }, { "pid", DIF_B_PID, T_INT32 },
    { "tid", DIF_B_TID, T_INT32 }, { "ppid", DIF_B_PPID, T_INT32 },
    { "cpu", DIF_B_CPU, T_INT32 }, { "execname", DIF_B_EXECNAME, T_STRING },
    { "probeprov", DIF_B_PROBEPROV, T_STRING }, { "probemod", DIF_B_PROBEMOD, T_STRING },
    { "probefunc", DIF_B_PROBEFUNC, T_STRING }, { "probename", DIF_B_PROBENAME, T_STRING },
    { "epid", DIF_B_EPID, T_UINT32 }, { "id", DIF_B_ID, T_UINT32 },
    { "errno", DIF_B_ERRNO, T_INT32 },
};

static const struct builtin *builtin_find(const char *name)
{
    for (size_t k = 0; k < sizeof(builtins) / sizeof(builtins[0]); k++)
        if (strcmp(builtins[k].name, name) == 0)
            return &builtins[k];
    return NULL;
}

/* is_builtin_name: a built-in variable or constant of D (read-only, not redeclarable). */
static int is_builtin_name(const char *name)
{
    const char *tn;
    return builtin_find(name) || dcc_builtin_const(name) || dcc_procinfo(name, &tn);
}

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

/* is_subr: a subroutine this compiler knows, or one DTrace has that the subset leaves out
 * (so that misuse is reported as misuse, not as an unknown name). */
static int is_subr(const char *s)
{
    static const char *const others[] = { "alloca", "basename", "bcopy", "cleanpath",
        "copyin", "copyinstr", "copyinto", "dirname", "getmajor", "getminor", "htonl",
        "htonll", "htons", "inet_ntoa", "inet_ntoa6", "inet_ntop", "mutex_owned",
        "mutex_owner", "mutex_type_adaptive", "ntohl", "ntohll", "ntohs", "progenyof",
        "rand", "rw_iswriter", "rw_read_held", "rw_write_held", "strrchr", "strtok",
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

/* ---- expressions -------------------------------------------------------------------------- */

static unsigned expr(struct cg *g, struct dnode *n, struct dtype *t);
static void agg_mdim(struct cg *g, const struct dnode *n);

static int is_aggsym(struct cg *g, const char *name)
{
    for (unsigned k = 0; k < g->naggs; k++)
        if (strcmp(g->aggs[k].name, name) == 0)
            return 1;
    return 0;
}

static unsigned count_list(struct dnode *n)
{
    unsigned k = 0;
    for (; n; n = n->next)
        k++;
    return k;
}

/* push_keys: evaluates a key list and pushes it on the tuple stack; returns its descriptor. */
/* A struct or union key (DCC_KEY_SOU + its type's index in the key signature) goes on the
 * tuple stack as its bytes, 8 to an integer key (the last one zero-padded): equal objects
 * make equal keys, as DTrace compares them by value. */
static void add_const(struct cg *g, unsigned r, uint64_t k);
static unsigned key_chunks(struct cg *g, char k)
{
    if ((unsigned char)k < DCC_KEY_SOU)
        return 1;
    struct dtype t = { .kind = DT_SOU, .sou = (uint16_t)((unsigned char)k - DCC_KEY_SOU) };
    return (dcc_type_size(g->cc, t) + 7u) / 8u;
}

/* keys_vm: the VM's key types for a key signature (struct keys as their integer chunks) */
static void keys_vm(struct cg *g, const char *sig, char *out)
{
    unsigned n = 0;
    for (; *sig; sig++)
        for (unsigned c = key_chunks(g, *sig); c-- > 0;)
            out[n++] = (unsigned char)*sig >= DCC_KEY_SOU ? 'l' : *sig;
    out[n] = 0;
}

/* push_sou_key: pushes the object at address ra (size bytes) as integer chunks, in three
 * registers (DTrace has seven to give out: a key is often built beside other live values) */
static void push_sou_key(struct cg *g, unsigned ra, unsigned size)
{
    unsigned rv = reg_alloc(g), rt = reg_alloc(g), rb = reg_alloc(g);
    for (unsigned off = 0; off < size; off += 8) {
        for (unsigned b = 0; b < 8 && off + b < size; b++) { /* bytes: any alignment */
            unsigned rd = b ? rb : rv;
            if (off + b) {
                emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, off + b), rt));
                emit(g, DIF_INSTR(DIF_ADD, ra, rt, rt));
                emit(g, DIF_INSTR(DIF_LDUB, rt, 0, rd));
            } else {
                emit(g, DIF_INSTR(DIF_LDUB, ra, 0, rd));
            }
            if (b) { /* rt, the address, is free again: it holds the shift */
                emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, 8u * b), rt));
                emit(g, DIF_INSTR(DIF_SLL, rb, rt, rb));
                emit(g, DIF_INSTR(DIF_OR, rv, rb, rv));
            }
        }
        emit(g, DIF_INSTR(DIF_PUSHT, rv, DIF_TYPE_INT, 0));
    }
    reg_free(g, rb);
    reg_free(g, rt);
    reg_free(g, rv);
}

static void push_keys(struct cg *g, struct dnode *keys, char *desc, int tls)
{
    unsigned regs[DIF_TUPMAX], n = 0, chunks = tls;
    struct dtype types[DIF_TUPMAX];
    if (tls) { /* self->a[k]: a global array whose first key is the thread's id */
        regs[0] = reg_alloc(g);
        types[0] = T_INT32;
        emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_TID, regs[0]));
        desc[n++] = 'l';
    }
    for (struct dnode *k = keys; k; k = k->next) {
        if (n == DIF_TUPMAX)
            dcc_error(g->cc, k->line, "D_ARR_BADREF", "too many keys");
        if (k->kind == N_AGG && is_aggsym(g, k->s))
            dcc_error(g->cc, k->line, "D_KEY_TYPE", "key #%u is an aggregation", n + 1);
        regs[n] = expr(g, k, &types[n]);
        if (types[n].kind == DT_NONE)
            dcc_error(g->cc, k->line, "D_KEY_TYPE", "key #%u has no value", n + 1);
        desc[n] = types[n].kind == DIF_TYPE_STR ? 's' : 'l';
        if (types[n].kind == DT_SOU && !types[n].ptr)
            desc[n] = (char)(DCC_KEY_SOU + types[n].sou);
        chunks += key_chunks(g, desc[n]);
        if (chunks > DIF_TUPMAX)
            dcc_error(g->cc, k->line, "D_ARR_BADREF", "too many keys (a struct key takes one "
                      "per 8 bytes)");
        n++;
    }
    desc[n] = 0;
    for (unsigned k = 0; k < n; k++) {
        if ((unsigned char)desc[k] >= DCC_KEY_SOU)
            push_sou_key(g, regs[k], dcc_type_size(g->cc, types[k]));
        else
            emit(g, DIF_INSTR(DIF_PUSHT, regs[k], types[k].kind, 0));
    }
    for (unsigned k = n; k-- > 0;)
        reg_free(g, regs[k]);
}

static const char *key_name(struct cg *g, char k)
{
    if ((unsigned char)k < DCC_KEY_SOU)
        return k == 's' ? "string" : "integer";
    struct dsou *s = dcc_sou(g->cc, (struct dtype){ .kind = DT_SOU,
                                                     .sou = (uint16_t)((unsigned char)k - DCC_KEY_SOU) });
    return s->tag ? s->tag : dcc_sou_kind(s);
}

/* lvalue: resolves a variable reference. For arrays, pushes the keys first. If `def` is set,
 * an undefined variable is created with type *t. Returns the symbol. */
static struct sym *lvalue(struct cg *g, struct dnode *n, const struct dtype *def)
{
    int scope;
    char keys[DIF_TUPMAX + 1] = "";
    switch (n->kind) {
    case N_IDENT: scope = DIF_SCOPE_GLOBAL; break;
    case N_INDEX: scope = DIF_SCOPE_ARRAY; break;
    case N_SELF: scope = DIF_SCOPE_SELF; break;
    case N_THIS: scope = DIF_SCOPE_THIS; break;
    default:
        dcc_error(g->cc, n->line, "D_OP_LVAL", "operator = requires a writable variable");
    }
    if (scope == DIF_SCOPE_GLOBAL && is_builtin_name(n->s))
        dcc_error(g->cc, n->line, "D_OP_WRITE", "%s is a built-in variable: operators that "
                  "assign can only be applied to a writable variable", n->s);
    if (scope == DIF_SCOPE_ARRAY)
        push_keys(g, n->b, keys, n->op == 1);
    struct sym *s = sym_find(g, n->s, scope);
    if (s && s->defined && s->scope != scope)
        dcc_error(g->cc, n->line, "D_IDENT_BADREF", "%s '%s' may not be referenced as %s",
                  s->scope == DIF_SCOPE_ARRAY ? "array" : "scalar", n->s,
                  s->scope == DIF_SCOPE_ARRAY ? "scalar" : "array");
    if (!s || !s->defined) {
        if (!def)
            dcc_error(g->cc, n->line, "D_IDENT_UNDEF", "failed to resolve %s%s: Unknown variable name",
                      scope_prefix(scope), n->s);
        if (!s)
            s = sym_new(g, n->s, scope, n->line);
        else if (s->type.kind != def->kind && s->type.kind != DT_NONE)
            dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "operands have incompatible types");
        if (s->type.kind == 0 && s->type.size == 0)
            s->type = *def;
        s->scope = (uint8_t)scope;
        s->defined = 1;
        memcpy(s->keys, keys, sizeof(keys));
    } else if (scope == DIF_SCOPE_ARRAY && strcmp(s->keys, keys) != 0) {
        /* the keys against the array's prototype (its declaration or first use), as
         * libdtrace's dt_idcook_sign: the count, then each key's type */
        unsigned tls = n->op == 1; /* the thread's id is no key of the user's */
        unsigned want = (unsigned)strlen(s->keys) - tls, got = (unsigned)strlen(keys) - tls;
        if (want != got)
            dcc_error(g->cc, n->line, "D_PROTO_LEN", "%s[ ] prototype mismatch: %u arg%s "
                      "passed, %u expected", n->s, got, got == 1 ? "" : "s", want);
        for (unsigned k = 0; k < want; k++)
            if (s->keys[k + tls] != keys[k + tls])
                dcc_error(g->cc, n->line, "D_PROTO_ARG", "%s[ ] argument #%u is incompatible "
                          "with prototype:\n\tprototype: %s\n\t argument: %s", n->s, k + 1,
                          key_name(g, s->keys[k + tls]), key_name(g, keys[k + tls]));
    }
    return s;
}

static const uint8_t ld_op[] = { [DIF_SCOPE_GLOBAL] = DIF_LDGV, [DIF_SCOPE_ARRAY] = DIF_LDGA,
                                 [DIF_SCOPE_SELF] = DIF_LDSV, [DIF_SCOPE_THIS] = DIF_LDTV };
static const uint8_t st_op[] = { [DIF_SCOPE_GLOBAL] = DIF_STGV, [DIF_SCOPE_ARRAY] = DIF_STGA,
                                 [DIF_SCOPE_SELF] = DIF_STSV, [DIF_SCOPE_THIS] = DIF_STTV };

/* load_var: loads variable n; def (may be NULL) defines it if it is new (x++, x += 1). */
static unsigned load_var(struct cg *g, struct dnode *n, struct dtype *t, const struct dtype *def)
{
    struct sym *s = lvalue(g, n, def);
    unsigned r = reg_alloc(g);
    emit(g, DIF_INSTR_IDX(ld_op[s->scope], sym_id(g, s), r));
    *t = s->type;
    return r;
}

/* store_var: stores r (of type t) into the variable n; keys are evaluated again. */
static void store_var(struct cg *g, struct dnode *n, unsigned r, struct dtype t)
{
    struct sym *s = lvalue(g, n, &t);
    if (s->type.kind != t.kind)
        dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "operands have incompatible types: %s%s is %s",
                  scope_prefix(s->scope), n->s, s->type.kind == DIF_TYPE_STR ? "a string" : "an integer");
    /* as libdtrace's dt_cg_asgn_op: a scalar variable keeps the register's 64 bits whatever
     * its type (DIF's registers and variables are 64-bit); its type narrows where the value
     * is recorded, stored in memory or cast, not here */
    emit(g, DIF_INSTR_IDX(st_op[s->scope], sym_id(g, s), r));
}

static unsigned bool_result(struct cg *g, unsigned brop)
{
    /* after a compare: rd = condition ? 1 : 0 */
    unsigned rd = reg_alloc(g);
    unsigned b = emit(g, 0);
    emit(g, DIF_INSTR(DIF_MOV, 0, 0, rd));
    unsigned j = emit(g, 0);
    patch(g, b, brop);
    emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, 1), rd));
    patch(g, j, DIF_BA);
    return rd;
}

/* compare: emits the compare of ra and rb (types ta, tb) for operator n->op, frees both and
 * returns the branch opcode taken when the comparison holds. */
static unsigned compare(struct cg *g, struct dnode *n, unsigned ra, struct dtype ta,
                        unsigned rb, struct dtype tb)
{
    int op = n->op;
    int str = ta.kind == DIF_TYPE_STR;
    int64_t zero;
    /* a string against NULL: this subset has no null string pointer, the empty string
     * stands for it (what strchr/strstr give when they find nothing, what NULL assigns) */
    if (str && tb.kind == DIF_TYPE_INT && !tb.ptr && const_value(n->b, &zero) && !zero) {
        emit(g, DIF_INSTR_IDX(DIF_SETS, 0, rb));
        tb = T_STRING;
    } else if (tb.kind == DIF_TYPE_STR && ta.kind == DIF_TYPE_INT && const_value(n->a, &zero) &&
               !zero) {
        emit(g, DIF_INSTR_IDX(DIF_SETS, 0, ra));
        ta = T_STRING;
        str = 1;
    }
    if (ta.kind != tb.kind)
        dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "operands have incompatible types: "
                  "\"%s\" %s \"%s\"", str ? "string" : "int", dcc_tokname(op),
                  str ? "int" : "string");
    int uns = !str && !arith(ta, tb).sign;
    emit(g, DIF_INSTR(str ? DIF_SCMP : DIF_CMP, ra, rb, 0));
    reg_free(g, rb);
    reg_free(g, ra);
    switch (op) {
    case T_LT: return uns ? DIF_BLU : DIF_BL;
    case T_GT: return uns ? DIF_BGU : DIF_BG;
    case T_LE: return uns ? DIF_BLEU : DIF_BLE;
    case T_GE: return uns ? DIF_BGEU : DIF_BGE;
    case T_EQ: return DIF_BE;
    default: return DIF_BNE;
    }
}

static unsigned elem_size(struct cg *g, struct dtype t, int line);
static unsigned addr_of(struct cg *g, struct dnode *n, struct obj *o);
static void store_obj(struct cg *g, unsigned ra, const struct obj *o, unsigned rv,
                      struct dtype tv, int line);

static struct dtype type_of(struct cg *g, struct dnode *n);
static int is_action(const char *s);
static int is_action_call(const struct dnode *n);

/* is_scalar: an integer or a pointer (libdtrace's dt_node_is_scalar) */
static int is_scalar(struct dtype t)
{
    return t.kind == DIF_TYPE_INT;
}

/* logic_operands: && || ^^ take operands of scalar type (checked once both are compiled,
 * as libdtrace cooks both first) */
static void logic_operands(struct cg *g, struct dnode *n, struct dtype ta, struct dtype tb)
{
    if (!is_scalar(ta) || !is_scalar(tb))
        dcc_error(g->cc, n->line, "D_OP_SCALAR", "operator %s requires operands of scalar "
                  "type", dcc_tokname(n->op));
}

static unsigned binop(struct cg *g, struct dnode *n, struct dtype *t)
{
    struct dtype ta, tb;
    int op = n->op;
    if (op == T_LAND || op == T_LOR) {
        unsigned ra = expr(g, n->a, &ta);
        emit(g, DIF_INSTR(DIF_TST, ra, 0, 0));
        unsigned rd = ra; /* the left operand's register holds the result: a chain of
                           * || or && needs two registers, not one per operator */
        emit(g, DIF_INSTR(DIF_MOV, 0, 0, rd));
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, op == T_LOR), rd));
        unsigned b1 = emit(g, 0);
        unsigned rb = expr(g, n->b, &tb);
        logic_operands(g, n, ta, tb);
        emit(g, DIF_INSTR(DIF_TST, rb, 0, 0));
        reg_free(g, rb);
        emit(g, DIF_INSTR(DIF_MOV, 0, 0, rd));
        unsigned b2 = emit(g, 0);
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, 1), rd));
        patch(g, b2, DIF_BE);
        patch(g, b1, op == T_LOR ? DIF_BNE : DIF_BE);
        *t = T_INT32;
        return rd;
    }
    unsigned ra = expr(g, n->a, &ta);
    unsigned rb = expr(g, n->b, &tb);
    if (ta.kind == DT_NONE || tb.kind == DT_NONE)
        dcc_error(g->cc, n->line, "D_OP_VOID", "operator %s requires operands with values",
                  dcc_tokname(op));
    if (op == T_LXOR) {
        logic_operands(g, n, ta, tb);
        emit(g, DIF_INSTR(DIF_TST, ra, 0, 0));
        unsigned x = bool_result(g, DIF_BNE);
        emit(g, DIF_INSTR(DIF_TST, rb, 0, 0));
        unsigned y = bool_result(g, DIF_BNE);
        emit(g, DIF_INSTR(DIF_XOR, x, y, ra));
        reg_free(g, y);
        reg_free(g, x);
        reg_free(g, rb);
        *t = T_INT32;
        return ra;
    }
    if (op >= T_LT && op <= T_NE) {
        *t = T_INT32;
        return bool_result(g, compare(g, n, ra, ta, rb, tb));
    }
    need_int(g, ta, n->line, dcc_tokname(op));
    need_int(g, tb, n->line, dcc_tokname(op));
    if ((op == T_PLUS || op == T_MINUS) && (ta.ptr || tb.ptr)) {
        /* pointer arithmetic: in elements; a difference of pointers counts elements */
        /* as libdtrace: a void * (or function pointer) does no arithmetic */
        if ((ta.ptr == 1 && ta.pkind == DT_NONE) || (tb.ptr == 1 && tb.pkind == DT_NONE))
            dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "operands have incompatible types: "
                      "void * %s", dcc_tokname(op));
        if (ta.ptr && tb.ptr && op == T_PLUS)
            dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "operands have incompatible types: "
                      "pointer + pointer");
        if (tb.ptr && op == T_MINUS && !ta.ptr)
            dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "operands have incompatible types: "
                      "integer - pointer");
        if (tb.ptr && !ta.ptr) { /* int + ptr */
            unsigned x = ra; ra = rb; rb = x;
            struct dtype y = ta; ta = tb; tb = y;
        }
        unsigned es = elem_size(g, dcc_deref(ta), n->line);
        unsigned rs = reg_alloc(g);
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, es), rs));
        if (tb.ptr) {
            emit(g, DIF_INSTR(DIF_SUB, ra, rb, ra));
            emit(g, DIF_INSTR(DIF_SDIV, ra, rs, ra));
            *t = T_INT64;
        } else {
            convert(g, rb, tb, T_INT64);
            emit(g, DIF_INSTR(DIF_MUL, rb, rs, rb));
            emit(g, DIF_INSTR(op == T_PLUS ? DIF_ADD : DIF_SUB, ra, rb, ra));
            *t = ta;
        }
        reg_free(g, rs);
        reg_free(g, rb);
        return ra;
    }
    struct dtype rt = arith(ta, tb);
    if (op == T_SHL || op == T_SHR)
        rt = promote(ta);
    unsigned o;
    int64_t cv;
    switch (op) {
    case T_PLUS: o = DIF_ADD; break;
    case T_MINUS: o = DIF_SUB; break;
    case T_STAR: o = DIF_MUL; break;
    case T_SLASH: case T_PERCENT:
        if (const_value(n->b, &cv) && cv == 0)
            dcc_error(g->cc, n->line, "D_DIV_ZERO", "expression contains %s by zero",
                      op == T_SLASH ? "division" : "modulus");
        o = op == T_SLASH ? (rt.sign ? DIF_SDIV : DIF_UDIV) : (rt.sign ? DIF_SREM : DIF_UREM);
        break;
    case T_SHL: o = DIF_SLL; break;
    case T_SHR: o = rt.sign ? DIF_SRA : DIF_SRL; break;
    case T_AMP: o = DIF_AND; break;
    case T_BAR: o = DIF_OR; break;
    case T_CARET: o = DIF_XOR; break;
    default:
        dcc_error(g->cc, n->line, "D_SYNTAX", "unexpected operator");
    }
    /* as libdtrace's dt_cg: the 64-bit result stays as it is; a value narrower than 64 bits
     * is cut to its size where it is recorded, stored in memory or cast */
    emit(g, DIF_INSTR(o, ra, rb, ra));
    reg_free(g, rb);
    *t = rt;
    return ra;
}

static struct dtype type_of(struct cg *g, struct dnode *n);

/* proto_other: the prototype checks libdtrace makes of a subroutine or action this subset
 * does not run (dt_open.c's prototypes: 'i' integer, 's' string, 'p' pointer, '@' any;
 * upper case: optional), so that misuse gets DTrace's tag before "not supported". The
 * arguments are checked first, as libdtrace cooks them first. */
static void proto_other(struct cg *g, struct dnode *n)
{
    static const struct { const char *name, *args; } protos[] = {
        { "trace", "@" }, { "exit", "i" }, { "chill", "i" }, { "raise", "i" }, { "panic", "" },
        { "breakpoint", "" }, { "stop", "" }, { "copyout", "pii" }, { "copyoutstr", "sii" },
        { "mutex_owned", "p" }, { "mutex_owner", "p" }, { "mutex_type_adaptive", "p" },
        { "mutex_type_spin", "p" }, { "rw_read_held", "p" }, { "rw_write_held", "p" },
        { "rw_iswriter", "p" }, { "progenyof", "i" }, { "alloca", "i" }, { "getmajor", "i" },
        { "getminor", "i" }, { "msgsize", "p" }, { "msgdsize", "p" }, { "copyin", "ii" },
        { "copyinstr", "iI" }, { "copyinto", "iip" }, { "bcopy", "ppi" }, { "basename", "s" },
        { "dirname", "s" }, { "cleanpath", "s" }, { "strrchr", "si" }, { "strtok", "ss" },
        { "rand", "" }, { "htons", "i" }, { "htonl", "i" }, { "htonll", "i" }, { "ntohs", "i" },
        { "ntohl", "i" }, { "ntohll", "i" }, { "inet_ntoa", "p" }, { "inet_ntoa6", "p" },
        { "inet_ntop", "ip" }, { "ddi_pathname", "pi" }, { "setopt", "sS" },
        { "freopen", "s" }, { "ftruncate", "" }, { "print", "@" },
    };
    for (struct dnode *a = n->b; a; a = a->next)
        (void)type_of(g, a);
    for (size_t k = 0; k < sizeof(protos) / sizeof(protos[0]); k++) {
        if (strcmp(protos[k].name, n->s) != 0)
            continue;
        const char *pa = protos[k].args;
        unsigned max = (unsigned)strlen(pa), min = 0, argc = count_list(n->b);
        while (min < max && !(pa[min] >= 'A' && pa[min] <= 'Z'))
            min++;
        if (argc < min || argc > max)
            dcc_error(g->cc, n->line, "D_PROTO_LEN", "%s( ) prototype mismatch: %u arg%s passed, "
                      "%u expected", n->s, argc, argc == 1 ? "" : "s", min);
        unsigned i = 0;
        for (struct dnode *a = n->b; a; a = a->next, i++) {
            char want = (char)(pa[i] | 0x20);
            struct dtype t = type_of(g, a);
            if (want != '@' && (want == 's') != (t.kind == DIF_TYPE_STR))
                dcc_error(g->cc, n->line, "D_PROTO_ARG", "%s( ) argument #%u is incompatible "
                          "with prototype", n->s, i + 1);
        }
        return;
    }
}

static int is_action(const char *s);
static const char *const aggfuncs[DIF_AGG_NFUNCS];

/* is_dtrace_func: a name DTrace defines as a function (subroutine, action or aggregating
 * function); calling any other name is D_FUNC_UNDEF, as libdtrace's dt_node_func finds. */
static int is_dtrace_func(const char *s)
{
    static const char *const others[] = { "func", "mod", "sym", "ufunc", "umod", "usym",
        "uaddr", "printm", "strip", "vstackdepth", "speculation" };
    if (is_subr(s) || is_action(s))
        return 1;
    for (size_t k = 0; k < DIF_AGG_NFUNCS; k++)
        if (!strcmp(aggfuncs[k], s))
            return 1;
    for (size_t k = 0; k < sizeof(others) / sizeof(others[0]); k++)
        if (!strcmp(others[k], s))
            return 1;
    return 0;
}

static unsigned call(struct cg *g, struct dnode *n, struct dtype *t)
{
    unsigned nargs = count_list(n->b);
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
        proto_other(g, n);
    if (!known && is_action(n->s) && strcmp(n->s, "printa") != 0) {
        /* an action where a value is wanted: no value (the operator using it says so) */
        if (!strcmp(n->s, "printf") && !nargs)
            dcc_error(g->cc, n->line, "D_PROTO_LEN", "printf( ) prototype mismatch: 0 args "
                      "passed, at least 1 expected");
        unsigned rv = reg_alloc(g);
        emit(g, DIF_INSTR(DIF_MOV, 0, 0, rv));
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
        regs[k] = expr(g, a, &at);
        ptype[k] = s->args[k] == 's' ? DIF_TYPE_STR : at.kind;
        int64_t zero;
        if (s->args[k] == 'S' && at.kind == DIF_TYPE_INT && const_value(a, &zero) && !zero)
            at.kind = DIF_TYPE_STR; /* NULL: go on with the last string (pushed as an int) */
        if ((at.kind == DIF_TYPE_STR) != (s->args[k] == 's' || s->args[k] == 'S') ||
            at.kind == DT_NONE || at.kind == DT_SOU) /* a struct by value is no argument */
            dcc_error(g->cc, a->line, "D_PROTO_ARG", "%s( ) argument #%d is incompatible with "
                      "prototype", n->s, (int)k + 1);
    }
    for (unsigned j = 0; j < nargs; j++)
        emit(g, DIF_INSTR(DIF_PUSHT, regs[j], ptype[j], 0));
    for (unsigned j = nargs; j-- > 0;)
        reg_free(g, regs[j]);
    unsigned rd = reg_alloc(g);
    emit(g, DIF_INSTR_IDX(DIF_CALL, s->id, rd));
    if (s->id == DIF_S_ALLOCA || s->id == DIF_S_COPYIN)
        g->keep_scratch = 1;
    *t = s->ret;
    return rd;
}

static unsigned obj_incdec(struct cg *g, struct dnode *n, struct dtype *t);
static unsigned sou_assign(struct cg *g, struct dnode *n, unsigned rsrc, struct dtype t);
static unsigned xlate_assign(struct cg *g, struct dnode *n, struct dtype *t);
static unsigned inline_array(struct cg *g, struct dnode *n, struct dtype *t);
static unsigned xlate_member(struct cg *g, struct dnode *n, struct dtype *t);
static int is_obj(struct cg *g, const struct dnode *n);
static void fix_index(struct cg *g, struct dnode *n);
static int index_is_subscript(struct cg *g, const struct dnode *n);

static unsigned incdec(struct cg *g, struct dnode *n, struct dtype *t)
{
    fix_index(g, n->a);
    if (is_obj(g, n->a))
        return obj_incdec(g, n, t);
    int post = n->kind == N_POSTINC || n->kind == N_POSTDEC;
    int inc = n->kind == N_POSTINC || n->kind == N_PREINC;
    struct dtype def = T_INT64; /* a new variable under ++ or -- is an int64_t, as libdtrace makes it */
    unsigned r = load_var(g, n->a, t, &def);
    if (!is_scalar(*t))
        dcc_error(g->cc, n->line, "D_OP_SCALAR", "operator %s requires operand of scalar type",
                  inc ? "++" : "--");
    unsigned one = reg_alloc(g);
    uint64_t step = t->ptr ? dcc_type_size(g->cc, dcc_deref(*t)) : 1;
    emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, step ? step : 1), one));
    unsigned nv = reg_alloc(g);
    emit(g, DIF_INSTR(inc ? DIF_ADD : DIF_SUB, r, one, nv));
    store_var(g, n->a, nv, *t);
    if (!post)
        emit(g, DIF_INSTR(DIF_MOV, nv, 0, r));
    reg_free(g, nv);
    reg_free(g, one);
    return r;
}

static int is_action(const char *s);

/* is_void_call: a call of an action (trace( ), printf( )...): DTrace types it void. A
 * stack( ) is a value where a record is (printf's %k, aggregation keys). */
static int is_void_call(const struct dnode *n)
{
    return n && n->kind == N_CALL && is_action(n->s) && strcmp(n->s, "stack") != 0 &&
           strcmp(n->s, "ustack") != 0 && strcmp(n->s, "jstack") != 0; /* stacks: %k values */
}

/* is_string_var: n names a variable already defined as a string. */
static int is_string_var(struct cg *g, const struct dnode *n)
{
    int scope = n->kind == N_IDENT ? DIF_SCOPE_GLOBAL : n->kind == N_INDEX ? DIF_SCOPE_ARRAY
              : n->kind == N_SELF ? DIF_SCOPE_SELF : n->kind == N_THIS ? DIF_SCOPE_THIS : -1;
    struct sym *s = scope < 0 ? NULL : sym_find(g, n->s, scope);
    return s && s->defined && s->type.kind == DIF_TYPE_STR;
}

/* agg_mdim: @a[0][2] (an aggregation indexed twice) is libdtrace's D_AGG_MDIM, found when
 * the left-hand side is cooked, before the right-hand side. */
static void agg_mdim(struct cg *g, const struct dnode *n)
{
    if (n->kind == N_SUBSCR && n->a->kind == N_AGG && n->a->b)
        dcc_error(g->cc, n->line, "D_AGG_MDIM", "improper attempt to reference @%s as a "
                  "multi-dimensional array", n->a->s);
}

static unsigned assignment(struct cg *g, struct dnode *n, struct dtype *t)
{
    agg_mdim(g, n->a);
    fix_index(g, n->a);
    if (n->b->kind == N_XLATE)
        return xlate_assign(g, n, t);
    struct dnode *l = n->a;
    if (n->op != T_ASSIGN && (l->kind == N_IDENT || l->kind == N_SELF || l->kind == N_THIS ||
                              l->kind == N_INDEX) &&
        !(l->kind == N_IDENT && (builtin_find(l->s) || xb_find(g, l->s, NULL)))) {
        /* libdtrace (dt_cook_var): x op= e reads x first; a variable never assigned is
         * D_VAR_UNDEF (x++ may create one) */
        int scope = l->kind == N_IDENT ? DIF_SCOPE_GLOBAL : l->kind == N_SELF ? DIF_SCOPE_SELF
                  : l->kind == N_THIS ? DIF_SCOPE_THIS : DIF_SCOPE_ARRAY;
        struct sym *ls = sym_find(g, l->s, scope);
        if (!(ls && ls->defined) && !is_obj(g, l))
            dcc_error(g->cc, n->line, "D_VAR_UNDEF", "%s%s has not yet been assigned a value",
                      scope_prefix(scope), l->s);
    }
    if (n->a->kind == N_AGG)
        dcc_error(g->cc, n->line, "D_AGG_SCALAR", "aggregations may only be assigned an "
                  "aggregating function, in a statement of their own");
    int scope = n->a->kind == N_IDENT ? DIF_SCOPE_GLOBAL : n->a->kind == N_INDEX ?
                DIF_SCOPE_ARRAY : n->a->kind == N_SELF ? DIF_SCOPE_SELF : n->a->kind == N_THIS ?
                DIF_SCOPE_THIS : -1;
    struct sym *ls = scope >= 0 ? sym_find(g, n->a->s, scope) : NULL;
    if (n->op != T_ASSIGN && scope >= 0 && !is_obj(g, n->a) && !is_builtin_name(n->a->s) &&
        (!ls || !ls->defined)) /* libdtrace cooks op='s left operand as a reference first */
        dcc_error(g->cc, n->line, "D_VAR_UNDEF", "%s%s has not yet been declared or assigned",
                  scope_prefix(scope), n->a->s);
    if (n->op != T_ASSIGN && is_void_call(n->b))
        dcc_error(g->cc, n->line, "D_OP_VOID", "operator %s requires operands with values",
                  dcc_tokname(n->op));
    unsigned r = expr(g, n->b, t);
    if (t->kind == DT_NONE)
        dcc_error(g->cc, n->line, "D_OP_VOID", "cannot assign a value-less expression");
    if ((n->op == T_ADD_EQ || n->op == T_SUB_EQ) && ls && ls->defined && !is_obj(g, n->a) &&
        (t->ptr || ls->type.ptr) && (!ls->type.ptr || (ls->type.ptr == 1 && ls->type.pkind == DT_NONE)))
        dcc_error(g->cc, n->line, "D_OP_VFPTR", "operator %s requires left-hand scalar operand "
                  "of known size", dcc_tokname(n->op));
    int64_t zero;
    if (n->op == T_ASSIGN && t->kind == DIF_TYPE_INT && const_value(n->b, &zero) && !zero &&
        is_string_var(g, n->a)) { /* NULL to a string: the empty string (see compare) */
        emit(g, DIF_INSTR_IDX(DIF_SETS, 0, r));
        *t = T_STRING;
    }
    if (t->kind == DT_SOU) /* r holds its address */
        return sou_assign(g, n, r, *t);
    if (n->op != T_ASSIGN) {
        static const uint8_t map[] = { [T_ADD_EQ - T_ASSIGN] = T_PLUS, [T_SUB_EQ - T_ASSIGN] = T_MINUS,
            [T_MUL_EQ - T_ASSIGN] = T_STAR, [T_DIV_EQ - T_ASSIGN] = T_SLASH,
            [T_MOD_EQ - T_ASSIGN] = T_PERCENT, [T_SHL_EQ - T_ASSIGN] = T_SHL,
            [T_SHR_EQ - T_ASSIGN] = T_SHR, [T_AND_EQ - T_ASSIGN] = T_AMP,
            [T_XOR_EQ - T_ASSIGN] = T_CARET, [T_OR_EQ - T_ASSIGN] = T_BAR };
        struct dnode tmp = { .kind = N_BIN, .op = map[n->op - T_ASSIGN], .line = n->line,
                             .a = n->a, .b = n->b };
        reg_free(g, r);
        struct dtype lt = T_INT32;
        if (!is_obj(g, n->a) && (n->a->kind != N_IDENT || !builtin_find(n->a->s))) {
            struct dtype def = T_INT32;
            unsigned save = g->ninsns;
            uint16_t regs = g->regs;
            reg_free(g, load_var(g, n->a, &lt, &def)); /* defines it; code discarded */
            g->ninsns = save;
            g->regs = regs;
        } else {
            lt = type_of(g, n->a);
        }
        if (t->kind != DIF_TYPE_INT || lt.kind != DIF_TYPE_INT)
            dcc_error(g->cc, n->line, n->op == T_ADD_EQ || n->op == T_SUB_EQ ? "D_OP_INCOMPAT"
                      : n->op == T_MUL_EQ || n->op == T_DIV_EQ ? "D_OP_ARITH" : "D_OP_INT",
                      "operator %s: operands have incompatible types", dcc_tokname(n->op));
        r = binop(g, &tmp, t);
    }
    if (is_obj(g, n->a)) {
        struct obj o;
        unsigned ra = addr_of(g, n->a, &o);
        store_obj(g, ra, &o, r, *t, n->line);
        reg_free(g, ra);
        *t = o.t;
        return r;
    }
    int64_t cv;
    if (t->kind == DIF_TYPE_INT && !t->ptr && const_value(n->b, &cv) && cv == 0 &&
        is_string_var(g, n->a)) { /* s = NULL: the empty string, as NULL compares above */
        emit(g, DIF_INSTR_IDX(DIF_SETS, 0, r));
        *t = T_STRING;
    }
    store_var(g, n->a, r, *t);
    return r;
}

static unsigned expr_(struct cg *g, struct dnode *n, struct dtype *t);
static unsigned unop(struct cg *g, struct dnode *n, struct dtype *t);
static unsigned ternary(struct cg *g, struct dnode *n, struct dtype *t);

/* ---- objects in D memory: struct/union variables, declared arrays, pointers ---------------- */

/* mem_sym: the D-memory variable n names (a global or this->), or NULL. */
static struct sym *mem_sym(struct cg *g, const struct dnode *n)
{
    struct sym *s = NULL;
    if (n->kind == N_IDENT || n->kind == N_INDEX)
        s = sym_find(g, n->s, DIF_SCOPE_GLOBAL);
    else if (n->kind == N_THIS)
        s = sym_find(g, n->s, DIF_SCOPE_THIS);
    return s && s->mem && s->scope != DIF_SCOPE_ARRAY ? s : NULL;
}

/* assoc_sou: the struct-valued associative array n indexes (a[k] of `struct s a[int]`),
 * or NULL. Its element is an object in D memory: the VM's DIF_LDGA gives its address. */
static struct sym *assoc_sou(struct cg *g, const struct dnode *n)
{
    struct sym *s = n->kind == N_INDEX ? sym_find(g, n->s, DIF_SCOPE_ARRAY) : NULL;
    return s && s->mem && s->scope == DIF_SCOPE_ARRAY ? s : NULL;
}

/* is_obj: does n denote an object in memory (so that it has an address)? */
static int is_obj(struct cg *g, const struct dnode *n)
{
    struct xbind *out, *b = n->kind == N_IDENT ? xb_find(g, n->s, &out) : NULL;
    if (b) { /* a translator's parameter */
        struct xbind *save = g->xb;
        g->xb = out;
        int yes = is_obj(g, b->arg);
        g->xb = save;
        return yes;
    }
    if (n->kind == N_CAST && n->type.kind == DT_SOU && !n->type.ptr)
        return is_obj(g, n->a); /* (struct s)e: e itself, if it is one */
    switch (n->kind) {
    case N_MEMBER: case N_DEREF: case N_SUBSCR:
        return 1;
    case N_IDENT: case N_THIS:
        return mem_sym(g, n) != NULL;
    case N_INDEX: {
        struct sym *s = mem_sym(g, n);
        return (s && s->isarr) || index_is_subscript(g, n) || assoc_sou(g, n);
    }
    default:
        return 0;
    }
}

static unsigned addr_of(struct cg *g, struct dnode *n, struct obj *o);

/* index_is_subscript: p[i] on a pointer variable p, which the parser read as an associative
 * array (it cannot tell): a subscript when p is a declared or assigned scalar global. */
static int index_is_subscript(struct cg *g, const struct dnode *n)
{
    if (n->kind != N_INDEX || n->op == 1 || !n->b || n->b->next)
        return 0;
    struct sym *s = sym_find(g, n->s, DIF_SCOPE_GLOBAL);
    return s && s->defined && s->scope == DIF_SCOPE_GLOBAL && !s->mem;
}

/* fix_index: rewrites such an n into the subscript it is. */
static void fix_index(struct cg *g, struct dnode *n)
{
    if (!index_is_subscript(g, n))
        return;
    struct dnode *base = dcc_alloc(g->cc, sizeof(*base));
    base->kind = N_IDENT;
    base->line = n->line;
    base->s = n->s;
    n->kind = N_SUBSCR;
    n->a = base;
}

static unsigned elem_size(struct cg *g, struct dtype t, int line)
{
    unsigned sz = dcc_type_size(g->cc, t);
    if (!sz)
        dcc_error(g->cc, line, "D_OP_INCOMPLETE", "cannot use an incomplete type as an "
                  "array or pointer element");
    return sz;
}

/* add_const: r += k */
static void add_const(struct cg *g, unsigned r, uint64_t k)
{
    if (!k)
        return;
    unsigned rk = reg_alloc(g);
    emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, k), rk));
    emit(g, DIF_INSTR(DIF_ADD, r, rk, r));
    reg_free(g, rk);
}

/* load_obj: turns r, the address of object o, into its value (of type *t): integers and
 * pointers are loaded (bit-fields masked and extended); an array decays to a pointer to its
 * first element; structs, unions and strings stay by reference. */
static void load_obj(struct cg *g, unsigned r, const struct obj *o, struct dtype *t)
{
    if (o->isarr) {
        *t = dcc_ptr_to(o->t);
        return;
    }
    *t = o->t;
    if (o->t.kind != DIF_TYPE_INT)
        return;
    unsigned size = o->t.size, sign = o->t.sign;
    if (o->bits)
        size = o->bits <= 8 ? 1 : o->bits <= 16 ? 2 : o->bits <= 32 ? 4 : 8;
    static const uint8_t lds[9] = { 0, DIF_LDSB, DIF_LDSH, 0, DIF_LDSW, 0, 0, 0, DIF_LDX };
    static const uint8_t ldu[9] = { 0, DIF_LDUB, DIF_LDUH, 0, DIF_LDUW, 0, 0, 0, DIF_LDX };
    emit(g, DIF_INSTR(sign ? lds[size] : ldu[size], r, 0, r));
    if (o->bits && o->bits < 64) { /* the low bits hold the field (its storage unit's start) */
        unsigned rk = reg_alloc(g);
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, 64u - o->bits), rk));
        emit(g, DIF_INSTR(DIF_SLL, r, rk, r));
        emit(g, DIF_INSTR(sign ? DIF_SRA : DIF_SRL, r, rk, r));
        reg_free(g, rk);
    }
}

/* store_obj: *ra = rv (of type tv), converted to the object's type. */
static void store_obj(struct cg *g, unsigned ra, const struct obj *o, unsigned rv,
                      struct dtype tv, int line)
{
    if (o->isarr)
        dcc_error(g->cc, line, "D_OP_ARRFUN", "operator = may not be applied to operand of "
                  "array type");
    if (o->t.kind == DIF_TYPE_STR && tv.kind == DIF_TYPE_STR && !o->bits) {
        /* a string member: the engine copies it, NUL-padded, into the member's strsize
         * bytes (DIF_S_COPYS, checked as a DIF_ST* of all of them) */
        unsigned rd = reg_alloc(g);
        emit(g, DIF_INSTR(DIF_PUSHT, ra, DIF_TYPE_INT, 0));
        emit(g, DIF_INSTR(DIF_PUSHT, rv, DIF_TYPE_STR, 0));
        emit(g, DIF_INSTR_IDX(DIF_CALL, DIF_S_COPYS, rd));
        reg_free(g, rd);
        return;
    }
    if (o->t.kind != DIF_TYPE_INT)
        dcc_error(g->cc, line, o->t.kind == DIF_TYPE_STR ? "D_OP_INCOMPAT" : "D_UNSUPPORTED",
                  o->t.kind == DIF_TYPE_STR ? "operands have incompatible types: string member "
                  "assigned a non-string" : "assignment to %s is not supported in this D subset",
                  o->t.kind == DT_FLOAT ? "a floating-point object" : "a whole struct or union");
    if (tv.kind != DIF_TYPE_INT)
        dcc_error(g->cc, line, "D_OP_INCOMPAT", "operands have incompatible types: integer "
                  "object assigned a %s", tv.kind == DIF_TYPE_STR ? "string" : "non-scalar");
    convert(g, rv, tv, o->t);
    static const uint8_t st[9] = { 0, DIF_STB, DIF_STH, 0, DIF_STW, 0, 0, 0, DIF_STX };
    if (o->bits) { /* the field is the low bits of its storage unit: read, merge, write */
        static const uint8_t ldu[9] = { 0, DIF_LDUB, DIF_LDUH, 0, DIF_LDUW, 0, 0, 0, DIF_LDX };
        unsigned size = o->bits <= 8 ? 1 : o->bits <= 16 ? 2 : o->bits <= 32 ? 4 : 8;
        uint64_t mask = o->bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << o->bits) - 1u;
        unsigned rc = reg_alloc(g), rm = reg_alloc(g), rn = reg_alloc(g);
        emit(g, DIF_INSTR(ldu[size], ra, 0, rc));
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, ~mask), rm));
        emit(g, DIF_INSTR(DIF_AND, rc, rm, rc));
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, mask), rm));
        emit(g, DIF_INSTR(DIF_AND, rv, rm, rn));
        emit(g, DIF_INSTR(DIF_OR, rc, rn, rc));
        emit(g, DIF_INSTR(st[size], rc, 0, ra));
        reg_free(g, rn);
        reg_free(g, rm);
        reg_free(g, rc);
        return;
    }
    emit(g, DIF_INSTR(st[o->t.size], rv, 0, ra));
}

/* subscript: the address of base[idx]: an element of a declared array (a constant index out
 * of its bounds is D_ARR_BOUNDS; a variable one makes the address 0 when out of bounds, so
 * that the access faults, as a bad address, to ERROR) or of what a pointer points to. */
static unsigned subscript(struct cg *g, struct dnode *base, struct dnode *idx, struct obj *o,
                          int line)
{
    struct dtype t, ti;
    struct obj b = { 0 };
    unsigned r;
    uint32_t bound = 0;
    if (base->kind == N_THIS && !mem_sym(g, base) && !sym_find(g, base->s, DIF_SCOPE_THIS))
        dcc_error(g->cc, line, "D_ARR_LOCAL", "local variables may not be used as "
                  "associative arrays: %s", base->s);
    if (is_obj(g, base)) {
        r = addr_of(g, base, &b);
        if (b.isarr) {
            t = dcc_ptr_to(b.t);
            bound = b.nelem;
        } else {
            load_obj(g, r, &b, &t);
        }
    } else {
        r = expr(g, base, &t);
    }
    if (!t.ptr)
        dcc_error(g->cc, line, "D_OP_PTR", "operator [ ] may only be used with an array or "
                  "pointer");
    struct dtype et = dcc_deref(t);
    int64_t cv;
    /* &a[N], one past the end, is an address C and D allow */
    if (bound && const_value(idx, &cv) &&
        (cv < 0 || (uint64_t)cv > bound || ((uint64_t)cv == bound && !g->addrof)))
        dcc_error(g->cc, line, "D_ARR_BOUNDS", "index %d is out of range for array of %d "
                  "elements", (int)cv, (int)bound);
    unsigned ri = expr(g, idx, &ti);
    need_int(g, ti, line, "[ ]");
    convert(g, ri, ti, T_INT64);
    unsigned rs = reg_alloc(g);
    emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, elem_size(g, et, line)), rs));
    emit(g, DIF_INSTR(DIF_MUL, ri, rs, rs));
    emit(g, DIF_INSTR(DIF_ADD, r, rs, r));
    reg_free(g, rs);
    if (bound && !const_value(idx, &cv)) {
        unsigned rb = reg_alloc(g);
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, bound), rb));
        emit(g, DIF_INSTR(DIF_CMP, ri, rb, 0));
        reg_free(g, rb);
        unsigned br = emit(g, 0);
        emit(g, DIF_INSTR(DIF_MOV, 0, 0, r));
        patch(g, br, DIF_BLU);
    }
    reg_free(g, ri);
    o->t = et;
    o->isarr = 0;
    o->nelem = 1;
    o->bits = 0;
    return r;
}

/* addr_of: the address of the object n denotes, in a new register; *o describes it. */
static unsigned addr_of(struct cg *g, struct dnode *n, struct obj *o)
{
    fix_index(g, n);
    struct dtype t;
    struct obj b = { 0 };
    unsigned r;
    g->line = n->line;
    struct xbind *xout, *xb = n->kind == N_IDENT ? xb_find(g, n->s, &xout) : NULL;
    if (xb) { /* a translator's parameter */
        struct xbind *save = g->xb;
        g->xb = xout;
        r = addr_of(g, xb->arg, o);
        g->xb = save;
        if (o->isarr || o->t.kind != xb->type.kind || o->t.sou != xb->type.sou)
            dcc_error(g->cc, n->line, "D_XLATE_INCOMPAT", "xlate operand is incompatible "
                      "with the translator's input %s", n->s);
        return r;
    }
    if (n->kind == N_CAST && n->type.kind == DT_SOU && !n->type.ptr) {
        r = addr_of(g, n->a, o); /* a struct cast to its own type, as libdtrace allows */
        if (o->isarr || o->t.kind != DT_SOU || o->t.sou != n->type.sou)
            dcc_error(g->cc, n->line, "D_CAST_INVAL", "invalid cast expression");
        return r;
    }
    switch (n->kind) {
    case N_IDENT: case N_THIS: {
        struct sym *s = mem_sym(g, n);
        if (!s)
            dcc_error(g->cc, n->line, "D_ADDROF_VAR", "cannot take address of dynamic "
                      "variable");
        r = reg_alloc(g);
        emit(g, DIF_INSTR_IDX(n->kind == N_THIS ? DIF_LDTV : DIF_LDGV, sym_id(g, s), r));
        o->t = s->type;
        o->isarr = s->isarr;
        o->nelem = s->isarr ? s->nelem : 1;
        o->bits = 0;
        return r;
    }
    case N_INDEX: {
        struct sym *as = assoc_sou(g, n);
        if (as) { /* the element's address (created zeroed if missing: vm.c var_load) */
            lvalue(g, n, NULL); /* pushes the keys, checks them against the prototype */
            r = reg_alloc(g);
            emit(g, DIF_INSTR_IDX(DIF_LDGA, sym_id(g, as), r));
            o->t = as->type;
            o->isarr = 0;
            o->nelem = 1;
            o->bits = 0;
            return r;
        }
        struct dnode base = { .kind = N_IDENT, .line = n->line, .s = n->s };
        if (n->b->next)
            dcc_error(g->cc, n->line, "D_ARR_BADREF", "too many subscripts for array %s", n->s);
        return subscript(g, &base, n->b, o, n->line);
    }
    case N_SUBSCR:
        return subscript(g, n->a, n->b, o, n->line);
    case N_MEMBER: {
        if (n->op == T_DOT) {
            if (!is_obj(g, n->a))
                dcc_error(g->cc, n->line, "D_OP_SOU", "operator . requires an operand of "
                          "struct or union type");
            r = addr_of(g, n->a, &b);
            if (b.isarr || b.t.kind != DT_SOU)
                dcc_error(g->cc, n->line, "D_OP_SOU", "operator . requires an operand of "
                          "struct or union type");
        } else {
            r = expr(g, n->a, &t);
            if (!t.ptr)
                dcc_error(g->cc, n->line, "D_OP_PTR", "operator -> requires an operand of "
                          "pointer type");
            if (t.ptr != 1 || t.pkind != DT_SOU)
                dcc_error(g->cc, n->line, "D_OP_SOU", "operator -> cannot be applied to a "
                          "pointer to a type other than a struct or union");
            b.t = dcc_deref(t);
        }
        struct dsou *s = dcc_sou(g->cc, b.t);
        if (!s->complete)
            dcc_error(g->cc, n->line, "D_OP_INCOMPLETE", "operator %s cannot be applied to "
                      "a forward declaration: no %s definition is available",
                      n->op == T_DOT ? "." : "->", dcc_sou_kind(s));
        struct dmember *m = dcc_member_find(s, n->s);
        if (!m)
            dcc_error(g->cc, n->line, "D_TYPE_MEMBER", "%s is not a member of %s %s", n->s,
                      dcc_sou_kind(s), s->tag ? s->tag : "(anon)");
        add_const(g, r, m->off);
        o->t = m->type;
        o->isarr = m->isarr;
        o->nelem = m->nelem;
        o->bits = m->bits;
        return r;
    }
    case N_DEREF:
        r = expr(g, n->a, &t);
        if (!t.ptr)
            dcc_error(g->cc, n->line, "D_DEREF_NONPTR", "cannot dereference non-pointer type");
        o->t = dcc_deref(t);
        if (o->t.kind == DT_NONE)
            dcc_error(g->cc, n->line, "D_DEREF_VOID", "cannot dereference pointer to void");
        o->isarr = 0;
        o->nelem = 1;
        o->bits = 0;
        return r;
    default:
        dcc_error(g->cc, n->line, "D_ADDROF_LVAL", "cannot take address of a non-lvalue");
    }
}

/* xlate_member: xlate <T>(e).m or xlate <T *>(e)->m: the translator from e's type to T
 * gives m's expression, compiled with its parameter standing for e, converted to m's type. */
/* xlate_compat: a translator member's expression (of type t) must suit the member, as
 * libdtrace's assignment rules: integers from integers, pointers from pointers (or 0),
 * strings from strings; arrays and structs are not translated. */
static void xlate_compat(struct cg *g, const struct dxmember *xm, const struct dmember *m,
                         struct dtype t, struct dnode *e)
{
    int64_t zero;
    int ok = !m->isarr && m->type.kind != DT_SOU && t.kind != DT_NONE && t.kind != DT_SOU &&
             (m->type.kind == DIF_TYPE_STR) == (t.kind == DIF_TYPE_STR);
    if (ok && m->type.kind == DIF_TYPE_INT && !m->type.ptr != !t.ptr &&
        !(m->type.ptr && const_value(e, &zero) && zero == 0))
        ok = 0;
    if (!ok)
        dcc_error(g->cc, xm->line, "D_XLATE_INCOMPAT", "translator member %s definition uses "
                  "incompatible types", xm->name);
}

/* xlator_find: the translator to struct/union `out` from e's type: integers to integers,
 * strings to strings, a struct to the same struct, pointers to the same type. */
static const struct dxlator *xlator_find(struct cg *g, struct dtype out, struct dnode *e)
{
    struct dtype it = type_of(g, e);
    for (const struct dxlator *c = g->cc->xlators; c; c = c->next)
        if (c->dst.sou == out.sou && (c->src.kind == DIF_TYPE_STR) == (it.kind == DIF_TYPE_STR)
            && (c->src.kind != DT_SOU || c->src.sou == it.sou) && it.kind != DT_NONE &&
            !c->src.ptr == !it.ptr && (!it.ptr || (c->src.pkind == it.pkind &&
                                                   c->src.sou == it.sou)))
            return c;
    struct dsou *s = dcc_sou(g->cc, out);
    dcc_error(g->cc, e->line, "D_XLATE_NONE", "No translator to %s %s from the operand's "
              "type", dcc_sou_kind(s), s->tag ? s->tag : "(anon)");
}

/* xlate_value: the value translator xl gives member m (named name) of its output for
 * operand e, converted to m's type. */
static unsigned xlate_value(struct cg *g, const struct dxlator *xl, struct dnode *e,
                            const struct dmember *m, const char *name, struct dtype *t,
                            int line);

static unsigned xlate_member(struct cg *g, struct dnode *n, struct dtype *t)
{
    struct dnode *x = n->a;
    struct dtype out = x->type;
    if (out.kind != DT_SOU && !(out.ptr == 1 && out.pkind == DT_SOU))
        dcc_error(g->cc, n->line, "D_XLATE_SOU", "xlate to a type that is not a struct or "
                  "union");
    /* as libdtrace: the translator first (D_XLATE_NONE), then the operator's operand */
    const struct dxlator *xl = xlator_find(g, out, x->a);
    if (n->op == T_ARROW) {
        if (out.ptr != 1 || out.pkind != DT_SOU)
            dcc_error(g->cc, n->line, "D_OP_PTR", "operator -> requires an operand of pointer "
                      "to struct or union type");
        out = dcc_deref(out);
    } else if (out.ptr || out.kind != DT_SOU) {
        dcc_error(g->cc, n->line, "D_OP_SOU", "operator . requires an operand of struct or "
                  "union type");
    }
    struct dsou *s = dcc_sou(g->cc, out);
    struct dmember *m = dcc_member_find(s, n->s);
    if (!m)
        dcc_error(g->cc, n->line, "D_TYPE_MEMBER", "%s is not a member of %s %s", n->s,
                  dcc_sou_kind(s), s->tag ? s->tag : "(anon)");
    return xlate_value(g, xl, x->a, m, n->s, t, n->line);
}

static unsigned xlate_value(struct cg *g, const struct dxlator *xl, struct dnode *e,
                            const struct dmember *m, const char *name, struct dtype *t,
                            int line)
{
    const struct dxmember *xm = xl->members;
    while (xm && strcmp(xm->name, name) != 0)
        xm = xm->next;
    if (!xm)
        dcc_error(g->cc, line, "D_XLATE_NOCONV", "translator does not define conversion "
                  "for member: %s", name);
    struct xbind b = { xl->pname, e, xl->src, g->xb, 0 };
    g->xb = &b;
    unsigned r = expr(g, xm->expr, t);
    g->xb = b.outer;
    xlate_compat(g, xm, m, *t, xm->expr);
    if (m->type.kind == DIF_TYPE_INT) {
        convert(g, r, *t, m->type);
        *t = m->type;
    }
    return r;
}

/* SOU_COPY_MAX: the largest struct an assignment copies (its loads and stores are unrolled) */
#define SOU_COPY_MAX 512u

/* sou_assign: lhs = a struct or union value (its address in rsrc): copies its bytes into a
 * member or variable of the same type; a global or this-> variable not yet declared becomes
 * one, in D memory, as in DTrace. */
/* sou_dest: the address of the object an assignment of a struct or union of type t writes
 * (declaring the variable when this is its first assignment). */
static unsigned sou_dest(struct cg *g, struct dnode *n, struct dtype t)
{
    struct dnode *l = n->a;
    struct obj o = { 0 };
    unsigned rd;
    if (n->op != T_ASSIGN)
        dcc_error(g->cc, n->line, "D_OP_ARITH", "operator %s requires operands of arithmetic "
                  "type", dcc_tokname(n->op));
    if (!is_obj(g, l) && (l->kind == N_IDENT || l->kind == N_THIS) && !builtin_find(l->s)) {
        int scope = l->kind == N_THIS ? DIF_SCOPE_THIS : DIF_SCOPE_GLOBAL;
        struct sym *s = sym_find(g, l->s, scope);
        if (s && s->defined)
            dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "operands have incompatible types: "
                      "%s%s is not a struct or union", scope_prefix(scope), l->s);
        if (!s)
            s = sym_new(g, l->s, scope, n->line);
        s->scope = (uint8_t)scope;
        s->type = t;
        s->defined = 1;
        s->mem = 1;
    }
    if (!is_obj(g, l))
        dcc_error(g->cc, n->line, l->kind == N_SELF || l->kind == N_INDEX ? "D_UNSUPPORTED"
                  : "D_OP_LVAL", "a struct or union may be assigned only to a global or this-> "
                  "variable or to a member of its type");
    rd = addr_of(g, l, &o);
    if (o.isarr || o.t.kind != DT_SOU || o.t.sou != t.sou)
        dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "operands have incompatible types: "
                  "struct or union assigned to another type");
    return rd;
}

static unsigned sou_assign(struct cg *g, struct dnode *n, unsigned rsrc, struct dtype t)
{
    unsigned rd = sou_dest(g, n, t);
    unsigned size = dcc_type_size(g->cc, t), chunk = dcc_type_align(g->cc, t);
    if (size > SOU_COPY_MAX)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "assignment of a struct or union larger "
                  "than 512 bytes is not supported");
    if (chunk > 8)
        chunk = 8;
    static const uint8_t ld[9] = { 0, DIF_LDUB, DIF_LDUH, 0, DIF_LDUW, 0, 0, 0, DIF_LDX };
    static const uint8_t st[9] = { 0, DIF_STB, DIF_STH, 0, DIF_STW, 0, 0, 0, DIF_STX };
    unsigned rv = reg_alloc(g), rs = reg_alloc(g), rt = reg_alloc(g);
    for (unsigned off = 0; off < size;) {
        unsigned c = chunk;
        while (c > size - off)
            c >>= 1;
        emit(g, DIF_INSTR(DIF_MOV, rsrc, 0, rs));
        add_const(g, rs, off);
        emit(g, DIF_INSTR(ld[c], rs, 0, rv));
        emit(g, DIF_INSTR(DIF_MOV, rd, 0, rt));
        add_const(g, rt, off);
        emit(g, DIF_INSTR(st[c], rv, 0, rt));
        off += c;
    }
    reg_free(g, rt);
    reg_free(g, rs);
    reg_free(g, rv);
    reg_free(g, rd);
    return rsrc;
}

/* xlate_assign: lhs = xlate <T>(e): the object is zeroed, then each member the translator
 * defines is stored (what libdtrace's translation of a whole struct gives). */
static unsigned xlate_assign(struct cg *g, struct dnode *n, struct dtype *t)
{
    struct dnode *x = n->b;
    struct dtype out = x->type;
    if (out.ptr || out.kind != DT_SOU)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "xlate to a pointer is supported only as "
                  "the operand of ->");
    const struct dxlator *xl = xlator_find(g, out, x->a);
    unsigned rd = sou_dest(g, n, out);
    struct dsou *s = dcc_sou(g->cc, out);
    unsigned size = dcc_type_size(g->cc, out), rt = reg_alloc(g);
    if (size > SOU_COPY_MAX)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "assignment of a struct or union larger "
                  "than 512 bytes is not supported");
    for (unsigned off = 0; off < size; off++) { /* byte stores: any alignment */
        emit(g, DIF_INSTR(DIF_MOV, rd, 0, rt));
        add_const(g, rt, off);
        emit(g, DIF_INSTR(DIF_STB, 0, 0, rt));
    }
    for (int pass = 0; pass < 2; pass++) {
        for (const struct dmember *m = pass ? s->anon : s->members; m; m = m->next) {
            const struct dxmember *xm = xl->members;
            while (m->name && xm && strcmp(xm->name, m->name) != 0)
                xm = xm->next;
            if (!m->name || !xm)
                continue;
            struct dtype tv;
            unsigned rv = xlate_value(g, xl, x->a, m, m->name, &tv, n->line);
            emit(g, DIF_INSTR(DIF_MOV, rd, 0, rt));
            add_const(g, rt, m->off);
            struct obj o = { m->type, m->nelem, m->isarr, m->bits };
            store_obj(g, rt, &o, rv, tv, xm->line);
            reg_free(g, rv);
        }
    }
    reg_free(g, rt);
    *t = out;
    return rd;
}

/* inline_array: name[args] of `inline type name[type p, ...] = expr`: expr with each p
 * bound to its argument (compiled where the name is used), converted to the type. */
static unsigned inline_array(struct cg *g, struct dnode *n, struct dtype *t)
{
    const struct dname *d = dcc_name_find(g->cc, n->s, DNAME_INLINE);
    unsigned argc = count_list(n->b);
    if (argc != d->nparams)
        dcc_error(g->cc, n->line, "D_PROTO_LEN", "%s[ ] prototype mismatch: %u arg%s passed, "
                  "%u expected", n->s, argc, argc == 1 ? "" : "s", d->nparams);
    struct xbind b[DIF_TUPMAX];
    struct dnode *a = n->b;
    for (unsigned k = 0; k < argc; k++, a = a->next) {
        struct dtype at = type_of(g, a);
        if ((at.kind == DIF_TYPE_STR) != (d->ptypes[k].kind == DIF_TYPE_STR) ||
            at.kind == DT_NONE)
            dcc_error(g->cc, a->line, "D_PROTO_ARG", "%s[ ] argument #%u is incompatible with "
                      "prototype", n->s, k + 1);
        b[k] = (struct xbind){ d->pnames[k], a, d->ptypes[k], k ? &b[k - 1] : g->xb, k != 0 };
    }
    struct xbind *save = g->xb;
    if (argc)
        g->xb = &b[argc - 1];
    unsigned r = expr(g, d->expr, t);
    g->xb = save;
    return r;
}

static unsigned obj_rvalue(struct cg *g, struct dnode *n, struct dtype *t)
{
    struct obj o;
    unsigned r = addr_of(g, n, &o);
    if (o.t.kind == DT_FLOAT && !o.isarr && n == g->float_node && o.t.size != 16) {
        emit(g, DIF_INSTR(o.t.size == 4 ? DIF_LDUW : DIF_LDX, r, 0, r)); /* its bits */
        *t = o.t;
        return r;
    }
    if (o.t.kind == DT_FLOAT && !o.isarr)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "floating-point values are not supported "
                  "in this D subset%s", n == g->float_node ? " (a long double: its layout is "
                  "each target's own)" : " (printf( ) prints a float or double as such)");
    load_obj(g, r, &o, t);
    return r;
}

/* obj_incdec: ++ and -- on an object (a pointer steps by its element's size). */
static unsigned obj_incdec(struct cg *g, struct dnode *n, struct dtype *t)
{
    int post = n->kind == N_POSTINC || n->kind == N_POSTDEC;
    int inc = n->kind == N_POSTINC || n->kind == N_PREINC;
    struct obj o;
    unsigned ra = addr_of(g, n->a, &o);
    unsigned r = reg_alloc(g);
    emit(g, DIF_INSTR(DIF_MOV, ra, 0, r));
    load_obj(g, r, &o, t);
    need_int(g, *t, n->line, inc ? "++" : "--");
    unsigned one = reg_alloc(g);
    uint64_t step = t->ptr ? elem_size(g, dcc_deref(*t), n->line) : 1;
    emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, step), one));
    unsigned nv = reg_alloc(g);
    emit(g, DIF_INSTR(inc ? DIF_ADD : DIF_SUB, r, one, nv));
    store_obj(g, ra, &o, nv, *t, n->line);
    if (!post)
        emit(g, DIF_INSTR(DIF_MOV, nv, 0, r));
    reg_free(g, nv);
    reg_free(g, one);
    emit(g, DIF_INSTR(DIF_MOV, r, 0, ra));
    reg_free(g, r);
    return ra;
}

/* expr: code for n into a new register, its type in *t. Recursion is bounded (a long chain
 * like 1+1+...+1 nests on the left) so the compiler's stack stays small on the target. */
static unsigned expr(struct cg *g, struct dnode *n, struct dtype *t)
{
    if (++g->depth > 256)
        dcc_error(g->cc, n->line, "D_SYNTAX", "expression nested too deeply");
    dcc_stack_check(g->cc, n->line);
    fix_index(g, n);
    int line = g->line;
    unsigned r;
    g->line = n->line;
    switch (n->kind) {
    case N_BIN: r = binop(g, n, t); break;
    case N_UN: r = unop(g, n, t); break;
    case N_COND: r = ternary(g, n, t); break;
    default: r = expr_(g, n, t); break;
    }
    g->depth--;
    g->line = line; /* an error after it is its parent's, at the parent's line */
    return r;
}

/* member_usable: the errors of a procinfo.c member n->s of type tn found (name) or not, by
 * how it is defined here; `of` names its operand in the message. */
static void member_usable(struct cg *g, const struct dnode *n, const char *name, unsigned how,
                          const char *tn, const char *of)
{
    if (!name)
        dcc_error(g->cc, n->line, "D_TYPE_MEMBER", "%s is not a member of %s", n->s, tn);
    if (how == DCC_PM_NOCONV)
        dcc_error(g->cc, n->line, "D_XLATE_NOCONV", "translator does not define conversion "
                  "for member: %s", n->s);
    if (how == DCC_PM_UNSUP)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "%s->%s has no value on this system", of,
                  n->s);
}

dcc_symbol_fn dcc_symbol;
dcc_kvar_fn dcc_kvar;

/* kernel_symbol: the address of `sym or mod`sym (name, as lexed) from the front end's kernel
 * image (dcc_symbol); errors as libdtrace words them for a name it cannot resolve. */
static uint64_t kernel_symbol(struct cg *g, const struct dnode *n)
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
 * here, in addr and size (dcc_kvar); its errors are kernel_variable's. */
static void kernel_object(struct cg *g, const struct dnode *n, uint64_t *addr, uint64_t *size)
{
    static const char *const alias[][2] = {
        { "ncpus", "k_ncpus" }, { "ncpus_online", "k_ncpus" }, { "mpid", "next_pid" },
    };
    const char *name = n->s, *tick = strrchr(name, '`'), *sym = tick + 1;
    char mod[64];
    size_t ml = (size_t)(tick - name);
    if ((ml && name[ml - 1] == '`') || ml >= sizeof(mod) || !tick[1] || !dcc_kvar)
        kernel_symbol(g, n);    /* its errors, in its words */
    if (!dcc_kvar)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "%s: no kernel variables here (&%s is the "
                  "symbol's address)", name, name);
    memcpy(mod, name, ml);
    mod[ml] = 0;
    int found = dcc_kvar(mod, sym, addr, size) == 0;
    for (unsigned i = 0; !found && i < sizeof(alias) / sizeof(alias[0]); i++)
        if (!strcmp(sym, alias[i][0]))
            found = dcc_kvar(mod, alias[i][1], addr, size) == 0;
    if (!found)
        kernel_symbol(g, n);    /* an unknown name: its error, in libdtrace's words */
    if (!found)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "%s is not a kernel variable (a data object "
                  "of the image; &%s is the symbol's address)", name, name);
}

/* kernel_read: r = the kernel's unsigned integer of size bytes at addr, read when the clause
 * runs (DIF_S_KVAR: the kernel reads it for a privileged consumer only). */
static unsigned kernel_read(struct cg *g, uint64_t addr, uint64_t size, struct dtype *t)
{
    unsigned r = reg_alloc(g), rs = reg_alloc(g);
    emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, addr), r));
    emit(g, DIF_INSTR(DIF_PUSHT, r, DIF_TYPE_INT, 0));
    emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, size), rs));
    emit(g, DIF_INSTR(DIF_PUSHT, rs, DIF_TYPE_INT, 0));
    reg_free(g, rs);
    emit(g, DIF_INSTR_IDX(DIF_CALL, DIF_S_KVAR, r));
    *t = (struct dtype){ .kind = DIF_TYPE_INT, .size = (uint8_t)size };
    return r;
}

/* kernel_variable: `name (or mod`name) as a value: the kernel's data object of that name in
 * the image's symbol table, or the one a Solaris name means here, read when the clause runs.
 * Its value is an unsigned integer of the object's size, which must be 1, 2, 4 or 8 bytes. */
static unsigned kernel_variable(struct cg *g, const struct dnode *n, struct dtype *t)
{
    uint64_t addr = 0, size = 0;
    kernel_object(g, n, &addr, &size);
    if (size != 1 && size != 2 && size != 4 && size != 8)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "%s: a kernel variable of %u bytes: D reads "
                  "integers of 1, 2, 4 or 8 bytes (&%s is its address)", n->s, (unsigned)size,
                  n->s);
    return kernel_read(g, addr, size, t);
}

/* kernel_element: `name[i], an element of a kernel array whose element type D knows (the
 * symbol table gives only the object's size): Solaris's `avenrun, int[3] (kernel/kloadavg.c).
 * The index is a constant within the object, checked here; the element is read as
 * kernel_variable reads an object. */
static unsigned kernel_element(struct cg *g, const struct dnode *n, struct dtype *t)
{
    static const struct { const char *name; unsigned elem; } arrays[] = { { "avenrun", 4 } };
    const char *sym = strrchr(n->s, '`') + 1;
    unsigned elem = 0;
    for (unsigned i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++)
        if (!strcmp(sym, arrays[i].name))
            elem = arrays[i].elem;
    uint64_t addr = 0, size = 0;
    kernel_object(g, n, &addr, &size);
    if (!elem)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "%s[]: D knows the element type of no kernel "
                  "array but `avenrun's (the symbol table gives only sizes): read %s whole or "
                  "at &%s", n->s, n->s, n->s);
    int64_t i;
    if (!n->b || n->b->next || !const_value(n->b, &i))
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "%s[]: a kernel array takes one constant "
                  "index here", n->s);
    if (i < 0 || (uint64_t)i >= size / elem)
        dcc_error(g->cc, n->line, "D_ARR_BADREF", "%s[%d]: the index is outside the array "
                  "(%u elements)", n->s, (int)i, (unsigned)(size / elem));
    return kernel_read(g, addr + (uint64_t)i * elem, elem, t);
}

/* clause_has_probe: whether the clause being compiled enables table probe id. */
static int clause_has_probe(struct cg *g, uint32_t id)
{
    for (unsigned e = 0; e < g->necbs; e++)
        if (g->ecbs[e].de_clause == g->cur_clause && g->probes[g->ecbs[e].de_probe].dp_id == id)
            return 1;
    return 0;
}

/* call_info: r = DIF_S_PRINFO or _PRSTR (subr) of member for the who in register who (freed). */
static void call_info(struct cg *g, unsigned subr, uint64_t member, unsigned who, unsigned r)
{
    emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, member), r));
    emit(g, DIF_INSTR(DIF_PUSHT, r, DIF_TYPE_INT, 0));
    emit(g, DIF_INSTR(DIF_PUSHT, who, DIF_TYPE_INT, 0));
    reg_free(g, who);
    emit(g, DIF_INSTR_IDX(DIF_CALL, subr, r));
}

/* emit_field: r = (word >> shift) & mask, word in r */
static void emit_field(struct cg *g, unsigned r, unsigned shift, uint64_t mask)
{
    unsigned r2 = reg_alloc(g);
    if (shift) {
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, shift), r2));
        emit(g, DIF_INSTR(DIF_SRL, r, r2, r));
    }
    emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, mask), r2));
    emit(g, DIF_INSTR(DIF_AND, r, r2, r));
    reg_free(g, r2);
}

/* translated_member: member m of a translated object (procinfo.c), the object's who (a
 * thread's pid << 16 | tid, a process's pid << 16) computed by who_of into a new register:
 * the engine's lookups (DCC_PM_INFO, _STR); fields and built-ins are the callers'. At
 * sched:::off-cpu a thread's state is the one the probe says it goes off in (arg3), which
 * the kernel took when it chose the next thread. */
static void translated_member(struct cg *g, const struct dcc_procmember *m, unsigned r,
                              unsigned (*who_of)(struct cg *g, void *arg), void *arg,
                              int offcpu_state)
{
    unsigned b = 0, j = 0;
    int offcpu = offcpu_state && (m->val == DPR_STATE || m->val == DPR_SNAME) &&
                 m->how == DCC_PM_INFO && clause_has_probe(g, DPROBE_SCHED_OFFCPU);
    if (offcpu) { /* id == off-cpu ? RSTATE(arg3) : STATE(who) */
        unsigned r2 = reg_alloc(g);
        emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ID, r));
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, DPROBE_SCHED_OFFCPU), r2));
        emit(g, DIF_INSTR(DIF_CMP, r, r2, 0));
        reg_free(g, r2);
        b = emit(g, 0);
        r2 = reg_alloc(g);
        emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ARG0 + 3, r2));
        call_info(g, DIF_S_PRINFO, m->val == DPR_STATE ? DPR_RSTATE : DPR_RSNAME, r2, r);
        j = emit(g, 0);
        patch(g, b, DIF_BNE);
    }
    call_info(g, m->how == DCC_PM_STR ? DIF_S_PRSTR : DIF_S_PRINFO, m->val, who_of(g, arg), r);
    if (offcpu)
        patch(g, j, DIF_BA);
}

/* the firing thread's who: pid << 16 | tid, as every thread probe's arg0 names a thread */
static unsigned cur_who(struct cg *g, void *arg)
{
    (void)arg;
    unsigned r = reg_alloc(g), r2 = reg_alloc(g);
    emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_PID, r));
    emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, 16), r2));
    emit(g, DIF_INSTR(DIF_SLL, r, r2, r));
    emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_TID, r2));
    emit(g, DIF_INSTR(DIF_OR, r, r2, r));
    reg_free(g, r2);
    return r;
}

/* procinfo_member: curpsinfo->m, curlwpsinfo->m and curcpu->m, as procinfo.c's tables say. */
static unsigned procinfo_member(struct cg *g, struct dnode *n, struct dtype *t)
{
    const char *tn;
    const struct dcc_procmember *m = dcc_procinfo(n->a->s, &tn);
    while (m->name && strcmp(m->name, n->s) != 0)
        m++;
    member_usable(g, n, m->name, m->how, tn, n->a->s);
    unsigned r = reg_alloc(g);
    if (m->how == DCC_PM_BUILTIN)
        emit(g, DIF_INSTR_IDX(DIF_BUILTIN, (unsigned)m->val, r));
    else if (m->how == DCC_PM_CONST)
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, m->val), r));
    else if (m->how == DCC_PM_FIELD) { /* pr_addr: the who */
        reg_free(g, r);
        r = cur_who(g, NULL);
    } else
        translated_member(g, m, r, cur_who, NULL, 1);
    *t = m->type;
    return r;
}

/* is_probe_args: n is args[k] (DTrace's typed arguments; no variable of that name). */
static int is_probe_args(struct cg *g, const struct dnode *n, int64_t *k)
{
    if (n->kind != N_INDEX || n->op == 1 || strcmp(n->s, "args") != 0 ||
        sym_find(g, "args", DIF_SCOPE_ARRAY))
        return 0;
    if (!n->b || n->b->next || !const_value(n->b, k) || *k < 0 || *k > 9)
        dcc_error(g->cc, n->line, "D_ARGS_IDX", "index of args[ ] must be a constant from 0 to 9");
    return 1;
}

/* fbt_args_type: the type of args[k] on the fbt probes the clause being compiled enables
 * (docs/fbt.md: entry, the function's arguments as the kernel's DWARF types them; return,
 * args[0] the returning instruction's offset and args[1] the return value): 1 with *t set, 0
 * when the clause enables other probes. Several fbt probes must agree, as in DTrace. */
static int fbt_args_type(struct cg *g, const struct dnode *n, int64_t k, struct dtype *t)
{
    const struct dfbt *tab = dprobe_fbt_table();
    unsigned ci = g->cur_clause, code = 0;
    int have = 0;
    const char *func = "";
    for (unsigned e = 0; e < g->necbs; e++) {
        if (g->ecbs[e].de_clause != ci)
            continue;
        uint32_t id = g->probes[g->ecbs[e].de_probe].dp_id;
        if (!DPROBE_IS_FBT(id) || !tab || DPROBE_FBT_FUNC(id) >= tab->nfuncs)
            return 0;
        const struct dfbt_func *f = &tab->funcs[DPROBE_FBT_FUNC(id)];
        unsigned c = DFBT_T_NONE;
        if (id & 1u)
            c = k == 0 ? DFBT_T_SIGNED | 4u : k == 1 ? f->df_ret_type : DFBT_T_NONE;
        else if (k < f->df_nargs)
            c = f->df_arg_type[k];
        if (have && c != code)
            dcc_error(g->cc, n->line, "D_ARGS_MULTI", "args[ ] may not be referenced because "
                      "probe description %s matches an unstable set of probes", g->cur_desc);
        code = c;
        have = 1;
        func = dfbt_name(tab, DPROBE_FBT_FUNC(id));
    }
    if (!have)
        return 0;
    if (code == DFBT_T_NONE)
        dcc_error(g->cc, n->line, "D_ARGS_IDX", "index %d is out of range for %s args[ ]%s",
                  (int)k, g->cur_desc, k < DFBT_MAXARGS && *func ? " (no value D can type)" : "");
    if (code & DFBT_T_PTR) {
        *t = (struct dtype){ .kind = DIF_TYPE_INT, .size = 8, .sign = 0, .ptr = 1,
                             .pkind = DT_NONE };
    } else {
        *t = (struct dtype){ .kind = DIF_TYPE_INT, .size = (uint8_t)DFBT_T_SIZE(code),
                             .sign = (code & DFBT_T_SIGNED) != 0 };
    }
    return 1;
}

/* probe_argkind: args[k]'s translated type on the clause's probes (procinfo.c), which must
 * agree, as libdtrace requires of a description matching several probes; 0 an integer. */
static char probe_argkind(struct cg *g, const struct dnode *n, unsigned k)
{
    int seen = 0;
    char kind = 0;
    for (unsigned e = 0; e < g->necbs; e++) {
        if (g->ecbs[e].de_clause != g->cur_clause)
            continue;
        uint32_t id = g->probes[g->ecbs[e].de_probe].dp_id;
        char c = id < DPROBE_TIMER_BASE ? dcc_probe_argkind(id, k) : 0;
        if (seen && c != kind)
            dcc_error(g->cc, n->line, "D_ARGS_MULTI", "args[%d] may not be referenced because "
                      "the probes of this clause give it different types", (int)k);
        kind = c;
        seen = 1;
    }
    return kind;
}

/* the who of a translated argument: a thread's (its word), its process's (the pid's half of
 * it), or a process's from its pid */
struct argsrc { unsigned word; char kind; };
static unsigned arg_who(struct cg *g, void *arg)
{
    const struct argsrc *a = arg;
    unsigned r = reg_alloc(g);
    emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ARG0 + a->word, r));
    if (a->kind == DCC_ARG_PS)
        emit_field(g, r, 0, 0xffff0000u);
    else if (a->kind == DCC_ARG_PSPID) {
        unsigned r2 = reg_alloc(g);
        emit_field(g, r, 0, 0xffffu);
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, 16), r2));
        emit(g, DIF_INSTR(DIF_SLL, r, r2, r));
        reg_free(g, r2);
    } else {
        emit_field(g, r, 0, 0xffffffffu);
    }
    return r;
}

/* probe_args: args[k]->m of a probe with translated arguments, as procinfo.c's tables say;
 * args[k] alone is argk (a string's: the text at that address). */
static unsigned probe_args(struct cg *g, struct dnode *n, int64_t k, struct dtype *t)
{
    char kind = probe_argkind(g, n, (unsigned)k);
    unsigned r = reg_alloc(g);
    *t = T_INT64;
    struct dtype ft;
    if (fbt_args_type(g, n, k, &ft)) {
        if (n->kind == N_MEMBER)
            dcc_error(g->cc, n->line, "D_TYPE_MEMBER", "args[%d] of %s has no member %s: an "
                      "fbt argument is a value, and D reads no kernel memory here", (int)k,
                      g->cur_desc, n->s);
        emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ARG0 + (unsigned)k, r));
        if (!ft.ptr)
            convert(g, r, T_INT64, ft);
        *t = ft;
        return r;
    }
    if (n->kind != N_MEMBER) {
        emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ARG0 + (unsigned)k, r));
        if (kind == DCC_ARG_STR) { /* proc:::exec's args[0]: the name where arg0 points */
            emit(g, DIF_INSTR(DIF_PUSHT, r, DIF_TYPE_INT, 0));
            emit(g, DIF_INSTR_IDX(DIF_CALL, DIF_S_COPYINSTR, r));
            *t = T_STRING;
        }
        return r;
    }
    const char *tn;
    const struct dcc_procmember *m = dcc_argkind_members(kind, &tn);
    if (!m || n->op != T_ARROW)
        dcc_error(g->cc, n->line, "D_TYPE_MEMBER", "args[%d] has no member %s here: it is %s",
                  (int)k, n->s, kind == DCC_ARG_STR ? "a string" : "an integer on these probes");
    while (m->name && strcmp(m->name, n->s) != 0)
        m++;
    char of[8] = "args[0]";
    of[5] = (char)('0' + k);
    member_usable(g, n, m->name, m->how, tn, of);
    struct argsrc src = { kind == DCC_ARG_CPU ? 3u : 0u, kind };
    if (m->how == DCC_PM_CONST) {
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, (uint64_t)(int64_t)(int32_t)m->val), r));
    } else if (m->how == DCC_PM_INFO || m->how == DCC_PM_STR) {
        translated_member(g, m, r, arg_who, &src, 0);
    } else if (m->val == DCC_F_PRI) {
        /* pr_pri, the priority word: on change-pri, which fires before the change as
         * Solaris's, that word (arg2, Solaris's args[2]) is the new priority and the thread's
         * own, the old, is arg3 (docs/d-probes.md); the probe decides at run time */
        unsigned r2 = reg_alloc(g);
        emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ID, r));
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, DPROBE_SCHED_CHANGE_PRI), r2));
        emit(g, DIF_INSTR(DIF_CMP, r, r2, 0));
        reg_free(g, r2);
        unsigned b = emit(g, 0);
        emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ARG0 + 3, r));
        unsigned j = emit(g, 0);
        patch(g, b, DIF_BNE);
        emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ARG0 + 2, r));
        patch(g, j, DIF_BA);
        emit_field(g, r, 0, 0xffu);
    } else {
        emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ARG0 + src.word, r));
        if (m->val == DCC_F_TID)
            emit_field(g, r, 0, 0xffffu);
        else if (m->val == DCC_F_PID)
            emit_field(g, r, kind == DCC_ARG_PSPID ? 0 : 16, 0xffffu);
        else if (m->val == DCC_F_WHO)
            emit_field(g, r, 0, 0xffffffffu);
        else /* DCC_F_CPU: an int */
            emit(g, DIF_INSTR(DIF_SEXT, r, 4, r));
    }
    *t = m->type;
    return r;
}

/* unop: code for a unary operator's node n (-, +, !, ~). */
static unsigned unop(struct cg *g, struct dnode *n, struct dtype *t)
{
    unsigned r;
    if (n->op == T_MINUS && n->a->kind == N_INT) { /* a negative literal: one setx */
        r = reg_alloc(g);
        *t = promote(n->a->type);
        uint64_t v = 0 - (uint64_t)n->a->ival;
        if (t->size == 4)
            v = t->sign ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, v), r));
        return r;
    }
    r = expr(g, n->a, t);
    if ((n->op == T_MINUS || n->op == T_PLUS) && (t->kind != DIF_TYPE_INT || t->ptr))
        dcc_error(g->cc, n->line, "D_OP_ARITH", "operator %s requires an operand of "
                  "arithmetic type", dcc_tokname(n->op));
    if (n->op == T_NOT) {
        if (!is_scalar(*t))
            dcc_error(g->cc, n->line, "D_OP_SCALAR", "operator ! requires an operand of "
                      "scalar type");
        emit(g, DIF_INSTR(DIF_TST, r, 0, 0));
        reg_free(g, r);
        *t = T_INT32;
        return bool_result(g, DIF_BE);
    }
    need_int(g, *t, n->line, dcc_tokname(n->op));
    *t = promote(*t);
    if (n->op == T_MINUS)
        emit(g, DIF_INSTR(DIF_SUB, 0, r, r));
    else if (n->op == T_TILDE)
        emit(g, DIF_INSTR(DIF_NOT, r, 0, r));
    return r;
}

/* ternary: code for a ?: node n. */
static unsigned ternary(struct cg *g, struct dnode *n, struct dtype *t)
{
    unsigned r, r2;
    struct dtype t2;
    /* libdtrace's order: the three operands, then the condition's type, then the
     * branches' (an action is no value) */
    /* as libdtrace's dt_cg_ternary_op: the left arm's register is free again before the
     * right arm, whose register is the result (the left arm's move into it is written
     * once that register is known), so a chain of ?: in the right arms costs no more
     * registers than one */
    unsigned rc = expr(g, n->a, &t2);
    struct dtype tc = t2;
    emit(g, DIF_INSTR(DIF_TST, rc, 0, 0));
    reg_free(g, rc);
    unsigned b = emit(g, 0);
    r2 = expr(g, n->b, t);
    unsigned mov = emit(g, 0);
    reg_free(g, r2);
    unsigned j = emit(g, 0);
    patch(g, b, DIF_BE);
    r = expr(g, n->c, &t2);
    g->insns[g->start + mov] = DIF_INSTR(DIF_MOV, r2, 0, r);
    patch(g, j, DIF_BA);
    g->line = n->line;
    if (!is_scalar(tc))
        dcc_error(g->cc, n->line, "D_OP_SCALAR", "operator ?: expression must be of scalar "
                  "type");
    if (is_action_call(n->b) || is_action_call(n->c))
        dcc_error(g->cc, n->line, "D_OP_ACT", "action cannot be used in a conditional "
                  "context");
    if (t->kind != t2.kind)
        dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "?: operands must have compatible types");
    if (t->kind == DIF_TYPE_INT)
        *t = arith(*t, t2);
    return r;
}

/* expr_: code for any other node (expr). Not inlined into expr: its frame is large (its
 * cases' locals), and a chain of operators recurses through expr, binop, unop and ternary
 * alone. */
__attribute__((noinline)) static unsigned expr_(struct cg *g, struct dnode *n, struct dtype *t)
{
    int64_t argk;
    unsigned r;
    struct dtype t2;
    g->line = n->line;
    switch (n->kind) {
    case N_INT:
        r = reg_alloc(g);
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, (uint64_t)n->ival), r));
        *t = n->type;
        return r;
    case N_STR: /* as in DTrace, a literal may exceed strsize: its value is cut to it */
        r = reg_alloc(g);
        emit(g, DIF_INSTR_IDX(DIF_SETS, intern_str(g, n->s), r));
        *t = T_STRING;
        return r;
    case N_IDENT: {
        struct xbind *xout, *xbp = xb_find(g, n->s, &xout);
        if (xbp && xbp->type.kind == DT_SOU && !xbp->type.ptr)
            return obj_rvalue(g, n, t); /* a struct parameter: the object the operand is */
        if (xbp) { /* a translator's parameter */
            struct xbind *b = xbp, *save = g->xb;
            g->xb = xout; /* the operand is in the scope of the xlate */
            r = expr(g, b->arg, t);
            g->xb = save;
            if ((t->kind == DIF_TYPE_STR) != (b->type.kind == DIF_TYPE_STR) ||
                t->kind == DT_SOU || t->kind == DT_NONE)
                dcc_error(g->cc, n->line, "D_XLATE_INCOMPAT", "xlate operand is incompatible "
                          "with the translator's input %s", n->s);
            if (b->type.kind == DIF_TYPE_INT)
                convert(g, r, *t, b->type);
            *t = b->type;
            return r;
        }
        if (strchr(n->s, '`')) /* a kernel variable: its value is kernel memory */
            return kernel_variable(g, n, t);
        if ((!strcmp(n->s, "caller") || !strcmp(n->s, "ucaller")) &&
            !sym_find(g, n->s, DIF_SCOPE_GLOBAL)) { /* the engine's (d/dif.h DIF_S_CALLER) */
            r = reg_alloc(g);
            emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, n->s[0] == 'u'), r));
            emit(g, DIF_INSTR(DIF_PUSHT, r, DIF_TYPE_INT, 0));
            emit(g, DIF_INSTR_IDX(DIF_CALL, DIF_S_CALLER, r));
            *t = T_UINT64;
            return r;
        }
        if ((!strcmp(n->s, "stackdepth") || !strcmp(n->s, "ustackdepth")) &&
            !sym_find(g, n->s, DIF_SCOPE_GLOBAL)) { /* the engine unwinds (d/dstacks.h) */
            r = reg_alloc(g);
            emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, n->s[0] == 'u'), r));
            emit(g, DIF_INSTR(DIF_PUSHT, r, DIF_TYPE_INT, 0));
            emit(g, DIF_INSTR_IDX(DIF_CALL, DIF_S_STACKDEPTH, r));
            *t = T_UINT32;
            return r;
        }
        const struct builtin *b = builtin_find(n->s);
        if (b) {
            r = reg_alloc(g);
            emit(g, DIF_INSTR_IDX(DIF_BUILTIN, b->id, r));
            *t = b->type;
            return r;
        }
        const struct dcc_procmember *k = dcc_builtin_const(n->s);
        if (k && !sym_find(g, n->s, DIF_SCOPE_GLOBAL)) {
            r = reg_alloc(g);
            emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, k->val), r));
            *t = k->type;
            return r;
        }
        const char *tn;
        if (dcc_procinfo(n->s, &tn) && !sym_find(g, n->s, DIF_SCOPE_GLOBAL))
            dcc_error(g->cc, n->line, "D_UNSUPPORTED", "%s is supported only as the operand of "
                      "-> (a %s member)", n->s, tn);
        if (is_obj(g, n))
            return obj_rvalue(g, n, t);
        return load_var(g, n, t, NULL);
    }
    case N_SELF: case N_THIS: case N_INDEX:
        if (n->kind == N_INDEX && n->s && strchr(n->s, '`')) /* `avenrun[0]: kernel memory */
            return kernel_element(g, n, t);
        if (is_probe_args(g, n, &argk))
            return probe_args(g, n, argk, t);
        if (is_obj(g, n))
            return obj_rvalue(g, n, t);
        return load_var(g, n, t, NULL);
    case N_MEMBER:
        if (is_probe_args(g, n->a, &argk))
            return probe_args(g, n, argk, t);
        if (n->a->kind == N_XLATE)
            return xlate_member(g, n, t);
        if (n->op == T_ARROW && n->a->kind == N_IDENT && dcc_procinfo(n->a->s, &(const char *){0})
            && !sym_find(g, n->a->s, DIF_SCOPE_GLOBAL))
            return procinfo_member(g, n, t);
        return obj_rvalue(g, n, t);
    case N_DEREF: case N_SUBSCR:
        agg_mdim(g, n);
        return obj_rvalue(g, n, t);
    case N_XLATE:
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "xlate is supported only as the operand "
                  "of . or -> (a translated member)");
    case N_INLARR:
        return inline_array(g, n, t);
    case N_ADDROF: {
        struct obj o;
        if (n->a->kind == N_IDENT && strchr(n->a->s, '`')) { /* &`sym: the symbol's address */
            uint64_t addr = kernel_symbol(g, n->a);
            r = reg_alloc(g);
            emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, addr), r));
            *t = dcc_ptr_to((struct dtype){ .kind = DT_NONE });
            return r;
        }
        fix_index(g, n->a);
        /* as libdtrace: a variable (of any type, arrays and structs too) or an aggregation
         * has no address; an element or a member of one has */
        struct sym *ms = n->a->kind == N_INDEX ? mem_sym(g, n->a) : NULL;
        if (n->a->kind == N_IDENT || n->a->kind == N_THIS || n->a->kind == N_SELF ||
            (n->a->kind == N_INDEX && !(ms && ms->isarr)) || n->a->kind == N_AGG)
            dcc_error(g->cc, n->line, "D_ADDROF_VAR", "cannot take address of dynamic "
                      "variable");
        if (!is_obj(g, n->a))
            dcc_error(g->cc, n->line, "D_ADDROF_LVAL", "unacceptable operand for unary & "
                      "operator");
        g->addrof++;
        r = addr_of(g, n->a, &o);
        g->addrof--;
        if (o.bits)
            dcc_error(g->cc, n->line, "D_ADDROF_BITFIELD", "cannot take address of bit-field");
        *t = dcc_ptr_to(o.t);
        return r;
    }
    case N_STRINGOF:
        if (is_void_call(n->a))
            dcc_error(g->cc, n->line, "D_STRINGOF_TYPE", "cannot apply stringof to a value of "
                      "type void");
        r = expr(g, n->a, t);
        if (t->kind != DIF_TYPE_STR && t->kind != DIF_TYPE_INT)
            dcc_error(g->cc, n->line, "D_STRINGOF_TYPE", "stringof( ) operand must be of "
                      "scalar type");
        *t = T_STRING; /* the VM checks the string's address and bounds when it is used */
        return r;
    case N_AGG:
        if (!n->b && !is_aggsym(g, n->s))
            dcc_error(g->cc, n->line, "D_IDENT_UNDEF", "failed to resolve @%s: Unknown "
                      "variable name", n->s);
        dcc_error(g->cc, n->line, "D_AGG_SCALAR", "aggregations cannot be used in expressions");
    case N_CALL:
        return call(g, n, t);
    case N_PREINC: case N_PREDEC: case N_POSTINC: case N_POSTDEC:
        return incdec(g, n, t);
    case N_ASSIGN:
        return assignment(g, n, t);
    case N_CAST:
        if (n->type.kind == DT_FLOAT)
            dcc_error(g->cc, n->line, "D_UNSUPPORTED", "floating-point values are not "
                      "supported in this D subset");
        if (n->type.kind == DT_SOU && !n->type.ptr && is_obj(g, n->a))
            return obj_rvalue(g, n, t);
        if (n->type.kind == DT_SOU)
            dcc_error(g->cc, n->line, "D_CAST_INVAL", "invalid cast expression");
        r = expr(g, n->a, &t2);
        if (n->type.kind == DT_NONE && !n->type.ptr) { /* (void)e: evaluated, no value */
            *t = n->type;
            return r;
        }
        if (n->type.ptr) { /* between pointers and integers: the same 64-bit value */
            if (t2.kind != DIF_TYPE_INT)
                dcc_error(g->cc, n->line, "D_CAST_INVAL", "invalid cast expression");
            *t = n->type;
            return r;
        }
        if (n->type.kind == DIF_TYPE_STR || t2.kind != DIF_TYPE_INT)
            dcc_error(g->cc, n->line, "D_CAST_INVAL", "invalid cast expression");
        if (n->type.size < 8)
            emit(g, DIF_INSTR(n->type.sign ? DIF_SEXT : DIF_ZEXT, r, n->type.size, r));
        *t = n->type;
        return r;
    case N_SIZEOF: {
        uint64_t sz;
        if (n->a && n->a->kind == N_STR) {
            sz = (uint64_t)n->a->ival + 1; /* a string constant's own bytes, as libdtrace */
        } else if (n->a && is_obj(g, n->a)) {
            struct obj o;
            unsigned save = g->ninsns;
            uint16_t regs = g->regs;
            reg_free(g, addr_of(g, n->a, &o));
            g->ninsns = save;
            g->regs = regs;
            if (o.bits)
                dcc_error(g->cc, n->line, "D_SIZEOF_BITFIELD", "cannot apply sizeof to a "
                          "bit-field");
            sz = (uint64_t)dcc_type_size(g->cc, o.t) * (o.isarr ? o.nelem : 1);
        } else if (n->a) {
            unsigned save = g->ninsns;
            uint16_t regs = g->regs;
            reg_free(g, expr(g, n->a, &t2));
            g->ninsns = save;
            g->regs = regs;
            sz = dcc_type_size(g->cc, t2);
        } else {
            sz = dcc_type_size(g->cc, n->type);
        }
        r = reg_alloc(g);
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, sz), r));
        *t = T_UINT64;
        return r;
    }
    case N_COMMA:
        reg_free(g, expr(g, n->a, &t2));
        return expr(g, n->b, t);
    default:
        dcc_error(g->cc, n->line, "D_SYNTAX", "unexpected expression");
    }
}

/* ---- programs and actions ----------------------------------------------------------------- */

static struct dif_prog prog_begin(struct cg *g)
{
    g->start = g->ninsns;
    g->regs = 0;
    g->nrec = 0;
    g->rec[0] = 0;
    return (struct dif_prog){ g->ninsns, 0 };
}

static struct dif_prog prog_end(struct cg *g, struct dif_prog p, unsigned r)
{
    emit(g, DIF_INSTR(DIF_RET, 0, 0, r));
    p.dp_len = g->ninsns - p.dp_start;
    return p;
}

static void stack_check(struct cg *g, struct dnode *st);

/* stack_emit: the firing's stack( )/ustack( ) into r: DIF_S_STACK(kind, frames), frames 0
 * for the engine's most (stack( )'s first argument; stack_check made it a constant). */
static void stack_emit(struct cg *g, struct dnode *st, unsigned r)
{
    int64_t frames = 0;
    if (st->b && !const_value(st->b, &frames))
        frames = 0;
    unsigned k = reg_alloc(g);
    emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, st->s[0] == 'u'), k));
    emit(g, DIF_INSTR(DIF_PUSHT, k, DIF_TYPE_INT, 0));
    emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, frames), k));
    emit(g, DIF_INSTR(DIF_PUSHT, k, DIF_TYPE_INT, 0));
    reg_free(g, k);
    emit(g, DIF_INSTR_IDX(DIF_CALL, DIF_S_STACK, r));
}

/* push_float: a printf( ) argument of a float or double type (a declared variable, a member)
 * is recorded as its bits, 'f' (a float's, in the low 4 bytes) or 'd' (a double's), for %e %f
 * %g (fmt.c formats them exactly); D has no arithmetic on them, so only such an argument as a
 * whole (g->float_node: obj_rvalue loads it) is a value. 0 when n is no float. */
static int push_float(struct cg *g, struct dnode *n)
{
    struct dtype t;
    if (g->nrec == DIF_RECMAX || (n->kind != N_IDENT && n->kind != N_MEMBER &&
                                  n->kind != N_DEREF && n->kind != N_SUBSCR))
        return 0;
    unsigned ninsns = g->ninsns, regs = g->regs;
    struct dnode *save = g->float_node;
    g->float_node = n;
    unsigned r = expr(g, n, &t);
    g->float_node = save;
    if (t.kind != DT_FLOAT) { /* compiled again as push_rec's */
        g->ninsns = ninsns;
        g->regs = (uint16_t)regs;
        return 0;
    }
    emit(g, DIF_INSTR(DIF_PUSHR, r, DIF_TYPE_INT, 0));
    reg_free(g, r);
    g->rec[g->nrec++] = t.size == 4 ? 'f' : 'd';
    g->rec[g->nrec] = 0;
    return 1;
}

static void push_rec(struct cg *g, struct dnode *n)
{
    struct dtype t;
    if (g->nrec == DIF_RECMAX)
        dcc_error(g->cc, n->line, "D_PROTO_LEN", "too many values in one action");
    if (n->kind == N_CALL && (!strcmp(n->s, "stack") || !strcmp(n->s, "ustack") ||
                              !strcmp(n->s, "jstack"))) {
        /* a stack as a value (an aggregation key, printf's %k, the stack( ) action): 'k',
         * a stack id (d/dstacks.h); jstack( ) has no frames here */
        stack_check(g, n);
        unsigned r = reg_alloc(g);
        if (n->s[0] == 'j')
            emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, 0), r));
        else
            stack_emit(g, n, r);
        emit(g, DIF_INSTR(DIF_PUSHR, r, DIF_TYPE_INT, 0));
        reg_free(g, r);
        g->rec[g->nrec++] = 'k';
        g->rec[g->nrec] = 0;
        return;
    }
    char sa = n->kind == N_CALL ? d_symaddr_type(n->s) : 0;
    if (sa) { /* func( ), ufunc( ), uaddr( )...: the address itself, printed by name (symaddr.c) */
        unsigned argc = count_list(n->b);
        if (argc != 1)
            dcc_error(g->cc, n->line, "D_PROTO_LEN", "%s( ) prototype mismatch: %u args passed, "
                      "1 expected", n->s, argc);
        unsigned r = expr(g, n->b, &t);
        if (t.kind != DIF_TYPE_INT)
            dcc_error(g->cc, n->line, "D_PROTO_ARG", "%s( ) argument #1 is incompatible with "
                      "prototype:\n\tprototype: uintptr_t (an address)", n->s);
        emit(g, DIF_INSTR(DIF_PUSHR, r, DIF_TYPE_INT, 0));
        reg_free(g, r);
        g->rec[g->nrec++] = sa;
        g->rec[g->nrec] = 0;
        return;
    }
    unsigned r = expr(g, n, &t);
    if (t.kind == DT_NONE)
        dcc_error(g->cc, n->line, "D_PROTO_ARG", "argument has no value");
    emit(g, DIF_INSTR(DIF_PUSHR, r, t.kind, 0));
    reg_free(g, r);
    g->rec[g->nrec++] = type_letter(t);
    g->rec[g->nrec] = 0;
}

static struct dif_act *act_new(struct cg *g, int kind, int line)
{
    if (g->nacts == CAP_ACTS)
        dcc_error(g->cc, line, "D_DIF_SIZE", "too many actions");
    struct dif_act *a = &g->acts[g->nacts++];
    memset(a, 0, sizeof(*a));
    a->da_kind = (uint16_t)kind;
    a->da_line = (uint32_t)line;
    a->da_arg2 = UINT32_MAX;
    return a;
}

/* finish_rec: sets the action's record layout from the record stack and the clause offset. */
static void finish_rec(struct cg *g, struct dif_act *a, uint32_t *recsize)
{
    a->da_types = intern_str(g, g->rec);
    a->da_size = a->da_kind == DIF_ACT_TRACEMEM ? (a->da_arg + 7u) & ~7u
                                                : dif_types_size(g->rec, g->cc->strsize);
    a->da_offset = *recsize;
    *recsize += a->da_size;
    if (*recsize > DIF_CLAUSE_RECMAX)
        dcc_error(g->cc, a->da_line, "D_DIF_SIZE", "clause records too much data");
}

/* printf_sized_type: the one record type (type_letter) a conversion with a size prefix takes,
 * as libdtrace's dictionary gives those conversions a C type and asks for one of the same
 * encoding (size and signedness: ctf_type_compat): %hd/%hi short, %ho/%hu unsigned short,
 * %ld/%li/%lld/%lli long, %lo/%lu/%llo/%llu unsigned long, %lc/%wc int, %hx short and %lx,
 * %llx long of either sign (the caller compares only their size); 0 for the others. */
static char printf_sized_type(const char *len, unsigned nlen, char conv)
{
    int sign = conv == 'd' || conv == 'i', any = conv == 'x' || conv == 'X';
    if (nlen == 1 && len[0] == 'h' && (sign || any || conv == 'o' || conv == 'u'))
        return sign || any ? 'h' : 'H';
    if ((nlen == 1 || (nlen == 2 && len[1] == 'l')) && len[0] == 'l' &&
        (sign || any || conv == 'o' || conv == 'u'))
        return sign || any ? 'l' : 'L';
    if (nlen == 1 && (len[0] == 'l' || len[0] == 'w') && conv == 'c')
        return 'i';
    return 0;
}

static const char *printf_sized_name(char t)
{
    switch (t) {
    case 'h': return "short";
    case 'H': return "unsigned short";
    case 'l': return "long";
    case 'L': return "unsigned long";
    default: return "int";
    }
}

/* printf_check: validates fmt against the argument types recorded in g->rec. */
static void printf_check(struct cg *g, const char *fmt, int line, const char *fn, int aggmode)
{
    unsigned arg = 0, conv = 0;
    for (const char *f = fmt; *f; f++) {
        if (*f != '%')
            continue;
        f++;
        if (*f == '%')
            continue;
        conv++;
        int at = 0;
        while (*f && d_strchr("-+ #0@?", *f))
            at |= *f++ == '@';
        for (int part = 0; part < 2; part++) {
            if (*f == '*') {
                if (!aggmode && arg >= g->nrec)
                    dcc_error(g->cc, line, "D_PRINTF_DYN_PROTO", "%s( ) prototype mismatch: "
                              "conversion #%d (%%*) is missing a corresponding \"*\" argument",
                              fn, (int)conv);
                if (!aggmode && g->rec[arg] == 's')
                    dcc_error(g->cc, line, "D_PRINTF_DYN_TYPE", "%s( ) * must be an integer "
                              "argument", fn);
                arg++;
                f++;
            } else {
                while (*f >= '0' && *f <= '9')
                    f++;
            }
            while (*f == '@') /* "%8@d": libdtrace takes the @ anywhere before the conversion */
                at = 1, f++;
            if (part == 0 && *f == '.')
                f++;
            else
                break;
        }
        const char *len = f;
        while (*f && d_strchr("hlLjzt", *f))
            f++;
        unsigned nlen = (unsigned)(f - len);
        if (at) {
            if (!aggmode)
                dcc_error(g->cc, line, "D_PRINTF_AGG_CONV", "%%@ is only valid in printa( )");
            if (!*f || !d_strchr("cdiouxXspYT", *f))
                f--;
            continue;
        }
        /* libdtrace rejects a malformed or unknown conversion as a syntax error */
        if (!*f || !d_strchr("cdiouxXspYTkaAeEfFgG", *f))
            dcc_error(g->cc, line, "D_SYNTAX", "%s( ) format conversion #%d is not "
                      "supported", fn, (int)conv);
        if (aggmode != 1 && arg < g->nrec &&
            (g->rec[arg] == 'f' || g->rec[arg] == 'd') != (d_strchr("eEfFgG", *f) != NULL))
            dcc_error(g->cc, line, "D_PRINTF_ARG_TYPE", "%s( ) argument #%d is incompatible "
                      "with conversion #%d prototype (%%%c: %s)", fn, (int)arg + 2, (int)conv,
                      *f, d_strchr("eEfFgG", *f) ? "a float or double" : "not a float");
        if (aggmode == 1)
            continue; /* printa: keys are checked once the aggregation is known (mode 2) */
        if (aggmode == 2) { /* printa's keys in g->rec: only stacks are told apart here */
            if (arg < g->nrec && (g->rec[arg] == 'k') != (*f == 'k'))
                dcc_error(g->cc, line, "D_PRINTF_ARG_TYPE", "%s( ) key #%d is incompatible "
                          "with conversion #%d prototype (%%%c)", fn, (int)arg + 1, (int)conv, *f);
            arg++;
            continue;
        }
        if ((g->rec[arg] == 'k') != (*f == 'k'))
            dcc_error(g->cc, line, "D_PRINTF_ARG_TYPE", "%s( ) argument #%d is incompatible "
                      "with conversion #%d prototype (%%%c: %s)", fn, (int)arg + 2, (int)conv,
                      *f, *f == 'k' ? "a stack" : "not a stack");
        if (arg >= g->nrec)
            dcc_error(g->cc, line, "D_PRINTF_ARG_PROTO", "%s( ) prototype mismatch: conversion "
                      "#%d (%%%c) is missing a corresponding value argument", fn, (int)conv, *f);
        char want = printf_sized_type(len, nlen, *f);
        if (want && (*f == 'x' || *f == 'X')) /* either sign: compare the sizes */
            want = g->rec[arg] == (want | 0x20) || g->rec[arg] == (want & ~0x20) ? 0 : want;
        if (want && g->rec[arg] != want)
            dcc_error(g->cc, line, "D_PRINTF_ARG_TYPE", "%s( ) argument #%d is incompatible "
                      "with conversion #%d prototype (%%%.*s%c: %s)", fn, (int)arg + 2,
                      (int)conv, (int)nlen, len, *f, printf_sized_name(want));
        if ((g->rec[arg] == 's') != (*f == 's') ||
            ((*f == 'Y' || *f == 'T') && g->rec[arg] != 'l' && g->rec[arg] != 'L'))
            dcc_error(g->cc, line, "D_PRINTF_ARG_TYPE", "%s( ) argument #%d is incompatible "
                      "with conversion #%d prototype (%%%c%s)", fn, (int)arg + 2, (int)conv, *f,
                      *f == 'Y' || *f == 'T' ? ": a 64-bit integer" : "");
        arg++;
    }
    if (aggmode == 2)
        return;
    if (!aggmode && arg < g->nrec)
        dcc_error(g->cc, line, "D_PRINTF_ARG_EXTRA", "%s( ) prototype mismatch: only %d "
                  "arguments required by this format string", fn, (int)arg);
}

static unsigned agg_lookup(struct cg *g, struct dnode *n, int line)
{
    if (!n || n->kind != N_AGG || n->b)
        dcc_error(g->cc, line, "D_PROTO_ARG", "argument must be an aggregation name");
    for (unsigned k = 0; k < g->naggs; k++)
        if (strcmp(g->aggs[k].name, n->s) == 0)
            return k;
    dcc_error(g->cc, line, "D_AGG_UNDEF", "aggregation @%s is not defined", n->s);
}

static const char *const aggfuncs[DIF_AGG_NFUNCS] = {
    "count", "sum", "min", "max", "avg", "stddev", "quantize", "lquantize", "llquantize",
};

/* type_of: the type of an expression, found by compiling it and dropping the code (used where
 * libdtrace checks a prototype before it generates code). */
static struct dtype type_of(struct cg *g, struct dnode *n)
{
    unsigned ninsns = g->ninsns;
    uint16_t regs = g->regs;
    struct dtype t;
    expr(g, n, &t);
    g->ninsns = ninsns;
    g->regs = regs;
    return t;
}

/* is_action_call: n calls an action (trace( ), printf( )...) */
static int is_action_call(const struct dnode *n)
{
    return n->kind == N_CALL && is_action(n->s);
}

/* lquantize( ) and llquantize( ) parameters, checked in libdtrace's order (dt_compile_agg):
 * each argument's type, then its range, then the relations between them. */
static void lquant_check(struct cg *g, struct dnode *arg, int64_t *param, int line)
{
    static const char *const type_tag[] = { "D_LQUANT_BASETYPE", "D_LQUANT_LIMTYPE" };
    static const char *const val_tag[] = { "D_LQUANT_BASEVAL", "D_LQUANT_LIMVAL" };
    for (int k = 0; k < 2; k++, arg = arg->next) {
        if (!const_value(arg, &param[k]))
            dcc_error(g->cc, arg->line, type_tag[k], "lquantize( ) argument #%d must be an "
                      "integer constant", k + 1);
        if (param[k] < INT32_MIN || param[k] > INT32_MAX)
            dcc_error(g->cc, arg->line, val_tag[k], "lquantize( ) argument #%d must be a 32-bit "
                      "quantity", k + 1);
    }
    if (param[1] < param[0])
        dcc_error(g->cc, line, "D_LQUANT_MISMATCH", "lquantize( ) base (argument #1) must be "
                  "less than limit (argument #2)");
    param[2] = 1;
    if (arg) {
        if (!const_value(arg, &param[2]) || param[2] <= 0)
            dcc_error(g->cc, arg->line, "D_LQUANT_STEPTYPE", "lquantize( ) argument #3 must "
                      "be a non-zero positive integer constant");
        if (param[2] > UINT16_MAX)
            dcc_error(g->cc, arg->line, "D_LQUANT_STEPVAL", "lquantize( ) argument #3 must be "
                      "a 16-bit quantity");
    }
    int64_t levels = (param[1] - param[0]) / param[2];
    if (levels == 0)
        dcc_error(g->cc, line, "D_LQUANT_STEPLARGE", "lquantize( ) step (argument #3) too "
                  "large: must have at least one quantization level");
    if (levels > UINT16_MAX)
        dcc_error(g->cc, line, "D_LQUANT_STEPSMALL", "lquantize( ) step (argument #3) too "
                  "small: number of quantization levels must be a 16-bit quantity");
}

static const char *const llq_name[] = { "factor", "low magnitude", "high magnitude",
                                        "linear steps per magnitude" };
static const char *const llq_tag[3][4] = {
    { "D_LLQUANT_FACTORTYPE", "D_LLQUANT_LOWTYPE", "D_LLQUANT_HIGHTYPE", "D_LLQUANT_NSTEPTYPE" },
    { "D_LLQUANT_FACTORVAL", "D_LLQUANT_LOWVAL", "D_LLQUANT_HIGHVAL", "D_LLQUANT_NSTEPVAL" },
    { "D_LLQUANT_FACTORMATCH", "D_LLQUANT_LOWMATCH", "D_LLQUANT_HIGHMATCH",
      "D_LLQUANT_NSTEPMATCH" },
};

static void llquant_check(struct cg *g, struct dnode *arg, int64_t *p, int line)
{
    for (int k = 0; k < 4; k++, arg = arg->next) {
        if (!const_value(arg, &p[k]))
            dcc_error(g->cc, arg->line, llq_tag[0][k], "llquantize( ) argument #%d (%s) must be an "
                      "integer constant", k + 1, llq_name[k]);
        if ((uint64_t)p[k] > UINT16_MAX)
            dcc_error(g->cc, arg->line, llq_tag[1][k], "llquantize( ) argument #%d (%s) must be an "
                      "unsigned 16-bit quantity", k + 1, llq_name[k]);
    }
    if (p[0] < 2)
        dcc_error(g->cc, line, "D_LLQUANT_FACTORSMALL", "llquantize( ) factor (argument #1) "
                  "must be two or more");
    if (p[1] >= p[2])
        dcc_error(g->cc, line, "D_LLQUANT_MAGRANGE", "llquantize( ) high magnitude (argument "
                  "#3) must be greater than low magnitude (argument #2)");
    if (p[3] < p[0])
        dcc_error(g->cc, line, "D_LLQUANT_FACTORNSTEPS", "llquantize( ) factor (argument #1) "
                  "must be less than or equal to the number of linear steps per magnitude "
                  "(argument #4)");
    uint64_t v = (uint64_t)p[0];
    while (v < (uint64_t)p[3])
        v *= (uint64_t)p[0];
    if (p[3] % p[0] || v % (uint64_t)p[3])
        dcc_error(g->cc, line, "D_LLQUANT_FACTOREVEN", "llquantize( ) factor (argument #1) "
                  "must evenly divide the number of steps per magnitude (argument #4), and the "
                  "number of steps per magnitude must evenly divide a power of the factor");
    uint64_t order = 1;
    for (int64_t i = 0; i <= p[2] + 1; i++) {
        if (order * (uint64_t)p[0] <= order)
            dcc_error(g->cc, line, "D_LLQUANT_MAGTOOBIG", "llquantize( ) factor (%d) raised to "
                      "power of high magnitude (%d) plus 1 overflows 64-bits", (int)p[0],
                      (int)p[2]);
        order *= (uint64_t)p[0];
    }
}

/* A redefinition with other parameters names the first one that differs, as libdtrace does. */
static void param_match(struct cg *g, const struct aggsym *s, int func, const int64_t *p,
                        int line)
{
    if (func == DIF_AGG_LQUANTIZE) {
        const int64_t *o = s->param;
        if (o[0] != p[0])
            dcc_error(g->cc, line, "D_LQUANT_MATCHBASE", "lquantize( ) base (argument #1) "
                      "doesn't match previous declaration: expected %d, found %d", (int)o[0],
                      (int)p[0]);
        if ((o[1] - o[0]) / o[2] * o[2] != (p[1] - p[0]) / p[2] * p[2])
            dcc_error(g->cc, line, "D_LQUANT_MATCHLIM", "lquantize( ) limit (argument #2) "
                      "doesn't match previous declaration: expected %d, found %d", (int)o[1],
                      (int)p[1]);
        if (o[2] != p[2])
            dcc_error(g->cc, line, "D_LQUANT_MATCHSTEP", "lquantize( ) step (argument #3) "
                      "doesn't match previous declaration: expected %d, found %d", (int)o[2],
                      (int)p[2]);
    }
    if (func == DIF_AGG_LLQUANTIZE)
        for (int k = 0; k < 4; k++)
            if (s->param[k] != p[k])
                dcc_error(g->cc, line, llq_tag[2][k], "llquantize( ) %s (argument #%d) doesn't match "
                          "previous declaration: expected %d, found %d", llq_name[k], k + 1,
                          (int)s->param[k], (int)p[k]);
}

static void aggregation(struct cg *g, struct dnode *st)
{
    struct dnode *lhs = st->a, *rhs = st->b;
    int line = st->line;
    if (st->op != T_ASSIGN || !rhs || rhs->kind != N_CALL)
        dcc_error(g->cc, line, "D_AGG_FUNC", "aggregations may only be assigned an "
                  "aggregating function");
    int func = -1;
    for (int k = 0; k < DIF_AGG_NFUNCS; k++)
        if (strcmp(aggfuncs[k], rhs->s) == 0)
            func = k;
    if (func < 0 && !is_action(rhs->s) && !is_subr(rhs->s))
        dcc_error(g->cc, line, "D_FUNC_UNDEF", "failed to resolve %s: Unknown function name",
                  rhs->s);
    if (func < 0)
        dcc_error(g->cc, line, "D_AGG_FUNC", "%s( ) is not an aggregating function", rhs->s);
    unsigned nargs = count_list(rhs->b);
    /* prototypes: count( ); sum..stddev(@); quantize(@, ...); lquantize(@, int32_t, int32_t,
     * ...); llquantize(@, int32_t x 4, ...). The varargs are checked below. */
    static const uint8_t minargs[] = { 0, 1, 1, 1, 1, 1, 1, 3, 5 };
    static const uint8_t maxargs[] = { 0, 1, 1, 1, 1, 1, 255, 255, 255 };
    if (nargs < minargs[func] || nargs > maxargs[func])
        dcc_error(g->cc, line, "D_PROTO_LEN", "%s( ) prototype mismatch: %d arg%s passed, %d "
                  "expected", rhs->s, (int)nargs, nargs == 1 ? "" : "s", (int)minargs[func]);

    struct dif_prog p = prog_begin(g);
    for (struct dnode *k = lhs->b; k; k = k->next) {
        if (k->kind == N_AGG || (k->kind != N_CALL && type_of(g, k).kind == DT_NONE))
            dcc_error(g->cc, k->line, "D_KEY_TYPE", "@%s[ ] key #%u has no value of a key "
                      "type", lhs->s, count_list(lhs->b) - count_list(k) + 1);
        push_rec(g, k);
    }
    unsigned k = 2;
    for (struct dnode *a = rhs->b ? rhs->b->next : NULL; a && k <= minargs[func]; a = a->next, k++)
        if (type_of(g, a).kind != DIF_TYPE_INT)
            dcc_error(g->cc, a->line, "D_PROTO_ARG", "%s( ) argument #%u is incompatible with "
                      "prototype:\n\tprototype: int32_t", rhs->s, k);
    unsigned rv = 0;
    struct dtype t = T_INT64;
    if (nargs)
        rv = expr(g, rhs->b, &t);
    if (nargs && t.kind != DIF_TYPE_INT)
        dcc_error(g->cc, line, "D_AGG_SCALAR", "%s( ) argument #1 must be of scalar type",
                  rhs->s);
    int64_t param[DIF_AGGPARAMS] = { 0, 0, 1, 0 };
    struct dnode *incr = NULL;
    unsigned argmax = 0;
    if (func == DIF_AGG_LQUANTIZE) {
        lquant_check(g, rhs->b->next, param, line);
        incr = rhs->b->next->next->next ? rhs->b->next->next->next->next : NULL;
        argmax = 5;
    } else if (func == DIF_AGG_LLQUANTIZE) {
        llquant_check(g, rhs->b->next, param, line);
        incr = rhs->b->next->next->next->next->next;
        argmax = 6;
    } else if (func == DIF_AGG_QUANTIZE) {
        incr = rhs->b->next;
        argmax = 2;
    }
    if (incr) {
        if (type_of(g, incr).kind != DIF_TYPE_INT)
            dcc_error(g->cc, line, "D_PROTO_ARG", "%s( ) increment value (argument #%u) must "
                      "be of scalar type", rhs->s, argmax);
        if (incr->next)
            dcc_error(g->cc, incr->line, "D_PROTO_LEN", "%s( ) prototype mismatch: %u args "
                      "passed, at most %u expected", rhs->s, nargs, argmax);
        push_rec(g, incr); /* after the keys; the engine pops it (DIF_ACT_AGGINCR) */
        g->rec[--g->nrec] = 0;
    }
    struct dif_act *a = act_new(g, incr ? DIF_ACT_AGGINCR : DIF_ACT_AGG, line);
    a->da_prog = prog_end(g, p, rv);
    unsigned id;
    for (id = 0; id < g->naggs; id++)
        if (strcmp(g->aggs[id].name, lhs->s) == 0)
            break;
    if (id == g->naggs) {
        if (g->naggs == DIF_MAXAGGS)
            dcc_error(g->cc, line, "D_DIF_SIZE", "too many aggregations");
        struct aggsym *s = &g->aggs[g->naggs++];
        s->name = lhs->s;
        s->func = func;
        s->line = line;
        memcpy(s->keys, g->rec, sizeof(s->keys));
        memcpy(s->param, param, sizeof(param));
    } else {
        struct aggsym *s = &g->aggs[id];
        if (s->func != func)
            dcc_error(g->cc, line, "D_AGG_REDEF", "aggregation redefined: @%s", lhs->s);
        param_match(g, s, func, param, line);
        if (strcmp(s->keys, g->rec) != 0)
            dcc_error(g->cc, line, "D_AGG_REDEF", "aggregation key signature differs from its "
                      "first use: @%s", lhs->s);
    }
    a->da_arg = id;
    a->da_types = intern_str(g, g->rec);
    a->da_size = dif_types_size(g->rec, g->cc->strsize);
    a->da_offset = 0; /* keys go to the aggregation buffer, not the principal record */
}

static int is_action(const char *s)
{
    static const char *const names[] = { "trace", "printf", "printa", "exit", "clear", "trunc",
        "normalize", "denormalize", "tracemem", "speculate", "commit", "discard",
        "stack", "ustack", "jstack", "raise", "system", "chill", "breakpoint", "panic",
        "copyout", "copyoutstr", "print", "setopt", "freopen", "ftruncate", "stop" };
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
        if (!strcmp(names[k], s))
            return 1;
    return 0;
}

static void proto_len(struct cg *g, struct dnode *n, unsigned lo, unsigned hi)
{
    unsigned c = count_list(n->b);
    if (c < lo || c > hi)
        dcc_error(g->cc, n->line, "D_PROTO_LEN", "%s( ) prototype mismatch: %d arg%s passed, "
                  "%d expected", n->s, (int)c, c == 1 ? "" : "s", (int)lo);
}

/* stack_check: stack( )/ustack( )/jstack( ) arguments as dt_action_stack_args and
 * dt_action_ustack_args check them, before the subset says it has no stacks. */
static void stack_check(struct cg *g, struct dnode *st)
{
    unsigned argc = count_list(st->b);
    int64_t v;
    if (st->s[0] == 's') {
        if (argc > 1)
            dcc_error(g->cc, st->line, "D_STACK_PROTO", "stack( ) prototype mismatch: too many "
                      "arguments");
        if (argc == 1 && (!const_value(st->b, &v) || v <= 0))
            dcc_error(g->cc, st->line, "D_STACK_SIZE", "stack( ) size must be a nonzero "
                      "positive integer constant");
        return;
    }
    int j = st->s[0] == 'j';
    if (argc > 2)
        dcc_error(g->cc, st->line, j ? "D_JSTACK_PROTO" : "D_USTACK_PROTO", "%s( ) prototype "
                  "mismatch: too many arguments", st->s);
    if (argc >= 1 && (!const_value(st->b, &v) || v <= 0))
        dcc_error(g->cc, st->line, "D_USTACK_FRAMES", "%s( ) argument #1 must be a non-zero "
                  "positive integer constant", st->s);
    if (argc == 2 && (!const_value(st->b->next, &v) || v <= 0))
        dcc_error(g->cc, st->line, "D_USTACK_STRSIZE", "%s( ) argument #2 must be a positive "
                  "integer constant", st->s);
}

/* aggact_check: clear( ), trunc( ), normalize( ) and denormalize( ) checks in libdtrace's
 * order (prototype, aggregation argument, scalar argument, defined aggregation), each with the
 * action's own tags. Returns the aggregation's id. */
static unsigned aggact_check(struct cg *g, struct dnode *st)
{
    static const char *const tags[][4] = {
        { "D_CLEAR_PROTO", "D_CLEAR_AGGARG", "D_CLEAR_PROTO", "D_CLEAR_AGGBAD" },
        { "D_TRUNC_PROTO", "D_TRUNC_AGGARG", "D_TRUNC_SCALAR", "D_TRUNC_AGGBAD" },
        { "D_NORMALIZE_PROTO", "D_NORMALIZE_AGGARG", "D_NORMALIZE_SCALAR",
          "D_NORMALIZE_AGGBAD" },
    };
    const char *fn = st->s;
    int kind = fn[0] == 'c' ? 0 : fn[0] == 't' ? 1 : 2;
    unsigned lo = kind == 2 && fn[0] == 'n' ? 2 : 1, hi = kind == 0 || fn[0] == 'd' ? 1 : 2;
    unsigned argc = count_list(st->b);
    if (argc < lo || argc > hi)
        dcc_error(g->cc, st->line, tags[kind][0], "%s( ) prototype mismatch: %u args passed, "
                  "%u expected", fn, argc, lo);
    if (st->b->kind != N_AGG || st->b->b)
        dcc_error(g->cc, st->line, tags[kind][1], "%s( ) argument #1 is incompatible with "
                  "prototype:\n\tprototype: aggregation", fn);
    if (st->b->next && (st->b->next->kind == N_AGG ||
                        type_of(g, st->b->next).kind != DIF_TYPE_INT))
        dcc_error(g->cc, st->line, tags[kind][2], "%s( ) argument #2 must be of scalar type",
                  fn);
    if (!is_aggsym(g, st->b->s))
        dcc_error(g->cc, st->line, tags[kind][3], "undefined aggregation: @%s", st->b->s);
    return agg_lookup(g, st->b, st->line);
}

/* statement: compiles one statement of a clause into one action. */
static void statement(struct cg *g, struct dnode *st, uint32_t *recsize)
{
    g->line = st->line;
    if (st->kind == N_ASSIGN && st->a->kind == N_AGG) {
        aggregation(g, st);
        return;
    }
    if (st->kind == N_AGG && (st->b || is_aggsym(g, st->s)))
        dcc_error(g->cc, st->line, "D_AGG_NULL", "expression has null effect: @%s", st->s);
    if (st->kind != N_CALL || !is_action(st->s)) {
        struct dif_prog p = prog_begin(g);
        struct dtype t;
        unsigned r = expr(g, st, &t);
        struct dif_act *a = act_new(g, DIF_ACT_EXPR, st->line);
        a->da_prog = prog_end(g, p, r);
        finish_rec(g, a, recsize);
        return;
    }
    const char *fn = st->s;
    struct dif_prog p = prog_begin(g);
    struct dif_act *a;
    unsigned ret = 0;
    if (!strcmp(fn, "trace")) {
        proto_len(g, st, 1, 1);
        push_rec(g, st->b);
        a = act_new(g, DIF_ACT_TRACE, st->line);
    } else if (!strcmp(fn, "printf")) {
        if (!st->b)
            dcc_error(g->cc, st->line, "D_PROTO_LEN", "printf( ) prototype mismatch: 0 args "
                      "passed, at least 1 expected");
        for (struct dnode *k = st->b->next; k; k = k->next)
            if (k->kind == N_AGG)
                dcc_error(g->cc, st->line, "D_PRINTF_ARG_TYPE", "printf( ) argument #%u is "
                          "incompatible with its conversion: an aggregation", count_list(st->b)
                          - count_list(k) + 1);
        if (st->b->kind != N_STR)
            dcc_error(g->cc, st->line, "D_PRINTF_ARG_FMT", "printf( ) argument #1 must be a "
                      "string literal");
        for (struct dnode *k = st->b->next; k; k = k->next)
            if (is_void_call(k))
                dcc_error(g->cc, st->line, "D_PRINTF_ARG_TYPE", "printf( ) argument #%u is "
                          "incompatible with its conversion: %s( ) has type void",
                          count_list(st->b) - count_list(k) + 1, k->s);
        for (struct dnode *k = st->b->next; k; k = k->next)
            if (!push_float(g, k))
                push_rec(g, k);
        printf_check(g, st->b->s, st->line, "printf", 0);
        if (!g->nrec) { /* as libdtrace, a printf( ) of no value records a zero (8 bytes) */
            emit(g, DIF_INSTR(DIF_PUSHR, 0, DIF_TYPE_INT, 0));
            g->rec[g->nrec++] = 'l';
            g->rec[g->nrec] = 0;
        }
        a = act_new(g, DIF_ACT_PRINTF, st->line);
        a->da_arg = intern_str(g, st->b->s);
    } else if (!strcmp(fn, "printa")) {
        struct dnode *x = st->b;
        uint32_t fmt = UINT32_MAX;
        if (x && x->kind == N_STR) {
            printf_check(g, x->s, st->line, "printa", 1);
            fmt = intern_str(g, x->s);
            x = x->next;
        }
        for (struct dnode *y = x; y; y = y->next)
            if (y->kind != N_AGG || y->b)
                dcc_error(g->cc, st->line, "D_PRINTA_AGGARG", "printa( ) argument #%u is "
                          "incompatible with prototype:\n\tprototype: aggregation",
                          count_list(st->b) - count_list(y) + 1);
        if (!x)
            dcc_error(g->cc, st->line, "D_PRINTA_PROTO", "printa( ) requires an aggregation");
        for (struct dnode *y = x->next; y; y = y->next) {
            const char *k0 = g->aggs[agg_lookup(g, x, st->line)].keys;
            const char *k1 = g->aggs[agg_lookup(g, y, st->line)].keys;
            if (strlen(k0) != strlen(k1))
                dcc_error(g->cc, st->line, "D_PRINTA_AGGKEY", "printa( ): @%s and @%s do not "
                          "have matching key signatures", x->s, y->s);
            if (strcmp(k0, k1) != 0)
                dcc_error(g->cc, st->line, "D_PRINTA_AGGPROTO", "printa( ): @%s[ ] key is "
                          "incompatible with @%s", y->s, x->s);
        }
        if (count_list(x) > DIF_PRINTA_MAX)
            dcc_error(g->cc, st->line, "D_UNSUPPORTED", "printa( ) of more than %u aggregations",
                      DIF_PRINTA_MAX);
        if (fmt != UINT32_MAX) { /* the keys against the format's conversions */
            d_strlcpy(g->rec, g->aggs[agg_lookup(g, x, st->line)].keys, sizeof(g->rec));
            g->nrec = (unsigned)strlen(g->rec);
            printf_check(g, st->b->s, st->line, "printa", 2);
            g->rec[0] = 0;
            g->nrec = 0;
        }
        /* one action per aggregation, the later ones joined to the first (as libdtrace) */
        a = NULL;
        for (struct dnode *y = x; y; y = y->next) {
            unsigned id = agg_lookup(g, y, st->line);
            if (a) { /* the previous one is complete */
                a->da_prog = prog_end(g, p, ret);
                finish_rec(g, a, recsize);
                p = prog_begin(g);
            }
            a = act_new(g, DIF_ACT_PRINTA, st->line);
            a->da_arg = id;
            a->da_arg2 = y == x ? fmt : DIF_PRINTA_JOINED;
        }
    } else if (!strcmp(fn, "exit")) {
        proto_len(g, st, 1, 1);
        push_rec(g, st->b);
        if (g->rec[0] == 's')
            dcc_error(g->cc, st->line, "D_PROTO_ARG", "exit( ) argument #1 must be an integer");
        a = act_new(g, DIF_ACT_EXIT, st->line);
    } else if (!strcmp(fn, "clear") || !strcmp(fn, "denormalize")) {
        unsigned id = aggact_check(g, st);
        a = act_new(g, fn[0] == 'c' ? DIF_ACT_CLEAR : DIF_ACT_DENORMALIZE, st->line);
        a->da_arg = id;
    } else if (!strcmp(fn, "trunc") || !strcmp(fn, "normalize")) {
        int tr = fn[0] == 't';
        unsigned id = aggact_check(g, st);
        if (st->b->next)
            push_rec(g, st->b->next);
        a = act_new(g, tr ? DIF_ACT_TRUNC : DIF_ACT_NORMALIZE, st->line);
        a->da_arg = id;
    } else if (!strcmp(fn, "tracemem")) {
        /* tracemem(address, size): size bytes from D's own memory (a string, a variable's
         * storage); the size must be a literal so the record has a fixed layout */
        proto_len(g, st, 2, 2);
        struct dnode *sz = st->b->next;
        if (type_of(g, sz).kind == DIF_TYPE_STR) /* dt_open.c: tracemem(@, size_t) */
            dcc_error(g->cc, st->line, "D_PROTO_ARG", "tracemem( ) argument #2 is incompatible "
                      "with prototype");
        if (sz->kind != N_INT || sz->ival <= 0 || sz->ival > (int64_t)DIF_TRACEMEM_MAX)
            dcc_error(g->cc, st->line, "D_TRACEMEM_SIZE", "tracemem( ) argument #2 must be an "
                      "integer constant from 1 to %d", (int)DIF_TRACEMEM_MAX);
        push_rec(g, st->b);
        a = act_new(g, DIF_ACT_TRACEMEM, st->line);
        a->da_arg = (uint32_t)sz->ival;
    } else if (!strcmp(fn, "speculate") || !strcmp(fn, "commit") || !strcmp(fn, "discard")) {
        struct dtype t;
        proto_len(g, st, 1, 1);
        ret = expr(g, st->b, &t);
        if (t.kind != DIF_TYPE_INT)
            dcc_error(g->cc, st->line, "D_PROTO_ARG", "%s( ) argument #1 must be a speculation "
                      "id", fn);
        if (fn[0] == 's') { /* the engine's room check (DIF_S_SPECROOM) gives the id back */
            emit(g, DIF_INSTR(DIF_PUSHT, ret, DIF_TYPE_INT, 0));
            emit(g, DIF_INSTR_IDX(DIF_CALL, DIF_S_SPECROOM, ret));
        }
        a = act_new(g, fn[0] == 's' ? DIF_ACT_SPECULATE : fn[0] == 'c' ? DIF_ACT_COMMIT
                                                                       : DIF_ACT_DISCARD, st->line);
    } else if (!strcmp(fn, "setopt") || !strcmp(fn, "freopen")) {
        /* done by the consumer: the option or file name is a string literal here */
        proto_other(g, st);
        for (struct dnode *k = st->b; k; k = k->next)
            if (k->kind != N_STR)
                dcc_error(g->cc, st->line, "D_UNSUPPORTED", "%s( ) argument #%u must be a "
                          "string literal in this D subset", fn, count_list(st->b) -
                          count_list(k) + 1);
        a = act_new(g, fn[0] == 's' ? DIF_ACT_SETOPT : DIF_ACT_FREOPEN, st->line);
        a->da_arg = intern_str(g, st->b->s);
        a->da_arg2 = st->b->next ? intern_str(g, st->b->next->s) : UINT32_MAX;
    } else if (!strcmp(fn, "system")) {
        /* system(fmt, ...): printf's checks; the consumer runs the formatted command */
        if (!st->b)
            dcc_error(g->cc, st->line, "D_PROTO_LEN", "system( ) prototype mismatch: 0 args "
                      "passed, at least 1 expected");
        if (st->b->kind != N_STR)
            dcc_error(g->cc, st->line, "D_PRINTF_ARG_FMT", "system( ) argument #1 must be a "
                      "string literal");
        for (struct dnode *k = st->b->next; k; k = k->next)
            push_rec(g, k);
        printf_check(g, st->b->s, st->line, "system", 0);
        a = act_new(g, DIF_ACT_SYSTEM, st->line);
        a->da_arg = intern_str(g, st->b->s);
    } else if (!strcmp(fn, "raise")) {
        /* raise(sig): the consumer signals the firing process, as DTrace's raise( ) signals
         * the current one; the record holds the signal and that process's id */
        proto_other(g, st);     /* libdtrace's prototype checks and words */
        push_rec(g, st->b);
        struct dnode *who = dcc_alloc(g->cc, sizeof(*who));
        memset(who, 0, sizeof(*who));
        who->kind = N_IDENT;
        who->s = "pid";
        who->line = st->line;
        push_rec(g, who);
        g->rec[0] = g->rec[1] = 'l';   /* both read as 64-bit integers */
        a = act_new(g, DIF_ACT_RAISE, st->line);
    } else if (!strcmp(fn, "stack") || !strcmp(fn, "ustack") || !strcmp(fn, "jstack")) {
        stack_check(g, st);
        if (fn[0] != 'j')
            push_rec(g, st); /* the stack's id, printed by the consumer */
        a = act_new(g, DIF_ACT_STACK, st->line);
        a->da_arg = fn[0] == 's' ? 0 : fn[0] == 'u' ? 1 : 2;
    } else {
        proto_other(g, st);
        dcc_error(g->cc, st->line, "D_UNSUPPORTED", "%s( ) is not supported in this D subset", fn);
    }
    a->da_prog = prog_end(g, p, ret);
    finish_rec(g, a, recsize);
}

/* ---- probes ------------------------------------------------------------------------------- */

/* timer_period: parses N[unit] of tick-N / profile-N; returns ns or 0 if malformed. */
static uint64_t timer_period(const char *s)
{
    uint64_t v = 0;
    if (*s < '0' || *s > '9')
        return 0;
    while (*s >= '0' && *s <= '9') {
        if (v > 1000000000000ull)
            return 0;
        v = v * 10 + (uint64_t)(*s++ - '0');
    }
    if (v == 0)
        return 0;
    static const struct { const char *u; uint64_t ns; } units[] = {
        { "ns", 1 }, { "nsec", 1 }, { "us", 1000 }, { "usec", 1000 }, { "ms", 1000000 },
        { "msec", 1000000 }, { "s", 1000000000ull }, { "sec", 1000000000ull },
        { "m", 60000000000ull }, { "min", 60000000000ull }, { "h", 3600000000000ull },
        { "hour", 3600000000000ull }, { "d", 86400000000000ull }, { "day", 86400000000000ull },
    };
    if (*s == 0 || !strcmp(s, "hz"))
        return v > 1000000000ull ? 0 : 1000000000ull / v;
    for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++)
        if (!strcmp(s, units[k].u))
            return v * units[k].ns;
    return 0;
}

static unsigned probe_add(struct cg *g, uint32_t id, const struct dprobe_desc *d,
                          uint64_t period, uint32_t flags, int line)
{
    for (unsigned k = 0; k < g->nprobes; k++)  /* (pid probes: one per process too) */
        if (g->probes[k].dp_id == id && (!DPROBE_IS_PID(id) || g->probes[k].dp_period == period))
            return k;
    if (g->nprobes == CAP_PROBES)
        dcc_error(g->cc, line, "D_DIF_SIZE", "too many probes: a program enables at most %u",
                  CAP_PROBES);
    struct dif_probe *p = &g->probes[g->nprobes];
    p->dp_id = id;
    p->dp_prov = intern_str(g, d->prov);
    p->dp_mod = intern_str(g, d->mod);
    p->dp_func = intern_str(g, d->func);
    p->dp_name = intern_str(g, d->name);
    p->dp_period = period;
    p->dp_flags = flags;
    const struct dprobe_usdt *u = dprobe_usdt_site(id);
    if (u) {   /* a USDT site: where it is, its semaphore and where its arguments are
                * (docs/usdt.md) */
        p->dp_period = u->addr | (uint64_t)u->sem << 32;
        p->dp_pad = intern_str(g, u->args);
    }
    return g->nprobes++;
}

/* ecbs_grow: twice the enabling table's room, in place when nothing was allocated after it
 * (the arena is a bump allocator), else in a new copy; out of the compiler's memory is an
 * error that names the arena. */
static void ecbs_grow(struct cg *g, int line)
{
    struct d_arena *a = &g->cc->arena;
    size_t have = g->capecbs * sizeof(struct dif_ecb), more = have;
    if ((uint8_t *)g->ecbs + have == a->base + a->used && more <= a->size - a->used) {
        memset(a->base + a->used, 0, more);
        a->used += more;
    } else {
        struct dif_ecb *n = d_alloc(a, have + more);
        if (!n)
            dcc_error(g->cc, line, "D_NOMEM", "out of compiler memory for %u enablings (its "
                      "%u KB arena: a board's DTRACE_CC_ARENA): fewer clauses on wide "
                      "descriptions such as fbt:::entry, or compile it on the host "
                      "(tools/dcompile)", g->necbs + 1u, (unsigned)(a->size / 1024u));
        memcpy(n, g->ecbs, have);
        g->ecbs = n;
    }
    g->capecbs *= 2u;
}

/* ecb_add: one enabling per description matching the probe: a clause whose descriptions
 * name a probe twice runs twice on it, as in DTrace. */
static void ecb_add(struct cg *g, unsigned probe, unsigned clause, int line)
{
    if (g->necbs == CAP_ECBS)
        dcc_error(g->cc, line, "D_DIF_SIZE", "too many enablings: a program enables at most "
                  "%u (each clause once per probe it matches): fewer clauses on wide "
                  "descriptions such as fbt:::entry", CAP_ECBS);
    if (g->necbs == g->capecbs)
        ecbs_grow(g, line);
    g->ecbs[g->necbs].de_probe = probe;
    g->ecbs[g->necbs].de_clause = clause;
    g->necbs++;
}

/* fbt_unprobeable: a description without globs that names a kernel function the fbt table
 * has but cannot probe there says why (docs/fbt.md, "What cannot be probed"). */
static void fbt_unprobeable(struct cg *g, const char *const f[4], int line)
{
    const struct dfbt *t = dprobe_fbt_table();
    if (!t || !f[2][0] || (f[0][0] && strcmp(f[0], "fbt")) ||
        (f[1][0] && strcmp(f[1], DPROBE_FBT_MODULE)) ||
        (f[3][0] && strcmp(f[3], "entry") && strcmp(f[3], "return")))
        return;
    for (uint32_t k = 0; k < t->nfuncs; k++) {
        if (strcmp(dfbt_name(t, k), f[2]) != 0)
            continue;
        const struct dfbt_func *fn = &t->funcs[k];
        int ret = !strcmp(f[3], "return") ||
                  (!f[3][0] && fn->df_entry_why == DFBT_OK);
        unsigned why = ret ? fn->df_return_why : fn->df_entry_why;
        if (why == DFBT_OK)
            continue;
        if (why == DFBT_WHY_CALLEE) { /* name the code that rules it out, and the caller */
            uint32_t root = fn->df_why_func;
            for (unsigned n = 0; n < 64 && root < t->nfuncs &&
                                 t->funcs[root].df_entry_why == DFBT_WHY_CALLEE; n++)
                root = t->funcs[root].df_why_func;
            if (root >= t->nfuncs)
                root = fn->df_why_func;
            int via = root != fn->df_why_func;
            dcc_error(g->cc, line, "D_PDESC_ZERO", "fbt::%s:%s: %s cannot be probed: it is "
                      "called from %s%s%s%s, which %s", f[2], ret ? "return" : "entry", f[2],
                      dfbt_name(t, root), via ? " (through " : "",
                      via ? dfbt_name(t, fn->df_why_func) : "", via ? ")" : "",
                      dfbt_why_text(t->funcs[root].df_entry_why) + 3); /* "it is..." -> "is..." */
        }
        dcc_error(g->cc, line, "D_PDESC_ZERO", "fbt::%s:%s: %s cannot be probed: %s", f[2],
                  ret ? "return" : "entry", f[2], dfbt_why_text(why));
    }
}

/* pid_desc: a description whose provider is pid<PID> or pid$target (after d_target_text,
 * pid__dtrace_target) names functions of the programs' ELF files (--elf): one probe per
 * function the module and function fields match, its address and process in dp_period
 * (d/dprobes.h); :return one per return instruction, the function's start in dp_pad.
 * Returns 0 when the provider is not pid's. */
/* pid_skip: a function a glob matched that cannot be placed, counted for the front end */
static void pid_skip(struct cg *g, const char *func, const char *why)
{
    struct dcc_out *o = g->cc->out;
    if (!o->pid_skipped++) {
        d_strlcpy(o->pid_skip_func, func, sizeof(o->pid_skip_func));
        o->pid_skip_why = why;
    }
}

static int pid_desc(struct cg *g, const char *const f[4], const char *desc, unsigned clause,
                    int line)
{
    const char *p = f[0];
    uint64_t pid = 0;
    if (strncmp(p, "pid", 3))
        return 0;
    if (!strcmp(p + 3, "__dtrace_target")) {
        pid = DPROBE_PID_TARGET;
    } else {
        if (!p[3])
            return 0;
        for (const char *q = p + 3; *q; q++) {
            if (*q < '0' || *q > '9')
                return 0;
            pid = pid * 10u + (uint64_t)(*q - '0');
            if (pid >= DPROBE_PID_TARGET)
                dcc_error(g->cc, line, "D_PDESC_INVAL", "invalid probe description \"%s\": "
                          "no such process id", desc);
        }
    }
    const char *shown = pid == DPROBE_PID_TARGET ? "pid$target" : p;   /* in messages */
    /* a description of many functions (an empty function field, or a glob) places every one
     * it can and counts the rest (dcc_out.pid_skipped, which the front ends report); one
     * naming a single function that cannot be placed is an error */
    int glob = !f[2][0];
    for (const char *q = desc; *q; q++)
        if (*q == '*' || *q == '?' || *q == '[')
            glob = 1;
    /* a.out is DTrace's name for the target's main program: the first program the front end
     * loaded (make dtrace loads the first of APPS, the target, first) */
    const char *mod = f[1];
    if (!strcmp(mod, "a.out") && dprobe_pid_count())
        mod = dprobe_pid_fn(0)->mod;
    unsigned hits = 0;
    for (unsigned k = 0; k < dprobe_pid_count(); k++) {
        const struct dprobe_pidfn *fn = dprobe_pid_fn(k);
        if (!dprobe_glob(mod, fn->mod) || !dprobe_glob(f[2], fn->func))
            continue;
        const char *prov = pid == DPROBE_PID_TARGET ? "pid" : p;
        if (dprobe_glob(f[3], "entry") && fn->entry_why && !glob)
            dcc_error(g->cc, line, "D_PDESC_ZERO", "%s:%s:%s:entry: %s cannot be probed: %s",
                      shown, fn->mod, fn->func, fn->func, fn->entry_why);
        if (dprobe_glob(f[3], "entry") && fn->entry_why)
            pid_skip(g, fn->func, fn->entry_why);
        if (dprobe_glob(f[3], "entry") && !fn->entry_why) {
            struct dprobe_desc d = { prov, fn->mod, fn->func, "entry" };
            ecb_add(g, probe_add(g, DPROBE_PID_BASE + 2u * k, &d, fn->addr | pid << 32, 0, line),
                    clause, line);
            hits++;
        }
        if (!dprobe_glob(f[3], "return"))
            continue;
        if (fn->ret_why && !glob)
            dcc_error(g->cc, line, "D_PDESC_ZERO", "%s:%s:%s:return: %s cannot be probed: %s",
                      shown, fn->mod, fn->func, fn->func, fn->ret_why);
        if (fn->ret_why)
            pid_skip(g, fn->func, fn->ret_why);
        struct dprobe_desc d = { prov, fn->mod, fn->func, "return" };
        for (unsigned j = 0; j < fn->nrets; j++) {  /* one probe entry per return */
            unsigned at = probe_add(g, DPROBE_PID_BASE + 2u * k + 1u, &d,
                                    fn->rets[j] | pid << 32, 0, line);
            g->probes[at].dp_pad = fn->addr;
            ecb_add(g, at, clause, line);
            hits++;
        }
    }
    if (!hits && !g->cc->zdefs)
        dcc_error(g->cc, line, "D_PDESC_ZERO", "probe description %s:%s:%s:%s does not match "
                  "any probes", shown, f[1], f[2], f[3]);
    return 1;
}

static void match_desc(struct cg *g, const char *desc, unsigned clause, int line)
{
    const char *f[4] = { "", "", "", "" };
    char buf[256];
    unsigned nf = 1;
    if (strlen(desc) >= sizeof(buf))
        dcc_error(g->cc, line, "D_PDESC_INVAL", "probe description is too long");
    d_strlcpy(buf, desc, sizeof(buf));
    for (char *p = buf; *p; p++)
        if (*p == ':')
            nf++;
    if (nf > 4)
        dcc_error(g->cc, line, "D_PDESC_INVAL", "invalid probe description \"%s\": too many "
                  "fields", desc);
    /* fields fill from the right: "a:b" is function a, name b */
    unsigned k = 4 - nf;
    f[k] = buf;
    for (char *p = buf; *p; p++)
        if (*p == ':') {
            *p = 0;
            f[++k] = p + 1;
        }
    int glob = 0;
    for (const char *p = desc; *p; p++)
        if (*p == '*' || *p == '?' || *p == '[')
            glob = 1;
    int tick = !strncmp(f[3], "tick-", 5), prof = !strncmp(f[3], "profile-", 8);
    if ((tick || prof) && !glob && (!f[0][0] || !strcmp(f[0], "profile")) && !f[1][0] &&
        !f[2][0]) {
        uint64_t period = timer_period(f[3] + (tick ? 5 : 8));
        /* the profile provider makes no probe for a name it cannot read or for an interval
         * under its minimum of 200us, so such a description matches nothing */
        if (period < 200000)
            dcc_error(g->cc, line, "D_PDESC_ZERO", "probe description %s does not match any "
                      "probes", desc);
        struct dprobe_desc d = { "profile", "", "", f[3] };
        /* one probe per name, as the profile provider's: a second tick-1s is the same probe */
        uint32_t id = DPROBE_TIMER_BASE;
        int found = 0;
        for (unsigned j = 0; j < g->nprobes; j++)
            if (g->probes[j].dp_flags && !strcmp(g->strs + g->probes[j].dp_name, f[3]))
                id = g->probes[j].dp_id, found = 1;
        /* a new one: past the timer ids in use, counted in the timer range alone (an fbt or
         * USDT id above it is no timer's) */
        if (!found)
            for (unsigned j = 0; j < g->nprobes; j++)
                if (g->probes[j].dp_id >= id && g->probes[j].dp_id < DPROBE_FBT_BASE)
                    id = g->probes[j].dp_id + 1;
        ecb_add(g, probe_add(g, id, &d, period, tick ? DIF_PRF_TICK : DIF_PRF_PROFILE, line),
                clause, line);
        return;
    }
    if (pid_desc(g, f, desc, clause, line))
        return;
    unsigned hits = 0;
    for (uint32_t id = dprobe_next(0); id; id = dprobe_next(id)) {
        struct dprobe_desc d;
        if (dprobe_get(id, &d) != 0)
            continue;
        struct dprobe_desc a;   /* or by its Solaris sdt name (the probe keeps its own) */
        if ((dprobe_glob(f[0], d.prov) && dprobe_glob(f[1], d.mod) &&
             dprobe_glob(f[2], d.func) && dprobe_glob(f[3], d.name)) ||
            (dprobe_sdt_alias(&d, &a) && dprobe_glob(f[0], a.prov) && dprobe_glob(f[1], a.mod) &&
             dprobe_glob(f[2], a.func) && dprobe_glob(f[3], a.name))) {
            ecb_add(g, probe_add(g, id, &d, 0, 0, line), clause, line);
            hits++;
        }
    }
    if (!hits && !glob)
        fbt_unprobeable(g, f, line);
    if (!hits && !g->cc->zdefs) /* -Z: such a description enables nothing */
        dcc_error(g->cc, line, "D_PDESC_ZERO", "probe description %s does not match any probes",
                  desc);
}

/* ---- driver ------------------------------------------------------------------------------- */

static void declare(struct cg *g, struct ddecl *d)
{
    if (d->assoc) { /* int a[int, string]: the array's key and value types */
        if (d->scope == DIF_SCOPE_SELF)
            dcc_error(g->cc, d->line, "D_UNSUPPORTED", "declared self-> associative arrays "
                      "are not supported: %s", d->name);
        int sou = d->type.kind == DT_SOU && !d->type.ptr; /* a struct or union value */
        if (d->type.kind != DIF_TYPE_INT && d->type.kind != DIF_TYPE_STR && !sou)
            dcc_error(g->cc, d->line, "D_UNSUPPORTED", "associative arrays of this value "
                      "type are not supported: %s", d->name);
        if (sou && !dcc_sou(g->cc, d->type)->complete)
            dcc_error(g->cc, d->line, "D_DECL_INCOMPLETE", "declared type is incomplete: %s",
                      d->name);
        if (sou && dcc_type_size(g->cc, d->type) > DIF_MEMVAR_MAX)
            dcc_error(g->cc, d->line, "D_UNSUPPORTED", "a struct or union value larger than "
                      "%u bytes is not supported: %s", DIF_MEMVAR_MAX, d->name);
        if (sym_find(g, d->name, DIF_SCOPE_ARRAY))
            dcc_error(g->cc, d->line, "D_DECL_IDRED", "identifier redeclared: %s", d->name);
        struct sym *s = sym_new(g, d->name, DIF_SCOPE_ARRAY, d->line);
        s->type = d->type;
        s->mem = (uint8_t)sou;
        memcpy(s->keys, d->keys, sizeof(s->keys));
        s->defined = 1;
        return;
    }
    if (sym_find(g, d->name, d->scope) && d->scope == DIF_SCOPE_GLOBAL)
        dcc_error(g->cc, d->line, "D_DECL_IDRED", "identifier redeclared: %s", d->name);
    if (d->scope == DIF_SCOPE_GLOBAL && is_builtin_name(d->name))
        dcc_error(g->cc, d->line, "D_DECL_IDRED", "identifier redeclared: %s", d->name);
    if (d->type.kind == DT_NONE && !d->type.ptr)
        dcc_error(g->cc, d->line, "D_DECL_VOIDOBJ", "cannot have void object: %s", d->name);
    if (d->type.kind == DT_FLOAT && d->scope == DIF_SCOPE_SELF)
        dcc_error(g->cc, d->line, "D_UNSUPPORTED", "floating-point variables are not "
                  "supported in this D subset: %s", d->name);
    /* a float or double variable may be declared (it lives zeroed in D memory); reading or
     * writing its value is D_UNSUPPORTED (obj_rvalue, store_obj) */
    int mem = d->isarr || d->type.kind == DT_SOU || d->type.kind == DT_FLOAT;
    uint64_t size = (uint64_t)dcc_type_size(g->cc, d->type) * (d->isarr ? d->nelem : 1);
    if (mem && d->scope == DIF_SCOPE_SELF)
        dcc_error(g->cc, d->line, "D_UNSUPPORTED", "self-> variables of struct, union and "
                  "array types are not supported: %s", d->name);
    if (mem && d->type.kind == DT_SOU && !dcc_type_size(g->cc, d->type))
        dcc_error(g->cc, d->line, "D_DECL_INCOMPLETE", "incomplete struct/union/enum: %s",
                  d->name);
    if (mem && d->type.kind == DIF_TYPE_STR)
        dcc_error(g->cc, d->line, "D_UNSUPPORTED", "declared arrays of strings are not "
                  "supported: %s", d->name);
    if (mem && size > DIF_MEMVAR_MAX)
        dcc_error(g->cc, d->line, "D_DECL_ARRBIG", "array dimension too big");
    struct sym *s = sym_find(g, d->name, d->scope);
    if (!s)
        s = sym_new(g, d->name, d->scope, d->line);
    s->type = d->type;
    s->mem = (uint8_t)mem;
    s->isarr = d->isarr;
    s->nelem = d->nelem;
    s->defined = 1;
}

/* xlator_check: a translator's member expressions, compiled (and dropped) where it is
 * declared with its parameter standing for a value of the input type, as libdtrace cooks
 * them: unknown members and types are reported there, and D_XLATE_INCOMPAT. */
static void xlator_check(struct cg *g, const struct dxlator *xl, int line)
{
    struct dnode zero = { .kind = N_INT, .line = line, .type = T_INT32 };
    struct dnode cast = { .kind = N_CAST, .line = line, .type = xl->src, .a = &zero };
    struct dnode deref = { .kind = N_DEREF, .line = line, .a = &cast };
    struct dnode str = { .kind = N_STR, .line = line, .s = "" };
    struct dnode *arg = &cast;
    if (xl->src.kind == DIF_TYPE_STR && !xl->src.ptr) {
        arg = &str;
    } else if (xl->src.kind == DT_SOU && !xl->src.ptr) {
        cast.type = dcc_ptr_to(xl->src);
        arg = &deref;
    }
    for (const struct dxmember *xm = xl->members; xm; xm = xm->next) {
        const struct dmember *m = dcc_member_find(dcc_sou(g->cc, xl->dst), xm->name);
        struct xbind b = { xl->pname, arg, xl->src, NULL, 0 };
        g->xb = &b;
        struct dtype t = type_of(g, xm->expr);
        g->xb = NULL;
        xlate_compat(g, xm, m, t, xm->expr);
    }
}

/* inline_check: an inline's definition, checked where it stands as libdtrace cooks it (its
 * expression is compiled again wherever the name is used): a name D already has is
 * D_DECL_IDRED, an expression of another kind than the declared type D_OP_INCOMPAT. */
static void inline_check(struct cg *g, struct dname *d)
{
    if (builtin_find(d->name) || is_subr(d->name) || is_action(d->name) ||
        sym_find(g, d->name, DIF_SCOPE_GLOBAL))
        dcc_error(g->cc, d->line, "D_DECL_IDRED", "identifier redefined: %s", d->name);
    struct dnode *e = d->expr->kind == N_CAST && d->type.kind != DIF_TYPE_STR &&
                      d->type.kind != DT_SOU ? d->expr->a : d->expr;
    struct dnode zeros[DIF_TUPMAX], strs[DIF_TUPMAX];
    struct xbind b[DIF_TUPMAX]; /* an inline array's parameters stand for values of their types */
    for (unsigned k = 0; k < d->nparams; k++) {
        zeros[k] = (struct dnode){ .kind = N_CAST, .line = d->line, .type = d->ptypes[k],
                                   .a = &strs[k] };
        strs[k] = (struct dnode){ .kind = N_INT, .line = d->line, .type = T_INT32 };
        if (d->ptypes[k].kind == DIF_TYPE_STR)
            zeros[k] = (struct dnode){ .kind = N_STR, .line = d->line, .s = "" };
        b[k] = (struct xbind){ d->pnames[k], &zeros[k], d->ptypes[k], k ? &b[k - 1] : NULL,
                               k != 0 };
    }
    if (d->nparams)
        g->xb = &b[d->nparams - 1];
    struct dtype t;
    if (e->kind == N_XLATE && !e->type.ptr) { /* a struct inline: a translation */
        xlator_find(g, e->type, e->a);
        t = e->type;
    } else {
        t = type_of(g, e);
    }
    g->xb = NULL;
    int str = d->type.kind == DIF_TYPE_STR && !d->type.ptr;
    int ok = str ? t.kind == DIF_TYPE_STR && !t.ptr
           : d->type.kind == DT_SOU && !d->type.ptr ? t.kind == DT_SOU && !t.ptr && t.sou == d->type.sou
           : t.kind == DIF_TYPE_INT;
    if (!ok)
        dcc_error(g->cc, d->line, "D_OP_INCOMPAT", "inline %s definition uses incompatible "
                  "types", d->name);
}

static struct dcc *cc_of(struct cg *g) { return g->cc; }

static void clause_pred(struct cg *g, struct dclause *c, struct dif_clause *dc);
static void clause_stmts(struct cg *g, struct dclause *c, struct dif_clause *dc);

static void clause(struct cg *g, struct dclause *c)
{
    if (g->nclauses == CAP_CLAUSES)
        dcc_error(g->cc, c->line, "D_DIF_SIZE", "too many clauses");
    unsigned ci = g->nclauses++;
    struct dif_clause *dc = &g->clauses[ci];
    g->keep_scratch = 0;
    g->cur_desc = c->ndesc ? c->desc[0] : "";
    g->cur_clause = ci;
    for (unsigned k = 0; k < c->ndesc; k++)
        match_desc(g, c->desc[k], ci, c->line);
    /* As libdtrace's dt_cook_clause: the statements first, then the predicate (so that
     * `/x == 0/ { x++; }` knows x); if the statements name something undefined, the
     * predicate first (it may define it), then the statements again. */
    if (!c->pred) {
        clause_stmts(g, c, dc);
        return;
    }
    jmp_buf outer;
    unsigned ninsns = g->ninsns, nacts = g->nacts;
    memcpy(outer, g->cc->fail, sizeof(outer));
    if (setjmp(g->cc->fail) == 0) {
        clause_stmts(g, c, dc);
        memcpy(g->cc->fail, outer, sizeof(outer));
        clause_pred(g, c, dc);
        return;
    }
    memcpy(g->cc->fail, outer, sizeof(outer));
    const char *tag = g->cc->out->tag;
    if (strcmp(tag, "D_IDENT_UNDEF") != 0 && strcmp(tag, "D_VAR_UNDEF") != 0)
        longjmp(g->cc->fail, 1);
    g->ninsns = ninsns; /* the statements' code and actions, compiled again below */
    g->nacts = nacts;
    g->depth = 0;
    g->xb = NULL;
    dc->dc_recsize = 0;
    dc->dc_flags = 0;
    clause_pred(g, c, dc);
    clause_stmts(g, c, dc);
}

static void clause_pred(struct cg *g, struct dclause *c, struct dif_clause *dc)
{
    if (c->pred && c->pred->kind == N_BIN && c->pred->op >= T_LT && c->pred->op <= T_NE) {
        /* a comparison: branch on it directly (the common, cheap, failing-predicate path) */
        struct dif_prog p = prog_begin(g);
        struct dtype ta, tb;
        unsigned ra = expr(g, c->pred->a, &ta), rb = expr(g, c->pred->b, &tb);
        if (ta.kind == DT_NONE || tb.kind == DT_NONE)
            dcc_error(g->cc, c->pred->line, "D_OP_VOID", "operator %s requires operands with "
                      "values", dcc_tokname(c->pred->op));
        unsigned br = compare(g, c->pred, ra, ta, rb, tb);
        unsigned b = emit(g, 0);
        emit(g, DIF_INSTR(DIF_RET, 0, 0, 0));
        patch(g, b, br);
        unsigned r = reg_alloc(g);
        emit(g, DIF_INSTR_IDX(DIF_SETX, intern_int(g, 1), r));
        dc->dc_pred = prog_end(g, p, r);
    } else if (c->pred) {
        struct dif_prog p = prog_begin(g);
        struct dtype t;
        unsigned r = expr(g, c->pred, &t);
        struct sym *ms = mem_sym(g, c->pred); /* an array or struct variable is no scalar */
        if (t.kind != DIF_TYPE_INT || (ms && (c->pred->kind != N_INDEX || !ms->isarr)))
            dcc_error(g->cc, c->pred->line, "D_PRED_SCALAR", "predicate result must be of "
                      "scalar type");
        dc->dc_pred = prog_end(g, p, r);
    }
}

static void clause_stmts(struct cg *g, struct dclause *c, struct dif_clause *dc)
{
    dc->dc_act = g->nacts;
    /* The order rules of libdtrace's dt_stmt_append, checked as each statement is added, so
     * that the first statement breaking one is the one reported, with libdtrace's tag. An
     * expression statement other than an assignment counts as data-recording, as it does
     * there. */
    static const char *const destructive[] = { "stop", "raise", "panic", "chill",
        "breakpoint", "copyout", "copyoutstr", "system" };
    int print = 0, spec = 0, commit = 0, datarec = 0;
    for (struct dnode *s = c->stmts; s; s = s->next) {
        int destr = 0;
        for (size_t k = 0; s->kind == N_CALL && k < sizeof(destructive) / sizeof(destructive[0]);
             k++)
            destr |= !strcmp(s->s, destructive[k]);
        if (destr && spec)
            dcc_error(cc_of(g), s->line, "D_ACT_SPEC", "destructive actions may not follow "
                      "speculate( )");
        if (destr && commit)
            dcc_error(cc_of(g), s->line, "D_DREC_COMM", "data-recording actions may not "
                      "follow commit( )");
        statement(g, s, &dc->dc_recsize);
        int kind = g->acts[g->nacts - 1].da_kind;
        if (kind == DIF_ACT_AGGINCR)
            kind = DIF_ACT_AGG;
        /* commit( ) and discard( ) record nothing: a clause of them and assignments stores
         * no data (DTrace sizes its record 0), so its firings print no line */
        print |= kind != DIF_ACT_EXPR && kind != DIF_ACT_AGG && kind != DIF_ACT_DISCARD &&
                 kind != DIF_ACT_COMMIT;
        if (kind == DIF_ACT_COMMIT) {
            if (commit)
                dcc_error(cc_of(g), s->line, "D_COMM_COMM", "commit( ) may not follow "
                          "commit( )");
            if (datarec)
                dcc_error(cc_of(g), s->line, "D_COMM_DREC", "commit( ) may not follow "
                          "data-recording action(s)");
            commit = 1;
        } else if (kind == DIF_ACT_SPECULATE) {
            if (spec)
                dcc_error(cc_of(g), s->line, "D_SPEC_SPEC", "speculate( ) may not follow "
                          "speculate( )");
            if (commit)
                dcc_error(cc_of(g), s->line, "D_SPEC_COMM", "speculate( ) may not follow "
                          "commit( )");
            if (datarec)
                dcc_error(cc_of(g), s->line, "D_SPEC_DREC", "speculate( ) may not follow "
                          "data-recording action(s)");
            spec = 1;
        } else if (kind == DIF_ACT_AGG) {
            if (commit)
                dcc_error(cc_of(g), s->line, "D_AGG_COMM", "aggregating actions may not "
                          "follow commit( )");
            if (spec)
                dcc_error(cc_of(g), s->line, "D_AGG_SPEC", "aggregating actions may not "
                          "follow speculate( )");
            datarec = 1;
        } else {
            if (spec && kind == DIF_ACT_EXIT)
                dcc_error(cc_of(g), s->line, "D_EXIT_SPEC", "exit( ) may not follow "
                          "speculate( )");
            if (kind == DIF_ACT_DISCARD ||
                (kind == DIF_ACT_EXPR && (s->kind == N_ASSIGN || s->kind == N_PREINC ||
                                          s->kind == N_PREDEC || s->kind == N_POSTINC ||
                                          s->kind == N_POSTDEC)))
                continue; /* assignments record nothing: libdtrace gives them type void */
            if (commit)
                dcc_error(cc_of(g), s->line, "D_DREC_COMM", "data-recording actions may not "
                          "follow commit( )");
            if (!spec)
                datarec = 1;
        }
    }
    if (spec)
        dc->dc_flags |= DIF_CLF_SPEC;
    if (g->keep_scratch)
        dc->dc_flags |= DIF_CLF_SCRATCH;
    dc->dc_nacts = g->nacts - dc->dc_act;
    /* as DTrace's kernel (dtrace_ecb_resize): a clause whose statements record nothing (only
     * assignments and aggregations) has no record, so it neither prints a line nor takes
     * buffer space; an empty clause keeps its probe line */
    if (!print && dc->dc_nacts > 0)
        dc->dc_flags |= DIF_CLF_NOREC;
}

static void *place(struct dcc *cc, size_t *off, const void *src, size_t n)
{
    uint8_t *base = cc->out->obj;
    size_t o = (*off + 7u) & ~(size_t)7u;
    if (n)
        memcpy(base + o, src, n);
    *off = o + n;
    return base + o;
}

void dcc_codegen(struct dcc *cc)
{
    struct cg *g = dcc_alloc(cc, sizeof(*g));
    g->cc = cc;
    g->insns = dcc_alloc(cc, CAP_INSNS * 4);
    g->ints = dcc_alloc(cc, CAP_INTS * 8);
    g->strs = dcc_alloc(cc, CAP_STRS);
    g->acts = dcc_alloc(cc, CAP_ACTS * sizeof(struct dif_act));
    g->clauses = dcc_alloc(cc, CAP_CLAUSES * sizeof(struct dif_clause));
    g->probes = dcc_alloc(cc, CAP_PROBES * sizeof(struct dif_probe));
    g->ecbs = dcc_alloc(cc, CAP_ECBS_FIRST * sizeof(struct dif_ecb));
    g->capecbs = CAP_ECBS_FIRST;
    g->strlen = 1; /* offset 0 is "" */
    if (!cc->clauses && !cc->inlines && !cc->xlators)
        dcc_error(cc, cc->line, "D_EMPTY", "empty D program translation unit");
    struct dname *in = cc->inlines; /* declarations and inlines in program order */
    for (struct ddecl *d = cc->decls; d; d = d->next) {
        for (; in && in->seq < d->seq; in = in->inl_next)
            inline_check(g, in);
        declare(g, d);
    }
    for (; in; in = in->inl_next)
        inline_check(g, in);
    for (const struct dxlator *x = cc->xlators; x; x = x->next)
        xlator_check(g, x, x->members ? x->members->line : cc->line);
    for (struct dclause *c = cc->clauses; c; c = c->next)
        clause(g, c);
    for (unsigned k = 0; k < cc->npragma_ids; k++) { /* as dt_pragma_apply left them */
        const char *id = cc->pragma_ids[k];
        struct sym *s = sym_find(g, id, DIF_SCOPE_GLOBAL);
        if (!(s && s->defined) && !dcc_name_find(cc, id, DNAME_INLINE) && !builtin_find(id) &&
            !is_subr(id) && !is_action(id) && !is_aggsym(g, id))
            dcc_error(cc, cc->pragma_lines[k], "D_PRAGMA_UNUSED", "unused #pragma D "
                      "attributes for identifier %s", id);
    }
    if (g->necbs == 0)
        dcc_error(cc, cc->line, "D_SYNTAX", "program contains no probe clauses");

    /* symbols and aggregations become tables; then lay the object out */
    struct dif_var *vars = dcc_alloc(cc, (g->nsyms + 1) * sizeof(*vars));
    for (unsigned k = 0; k < g->nsyms; k++) {
        struct sym *s = &g->syms[k];
        vars[k].dv_name = intern_str(g, s->name);
        vars[k].dv_scope = s->scope;
        vars[k].dv_type = s->mem ? DIF_TYPE_MEM
                          : s->type.kind == DIF_TYPE_STR ? DIF_TYPE_STR : DIF_TYPE_INT;
        vars[k].dv_size = s->type.kind == DIF_TYPE_INT && s->type.size && !s->mem ? s->type.size : 8;
        vars[k].dv_signed = s->mem ? 0 : s->type.sign;
        char vmkeys[DIF_TUPMAX + 1];
        keys_vm(g, s->keys, vmkeys);
        vars[k].dv_keys = s->scope == DIF_SCOPE_ARRAY ? intern_str(g, vmkeys) : 0;
        if (s->mem && s->scope == DIF_SCOPE_ARRAY) { /* words of its value: dif_var_memsize */
            uint32_t words = ((uint32_t)dcc_type_size(g->cc, s->type) + 7u) / 8u;
            vars[k].dv_size = (uint8_t)words;
            vars[k].dv_signed = (uint8_t)(words >> 8);
        } else if (s->mem)
            vars[k].dv_keys = (uint32_t)dcc_type_size(g->cc, s->type) * (s->isarr ? s->nelem : 1);
    }
    struct dif_agg *aggs = dcc_alloc(cc, (g->naggs + 1) * sizeof(*aggs));
    for (unsigned k = 0; k < g->naggs; k++) {
        aggs[k].dg_name = intern_str(g, g->aggs[k].name);
        aggs[k].dg_func = (uint16_t)g->aggs[k].func;
        aggs[k].dg_nkeys = (uint16_t)strlen(g->aggs[k].keys);
        aggs[k].dg_keys = intern_str(g, g->aggs[k].keys);
        memcpy(aggs[k].dg_param, g->aggs[k].param, sizeof(aggs[k].dg_param));
    }
    size_t total = sizeof(struct dif_hdr) + 8 * 10 + g->nints * 8 + g->strlen +
                   g->ninsns * 4 + g->nsyms * sizeof(*vars) + g->nacts * sizeof(struct dif_act) +
                   g->nclauses * sizeof(struct dif_clause) +
                   g->nprobes * sizeof(struct dif_probe) + g->necbs * sizeof(struct dif_ecb) +
                   g->naggs * sizeof(*aggs);
    cc->out->obj = dcc_alloc(cc, total);
    struct dif_hdr h = { .dh_magic = DIF_MAGIC, .dh_version = DIF_VERSION,
                         .dh_strsize = cc->strsize };
    size_t off = sizeof(h);
    uint8_t *base = cc->out->obj;
#define PLACE(cnt, field, src, sz)                                                  \
    do {                                                                            \
        h.dh_n##field = (cnt);                                                      \
        h.dh_##field = (uint32_t)((uint8_t *)place(cc, &off, (src), (size_t)(cnt) * (sz)) - base); \
    } while (0)
    PLACE(g->nints, ints, g->ints, 8);
    h.dh_strlen = g->strlen;
    h.dh_strs = (uint32_t)((uint8_t *)place(cc, &off, g->strs, g->strlen) - base);
    PLACE(g->ninsns, insns, g->insns, 4);
    PLACE(g->nsyms, vars, vars, sizeof(*vars));
    PLACE(g->nacts, acts, g->acts, sizeof(struct dif_act));
    PLACE(g->nclauses, clauses, g->clauses, sizeof(struct dif_clause));
    PLACE(g->nprobes, probes, g->probes, sizeof(struct dif_probe));
    PLACE(g->necbs, ecbs, g->ecbs, sizeof(struct dif_ecb));
    PLACE(g->naggs, aggs, aggs, sizeof(*aggs));
#undef PLACE
    h.dh_size = (uint32_t)((off + 7u) & ~(size_t)7u);
    memcpy(base, &h, sizeof(h));
    cc->out->objlen = h.dh_size;
    cc->out->nprobes = g->nprobes;
}

int dcc_compile(const struct dcc_in *in, void *arena, size_t arena_len, struct dcc_out *out)
{
    struct dcc *cc;
    struct d_arena a = d_arena_init(arena, arena_len);
    memset(out, 0, sizeof(*out));
    cc = d_alloc(&a, sizeof(*cc));
    if (!cc) {
        d_strlcpy(out->err, "out of compiler memory", sizeof(out->err));
        return -1;
    }
    cc->arena = a;
    cc->in = in;
    cc->out = out;
    cc->src = cc->p = in->src;
    cc->end = in->src + in->len;
    cc->line = 1;
    cc->strsize = in->strsize ? in->strsize : 256;
    cc->defaultargs = in->macros && in->macros->defaultargs;
    cc->argref = in->macros && in->macros->argref;
    if (in->stack_room) {
        /* The checks sit where the parser and the code generator recurse; what runs below
         * the deepest one (an expression's own frame, its helpers, an error's formatting)
         * takes at most DCC_STACK_BELOW bytes more (the largest frame, cg.c's expr, is 704
         * bytes on AArch64 -Os; the figure was measured on qemu-virt-a53, test_dtrace.sh). */
        enum { DCC_STACK_BELOW = 4096 };
        uintptr_t top = (uintptr_t)__builtin_frame_address(0);
        cc->stack_floor = top - (in->stack_room > DCC_STACK_BELOW ? in->stack_room - DCC_STACK_BELOW : 0);
    }
    if (setjmp(cc->fail))
        return -1;
    dcc_parse(cc);
    dcc_args_check(cc);
    dcc_codegen(cc);
    return 0;
}
