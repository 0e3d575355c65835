// SPDX-License-Identifier: MIT
// Aggregations: @name[keys] = func(args) into one DIF_ACT_AGG action (the keys recorded, the
// value in the program's result), the parameters of lquantize( ) and llquantize( ) checked in
// libdtrace's order, and the checks of the actions on an aggregation (clear, trunc, ...).
#include "cg_impl.h"

int cg_is_aggsym(struct cg *g, const char *name)
{
    for (unsigned k = 0; k < g->naggs; k++)
        if (strcmp(g->aggs[k].name, name) == 0)
            return 1;
    return 0;
}

unsigned cg_agg_lookup(struct cg *g, struct dnode *n, int line)
{
    if (!n || n->kind != N_AGG || n->b)
        dcc_error(g->cc, line, "D_PROTO_ARG", "argument must be an aggregation name");
    for (unsigned k = 0; k < g->naggs; k++)
        if (strcmp(g->aggs[k].name, n->s) == 0)
            return k;
    dcc_error(g->cc, line, "D_AGG_UNDEF", "aggregation @%s is not defined", n->s);
}

const char *const cg_aggfuncs[DIF_AGG_NFUNCS] = {
    "count", "sum", "min", "max", "avg", "stddev", "quantize", "lquantize", "llquantize",
};

/* lquantize( ) and llquantize( ) parameters, checked in libdtrace's order (dt_compile_agg):
 * each argument's type, then its range, then the relations between them. */
