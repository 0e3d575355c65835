// SPDX-License-Identifier: MIT
// Statements: each compiles into one action (d/dif.h DIF_ACT_*) and its program, which pushes
// the action's record (the values trace( ), printf( ), stack( )... record, typed by letter).
// Aggregations are cg_agg.c's, printf's format checks cg_printf.c's.
#include "cg_impl.h"

static void stack_check(struct cg *g, struct dnode *st);

/* cg_is_void_call: a call of an action (trace( ), printf( )...): DTrace types it void. A
 * stack( ) is a value where a record is (printf's %k, aggregation keys). */
int cg_is_void_call(const struct dnode *n)
{
    return n && n->kind == N_CALL && cg_is_action(n->s) && strcmp(n->s, "stack") != 0 &&
           strcmp(n->s, "ustack") != 0 && strcmp(n->s, "jstack") != 0; /* stacks: %k values */
}

/* stack_emit: the firing's stack( )/ustack( )/jstack( ) into r: DIF_S_STACK(kind, frames),
 * frames 0 for the engine's most (the first argument; stack_check made it a constant).
 * jstack( ) is the user stack: DTrace's for a process without a Java helper, as every
 * process is here (its strsize argument names nothing then). */
static void stack_emit(struct cg *g, struct dnode *st, unsigned r)
{
    int64_t frames = 0;
    if (st->b && !cg_const_value(st->b, &frames))
        frames = 0;
    unsigned k = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, st->s[0] != 's'), k));
    cg_emit(g, DIF_INSTR(DIF_PUSHT, k, DIF_TYPE_INT, 0));
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, frames), k));
    cg_emit(g, DIF_INSTR(DIF_PUSHT, k, DIF_TYPE_INT, 0));
    cg_reg_free(g, k);
    cg_emit(g, DIF_INSTR_IDX(DIF_CALL, DIF_S_STACK, r));
}

/* push_float: a printf( ) argument of a float or double type (a declared variable, a member)
 * is recorded as its bits, 'f' (a float's, in the low 4 bytes) or 'd' (a double's), for %e %f
 * %g (fmt.c formats them exactly); D has no arithmetic on them, so only such an argument as a
 * whole (g->float_node: cg_obj_rvalue loads it) is a value. 0 when n is no float. */
static int push_float(struct cg *g, struct dnode *n)
{
    struct dtype t;
    if (g->nrec == DIF_RECMAX || (n->kind != N_IDENT && n->kind != N_MEMBER &&
                                  n->kind != N_DEREF && n->kind != N_SUBSCR))
        return 0;
    unsigned ninsns = g->ninsns, regs = g->regs;
    struct dnode *save = g->float_node;
    g->float_node = n;
    unsigned r = cg_expr(g, n, &t);
    g->float_node = save;
    if (t.kind != DT_FLOAT) { /* compiled again as cg_push_rec's */
        g->ninsns = ninsns;
        g->regs = (uint16_t)regs;
        return 0;
    }
    cg_emit(g, DIF_INSTR(DIF_PUSHR, r, DIF_TYPE_INT, 0));
    cg_reg_free(g, r);
    g->rec[g->nrec++] = t.size == 4 ? 'f' : 'd';
    g->rec[g->nrec] = 0;
    return 1;
}

