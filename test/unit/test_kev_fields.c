// SPDX-License-Identifier: MIT
// The field API (trace/kev_fields.c) on events built by hand from the layouts
// docs/trace-events.md and QNX's traceprinter give: PRIO_CHANGE's packed word, FUNC_EXIT's
// value low word first, a kernel call's fields fast and wide as QNX labels them (a QNX system's
// capture) and as this kernel passes them (ours: user/lib/kcalls.c's order), a failed exit,
// QNX's wide exit, this kernel's exits (ret and errno, a raw call's own results); payloads shorter than they claim (USDT's count, IMAGE's id
// length, a 64-bit stack's odd word) read no word past the event; an event no row describes
// gives its raw words; every row of the table is found by its first and last number; and one
// field read alone by its row's description (kev_field_read, kev_field) gives the same values;
// a decoded field's value and the name of its value (kev_field_num, kev_field_text).
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <trace/kev_decode.h>
#include <trace/kev_events.h>

static struct kev_reader rd; // little-endian, as the host: strings are read in memory order
static struct kev_fields fs;

static const struct kev_field *decode(unsigned cls, unsigned ev, const uint32_t *w, unsigned nw,
                                      const char *field)
{
    struct kev_event e = { .cls = cls, .ev = ev, .w = w, .nw = nw, .nslots = (nw + 1) / 2 };
    kev_fields_decode(&rd, &e, &fs);
    return field ? kev_field_get(&fs, field) : NULL;
}

static void prio_change(void **state)
{
    (void)state;
    uint32_t w[] = { 5u << 16 | 2u, 30u | 10u << 8 | (uint32_t)KEV_PRIO_MUTEX << 16 };
    assert_non_null(decode(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE, w, 2, "who"));
    assert_string_equal(fs.name, "PRIO_CHANGE");
    assert_int_equal(kev_field_get(&fs, "who")->v, 0x50002u);
    assert_int_equal(kev_field_get(&fs, "new_prio")->v, 30);
    assert_int_equal(kev_field_get(&fs, "old_prio")->v, 10);
    const struct kev_field *c = kev_field_get(&fs, "cause");
    assert_int_equal(c->v, KEV_PRIO_MUTEX);
    assert_string_equal(c->names((unsigned)c->v), "mutex inheritance");
}

static void func_exit(void **state)
{
    (void)state;
    uint32_t w[] = { 0x8001, 0x8100, 0x1c, 0x89abcdef, 0x01234567 };
    const struct kev_field *v = decode(KEV_C_SYSTEM, KEV_SYS_FUNC_EXIT, w, 5, "value");
    assert_non_null(v);
    assert_true(v->v == 0x0123456789abcdefull);
    assert_int_equal(kev_field_get(&fs, "offset")->v, 0x1c);
    v = decode(KEV_C_SYSTEM, KEV_SYS_FUNC_EXIT, w, 4, "value"); // a 4-byte value: its low word
    assert_non_null(v);
    assert_int_equal(v->v, 0x89abcdef);
}

static void kcall(void **state)
{
    (void)state;
    uint32_t w[] = { 0x40000003, 2, 1, 0x6c6c6568 /* "hell" */, 0x6f, 0 };
    decode(KEV_C_KER_CALL, 11, w, 2, NULL); // QNX's MSG_SENDV fast: "fHcoid ... fSmsg"
    assert_string_equal(fs.name, "KER_CALL_MsgSend");
    assert_int_equal(fs.n, 2);
    assert_string_equal(fs.f[0].name, "coid");
    assert_int_equal(fs.f[0].v, 0x40000003);
    assert_string_equal(fs.f[1].name, "msg");
    decode(KEV_C_KER_CALL, 11, w, 6, NULL); // wide: coid sparts rparts msg (three words)
    assert_int_equal(fs.n, 4);
    assert_string_equal(fs.f[1].name, "sparts");
    assert_int_equal(fs.f[1].v, 2);
    assert_string_equal(fs.f[2].name, "rparts");
    assert_string_equal(fs.f[3].name, "msg");
    assert_string_equal(fs.f[3].str, "hello");
    decode(KEV_C_KER_CALL, 3, w, 2, NULL); // ThreadSelf, ours, on QNX's SPARE1: registers
    assert_int_equal(fs.n, 2);
    assert_string_equal(fs.f[0].name, "arg0");
    uint32_t fail[] = { 0xffffffffu, 11 };
    decode(KEV_C_KER_CALL, KEV_KC_EXIT(11), fail, 2, NULL);
    assert_string_equal(fs.name, "KER_EXIT_MsgSend");
    assert_int_equal((int64_t)kev_field_get(&fs, "ret")->v, -1);
    assert_int_equal(kev_field_get(&fs, "errno")->v, 11);
    // QNX's wide MSG_RECEIVEV exit: rcvid, 12 bytes of the message, then the _msg_info
    // (nd, srcnd, pid, tid, chid, scoid, coid, msglen, srcmsglen, dstmsglen, priority, flags,
    // reserved), each named; the same as an interrupted call (KER_INTR, read as its exit).
    uint32_t rx[17] = { 0x1234, 0, 0, 0, 0, 0, 7, 1, 3, 5, 9, 64, 64, 64, 10, 0, 0 };
    memcpy(&rx[1], "ping", 4);
    for (unsigned intr = 0; intr < 2; intr++) {
        decode(KEV_C_KER_CALL, intr ? KEV_KC_INTERRUPTED(14) : KEV_KC_EXIT(14), rx, 17, NULL);
        assert_int_equal(kev_field_get(&fs, "rcvid")->v, 0x1234);
        assert_string_equal(kev_field_get(&fs, "rmsg")->str, "ping");
        assert_int_equal(kev_field_get(&fs, "info_pid")->v, 7);
        assert_int_equal(kev_field_get(&fs, "info_tid")->v, 1);
        assert_int_equal(kev_field_get(&fs, "info_coid")->v, 9);
        assert_int_equal(kev_field_get(&fs, "info_priority")->v, 10);
        assert_null(kev_field_get(&fs, "more"));  // every word named
    }
}

