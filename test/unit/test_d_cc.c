// SPDX-License-Identifier: MIT
// Unit tests of the D compiler's code: random integer expressions compiled, verified and run
// must give what C computes (64-bit wrap-around, C precedence, short-circuit, ?:); error
// messages carry the right line and tag.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <d/dcc.h>
#include <d/dcons.h>
#include <d/dobj_opts.h>
#include <d/dprinfo.h>
#include <d/dprobes.h>
#include <d/dvm.h>
#include <d/dobj_file.h>
#include <d/optval.h>
#include <d/dtarget.h>

static uint8_t arena[2 << 20] __attribute__((aligned(8)));
static uint8_t mem[1 << 20] __attribute__((aligned(8)));
static struct dvm_state st;

/* gen: a random expression as text and its value in C. */
static int64_t gen(char *buf, size_t sz, int depth)
{
    int kind = depth <= 0 ? 0 : rand() % 12;
    char a[1024], b[1024], c[1024];
    int64_t x, y, z;
    switch (kind) {
    case 0: case 1:
        x = rand() % 201 - 100;
        snprintf(buf, sz, x < 0 ? "(-%lldL)" : "%lldL", (long long)(x < 0 ? -x : x));
        return x;
    case 2: case 3: case 4: case 5: {
        static const char *const ops[] = { "+", "-", "*", "&", "|", "^", "<<", ">>", "/", "%" };
        int op = rand() % 10;
        x = gen(a, sizeof(a), depth - 1);
        if (op >= 6) { /* shifts by a small constant, division by a non-zero constant */
            y = op >= 8 ? (rand() % 9) + 1 : rand() % 8;
            snprintf(b, sizeof(b), "%lldL", (long long)y);
        } else {
            y = gen(b, sizeof(b), depth - 1);
        }
        snprintf(buf, sz, "(%s %s %s)", a, ops[op], b);
        switch (op) {
        case 0: return (int64_t)((uint64_t)x + (uint64_t)y);
        case 1: return (int64_t)((uint64_t)x - (uint64_t)y);
        case 2: return (int64_t)((uint64_t)x * (uint64_t)y);
        case 3: return x & y;
        case 4: return x | y;
        case 5: return x ^ y;
        case 6: return (int64_t)((uint64_t)x << y);
        case 7: return x >> y;
        case 8: return x / y;
        default: return x % y;
        }
    }
    case 6: case 7: {
        static const char *const ops[] = { "<", ">", "<=", ">=", "==", "!=" };
        int op = rand() % 6;
        x = gen(a, sizeof(a), depth - 1);
        y = gen(b, sizeof(b), depth - 1);
        snprintf(buf, sz, "(%s %s %s)", a, ops[op], b);
        int r[] = { x < y, x > y, x <= y, x >= y, x == y, x != y };
        return r[op];
    }
    case 8: {
        static const char *const ops[] = { "&&", "||", "^^" };
        int op = rand() % 3;
        x = gen(a, sizeof(a), depth - 1);
        y = gen(b, sizeof(b), depth - 1);
        snprintf(buf, sz, "(%s %s %s)", a, ops[op], b);
        return op == 0 ? (x && y) : op == 1 ? (x || y) : (!x != !y);
    }
    case 9:
        x = gen(a, sizeof(a), depth - 1);
        y = gen(b, sizeof(b), depth - 1);
        z = gen(c, sizeof(c), depth - 1);
        snprintf(buf, sz, "(%s ? %s : %s)", a, b, c);
        return x ? y : z;
    case 10:
        x = gen(a, sizeof(a), depth - 1);
        snprintf(buf, sz, "(-%s)", a);
        return (int64_t)(0 - (uint64_t)x);
    default:
        x = gen(a, sizeof(a), depth - 1);
        if (rand() % 2) {
            snprintf(buf, sz, "(~%s)", a);
            return ~x;
        }
        snprintf(buf, sz, "(!%s)", a);
        return !x;
    }
}

static void value_cb(void *arg, const struct dvm_rechdr *h)
{
    memcpy(arg, h + 1, 8);
}

static void test_random_expressions(void **state)
{
    (void)state;
    srand(5);
    for (int k = 0; k < 1500; k++) {
        char e[1024], src[1200];
        int64_t want = gen(e, sizeof(e), 1 + k % 4);
        snprintf(src, sizeof(src), "BEGIN { trace((long)(%s)); }", e);
        struct dcc_in in = { src, strlen(src), 0, 1, NULL, 0 };
        struct dcc_out out;
        if (dcc_compile(&in, arena, sizeof(arena), &out) != 0)
            fail_msg("%s: %s", src, out.err);
        struct dvm_opts o = { 4096, 4096, 4096, DVM_BUF_SWITCH, 1, 1, 0, 0, 0 };
        char err[256];
        if (dvm_load(&st, out.obj, out.objlen, &o, mem, sizeof(mem), err, sizeof(err)) != 0)
            fail_msg("%s: %s", src, err);
        struct dvm_ctx ctx = { 0, 1, 1, 1, 0, 0, 0, 0, "t", 0, 1 };
        dvm_fire(&st, &ctx, DPROBE_BEGIN, NULL);
        int64_t got = INT64_MIN + 12345;
        dvm_buf_read(&st, 0, 1, value_cb, &got);
        if (got != want)
            fail_msg("%s: got %lld, want %lld", e, (long long)got, (long long)want);
    }
}

/* run_long: compiles src, fires BEGIN and returns the 8-byte value its first record holds. */
static int64_t run_long(const char *src)
{
    struct dcc_in in = { src, strlen(src), 0, 1, NULL, 0 };
    struct dcc_out out;
    if (dcc_compile(&in, arena, sizeof(arena), &out) != 0)
        fail_msg("%s: %s", src, out.err);
    struct dvm_opts o = { 4096, 4096, 4096, DVM_BUF_SWITCH, 1, 1, 0, 0, 0 };
    char err[256];
    if (dvm_load(&st, out.obj, out.objlen, &o, mem, sizeof(mem), err, sizeof(err)) != 0)
        fail_msg("%s: %s", src, err);
    struct dvm_ctx ctx = { 0, 1, 1, 1, 0, 0, 0, 0, "t", 0, 1 };
    dvm_fire(&st, &ctx, DPROBE_BEGIN, NULL);
    int64_t got = INT64_MIN + 12345;
    dvm_buf_read(&st, 0, 1, value_cb, &got);
    return got;
}

/* strtoll(s, base) against the C library's for random values in random bases (DTrace's
 * parse is C's within range, without C's 0x in base 0), and the built-ins the compiler
 * turns into constants or context reads (run_long's context: pid 1, prio 0, one thread). */
static void test_strtoll_procinfo(void **state)
{
    (void)state;
    srand(7);
    for (int k = 0; k < 300; k++) {
        int base = 2 + rand() % 35;
        int64_t v = ((int64_t)rand() << 31 | rand()) % 1000000000000ll - 500000000000ll;
        char digits[80], src[200];
        uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
        int n = 0;
        do {
            int d = (int)(m % (uint64_t)base);
            digits[n++] = (char)(d < 10 ? '0' + d : (k & 1 ? 'a' : 'A') + d - 10);
            m /= (uint64_t)base;
        } while (m);
        char text[82];
        int t = 0;
        if (v < 0)
            text[t++] = '-';
        while (n)
            text[t++] = digits[--n];
        text[t] = 0;
        assert_int_equal(strtoll(text, NULL, base), v);
        snprintf(src, sizeof(src), "BEGIN { trace(strtoll(\"%s\", %d)); }", text, base);
        assert_int_equal(run_long(src), v);
    }
    assert_int_equal(run_long("BEGIN { trace((long)curpsinfo->pr_pid); }"), 1);
    assert_int_equal(run_long("BEGIN { trace((long)curpsinfo->pr_nlwp); }"), 1);
    assert_int_equal(run_long("BEGIN { trace((long)curlwpsinfo->pr_sname); }"), 'O');
    assert_int_equal(run_long("BEGIN { trace((long)DTRACEFLT_TUPOFLOW); }"), 8);
    assert_int_equal(run_long("BEGIN { trace((long)(caller + ipl + stackdepth)); }"), 0);
    struct dcc_out out;
    static const char *const bad[][2] = {
        { "BEGIN { trace(curlwpsinfo->pr_nice); }", "D_XLATE_NOCONV" },
        { "BEGIN { trace(curpsinfo->pr_bogus); }", "D_TYPE_MEMBER" },
        { "BEGIN { trace(curpsinfo); }", "D_UNSUPPORTED" },
    };
    for (size_t j = 0; j < sizeof(bad) / sizeof(bad[0]); j++) {
        struct dcc_in in = { bad[j][0], strlen(bad[j][0]), 0, 1, NULL, 0 };
        assert_int_not_equal(dcc_compile(&in, arena, sizeof(arena), &out), 0);
        assert_string_equal(out.tag, bad[j][1]);
    }
}

