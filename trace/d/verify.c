// SPDX-License-Identifier: MIT
// The DIF verifier: the kernel's gate for compiled D objects. Every rule below is checked
// before any program runs, and every violation is reported with the table entry or the
// program and pc that broke it:
//   - header: magic, version, sizes; every table inside the blob, aligned, entries in range;
//   - string table non-empty, starts with "" and ends with NUL (so any offset is a string);
//   - type descriptors use only known type characters and fit the stacks;
//   - programs: inside the instruction table, at most DIF_MAXPROG long, last instruction RET;
//     each opcode valid, reserved fields zero, registers < DIF_NREGS, %r0 never written,
//     branch targets strictly forward and inside the program (so no loops), integer/string/
//     variable/built-in/subroutine indices in range and variables of the opcode's scope;
//   - actions, clauses, probes, ECBs and aggregations reference only existing entries and
//     their records fit their clause.
// What only run time knows (addresses, divisors, string lengths, stack depths) the VM checks.
#include <d/dif.h>
#include <d/dprobes.h>
#include "dutil.h"

struct vctx {
    const struct dif_hdr *h;
    struct dif_obj *o;
    char *err;
    size_t errlen;
};

static int fail(struct vctx *v, const char *what, unsigned n, const char *why, unsigned pc)
{
    char num[24], pcs[24];
    d_utoa(num, n);
    d_utoa(pcs, pc);
    d_strlcpy(v->err, what, v->errlen);
    d_strlcat(v->err, " ", v->errlen);
    d_strlcat(v->err, num, v->errlen);
    if (pc != ~0u) {
        d_strlcat(v->err, " pc ", v->errlen);
        d_strlcat(v->err, pcs, v->errlen);
    }
    d_strlcat(v->err, ": ", v->errlen);
    d_strlcat(v->err, why, v->errlen);
    return -1;
}

/* table: checks that cnt entries of size sz at off lie inside the blob, 8-byte aligned. */
static int table(struct vctx *v, const char *name, uint32_t cnt, uint32_t off, uint32_t sz)
{
    uint64_t end = (uint64_t)off + (uint64_t)cnt * sz;
    if (cnt == 0)
        return 0;
    if ((off & 7u) != 0 || off < sizeof(struct dif_hdr) || end > v->h->dh_size)
        return fail(v, name, cnt, "table outside the object or misaligned", ~0u);
    return 0;
}

static int str_ok(struct vctx *v, uint32_t off) { return off < v->h->dh_strlen; }

/* types_ok: a type descriptor offset whose string has 1..max valid characters. */
static int types_ok(struct vctx *v, uint32_t off, unsigned min, unsigned max)
{
    if (!str_ok(v, off))
        return 0;
    const char *s = v->o->strs + off;
    unsigned n = 0;
    for (; s[n]; n++)
        if (!d_strchr("bhilBHILskymunafd", s[n])) /* k: a stack, ymuna: addresses, f d: a
                                                    * float's, a double's bits (dif.h) */
            return 0;
    return n >= min && n <= max;
}

static const uint8_t scope_of_op[DIF_NOPS] = {
    [DIF_LDGV] = DIF_SCOPE_GLOBAL + 1, [DIF_STGV] = DIF_SCOPE_GLOBAL + 1,
    [DIF_LDGA] = DIF_SCOPE_ARRAY + 1,  [DIF_STGA] = DIF_SCOPE_ARRAY + 1,
    [DIF_LDSV] = DIF_SCOPE_SELF + 1,   [DIF_STSV] = DIF_SCOPE_SELF + 1,
    [DIF_LDTV] = DIF_SCOPE_THIS + 1,   [DIF_STTV] = DIF_SCOPE_THIS + 1,
};

/* index_problem: what is wrong with an instruction that names a table index or a variable
 * (SETX, SETS, BUILTIN, CALL, the loads and stores of variables), or NULL */
