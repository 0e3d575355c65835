// SPDX-License-Identifier: MIT
// Unit tests of the DIF verifier: objects from the compiler are accepted; each rule, broken
// in an otherwise valid object, is rejected with a message naming the program and pc.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <d/dcc.h>
#include <d/dif.h>

static uint8_t arena[2 << 20] __attribute__((aligned(8)));
static uint64_t blob[1 << 14];
static size_t bloblen;

/* compile: compiles src into blob (a private, aligned copy). */
static void compile(const char *src)
{
    struct dcc_in in = { src, strlen(src), 0, 1, NULL, 0 };
    struct dcc_out out;
    int rc = dcc_compile(&in, arena, sizeof(arena), &out);
    if (rc != 0)
        fail_msg("compile failed: %s", out.err);
    assert_true(out.objlen <= sizeof(blob));
    memcpy(blob, out.obj, out.objlen);
    bloblen = out.objlen;
}

static struct dif_hdr *hdr(void) { return (struct dif_hdr *)blob; }
static struct dif_act *act(unsigned k) { return (struct dif_act *)((uint8_t *)blob + hdr()->dh_acts) + k; }
static uint32_t *insns(void) { return (uint32_t *)((uint8_t *)blob + hdr()->dh_insns); }
/* prog: the instructions of action k. */
static uint32_t *prog(unsigned k) { return insns() + act(k)->da_prog.dp_start; }

static void expect_reject(const char *needle)
{
    struct dif_obj o;
    char err[256] = "";
    assert_int_equal(dif_verify(blob, bloblen, &o, err, sizeof(err)), -1);
    if (!strstr(err, needle))
        fail_msg("message \"%s\" lacks \"%s\"", err, needle);
}

/* a printa( ) of several aggregations: the later ones are joined actions that must follow a
 * printa of the first, with the same keys */
static void test_joined_printa(void **state)
{
    (void)state;
    compile("BEGIN { @a[1] = count(); @b[2] = sum(3); @c[\"s\"] = count(); "
            "printa(\"%d %@d %@d\\n\", @a, @b); }");
    unsigned k = 0;
    while (act(k)->da_kind != DIF_ACT_PRINTA)
        k++;
    assert_int_equal(act(k + 1)->da_kind, DIF_ACT_PRINTA);
    assert_int_equal(act(k + 1)->da_arg2, DIF_PRINTA_JOINED);
    struct dif_obj o;
    char err[256];
    assert_int_equal(dif_verify(blob, bloblen, &o, err, sizeof(err)), 0);
    act(k)->da_arg2 = DIF_PRINTA_JOINED; /* no printa before it */
    expect_reject("joined printa");
    act(k)->da_arg2 = UINT32_MAX;
    act(k + 1)->da_arg = 2; /* @c: string keys */
    expect_reject("joined printa");
}

static void test_accepts_compiled(void **state)
{
    (void)state;
    static const char *const scripts[] = {
        "BEGIN { x = 1 + 2 * 3; trace(x); }",
        "BEGIN /pid == 5/ { @[probefunc] = count(); }",
        "tick-1s { self->ts = timestamp; a[\"k\", 1] = strjoin(\"a\", \"b\"); printf(\"%s\", a[\"k\", 1]); }",
        "BEGIN { @q = quantize(arg0); @l = lquantize(arg0, 0, 100, 10); exit(0); }",
        "BEGIN { this->x = 1 ? 2 : 3; y = this->x ^^ 1 || 0 && 1; }",
    };
    for (size_t k = 0; k < sizeof(scripts) / sizeof(scripts[0]); k++) {
        struct dif_obj o;
        char err[256];
        compile(scripts[k]);
        if (dif_verify(blob, bloblen, &o, err, sizeof(err)) != 0)
            fail_msg("script %zu rejected: %s", k, err);
    }
}

static void test_bad_opcode(void **state)
{
    (void)state;
    compile("BEGIN { x = 1 + 2; }");
    prog(0)[1] = DIF_INSTR(0xee, 0, 0, 0);
    expect_reject("action 0 pc 1: invalid opcode");
}

static void test_writes_r0(void **state)
{
    (void)state;
    compile("BEGIN { x = 1 + 2; }");
    prog(0)[0] = DIF_INSTR(DIF_ADD, 1, 1, 0);
    expect_reject("action 0 pc 0: writes %r0");
}

