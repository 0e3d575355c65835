// SPDX-License-Identifier: MIT
// Probe arguments and process information: args[k] typed by the probe (fbt's from the kernel's
// DWARF types, translated ones from procinfo.c's tables), curpsinfo->, curlwpsinfo-> and
// curcpu-> members computed by the engine (DIF_S_PRINFO) from a thread's or process's who.
#include "cg_impl.h"
#include <d/dprinfo.h>
#include <d/dprobes.h>
#include <d/dfbt.h>

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
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, member), r));
    cg_emit(g, DIF_INSTR(DIF_PUSHT, r, DIF_TYPE_INT, 0));
    cg_emit(g, DIF_INSTR(DIF_PUSHT, who, DIF_TYPE_INT, 0));
    cg_reg_free(g, who);
    cg_emit(g, DIF_INSTR_IDX(DIF_CALL, subr, r));
}

/* emit_field: r = (word >> shift) & mask, word in r */
static void emit_field(struct cg *g, unsigned r, unsigned shift, uint64_t mask)
{
    unsigned r2 = cg_reg_alloc(g);
    if (shift) {
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, shift), r2));
        cg_emit(g, DIF_INSTR(DIF_SRL, r, r2, r));
    }
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, mask), r2));
    cg_emit(g, DIF_INSTR(DIF_AND, r, r2, r));
    cg_reg_free(g, r2);
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
        unsigned r2 = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ID, r));
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, DPROBE_SCHED_OFFCPU), r2));
        cg_emit(g, DIF_INSTR(DIF_CMP, r, r2, 0));
        cg_reg_free(g, r2);
        b = cg_emit(g, 0);
        r2 = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ARG0 + 3, r2));
        call_info(g, DIF_S_PRINFO, m->val == DPR_STATE ? DPR_RSTATE : DPR_RSNAME, r2, r);
        j = cg_emit(g, 0);
        cg_patch(g, b, DIF_BNE);
    }
    call_info(g, m->how == DCC_PM_STR ? DIF_S_PRSTR : DIF_S_PRINFO, m->val, who_of(g, arg), r);
    if (offcpu)
        cg_patch(g, j, DIF_BA);
}

/* the firing thread's who: pid << 16 | tid, as every thread probe's arg0 names a thread */
static unsigned cur_who(struct cg *g, void *arg)
{
    (void)arg;
    unsigned r = cg_reg_alloc(g), r2 = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_PID, r));
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, 16), r2));
    cg_emit(g, DIF_INSTR(DIF_SLL, r, r2, r));
    cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_TID, r2));
    cg_emit(g, DIF_INSTR(DIF_OR, r, r2, r));
    cg_reg_free(g, r2);
    return r;
}

/* cg_procinfo_member: curpsinfo->m, curlwpsinfo->m and curcpu->m, as procinfo.c's tables say. */
unsigned cg_procinfo_member(struct cg *g, struct dnode *n, struct dtype *t)
{
    const char *tn;
    const struct dcc_procmember *m = dcc_procinfo(n->a->s, &tn);
    while (m->name && strcmp(m->name, n->s) != 0)
        m++;
    member_usable(g, n, m->name, m->how, tn, n->a->s);
    unsigned r = cg_reg_alloc(g);
    if (m->how == DCC_PM_BUILTIN)
        cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, (unsigned)m->val, r));
    else if (m->how == DCC_PM_CONST)
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, m->val), r));
    else if (m->how == DCC_PM_FIELD) { /* pr_addr: the who */
        cg_reg_free(g, r);
        r = cur_who(g, NULL);
    } else
        translated_member(g, m, r, cur_who, NULL, 1);
    *t = m->type;
    return r;
}

/* cg_is_curthread: n is curthread or a member path from it (Solaris's kthread_t; no variable
 * of the program's so named). */
int cg_is_curthread(struct cg *g, const struct dnode *n)
{
    while (n->kind == N_MEMBER)
        n = n->a;
    return n->kind == N_IDENT && strcmp(n->s, "curthread") == 0 &&
           !cg_sym_find(g, "curthread", DIF_SCOPE_GLOBAL);
}

/* cg_curthread: curthread->t_cpu->cpu_disp->disp_nrunnable, the threads waiting on this
 * CPU's ready queues (Solaris's disp_t member, an int), the one path of curthread this kernel
 * gives, live and over a capture (DIF_B_NRUNNABLE: dvm_nrunnable); any other is
 * D_UNSUPPORTED, as no other member of Solaris's kthread_t has a meaning here. */
