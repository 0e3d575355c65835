// SPDX-License-Identifier: MIT
// Unit tests (cmocka, under ASan/UBSan) of kev2perfetto's protobuf encoder (kx_pb.h): a
// length-delimited field written in place (pb_open / pb_close) gives the bytes protobuf's
// encoding guide gives - the tag, the length as the shortest base-128 varint, the content -
// at the lengths where the varint grows (127/128, 16383/16384), for the guide's own example
// (300: AC 02), and nested, with the content moved intact when a length widens.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kevhost/kx_pb.h>

// Field 4 written in place with n content bytes (i & 0xff), starting after one byte (0x99),
// checked against the tag 0x22 (4 << 3 | 2), the length's bytes len[] and the content.
static void one(size_t n, const uint8_t *len, size_t nlen)
{
    struct pb b = { 0 };
    pb_varint(&b, 0x99); // (a two-byte varint: 0x99 0x01)
    size_t head = b.len;
    size_t at = pb_open(&b, 4);
    for (size_t i = 0; i < n; i++) {
        pb_reserve(&b, 1);
        b.p[b.len++] = (uint8_t)i;
    }
    pb_close(&b, at);
    assert_int_equal(b.len, head + 1 + nlen + n);
    assert_int_equal(b.p[0], 0x99);
    assert_int_equal(b.p[1], 0x01);
    assert_int_equal(b.p[head], 0x22);
    assert_memory_equal(b.p + head + 1, len, nlen);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(b.p[head + 1 + nlen + i], (uint8_t)i);
    free(b.p);
}

static void test_lengths(void **state)
{
    (void)state;
    one(0, (const uint8_t[]){ 0x00 }, 1);
    one(1, (const uint8_t[]){ 0x01 }, 1);
    one(127, (const uint8_t[]){ 0x7f }, 1);
    one(128, (const uint8_t[]){ 0x80, 0x01 }, 2);
    one(300, (const uint8_t[]){ 0xac, 0x02 }, 2);
    one(16383, (const uint8_t[]){ 0xff, 0x7f }, 2);
    one(16384, (const uint8_t[]){ 0x80, 0x80, 0x01 }, 3);
}

// Outer field 1 { inner field 2 { 200 bytes }, varint field 3 = 1 }: inner 2 + 200 bytes
// (C8 01), outer 1 + 2 + 200 + 2 = 205 (CD 01), as pb_bytes of the parts built apart gives.
static void test_nested(void **state)
{
    (void)state;
    struct pb b = { 0 }, inner = { 0 }, outer = { 0 }, ref = { 0 };
    size_t o = pb_open(&b, 1), i = pb_open(&b, 2);
    for (unsigned k = 0; k < 200; k++)
        pb_reserve(&b, 1), b.p[b.len++] = (uint8_t)k;
    pb_close(&b, i);
    pb_int(&b, 3, 1);
    pb_close(&b, o);
    static const uint8_t head[] = { 0x0a, 0xcd, 0x01, 0x12, 0xc8, 0x01 };
    assert_int_equal(b.len, sizeof(head) + 200 + 2);
    assert_memory_equal(b.p, head, sizeof(head));
    for (unsigned k = 0; k < 200; k++)
        assert_int_equal(b.p[sizeof(head) + k], (uint8_t)k);
    assert_int_equal(b.p[sizeof(head) + 200], 0x18);
    assert_int_equal(b.p[sizeof(head) + 201], 0x01);
    for (unsigned k = 0; k < 200; k++) // the same message built apart and copied
        pb_reserve(&inner, 1), inner.p[inner.len++] = (uint8_t)k;
    pb_bytes(&outer, 2, inner.p, inner.len);
    pb_int(&outer, 3, 1);
    pb_bytes(&ref, 1, outer.p, outer.len);
    assert_int_equal(ref.len, b.len);
    assert_memory_equal(ref.p, b.p, b.len);
    free(b.p), free(inner.p), free(outer.p), free(ref.p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lengths),
        cmocka_unit_test(test_nested),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