static const char *index_problem(struct vctx *v, unsigned op, unsigned rd, unsigned idx)
{
    const struct dif_hdr *h = v->h;
    int store = op == DIF_STGV || op == DIF_STTV || op == DIF_STSV || op == DIF_STGA;
    if (rd >= DIF_NREGS)
        return "invalid register";
    if (rd == 0 && !store)
        return "writes %r0";
    if (op == DIF_SETX && idx >= h->dh_nints)
        return "integer table index out of range";
    if (op == DIF_SETS && idx >= h->dh_strlen)
        return "string table offset out of range";
    if (op == DIF_BUILTIN && idx >= DIF_B_COUNT)
        return "invalid built-in variable";
    if (op == DIF_CALL && idx >= DIF_S_COUNT)
        return "invalid subroutine";
    if (scope_of_op[op]) {
        if (idx >= h->dh_nvars)
            return "variable index out of range";
        if (v->o->vars[idx].dv_scope + 1 != scope_of_op[op])
            return "variable of the wrong scope";
        if (store && v->o->vars[idx].dv_type == DIF_TYPE_MEM)
            return "stores to a memory variable as a whole";
    }
    return NULL;
}

/* insn_problem: what is wrong with instruction i at pc of program p, or NULL */
static const char *insn_problem(struct vctx *v, const struct dif_prog *p, uint32_t i,
                                uint32_t pc)
{
    unsigned op = DIF_OP(i), r1 = DIF_R1(i), r2 = DIF_R2(i), rd = DIF_RD(i);
    if (op >= DIF_NOPS)
        return "invalid opcode";
    switch (op) {
    case DIF_NOP: case DIF_FLUSHT:
        if ((i & 0xffffffu) != 0)
            return "reserved bits set";
        break;
    case DIF_RET:
        if (r1 || r2)
            return "reserved bits set";
        if (rd >= DIF_NREGS)
            return "invalid register";
        break;
    case DIF_OR: case DIF_XOR: case DIF_AND: case DIF_SLL: case DIF_SRL: case DIF_SRA:
    case DIF_ADD: case DIF_SUB: case DIF_MUL: case DIF_SDIV: case DIF_UDIV: case DIF_SREM:
    case DIF_UREM:
        if (r1 >= DIF_NREGS || r2 >= DIF_NREGS || rd >= DIF_NREGS)
            return "invalid register";
        if (rd == 0)
            return "writes %r0";
        break;
    case DIF_NOT: case DIF_MOV:
    case DIF_LDSB: case DIF_LDSH: case DIF_LDSW: case DIF_LDUB: case DIF_LDUH:
    case DIF_LDUW: case DIF_LDX:
        if (r2)
            return "reserved bits set";
        if (r1 >= DIF_NREGS || rd >= DIF_NREGS)
            return "invalid register";
        if (rd == 0)
            return "writes %r0";
        break;
    case DIF_SEXT: case DIF_ZEXT:
        if (r2 != 1 && r2 != 2 && r2 != 4)
            return "invalid extension size";
        if (r1 >= DIF_NREGS || rd >= DIF_NREGS)
            return "invalid register";
        if (rd == 0)
            return "writes %r0";
        break;
    case DIF_STB: case DIF_STH: case DIF_STW: case DIF_STX:
        if (r2)
            return "reserved bits set";
        if (r1 >= DIF_NREGS || rd >= DIF_NREGS)
            return "invalid register";
        break;
    case DIF_CMP: case DIF_SCMP: case DIF_TST:
        if (rd || (op == DIF_TST && r2))
            return "reserved bits set";
        if (r1 >= DIF_NREGS || r2 >= DIF_NREGS)
            return "invalid register";
        break;
    case DIF_BA: case DIF_BE: case DIF_BNE: case DIF_BG: case DIF_BGU: case DIF_BGE:
    case DIF_BGEU: case DIF_BL: case DIF_BLU: case DIF_BLE: case DIF_BLEU:
        if (DIF_TARGET(i) <= pc)
            return "backward branch";
        if (DIF_TARGET(i) >= p->dp_len)
            return "branch outside the program";
        break;
    case DIF_SETX: case DIF_SETS: case DIF_BUILTIN: case DIF_CALL:
    case DIF_LDGV: case DIF_LDTV: case DIF_LDSV: case DIF_LDGA:
    case DIF_STGV: case DIF_STTV: case DIF_STSV: case DIF_STGA:
        return index_problem(v, op, rd, DIF_IDX(i));
    case DIF_PUSHT: case DIF_PUSHR:
        if (rd)
            return "reserved bits set";
        if (r1 >= DIF_NREGS)
            return "invalid register";
        if (r2 != DIF_TYPE_INT && r2 != DIF_TYPE_STR)
            return "invalid type";
        break;
    default:
        return "invalid opcode";
    }
    return NULL;
}