static void lquant_check(struct cg *g, struct dnode *arg, int64_t *param, int line)
{
    static const char *const type_tag[] = { "D_LQUANT_BASETYPE", "D_LQUANT_LIMTYPE" };
    static const char *const val_tag[] = { "D_LQUANT_BASEVAL", "D_LQUANT_LIMVAL" };
    for (int k = 0; k < 2; k++, arg = arg->next) {
        if (!cg_const_value(arg, &param[k]))
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
        if (!cg_const_value(arg, &param[2]) || param[2] <= 0)
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
        if (!cg_const_value(arg, &p[k]))
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

/* Prototypes: count( ); sum..stddev(@); quantize(@, ...); lquantize(@, int32_t, int32_t,
 * ...); llquantize(@, int32_t x 4, ...), by function id. The varargs are checked apart. */
static const uint8_t agg_minargs[] = { 0, 1, 1, 1, 1, 1, 1, 3, 5 };
static const uint8_t agg_maxargs[] = { 0, 1, 1, 1, 1, 1, 255, 255, 255 };

/* agg_func: the aggregating function a statement @x[...] = f(...) assigns (its id), its
 * arguments' count within the prototype's. */
static int agg_func(struct cg *g, const struct dnode *st)
{
    const struct dnode *rhs = st->b;
    int line = st->line;
    if (st->op != T_ASSIGN || !rhs || rhs->kind != N_CALL)
        dcc_error(g->cc, line, "D_AGG_FUNC", "aggregations may only be assigned an "
                  "aggregating function");
    int func = -1;
    for (int k = 0; k < DIF_AGG_NFUNCS; k++)
        if (strcmp(cg_aggfuncs[k], rhs->s) == 0)
            func = k;
    if (func < 0 && !cg_is_action(rhs->s) && !cg_is_subr(rhs->s))
        dcc_error(g->cc, line, "D_FUNC_UNDEF", "failed to resolve %s: Unknown function name",
                  rhs->s);
    if (func < 0)
        dcc_error(g->cc, line, "D_AGG_FUNC", "%s( ) is not an aggregating function", rhs->s);
    unsigned nargs = cg_count_list(rhs->b);
    if (nargs < agg_minargs[func] || nargs > agg_maxargs[func])
        dcc_error(g->cc, line, "D_PROTO_LEN", "%s( ) prototype mismatch: %d arg%s passed, %d "
                  "expected", rhs->s, (int)nargs, nargs == 1 ? "" : "s", (int)agg_minargs[func]);
    return func;
}

/* agg_increment: a quantization's optional increment (after its value and parameters), its
 * parameters checked into param; NULL when there is none. */
static struct dnode *agg_increment(struct cg *g, const struct dnode *rhs, int func,
                                   int64_t *param, int line)
{
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
        if (cg_type_of(g, incr).kind != DIF_TYPE_INT)
            dcc_error(g->cc, line, "D_PROTO_ARG", "%s( ) increment value (argument #%u) must "
                      "be of scalar type", rhs->s, argmax);
        if (incr->next)
            dcc_error(g->cc, incr->line, "D_PROTO_LEN", "%s( ) prototype mismatch: %u args "
                      "passed, at most %u expected", rhs->s, cg_count_list(rhs->b), argmax);
    }
    return incr;
}

/* agg_declare: aggregation @name's id: declared at its first use (its function, keys in
 * g->rec and parameters), else its use held to that declaration. */
static unsigned agg_declare(struct cg *g, const char *name, int func, const int64_t *param,
                            int line)
{
    unsigned id;
    for (id = 0; id < g->naggs; id++)
        if (strcmp(g->aggs[id].name, name) == 0)
            break;
    if (id == g->naggs) {
        if (g->naggs == DIF_MAXAGGS)
            dcc_error(g->cc, line, "D_DIF_SIZE", "too many aggregations");
        struct aggsym *s = &g->aggs[g->naggs++];
        s->name = name;
        s->func = func;
        s->line = line;
        memcpy(s->keys, g->rec, sizeof(s->keys));
        memcpy(s->param, param, sizeof(s->param));
        return id;
    }
    struct aggsym *s = &g->aggs[id];
    if (s->func != func)
        dcc_error(g->cc, line, "D_AGG_REDEF", "aggregation redefined: @%s", name);
    param_match(g, s, func, param, line);
    if (strcmp(s->keys, g->rec) != 0)
        dcc_error(g->cc, line, "D_AGG_REDEF", "aggregation key signature differs from its "
                  "first use: @%s", name);
    return id;
}

void cg_aggregation(struct cg *g, struct dnode *st)
{
    struct dnode *lhs = st->a, *rhs = st->b;
    int line = st->line;
    int func = agg_func(g, st);
    unsigned nargs = cg_count_list(rhs->b);
    struct dif_prog p = cg_prog_begin(g);
    for (struct dnode *k = lhs->b; k; k = k->next) {
        if (k->kind == N_AGG || (k->kind != N_CALL && cg_type_of(g, k).kind == DT_NONE))
            dcc_error(g->cc, k->line, "D_KEY_TYPE", "@%s[ ] key #%u has no value of a key "
                      "type", lhs->s, cg_count_list(lhs->b) - cg_count_list(k) + 1);
        cg_push_rec(g, k);
    }
    unsigned k = 2;
    for (struct dnode *a = rhs->b ? rhs->b->next : NULL; a && k <= agg_minargs[func];
         a = a->next, k++)
        if (cg_type_of(g, a).kind != DIF_TYPE_INT)
            dcc_error(g->cc, a->line, "D_PROTO_ARG", "%s( ) argument #%u is incompatible with "
                      "prototype:\n\tprototype: int32_t", rhs->s, k);
    unsigned rv = 0;
    struct dtype t = T_INT64;
    if (nargs)
        rv = cg_expr(g, rhs->b, &t);
    if (nargs && t.kind != DIF_TYPE_INT)
        dcc_error(g->cc, line, "D_AGG_SCALAR", "%s( ) argument #1 must be of scalar type",
                  rhs->s);
    int64_t param[DIF_AGGPARAMS] = { 0, 0, 1, 0 };
    struct dnode *incr = agg_increment(g, rhs, func, param, line);
    if (incr) {
        cg_push_rec(g, incr); /* after the keys; the engine pops it (DIF_ACT_AGGINCR) */
        g->rec[--g->nrec] = 0;
    }
    struct dif_act *a = cg_act_new(g, incr ? DIF_ACT_AGGINCR : DIF_ACT_AGG, line);
    a->da_prog = cg_prog_end(g, p, rv);
    a->da_arg = agg_declare(g, lhs->s, func, param, line);
    a->da_types = cg_intern_str(g, g->rec);
    a->da_size = dif_types_size(g->rec, g->cc->strsize);
    a->da_offset = 0; /* keys go to the aggregation buffer, not the principal record */
}

/* cg_aggact_check: clear( ), trunc( ), normalize( ) and denormalize( ) checks in libdtrace's
 * order (prototype, aggregation argument, scalar argument, defined aggregation), each with the
 * action's own tags. Returns the aggregation's id. */
unsigned cg_aggact_check(struct cg *g, struct dnode *st)
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
    unsigned argc = cg_count_list(st->b);
    if (argc < lo || argc > hi)
        dcc_error(g->cc, st->line, tags[kind][0], "%s( ) prototype mismatch: %u args passed, "
                  "%u expected", fn, argc, lo);
    if (st->b->kind != N_AGG || st->b->b)
        dcc_error(g->cc, st->line, tags[kind][1], "%s( ) argument #1 is incompatible with "
                  "prototype:\n\tprototype: aggregation", fn);
    if (st->b->next && (st->b->next->kind == N_AGG ||
                        cg_type_of(g, st->b->next).kind != DIF_TYPE_INT))
        dcc_error(g->cc, st->line, tags[kind][2], "%s( ) argument #2 must be of scalar type",
                  fn);
    if (!cg_is_aggsym(g, st->b->s))
        dcc_error(g->cc, st->line, tags[kind][3], "undefined aggregation: @%s", st->b->s);
    return cg_agg_lookup(g, st->b, st->line);
}
