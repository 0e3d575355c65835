// SPDX-License-Identifier: MIT
// D variables: globals, self-> (thread-local) and this-> (clause-local) scalars, associative
// arrays and the keys pushed for them (a struct key as its bytes), their loads and stores,
// the built-in variables, and the declarations that give a variable its type before use.
#include "cg_impl.h"

struct sym *cg_sym_find(struct cg *g, const char *name, int scope)
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

struct sym *cg_sym_new(struct cg *g, const char *name, int scope, int line)
{
    if (g->nsyms == DIF_MAXVARS)
        dcc_error(g->cc, line, "D_DIF_SIZE", "too many variables");
    struct sym *s = &g->syms[g->nsyms++];
    s->name = name;
    s->scope = (uint8_t)scope;
    return s;
}

unsigned cg_sym_id(struct cg *g, struct sym *s) { return (unsigned)(s - g->syms); }

const char *cg_scope_prefix(int scope)
{
    return scope == DIF_SCOPE_SELF ? "self->" : scope == DIF_SCOPE_THIS ? "this->" : "";
}
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
    { "$pid", DIF_B_CONSUMER, T_INT32 }, /* lex.c: $pid in a board's compile */
};

const struct builtin *cg_builtin_find(const char *name)
{
    for (size_t k = 0; k < sizeof(builtins) / sizeof(builtins[0]); k++)
        if (strcmp(builtins[k].name, name) == 0)
            return &builtins[k];
    return NULL;
}

/* cg_is_builtin_name: a built-in variable or constant of D (read-only, not redeclarable). */
int cg_is_builtin_name(const char *name)
{
    const char *tn;
    return cg_builtin_find(name) || dcc_builtin_const(name) || dcc_procinfo(name, &tn);
}

/* key_chunks: the tuple entries key type k takes. A struct or union key (DCC_KEY_SOU + its
 * type's index in the key signature) goes on the tuple stack as its bytes, 8 to an integer
 * key (the last one zero-padded): equal objects make equal keys, as DTrace compares them by
 * value. */
static unsigned key_chunks(struct cg *g, char k)
{
    if ((unsigned char)k < DCC_KEY_SOU)
        return 1;
    struct dtype t = { .kind = DT_SOU, .sou = (uint16_t)((unsigned char)k - DCC_KEY_SOU) };
    return (dcc_type_size(g->cc, t) + 7u) / 8u;
}

/* cg_keys_vm: the VM's key types for a key signature (struct keys as their integer chunks) */
void cg_keys_vm(struct cg *g, const char *sig, char *out)
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
    unsigned rv = cg_reg_alloc(g), rt = cg_reg_alloc(g), rb = cg_reg_alloc(g);
    for (unsigned off = 0; off < size; off += 8) {
        for (unsigned b = 0; b < 8 && off + b < size; b++) { /* bytes: any alignment */
            unsigned rd = b ? rb : rv;
            if (off + b) {
                cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, off + b), rt));
                cg_emit(g, DIF_INSTR(DIF_ADD, ra, rt, rt));
                cg_emit(g, DIF_INSTR(DIF_LDUB, rt, 0, rd));
            } else {
                cg_emit(g, DIF_INSTR(DIF_LDUB, ra, 0, rd));
            }
            if (b) { /* rt, the address, is free again: it holds the shift */
                cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, 8u * b), rt));
                cg_emit(g, DIF_INSTR(DIF_SLL, rb, rt, rb));
                cg_emit(g, DIF_INSTR(DIF_OR, rv, rb, rv));
            }
        }
        cg_emit(g, DIF_INSTR(DIF_PUSHT, rv, DIF_TYPE_INT, 0));
    }
    cg_reg_free(g, rb);
    cg_reg_free(g, rt);
    cg_reg_free(g, rv);
}

/* thread_key: a register holding pid << 32 | tid, the thread as self-> scalars know it (the
 * VM's dvm_thread_key): a tid is its process's own, so tid 1 of two processes are two
 * threads */
static unsigned thread_key(struct cg *g)
{
    unsigned r = cg_reg_alloc(g), t = cg_reg_alloc(g), sh = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, 32), sh));
    cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_PID, r));
    cg_emit(g, DIF_INSTR(DIF_SLL, r, sh, r));
    cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_TID, t));
    cg_emit(g, DIF_INSTR(DIF_SLL, t, sh, t)); /* the tid's 32 bits, as the VM's key takes it */
    cg_emit(g, DIF_INSTR(DIF_SRL, t, sh, t));
    cg_emit(g, DIF_INSTR(DIF_OR, r, t, r));
    cg_reg_free(g, sh);
    cg_reg_free(g, t);
    return r;
}

/* push_keys: evaluates a key list and pushes it on the tuple stack; its signature in desc
 * (tls: self->a[k], the thread's id first). */