/* prog_ok: verifies one program (name/n identify it in messages). */
static int prog_ok(struct vctx *v, const struct dif_prog *p, const char *name, unsigned n,
                   int optional)
{
    const struct dif_hdr *h = v->h;
    if (p->dp_len == 0)
        return optional ? 0 : fail(v, name, n, "missing program", ~0u);
    if (p->dp_len > DIF_MAXPROG)
        return fail(v, name, n, "program too long", ~0u);
    if ((uint64_t)p->dp_start + p->dp_len > h->dh_ninsns)
        return fail(v, name, n, "program outside the instruction table", ~0u);
    const uint32_t *ins = v->o->insns + p->dp_start;
    for (uint32_t pc = 0; pc < p->dp_len; pc++) {
        uint32_t i = ins[pc];
        const char *why = insn_problem(v, p, i, pc);
        if (why)
            return fail(v, name, n, why, pc);
    }
    if (DIF_OP(ins[p->dp_len - 1]) != DIF_RET)
        return fail(v, name, n, "last instruction is not ret", p->dp_len - 1);
    return 0;
}

/* The most buckets one lquantize or llquantize aggregation may have. */
#define AGG_MAX_BUCKETS 10000

/* llquantize(v, factor, low, high, steps): the engine computes factor^(high + 1) and sums of
 * two such powers in int64_t (agg.c), so factor^(high + 1) must fit in half of INT64_MAX; the
 * bucket count (steps per magnitude, as agg.c counts them) is bounded like lquantize's. */
static int llquantize_ok(const int64_t *a)
{
    if (!(a[0] >= 2 && a[0] <= 1000 && a[1] >= 0 && a[2] >= a[1] && a[3] > 0 &&
          a[3] <= 1000 && a[2] <= 62))
        return 0;
    int64_t pw = 1, base = 0, n = 2;
    for (int64_t e = 0; e <= a[2] + 1; e++) {
        if (e == a[1])
            base = pw;
        if (e > a[1]) {     /* magnitude e - 1: from base (f^(e-1)) to pw (f^e) */
            int64_t step = pw / a[3] < 1 ? 1 : pw / a[3];
            n += (pw - base + step - 1) / step;
            if (n > AGG_MAX_BUCKETS)
                return 0;
            base = pw;
        }
        if (e <= a[2] && pw > INT64_MAX / 2 / a[0])
            return 0;
        pw *= e <= a[2] ? a[0] : 1;
    }
    return 1;
}

static int aggfunc_ok(const struct dif_agg *g)
{
    const int64_t *a = g->dg_param;
    switch (g->dg_func) {
    case DIF_AGG_LQUANTIZE:
        /* levels: a 16-bit quantity, as the compiler (and libdtrace) allow, so that what
         * compiles verifies (lquantize(1, 0, 20480, 1), test/d/tst.lquantize.levels.d) */
        return a[2] > 0 && a[1] > a[0] && a[0] > -(1LL << 40) && a[1] < (1LL << 40) &&
               (a[1] - a[0]) / a[2] <= UINT16_MAX;
    case DIF_AGG_LLQUANTIZE:
        return llquantize_ok(a);
    default:
        return g->dg_func < DIF_AGG_NFUNCS;
    }
}