static void test_backward_branch(void **state)
{
    (void)state;
    compile("BEGIN { x = 1 + 2; }");
    prog(0)[1] = DIF_INSTR_BR(DIF_BA, 0);
    expect_reject("action 0 pc 1: backward branch");
    prog(0)[1] = DIF_INSTR_BR(DIF_BA, 1); /* a branch to itself is a loop too */
    expect_reject("action 0 pc 1: backward branch");
}

static void test_branch_outside(void **state)
{
    (void)state;
    compile("BEGIN { x = 1 + 2; }");
    prog(0)[0] = DIF_INSTR_BR(DIF_BE, act(0)->da_prog.dp_len);
    expect_reject("action 0 pc 0: branch outside the program");
}

static void test_last_not_ret(void **state)
{
    (void)state;
    compile("BEGIN { x = 1 + 2; }");
    uint32_t n = act(0)->da_prog.dp_len;
    prog(0)[n - 1] = DIF_INSTR(DIF_NOP, 0, 0, 0);
    char want[64];
    snprintf(want, sizeof(want), "action 0 pc %u: last instruction is not ret", n - 1);
    expect_reject(want);
}

static void test_register_range(void **state)
{
    (void)state;
    compile("BEGIN { x = 1 + 2; }");
    prog(0)[2] = DIF_INSTR(DIF_ADD, DIF_NREGS, 1, 1);
    expect_reject("action 0 pc 2: invalid register");
}

static void test_reserved_bits(void **state)
{
    (void)state;
    compile("BEGIN { x = 1 + 2; }");
    prog(0)[1] = DIF_INSTR(DIF_MOV, 1, 7, 2);
    expect_reject("action 0 pc 1: reserved bits set");
    compile("BEGIN { x = 1 + 2; }");
    prog(0)[0] = DIF_INSTR(DIF_NOP, 0, 0, 1);
    expect_reject("action 0 pc 0: reserved bits set");
}

static void test_table_indices(void **state)
{
    (void)state;
    compile("BEGIN { x = 1 + 2; }");
    prog(0)[0] = DIF_INSTR_IDX(DIF_SETX, hdr()->dh_nints, 1);
    expect_reject("action 0 pc 0: integer table index out of range");
    compile("BEGIN { x = 1 + 2; }");
    prog(0)[0] = DIF_INSTR_IDX(DIF_SETS, hdr()->dh_strlen, 1);
    expect_reject("action 0 pc 0: string table offset out of range");
    compile("BEGIN { x = 1 + 2; }");
    prog(0)[0] = DIF_INSTR_IDX(DIF_LDGV, hdr()->dh_nvars, 1);
    expect_reject("action 0 pc 0: variable index out of range");
    compile("BEGIN { x = 1 + 2; }");
    prog(0)[0] = DIF_INSTR_IDX(DIF_LDSV, 0, 1); /* x is a global, not self-> */
    expect_reject("action 0 pc 0: variable of the wrong scope");
    compile("BEGIN { x = 1 + 2; }");
    prog(0)[0] = DIF_INSTR_IDX(DIF_BUILTIN, DIF_B_COUNT, 1);
    expect_reject("action 0 pc 0: invalid built-in variable");
    compile("BEGIN { x = 1 + 2; }");
    prog(0)[0] = DIF_INSTR_IDX(DIF_CALL, DIF_S_COUNT, 1);
    expect_reject("action 0 pc 0: invalid subroutine");
}

static void test_predicate_pc(void **state)
{
    (void)state;
    compile("BEGIN /pid == 5/ { trace(1); }");
    const struct dif_clause *c = (const void *)((uint8_t *)blob + hdr()->dh_clauses);
    insns()[c->dc_pred.dp_start + 2] = DIF_INSTR(DIF_SUB, 1, 2, 0);
    expect_reject("predicate of clause 0 pc 2: writes %r0");
}

static void test_header(void **state)
{
    (void)state;
    struct dif_obj o;
    char err[256];
    compile("BEGIN { trace(1); }");
    assert_int_equal(dif_verify(blob, sizeof(struct dif_hdr) - 1, &o, err, sizeof(err)), -1);
    hdr()->dh_magic ^= 1;
    expect_reject("bad magic");
    compile("BEGIN { trace(1); }");
    hdr()->dh_version = 99;
    expect_reject("unsupported version");
    compile("BEGIN { trace(1); }");
    hdr()->dh_ninsns = 1u << 28;
    expect_reject("table outside the object");
    compile("BEGIN { trace(1); }");
    hdr()->dh_acts += 4;
    expect_reject("misaligned");
    compile("BEGIN { trace(1); }");
    act(0)->da_prog.dp_start = hdr()->dh_ninsns;
    expect_reject("action 0: program outside the instruction table");
    compile("BEGIN { trace(1); }");
    act(0)->da_kind = DIF_ACT_NKINDS;
    expect_reject("action 0: bad kind");
    compile("BEGIN { trace(1); }");
    act(0)->da_offset = 1u << 20;
    expect_reject("clause 0: action record outside the clause record");
}