void cg_push_rec(struct cg *g, struct dnode *n)
{
    struct dtype t;
    if (g->nrec == DIF_RECMAX)
        dcc_error(g->cc, n->line, "D_PROTO_LEN", "too many values in one action");
    if (n->kind == N_CALL && (!strcmp(n->s, "stack") || !strcmp(n->s, "ustack") ||
                              !strcmp(n->s, "jstack"))) {
        /* a stack as a value (an aggregation key, printf's %k, the stack( ) action): 'k',
         * a stack id (d/dstacks.h) */
        stack_check(g, n);
        unsigned r = cg_reg_alloc(g);
        stack_emit(g, n, r);
        cg_emit(g, DIF_INSTR(DIF_PUSHR, r, DIF_TYPE_INT, 0));
        cg_reg_free(g, r);
        g->rec[g->nrec++] = 'k';
        g->rec[g->nrec] = 0;
        return;
    }
    char sa = n->kind == N_CALL ? d_symaddr_type(n->s) : 0;
    if (sa) { /* func( ), ufunc( ), uaddr( )...: the address itself, printed by name (symaddr.c) */
        unsigned argc = cg_count_list(n->b);
        if (argc != 1)
            dcc_error(g->cc, n->line, "D_PROTO_LEN", "%s( ) prototype mismatch: %u args passed, "
                      "1 expected", n->s, argc);
        unsigned r = cg_expr(g, n->b, &t);
        if (t.kind != DIF_TYPE_INT)
            dcc_error(g->cc, n->line, "D_PROTO_ARG", "%s( ) argument #1 is incompatible with "
                      "prototype:\n\tprototype: uintptr_t (an address)", n->s);
        cg_emit(g, DIF_INSTR(DIF_PUSHR, r, DIF_TYPE_INT, 0));
        cg_reg_free(g, r);
        g->rec[g->nrec++] = sa;
        g->rec[g->nrec] = 0;
        return;
    }
    unsigned r = cg_expr(g, n, &t);
    if (t.kind == DT_NONE)
        dcc_error(g->cc, n->line, "D_PROTO_ARG", "argument has no value");
    cg_emit(g, DIF_INSTR(DIF_PUSHR, r, t.kind, 0));
    cg_reg_free(g, r);
    g->rec[g->nrec++] = cg_type_letter(t);
    g->rec[g->nrec] = 0;
}

struct dif_act *cg_act_new(struct cg *g, int kind, int line)
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
    a->da_types = cg_intern_str(g, g->rec);
    a->da_size = a->da_kind == DIF_ACT_TRACEMEM ? (a->da_arg + 7u) & ~7u
                                                : dif_types_size(g->rec, g->cc->strsize);
    a->da_offset = *recsize;
    *recsize += a->da_size;
    if (*recsize > DIF_CLAUSE_RECMAX)
        dcc_error(g->cc, a->da_line, "D_DIF_SIZE", "clause records too much data");
}

/* cg_is_action_call: n calls an action (trace( ), printf( )...) */
int cg_is_action_call(const struct dnode *n)
{
    return n->kind == N_CALL && cg_is_action(n->s);
}

int cg_is_action(const char *s)
{
    static const char *const names[] = { "trace", "printf", "printa", "exit", "clear", "trunc",
        "normalize", "denormalize", "tracemem", "speculate", "commit", "discard",
        "stack", "ustack", "jstack", "raise", "system", "chill", "breakpoint", "panic",
        "copyout", "copyoutstr", "print", "setopt", "freopen", "ftruncate", "stop", "freeze" };
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
        if (!strcmp(names[k], s))
            return 1;
    return 0;
}

static void proto_len(struct cg *g, struct dnode *n, unsigned lo, unsigned hi)
{
    unsigned c = cg_count_list(n->b);
    if (c < lo || c > hi)
        dcc_error(g->cc, n->line, "D_PROTO_LEN", "%s( ) prototype mismatch: %d arg%s passed, "
                  "%d expected", n->s, (int)c, c == 1 ? "" : "s", (int)lo);
}

/* stack_check: stack( )/ustack( )/jstack( ) arguments as dt_action_stack_args and
 * dt_action_ustack_args check them, before the subset says it has no stacks. */
static void stack_check(struct cg *g, struct dnode *st)
{
    unsigned argc = cg_count_list(st->b);
    int64_t v;
    if (st->s[0] == 's') {
        if (argc > 1)
            dcc_error(g->cc, st->line, "D_STACK_PROTO", "stack( ) prototype mismatch: too many "
                      "arguments");
        if (argc == 1 && (!cg_const_value(st->b, &v) || v <= 0))
            dcc_error(g->cc, st->line, "D_STACK_SIZE", "stack( ) size must be a nonzero "
                      "positive integer constant");
        return;
    }
    int j = st->s[0] == 'j';
    if (argc > 2)
        dcc_error(g->cc, st->line, j ? "D_JSTACK_PROTO" : "D_USTACK_PROTO", "%s( ) prototype "
                  "mismatch: too many arguments", st->s);
    if (argc >= 1 && (!cg_const_value(st->b, &v) || v <= 0))
        dcc_error(g->cc, st->line, "D_USTACK_FRAMES", "%s( ) argument #1 must be a non-zero "
                  "positive integer constant", st->s);
    if (argc == 2 && (!cg_const_value(st->b->next, &v) || v <= 0))
        dcc_error(g->cc, st->line, "D_USTACK_STRSIZE", "%s( ) argument #2 must be a positive "
                  "integer constant", st->s);
}