/* vars_ok: the variables: names, scopes, types, sizes and key types. 0, or -1 after fail( ). */
static int vars_ok(struct vctx *v)
{
    const struct dif_hdr *h = v->h;
    const struct dif_obj *o = v->o;
    for (uint32_t k = 0; k < h->dh_nvars; k++) {
        const struct dif_var *dv = &o->vars[k];
        if (!str_ok(v, dv->dv_name) || dv->dv_scope > DIF_SCOPE_THIS || dv->dv_type > 2)
            return fail(v, "variable", k, "bad scope, type or size", ~0u);
        if (dv->dv_scope == DIF_SCOPE_ARRAY && dv->dv_type == DIF_TYPE_MEM) {
            if (dif_var_memsize(dv) == 0 || dif_var_memsize(dv) > DIF_MEMVAR_MAX ||
                !types_ok(v, dv->dv_keys, 1, DIF_TUPMAX))
                return fail(v, "variable", k, "bad struct value size or key types", ~0u);
            continue; /* dif_var_memsize( ) */
        }
        if ((dv->dv_size != 1 && dv->dv_size != 2 && dv->dv_size != 4 && dv->dv_size != 8) ||
            dv->dv_signed > 1)
            return fail(v, "variable", k, "bad scope, type or size", ~0u);
        if (dv->dv_type == DIF_TYPE_MEM) { /* dv_keys is its size */
            if ((dv->dv_scope != DIF_SCOPE_GLOBAL && dv->dv_scope != DIF_SCOPE_THIS) ||
                dv->dv_keys == 0 || dv->dv_keys > DIF_MEMVAR_MAX)
                return fail(v, "variable", k, "bad memory variable scope or size", ~0u);
        } else if (dv->dv_scope == DIF_SCOPE_ARRAY ? !types_ok(v, dv->dv_keys, 1, DIF_TUPMAX)
                                                   : dv->dv_keys != 0) {
            return fail(v, "variable", k, "bad key types", ~0u);
        }
    }
    return 0;
}

/* aggs_ok: the aggregations: names, keys, functions and their parameters. 0, or -1 after fail( ). */
static int aggs_ok(struct vctx *v)
{
    const struct dif_hdr *h = v->h;
    const struct dif_obj *o = v->o;
    for (uint32_t k = 0; k < h->dh_naggs; k++) {
        const struct dif_agg *g = &o->aggs[k];
        if (!str_ok(v, g->dg_name) || !types_ok(v, g->dg_keys, 0, DIF_RECMAX) ||
            d_strlen(o->strs + g->dg_keys) != g->dg_nkeys || g->dg_pad)
            return fail(v, "aggregation", k, "bad name or keys", ~0u);
        if (!aggfunc_ok(g))
            return fail(v, "aggregation", k, "bad function or parameters", ~0u);
    }
    return 0;
}

