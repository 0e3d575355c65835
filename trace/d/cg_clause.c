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
        cg_statement(g, s, &dc->dc_recsize);
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
