// SPDX-License-Identifier: MIT
// Solaris's interrupt device structures as D scripts read them (d/ddevinfo.h): a pointer to
// `struct dev_info` (the program declares none: the cast names the tag) is the interrupt line
// the interrupt probes give in arg0, and its devi_major and devi_instance are the engine
// host's answers for that line (DIF_S_DEVINFO); `devnamesp[major].dn_name is the driver's
// name (DIF_S_DEVNAME). Members Solaris has that mean nothing here are D_UNSUPPORTED, saying
// which ones there are; a name no struct dev_info has is D_TYPE_MEMBER, as libdtrace says.
#include "cg_impl.h"
#include <d/ddevinfo.h>

/* devinfo_sou: whether type t is a pointer to a struct dev_info the program did not define
 * (its own, complete one is memory like any other struct) */
static int devinfo_ptr(struct cg *g, struct dtype t)
{
    if (t.ptr != 1 || t.pkind != DT_SOU || !t.sou)
        return 0;
    const struct dsou *s = dcc_sou(g->cc, dcc_deref(t));
    return s->tag && !strcmp(s->tag, "dev_info") && !s->is_union && !s->complete;
}

/* any_devinfo: the program names struct dev_info somewhere (a cast, a declaration), without
 * defining it: only then is an operand's type looked at (compiled and dropped) */
static int any_devinfo(struct cg *g)
{
    for (unsigned k = 0; k < g->cc->nsous; k++) {
        const struct dsou *s = g->cc->sous[k];
        if (s->tag && !strcmp(s->tag, "dev_info") && !s->complete)
            return 1;
    }
    return 0;
}

int cg_is_devinfo_member(struct cg *g, struct dnode *n)
{
    return n->kind == N_MEMBER && n->op == T_ARROW && any_devinfo(g) &&
           devinfo_ptr(g, cg_type_of(g, n->a));
}

/* call: r = subroutine subr over (member, the value in register v), v freed */
static unsigned call(struct cg *g, unsigned subr, int member, unsigned v)
{
    unsigned r = cg_reg_alloc(g);
    if (member >= 0) {
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, (uint64_t)member), r));
        cg_emit(g, DIF_INSTR(DIF_PUSHT, r, DIF_TYPE_INT, 0));
    }
    cg_emit(g, DIF_INSTR(DIF_PUSHT, v, DIF_TYPE_INT, 0));
    cg_reg_free(g, v);
    cg_emit(g, DIF_INSTR_IDX(DIF_CALL, subr, r));
    return r;
}

unsigned cg_devinfo_member(struct cg *g, struct dnode *n, struct dtype *t)
{
    static const char *const solaris[] = { "devi_parent", "devi_child", "devi_sibling",
        "devi_binding_name", "devi_addr", "devi_nodeid", "devi_node_name", "devi_state",
        "devi_ops", "devi_driver_data", "devi_flags", "devi_node_state", "devi_pm_info",
        "devi_drv_prop_ptr", "devi_sys_prop_ptr", "devi_hw_prop_ptr", "devi_devid_str" };
    int member = !strcmp(n->s, "devi_major") ? DDEV_MAJOR
               : !strcmp(n->s, "devi_instance") ? DDEV_INSTANCE : -1;
    for (unsigned k = 0; member < 0 && k < sizeof(solaris) / sizeof(solaris[0]); k++)
        if (!strcmp(n->s, solaris[k]))
            dcc_error(g->cc, n->line, "D_UNSUPPORTED", "struct dev_info member %s: an "
                      "interrupt's device here has devi_major and devi_instance (the board's "
                      "interrupt devices) and its driver's name in `devnamesp[devi_major]"
                      ".dn_name", n->s);
    if (member < 0)
        dcc_error(g->cc, n->line, "D_TYPE_MEMBER", "%s is not a member of struct dev_info",
                  n->s);
    struct dtype pt;
    unsigned v = cg_expr(g, n->a, &pt);
    unsigned r = call(g, DIF_S_DEVINFO, member, v);
    *t = member == DDEV_MAJOR ? T_UINT32 : T_INT32;   /* Solaris's major_t and int */
    return r;
}

int cg_is_devnames(const struct dnode *n)
{
    const struct dnode *a = n->a;
    return n->kind == N_MEMBER && n->op == T_DOT && a && a->kind == N_INDEX && a->s &&
           (!strcmp(a->s, "`devnamesp") || !strcmp(a->s, "genunix`devnamesp") ||
            !strcmp(a->s, "kernel`devnamesp"));
}

unsigned cg_devname(struct cg *g, struct dnode *n, struct dtype *t)
{
    if (strcmp(n->s, "dn_name") != 0)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "struct devnames member %s: a driver "
                  "here has its name, `devnamesp[major].dn_name", n->s);
    if (!n->a->b || n->a->b->next)
        dcc_error(g->cc, n->line, "D_ARR_BADREF", "`devnamesp takes one subscript, the "
                  "driver's major number");
    struct dtype it;
    unsigned v = cg_expr(g, n->a->b, &it);
    if (it.kind != DIF_TYPE_INT || it.ptr)
        dcc_error(g->cc, n->line, "D_ARR_BADREF", "`devnamesp's subscript is the driver's "
                  "major number, an integer");
    unsigned r = call(g, DIF_S_DEVNAME, -1, v);
    *t = T_STRING;
    return r;
}