/* acts_ok: the actions: kinds, record types, the aggregations, strings and programs they name. 0, or -1 after fail( ). */
static int acts_ok(struct vctx *v)
{
    const struct dif_hdr *h = v->h;
    const struct dif_obj *o = v->o;
    for (uint32_t k = 0; k < h->dh_nacts; k++) {
        const struct dif_act *a = &o->acts[k];
        if (a->da_kind >= DIF_ACT_NKINDS || a->da_pad)
            return fail(v, "action", k, "bad kind", ~0u);
        int mem = a->da_kind == DIF_ACT_TRACEMEM;
        if (!types_ok(v, a->da_types, 0, DIF_RECMAX) ||
            (mem ? d_strlen(o->strs + a->da_types) != 1 || a->da_arg == 0 ||
                       a->da_arg > DIF_TRACEMEM_MAX || a->da_size != ((a->da_arg + 7u) & ~7u)
                 : a->da_size != dif_types_size(o->strs + a->da_types, h->dh_strsize)))
            return fail(v, "action", k, "bad record types", ~0u);
        int isagg = a->da_kind == DIF_ACT_AGG || a->da_kind == DIF_ACT_AGGINCR;
        int aggref = isagg || a->da_kind == DIF_ACT_PRINTA ||
                     a->da_kind == DIF_ACT_CLEAR || a->da_kind == DIF_ACT_TRUNC ||
                     a->da_kind == DIF_ACT_NORMALIZE || a->da_kind == DIF_ACT_DENORMALIZE;
        if (aggref && a->da_arg >= h->dh_naggs)
            return fail(v, "action", k, "aggregation out of range", ~0u);
        if (a->da_kind == DIF_ACT_AGGINCR && o->aggs[a->da_arg].dg_func < DIF_AGG_QUANTIZE)
            return fail(v, "action", k, "increment on an aggregation without one", ~0u);
        if (isagg &&
            d_strcmp(o->strs + a->da_types, o->strs + o->aggs[a->da_arg].dg_keys) != 0)
            return fail(v, "action", k, "keys do not match the aggregation", ~0u);
        if (a->da_kind == DIF_ACT_STACK &&
            (a->da_arg > 2 || (a->da_size && d_strcmp(o->strs + a->da_types, "k") != 0)))
            return fail(v, "action", k, "a stack records one stack id", ~0u);
        if ((a->da_kind == DIF_ACT_SETOPT || a->da_kind == DIF_ACT_FREOPEN) &&
            (a->da_size || !str_ok(v, a->da_arg) ||
             (a->da_kind == DIF_ACT_SETOPT && a->da_arg2 != UINT32_MAX && !str_ok(v, a->da_arg2))))
            return fail(v, "action", k, "bad option or file name", ~0u);
        if (a->da_kind == DIF_ACT_RAISE && d_strcmp(o->strs + a->da_types, "ll") != 0)
            return fail(v, "action", k, "raise( ) records a signal and a pid", ~0u);
        if (a->da_kind == DIF_ACT_TRIGGER && (a->da_arg >= DIF_TRIG_NKINDS || a->da_size))
            return fail(v, "action", k, "a trigger is freeze( ), panic( ) or breakpoint( ) and "
                        "records nothing", ~0u);
        if ((a->da_kind == DIF_ACT_PRINTF || a->da_kind == DIF_ACT_SYSTEM) &&
            !str_ok(v, a->da_arg))
            return fail(v, "action", k, "bad format", ~0u);
        if (a->da_kind == DIF_ACT_PRINTA && a->da_arg2 != UINT32_MAX &&
            a->da_arg2 != DIF_PRINTA_JOINED && !str_ok(v, a->da_arg2))
            return fail(v, "action", k, "bad format", ~0u);
        if (prog_ok(v, &a->da_prog, "action", k, a->da_kind == DIF_ACT_PRINTA ||
                    a->da_kind == DIF_ACT_CLEAR || a->da_kind == DIF_ACT_DENORMALIZE))
            return -1;
    }
    return 0;
}