/* act_printf: printf(fmt, ...)'s checks and record: its values (floats as theirs) */
static struct dif_act *act_printf(struct cg *g, struct dnode *st)
{
    if (!st->b)
        dcc_error(g->cc, st->line, "D_PROTO_LEN", "printf( ) prototype mismatch: 0 args "
                  "passed, at least 1 expected");
    for (struct dnode *k = st->b->next; k; k = k->next)
        if (k->kind == N_AGG)
            dcc_error(g->cc, st->line, "D_PRINTF_ARG_TYPE", "printf( ) argument #%u is "
                      "incompatible with its conversion: an aggregation", cg_count_list(st->b)
                      - cg_count_list(k) + 1);
    if (st->b->kind != N_STR)
        dcc_error(g->cc, st->line, "D_PRINTF_ARG_FMT", "printf( ) argument #1 must be a "
                  "string literal");
    for (struct dnode *k = st->b->next; k; k = k->next)
        if (cg_is_void_call(k))
            dcc_error(g->cc, st->line, "D_PRINTF_ARG_TYPE", "printf( ) argument #%u is "
                      "incompatible with its conversion: %s( ) has type void",
                      cg_count_list(st->b) - cg_count_list(k) + 1, k->s);
    for (struct dnode *k = st->b->next; k; k = k->next)
        if (!push_float(g, k))
            cg_push_rec(g, k);
    cg_printf_check(g, st->b->s, st->line, "printf", 0);
    if (!g->nrec) { /* as libdtrace, a printf( ) of no value records a zero (8 bytes) */
        cg_emit(g, DIF_INSTR(DIF_PUSHR, 0, DIF_TYPE_INT, 0));
        g->rec[g->nrec++] = 'l';
        g->rec[g->nrec] = 0;
    }
    struct dif_act *a = cg_act_new(g, DIF_ACT_PRINTF, st->line);
    a->da_arg = cg_intern_str(g, st->b->s);
    return a;
}

/* act_printa: printa([fmt,] @a, @b...): one action per aggregation, the later ones joined to
 * the first (as libdtrace); each but the last completed here, its program *p ended and a new
 * one begun. Returns the last. */