static void push_keys(struct cg *g, struct dnode *keys, char *desc, int tls)
{
    unsigned regs[DIF_TUPMAX], n = 0, chunks = tls;
    struct dtype types[DIF_TUPMAX];
    if (tls) { /* self->a[k]: a global array whose first key is the thread */
        regs[0] = thread_key(g);
        types[0] = T_INT64;
        desc[n++] = 'l';
    }
    for (struct dnode *k = keys; k; k = k->next) {
        if (n == DIF_TUPMAX)
            dcc_error(g->cc, k->line, "D_ARR_BADREF", "too many keys");
        if (k->kind == N_AGG && cg_is_aggsym(g, k->s))
            dcc_error(g->cc, k->line, "D_KEY_TYPE", "key #%u is an aggregation", n + 1);
        regs[n] = cg_expr(g, k, &types[n]);
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
            cg_emit(g, DIF_INSTR(DIF_PUSHT, regs[k], types[k].kind, 0));
    }
    for (unsigned k = n; k-- > 0;)
        cg_reg_free(g, regs[k]);
}

static const char *key_name(struct cg *g, char k)
{
    if ((unsigned char)k < DCC_KEY_SOU)
        return k == 's' ? "string" : "integer";
    struct dsou *s = dcc_sou(g->cc, (struct dtype){ .kind = DT_SOU,
                                                     .sou = (uint16_t)((unsigned char)k - DCC_KEY_SOU) });
    return s->tag ? s->tag : dcc_sou_kind(s);
}

/* self_array_name: the name parse.c gives self->name[...] */
static const char *self_array_name(struct cg *g, const char *name)
{
    size_t len = strlen(name);
    char *s = dcc_alloc(g->cc, len + 7);
    memcpy(s, "self->", 6);
    memcpy(s + 6, name, len + 1);
    return s;
}

/* self_shape_check: a declared self-> variable is used as what it was declared (self int
 * a[int] as self->a[k], self int x as self->x), as libdtrace's D_IDENT_BADREF; the two are
 * separate symbols (parse.c names the array "self->a") */
static void self_shape_check(struct cg *g, const struct dnode *n)
{
    int arr = n->kind == N_INDEX && n->op == 1;
    if (!arr && n->kind != N_SELF)
        return;
    const char *name = arr ? n->s + 6 : n->s;
    struct sym *o = NULL;
    for (unsigned k = 0; k < g->nsyms && !arr && !o; k++) /* no copy of the name: no arena */
        if (g->syms[k].scope == DIF_SCOPE_ARRAY && strncmp(g->syms[k].name, "self->", 6) == 0 &&
            strcmp(g->syms[k].name + 6, name) == 0)
            o = &g->syms[k];
    if (arr)
        o = cg_sym_find(g, name, DIF_SCOPE_SELF);
    if (o && o->decl)
        dcc_error(g->cc, n->line, "D_IDENT_BADREF", "%s 'self->%s' may not be referenced as "
                  "%s", arr ? "scalar" : "array", name, arr ? "array" : "scalar");
}

/* lvalue: resolves a variable reference. For arrays, pushes the keys first. If `def` is set,
 * an undefined variable is created with type *t. Returns the symbol. */
struct sym *cg_lvalue(struct cg *g, struct dnode *n, const struct dtype *def)
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
    if (scope == DIF_SCOPE_GLOBAL && cg_is_builtin_name(n->s))
        dcc_error(g->cc, n->line, "D_OP_WRITE", "%s is a built-in variable: operators that "
                  "assign can only be applied to a writable variable", n->s);
    if (scope == DIF_SCOPE_ARRAY)
        push_keys(g, n->b, keys, n->op == 1);
    self_shape_check(g, n);
    struct sym *s = cg_sym_find(g, n->s, scope);
    if (s && s->defined && s->scope != scope)
        dcc_error(g->cc, n->line, "D_IDENT_BADREF", "%s '%s' may not be referenced as %s",
                  s->scope == DIF_SCOPE_ARRAY ? "array" : "scalar", n->s,
                  s->scope == DIF_SCOPE_ARRAY ? "scalar" : "array");
    if (!s || !s->defined) {
        if (!def)
            dcc_error(g->cc, n->line, "D_IDENT_UNDEF", "failed to resolve %s%s: Unknown variable name",
                      cg_scope_prefix(scope), n->s);
        if (!s)
            s = cg_sym_new(g, n->s, scope, n->line);
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

/* cg_load_var: loads variable n; def (may be NULL) defines it if it is new (x++, x += 1). */
unsigned cg_load_var(struct cg *g, struct dnode *n, struct dtype *t, const struct dtype *def)
{
    struct sym *s = cg_lvalue(g, n, def);
    unsigned r = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR_IDX(ld_op[s->scope], cg_sym_id(g, s), r));
    *t = s->type;
    return r;
}