// A capture of this kernel (its system page has the board's record): each call's own
// arguments, in the order user/lib/kcalls.c passes them, whatever QNX puts on that number.
static void kcall_ours(void **state)
{
    (void)state;
    struct kev_reader saved = rd;
    rd.kr_board_hz = 25000000;
    uint32_t send[] = { 3, 0x20004000, 16, 0x20004100, 4, 0 };
    decode(KEV_C_KER_CALL, 11, send, 6, NULL);          // MsgSend(coid, smsg, sbytes, rmsg, rbytes)
    assert_int_equal(fs.n, 5);
    const char *want[] = { "coid", "smsg", "sbytes", "rmsg", "rbytes" };
    for (unsigned i = 0; i < 5; i++) {
        assert_string_equal(fs.f[i].name, want[i]);
        assert_int_equal(fs.f[i].v, send[i]);
    }
    assert_int_equal(fs.f[1].kind, KEV_K_ADDR);
    decode(KEV_C_KER_CALL, 11, send, 2, NULL);          // fast: the first two
    assert_int_equal(fs.n, 2);
    uint32_t tmo[] = { 500000000u, 0 };                 // TimerTimeout(500 ms): QNX's 75 is
    decode(KEV_C_KER_CALL, 75, tmo, 2, NULL);           // TIMER_TIMEOUT "timeout_flags ..."
    assert_string_equal(fs.f[0].name, "ns_lo");
    assert_int_equal(fs.f[0].v, 500000000u);
    uint32_t spawn[] = { 0x2004006a, 0, 1, 0, 0, 0 };   // ProcSpawn, on QNX's CONNECT_SPARE1
    decode(KEV_C_KER_CALL, 44, spawn, 6, NULL);
    assert_int_equal(fs.n, 3);
    assert_string_equal(fs.f[0].name, "name");
    assert_string_equal(fs.f[1].name, "priority");
    assert_int_equal(fs.f[1].kind, KEV_K_PRIO);
    assert_string_equal(fs.f[2].name, "arg");
    uint32_t wait[] = { 0xffffffffu, 0x20047f44 };      // ProcWait(-1, &status): any child
    decode(KEV_C_KER_CALL, 62, wait, 2, NULL);
    assert_int_equal((int64_t)kev_field_get(&fs, "pid")->v, -1);
    uint32_t ok[] = { 9, 0 };
    decode(KEV_C_KER_CALL, KEV_KC_EXIT(55), ok, 2, NULL); // InterruptAttachEvent's id
    assert_int_equal((int64_t)kev_field_get(&fs, "ret")->v, 9);
    assert_null(kev_field_get(&fs, "handler_p"));       // not QNX's INTERRUPT_ATTACH exit
    // An exit's two words, as ktrace_kcall_exit_words writes them: [result, 0], [-1, errno],
    // or a raw call's result registers (ClockCycles' 64-bit count, low word first).
    assert_int_equal(fs.n, 2);
    assert_string_equal(fs.f[1].name, "errno");
    assert_int_equal(fs.f[1].v, 0);
    uint32_t failed[] = { 0xffffffffu, 16 };
    decode(KEV_C_KER_CALL, KEV_KC_EXIT(80), failed, 2, NULL); // MutexLock: EBUSY
    assert_int_equal((int64_t)kev_field_get(&fs, "ret")->v, -1);
    assert_int_equal(kev_field_get(&fs, "errno")->v, 16);
    assert_int_equal(kev_field_get(&fs, "errno")->kind, KEV_K_ERRNO);
    uint32_t cyc[] = { 0x89abcdefu, 0x17 };
    decode(KEV_C_KER_CALL, KEV_KC_EXIT(69), cyc, 2, NULL);    // ClockCycles
    assert_int_equal(fs.n, 1);
    assert_string_equal(fs.f[0].name, "cycles");
    assert_int_equal(fs.f[0].kind, KEV_K_CYCLES);
    assert_int_equal(fs.f[0].v, 0x1789abcdefull);
    decode(KEV_C_KER_CALL, KEV_KC_EXIT(65), cyc, 2, NULL);    // ClockTime: nanoseconds
    assert_string_equal(fs.f[0].name, "ns");
    assert_int_equal(fs.f[0].v, 0x1789abcdefull);
    uint32_t host[] = { 0xffffffffu, 0x20001000 };            // Semihost: the host's -1
    decode(KEV_C_KER_CALL, KEV_KC_EXIT(64), host, 2, NULL);
    assert_int_equal((int64_t)kev_field_get(&fs, "ret")->v, -1);
    assert_null(kev_field_get(&fs, "errno"));               // not errno-style
    assert_int_equal(kev_field_get(&fs, "reg1")->v, 0x20001000);
    rd = saved;
}