/* alloca( ): scratch the program may write, only the bytes it was given: a store one element
 * past them faults, so the first record is the error record (EPID 1, action #2 in its first
 * 8 bytes) instead of the trace. */
static void test_alloca(void **state)
{
    (void)state;
    const int64_t fault_in_action2 = (int64_t)2 << 32 | 1;
    assert_int_equal(run_long("BEGIN { this->p = (long *)alloca(16); this->p[1] = 77; "
                              "trace(this->p[0] + this->p[1]); }"), 77);
    assert_int_equal(run_long("BEGIN { this->p = (long *)alloca(8); this->p[1] = 5; trace(1L); }"),
                     fault_in_action2);
    assert_int_equal(run_long("BEGIN { this->p = (long *)alloca(8); this->p[-1] = 5; trace(1L); }"),
                     fault_in_action2);
}

/* Macro variables come from dcc_in.macros; without them every $name is D_MACRO_UNDEF. */
static void test_macros(void **state)
{
    (void)state;
    struct dcc_macros m = { .pid = 42, .ppid = 7, .pgid = 3, .sid = 4, .uid = 1000, .gid = 100,
                           .euid = 1001, .egid = 101 };
    const char *src = "BEGIN { trace((long)($pid * 1000 + $ppid * 100 + $egid)); }";
    struct dcc_in in = { src, strlen(src), 0, 1, &m, 0 };
    struct dcc_out out;
    if (dcc_compile(&in, arena, sizeof(arena), &out) != 0)
        fail_msg("%s", out.err);
    struct dvm_opts o = { 4096, 4096, 4096, DVM_BUF_SWITCH, 1, 1, 0, 0, 0 };
    char err[256];
    if (dvm_load(&st, out.obj, out.objlen, &o, mem, sizeof(mem), err, sizeof(err)) != 0)
        fail_msg("%s", err);
    struct dvm_ctx ctx = { 0, 1, 1, 1, 0, 0, 0, 0, "t", 0, 1 };
    dvm_fire(&st, &ctx, DPROBE_BEGIN, NULL);
    int64_t got = 0;
    dvm_buf_read(&st, 0, 1, value_cb, &got);
    assert_int_equal(got, 42 * 1000 + 7 * 100 + 101);
    /* $target: 0 without -c / -p (as libdtrace's macro before a process is grabbed), else
     * the process's id; a run-time value in a predicate, as `pid == $target` is used */
    src = "BEGIN { trace((long)$target); }";
    in.src = src;
    in.len = strlen(src);
    for (int64_t t = 0; t <= 3; t += 3) {
        m.target = t;
        if (dcc_compile(&in, arena, sizeof(arena), &out) != 0)
            fail_msg("%s", out.err);
        if (dvm_load(&st, out.obj, out.objlen, &o, mem, sizeof(mem), err, sizeof(err)) != 0)
            fail_msg("%s", err);
        dvm_fire(&st, &ctx, DPROBE_BEGIN, NULL);
        got = -1;
        dvm_buf_read(&st, 0, 1, value_cb, &got);
        assert_int_equal(got, t);
    }
    in.macros = NULL;
    assert_int_not_equal(dcc_compile(&in, arena, sizeof(arena), &out), 0);
    assert_string_equal(out.tag, "D_MACRO_UNDEF");
}

static int fake_symbol(const char *module, const char *name, uint64_t *addr)
{
    if ((module[0] && strcmp(module, "kernel") != 0) || strcmp(name, "kdt_fire") != 0)
        return -1;
    *addr = 0x89dc;
    return 0;
}

/* run_args: compiles src with script arguments argv (argc of them, $0 first) and the given
 * flags, fires BEGIN, and returns its first record's 8-byte value; or, when the compile fails,
 * INT64_MIN with the error's tag in *tag. */
static int64_t run_args(const char *src, const char *const *argv, unsigned argc, int defaultargs,
                        int argref, char *tag)
{
    struct dcc_macros m = { .noids = 1, .argv = argv, .argc = argc,
                            .defaultargs = defaultargs, .argref = argref };
    struct dcc_in in = { src, strlen(src), 0, 1, &m, 0 };
    struct dcc_out out;
    tag[0] = 0;
    if (dcc_compile(&in, arena, sizeof(arena), &out) != 0) {
        strcpy(tag, out.tag);
        return INT64_MIN;
    }
    struct dvm_opts o = { 4096, 4096, 4096, DVM_BUF_SWITCH, 1, 1, 0, 0, 0 };
    char err[256];
    if (dvm_load(&st, out.obj, out.objlen, &o, mem, sizeof(mem), err, sizeof(err)) != 0)
        fail_msg("%s: %s", src, err);
    struct dvm_ctx ctx = { 0, 1234, 1, 1, 0, 0, 0, 0, "t", 0, 1 };
    dvm_fire(&st, &ctx, DPROBE_BEGIN, NULL);
    int64_t got = INT64_MIN + 1;
    dvm_buf_read(&st, 0, 1, value_cb, &got);
    return got;
}

/* $pid in a program compiled for a board (pid_at_run): the consumer's pid the host sets when it
 * loads the program (the kernel: the loading process's), read where the program uses it, in a
 * predicate too; its string form and the other ids stay undefined there. */
static void test_pid_at_run(void **state)
{
    (void)state;
    static const char *const av[] = { "x.d" };
    struct dcc_macros m = { .noids = 1, .pid_at_run = 1, .argv = av, .argc = 1 };
    const char *src = "BEGIN /pid != $pid/ { trace((long)$pid * 10000 + pid); }";
    struct dcc_in in = { src, strlen(src), 0, 1, &m, 0 };
    struct dcc_out out;
    assert_int_equal(dcc_compile(&in, arena, sizeof(arena), &out), 0);
    struct dvm_opts o = { 4096, 4096, 4096, DVM_BUF_SWITCH, 1, 1, 0, 0, 0 };
    char err[256];
    assert_int_equal(dvm_load(&st, out.obj, out.objlen, &o, mem, sizeof(mem), err, sizeof(err)), 0);
    st.consumer_pid = 4321;
    struct dvm_ctx ctx = { 0, 77, 1, 1, 0, 0, 0, 0, "acq", 0, 1 };  /* another process */
    dvm_fire(&st, &ctx, DPROBE_BEGIN, NULL);
    int64_t got = INT64_MIN + 1;
    dvm_buf_read(&st, 0, 1, value_cb, &got);
    assert_int_equal(got, 43210077);
    const char *bad[] = { "BEGIN { trace($$pid); }", "BEGIN { trace($ppid); }" };
    for (unsigned k = 0; k < 2; k++) {
        struct dcc_in b = { bad[k], strlen(bad[k]), 0, 1, &m, 0 };
        assert_int_not_equal(dcc_compile(&b, arena, sizeof(arena), &out), 0);
        assert_string_equal(out.tag, "D_MACRO_UNDEF");
    }
}

