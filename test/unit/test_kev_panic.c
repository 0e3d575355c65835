// SPDX-License-Identifier: MIT
// The KPANIC decoder (trace/kev_panic.c) against payloads built by hand from the layout in
// docs/trace-events.md: a kernel fault's kind as FAULT's (KEV_FAULT_*) and its 64-bit words
// high first; a kpanic() call; an origin the decoder does not know; and a capture written
// before that layout (a cause 0-5, low words first), read as the kind each cause meant.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <trace/kev.h>
#include <trace/kev_panic.h>

static struct kev_reader rd;    // little-endian words, no names
static uint32_t words[16];

// A KPANIC event of the six words and msg packed after them as the ring packs a string.
static struct kev_event panic_event(const uint32_t w6[6], const char *msg)
{
    memset(words, 0, sizeof(words));
    memcpy(words, w6, 6 * sizeof(uint32_t));
    size_t len = strlen(msg);
    for (size_t i = 0; i <= len; i++)
        words[6 + i / 4] |= (uint32_t)(unsigned char)msg[i] << (8 * (i % 4));
    unsigned nw = 6u + (unsigned)(len + 4) / 4u;
    nw += nw & 1u;
    struct kev_event e = { 0 };
    e.cls = KEV_C_SYSTEM, e.ev = KEV_SYS_KPANIC, e.w = words, e.nw = nw, e.nslots = nw / 2;
    return e;
}

// w6 and msg as an event, decoded (which must succeed).
static struct kev_panic decoded(const uint32_t w6[6], const char *msg)
{
    struct kev_event e = panic_event(w6, msg);
    struct kev_panic p;
    assert_int_equal(kev_panic_decode(&rd, &e, &p), 1);
    return p;
}

static void kernel_fault(void **state)
{
    (void)state;
    const uint32_t w[6] = { KEV_PANIC_EXCEPTION | KEV_FAULT_BUS << 8 | KEV_FAULT_ADDR_VALID,
                            0x0u, 0x1234u, 0x0u, 0xfffffff0u, 1u << 16 | 1u };
    struct kev_panic p = decoded(w, "fault in kernel");
    assert_int_equal(p.origin, KEV_PANIC_EXCEPTION);
    assert_int_equal(p.kind, KEV_FAULT_BUS);
    assert_true(p.addr_valid);
    assert_false(p.old_layout);
    char line[256];
    kev_panic_format(&p, line, sizeof(line));
    assert_string_equal(line, "cause:bus error pc:0x00001234 addr:0xfffffff0 pid:1 tid:1 "
                              "msg:\"fault in kernel\"");
}

static void words_high_first(void **state)
{
    (void)state;
    const uint32_t w[6] = { KEV_PANIC_EXCEPTION | KEV_FAULT_EXEC << 8 | KEV_FAULT_ADDR_VALID,
                            0x1u, 0x40000010u, 0x2u, 0x80u, 3u << 16 | 2u };
    struct kev_panic p = decoded(w, "x");
    assert_int_equal(p.pc, 0x140000010ull);
    assert_int_equal(p.addr, 0x200000080ull);
    assert_int_equal(p.pid, 3);
    assert_int_equal(p.tid, 2);
}

static void software_and_unknown(void **state)
{
    (void)state;
    const uint32_t sw[6] = { KEV_PANIC_CALL, 0x0u, 0x8000u, 0x0u, 0x0u, 0u };
    struct kev_event e = panic_event(sw, "assertion");
    struct kev_panic p;
    char line[256];
    assert_int_equal(kev_panic_decode(&rd, &e, &p), 1);
    assert_false(p.addr_valid);
    kev_panic_format(&p, line, sizeof(line));
    assert_string_equal(line, "cause:software pc:0x00008000 addr:0x00000000 pid:0 tid:0 "
                              "msg:\"assertion\"");
    const uint32_t odd[6] = { 0x7fu, 0, 0x10u, 0, 0, 0 };
    e = panic_event(odd, "");
    assert_int_equal(kev_panic_decode(&rd, &e, &p), 1);
    kev_panic_format(&p, line, sizeof(line));
    assert_non_null(strstr(line, "cause:? pc:0x00000010"));
    e.nw = 4;   // too short for the six words
    assert_int_equal(kev_panic_decode(&rd, &e, &p), 0);
}

// Before the one word order: [cause, pc low, pc high, address low, address high, who].
static void old_capture(void **state)
{
    (void)state;
    const uint32_t w[6] = { KEV_PANIC_DATA, 0x40100010u, 0x1u, 0xfffffff0u, 0x0u, 1u << 16 | 1u };
    struct kev_panic p = decoded(w, "fault in kernel");
    assert_true(p.old_layout);
    assert_int_equal(p.origin, KEV_PANIC_EXCEPTION);
    assert_int_equal(p.kind, KEV_FAULT_ACCESS);
    assert_int_equal(p.pc, 0x140100010ull);
    assert_int_equal(p.addr, 0xfffffff0ull);
    assert_true(p.addr_valid);
    char line[256];
    kev_panic_format(&p, line, sizeof(line));
    assert_string_equal(line, "cause:access pc:0x140100010 addr:0xfffffff0 pid:1 tid:1 "
                              "msg:\"fault in kernel\"");
    static const unsigned kinds[] = { 0, KEV_FAULT_ACCESS, KEV_FAULT_EXEC, KEV_FAULT_UNDEF,
                                      KEV_FAULT_ALIGN, KEV_FAULT_OTHER };
    for (unsigned c = KEV_PANIC_SOFTWARE; c <= KEV_PANIC_OTHER; c++) {
        const uint32_t o[6] = { c, 0x100u, 0, 0, 0, 0 };
        p = decoded(o, "");
        assert_int_equal(p.origin, c == KEV_PANIC_SOFTWARE ? KEV_PANIC_CALL : KEV_PANIC_EXCEPTION);
        assert_int_equal(p.kind, kinds[c]);
        assert_int_equal(p.pc, 0x100u);
        assert_false(p.addr_valid);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernel_fault),
        cmocka_unit_test(words_high_first),
        cmocka_unit_test(software_and_unknown),
        cmocka_unit_test(old_capture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
