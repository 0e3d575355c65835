// SPDX-License-Identifier: MIT
// The STACK / FAULT decoder (trace/kev_stack.c) against payloads built by hand from the layout
// in docs/trace-events.md: 32- and 64-bit pcs, the cut-short reason and the depth bound, and
// malformed payloads (short, over the depth bound, unknown kind) refused without reading past;
// the IMAGE decoder (trace/kev_image.c) the same way: the id's bytes and the name after them,
// a payload too short for its id or an id longer than the kernel writes refused.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <trace/kev_stack.h>
#include <trace/kev_image.h>

static void stack32(void **state)
{
    (void)state;
    uint32_t w[] = { 5u << 16 | 2u, KEV_STACK_INFO(KEV_STACK_USER, 3, 0), 0xc009a, 0xc0101, 0xc0201 };
    struct kev_stack s;
    assert_int_equal(kev_stack_decode(w, 5, &s), 0);
    assert_int_equal(s.pid, 5);
    assert_int_equal(s.tid, 2);
    assert_int_equal(s.kind, KEV_STACK_USER);
    assert_int_equal(s.depth, 3);
    assert_int_equal(s.ended, 0);
    assert_false(s.at_max);
    assert_false(s.pc64);
    assert_int_equal(s.pcs[0], 0xc009a);
    assert_int_equal(s.pcs[2], 0xc0201);
    char b[200];
    kev_stack_text(&s, b, sizeof(b));
    assert_string_equal(b, "5/2 user depth 3 0xc009a 0xc0101 0xc0201");
}

static void stack64_cut(void **state)
{
    (void)state;
    uint32_t w[] = { 3u << 16 | 1u,
                     KEV_STACK_INFO(KEV_STACK_FAULT, 2, 3) | KEV_STACK_PC64,
                     0x1u, 0x40000010u, 0x0u, 0x400123u };
    struct kev_stack s;
    assert_int_equal(kev_stack_decode(w, 6, &s), 0);
    assert_true(s.pc64);
    assert_int_equal(s.ended, 3);
    assert_int_equal(s.pcs[0], 0x140000010ull);
    assert_int_equal(s.pcs[1], 0x400123u);
    assert_string_equal(kev_stack_ended_name(s.ended), "frame loop");
    char b[200];
    kev_stack_text(&s, b, sizeof(b));
    assert_string_equal(b, "3/1 fault depth 2 (cut short: frame loop) 0x140000010 0x400123");
}

static void stack_bad(void **state)
{
    (void)state;
    struct kev_stack s;
    uint32_t w[70] = { 1u << 16 | 1u, KEV_STACK_INFO(KEV_STACK_USER, 3, 0) };
    assert_int_equal(kev_stack_decode(w, 4, &s), -1);          // 3 pcs need 5 words
    assert_int_equal(kev_stack_decode(w, 1, &s), -1);
    assert_int_equal(kev_stack_decode(NULL, 0, &s), -1);
    w[1] = KEV_STACK_INFO(KEV_STACK_USER, 3, 0) | KEV_STACK_PC64;
    assert_int_equal(kev_stack_decode(w, 7, &s), -1);          // 64-bit: 8 words
    assert_int_equal(kev_stack_decode(w, 8, &s), 0);
    w[1] = KEV_STACK_INFO(KEV_STACK_USER, 33, 0);               // over the bound
    assert_int_equal(kev_stack_decode(w, 70, &s), -1);
    w[1] = KEV_STACK_INFO(9, 1, 0);                             // unknown kind
    assert_int_equal(kev_stack_decode(w, 70, &s), -1);
    w[1] = KEV_STACK_INFO(KEV_STACK_KERNEL, 32, 0) | KEV_STACK_AT_MAX;
    assert_int_equal(kev_stack_decode(w, 34, &s), 0);
    assert_true(s.at_max);
}

static void fault(void **state)
{
    (void)state;
    uint32_t w[] = { 7u << 16 | 1u, 11u | KEV_FAULT_ACCESS << 8 | KEV_FAULT_ADDR_VALID,
                     0, 0xc00bc, 0, 0x20000100 };
    struct kev_fault f;
    assert_int_equal(kev_fault_decode(w, 5, &f), -1);
    assert_int_equal(kev_fault_decode(w, 6, &f), 0);
    assert_int_equal(f.pid, 7);
    assert_int_equal(f.sig, 11);
    assert_int_equal(f.kind, KEV_FAULT_ACCESS);
    assert_true(f.addr_valid);
    assert_int_equal(f.pc, 0xc00bc);
    assert_int_equal(f.addr, 0x20000100);
    char b[200];
    kev_fault_text(&f, b, sizeof(b));
    assert_string_equal(b, "7/1 SIGSEGV access pc 0xc00bc addr 0x20000100");
    w[1] = 4u | KEV_FAULT_UNDEF << 8;
    assert_int_equal(kev_fault_decode(w, 6, &f), 0);
    kev_fault_text(&f, b, sizeof(b));
    assert_string_equal(b, "7/1 SIGILL undefined instruction pc 0xc00bc");
}

// An IMAGE payload as a little-endian 1.02 file gives it: [pid, length, load, id..., name].
static void image(void **state)
{
    (void)state;
    static struct kev_reader r;     // (byte order and version: a little-endian 1.02 file)
    r.kr_ver_minor = 2;
    uint32_t w[16] = { 5, 20, 0xc0000 };
    uint8_t id[20];
    for (unsigned i = 0; i < 20; i++)
        id[i] = (uint8_t)(0x78 + i);
    memcpy(&w[3], id, 20);
    memcpy(&w[8], "stackfault", 11);
    struct kev_event e = { .cls = KEV_C_SYSTEM, .ev = KEV_SYS_IMAGE, .w = w, .nw = 11 };
    struct kev_image im;
    assert_int_equal(kev_image_decode(&r, &e, &im), 0);
    assert_int_equal(im.pid, 5);
    assert_int_equal(im.base, 0xc0000);
    assert_int_equal(im.id_len, 20);
    assert_memory_equal(im.id, id, 20);
    assert_string_equal(im.name, "stackfault");
    char b[200];
    kev_image_text(&im, b, sizeof(b));
    assert_string_equal(b, "pid:5 build_id:78797a7b7c7d7e7f808182838485868788898a8b load:0x000c0000 "
                           "name:stackfault");
    e.nw = 7;                       // shorter than its id
    assert_int_equal(kev_image_decode(&r, &e, &im), -1);
    e.nw = 11;
    w[1] = 33;                      // longer than the kernel writes
    assert_int_equal(kev_image_decode(&r, &e, &im), -1);
    w[1] = 0;                       // none: the name follows the three words
    memcpy(&w[3], "demo.elf", 9);
    assert_int_equal(kev_image_decode(&r, &e, &im), 0);
    assert_int_equal(im.id_len, 0);
    assert_string_equal(im.name, "demo.elf");
    e.ev = KEV_SYS_STACK;           // not an IMAGE event
    assert_int_equal(kev_image_decode(&r, &e, &im), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stack32), cmocka_unit_test(stack64_cut), cmocka_unit_test(stack_bad),
        cmocka_unit_test(fault), cmocka_unit_test(image),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