/* Script arguments as dtrace(1M)'s operands (libdtrace's dt_lex.l): $N is the argument's text
 * substituted as an integer, an identifier or else a string; $$N always the string; $0 the
 * script; a missing one is D_MACRO_UNDEF unless defaultargs (0, ""); the last one must be
 * named (D_MACRO_UNUSED) unless argref; probe descriptions take them too. */
static void test_script_args(void **state)
{
    (void)state;
    char tag[24];
    const char *av[] = { "x.d", "42", "pid", "hello world", "\"quoted\"", "-0x10", "99999999999999999999" };
    assert_int_equal(run_args("BEGIN { trace((long)$1); }", av, 2, 0, 0, tag), 42);
    assert_int_equal(run_args("BEGIN { trace((long)$2 + $1); }", av, 3, 0, 0, tag), 1234 + 42);
    assert_int_equal(run_args("BEGIN { trace(strlen($3)); trace($1 + $2); }", av, 4, 0, 0, tag), 11);
    assert_int_equal(run_args("BEGIN { trace(strlen($4)); trace($3); }", av, 5, 0, 0, tag), 6);
    assert_int_equal(run_args("BEGIN { trace((long)$5); trace($$4); }", av, 6, 0, 0, tag), -16);
    assert_int_equal(run_args("BEGIN { trace(strlen($$1)); }", av, 2, 0, 0, tag), 2);
    assert_int_equal(run_args("BEGIN { trace(strlen($0)); }", av, 1, 0, 0, tag), 3);
    assert_int_equal(run_args("BEGIN { trace(strlen($$0)); }", av, 1, 0, 0, tag), 3);
    assert_int_equal(run_args("BEGIN { trace((long)$1); }", av, 1, 0, 0, tag), INT64_MIN);
    assert_string_equal(tag, "D_MACRO_UNDEF");
    assert_int_equal(run_args("BEGIN { trace((long)$1 + strlen($$2)); }", av, 1, 1, 0, tag), 0);
    assert_int_equal(run_args("#pragma D option defaultargs\nBEGIN { trace((long)$3); }", av, 1,
                              0, 0, tag), 0);
    assert_int_equal(run_args("BEGIN { trace((long)$1); }", av, 3, 0, 0, tag), INT64_MIN);
    assert_string_equal(tag, "D_MACRO_UNUSED");
    assert_int_equal(run_args("BEGIN { trace((long)$1); }", av, 3, 0, 1, tag), 42);
    assert_int_equal(run_args("BEGIN { trace((long)$6); }", av, 7, 0, 0, tag), INT64_MIN);
    assert_string_equal(tag, "D_MACRO_OFLOW");
    assert_int_equal(run_args("BEGIN { trace((long)$pid); }", av, 1, 0, 0, tag), INT64_MIN);
    assert_string_equal(tag, "D_MACRO_UNDEF");  /* noids: a board's compile has no $pid */
    const char *pd[] = { "x.d", "BEGIN" };
    assert_int_equal(run_args(":::$1 { trace(7L); }", pd, 2, 0, 0, tag), 7);
    /* kernel symbols in backquotes: &`sym the front end's address, its value unsupported
     * without the front end's variables (dcc_kvar), an unknown name libdtrace's D_IDENT_UNDEF */
    dcc_symbol = fake_symbol;
    assert_int_equal(run_args("BEGIN { trace((long)&`kdt_fire); }", av, 1, 0, 0, tag), 0x89dc);
    assert_int_equal(run_args("BEGIN { trace((long)&kernel`kdt_fire); }", av, 1, 0, 0, tag),
                     0x89dc);
    assert_int_equal(run_args("BEGIN { trace(`kdt_fire); }", av, 1, 0, 0, tag), INT64_MIN);
    assert_string_equal(tag, "D_UNSUPPORTED");
    assert_int_equal(run_args("BEGIN { trace((long)&`nosuch); }", av, 1, 0, 0, tag), INT64_MIN);
    assert_string_equal(tag, "D_IDENT_UNDEF");
    dcc_symbol = NULL;
    /* a #! line is discarded wherever it stands, as libdtrace's lexer does */
    assert_int_equal(run_args("/* header */\n#!/usr/sbin/dtrace -s\nBEGIN { trace(5L); }", av, 1,
                              0, 0, tag), 5);
}

/* The threads and processes this test's engine host knows (d/dprinfo.h), by who; the
 * first is the firing context of run_long (pid 1, tid 1, running). */
static struct { uint32_t who; struct dvm_lwpinfo li; } fake[8] = {
    { 0x10001, { .state = 1, .left = 1, .nlwp = 1, .fname = "t" } },
};
static unsigned nfake = 1;

int dvm_lwpinfo(uint32_t who, struct dvm_lwpinfo *out)
{
    for (unsigned k = 0; k < nfake; k++)
        if (fake[k].who == who || (!(who & 0xffffu) && fake[k].who >> 16 == who >> 16)) {
            *out = fake[k].li;
            return 0;
        }
    return -1;
}

static void rec_cb(void *arg, const struct dvm_rechdr *h)
{
    if (h->rh_size > sizeof(*h))
        memcpy(arg, h + 1, h->rh_size - sizeof(*h) < 64 ? h->rh_size - sizeof(*h) : 64);
}

/* fire_probe: compiles src, fires probe id once with args a0..a3 in the context of thread
 * pid/tid, and returns the first record's first 8 bytes (a string's first bytes in *text when
 * text is not NULL). */
static int64_t fire_probe(const char *src, uint32_t id, int32_t pid, int32_t tid, uint64_t a0,
                          uint64_t a1, uint64_t a2, uint64_t a3, char *text)
{
    struct dcc_in in = { src, strlen(src), 0, 1, NULL, 0 };
    struct dcc_out out;
    if (dcc_compile(&in, arena, sizeof(arena), &out) != 0)
        fail_msg("%s: %s", src, out.err);
    struct dvm_opts o = { 4096, 4096, 4096, DVM_BUF_SWITCH, 1, 1, 0, 0, 0 };
    char err[256];
    if (dvm_load(&st, out.obj, out.objlen, &o, mem, sizeof(mem), err, sizeof(err)) != 0)
        fail_msg("%s: %s", src, err);
    struct dvm_ctx ctx = { 0, pid, tid, 1, 0, 0, 0, 0, "t", 0, 1 };
    uint64_t args[DVM_NARGS] = { a0, a1, a2, a3 };
    dvm_fire(&st, &ctx, id, args);
    char rec[64] = { 0 };
    dvm_buf_read(&st, 0, 1, rec_cb, rec);
    if (text)
        memcpy(text, rec, sizeof(rec));
    int64_t v;
    memcpy(&v, rec, 8);
    return v;
}

/* psinfo_t, lwpsinfo_t and cpuinfo_t (procinfo.c, d/dprinfo.h) against Solaris's constants
 * (illumos's procfs.d, sys/proc.h, sys/sobject.h, sys/procfs.h), this kernel's states mapped
 * as docs/d-probes.md says. */
