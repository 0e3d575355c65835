// SPDX-License-Identifier: MIT
// A program's USDT notes read from their bytes (trace/d/dusdt_note.c), as the kernel reads
// them from a program's image: notes laid out as systemtap's SDT format says (its wiki's
// "UserSpaceProbeImplementation": an ELF note of owner "stapsdt", type 3, whose descriptor is
// the pc, the .stapsdt.base address and the semaphore, each a pointer wide, then provider,
// name and arguments NUL-terminated), with 4- and 8-byte pointers; notes of other owners or
// types passed over; and every malformed note (a size past the end, a descriptor too short
// for its addresses or without its three strings, a header cut short) refused, never read
// past the bytes given.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <d/dusdt_note.h>

// Appends one note to buf at *len: its header, owner (padded), descriptor (padded).
static void note(uint8_t *buf, uint32_t *len, const char *owner, uint32_t type,
                 const uint8_t *desc, uint32_t descsz)
{
    uint32_t namesz = (uint32_t)strlen(owner) + 1u, hdr[3] = { namesz, descsz, type };
    memcpy(buf + *len, hdr, 12);
    *len += 12;
    memset(buf + *len, 0, (namesz + 3u) & ~3u);
    memcpy(buf + *len, owner, namesz);
    *len += (namesz + 3u) & ~3u;
    memset(buf + *len, 0, (descsz + 3u) & ~3u);
    memcpy(buf + *len, desc, descsz);
    *len += (descsz + 3u) & ~3u;
}

// A stapsdt descriptor: pc, base, sem (width bytes each, little-endian), then the strings.
static uint32_t desc_of(uint8_t *d, unsigned width, uint64_t pc, uint64_t base, uint64_t sem,
                        const char *prov, const char *name, const char *args)
{
    uint64_t a[3] = { pc, base, sem };
    uint32_t n = 0;
    for (unsigned i = 0; i < 3; i++, n += width)
        memcpy(d + n, &a[i], width);        // (the host is little-endian, as the boards)
    for (const char *s[3] = { prov, name, args }, **p = s; p < s + 3; p++) {
        memcpy(d + n, *p, strlen(*p) + 1);
        n += (uint32_t)strlen(*p) + 1u;
    }
    return n;
}

static void test_read(unsigned width)
{
    uint8_t buf[512], d[128];
    uint32_t len = 0, off = 0;
    struct dusdt_note n;
    note(buf, &len, "GNU", 3, (const uint8_t *)"0123456789abcdefghij", 20);   // a build id
    note(buf, &len, "stapsdt", 3, d, desc_of(d, width, 0xe01e6, 0xe12a0, 0x20048024, "demo",
                                            "costly", "4@r4 4@r0"));
    note(buf, &len, "stapsdt", 4, d, 20);                                       // other type
    note(buf, &len, "stapsdt", 3, d, desc_of(d, width, 0x400004f8, 0x402416c8, 0, "demo",
                                            "done", ""));
    assert_int_equal(dusdt_note_next(buf, len, width, &off, &n), 1);
    assert_int_equal(n.pc, 0xe01e6);
    assert_int_equal(n.base, 0xe12a0);
    assert_int_equal(n.sem, 0x20048024);
    assert_string_equal(n.prov, "demo");
    assert_string_equal(n.name, "costly");
    assert_string_equal(n.args, "4@r4 4@r0");
    assert_int_equal(dusdt_note_next(buf, len, width, &off, &n), 1);
    assert_int_equal(n.pc, 0x400004f8);
    assert_int_equal(n.sem, 0);
    assert_string_equal(n.name, "done");
    assert_string_equal(n.args, "");
    assert_int_equal(off, len);
    assert_int_equal(dusdt_note_next(buf, len, width, &off, &n), 0);
    off = 0;
    assert_int_equal(dusdt_note_next(buf, 0, width, &off, &n), 0);   // no notes at all
}

static void test_width4(void **state)
{
    (void)state;
    test_read(4);
}

static void test_width8(void **state)
{
    (void)state;
    test_read(8);
}

// Each malformed note: -1, whatever follows it.
static void test_malformed(void **state)
{
    (void)state;
    uint8_t buf[256], d[128];
    uint32_t len, off, dl;
    struct dusdt_note n;
    dl = desc_of(d, 4, 0x100, 0x200, 0, "p", "n", "4@r0");
    // a header cut short
    len = 0;
    note(buf, &len, "stapsdt", 3, d, dl);
    off = 0;
    assert_int_equal(dusdt_note_next(buf, 8, 4, &off, &n), -1);
    // a descriptor size past the end, and a huge one (no wrap-around)
    for (uint32_t bad = dl + 8u; bad != 0; bad = bad == dl + 8u ? 0xfffffffdu : 0) {
        memcpy(buf + 4, &bad, 4);
        off = 0;
        assert_int_equal(dusdt_note_next(buf, len, 4, &off, &n), -1);
    }
    // a name size past the end
    len = 0;
    note(buf, &len, "stapsdt", 3, d, dl);
    uint32_t big = 0xfffffff0u;
    memcpy(buf, &big, 4);
    off = 0;
    assert_int_equal(dusdt_note_next(buf, len, 4, &off, &n), -1);
    // a descriptor too short for its three addresses
    len = 0;
    note(buf, &len, "stapsdt", 3, d, 10);
    off = 0;
    assert_int_equal(dusdt_note_next(buf, len, 4, &off, &n), -1);
    // the strings not ended inside the descriptor: the last NUL cut off, then two of them
    for (uint32_t cut = 1; cut <= 6; cut += 5) {
        len = 0;
        note(buf, &len, "stapsdt", 3, d, dl - cut);
        buf[len - 1] = buf[len - 2] = buf[len - 3] = 'x';     // (the padding too)
        off = 0;
        assert_int_equal(dusdt_note_next(buf, len, 4, &off, &n), -1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_width4),
        cmocka_unit_test(test_width8),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