static struct dif_act *act_printa(struct cg *g, struct dnode *st, struct dif_prog *p,
                                  uint32_t *recsize)
{
    struct dnode *x = st->b;
    uint32_t fmt = UINT32_MAX;
    if (x && x->kind == N_STR) {
        cg_printf_check(g, x->s, st->line, "printa", 1);
        fmt = cg_intern_str(g, x->s);
        x = x->next;
    }
    for (struct dnode *y = x; y; y = y->next)
        if (y->kind != N_AGG || y->b)
            dcc_error(g->cc, st->line, "D_PRINTA_AGGARG", "printa( ) argument #%u is "
                      "incompatible with prototype:\n\tprototype: aggregation",
                      cg_count_list(st->b) - cg_count_list(y) + 1);
    if (!x)
        dcc_error(g->cc, st->line, "D_PRINTA_PROTO", "printa( ) requires an aggregation");
    for (struct dnode *y = x->next; y; y = y->next) {
        const char *k0 = g->aggs[cg_agg_lookup(g, x, st->line)].keys;
        const char *k1 = g->aggs[cg_agg_lookup(g, y, st->line)].keys;
        if (strlen(k0) != strlen(k1))
            dcc_error(g->cc, st->line, "D_PRINTA_AGGKEY", "printa( ): @%s and @%s do not "
                      "have matching key signatures", x->s, y->s);
        if (strcmp(k0, k1) != 0)
            dcc_error(g->cc, st->line, "D_PRINTA_AGGPROTO", "printa( ): @%s[ ] key is "
                      "incompatible with @%s", y->s, x->s);
    }
    if (cg_count_list(x) > DIF_PRINTA_MAX)
        dcc_error(g->cc, st->line, "D_UNSUPPORTED", "printa( ) of more than %u aggregations",
                  DIF_PRINTA_MAX);
    if (fmt != UINT32_MAX) { /* the keys against the format's conversions */
        d_strlcpy(g->rec, g->aggs[cg_agg_lookup(g, x, st->line)].keys, sizeof(g->rec));
        g->nrec = (unsigned)strlen(g->rec);
        cg_printf_check(g, st->b->s, st->line, "printa", 2);
        g->rec[0] = 0;
        g->nrec = 0;
    }
    /* one action per aggregation, the later ones joined to the first (as libdtrace) */
    struct dif_act *a = NULL;
    for (struct dnode *y = x; y; y = y->next) {
        unsigned id = cg_agg_lookup(g, y, st->line);
        if (a) { /* the previous one is complete */
            a->da_prog = cg_prog_end(g, *p, 0);
            finish_rec(g, a, recsize);
            *p = cg_prog_begin(g);
        }
        a = cg_act_new(g, DIF_ACT_PRINTA, st->line);
        a->da_arg = id;
        a->da_arg2 = y == x ? fmt : DIF_PRINTA_JOINED;
    }
    return a;
}

/* act_tracemem: tracemem(address, size): size bytes from D's own memory (a string, a
 * variable's storage); the size must be a literal so the record has a fixed layout */
static struct dif_act *act_tracemem(struct cg *g, struct dnode *st)
{
    proto_len(g, st, 2, 2);
    struct dnode *sz = st->b->next;
    if (cg_type_of(g, sz).kind == DIF_TYPE_STR) /* dt_open.c: tracemem(@, size_t) */
        dcc_error(g->cc, st->line, "D_PROTO_ARG", "tracemem( ) argument #2 is incompatible "
                  "with prototype");
    if (sz->kind != N_INT || sz->ival <= 0 || sz->ival > (int64_t)DIF_TRACEMEM_MAX)
        dcc_error(g->cc, st->line, "D_TRACEMEM_SIZE", "tracemem( ) argument #2 must be an "
                  "integer constant from 1 to %d", (int)DIF_TRACEMEM_MAX);
    cg_push_rec(g, st->b);
    struct dif_act *a = cg_act_new(g, DIF_ACT_TRACEMEM, st->line);
    a->da_arg = (uint32_t)sz->ival;
    return a;
}

/* act_system: system(fmt, ...): printf's checks; the consumer runs the formatted command */
static struct dif_act *act_system(struct cg *g, struct dnode *st)
{
    if (!st->b)
        dcc_error(g->cc, st->line, "D_PROTO_LEN", "system( ) prototype mismatch: 0 args "
                  "passed, at least 1 expected");
    if (st->b->kind != N_STR)
        dcc_error(g->cc, st->line, "D_PRINTF_ARG_FMT", "system( ) argument #1 must be a "
                  "string literal");
    for (struct dnode *k = st->b->next; k; k = k->next)
        cg_push_rec(g, k);
    cg_printf_check(g, st->b->s, st->line, "system", 0);
    struct dif_act *a = cg_act_new(g, DIF_ACT_SYSTEM, st->line);
    a->da_arg = cg_intern_str(g, st->b->s);
    return a;
}

/* act_consumer: setopt( ) and freopen( ), done by the consumer: the option or file name is a
 * string literal here */
