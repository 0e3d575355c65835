// SPDX-License-Identifier: MIT
// Clauses: a clause's probes, predicate and statements, compiled in libdtrace's order
// (statements before the predicate), and the order rules of its actions (speculate, commit,
// data-recording), each broken rule reported with libdtrace's tag.
#include "cg_impl.h"

static void clause_pred(struct cg *g, struct dclause *c, struct dif_clause *dc);
static void clause_stmts(struct cg *g, struct dclause *c, struct dif_clause *dc);

static struct dcc *cc_of(struct cg *g) { return g->cc; }

void cg_clause(struct cg *g, struct dclause *c)
{
    if (g->nclauses == CAP_CLAUSES)
        dcc_error(g->cc, c->line, "D_DIF_SIZE", "too many clauses");
    unsigned ci = g->nclauses++;
    struct dif_clause *dc = &g->clauses[ci];
    g->keep_scratch = 0;
    g->cur_desc = c->ndesc ? c->desc[0] : "";
    g->cur_clause = ci;
    for (unsigned k = 0; k < c->ndesc; k++)
        cg_match_desc(g, c->desc[k], ci, c->line);
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
        struct dif_prog p = cg_prog_begin(g);
        struct dtype ta, tb;
        unsigned ra = cg_expr(g, c->pred->a, &ta), rb = cg_expr(g, c->pred->b, &tb);
        if (ta.kind == DT_NONE || tb.kind == DT_NONE)
            dcc_error(g->cc, c->pred->line, "D_OP_VOID", "operator %s requires operands with "
                      "values", dcc_tokname(c->pred->op));
        unsigned br = cg_compare(g, c->pred, ra, ta, rb, tb);
        unsigned b = cg_emit(g, 0);
        cg_emit(g, DIF_INSTR(DIF_RET, 0, 0, 0));
        cg_patch(g, b, br);
        unsigned r = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, 1), r));
        dc->dc_pred = cg_prog_end(g, p, r);
    } else if (c->pred) {
        struct dif_prog p = cg_prog_begin(g);
        struct dtype t;
        unsigned r = cg_expr(g, c->pred, &t);
        struct sym *ms = cg_mem_sym(g, c->pred); /* an array or struct variable is no scalar */
        if (t.kind != DIF_TYPE_INT || (ms && (c->pred->kind != N_INDEX || !ms->isarr)))
            dcc_error(g->cc, c->pred->line, "D_PRED_SCALAR", "predicate result must be of "
                      "scalar type");
        dc->dc_pred = cg_prog_end(g, p, r);
    }
}

/* The order rules of libdtrace's dt_stmt_append, checked as each statement is added, so that
 * the first statement breaking one is the one reported, with libdtrace's tag: what a clause's
 * statements so far hold (speculate( ), commit( ), a data-recording action), and which of
 * them an action of a kind may not follow, in libdtrace's order of checks. */
enum { SEEN_SPEC = 1, SEEN_COMMIT = 2, SEEN_DATAREC = 4 };
static const struct order_rule {
    int kind;
    unsigned after;
    const char *tag, *msg;
} order_rules[] = {
    { DIF_ACT_COMMIT, SEEN_COMMIT, "D_COMM_COMM", "commit( ) may not follow commit( )" },
    { DIF_ACT_COMMIT, SEEN_DATAREC, "D_COMM_DREC",
      "commit( ) may not follow data-recording action(s)" },
    { DIF_ACT_SPECULATE, SEEN_SPEC, "D_SPEC_SPEC", "speculate( ) may not follow speculate( )" },
    { DIF_ACT_SPECULATE, SEEN_COMMIT, "D_SPEC_COMM", "speculate( ) may not follow commit( )" },
    { DIF_ACT_SPECULATE, SEEN_DATAREC, "D_SPEC_DREC",
      "speculate( ) may not follow data-recording action(s)" },
    { DIF_ACT_AGG, SEEN_COMMIT, "D_AGG_COMM", "aggregating actions may not follow commit( )" },
    { DIF_ACT_AGG, SEEN_SPEC, "D_AGG_SPEC", "aggregating actions may not follow speculate( )" },
    { DIF_ACT_EXIT, SEEN_SPEC, "D_EXIT_SPEC", "exit( ) may not follow speculate( )" },
    { DIF_ACT_TRIGGER, SEEN_SPEC, "D_ACT_SPEC", "freeze( ) may not follow speculate( ): the "
      "incident it records is the clause's, not a speculation's" },
};

