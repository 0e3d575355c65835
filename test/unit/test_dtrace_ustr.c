// SPDX-License-Identifier: MIT
// dtrace -i's user-event text (tools/dtrace/kevreplay.c, d/dutext.h) on captures written by
// the ring and the host logger: copyinstr(arg1) gives a string event's text (a short one
// too: the ring stores it in two slots), cut at strsize as D cuts; a two-word event keeps its
// words; a malformed string event (a payload with no NUL) is D's "invalid address" fault at
// the payload's end, reported with the probe, and the replay goes on to the next event: no
// crash, no read past the payload (the test runs under ASan).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <d/dcc.h>
#include <d/dcons.h>
#include <d/dutext.h>
#include <d/dvm.h>
#include <trace/trace_ring.h>
#include "../../tools/dtrace/kevreplay.h"
#include <kevhost/kev_capture.h>
#include "dtrace_replay.h"

static struct kev_slot mem[2 * KEV_BUF_SLOTS];
static struct trace_ring ring;

// A capture of the events below, written to a temporary file (its path in path[]).
static void write_capture(char *path, size_t n)
{
    struct kcap c;
    replay_capture_begin(&ring, mem, sizeof(mem), &c);
    trace_emit_string(&ring, KEV_C_USER, 10, NULL, 0, "channel 2 reads 3.305 V");
    trace_emit_string(&ring, KEV_C_USER, 11, NULL, 0, "hi");
    const uint32_t noterm[4] = { 0x41414141u, 0x42424242u, 0x43434343u, 0x44444444u };
    trace_emit_words(&ring, KEV_C_USER, 12, noterm, 4);    // "AAAABBBBCCCCDDDD", no NUL
    trace_emit_simple(&ring, KEV_C_USER, 13, 7, 8);
    trace_emit_string(&ring, KEV_C_USER, 14, NULL, 0, "after the bad one");
    replay_capture_file(&ring, &c, path, n);
}

// Replays the capture through prog with the given strsize; out and err get the consumer's text.
static void replay(const char *prog, unsigned strsize, struct replay_text *out,
                   struct replay_text *err)
{
    char path[64];
    write_capture(path, sizeof(path));
    replay_run(path, prog, strsize, out, err);
}

static const char prog[] =
    "user:::event /arg0 != 13/ { printf(\"%d [%s]\\n\", arg0, copyinstr(arg1)); }\n"
    "user:::event /arg0 == 13/ { printf(\"%d %d %d\\n\", arg0, arg1, arg2); }\n";

static void test_text_and_malformed(void **state)
{
    (void)state;
    static struct replay_text out, err;
    replay(prog, 0, &out, &err);
    assert_string_equal(out.s, "10 [channel 2 reads 3.305 V]\n11 [hi]\n13 7 8\n"
                               "14 [after the bad one]\n\n"); // and dtrace's last newline
    // the unterminated event: D's fault at its 16th byte, the end of its payload
    assert_non_null(strstr(err.s, "(ID "));
    assert_non_null(strstr(err.s, "user:::event): invalid address (0x10000000010)"));
    assert_null(strstr(err.s, "AAAA"));
}

static void test_strsize_cuts(void **state)
{
    (void)state;
    static struct replay_text out, err;
    replay(prog, 8, &out, &err);    // 7 bytes and the NUL, as D's copyinstr cuts
    assert_string_equal(out.s, "10 [channel]\n11 [hi]\n12 [AAAABBB]\n13 7 8\n14 [after t]\n\n");
    assert_string_equal(err.s, "");
}

static void test_sizes(void **state)
{
    (void)state;
    static struct replay_text out, err;
    replay("user:::event /arg0 != 13/ { printf(\"%d %d\\n\", arg0, arg2); }\n"
           "user:::event /arg0 == 10/ { printf(\"%s\\n\", stringof(copyin(arg1, 4))); }\n"
           "user:::event /arg0 == 11/ { printf(\"%d\\n\", arg1 == 0x10000000000); }\n",
           0, &out, &err);
    // stored sizes: 24 bytes of text and NUL in 3 slots; "hi" padded to 2 slots; 4 words
    assert_string_equal(out.s, "10 24\nchan\n11 16\n1\n12 16\n14 24\n\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_and_malformed),
        cmocka_unit_test(test_strsize_cuts),
        cmocka_unit_test(test_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