static struct dif_act *act_consumer(struct cg *g, struct dnode *st)
{
    const char *fn = st->s;
    cg_proto_other(g, st);
    for (struct dnode *k = st->b; k; k = k->next)
        if (k->kind != N_STR)
            dcc_error(g->cc, st->line, "D_UNSUPPORTED", "%s( ) argument #%u must be a "
                      "string literal in this D subset", fn, cg_count_list(st->b) -
                      cg_count_list(k) + 1);
    struct dif_act *a = cg_act_new(g, fn[0] == 's' ? DIF_ACT_SETOPT : DIF_ACT_FREOPEN, st->line);
    a->da_arg = cg_intern_str(g, st->b->s);
    a->da_arg2 = st->b->next ? cg_intern_str(g, st->b->next->s) : UINT32_MAX;
    return a;
}

/* statement: compiles one statement of a clause into one action. */
/* act_exit: exit(status), an integer. */
static struct dif_act *act_exit(struct cg *g, struct dnode *st)
{
    proto_len(g, st, 1, 1);
    cg_push_rec(g, st->b);
    if (g->rec[0] == 's')
        dcc_error(g->cc, st->line, "D_PROTO_ARG", "exit( ) argument #1 must be an integer");
    return cg_act_new(g, DIF_ACT_EXIT, st->line);
}

/* act_agg: clear(@), denormalize(@), trunc(@[, n]) and normalize(@, n): the aggregation's id
 * the action's argument, trunc's and normalize's value in the record. */
static struct dif_act *act_agg(struct cg *g, struct dnode *st)
{
    const char *fn = st->s;
    unsigned id = cg_aggact_check(g, st);
    int kind;
    if (!strcmp(fn, "clear") || !strcmp(fn, "denormalize")) {
        kind = fn[0] == 'c' ? DIF_ACT_CLEAR : DIF_ACT_DENORMALIZE;
    } else {
        if (st->b->next)
            cg_push_rec(g, st->b->next);
        kind = fn[0] == 't' ? DIF_ACT_TRUNC : DIF_ACT_NORMALIZE;
    }
    struct dif_act *a = cg_act_new(g, kind, st->line);
    a->da_arg = id;
    return a;
}

/* act_speculation: speculate(id), commit(id), discard(id); *ret the register holding the id
 * (speculate's checked for room by the engine, which gives it back). */
static struct dif_act *act_speculation(struct cg *g, struct dnode *st, unsigned *ret)
{
    const char *fn = st->s;
    struct dtype t;
    proto_len(g, st, 1, 1);
    *ret = cg_expr(g, st->b, &t);
    if (t.kind != DIF_TYPE_INT)
        dcc_error(g->cc, st->line, "D_PROTO_ARG", "%s( ) argument #1 must be a speculation "
                  "id", fn);
    if (fn[0] == 's') { /* the engine's room check (DIF_S_SPECROOM) gives the id back */
        cg_emit(g, DIF_INSTR(DIF_PUSHT, *ret, DIF_TYPE_INT, 0));
        cg_emit(g, DIF_INSTR_IDX(DIF_CALL, DIF_S_SPECROOM, *ret));
    }
    return cg_act_new(g, fn[0] == 's' ? DIF_ACT_SPECULATE : fn[0] == 'c' ? DIF_ACT_COMMIT
                                                                      : DIF_ACT_DISCARD, st->line);
}

/* act_raise: raise(sig): the consumer signals the firing process, as DTrace's raise( )
 * signals the current one; the record holds the signal and that process's id. */
static struct dif_act *act_raise(struct cg *g, struct dnode *st)
{
    cg_proto_other(g, st);     /* libdtrace's prototype checks and words */
    cg_push_rec(g, st->b);
    struct dnode *who = dcc_alloc(g->cc, sizeof(*who));
    memset(who, 0, sizeof(*who));
    who->kind = N_IDENT;
    who->s = "pid";
    who->line = st->line;
    cg_push_rec(g, who);
    g->rec[0] = g->rec[1] = 'l';   /* both read as 64-bit integers */
    return cg_act_new(g, DIF_ACT_RAISE, st->line);
}

/* act_trigger: freeze( ) (this kernel's: the flight recorder stops at the firing and the
 * incident record is written, docs/incidents.md), and DTrace's destructive panic( ) and
 * breakpoint( ), which do the same first. No argument, no record. */