static void test_translators(void **state)
{
    (void)state;
    /* pid 2: a program (its parent 1, three threads); pid 0: the idle thread */
    static const struct { unsigned kstate, pr_state; char sname; unsigned stype; } map[] = {
        { 1, 6, 'O', 0 }, { 2, 2, 'R', 0 }, { 3, 4, 'T', 0 }, { 0, 3, 'Z', 0 },
        { 4, 1, 'S', 7 }, { 5, 1, 'S', 7 }, { 6, 1, 'S', 7 }, { 13, 1, 'S', 6 },
        { 14, 1, 'S', 3 }, { 12, 1, 'S', 3 }, { 15, 1, 'S', 3 }, { 16, 1, 'S', 3 },
        { 17, 1, 'S', 4 },
    };
    nfake = 3;
    fake[1].who = 0x20003;
    fake[1].li = (struct dvm_lwpinfo){ .ppid = 1, .nlwp = 3, .fname = "srv", .cpu = 0 };
    fake[2].who = 0x00001;
    fake[2].li = (struct dvm_lwpinfo){ .state = 1, .left = 1, .idle = 1, .nlwp = 1,
                                       .fname = "kernel" };
    for (size_t k = 0; k < sizeof(map) / sizeof(map[0]); k++) {
        fake[1].li.state = fake[1].li.left = (uint8_t)map[k].kstate;
        assert_int_equal(fire_probe("sched:::sleep { trace((long)args[0]->pr_state); }",
                                    DPROBE_SCHED_SLEEP, 1, 1, 0x20003, 2, 10, 0, NULL),
                         map[k].pr_state);
        assert_int_equal(fire_probe("sched:::sleep { trace((long)args[0]->pr_sname); }",
                                    DPROBE_SCHED_SLEEP, 1, 1, 0x20003, 2, 10, 0, NULL),
                         map[k].sname);
        assert_int_equal(fire_probe("sched:::sleep { trace((long)args[0]->pr_stype); }",
                                    DPROBE_SCHED_SLEEP, 1, 1, 0x20003, 2, 10, 0, NULL),
                         map[k].stype);
        /* off-cpu: the state it goes off in is the probe's arg3, whatever the thread is now */
        assert_int_equal(fire_probe("sched:::off-cpu { trace((long)curlwpsinfo->pr_state); }",
                                    DPROBE_SCHED_OFFCPU, 1, 1, 0x20003, 2, 10, map[k].kstate,
                                    NULL), map[k].pr_state);
    }
    /* woken: READY, the object it slept on still its pr_stype (xwork.d's wakeup) */
    fake[1].li.state = 2;
    fake[1].li.left = 14;
    assert_int_equal(fire_probe("sched:::wakeup /args[0]->pr_stype == SOBJ_CV && "
                                "args[0]->pr_state == SRUN/ { trace(1L); }",
                                DPROBE_SCHED_WAKEUP, 1, 1, 0x20003, 2, 10, 14, NULL), 1);
    /* the constants */
    assert_int_equal(run_long("BEGIN { trace((long)(SSLEEP * 100 + SRUN * 10 + SONPROC)); }"),
                     126);
    assert_int_equal(run_long("BEGIN { trace((long)(SOBJ_MUTEX + SOBJ_SHUTTLE * 10)); }"), 71);
    assert_int_equal(run_long("BEGIN { trace((long)(PR_IDLE | PR_ISSYS)); }"), 0x1400);
    /* flags: the idle thread is PR_IDLE | PR_ISSYS, a program's thread neither */
    assert_int_equal(fire_probe("sched:::on-cpu { trace((long)curlwpsinfo->pr_flag); }",
                                DPROBE_SCHED_ONCPU, 0, 1, 1, 0, 0, 0, NULL), 0x1400);
    assert_int_equal(fire_probe("sched:::on-cpu { trace((long)args[0]->pr_flag); }",
                                DPROBE_SCHED_ONCPU, 0, 1, 0x20003, 2, 10, 0, NULL), 0);
    /* another process's psinfo_t: its name, parent, threads; the thread's class */
    char text[64];
    fire_probe("sched:::wakeup { trace(args[1]->pr_fname); }", DPROBE_SCHED_WAKEUP, 1, 1,
               0x20003, 2, 10, 5, text);
    assert_string_equal(text, "srv");
    assert_int_equal(fire_probe("sched:::wakeup { trace((long)(args[1]->pr_ppid * 10 + "
                                "args[1]->pr_nlwp)); }", DPROBE_SCHED_WAKEUP, 1, 1, 0x20003, 2,
                                10, 5, NULL), 13);
    fire_probe("sched:::wakeup { trace(args[0]->pr_clname); }", DPROBE_SCHED_WAKEUP, 1, 1,
               0x20003, 2, 10, 5, text);
    assert_string_equal(text, "RT");
    fire_probe("sched:::wakeup { trace(curlwpsinfo->pr_clname); }", DPROBE_SCHED_WAKEUP, 0, 1,
               0x20003, 2, 10, 5, text);
    assert_string_equal(text, "SYS");
    fire_probe("proc:::create { trace(args[0]->pr_fname); }", DPROBE_PROC_CREATE, 1, 1, 2, 1,
               0, 0, text);
    assert_string_equal(text, "srv");
    /* one id for a thread everywhere: curlwpsinfo->pr_addr is its args[0]->pr_addr */
    assert_int_equal(fire_probe("sched:::on-cpu /curlwpsinfo->pr_addr == args[0]->pr_addr/ "
                                "{ trace(1L); }", DPROBE_SCHED_ONCPU, 2, 3, 0x20003, 2, 10, 0,
                                NULL), 1);
    /* enqueue's args[2]: the CPU whose queue (arg3; -1: no CPU's) */
    assert_int_equal(fire_probe("sched:::enqueue { trace((long)args[2]->cpu_id); }",
                                DPROBE_SCHED_ENQUEUE, 1, 1, 0x20003, 2, 10, (uint64_t)-1, NULL),
                     -1);
    assert_int_equal(fire_probe("sched:::dequeue { trace((long)(curcpu->cpu_id * 10 + "
                                "args[2]->cpu_id)); }", DPROBE_SCHED_DEQUEUE, 1, 1, 0x20003, 2,
                                10, 3, NULL), 3);
    /* a clause whose probes type args[2] differently; args[] of a probe with integers */
    struct dcc_out out;
    const char *multi = "sched:::enqueue, sched:::wakeup { trace(args[2]->cpu_id); }";
    struct dcc_in in = { multi, strlen(multi), 0, 1, NULL, 0 };
    assert_int_equal(dcc_compile(&in, arena, sizeof(arena), &out), -1);
    assert_string_equal(out.tag, "D_ARGS_MULTI");
    const char *intarg = "msg:::send { trace(args[0]->pr_pid); }";
    in.src = intarg;
    in.len = strlen(intarg);
    assert_int_equal(dcc_compile(&in, arena, sizeof(arena), &out), -1);
    assert_string_equal(out.tag, "D_TYPE_MEMBER");
    nfake = 1;
}

static void buf_write(void *arg, const char *s, size_t n)
{
    char *b = arg;
    size_t l = strlen(b);
    memcpy(b + l, s, n);
    b[l + n] = 0;
}

/* printf's %Y and %T against the C library's gmtime and strftime (libdtrace builds them from
 * ctime and "%a, %d %b %G %T %Z"), at random times from 1970 to 2255. */
static void test_printf_times(void **state)
{
    (void)state;
    srand(3);
    for (int k = 0; k < 2000; k++) {
        time_t t = (time_t)(((uint64_t)rand() << 31 | (uint64_t)rand()) % 9000000000ull);
        struct tm tm;
        char want[80], got[80] = "";
        gmtime_r(&t, &tm);
        strftime(want, sizeof(want), k & 1 ? "%a, %d %b %G %T UTC" : "%Y %b %e %T", &tm);
        struct dcons_out o = { buf_write, got };
        struct dfmt_spec sp = { k & 1 ? 'T' : 'Y', 0, 0, 0, 0, 0, 0, -1, -1 };
        dfmt_int(&o, &sp, (int64_t)t * 1000000000, 'L');
        assert_string_equal(got, want);
    }
}

/* printf's %e %f %g (and E, F, G) of a float's or a double's bits against the C library's
 * printf of the same value: random bits (denormals, infinities and NaNs among them), and
 * decimal fractions, with flags, widths and precisions. As libdtrace writes a precision into
 * the format only when it is above 0, %.0f prints as %f. */
