// SPDX-License-Identifier: MIT
// The D code generator's shared state: what its files (cg*.c, one construct each) know of one
// another. The generator walks the parsed clauses in program order, types every expression
// (C promotions over 64-bit registers, strings by reference), resolves probe descriptions
// against the probe table, and lays out the DIF object (d/dif.h). Invariants of what it
// emits: registers are allocated LIFO from %r1..%r15 and %r0 is never a destination;
// branches are patched to strictly forward targets; every program ends with RET. The output
// must still pass dif_verify(): the kernel does not trust the compiler either. Every function
// takes the generator's state g; an error longjmps out through dcc_error (dcc_impl.h).
#ifndef D_CG_IMPL_H
#define D_CG_IMPL_H
#include "dcc_impl.h"

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

/* A D variable: its name, scope (DIF_SCOPE_*), type and, for an array, its key signature. */
struct sym {
    const char *name;
    uint8_t scope;
    uint8_t defined;
    struct dtype type;
    char keys[DIF_TUPMAX + 1];
    uint8_t mem;        /* a variable in D memory (DIF_TYPE_MEM): a struct/union or an array */
    uint8_t isarr;      /* a declared array of nelem elements of `type` */
    uint8_t decl;       /* its type was declared (uint16_t x;), not taken from a first use */
    uint32_t nelem;
};

/* An object in D memory an expression denotes (cg_addr_of below): its type, and whether it is
 * an array of nelem elements or a bit-field of `bits` bits. */
struct obj {
    struct dtype t;
    uint32_t nelem;
    uint8_t isarr, bits;
};

/* An aggregation: its function (DIF_AGG_*), first line, key signature and parameters. */
struct aggsym {
    const char *name;
    int func;
    int line;
    char keys[DIF_RECMAX + 1];
    int64_t param[DIF_AGGPARAMS];
};

/* The generator's state for one program: the object's tables as they grow, and the clause,
 * statement and expression being compiled. */
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
    unsigned depth; /* cg_expr() nesting */
    char rec[DIF_RECMAX + 1];
    unsigned nrec;
    int line;
    struct xbind *xb; /* translator parameters in scope, innermost first */
    int keep_scratch; /* the clause calls alloca( ) or copyin( ): DIF_CLF_SCRATCH */
    unsigned cur_clause; /* the clause being compiled (its enablings say its probes) */
    struct dnode *float_node; /* a printf( ) argument that may be a float (cg_act.c) */
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

#define T_INT64  ((struct dtype){ .kind = DIF_TYPE_INT, .size = 8, .sign = 1 })
#define T_UINT64 ((struct dtype){ .kind = DIF_TYPE_INT, .size = 8, .sign = 0 })
#define T_INT32  ((struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 1 })
#define T_UINT32 ((struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 0 })
#define T_STRING ((struct dtype){ .kind = DIF_TYPE_STR, .size = 0, .sign = 0 })

/* A built-in variable (arg0, pid, execname...): its DIF_B_ id and its type (cg_var.c). */
struct builtin { const char *name; unsigned id; struct dtype type; };

/* SOU_COPY_MAX: the largest struct an assignment copies (its loads and stores are unrolled) */
#define SOU_COPY_MAX 512u

/* cg.c: the object's tables, registers and programs (the driver, dcc_codegen, is there too) */
unsigned cg_emit(struct cg *g, uint32_t ins);          /* appends ins; its pc in the program */
void cg_patch(struct cg *g, unsigned pc, unsigned op); /* the branch at pc goes to here */
unsigned cg_intern_int(struct cg *g, uint64_t v);      /* v's index in the integer table */
uint32_t cg_intern_str(struct cg *g, const char *s);   /* s's offset in the string table */
unsigned cg_reg_alloc(struct cg *g);                   /* a free register (D_NOREG if none) */
void cg_reg_free(struct cg *g, unsigned r);
unsigned cg_count_list(struct dnode *n);
struct dif_prog cg_prog_begin(struct cg *g);
struct dif_prog cg_prog_end(struct cg *g, struct dif_prog p, unsigned r);
struct dtype cg_type_of(struct cg *g, struct dnode *n);

/* cg_types.c: C's promotions and conversions over 64-bit registers; constant folding */
char cg_type_letter(struct dtype t);
struct dtype cg_promote(struct dtype t);
struct dtype cg_arith(struct dtype a, struct dtype b);
void cg_need_int(struct cg *g, struct dtype t, int line, const char *op);
void cg_convert(struct cg *g, unsigned r, struct dtype from, struct dtype to);
int cg_const_value(struct dnode *n, int64_t *v);
int cg_is_scalar(struct dtype t);

/* cg_var.c: D variables (global, self->, this->, associative arrays), their keys and
 * declarations; the built-in variables */
struct sym *cg_sym_find(struct cg *g, const char *name, int scope);
struct sym *cg_sym_new(struct cg *g, const char *name, int scope, int line);
unsigned cg_sym_id(struct cg *g, struct sym *s);
const char *cg_scope_prefix(int scope);
const struct builtin *cg_builtin_find(const char *name);
int cg_is_builtin_name(const char *name);
void cg_keys_vm(struct cg *g, const char *sig, char *out);
struct sym *cg_lvalue(struct cg *g, struct dnode *n, const struct dtype *def);
unsigned cg_load_var(struct cg *g, struct dnode *n, struct dtype *t, const struct dtype *def);
void cg_store_var(struct cg *g, struct dnode *n, unsigned r, struct dtype t);
int cg_is_string_var(struct cg *g, const struct dnode *n);
void cg_declare(struct cg *g, struct ddecl *d);