/* clauses_ok: the clauses: their actions and records, joined printa( )s, predicates. 0, or -1 after fail( ). */
static int clauses_ok(struct vctx *v)
{
    const struct dif_hdr *h = v->h;
    const struct dif_obj *o = v->o;
    for (uint32_t k = 0; k < h->dh_nclauses; k++) {
        const struct dif_clause *c = &o->clauses[k];
        if ((uint64_t)c->dc_act + c->dc_nacts > h->dh_nacts || c->dc_recsize > DIF_CLAUSE_RECMAX ||
            (c->dc_flags & ~(DIF_CLF_SPEC | DIF_CLF_NOREC | DIF_CLF_SCRATCH)))
            return fail(v, "clause", k, "bad actions or record size", ~0u);
        for (uint32_t a = 0; a < c->dc_nacts; a++) {
            const struct dif_act *da = &o->acts[c->dc_act + a];
            /* a printa( )'s further aggregations follow its first, keys alike, few enough */
            if (da->da_kind == DIF_ACT_PRINTA && da->da_arg2 == DIF_PRINTA_JOINED) {
                uint32_t first = a;
                while (first > 0 && o->acts[c->dc_act + first].da_kind == DIF_ACT_PRINTA &&
                       o->acts[c->dc_act + first].da_arg2 == DIF_PRINTA_JOINED)
                    first--;
                const struct dif_act *f = &o->acts[c->dc_act + first];
                if (f->da_kind != DIF_ACT_PRINTA || f->da_arg2 == DIF_PRINTA_JOINED ||
                    a - first >= DIF_PRINTA_MAX ||
                    d_strcmp(o->strs + o->aggs[f->da_arg].dg_keys,
                             o->strs + o->aggs[da->da_arg].dg_keys) != 0)
                    return fail(v, "clause", k, "joined printa without a printa before it", ~0u);
            }
            if (da->da_kind == DIF_ACT_AGG || da->da_kind == DIF_ACT_AGGINCR)
                continue; /* its keys go to the aggregation buffer */
            if ((uint64_t)da->da_offset + da->da_size > c->dc_recsize || (da->da_offset & 7u))
                return fail(v, "clause", k, "action record outside the clause record", ~0u);
        }
        if (prog_ok(v, &c->dc_pred, "predicate of clause", k, 1))
            return -1;
    }
    return 0;
}

/* probes_ok: the probes: names, flags and periods (a USDT or pid probe's address and arguments). 0, or -1 after fail( ). */
static int probes_ok(struct vctx *v)
{
    const struct dif_hdr *h = v->h;
    const struct dif_obj *o = v->o;
    for (uint32_t k = 0; k < h->dh_nprobes; k++) {
        const struct dif_probe *p = &o->probes[k];
        if (!str_ok(v, p->dp_prov) || !str_ok(v, p->dp_mod) || !str_ok(v, p->dp_func) ||
            !str_ok(v, p->dp_name) || (p->dp_flags & ~3u) ||
            (DPROBE_IS_USDT(p->dp_id)   /* a site's address and its arguments' places */
                 ? p->dp_flags || !str_ok(v, p->dp_pad) || !(uint32_t)p->dp_period
             : DPROBE_IS_PID(p->dp_id)   /* an address, its process, a return's function */
                 ? p->dp_flags || !(uint32_t)p->dp_period
                 : p->dp_pad || ((p->dp_flags != 0) != (p->dp_period != 0))))
            return fail(v, "probe", k, "bad names, flags or period", ~0u);
    }
    return 0;
}

