// SPDX-License-Identifier: MIT
// Which part of a kernel call a KER_CALL event is (kev_kcall_part, kev_kcall_no,
// kev_kcall_part_name in trace/kev_decode.c) for every number 0 .. 3 * 128 + 1: the answer must
// be the event table's KER_CALL row holding the number, and QNX's numbering as
// docs/trace-events.md writes it (the call n's entry n, its exit n + 128, its interrupted end
// n + 256, nothing past). Then kev_kcall_exit(): an exit's result and errno, and QNX's
// interrupted call read as its call's exit (MsgSend interrupted: -1, errno 4, EINTR in QNX's
// <errno.h>), while an entry and another class's event are not exits.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <trace/kev_decode.h>
#include <trace/kev_events.h>

// The part the table says: the kcall of the KER_CALL row holding ev, NONE when no row does.
static enum kev_kcall_part table_part(unsigned ev)
{
    for (unsigned i = 0; i < kev_event_rows(); i++) {
        const struct kev_event_desc *d = kev_event_row(i);
        if (d->cls == KEV_C_KER_CALL && ev >= d->lo && ev <= d->hi)
            return (enum kev_kcall_part)d->kcall;
    }
    return KEV_KCALL_NONE;
}

static void every_number(void **state)
{
    (void)state;
    static const char *const names[] = { "unknown", "entry", "exit", "interrupted" };
    unsigned seen[4] = { 0 };
    for (unsigned ev = 0; ev <= 3u * KEV_KC_MAX + 1u; ev++) {
        struct kev_event e = { .cls = KEV_C_KER_CALL, .ev = ev };
        enum kev_kcall_part qnx = ev < 128u ? KEV_KCALL_ENTRY : ev < 256u ? KEV_KCALL_EXIT
                                : ev < 384u ? KEV_KCALL_INTR : KEV_KCALL_NONE;
        enum kev_kcall_part got = kev_kcall_part(&e);
        if (got != qnx || got != table_part(ev))
            fail_msg("event %u: kev_kcall_part %d, QNX's numbering %d, the table %d", ev, got,
                     qnx, table_part(ev));
        assert_int_equal(kev_kcall_no(&e), ev % 128u);
        assert_string_equal(kev_kcall_part_name(ev), names[got]);
        seen[got]++;
        for (unsigned cls = 0; cls < KEV_NCLASS; cls++) { // the same number of another class
            struct kev_event o = { .cls = cls, .ev = ev };
            if (cls != KEV_C_KER_CALL)
                assert_int_equal(kev_kcall_part(&o), KEV_KCALL_NONE);
        }
    }
    assert_int_equal(seen[KEV_KCALL_ENTRY], 128);
    assert_int_equal(seen[KEV_KCALL_EXIT], 128);
    assert_int_equal(seen[KEV_KCALL_INTR], 128);
    assert_int_equal(seen[KEV_KCALL_NONE], 2);
    // kev.h's macros number the parts as the rows do
    struct kev_event x = { .cls = KEV_C_KER_CALL, .ev = KEV_KC_INTERRUPTED(11) };
    assert_int_equal(kev_kcall_part(&x), KEV_KCALL_INTR);
    assert_int_equal(kev_kcall_no(&x), 11);
}

static int exit_of(unsigned ev, uint32_t w0, uint32_t w1, int32_t *ret, uint32_t *err)
{
    uint32_t w[2] = { w0, w1 };
    struct kev_event e = { .cls = KEV_C_KER_CALL, .ev = ev, .w = w, .nw = 2, .nslots = 1 };
    *ret = 12345;
    *err = 12345;
    return kev_kcall_exit(&e, ret, err);
}

static void exits(void **state)
{
    (void)state;
    int32_t ret;
    uint32_t err;
    // MsgSend (QNX's __KER_MSG_SENDV, 11): a success, a failure (EAGAIN, 11), an interruption
    assert_int_equal(exit_of(128u + 11u, 5, 0, &ret, &err), 1);
    assert_int_equal(ret, 5);
    assert_int_equal(err, 0);
    assert_int_equal(exit_of(128u + 11u, 0xffffffffu, 11, &ret, &err), 1);
    assert_int_equal(ret, -1);
    assert_int_equal(err, 11);
    assert_int_equal(exit_of(256u + 11u, 0xffffffffu, 4, &ret, &err), 1);
    assert_int_equal(ret, -1);
    assert_int_equal(err, 4);
    assert_string_equal(kev_errno_name(err), "EINTR");
    // format 1.01's -errno, in an interrupted call as in an exit
    assert_int_equal(exit_of(256u + 11u, (uint32_t)-4, 0, &ret, &err), 1);
    assert_int_equal(ret, -1);
    assert_int_equal(err, 4);
    // not an end: an entry, a number past the parts, another class's event
    assert_int_equal(exit_of(11u, 0xffffffffu, 4, &ret, &err), 0);
    assert_int_equal(exit_of(384u + 11u, 0xffffffffu, 4, &ret, &err), 0);
    uint32_t w[2] = { 0xffffffffu, 4 };
    struct kev_event o = { .cls = KEV_C_INT, .ev = 128u + 11u, .w = w, .nw = 2, .nslots = 1 };
    assert_int_equal(kev_kcall_exit(&o, &ret, &err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_number),
        cmocka_unit_test(exits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