/* cg_store_var: stores r (of type t) into the variable n; keys are evaluated again. */
void cg_store_var(struct cg *g, struct dnode *n, unsigned r, struct dtype t)
{
    struct sym *s = cg_lvalue(g, n, &t);
    if (s->type.kind != t.kind)
        dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "operands have incompatible types: %s%s is %s",
                  cg_scope_prefix(s->scope), n->s,
                  s->type.kind == DIF_TYPE_STR ? "a string" : "an integer");
    /* as libdtrace's dt_cg_asgn_op: a variable whose type came from its first use keeps the
     * register's 64 bits whatever that type (DIF's registers and variables are 64-bit); one
     * declared narrower than 64 bits (uint16_t x;) holds its type's width, as C's assignment
     * and illumos's arithmetic/tst.compnarrowassign: x = 0xbeefcafe and x += 1 wrap at 16 */
    if (s->decl && t.kind == DIF_TYPE_INT && s->type.kind == DIF_TYPE_INT && !s->type.ptr &&
        s->type.size < 8)
        cg_convert(g, r, (struct dtype){ .kind = DIF_TYPE_INT, .size = 8 }, s->type);
    cg_emit(g, DIF_INSTR_IDX(st_op[s->scope], cg_sym_id(g, s), r));
}

/* cg_is_string_var: n names a variable already defined as a string. */
int cg_is_string_var(struct cg *g, const struct dnode *n)
{
    int scope = n->kind == N_IDENT ? DIF_SCOPE_GLOBAL : n->kind == N_INDEX ? DIF_SCOPE_ARRAY
              : n->kind == N_SELF ? DIF_SCOPE_SELF : n->kind == N_THIS ? DIF_SCOPE_THIS : -1;
    struct sym *s = scope < 0 ? NULL : cg_sym_find(g, n->s, scope);
    return s && s->defined && s->type.kind == DIF_TYPE_STR;
}

void cg_declare(struct cg *g, struct ddecl *d)
{
    if (d->assoc) { /* int a[int, string]: the array's key and value types */
        /* self int a[int]: each thread's own array, the global array that self->a[k] names
         * (parse.c's "self->a", the thread's id its hidden first key) */
        int tls = d->scope == DIF_SCOPE_SELF;
        const char *name = tls ? self_array_name(g, d->name) : d->name;
        if (tls && strlen(d->keys) + 1 > DIF_TUPMAX)
            dcc_error(g->cc, d->line, "D_ARR_BADREF", "too many keys (a self-> array's "
                      "thread is one of its %u): %s", DIF_TUPMAX, d->name);
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
        if (cg_sym_find(g, name, DIF_SCOPE_ARRAY) || (tls && cg_sym_find(g, d->name,
                                                                          DIF_SCOPE_SELF)))
            dcc_error(g->cc, d->line, "D_DECL_IDRED", "identifier redeclared: %s%s",
                      cg_scope_prefix(d->scope), d->name);
        struct sym *s = cg_sym_new(g, name, DIF_SCOPE_ARRAY, d->line);
        s->type = d->type;
        s->mem = (uint8_t)sou;
        if (tls)
            s->keys[0] = 'l'; /* the thread's id */
        memcpy(s->keys + tls, d->keys, sizeof(s->keys) - (size_t)tls);
        s->defined = 1;
        s->decl = 1;
        return;
    }
    if (cg_sym_find(g, d->name, d->scope) && d->scope == DIF_SCOPE_GLOBAL)
        dcc_error(g->cc, d->line, "D_DECL_IDRED", "identifier redeclared: %s", d->name);
    if (d->scope == DIF_SCOPE_GLOBAL && cg_is_builtin_name(d->name))
        dcc_error(g->cc, d->line, "D_DECL_IDRED", "identifier redeclared: %s", d->name);
    if (d->type.kind == DT_NONE && !d->type.ptr)
        dcc_error(g->cc, d->line, "D_DECL_VOIDOBJ", "cannot have void object: %s", d->name);
    if (d->type.kind == DT_FLOAT && d->scope == DIF_SCOPE_SELF)
        dcc_error(g->cc, d->line, "D_UNSUPPORTED", "floating-point variables are not "
                  "supported in this D subset: %s", d->name);
    /* a float or double variable may be declared (it lives zeroed in D memory); reading or
     * writing its value is D_UNSUPPORTED (obj_rvalue, cg_store_obj) */
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
    struct sym *s = cg_sym_find(g, d->name, d->scope);
    if (!s)
        s = cg_sym_new(g, d->name, d->scope, d->line);
    s->type = d->type;
    s->mem = (uint8_t)mem;
    s->isarr = d->isarr;
    s->nelem = d->nelem;
    s->defined = 1;
    s->decl = 1;
}
