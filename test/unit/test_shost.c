// SPDX-License-Identifier: MIT
// The console's line gathering (kernel/shost.c, kernel/kconsole.c): SYS_WRITEC characters of
// processes printing at once (two CPUs, or preemption between characters) come out a whole
// line at a time, each with its source ("<pid>/<name>: "), up to KCON_LINE - 2 characters
// (long enough for dtrace's error lines); a longer line is cut there, a process's gathered
// line goes out before its other console writes and when it ends, and control characters
// come out escaped (docs/console.md).
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "kstub.h"
#include <kernel/shost.h>

#define SH_WRITEC 0x03u   // ARM semihosting's operation numbers
#define SH_WRITE0 0x04u

static uint8_t ram_a[4096] __attribute__((aligned(4096)));
static uint8_t ram_b[4096] __attribute__((aligned(4096)));
static struct proc *pa, *pb;

static int setup(void **state)
{
    (void)state;
    kstub_reset();
    pa = kstub_proc(1, ram_a, sizeof(ram_a), 0);
    pb = kstub_proc(2, ram_b, sizeof(ram_b), 0);
    return 0;
}

static void putc_as(struct proc *p, uint8_t *ram, char c)
{
    ram[0] = (uint8_t)c;
    assert_int_equal(shost_call(p, SH_WRITEC, kstub_addr(ram)), 0);
}

// Two processes' lines, character by character in turn: each comes out whole.
static void test_lines_do_not_interleave(void **state)
{
    (void)state;
    char la[200], lb[200];
    // dtrace's fault line is 135 characters; make both longer than the old 96-byte buffer.
    memset(la, 'a', 150), la[150] = '\n', la[151] = 0;
    memset(lb, 'b', 140), lb[140] = '\n', lb[141] = 0;
    size_t na = strlen(la), nb = strlen(lb);
    for (size_t i = 0; i < na || i < nb; i++) {
        if (i < na)
            putc_as(pa, ram_a, la[i]);
        if (i < nb)
            putc_as(pb, ram_b, lb[i]);
    }
    kstub_console[kstub_console_len] = 0;
    char want[512];
    snprintf(want, sizeof(want), "2/%s: %s1/%s: %s", pb->name, lb, pa->name, la);  // b's first
    assert_string_equal(kstub_console, want);
}

// A line longer than the buffer goes out in pieces of KCON_LINE - 2; a process's pending
// characters go out before its SYS_WRITE0 and when it ends.
static void test_long_line_and_flushes(void **state)
{
    (void)state;
    char pre[32], want[KCON_LINE + 64];
    int np = snprintf(pre, sizeof(pre), "1/%s: ", pa->name);
    for (unsigned i = 0; i < KCON_LINE - 2; i++)
        putc_as(pa, ram_a, 'x');
    assert_int_equal(kstub_console_len, 0);                 // the line is not done yet
    putc_as(pa, ram_a, 'y');                                // no room: the line so far goes
    assert_int_equal(kstub_console_len, np + KCON_LINE - 2 + 1);
    strcpy((char *)ram_a + 64, "z\n");
    assert_int_equal(shost_call(pa, SH_WRITE0, kstub_addr(ram_a + 64)), 0);
    kstub_console[kstub_console_len] = 0;
    snprintf(want, sizeof(want), "%syz\n", pre);
    assert_string_equal(kstub_console + np + KCON_LINE - 1, want);
    putc_as(pb, ram_b, 'q');
    shost_flush_console(pb);
    assert_int_equal(kstub_console[kstub_console_len - 2], 'q');
    assert_int_equal(kstub_console[kstub_console_len - 1], '\n');
}

// CR, ESC, NUL, other control bytes and DEL come out escaped; tab and text stay (a process
// cannot move the cursor, clear the screen or reset the terminal).
static void test_control_characters_escaped(void **state)
{
    (void)state;
    const char in[] = "a\rb\x1b[2Jc\0d\x07" "e\x7f\tf\n";
    for (size_t i = 0; i < sizeof(in) - 1; i++)
        putc_as(pa, ram_a, in[i]);
    kstub_console[kstub_console_len] = 0;
    char want[96];
    snprintf(want, sizeof(want), "1/%s: a\\rb\\e[2Jc\\0d\\x07e\\x7f\tf\n", pa->name);
    assert_string_equal(kstub_console, want);
}

// C1 controls act on terminals too (docs/hostile.md, attack 18; CSI
// U+009B as UTF-8 c2 9b clears a screen like ESC [ does); they come escaped, while UTF-8 text
// whose continuation bytes fall in 0x80-0x9f (an em dash: e2 80 94) stays intact.
static void test_c1_controls_escaped(void **state)
{
    (void)state;
    const char in[] = "[\xc2\x9b" "2J][\x9b" "2J][\xc2\x85][\xe2\x80\x94][\xc3\xa9]\n";
    for (size_t i = 0; i < sizeof(in) - 1; i++)
        putc_as(pa, ram_a, in[i]);
    kstub_console[kstub_console_len] = 0;
    char want[96];
    snprintf(want, sizeof(want), "1/%s: [\\xc2\\x9b2J][\\x9b2J][\\xc2\\x85][\xe2\x80\x94][\xc3\xa9]\n",
             pa->name);
    assert_string_equal(kstub_console, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_lines_do_not_interleave, setup),
        cmocka_unit_test_setup(test_long_line_and_flushes, setup),
        cmocka_unit_test_setup(test_control_characters_escaped, setup),
        cmocka_unit_test_setup(test_c1_controls_escaped, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