int dif_verify(const void *blob, size_t len, struct dif_obj *o, char *err, size_t errlen)
{
    struct vctx v = { blob, o, err, errlen };
    const struct dif_hdr *h = blob;
    const uint8_t *b = blob;
    if (len < sizeof(*h) || ((uintptr_t)blob & 7u))
        return fail(&v, "object", 0, "truncated or misaligned", ~0u);
    if (h->dh_magic != DIF_MAGIC)
        return fail(&v, "object", 0, "bad magic", ~0u);
    if (h->dh_version != DIF_VERSION)
        return fail(&v, "object", h->dh_version, "unsupported version", ~0u);
    if (h->dh_size > len || h->dh_size > DIF_MAXOBJ || h->dh_flags || h->dh_pad)
        return fail(&v, "object", 0, "bad size or reserved field", ~0u);
    if (h->dh_strsize < 2 || h->dh_strsize > DIF_STRSIZE_MAX)
        return fail(&v, "object", 0, "bad string size", ~0u);
    if (table(&v, "ints", h->dh_nints, h->dh_ints, 8) ||
        table(&v, "strings", h->dh_strlen, h->dh_strs, 1) ||
        table(&v, "instructions", h->dh_ninsns, h->dh_insns, 4) ||
        table(&v, "variables", h->dh_nvars, h->dh_vars, sizeof(struct dif_var)) ||
        table(&v, "actions", h->dh_nacts, h->dh_acts, sizeof(struct dif_act)) ||
        table(&v, "clauses", h->dh_nclauses, h->dh_clauses, sizeof(struct dif_clause)) ||
        table(&v, "probes", h->dh_nprobes, h->dh_probes, sizeof(struct dif_probe)) ||
        table(&v, "ecbs", h->dh_necbs, h->dh_ecbs, sizeof(struct dif_ecb)) ||
        table(&v, "aggregations", h->dh_naggs, h->dh_aggs, sizeof(struct dif_agg)))
        return -1;
    o->hdr = h;
    o->ints = (const void *)(b + h->dh_ints);
    o->strs = (const char *)(b + h->dh_strs);
    o->insns = (const void *)(b + h->dh_insns);
    o->vars = (const void *)(b + h->dh_vars);
    o->acts = (const void *)(b + h->dh_acts);
    o->clauses = (const void *)(b + h->dh_clauses);
    o->probes = (const void *)(b + h->dh_probes);
    o->ecbs = (const void *)(b + h->dh_ecbs);
    o->aggs = (const void *)(b + h->dh_aggs);
    if (h->dh_strlen == 0 || o->strs[0] != 0 || o->strs[h->dh_strlen - 1] != 0)
        return fail(&v, "strings", 0, "string table not NUL-framed", ~0u);
    if (h->dh_nvars > DIF_MAXVARS || h->dh_naggs > DIF_MAXAGGS)
        return fail(&v, "object", 0, "too many variables or aggregations", ~0u);

    if (vars_ok(&v) || aggs_ok(&v) || acts_ok(&v) || clauses_ok(&v) || probes_ok(&v))
        return -1;
    for (uint32_t k = 0; k < h->dh_necbs; k++)
        if (o->ecbs[k].de_probe >= h->dh_nprobes || o->ecbs[k].de_clause >= h->dh_nclauses)
            return fail(&v, "ecb", k, "probe or clause out of range", ~0u);
    return 0;
}

unsigned dif_types_size(const char *t, unsigned strsize)
{
    unsigned n = 0;
    for (; *t; t++)
        n += *t == 's' ? (strsize + 7u) & ~7u : 8u;
    return n;
}

const char *dif_opname(unsigned op)
{
    static const char *const names[DIF_NOPS] = {
        "nop", "ret", "or", "xor", "and", "sll", "srl", "sra", "add", "sub", "mul", "sdiv",
        "udiv", "srem", "urem", "not", "mov", "sext", "zext", "cmp", "scmp", "tst", "ba", "be",
        "bne", "bg", "bgu", "bge", "bgeu", "bl", "blu", "ble", "bleu", "setx", "sets", "ldsb",
        "ldsh", "ldsw", "ldub", "lduh", "lduw", "ldx", "ldgv", "stgv", "ldtv", "sttv", "ldsv",
        "stsv", "ldga", "stga", "builtin", "pusht", "pushr", "flusht", "call", "stb", "sth",
        "stw", "stx",
    };
    return op < DIF_NOPS ? names[op] : "?";
}

int dif_destructive(const struct dif_obj *o)
{
    int d = 0;
    for (uint32_t k = 0; k < o->hdr->dh_nacts; k++) {
        const struct dif_act *a = &o->acts[k];
        if (a->da_kind == DIF_ACT_TRIGGER && a->da_arg != DIF_TRIG_FREEZE)
            return 2;
        if (a->da_kind == DIF_ACT_SYSTEM || a->da_kind == DIF_ACT_FREOPEN ||
            a->da_kind == DIF_ACT_RAISE)
            d = 1;
    }
    return d;
}