static void test_printf_floats(void **state)
{
    (void)state;
    static const char *const convs[][2] = {
        { "%e", "%e" }, { "%f", "%f" }, { "%g", "%g" }, { "%E", "%E" }, { "%G", "%G" },
        { "%F", "%F" }, { "%.3f", "%.3f" }, { "%.10g", "%.10g" }, { "%.1g", "%.1g" },
        { "%12.4e", "%12.4e" }, { "%-12.2f|", "%-12.2f|" }, { "%+g", "%+g" },
        { "% e", "% e" }, { "%#g", "%#g" }, { "%010.3f", "%010.3f" }, { "%.17g", "%.17g" },
        { "%.20e", "%.20e" }, { "%.30f", "%.30f" }, { "%.0f", "%f" }, { "%#.0e", "%#e" },
    };
    srand(17);
    for (int k = 0; k < 4000; k++) {
        uint64_t bits = (uint64_t)rand() << 42 ^ (uint64_t)rand() << 21 ^ (uint64_t)rand();
        double dv;
        if (k % 3 == 0) { /* a decimal fraction, as a program's values tend to be */
            dv = (double)(rand() % 2000000 - 1000000) / (double)(1 + rand() % 10000);
            memcpy(&bits, &dv, 8);
        }
        int isf = k & 1;
        if (isf) {
            float fv = (float)dv;
            uint32_t fb = (uint32_t)bits;
            if (k % 3 == 0)
                memcpy(&fb, &fv, 4);
            memcpy(&fv, &fb, 4);
            dv = fv;
            bits = fb;
        } else {
            memcpy(&dv, &bits, 8);
        }
        for (size_t c = 0; c < sizeof(convs) / sizeof(convs[0]); c++) {
            char want[512], got[512] = "";
            snprintf(want, sizeof(want), convs[c][1], dv);
            struct dcons_out o = { buf_write, got };
            struct dfmt_arg a = { isf ? 'f' : 'd', (int64_t)bits, NULL };
            dfmt_printf(&o, convs[c][0], &a, 1, NULL, NULL);
            if (strcmp(got, want) != 0)
                fail_msg("%s of %s bits %016llx: got \"%s\", want \"%s\"", convs[c][0],
                         isf ? "float" : "double", (unsigned long long)bits, got, want);
        }
    }
}

/* Random structs and unions: offsetof and sizeof must follow libdtrace's (CTF's) layout,
 * computed here from its rule: a member starts at the byte after the previous member's last
 * bit, rounded up to its alignment; a bit-field takes the smallest integer holding its bits;
 * no tail padding; a union is as large as its largest member. Without bit-fields, offsets
 * are C's. */
static void test_struct_layout(void **state)
{
    (void)state;
    static const struct { const char *name; unsigned size; } types[] = {
        { "char", 1 }, { "short", 2 }, { "int", 4 }, { "long", 8 }, { "uint8_t", 1 },
        { "int *", 8 }, { "struct inner", 12 }, { "uint16_t", 2 },
    };
    srand(11);
    for (int k = 0; k < 200; k++) {
        char decl[2048], src[2600];
        int is_union = k % 5 == 4, nmem = 1 + rand() % 7;
        uint64_t offs[8], end_bits = 0, size = 0;
        size_t n = (size_t)snprintf(decl, sizeof(decl), "struct inner { int a; char b[5]; short c; };\n"
                                    "%s s {", is_union ? "union" : "struct");
        for (int m = 0; m < nmem; m++) {
            int t = rand() % 8, bits = 0, nelem = 1;
            unsigned esize = types[t].size, align = t == 6 ? 4 : esize;
            if (t != 5 && t != 6 && rand() % 3 == 0) {
                bits = 1 + rand() % (int)(8 * esize);
                esize = bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
                align = esize;
                n += (size_t)snprintf(decl + n, sizeof(decl) - n, " %s m%d : %d;", types[t].name, m, bits);
            } else {
                if (rand() % 3 == 0)
                    nelem = 1 + rand() % 4;
                n += (size_t)snprintf(decl + n, sizeof(decl) - n, nelem > 1 ? " %s m%d[%d];" : " %s m%d;",
                                      types[t].name, m, nelem);
            }
            uint64_t off = is_union ? 0 : ((end_bits + 7) / 8 + align - 1) / align * align;
            offs[m] = bits ? UINT64_MAX : off;
            uint64_t msize = (uint64_t)esize * (unsigned)nelem;
            end_bits = off * 8 + (bits ? (uint64_t)bits : msize * 8);
            size = is_union ? (msize > size ? msize : size) : off + msize;
        }
        snprintf(decl + n, sizeof(decl) - n, " };\n");
        snprintf(src, sizeof(src), "%sBEGIN { trace((long)sizeof (%s s)); }", decl,
                 is_union ? "union" : "struct");
        int64_t got = run_long(src);
        if ((uint64_t)got != size)
            fail_msg("%s: sizeof %lld, want %llu", src, (long long)got, (unsigned long long)size);
        for (int m = 0; m < nmem; m++) {
            if (offs[m] == UINT64_MAX)
                continue;
            snprintf(src, sizeof(src), "%sBEGIN { trace((long)offsetof(%s s, m%d)); }", decl,
                     is_union ? "union" : "struct", m);
            got = run_long(src);
            if ((uint64_t)got != offs[m])
                fail_msg("%s: offset %lld, want %llu", src, (long long)got,
                         (unsigned long long)offs[m]);
        }
    }
}

static void count_cb(void *arg, const struct dvm_rechdr *h)
{
    (void)h;
    (*(int *)arg)++;
}

/* Comparison predicates take the engine's fast path (no interpreter); they must agree with
 * C on every operand kind and comparison, signed and unsigned. */
static void test_fast_predicates(void **state)
{
    (void)state;
    static const char *const ops[] = { "<", ">", "<=", ">=", "==", "!=" };
    static const char *const names[] = { "pid", "arg0", "arg1", "timestamp", "g", "7", "-3" };
    srand(9);
    for (int k = 0; k < 600; k++) {
        int32_t pid = rand() % 7 - 3;
        int64_t a0 = rand() % 7 - 3, a1 = (int64_t)(rand() % 3) - 1, g = rand() % 5 - 2;
        uint64_t ts = (uint64_t)(rand() % 3) - 1; /* 0, 1 or 2^64-1 */
        int x = rand() % 7, y = rand() % 7, op = rand() % 6;
        char src[256];
        snprintf(src, sizeof(src), "int g; BEGIN { g = %lld; } BEGIN /%s %s %s/ { trace(1); }",
                 (long long)g, names[x], ops[op], names[y]);
        struct dcc_in in = { src, strlen(src), 0, 1, NULL, 0 };
        struct dcc_out out;
        if (dcc_compile(&in, arena, sizeof(arena), &out) != 0)
            fail_msg("%s: %s", src, out.err);
        struct dvm_opts o = { 4096, 4096, 4096, DVM_BUF_SWITCH, 1, 1, 0, 0, 0 };
        char err[256];
        if (dvm_load(&st, out.obj, out.objlen, &o, mem, sizeof(mem), err, sizeof(err)) != 0)
            fail_msg("%s: %s", src, err);
        assert_true(st.fastpred[1].fp_ok);
        struct dvm_ctx ctx = { 0, pid, 1, 1, 0, ts, 0, 0, "t", 0, 1 };
        uint64_t args[DVM_NARGS] = { (uint64_t)a0, (uint64_t)a1 };
        dvm_fire(&st, &ctx, DPROBE_BEGIN, args);
        int n = 0;
        dvm_buf_read(&st, 0, 1, count_cb, &n);
        /* C: int and long operands compare signed; timestamp (uint64_t) makes it unsigned */
        int64_t v[7] = { pid, a0, a1, (int64_t)ts, g, 7, -3 };
        int uns = x == 3 || y == 3;
        uint64_t ua = (uint64_t)v[x], ub = (uint64_t)v[y];
        int64_t sa = v[x], sb = v[y];
        int want;
        switch (op) {
        case 0: want = uns ? ua < ub : sa < sb; break;
        case 1: want = uns ? ua > ub : sa > sb; break;
        case 2: want = uns ? ua <= ub : sa <= sb; break;
        case 3: want = uns ? ua >= ub : sa >= sb; break;
        case 4: want = ua == ub; break;
        default: want = ua != ub; break;
        }
        if (n != want) /* the first clause records nothing (an assignment only) */
            fail_msg("%s with pid=%d arg0=%lld arg1=%lld ts=%llu: fired %d, want %d", src, pid,
                     (long long)a0, (long long)a1, (unsigned long long)ts, n, want);
    }
}

