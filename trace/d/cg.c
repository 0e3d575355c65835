// SPDX-License-Identifier: MIT
// The D code generator's driver and the object it builds: the tables (instructions, integer
// and string constants, registers) every construct's file appends to, a program's start and
// end, and dcc_codegen, which compiles declarations, inlines, translators and clauses in
// program order and lays the DIF object out (d/dif.h). dcc_compile runs the whole compiler.
// The constructs are one file each (cg_impl.h lists them).
#include "cg_impl.h"

unsigned cg_emit(struct cg *g, uint32_t ins)
{
    if (g->ninsns == CAP_INSNS || g->ninsns - g->start >= DIF_MAXPROG)
        dcc_error(g->cc, g->line, "D_DIF_SIZE", "program too large");
    g->insns[g->ninsns++] = ins;
    return g->ninsns - 1 - g->start;
}

static unsigned here(struct cg *g) { return g->ninsns - g->start; }

void cg_patch(struct cg *g, unsigned pc, unsigned op)
{
    g->insns[g->start + pc] = DIF_INSTR_BR(op, here(g));
}

unsigned cg_intern_int(struct cg *g, uint64_t v)
{
    for (unsigned k = 0; k < g->nints; k++)
        if (g->ints[k] == v)
            return k;
    if (g->nints == CAP_INTS)
        dcc_error(g->cc, g->line, "D_DIF_SIZE", "too many integer constants");
    g->ints[g->nints] = v;
    return g->nints++;
}

uint32_t cg_intern_str(struct cg *g, const char *s)
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

unsigned cg_reg_alloc(struct cg *g)
{
    for (unsigned r = 1; r < DIF_NREGS; r++)
        if (!(g->regs & (1u << r))) {
            g->regs |= (uint16_t)(1u << r);
            return r;
        }
    dcc_error(g->cc, g->line, "D_NOREG", "insufficient registers to generate code");
}

void cg_reg_free(struct cg *g, unsigned r) { g->regs &= (uint16_t)~(1u << r); }

unsigned cg_count_list(struct dnode *n)
{
    unsigned k = 0;
    for (; n; n = n->next)
        k++;
    return k;
}

struct dif_prog cg_prog_begin(struct cg *g)
{
    g->start = g->ninsns;
    g->regs = 0;
    g->nrec = 0;
    g->rec[0] = 0;
    return (struct dif_prog){ g->ninsns, 0 };
}

struct dif_prog cg_prog_end(struct cg *g, struct dif_prog p, unsigned r)
{
    cg_emit(g, DIF_INSTR(DIF_RET, 0, 0, r));
    p.dp_len = g->ninsns - p.dp_start;
    return p;
}

/* cg_type_of: the type of an expression, found by compiling it and dropping the code (used where
 * libdtrace checks a prototype before it generates code). */
struct dtype cg_type_of(struct cg *g, struct dnode *n)
{
    unsigned ninsns = g->ninsns;
    uint16_t regs = g->regs;
    struct dtype t;
    cg_expr(g, n, &t);
    g->ninsns = ninsns;
    g->regs = regs;
    return t;
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

/* cg_new: the generator's state and tables, in the compiler's arena. */
static struct cg *cg_new(struct dcc *cc)
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
    return g;
}

/* gen_program: the translation unit's code: declarations and inlines in program order, the
 * translators, the clauses; then the identifiers a #pragma named and nothing defined, and a
 * program with no clause, refused. */