/* tracemem's record is its byte count rounded to 8: a size the compiler could not have made
 * (zero, over the limit, disagreeing with the record) is refused before anything runs. */
static void test_tracemem_size(void **state)
{
    (void)state;
    struct dif_obj o;
    char err[256];
    compile("BEGIN { tracemem(\"abcdef\", 12); }");
    assert_int_equal(act(0)->da_kind, DIF_ACT_TRACEMEM);
    assert_int_equal(act(0)->da_size, 16);
    if (dif_verify(blob, bloblen, &o, err, sizeof(err)) != 0)
        fail_msg("tracemem rejected: %s", err);
    act(0)->da_arg = 0;
    expect_reject("action 0: bad record types");
    compile("BEGIN { tracemem(\"abcdef\", 12); }");
    act(0)->da_arg = DIF_TRACEMEM_MAX + 1;
    expect_reject("action 0: bad record types");
    compile("BEGIN { tracemem(\"abcdef\", 12); }");
    act(0)->da_arg = 17; /* needs 24 bytes, the record has 16 */
    expect_reject("action 0: bad record types");
}

/* stack( ), ustack( ), jstack( ): an action of kind 0, 1 or 2 that records one stack id (jstack( )
 * the user stack's, as DTrace's for a process without a Java helper). */
static void test_stack_action(void **state)
{
    (void)state;
    struct dif_obj o;
    char err[256];
    compile("BEGIN { stack(); ustack(5); jstack(); }");
    for (unsigned k = 0; k < 3; k++) {
        assert_int_equal(act(k)->da_kind, DIF_ACT_STACK);
        assert_int_equal(act(k)->da_arg, k);
        assert_int_equal(act(k)->da_size, 8);
    }
    if (dif_verify(blob, bloblen, &o, err, sizeof(err)) != 0)
        fail_msg("stack rejected: %s", err);
    act(1)->da_arg = 3;
    expect_reject("action 1: a stack records one stack id");
    compile("BEGIN { stack(); }");
    act(0)->da_size = 16;
    expect_reject("action 0: bad record types");
    compile("BEGIN { jstack(); }"); /* one stack id, as ustack( ) */
    act(0)->da_size = 16;
    expect_reject("action 0: bad record types");
    /* a stack as a value: type 'k' in keys and records */
    compile("BEGIN { @[stack()] = count(); printf(\"%k\", ustack()); }");
    if (dif_verify(blob, bloblen, &o, err, sizeof(err)) != 0)
        fail_msg("stack key rejected: %s", err);
}

/* DIF_CLF_SCRATCH: set for a clause that calls alloca( ) or copyin( ), accepted; a flag
 * the format does not define is refused. */
static void test_scratch_flag(void **state)
{
    (void)state;
    struct dif_obj o;
    char err[256];
    compile("BEGIN { this->p = alloca(8); } BEGIN { trace(strjoin(\"a\", \"b\")); }");
    struct dif_clause *cl = (struct dif_clause *)((uint8_t *)blob + hdr()->dh_clauses);
    assert_true(cl[0].dc_flags & DIF_CLF_SCRATCH);
    assert_false(cl[1].dc_flags & DIF_CLF_SCRATCH);
    if (dif_verify(blob, bloblen, &o, err, sizeof(err)) != 0)
        fail_msg("scratch flag rejected: %s", err);
    cl[1].dc_flags |= 8u;
    expect_reject("clause 1: bad actions or record size");
}

/* setopt( ), freopen( ), system( ): names in the string table, checked like printf's format. */
static void test_consumer_actions(void **state)
{
    (void)state;
    struct dif_obj o;
    char err[256];
    const char *src = "BEGIN { setopt(\"quiet\", \"no\"); freopen(\"/tmp/x\"); "
                      "system(\"echo %d\", 1); }";
    compile(src);
    assert_int_equal(act(0)->da_kind, DIF_ACT_SETOPT);
    assert_int_equal(act(1)->da_kind, DIF_ACT_FREOPEN);
    assert_int_equal(act(2)->da_kind, DIF_ACT_SYSTEM);
    if (dif_verify(blob, bloblen, &o, err, sizeof(err)) != 0)
        fail_msg("consumer actions rejected: %s", err);
    act(0)->da_arg2 = hdr()->dh_strlen + 5;
    expect_reject("action 0: bad option or file name");
    compile(src);
    act(1)->da_arg = hdr()->dh_strlen;
    expect_reject("action 1: bad option or file name");
    compile(src);
    act(2)->da_arg = hdr()->dh_strlen + 1;
    expect_reject("action 2: bad format");
}