static void expect_error(const char *src, const char *tag, int line)
{
    struct dcc_in in = { src, strlen(src), 0, 1, NULL, 0 };
    struct dcc_out out;
    assert_int_equal(dcc_compile(&in, arena, sizeof(arena), &out), -1);
    if (strcmp(out.tag, tag) != 0 || out.line != line)
        fail_msg("%s: got [%s] line %d (%s), want [%s] line %d", src, out.tag, out.line,
                 out.err, tag, line);
    char prefix[64];
    snprintf(prefix, sizeof(prefix), "[%s] line %d: ", tag, line);
    assert_memory_equal(out.err, prefix, strlen(prefix));
}

static void test_error_lines(void **state)
{
    (void)state;
    expect_error("BEGIN\n{\n\tx = 1;\n\ty = x +;\n}\n", "D_SYNTAX", 4);
    expect_error("/* a\n comment */\nBEGIN { x = 1 / 0; }", "D_DIV_ZERO", 3);
    expect_error("\n\nnosuch:::probe { }", "D_PDESC_ZERO", 3);
    expect_error("BEGIN {\n printf(\"%d %d\",\n 1); }", "D_PRINTF_ARG_PROTO", 2);
    expect_error("# 40 \"x.d\"\nBEGIN { trace(y); }", "D_IDENT_UNDEF", 40);
    expect_error("BEGIN { \"unterminated }", "D_SYNTAX", 1);
    expect_error("BEGIN { x = 'ab\n'; }", "D_CHR_NL", 1);
    expect_error("BEGIN { x = 0x; }", "D_SYNTAX", 1);
    expect_error("BEGIN { x = 99999999999999999999; }", "D_INT_OFLOW", 1);
    expect_error("", "D_EMPTY", 1);
    expect_error("struct s {\n\tint a;\n\tchar c : 9;\n};\nBEGIN { }", "D_DECL_BFSIZE", 3);
    expect_error("struct s { int a; };\n\nstruct s { int b; };\nBEGIN { }", "D_DECL_TYPERED", 3);
    expect_error("struct f;\nBEGIN {\n trace(sizeof (struct f)); }", "D_SIZEOF_TYPE", 3);
    expect_error("struct s { int a; };\nBEGIN {\n trace(offsetof(struct s, b)); }", "D_UNKNOWN", 3);
}

/* Declarations as libdtrace reads them: the type a list of specifiers names, in any order;
 * each misuse with libdtrace's tag, at the line where libdtrace finds it. */
static void test_declarations(void **state)
{
    (void)state;
    static const struct { const char *type; long size; } sizes[] = {
        { "unsigned short int", 2 }, { "short unsigned", 2 }, { "int short", 2 },
        { "long int", 8 }, { "int long long", 8 }, { "signed", 4 }, { "unsigned", 4 },
        { "char signed", 1 }, { "long double", 16 }, { "double", 8 }, { "float", 4 },
        { "const int", 4 }, { "volatile char *", 8 }, { "int * const *", 8 },
        { "int (*)(void)", 8 }, { "uint_t", 4 }, { "u_longlong_t", 8 }, { "ptrdiff_t", 8 },
        { "string", 256 }, { "struct { int a; struct { char b; }; }", 5 },
    };
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        char src[160];
        snprintf(src, sizeof(src), "BEGIN { trace((long)sizeof (%s)); }", sizes[k].type);
        int64_t got = run_long(src);
        if (got != sizes[k].size)
            fail_msg("sizeof (%s) = %lld, want %ld", sizes[k].type, (long long)got,
                     sizes[k].size);
    }
    static const struct { const char *src; const char *tag; } bad[] = {
        { "BEGIN {\n x = (int char)1; }", "D_DECL_COMBO" },
        { "BEGIN {\n x = (char long)1; }", "D_DECL_CHARATTR" },
        { "BEGIN {\n x = (long short)1; }", "D_UNKNOWN" },
        { "BEGIN {\n x = (long float)1; }", "D_UNKNOWN" },
        { "BEGIN {\n x = (signed signed)1; }", "D_DECL_COMBO" },
        { "BEGIN {\n x = (short short)1; }", "D_DECL_COMBO" },
        { "BEGIN {\n x = (long long long)1; }", "D_DECL_COMBO" },
        { "BEGIN {\n x = (unsigned double)1; }", "D_DECL_SIGNINT" },
        { "BEGIN {\n x = (long struct s *)1; }", "D_DECL_LONGINT" },
        { "BEGIN {\n x = (long void *)1; }", "D_DECL_VOIDATTR" },
        { "\nself this int x;", "D_DECL_CLASS" },
        { "\nregister x;", "D_DECL_BADCLASS" },
        { "\nauto int x;", "D_DECL_BADCLASS" },
        { "\nextern int;", "D_DECL_USELESS" },
        { "\ntypedef long;", "D_DECL_USELESS" },
        { "\nint f(static int);", "D_DECL_PARMCLASS" },
        { "\nint f(void v);", "D_DECL_PROTO_NAME" },
        { "\nint f(int, void);", "D_DECL_PROTO_VOID" },
        { "\nint f(int a, int a);", "D_DECL_PROTO_FORM" },
        { "\nint f(int a[int]);", "D_DECL_PROTO_TYPE" },
        { "\nint a[void];", "D_DECL_PROTO_TYPE" },
        { "\nint a[...];", "D_DECL_PROTO_VARARGS" },
        { "\nthis int a[int];", "D_DECL_LOCASSC" },
        { "\nint a[int][4];", "D_DECL_DYNOBJ" },
        { "\nvoid v;", "D_DECL_VOIDOBJ" },
        { "\nvoid v[2];", "D_DECL_VOIDOBJ" },
        { "\nint a[];", "D_DECL_ARRNULL" },
        { "\nenum e { A = 2147483648 };", "D_DECL_ENOFLOW" },
        { "\nenum e { A = -2147483649 };", "D_DECL_ENOFLOW" },
        { "\nenum e { A = \"s\" };", "D_DECL_ENCONST" },
        { "int a[int];\nBEGIN { a[\"x\"] = 1; }", "D_PROTO_ARG" },
        { "int a[int];\nBEGIN { a[1, 2] = 1; }", "D_PROTO_LEN" },
        { "BEGIN { a[1] = 1; }\nEND { a[\"b\"] = 1; }", "D_PROTO_ARG" },
        { "BEGIN {\n x = '123456789'; }", "D_CHR_OFLOW" },
        { "\ninline int rand = 1;", "D_DECL_IDRED" },
        { "\ninline string s = 1;", "D_OP_INCOMPAT" },
        { "\ninline int i = i;", "D_IDENT_UNDEF" },
        { "BEGIN {\n this->a[1] = 1; }", "D_ARR_LOCAL" },
        { "BEGIN { self->a[1] = 1; }\nEND { self->a[1, 2] = 1; }", "D_PROTO_LEN" },
        { "BEGIN { self->a[1] = 1; }\nEND { self->a[\"s\"] = 1; }", "D_PROTO_ARG" },
        { "BEGIN { }\nEND { trace(self->a[1]); }", "D_IDENT_UNDEF" },
    };
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++)
        expect_error(bad[k].src, bad[k].tag, 2);
    /* declared arrays and their values */
    assert_int_equal(run_long("int a[int, string];\nBEGIN { a[1, \"x\"] = 40; a[1, \"x\"] += 2;"
                              " trace((long)a[1, \"x\"]); }"), 42);
    assert_int_equal(run_long("self x; this y;\nBEGIN { self->x = 5; this->y = 6;"
                              " trace((long)(self->x * this->y + sizeof (self->x))); }"), 34);
    assert_int_equal(run_long("BEGIN { trace((long)'\\x41yz'); }"), 0x41797a);
    /* self->a[k] is the thread's: another tid reads its own (here: none) */
    assert_int_equal(run_long("BEGIN { a[\"k\"] = 0; } BEGIN { self->a[\"k\"] = 9;"
                              " self->a[\"k\"]++; trace((long)self->a[\"k\"] + a[\"k\"]); }"), 10);
}