static struct dif_act *act_trigger(struct cg *g, struct dnode *st)
{
    proto_len(g, st, 0, 0);
    struct dif_act *a = cg_act_new(g, DIF_ACT_TRIGGER, st->line);
    a->da_arg = st->s[0] == 'f' ? DIF_TRIG_FREEZE : st->s[0] == 'p' ? DIF_TRIG_PANIC
                                                                     : DIF_TRIG_BREAKPOINT;
    return a;
}

/* act_stack: stack( ), ustack( ), jstack( ): the stack's id in the record, printed by the
 * consumer; which stack the action's argument. */
static struct dif_act *act_stack(struct cg *g, struct dnode *st)
{
    stack_check(g, st);
    cg_push_rec(g, st); /* the stack's id, printed by the consumer */
    struct dif_act *a = cg_act_new(g, DIF_ACT_STACK, st->line);
    a->da_arg = st->s[0] == 's' ? 0 : st->s[0] == 'u' ? 1 : 2;
    return a;
}

/* act_call: the action a call statement names, its code emitted (*ret the register its
 * program returns); an action this subset lacks is refused. */
static struct dif_act *act_call(struct cg *g, struct dnode *st, struct dif_prog *p,
                                uint32_t *recsize, unsigned *ret)
{
    const char *fn = st->s;
    if (!strcmp(fn, "trace")) {
        proto_len(g, st, 1, 1);
        cg_push_rec(g, st->b);
        return cg_act_new(g, DIF_ACT_TRACE, st->line);
    }
    if (!strcmp(fn, "printf"))
        return act_printf(g, st);
    if (!strcmp(fn, "printa"))
        return act_printa(g, st, p, recsize);
    if (!strcmp(fn, "exit"))
        return act_exit(g, st);
    if (!strcmp(fn, "clear") || !strcmp(fn, "denormalize") || !strcmp(fn, "trunc") ||
        !strcmp(fn, "normalize"))
        return act_agg(g, st);
    if (!strcmp(fn, "tracemem"))
        return act_tracemem(g, st);
    if (!strcmp(fn, "speculate") || !strcmp(fn, "commit") || !strcmp(fn, "discard"))
        return act_speculation(g, st, ret);
    if (!strcmp(fn, "setopt") || !strcmp(fn, "freopen"))
        return act_consumer(g, st);
    if (!strcmp(fn, "system"))
        return act_system(g, st);
    if (!strcmp(fn, "raise"))
        return act_raise(g, st);
    if (!strcmp(fn, "stack") || !strcmp(fn, "ustack") || !strcmp(fn, "jstack"))
        return act_stack(g, st);
    if (!strcmp(fn, "freeze") || !strcmp(fn, "panic") || !strcmp(fn, "breakpoint"))
        return act_trigger(g, st);
    cg_proto_other(g, st);
    dcc_error(g->cc, st->line, "D_UNSUPPORTED", "%s( ) is not supported in this D subset", fn);
    return NULL;
}

void cg_statement(struct cg *g, struct dnode *st, uint32_t *recsize)
{
    g->line = st->line;
    if (st->kind == N_ASSIGN && st->a->kind == N_AGG) {
        cg_aggregation(g, st);
        return;
    }
    if (st->kind == N_AGG && (st->b || cg_is_aggsym(g, st->s)))
        dcc_error(g->cc, st->line, "D_AGG_NULL", "expression has null effect: @%s", st->s);
    if (st->kind != N_CALL || !cg_is_action(st->s)) {
        struct dif_prog p = cg_prog_begin(g);
        struct dtype t;
        unsigned r = cg_expr(g, st, &t);
        struct dif_act *a = cg_act_new(g, DIF_ACT_EXPR, st->line);
        a->da_prog = cg_prog_end(g, p, r);
        finish_rec(g, a, recsize);
        return;
    }
    struct dif_prog p = cg_prog_begin(g);
    unsigned ret = 0;
    struct dif_act *a = act_call(g, st, &p, recsize, &ret);
    a->da_prog = cg_prog_end(g, p, ret);
    finish_rec(g, a, recsize);
}