static void short_payloads(void **state)
{
    (void)state;
    uint32_t usdt[] = { 0x1001, 5, 1, 0, 2, 0 };  // claims 5 arguments, holds 2
    const struct kev_field *a = decode(KEV_C_SYSTEM, KEV_SYS_USDT, usdt, 6, "args");
    assert_non_null(a);
    assert_int_equal(a->n, 2);
    assert_int_equal(kev_field_get(&fs, "nargs")->v, 5);
    uint32_t image[] = { 7, 32, 0x10000, 0x04030201 }; // a 32-byte id in one word, no name
    a = decode(KEV_C_SYSTEM, KEV_SYS_IMAGE, image, 4, "build_id");
    assert_non_null(a);
    assert_string_equal(a->str, "01020304");
    assert_string_equal(kev_field_get(&fs, "name")->str, "");
    uint32_t st[] = { 1, KEV_STACK_INFO(KEV_STACK_USER, 2, 0) | KEV_STACK_PC64, 0, 0x400, 0 };
    a = decode(KEV_C_SYSTEM, KEV_SYS_STACK, st, 5, "pcs"); // 64-bit pcs, an odd word left
    assert_non_null(a);
    assert_int_equal(a->n, 1);
    assert_int_equal(a->arr[0], 0x400);
    uint32_t one[] = { 9 };                       // PRIO_CHANGE cut to one word
    assert_null(decode(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE, one, 1, "new_prio"));
    assert_non_null(kev_field_get(&fs, "who"));
}

static void unknown(void **state)
{
    (void)state;
    uint32_t w[] = { 1, 2, 3 };
    const struct kev_field *f = decode(KEV_C_SYSTEM, 0x3ff, w, 3, "words");
    assert_null(fs.desc);
    assert_string_equal(fs.name, "SYSTEM_1023");
    assert_non_null(f);
    assert_int_equal(f->n, 3);
    assert_int_equal(f->arr[2], 3);
}

static void every_row_found(void **state)
{
    (void)state;
    for (unsigned i = 0; i < kev_event_table_len; i++) {
        const struct kev_event_desc *d = &kev_event_table[i];
        assert_ptr_equal(kev_event_describe(d->cls, d->lo), d);
        assert_ptr_equal(kev_event_describe(d->cls, d->hi), d);
    }
    assert_null(kev_event_describe(KEV_C_SYSTEM, 0x3ff));
    assert_null(kev_event_describe(KEV_C_CONTROL, 3));
    assert_null(kev_event_describe(KEV_C_EMPTY, 0));
}