static void gen_program(struct cg *g)
{
    struct dcc *cc = g->cc;
    if (!cc->clauses && !cc->inlines && !cc->xlators)
        dcc_error(cc, cc->line, "D_EMPTY", "empty D program translation unit");
    struct dname *in = cc->inlines; /* declarations and inlines in program order */
    for (struct ddecl *d = cc->decls; d; d = d->next) {
        for (; in && in->seq < d->seq; in = in->inl_next)
            cg_inline_check(g, in);
        cg_declare(g, d);
    }
    for (; in; in = in->inl_next)
        cg_inline_check(g, in);
    for (const struct dxlator *x = cc->xlators; x; x = x->next)
        cg_xlator_check(g, x, x->members ? x->members->line : cc->line);
    for (struct dclause *c = cc->clauses; c; c = c->next)
        cg_clause(g, c);
    for (unsigned k = 0; k < cc->npragma_ids; k++) { /* as dt_pragma_apply left them */
        const char *id = cc->pragma_ids[k];
        struct sym *s = cg_sym_find(g, id, DIF_SCOPE_GLOBAL);
        if (!(s && s->defined) && !dcc_name_find(cc, id, DNAME_INLINE) && !cg_builtin_find(id) &&
            !cg_is_subr(id) && !cg_is_action(id) && !cg_is_aggsym(g, id))
            dcc_error(cc, cc->pragma_lines[k], "D_PRAGMA_UNUSED", "unused #pragma D "
                      "attributes for identifier %s", id);
    }
    if (g->necbs == 0)
        dcc_error(cc, cc->line, "D_SYNTAX", "program contains no probe clauses");
}

/* var_table: the object's variables, from the symbols: name, scope, the VM's type and size,
 * keys; a memory variable's size in words (an array's) or bytes. */
static struct dif_var *var_table(struct cg *g)
{
    struct dif_var *vars = dcc_alloc(g->cc, (g->nsyms + 1) * sizeof(*vars));
    for (unsigned k = 0; k < g->nsyms; k++) {
        struct sym *s = &g->syms[k];
        vars[k].dv_name = cg_intern_str(g, s->name);
        vars[k].dv_scope = s->scope;
        vars[k].dv_type = s->mem ? DIF_TYPE_MEM
                          : s->type.kind == DIF_TYPE_STR ? DIF_TYPE_STR : DIF_TYPE_INT;
        vars[k].dv_size = s->type.kind == DIF_TYPE_INT && s->type.size && !s->mem ? s->type.size : 8;
        vars[k].dv_signed = s->mem ? 0 : s->type.sign;
        char vmkeys[DIF_TUPMAX + 1];
        cg_keys_vm(g, s->keys, vmkeys);
        vars[k].dv_keys = s->scope == DIF_SCOPE_ARRAY ? cg_intern_str(g, vmkeys) : 0;
        if (s->mem && s->scope == DIF_SCOPE_ARRAY) { /* words of its value: dif_var_memsize */
            uint32_t words = ((uint32_t)dcc_type_size(g->cc, s->type) + 7u) / 8u;
            vars[k].dv_size = (uint8_t)words;
            vars[k].dv_signed = (uint8_t)(words >> 8);
        } else if (s->mem)
            vars[k].dv_keys = (uint32_t)dcc_type_size(g->cc, s->type) * (s->isarr ? s->nelem : 1);
    }
    return vars;
}

/* agg_table: the object's aggregations: name, function, keys, parameters. */
static struct dif_agg *agg_table(struct cg *g)
{
    struct dif_agg *aggs = dcc_alloc(g->cc, (g->naggs + 1) * sizeof(*aggs));
    for (unsigned k = 0; k < g->naggs; k++) {
        aggs[k].dg_name = cg_intern_str(g, g->aggs[k].name);
        aggs[k].dg_func = (uint16_t)g->aggs[k].func;
        aggs[k].dg_nkeys = (uint16_t)strlen(g->aggs[k].keys);
        aggs[k].dg_keys = cg_intern_str(g, g->aggs[k].keys);
        memcpy(aggs[k].dg_param, g->aggs[k].param, sizeof(aggs[k].dg_param));
    }
    return aggs;
}

/* lay_out: the object in cc->out: its header, then each table 8-byte aligned (the header
 * says where and how many). */
static void lay_out(struct cg *g, const struct dif_var *vars, const struct dif_agg *aggs)
{
    struct dcc *cc = g->cc;
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

void dcc_codegen(struct dcc *cc)
{
    struct cg *g = cg_new(cc);
    gen_program(g);
    /* symbols and aggregations become tables; then lay the object out */
    struct dif_var *vars = var_table(g);
    struct dif_agg *aggs = agg_table(g);
    lay_out(g, vars, aggs);
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
         * takes at most DCC_STACK_BELOW bytes more (the largest frame an expression recurses
         * through, cg_inline_array's, is 608 bytes on AArch64 -Os, gcc -fstack-usage; the
         * room was measured on qemu-virt-a53, test_dtrace.sh). */
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