/* cg_expr.c: expressions: operators, ?:, and the dispatch on a node's kind (cg_expr) */
unsigned cg_compare(struct cg *g, struct dnode *n, unsigned ra, struct dtype ta,
                    unsigned rb, struct dtype tb);
unsigned cg_binop(struct cg *g, struct dnode *n, struct dtype *t);
unsigned cg_expr(struct cg *g, struct dnode *n, struct dtype *t);

/* cg_assign.c: assignments (= and op=) and ++/-- of variables */
unsigned cg_incdec(struct cg *g, struct dnode *n, struct dtype *t);
void cg_agg_mdim(struct cg *g, const struct dnode *n);
unsigned cg_assignment(struct cg *g, struct dnode *n, struct dtype *t);

/* cg_call.c: subroutine calls and the prototypes of the functions the subset leaves out */
int cg_is_subr(const char *s);
void cg_proto_other(struct cg *g, struct dnode *n);
unsigned cg_call(struct cg *g, struct dnode *n, struct dtype *t);

/* cg_obj.c: objects in D memory: struct/union variables, declared arrays, pointers */
struct sym *cg_mem_sym(struct cg *g, const struct dnode *n);
int cg_is_obj(struct cg *g, const struct dnode *n);
void cg_fix_index(struct cg *g, struct dnode *n);
unsigned cg_elem_size(struct cg *g, struct dtype t, int line);
void cg_add_const(struct cg *g, unsigned r, uint64_t k);
void cg_store_obj(struct cg *g, unsigned ra, const struct obj *o, unsigned rv,
                  struct dtype tv, int line);
unsigned cg_addr_of(struct cg *g, struct dnode *n, struct obj *o);
unsigned cg_sou_dest(struct cg *g, struct dnode *n, struct dtype t);
unsigned cg_sou_assign(struct cg *g, struct dnode *n, unsigned rsrc, struct dtype t);
unsigned cg_obj_rvalue(struct cg *g, struct dnode *n, struct dtype *t);
unsigned cg_obj_incdec(struct cg *g, struct dnode *n, struct dtype *t);

/* cg_xlate.c: translators (xlate) and inlines, their parameters bound to operands */
struct xbind *cg_xb_find(struct cg *g, const char *name, struct xbind **outside);
unsigned cg_xlate_member(struct cg *g, struct dnode *n, struct dtype *t);
unsigned cg_xlate_assign(struct cg *g, struct dnode *n, struct dtype *t);
unsigned cg_inline_array(struct cg *g, struct dnode *n, struct dtype *t);
void cg_xlator_check(struct cg *g, const struct dxlator *xl, int line);
void cg_inline_check(struct cg *g, struct dname *d);

/* cg_kvar.c: kernel symbols and variables (`name) */
uint64_t cg_kernel_symbol(struct cg *g, const struct dnode *n);
unsigned cg_kernel_variable(struct cg *g, const struct dnode *n, struct dtype *t);
unsigned cg_kernel_element(struct cg *g, const struct dnode *n, struct dtype *t);
int cg_is_uname(const struct dnode *n, const char *member);
unsigned cg_uname(struct cg *g, const struct dnode *n, const char *member, struct dtype *t);
/* cg_devinfo.c: Solaris's interrupt device structures (d/ddevinfo.h) */
int cg_is_devinfo_member(struct cg *g, struct dnode *n); /* p->m, p a struct dev_info * */
unsigned cg_devinfo_member(struct cg *g, struct dnode *n, struct dtype *t);
int cg_is_devnames(const struct dnode *n);               /* `devnamesp[i].m */
unsigned cg_devname(struct cg *g, struct dnode *n, struct dtype *t);

/* cg_args.c: probe arguments (args[k]) and the process information (curpsinfo->...) */
unsigned cg_procinfo_member(struct cg *g, struct dnode *n, struct dtype *t);
int cg_is_curthread(struct cg *g, const struct dnode *n);
unsigned cg_curthread(struct cg *g, const struct dnode *n, struct dtype *t);
int cg_is_probe_args(struct cg *g, const struct dnode *n, int64_t *k);
unsigned cg_probe_args(struct cg *g, struct dnode *n, int64_t k, struct dtype *t);

/* cg_act.c: statements: actions and the records they make */
int cg_is_void_call(const struct dnode *n);
void cg_push_rec(struct cg *g, struct dnode *n);
struct dif_act *cg_act_new(struct cg *g, int kind, int line);
int cg_is_action_call(const struct dnode *n);
int cg_is_action(const char *s);
void cg_statement(struct cg *g, struct dnode *st, uint32_t *recsize);

/* cg_printf.c: printf( )-style formats against the values recorded */
void cg_printf_check(struct cg *g, const char *fmt, int line, const char *fn, int aggmode);

/* cg_agg.c: aggregations and the actions on them */
int cg_is_aggsym(struct cg *g, const char *name);
unsigned cg_agg_lookup(struct cg *g, struct dnode *n, int line);
extern const char *const cg_aggfuncs[DIF_AGG_NFUNCS];
void cg_aggregation(struct cg *g, struct dnode *st);
unsigned cg_aggact_check(struct cg *g, struct dnode *st);

/* cg_probe.c: probe descriptions matched against the probe table: probes and enablings */
void cg_match_desc(struct cg *g, const char *desc, unsigned clause, int line);

/* cg_clause.c: a clause: its probes, predicate and statements, in libdtrace's order */
void cg_clause(struct cg *g, struct dclause *c);

#endif