/* Memory variables (structs, declared arrays) and the store instructions: accepted as the
 * compiler emits them; a memory variable of another scope or of size 0 or past the limit,
 * a whole-variable store to one, a store with a bad register or reserved bits, refused. */
static void vars_k(unsigned k, struct dif_var **v)
{
    *v = (struct dif_var *)((uint8_t *)blob + hdr()->dh_vars) + k;
}

/* Struct-valued associative arrays: the value's size rides in dv_size | dv_signed << 8 (in
 * words); accepted as compiled, refused at size 0, past DIF_MEMVAR_MAX, with bad keys, or
 * stored as a whole by DIF_STGA. */
static void test_struct_array_vars(void **state)
{
    (void)state;
    struct dif_obj o;
    char err[256];
    struct dif_var *v;
    const char *src = "struct s { int a; long b; string n; } r[int];\n"
                      "BEGIN { r[1].a = 1; r[1].n = \"x\"; }";
    compile(src);
    if (dif_verify(blob, bloblen, &o, err, sizeof(err)) != 0)
        fail_msg("struct-valued array rejected: %s", err);
    vars_k(0, &v);
    assert_int_equal(v->dv_scope, DIF_SCOPE_ARRAY);
    assert_int_equal(v->dv_type, DIF_TYPE_MEM);
    assert_int_equal(dif_var_memsize(v), 16 + 256);
    compile(src);
    vars_k(0, &v);
    v->dv_size = 0;
    v->dv_signed = 0;
    expect_reject("variable 0: bad struct value size or key types");
    compile(src);
    vars_k(0, &v);
    v->dv_size = 1;
    v->dv_signed = (DIF_MEMVAR_MAX / 8) >> 8; /* one word past the limit */
    expect_reject("variable 0: bad struct value size or key types");
    compile(src);
    vars_k(0, &v);
    v->dv_keys = 0; /* "": an array has at least one key */
    expect_reject("variable 0: bad struct value size or key types");
    compile(src);
    uint32_t *p = prog(0);
    unsigned k = 0;
    while (DIF_OP(p[k]) != DIF_LDGA)
        k++;
    p[k] = DIF_INSTR_IDX(DIF_STGA, DIF_IDX(p[k]), DIF_RD(p[k]));
    expect_reject("stores to a memory variable as a whole");
}

static void test_memory_vars(void **state)
{
    (void)state;
    struct dif_obj o;
    char err[256];
    struct dif_var *v;
    const char *src = "struct s { int a; long b; } x; int arr[3];\n"
                      "BEGIN { x.a = 1; arr[2] = x.a; }";
    compile(src);
    if (dif_verify(blob, bloblen, &o, err, sizeof(err)) != 0)
        fail_msg("memory variables rejected: %s", err);
    vars_k(0, &v);
    assert_int_equal(v->dv_type, DIF_TYPE_MEM);
    assert_int_equal(v->dv_keys, 16);
    vars_k(1, &v);
    assert_int_equal(v->dv_keys, 12);
    int stores = 0;
    for (uint32_t k = 0; k < act(0)->da_prog.dp_len; k++)
        stores += DIF_OP(prog(0)[k]) == DIF_STW;
    assert_int_equal(stores, 1);
    compile(src);
    vars_k(0, &v);
    v->dv_scope = DIF_SCOPE_SELF;
    expect_reject("variable 0: bad memory variable scope or size");
    compile(src);
    vars_k(1, &v);
    v->dv_keys = 0;
    expect_reject("variable 1: bad memory variable scope or size");
    compile(src);
    vars_k(1, &v);
    v->dv_keys = DIF_MEMVAR_MAX + 1;
    expect_reject("variable 1: bad memory variable scope or size");
    compile(src);
    prog(0)[0] = DIF_INSTR_IDX(DIF_STGV, 0, 1);
    expect_reject("action 0 pc 0: stores to a memory variable as a whole");
    compile(src);
    prog(0)[0] = DIF_INSTR(DIF_STX, 1, 0, DIF_NREGS);
    expect_reject("action 0 pc 0: invalid register");
    compile(src);
    prog(0)[0] = DIF_INSTR(DIF_STB, 1, 3, 2);
    expect_reject("action 0 pc 0: reserved bits set");
}

