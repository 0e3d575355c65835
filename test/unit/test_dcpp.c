// SPDX-License-Identifier: MIT
// The board's preprocessor for `dtrace -C` (trace/d/dcpp.c): macro expansion as C does it,
// conditionals, line numbers kept for the compiler, and every malformed input refused with
// its line rather than passed on or overrun.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <d/dcpp.h>

static struct dcpp cpp;
static char out[4096];

static const char *run(const char *src)
{
    if (dcpp_run(&cpp, src, strlen(src), out, sizeof(out)) != 0)
        fail_msg("refused: %s", cpp.err);
    return out;
}

static void refused(const char *src, const char *msg)
{
    assert_int_equal(dcpp_run(&cpp, src, strlen(src), out, sizeof(out)), -1);
    if (strcmp(cpp.err, msg) != 0)
        fail_msg("error \"%s\", expected \"%s\"", cpp.err, msg);
}

static void test_macros(void **state)
{
    (void)state;
    /* '#' quotes the argument as written, a plain use expands it first */
    assert_string_equal(run("#define ANSWER (6 * 7)\n#define SAY(x) printf(\"%s=%d\", #x, x)\n"
                            "SAY(ANSWER);\n"),
                        "\n\nprintf(\"%s=%d\", \"ANSWER\", (6 * 7));\n");
    assert_string_equal(run("#define F(a, b) a * b\nF(2, 3) F (4,F(5,6)) F\n"),
                        "\n2 * 3 4 * 5 * 6 F\n");
    /* no macro is replaced inside its own expansion, nor inside string literals */
    assert_string_equal(run("#define SELF SELF + 1\nSELF \"SELF\"\n"), "\nSELF + 1 \"SELF\"\n");
    assert_string_equal(run("#define Q(s) #s\nQ(say \"hi\\n\")\n"), "\n\"say \\\"hi\\\\n\\\"\"\n");
    assert_string_equal(run("#define A 1\n#undef A\nA\n"), "\n\nA\n");
    assert_string_equal(run("#define E() 7\nE() E\n"), "\n7 E\n");
    assert_string_equal(run("x = __SUNW_D;\n"), "x = 1;\n");
    /* D's own pragmas are left for the compiler */
    assert_string_equal(run("#pragma D option quiet\n"), "#pragma D option quiet\n");
}

static void test_conditionals(void **state)
{
    (void)state;
    assert_string_equal(run("#define A 1\n#define B (A + 1)\n"
                            "#if B == 2 && defined(A) && !defined C\nyes\n#elif 1\nno\n#else\n"
                            "no\n#endif\n"),
                        "\n\n\nyes\n\n\n\n\n\n");
    assert_string_equal(run("#if 0\n#if 1\nno\n#endif\n#elif 0x10 > 15 && 010 == 8 && "
                            "7 % 4 == 3 && -1 < 0\nyes\n#endif\n"),
                        "\n\n\n\n\nyes\n\n");
    /* overflow wraps around as in GCC's and Clang's #if: no undefined
     * behaviour for UBSan to report, the same answer on the board and the host */
    assert_string_equal(run("#if 9223372036854775807 + 1 == -9223372036854775807 - 1\nyes\n#endif\n"),
                        "\nyes\n\n");
    assert_string_equal(run("#if 4611686018427387904 * 4 == 0 && "
                            "-(-9223372036854775807 - 1) < 0\nyes\n#endif\n"),
                        "\nyes\n\n");
    assert_string_equal(run("#if (-9223372036854775807 - 1) / -1 < 0 && "
                            "(-9223372036854775807 - 1) % -1 == 0 && "
                            "-9223372036854775807 - 3 > 0\nyes\n#endif\n"),
                        "\nyes\n\n");
    assert_string_equal(run("#ifdef NOPE\nno\n#else\nyes\n#endif\n#ifndef NOPE\nyes2\n#endif\n"),
                        "\n\n\nyes\n\n\nyes2\n\n");
    /* directives inside a false branch are not obeyed */
    assert_string_equal(run("#if 0\n#error not here\n#define X 1\n#endif\nX\n"),
                        "\n\n\n\nX\n");
}

/* comments and continuations keep every later line on its number */
static void test_lines(void **state)
{
    (void)state;
    assert_string_equal(run("a /* one\ntwo */ b // tail\n\"/* kept */\"\n"),
                        "a   b \n\n\"/* kept */\"\n");
    assert_string_equal(run("#define L 1 + \\\n  2\nL\nnext\n"), "\n\n1 +   2\nnext\n");
}

static void test_errors(void **state)
{
    (void)state;
    refused("#if 1/0\n#endif\n", "line 1: division by zero in #if");
    refused("x\n#if 1\n", "line 2: #if without #endif");
    refused("#endif\n", "line 1: #endif without #if");
    refused("#if 1\n#else\n#else\n#endif\n", "line 3: #else or #elif after #else");
    refused("#include \"x.h\"\n", "line 1: #include is not supported here (no include path on a board)");
    refused("\n#error stop here\n", "line 2: #error stop here");
    refused("#foo\n", "line 1: unknown directive #foo");
    refused("#define F(a) a\nF(1, 2)\n", "line 2: wrong number of arguments to macro F");
    refused("#define F(a) a\nF(1\n", "line 2: unterminated arguments of macro F");
    refused("#define F(a) #b\nF(1)\n", "line 2: '#' is not followed by a macro parameter in F");
    refused("#if (1\n#endif\n", "line 1: bad #if expression");
    refused("#define\n", "line 1: #define needs a macro name");
    refused("#define F(a,) a\n", "line 1: bad parameter list of macro F");
    refused("/* open\n", "line 1: unterminated comment");
    /* mutual recursion ends as in C: A -> B -> A, not replaced again */
    assert_string_equal(run("#define A B\n#define B A\nA\n"), "\n\nA\n");
    /* a chain deeper than the nesting limit is refused, not followed down the stack */
    static char chain[1024];
    chain[0] = 0;
    for (int k = 0; k < 20; k++) {
        char def[40];
        snprintf(def, sizeof(def), "#define M%d M%d\n", k, k + 1);
        strcat(chain, def);
    }
    strcat(chain, "M0\n");
    refused(chain, "line 21: macros nest too deeply");
    char big[1100];
    memset(big, 'x', sizeof(big) - 2);
    big[sizeof(big) - 2] = '\n';
    big[sizeof(big) - 1] = 0;
    refused(big, "line 1: line longer than 1023 characters");
    /* output that does not fit is refused, not cut */
    static char src[3000];
    for (size_t k = 0; k < 2999; k++)
        src[k] = k % 100 == 99 ? '\n' : 'y';
    assert_int_equal(dcpp_run(&cpp, src, strlen(src), out, 1000), -1);
    assert_non_null(strstr(cpp.err, "the preprocessed script is too large"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_macros), cmocka_unit_test(test_conditionals),
        cmocka_unit_test(test_lines), cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