unsigned cg_curthread(struct cg *g, const struct dnode *n, struct dtype *t)
{
    static const char *const path[] = { "disp_nrunnable", "cpu_disp", "t_cpu" };
    const struct dnode *m = n;
    unsigned k = 0;
    for (; k < 3 && m->kind == N_MEMBER && m->op == T_ARROW && !strcmp(m->s, path[k]); k++)
        m = m->a;
    if (k < 3 || m->kind != N_IDENT)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "curthread is supported only as "
                  "curthread->t_cpu->cpu_disp->disp_nrunnable (the threads waiting on this "
                  "CPU's ready queues): this kernel's threads are not Solaris's kthread_t");
    unsigned r = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_NRUNNABLE, r));
    *t = (struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 1 };
    return r;
}

/* cg_is_probe_args: n is args[k] (DTrace's typed arguments; no variable of that name). */
int cg_is_probe_args(struct cg *g, const struct dnode *n, int64_t *k)
{
    if (n->kind != N_INDEX || n->op == 1 || strcmp(n->s, "args") != 0 ||
        cg_sym_find(g, "args", DIF_SCOPE_ARRAY))
        return 0;
    if (!n->b || n->b->next || !cg_const_value(n->b, k) || *k < 0 || *k > 9)
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
    unsigned r = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ARG0 + a->word, r));
    if (a->kind == DCC_ARG_PS)
        emit_field(g, r, 0, 0xffff0000u);
    else if (a->kind == DCC_ARG_PSPID) {
        unsigned r2 = cg_reg_alloc(g);
        emit_field(g, r, 0, 0xffffu);
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, 16), r2));
        cg_emit(g, DIF_INSTR(DIF_SLL, r, r2, r));
        cg_reg_free(g, r2);
    } else {
        emit_field(g, r, 0, 0xffffffffu);
    }
    return r;
}

/* cg_probe_args: args[k]->m of a probe with translated arguments, as procinfo.c's tables say;
 * args[k] alone is argk (a string's: the text at that address). */
unsigned cg_probe_args(struct cg *g, struct dnode *n, int64_t k, struct dtype *t)
{
    char kind = probe_argkind(g, n, (unsigned)k);
    unsigned r = cg_reg_alloc(g);
    *t = T_INT64;
    struct dtype ft;
    if (fbt_args_type(g, n, k, &ft)) {
        if (n->kind == N_MEMBER)
            dcc_error(g->cc, n->line, "D_TYPE_MEMBER", "args[%d] of %s has no member %s: an "
                      "fbt argument is a value, and D reads no kernel memory here", (int)k,
                      g->cur_desc, n->s);
        cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ARG0 + (unsigned)k, r));
        if (!ft.ptr)
            cg_convert(g, r, T_INT64, ft);
        *t = ft;
        return r;
    }
    if (n->kind != N_MEMBER) {
        cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ARG0 + (unsigned)k, r));
        if (kind == DCC_ARG_STR) { /* proc:::exec's args[0]: the name where arg0 points */
            cg_emit(g, DIF_INSTR(DIF_PUSHT, r, DIF_TYPE_INT, 0));
            cg_emit(g, DIF_INSTR_IDX(DIF_CALL, DIF_S_COPYINSTR, r));
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
        uint64_t v = (uint64_t)(int64_t)(int32_t)m->val;
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, v), r));
    } else if (m->how == DCC_PM_INFO || m->how == DCC_PM_STR) {
        translated_member(g, m, r, arg_who, &src, 0);
    } else if (m->val == DCC_F_PRI) {
        /* pr_pri, the priority word: on change-pri, which fires before the change as
         * Solaris's, that word (arg2, Solaris's args[2]) is the new priority and the thread's
         * own, the old, is arg3 (docs/d-probes.md); the probe decides at run time */
        unsigned r2 = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ID, r));
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, DPROBE_SCHED_CHANGE_PRI), r2));
        cg_emit(g, DIF_INSTR(DIF_CMP, r, r2, 0));
        cg_reg_free(g, r2);
        unsigned b = cg_emit(g, 0);
        cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ARG0 + 3, r));
        unsigned j = cg_emit(g, 0);
        cg_patch(g, b, DIF_BNE);
        cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ARG0 + 2, r));
        cg_patch(g, j, DIF_BA);
        emit_field(g, r, 0, 0xffu);
    } else {
        cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_ARG0 + src.word, r));
        if (m->val == DCC_F_TID)
            emit_field(g, r, 0, 0xffffu);
        else if (m->val == DCC_F_PID)
            emit_field(g, r, kind == DCC_ARG_PSPID ? 0 : 16, 0xffffu);
        else if (m->val == DCC_F_WHO)
            emit_field(g, r, 0, 0xffffffffu);
        else /* DCC_F_CPU: an int */
            cg_emit(g, DIF_INSTR(DIF_SEXT, r, 4, r));
    }
    *t = m->type;
    return r;
}