/* llquantize's parameters are checked so that no size the engine computes can overflow:
 * llquantize(v, 512, 0, 6, 511) made factor^(high + 1) = 2^63 and a bucket count past the
 * aggregation's values; a bucket count past the limit is refused too. */
static void test_llquantize_sizes(void **state)
{
    (void)state;
    struct dif_obj o;
    char err[256];
    compile("BEGIN { @ = llquantize(1, 10, 0, 6, 20); }");
    if (dif_verify(blob, bloblen, &o, err, sizeof(err)) != 0)
        fail_msg("llquantize rejected: %s", err);
    struct dif_agg *g = (struct dif_agg *)((uint8_t *)blob + hdr()->dh_aggs);
    assert_int_equal(g->dg_func, DIF_AGG_LLQUANTIZE);
    const int64_t bad[][4] = {
        { 512, 0, 6, 511 },     /* 512^7 = 2^63 */
        { 2, 0, 62, 1 },        /* 2^63 */
        { 10, 0, 18, 10 },      /* 10^19 */
        { 1000, 0, 6, 1000 },   /* 1000^7 = 10^21 */
        { 3, 0, 39, 1 },        /* 3^40 > 2^63 / 2 (sums of two powers would overflow) */
        { 2, 0, 40, 1000 },     /* 2^41 fits; about 40,000 buckets do not */
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        compile("BEGIN { @ = llquantize(1, 10, 0, 6, 20); }");
        g = (struct dif_agg *)((uint8_t *)blob + hdr()->dh_aggs);
        memcpy(g->dg_param, bad[i], sizeof(bad[i]));
        expect_reject("aggregation 0: bad function or parameters");
    }
    compile("BEGIN { @ = llquantize(1, 10, 0, 6, 20); }");
    g = (struct dif_agg *)((uint8_t *)blob + hdr()->dh_aggs);
    memcpy(g->dg_param, (const int64_t[]){ 2, 0, 60, 1 }, 4 * sizeof(int64_t));
    if (dif_verify(blob, bloblen, &o, err, sizeof(err)) != 0)
        fail_msg("llquantize(2, 0, 60, 1) rejected: %s", err);
}

/* An update with an increment (quantize(v, incr) ...) is its own action kind; only the
 * quantize family has an increment, so the kind on a count( ) is refused. */
static void test_agg_increment(void **state)
{
    (void)state;
    struct dif_obj o;
    char err[256];
    compile("BEGIN { @q = quantize(3, -4); @c = count(); }");
    assert_int_equal(act(0)->da_kind, DIF_ACT_AGGINCR);
    assert_int_equal(act(1)->da_kind, DIF_ACT_AGG);
    if (dif_verify(blob, bloblen, &o, err, sizeof(err)) != 0)
        fail_msg("quantize increment rejected: %s", err);
    act(1)->da_kind = DIF_ACT_AGGINCR;
    expect_reject("action 1: increment on an aggregation without one");
}

static void test_random_mutations(void **state)
{
    (void)state;
    /* whatever a flip does, the verifier answers without crashing */
    srand(1);
    for (int k = 0; k < 2000; k++) {
        struct dif_obj o;
        char err[256];
        compile("BEGIN /arg0 > 1/ { @a[probefunc, arg1] = quantize(arg2); printf(\"%d %s\", 1, \"x\"); }");
        for (int j = 0; j < 4; j++)
            ((uint8_t *)blob)[rand() % bloblen] ^= (uint8_t)(1u << (rand() % 8));
        (void)dif_verify(blob, bloblen, &o, err, sizeof(err));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accepts_compiled), cmocka_unit_test(test_bad_opcode),
        cmocka_unit_test(test_writes_r0),        cmocka_unit_test(test_backward_branch),
        cmocka_unit_test(test_branch_outside),   cmocka_unit_test(test_last_not_ret),
        cmocka_unit_test(test_register_range),   cmocka_unit_test(test_reserved_bits),
        cmocka_unit_test(test_table_indices),    cmocka_unit_test(test_predicate_pc),
        cmocka_unit_test(test_header),           cmocka_unit_test(test_random_mutations),
        cmocka_unit_test(test_tracemem_size), cmocka_unit_test(test_llquantize_sizes),
        cmocka_unit_test(test_stack_action), cmocka_unit_test(test_consumer_actions),
        cmocka_unit_test(test_scratch_flag),
        cmocka_unit_test(test_agg_increment),     cmocka_unit_test(test_joined_printa),
        cmocka_unit_test(test_memory_vars),       cmocka_unit_test(test_struct_array_vars),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