/* destructive_check: a destructive action (s a call of one) after speculate( ) or commit( ) */
static void destructive_check(struct cg *g, const struct dnode *s, unsigned seen)
{
    static const char *const destructive[] = { "stop", "raise", "panic", "chill",
        "breakpoint", "copyout", "copyoutstr", "system" };
    int destr = 0;
    for (size_t k = 0; s->kind == N_CALL && k < sizeof(destructive) / sizeof(destructive[0]); k++)
        destr |= !strcmp(s->s, destructive[k]);
    if (destr && (seen & SEEN_SPEC))
        dcc_error(cc_of(g), s->line, "D_ACT_SPEC", "destructive actions may not follow "
                  "speculate( )");
    if (destr && (seen & SEEN_COMMIT))
        dcc_error(cc_of(g), s->line, "D_DREC_COMM", "data-recording actions may not "
                  "follow commit( )");
}

/* order_check: statement s, an action of kind, against the statements before it (*seen),
 * which it joins. An expression statement other than an assignment counts as data-recording,
 * as it does there; assignments and discard( ) record nothing (libdtrace gives them type
 * void), and what follows speculate( ) is the speculation's, not the clause's. */
static void order_check(struct cg *g, const struct dnode *s, int kind, unsigned *seen)
{
    for (size_t k = 0; k < sizeof(order_rules) / sizeof(order_rules[0]); k++)
        if (order_rules[k].kind == kind && (*seen & order_rules[k].after))
            dcc_error(cc_of(g), s->line, order_rules[k].tag, "%s", order_rules[k].msg);
    if (kind == DIF_ACT_COMMIT) {
        *seen |= SEEN_COMMIT;
    } else if (kind == DIF_ACT_SPECULATE) {
        *seen |= SEEN_SPEC;
    } else if (kind == DIF_ACT_AGG) {
        *seen |= SEEN_DATAREC;
    } else if (!(kind == DIF_ACT_DISCARD || kind == DIF_ACT_TRIGGER ||
                 (kind == DIF_ACT_EXPR && (s->kind == N_ASSIGN || s->kind == N_PREINC ||
                                           s->kind == N_PREDEC || s->kind == N_POSTINC ||
                                           s->kind == N_POSTDEC)))) {
        if (*seen & SEEN_COMMIT)
            dcc_error(cc_of(g), s->line, "D_DREC_COMM", "data-recording actions may not "
                      "follow commit( )");
        if (!(*seen & SEEN_SPEC))
            *seen |= SEEN_DATAREC;
    }
}

static void clause_stmts(struct cg *g, struct dclause *c, struct dif_clause *dc)
{
    dc->dc_act = g->nacts;
    unsigned seen = 0;
    int print = 0;
    for (struct dnode *s = c->stmts; s; s = s->next) {
        destructive_check(g, s, seen);
        cg_statement(g, s, &dc->dc_recsize);
        int kind = g->acts[g->nacts - 1].da_kind;
        if (kind == DIF_ACT_AGGINCR)
            kind = DIF_ACT_AGG;
        /* commit( ) and discard( ) record nothing: a clause of them and assignments stores
         * no data (DTrace sizes its record 0), so its firings print no line */
        print |= kind != DIF_ACT_EXPR && kind != DIF_ACT_AGG && kind != DIF_ACT_DISCARD &&
                 kind != DIF_ACT_COMMIT && kind != DIF_ACT_TRIGGER;
        order_check(g, s, kind, &seen);
    }
    if (seen & SEEN_SPEC)
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