/* A long chain of || and && (a predicate testing many things) fits the registers: each
 * operator's result reuses its left operand's register. */
static void test_logic_chains(void **state)
{
    (void)state;
    char src[4096];
    size_t n = (size_t)snprintf(src, sizeof(src), "BEGIN { x = 3; trace((long)(");
    for (int k = 0; k < 40; k++)
        n += (size_t)snprintf(src + n, sizeof(src) - n, "(x + %d == %d) || ", k, k);
    snprintf(src + n, sizeof(src) - n, "(x == 3))); }");
    assert_int_equal(run_long(src), 1);
    n = (size_t)snprintf(src, sizeof(src), "BEGIN { x = 3; trace((long)(");
    for (int k = 0; k < 40; k++)
        n += (size_t)snprintf(src + n, sizeof(src) - n, "(x != %d) && ", k + 4);
    snprintf(src + n, sizeof(src) - n, "(x == 2))); }");
    assert_int_equal(run_long(src), 0);
}

static void test_literal_types(void **state)
{
    (void)state;
    /* int if it fits, else long: the record size decides how trace() prints */
    static const struct { const char *expr; const char *types; } cases[] = {
        { "1", "i" }, { "2147483647", "i" }, { "2147483648", "l" }, { "0xffffffff", "I" },
        { "1L", "l" }, { "1u", "I" }, { "'a'", "i" }, { "(short)1", "h" }, { "\"s\"", "s" },
        { "timestamp", "L" }, { "pid", "i" }, { "1 + 1L", "l" }, { "(char)1 + (char)1", "i" },
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        char src[128];
        snprintf(src, sizeof(src), "BEGIN { trace(%s); }", cases[k].expr);
        struct dcc_in in = { src, strlen(src), 0, 1, NULL, 0 };
        struct dcc_out out;
        if (dcc_compile(&in, arena, sizeof(arena), &out) != 0)
            fail_msg("%s: %s", src, out.err);
        struct dif_obj o;
        char err[128];
        assert_int_equal(dif_verify(out.obj, out.objlen, &o, err, sizeof(err)), 0);
        const char *t = dif_str(&o, o.acts[0].da_types);
        if (strcmp(t, cases[k].types) != 0)
            fail_msg("%s: type %s, want %s", cases[k].expr, t, cases[k].types);
    }
}

/* Options for programs run on a target (dobj_opts.c, shared by dcompile and the board's
 * dtrace): board-sized defaults, every accepted form, and a clear refusal of the rest. */
static void test_dobj_options(void **state)
{
    (void)state;
    struct dobj_file_hdr h;
    char err[128];
    dobj_defaults(&h);
    assert_int_equal(h.magic, DOBJ_MAGIC);
    assert_int_equal(h.bufsize, 8192);
    assert_int_equal(h.aggsize, 262144);
    assert_int_equal(h.switchrate_ms, 1000);
    assert_int_equal(h.bufpolicy, DVM_BUF_SWITCH);
    assert_int_equal(dobj_set_option(&h, "bufsize", "16k", err, sizeof(err)), 0);
    assert_int_equal(h.bufsize, 16384);
    assert_int_equal(dobj_set_option(&h, "aggsize", "1m", err, sizeof(err)), 0);
    assert_int_equal(h.aggsize, 1u << 20);
    assert_int_equal(dobj_set_option(&h, "dynvarsize", "512", err, sizeof(err)), 0);
    assert_int_equal(h.dynvarsize, 512);
    assert_int_equal(dobj_set_option(&h, "bufpolicy", "ring", err, sizeof(err)), 0);
    assert_int_equal(h.bufpolicy, DVM_BUF_RING);
    assert_int_equal(dobj_set_option(&h, "bufresize", "manual", err, sizeof(err)), 0);
    assert_int_equal(h.bufresize_manual, 1);
    assert_int_equal(dobj_set_option(&h, "switchrate", "10hz", err, sizeof(err)), 0);
    assert_int_equal(h.switchrate_ms, 100);
    assert_int_equal(dobj_set_option(&h, "switchrate", "250ms", err, sizeof(err)), 0);
    assert_int_equal(h.switchrate_ms, 250);
    assert_int_equal(dobj_set_option(&h, "nspec", "3", err, sizeof(err)), 0);
    assert_int_equal(h.nspec, 3);
    assert_int_equal(dobj_set_option(&h, "quiet", NULL, err, sizeof(err)), 0);
    assert_int_equal(h.quiet, 1);
    static const char *const bad[][2] = {
        { "bufsize", "abc" }, { "bufsize", "0" }, { "bufsize", "2m" }, { "bufsize", "16x" },
        { "bufsize", NULL }, { "bufpolicy", "sideways" }, { "bufresize", "maybe" },
        { "switchrate", "0hz" }, { "switchrate", "5fortnights" }, { "nspec", "two" },
        { "nspec", "" },
    };
    struct dobj_file_hdr before = h;
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        assert_int_equal(dobj_set_option(&h, bad[k][0], bad[k][1], err, sizeof(err)), -1);
        assert_non_null(strstr(err, "invalid value for option "));
        assert_non_null(strstr(err, bad[k][0]));
    }
    assert_int_equal(dobj_set_option(&h, "frobnicate", "1", err, sizeof(err)), -1);
    assert_string_equal(err, "unsupported option: frobnicate");
    assert_memory_equal(&h, &before, sizeof(h)); /* a refused option changes nothing */

    struct dcc_in in = { "#pragma D option bufsize=4k\n#pragma D option quiet\nBEGIN { }",
                         0, 0, 0, NULL, 0 };
    in.len = strlen(in.src);
    struct dcc_out out;
    assert_int_equal(dcc_compile(&in, arena, sizeof(arena), &out), 0);
    dobj_defaults(&h);
    assert_int_equal(dobj_apply_options(&h, &out, NULL, 0, err, sizeof(err)), 0);
    assert_int_equal(h.bufsize, 4096);
    assert_int_equal(h.quiet, 1);
    /* -x arguments come after the pragmas and win; a bad one stops with its reason */
    char x1[] = "bufsize=8k", x2[] = "bufpolicy=fill", x3[] = "nspec";
    char *xs[] = { x1, x2 };
    dobj_defaults(&h);
    assert_int_equal(dobj_apply_options(&h, &out, xs, 2, err, sizeof(err)), 0);
    assert_int_equal(h.bufsize, 8192);
    assert_int_equal(h.bufpolicy, DVM_BUF_FILL);
    assert_int_equal(h.quiet, 1);
    char *bad_x[] = { x3 };
    assert_int_equal(dobj_apply_options(&h, &out, bad_x, 1, err, sizeof(err)), -1);
    assert_string_equal(err, "invalid value for option nspec: (none)");
}

/* Option values as libdtrace's dt_opt_size/dt_opt_rate read them (dt_options.c): sizes take
 * C integers with k/m/g/t suffixes, rates time units or hz with a bare number in ns; the
 * compiler's `#pragma D option strsize=2k` takes the same text (it gave 2-byte strings). */
