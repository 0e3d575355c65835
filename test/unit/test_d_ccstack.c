// SPDX-License-Identifier: MIT
// The D compiler's stack: given a room (dcc_in's stack_room, what a board's dtrace gives it),
// the compiler stays inside it whatever the script's nesting, refusing a script too deep with
// a D_SYNTAX error; given none, the deepest scripts its nesting bounds allow still compile.
// Each compile runs on a thread whose stack is painted first; the bytes it used are those no
// longer holding the paint: the measure is the host's own stack, taken outside the compiler.
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <d/dcc.h>

#define THREAD_STACK (8u << 20)
#define PAINT 0xa5
/* The room qemu-virt-a53's and x86-pc's dtrace give their compiler (DTRACE_CC_STACK,
 * boards/<b>/user.mk). */
#define BOARD_ROOM 0x7000u
/* Frames the measure counts that are not the compiler's room: the thread's start, run_one's
 * and dcc_compile's own, and what may run below the compiler's deepest check (cg.c's
 * DCC_STACK_BELOW is 4 KB; a sanitizer's frames are larger than a board's). */
#define SLACK 0x3000u

static uint8_t arena[2 << 20] __attribute__((aligned(8)));

struct job {
    const char *src;
    size_t room;
    int rc;
    struct dcc_out out;
};

static void *run_one(void *arg)
{
    struct job *j = arg;
    struct dcc_in in = { j->src, strlen(j->src), 0, 1, NULL, j->room };
    j->rc = dcc_compile(&in, arena, sizeof(arena), &j->out);
    return NULL;
}

/* compile_measured: compiles src with the room given on a painted thread stack; the bytes of
 * stack it used. */
static size_t compile_measured(struct job *j)
{
    uint8_t *stack = aligned_alloc(4096, THREAD_STACK);
    assert_non_null(stack);
    memset(stack, PAINT, THREAD_STACK);
    pthread_attr_t attr;
    pthread_t t;
    assert_int_equal(pthread_attr_init(&attr), 0);
    assert_int_equal(pthread_attr_setstack(&attr, stack, THREAD_STACK), 0);
    assert_int_equal(pthread_create(&t, &attr, run_one, j), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    pthread_attr_destroy(&attr);
    size_t low = 0;
    while (low < THREAD_STACK && stack[low] == PAINT)
        low++;
    free(stack);
    return THREAD_STACK - low;
}

/* The deepest of each kind of nesting the compiler's bounds let through (128 levels in the
 * parser, 256 in the code generator), and the script the board's compiler first overran. */
static char *nested(const char *open, const char *leaf, const char *close, int k)
{
    size_t n = strlen(open) * k + strlen(leaf) + strlen(close) * k + 64;
    char *s = malloc(n), *p = s;
    p += sprintf(p, "BEGIN { v = 1; x = ");
    for (int i = 0; i < k; i++)
        p += sprintf(p, "%s", open);
    p += sprintf(p, "%s", leaf);
    for (int i = 0; i < k; i++)
        p += sprintf(p, "%s", close);
    sprintf(p, "; exit(0); }");
    return s;
}

static const char regsseven[] =
    "struct pair { int lo; char tag; };\nstruct pair p;\nint seen[struct pair, string, int];\n"
    "BEGIN { v = 1; p.lo = 5; p.tag = 'x';\n"
    "seen[p, \"k\", v + (v + v)] = v + (v + (v + (v + (v + (v + (v))))));\n"
    "printf(\"%d %d\\n\", v + (v + (v + (v + (v + (v + (v)))))), seen[p, \"k\", 3]); exit(0); }";

static char *scripts[8];
static const char *names[8] = { "127 parentheses", "255 additions", "63 negations",
                                "127 complements", "254 ?: arms", "?: arms in parentheses",
                                "tst.regsseven", NULL };

static int setup(void **state)
{
    (void)state;
    scripts[0] = nested("(", "1", ")", 127);
    scripts[1] = nested("v + ", "v", "", 254);
    scripts[2] = nested("-(", "v", ")", 63);
    scripts[3] = nested("~", "v", "", 127);
    scripts[4] = nested("v ? 1 : ", "0", "", 254);
    scripts[5] = nested("(v ? 1 : ", "0", ")", 60);
    scripts[6] = strdup(regsseven);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; scripts[i]; i++)
        free(scripts[i]);
    return 0;
}

/* With no room given, each compiles (the host's stack is megabytes). */
static void test_unbounded_compiles(void **state)
{
    (void)state;
    for (int i = 0; scripts[i]; i++) {
        struct job j = { scripts[i], 0, 0, { 0 } };
        size_t used = compile_measured(&j);
        if (j.rc != 0)
            fail_msg("%s: %s", names[i], j.out.err);
        print_message("# %s: %zu bytes of stack with no room given\n", names[i], used);
    }
}

/* Given the board's room, each compiles or is refused as too deep, and the stack it took stays
 * within the room; the board's failing script compiles. */
static void test_room_kept(void **state)
{
    (void)state;
    for (int i = 0; scripts[i]; i++) {
        struct job j = { scripts[i], BOARD_ROOM, 0, { 0 } };
        size_t used = compile_measured(&j);
        print_message("# %s: %zu bytes of stack in a room of %u: %s\n", names[i], used,
                      BOARD_ROOM, j.rc ? j.out.err : "compiled");
        if (j.rc != 0 && (strcmp(j.out.tag, "D_SYNTAX") ||
                          !strstr(j.out.err, "nested too deeply for the compiler's stack")))
            fail_msg("%s: refused for another reason: %s", names[i], j.out.err);
        if (used > BOARD_ROOM + SLACK)
            fail_msg("%s: %zu bytes of stack, past the room of %u (+%u)", names[i], used,
                     BOARD_ROOM, SLACK);
    }
    struct job j = { scripts[6], BOARD_ROOM, 0, { 0 } };
    compile_measured(&j);
    if (j.rc != 0)
        fail_msg("tst.regsseven in the board's room: %s", j.out.err);
}

/* A room smaller than what runs below the deepest check refuses any nesting, cleanly. */
static void test_tiny_room(void **state)
{
    (void)state;
    struct job j = { scripts[0], 64, 0, { 0 } };
    compile_measured(&j);
    assert_int_not_equal(j.rc, 0);
    assert_string_equal(j.out.tag, "D_SYNTAX");
    assert_non_null(strstr(j.out.err, "line 1: expression nested too deeply for the compiler's "
                                      "stack (64 bytes)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unbounded_compiles),
        cmocka_unit_test(test_room_kept),
        cmocka_unit_test(test_tiny_room),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