// kev_field_read, one field looked up once by name, on the same hand-packed words: PRIO_CHANGE's
// bits, FAULT's 64-bit pc high word first; a short payload and a field of no row read nothing.
static void field_read(void **state)
{
    (void)state;
    uint32_t w[] = { 5u << 16 | 2u, 30u | 10u << 8 | (uint32_t)KEV_PRIO_MUTEX << 16 };
    struct kev_event e = { .cls = KEV_C_SYSTEM, .ev = KEV_SYS_PRIO_CHANGE, .w = w, .nw = 2 };
    uint64_t v = 0;
    const struct kev_field_desc *old = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE,
                                                          "old_prio");
    assert_int_equal(kev_field_read(&e, old, &v), 1);
    assert_int_equal(v, 10);
    assert_int_equal(kev_field_read(&e, kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE,
                                                           "who"), &v), 1);
    assert_int_equal(kev_who_pid(v), 5);
    assert_int_equal(kev_who_tid(v), 2);
    e.nw = 1;
    assert_int_equal(kev_field_read(&e, old, &v), 0);
    assert_null(kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE, "no_such_field"));
    assert_int_equal(kev_field_read(&e, NULL, &v), 0);
    uint32_t f[] = { 0x10001u, 11u, 0x1u, 0x2345678u, 0, 0 };
    struct kev_event fe = { .cls = KEV_C_SYSTEM, .ev = KEV_SYS_FAULT, .w = f, .nw = 6 };
    assert_int_equal(kev_field_read(&fe, kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_FAULT, "pc"),
                                    &v), 1);
    assert_int_equal(v, 0x102345678ull);
    uint32_t x[] = { 0x1001u, 0x2002u, 8u, 0xcafeu, 0x1u };   // FUNC_EXIT's value, low word first
    struct kev_event xe = { .cls = KEV_C_SYSTEM, .ev = KEV_SYS_FUNC_EXIT, .w = x, .nw = 5 };
    const struct kev_field_desc *val = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_FUNC_EXIT, "value");
    assert_int_equal(kev_field_read(&xe, val, &v), 1);
    assert_int_equal(v, 0x10000cafeull);
    xe.nw = 4;                          // its high word cut: the low word, as decoded
    assert_int_equal(kev_field_read(&xe, val, &v), 1);
    assert_int_equal(v, 0xcafeu);
}

// The rest of the field API on the same hand-built events: kev_field gives a field's 32 bits
// (0 when the event is too short), kev_field_has and kev_field_word a one-word field's presence
// and whole word; kev_field_num a decoded field's value (not a string's); kev_field_text the
// name of an enum's or errno's value (QNX's errno 11, EAGAIN; PRIO_CHANGE's cause), none for
// any other kind.
static void field_api(void **state)
{
    (void)state;
    uint32_t w[] = { 5u << 16 | 2u, 30u | 10u << 8 | (uint32_t)KEV_PRIO_MUTEX << 16 };
    struct kev_event e = { .cls = KEV_C_SYSTEM, .ev = KEV_SYS_PRIO_CHANGE, .w = w, .nw = 2 };
    const struct kev_field_desc *nw = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE,
                                                         "new_prio");
    const struct kev_field_desc *who = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE, "who");
    assert_int_equal(kev_field(&e, nw), 30);
    assert_int_equal(kev_field(&e, who), 5u << 16 | 2u);
    assert_true(kev_field_has(&e, nw));
    assert_int_equal(kev_field_word(&e, nw), w[1]);       // the whole word the fields share
    assert_int_equal(kev_field_of_word(nw, w[1]), 30);
    assert_int_equal(kev_field(&e, NULL), 0);
    e.nw = 1;                                             // too short for the second word
    assert_int_equal(kev_field(&e, nw), 0);
    assert_false(kev_field_has(&e, nw));
    assert_int_equal(kev_field_word(&e, nw), 0);
    assert_int_equal(kev_field(&e, who), 5u << 16 | 2u);
    uint64_t v = 0;
    decode(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE, w, 2, NULL);
    assert_int_equal(kev_field_num(kev_field_get(&fs, "old_prio"), &v), 1);
    assert_int_equal(v, 10);
    assert_string_equal(kev_field_text(kev_field_get(&fs, "cause")), "mutex inheritance");
    assert_null(kev_field_text(kev_field_get(&fs, "old_prio")));
    v = 77;
    assert_int_equal(kev_field_num(kev_field_get(&fs, "no_such_field"), &v), 0);
    assert_int_equal(v, 77);                              // untouched
    uint32_t fail[] = { 0xffffffffu, 11 };
    decode(KEV_C_KER_CALL, KEV_KC_EXIT(11), fail, 2, NULL);
    assert_string_equal(kev_field_text(kev_field_get(&fs, "errno")), "EAGAIN");
    uint32_t m[] = { 0x1234, 0, 0, 0, 0, 0, 7, 1, 3, 5, 9, 64, 64, 64, 10, 0, 0 };
    memcpy(&m[1], "ping", 4);
    decode(KEV_C_KER_CALL, KEV_KC_EXIT(14), m, 17, NULL); // a string is no number
    assert_string_equal(kev_field_get(&fs, "rmsg")->str, "ping");
    assert_int_equal(kev_field_num(kev_field_get(&fs, "rmsg"), &v), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(prio_change), cmocka_unit_test(func_exit), cmocka_unit_test(kcall),
        cmocka_unit_test(kcall_ours),
        cmocka_unit_test(short_payloads), cmocka_unit_test(unknown),
        cmocka_unit_test(every_row_found), cmocka_unit_test(field_read), cmocka_unit_test(field_api),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