static void test_option_values(void **state)
{
    (void)state;
    static const struct { const char *s; uint64_t v; } sizes[] = {
        { "2k", 2048 }, { "2K", 2048 }, { "4m", 4u << 20 }, { "1g", 1ull << 30 },
        { "1t", 1ull << 40 }, { "512", 512 }, { "0x100", 256 }, { "010", 8 }, { "0", 0 },
    };
    uint64_t v;
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        assert_int_equal(d_optval_size(sizes[k].s, &v), 0);
        assert_int_equal(v, sizes[k].v);
    }
    static const char *const bad_sizes[] = { "", "k", "2kb", "-1", "2x", "0x", "2 k", "2t1",
                                             "99999999t", "99999999999999999999", "0xffffffffffffffffff" };
    for (size_t k = 0; k < sizeof(bad_sizes) / sizeof(bad_sizes[0]); k++)
        assert_int_equal(d_optval_size(bad_sizes[k], &v), -1);
    static const struct { const char *s; uint64_t ns; } rates[] = {
        { "10hz", 100000000 }, { "10HZ", 100000000 }, { "5", 5 }, { "7ns", 7 },
        { "3nsec", 3 }, { "2us", 2000 }, { "2usec", 2000 }, { "10ms", 10000000 },
        { "10msec", 10000000 }, { "1s", 1000000000 }, { "2sec", 2000000000 },
        { "1m", 60000000000ull }, { "1min", 60000000000ull }, { "1h", 3600000000000ull },
        { "1hour", 3600000000000ull }, { "1d", 86400000000000ull },
        { "1day", 86400000000000ull }, { "2000000000hz", 1 },
    };
    for (size_t k = 0; k < sizeof(rates) / sizeof(rates[0]); k++) {
        assert_int_equal(d_optval_rate(rates[k].s, &v), 0);
        assert_int_equal(v, rates[k].ns);
    }
    static const char *const bad_rates[] = { "", "0", "0hz", "hz", "10 ms", "10mss", "10k",
                                             "-5ms", "999999999999d" };
    for (size_t k = 0; k < sizeof(bad_rates) / sizeof(bad_rates[0]); k++)
        assert_int_equal(d_optval_rate(bad_rates[k], &v), -1);

    /* the compiler's strsize: the string type's size in the object */
    struct dcc_in in = { "#pragma D option strsize=2k\nBEGIN { trace(execname); }", 0, 0, 0,
                         NULL, 0 };
    in.len = strlen(in.src);
    struct dcc_out out;
    assert_int_equal(dcc_compile(&in, arena, sizeof(arena), &out), 0);
    assert_int_equal(((const struct dif_hdr *)out.obj)->dh_strsize, 2048);
    in.src = "#pragma D option strsize=0x40\nBEGIN { }";
    in.len = strlen(in.src);
    assert_int_equal(dcc_compile(&in, arena, sizeof(arena), &out), 0);
    assert_int_equal(((const struct dif_hdr *)out.obj)->dh_strsize, 64);
    static const char *const bad_pragmas[] = { "#pragma D option strsize=2kb\nBEGIN { }",
        "#pragma D option strsize=32k\nBEGIN { }", "#pragma D option strsize=1\nBEGIN { }" };
    for (size_t k = 0; k < sizeof(bad_pragmas) / sizeof(bad_pragmas[0]); k++) {
        in.src = bad_pragmas[k];
        in.len = strlen(in.src);
        assert_int_equal(dcc_compile(&in, arena, sizeof(arena), &out), -1);
        assert_string_equal(out.tag, "D_PRAGMA_OPTSET");
        assert_non_null(strstr(out.err, "failed to set option 'strsize'"));
    }

    /* the board's options: the same syntax, the board's limits said as such */
    struct dobj_file_hdr h;
    char err[128];
    dobj_defaults(&h);
    assert_int_equal(dobj_set_option(&h, "aggsize", "0x4000", err, sizeof(err)), 0);
    assert_int_equal(h.aggsize, 16384);
    assert_int_equal(dobj_set_option(&h, "switchrate", "1min", err, sizeof(err)), 0);
    assert_int_equal(h.switchrate_ms, 60000);
    assert_int_equal(dobj_set_option(&h, "switchrate", "100us", err, sizeof(err)), 0);
    assert_int_equal(h.switchrate_ms, 1); /* the board's consumer wakes in whole ms */
    assert_int_equal(dobj_set_option(&h, "strsize", "2k", err, sizeof(err)), 0);
    assert_int_equal(dobj_set_option(&h, "bufsize", "2m", err, sizeof(err)), -1);
    assert_string_equal(err, "invalid value for option bufsize: 2m (a board takes at most 1m)");
}

/* $target on a board (d/dtarget.h): bound when the named program makes its first kernel call;
 * the script's line numbers survive the prelude, a #! line stays first, $targetx is no macro. */
static void test_target_text(void **state)
{
    (void)state;
    static char out[4096];
    const char *src = "#!/usr/sbin/dtrace -s\nkercall:::entry /pid == $target/ { }\n"
                      "BEGIN { x = $targetx + ; }\n";
    size_t n = d_target_text(src, strlen(src), "worker", out, sizeof(out));
    assert_true(n > strlen(src));
    assert_non_null(strstr(out, "execname == \"worker\""));
    assert_non_null(strstr(out, "/pid == __dtrace_target/"));
    assert_non_null(strstr(out, "$targetx"));
    assert_memory_equal(out, "#!/usr/sbin/dtrace -s\n", 22);
    struct dcc_in in = { out, n, 0, 1, NULL, 0 };
    struct dcc_out co;
    assert_int_equal(dcc_compile(&in, arena, sizeof(arena), &co), -1);
    assert_int_equal(co.line, 3); /* the script's own line 3 */
    assert_int_equal(d_target_text(src, strlen(src), "no such", out, sizeof(out)), 0);
    assert_int_equal(d_target_text(src, strlen(src), "worker", out, 40), 0);
    /* the bound program compiles and the global reads 0 until the program's first call */
    src = "BEGIN { trace((long)$target); }";
    n = d_target_text(src, strlen(src), "worker", out, sizeof(out));
    in.len = n;
    assert_int_equal(dcc_compile(&in, arena, sizeof(arena), &co), 0);
}

/* The enabling table grows past its first 4,096 (clause, probe) pairs: a program of n clauses
 * on a description matching p probes enables n x p (DTrace's rule: each clause once per probe
 * it matches), counted from the one-clause program's matches; a verified object holds them
 * all. In an arena too small for them the error names the arena and the way round it. */
static void test_enabling_table(void **state)
{
    (void)state;
    static char src[64 * 1024];
    struct dcc_in in = { "kercall:::entry { n++; }", 24, 0, 0, NULL, 0 };
    static struct dcc_out out;
    assert_int_equal(dcc_compile(&in, arena, sizeof(arena), &out), 0);
    unsigned p = out.nprobes, n = 4096u / p + 2u;
    assert_true(p > 16u && n <= 200u);
    size_t len = 0;
    for (unsigned k = 0; k < n; k++)
        len += (size_t)snprintf(src + len, sizeof(src) - len, "kercall:::entry { c%u++; }\n", k);
    in.src = src;
    in.len = len;
    assert_int_equal(dcc_compile(&in, arena, sizeof(arena), &out), 0);
    const struct dif_hdr *h = out.obj;
    if (h->dh_necbs != n * p || h->dh_necbs <= 4096u)
        fail_msg("%u clauses on %u probes: %u enablings", n, p, h->dh_necbs);
    static struct dif_obj o;
    char why[128];
    if (dif_verify(out.obj, out.objlen, &o, why, sizeof(why)) != 0)
        fail_msg("the object is refused: %s", why);
    assert_int_equal(dcc_compile(&in, arena, 96u * 1024u, &out), -1);
    assert_string_equal(out.tag, "D_NOMEM");
    if (!strstr(out.err, "DTRACE_CC_ARENA") || !strstr(out.err, "tools/dcompile"))
        fail_msg("no limit named: %s", out.err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_expressions),
        cmocka_unit_test(test_fast_predicates),
        cmocka_unit_test(test_struct_layout),
        cmocka_unit_test(test_strtoll_procinfo),
        cmocka_unit_test(test_printf_times),
        cmocka_unit_test(test_printf_floats),
        cmocka_unit_test(test_alloca),
        cmocka_unit_test(test_macros),
        cmocka_unit_test(test_error_lines),
        cmocka_unit_test(test_literal_types),
        cmocka_unit_test(test_declarations),
        cmocka_unit_test(test_logic_chains),
        cmocka_unit_test(test_dobj_options),
        cmocka_unit_test(test_option_values),
        cmocka_unit_test(test_target_text),
        cmocka_unit_test(test_script_args),
        cmocka_unit_test(test_pid_at_run),
        cmocka_unit_test(test_translators),
        cmocka_unit_test(test_enabling_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
