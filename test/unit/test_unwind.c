// SPDX-License-Identifier: MIT
// The unwinders' walks (kernel/unwind.c frame records, kernel/arch/armv7m/ehabi.c EHABI) over
// memory laid out by hand in a simulated address space: a five-frame chain gives its five pcs,
// and hostile stacks (a loop of frames, a frame pointer into memory the walk may not read, out
// of the stack's bounds, unaligned) give a short stack and the error that says why, never a
// crash (ASan) or an endless walk. The real tables and stacks are checked against gdb on QEMU.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <kernel/unwind.h>
#include <ehabi.h>

#define BASE 0x10000u
#define SIZE 0x4000u
static uint8_t mem[SIZE];
static uint64_t hole_lo, hole_hi; // reads there fail (another process, unmapped)

static int rd(const void *ctx, uint64_t addr, void *dst, unsigned n)
{
    (void)ctx;
    if (addr < BASE || addr + n > BASE + SIZE || (addr + n > hole_lo && addr < hole_hi))
        return -1;
    memcpy(dst, mem + (addr - BASE), n);
    return 0;
}

static void put32(uint32_t addr, uint32_t v) { memcpy(mem + (addr - BASE), &v, 4); }
static void put64(uint32_t addr, uint64_t v) { memcpy(mem + (addr - BASE), &v, 8); }

static int setup(void **state)
{
    (void)state;
    memset(mem, 0, sizeof(mem));
    hole_lo = hole_hi = 0;
    return 0;
}

/* ---- frame records (AArch64: 8-byte words) ------------------------------------------------ */

#define S0 0x12000u
static const struct unwind_mem fr_mem = { rd, NULL, S0, BASE + SIZE };

// five frames: pc, then four records each above the last, the outermost with fp 0
static void five_records(void)
{
    put64(S0 + 0x00, S0 + 0x40); put64(S0 + 0x08, 0x10310);
    put64(S0 + 0x40, S0 + 0x80); put64(S0 + 0x48, 0x10208);
    put64(S0 + 0x80, S0 + 0x100); put64(S0 + 0x88, 0x10122);
    put64(S0 + 0x100, 0); put64(S0 + 0x108, 0x10030);
}

static void test_records_chain(void **state)
{
    (void)state;
    five_records();
    uint64_t pcs[16];
    int err = -1;
    unsigned n = unwind_frame_records(&fr_mem, 8, 0x10404, S0, pcs, 16, &err);
    assert_int_equal(n, 5);
    assert_int_equal(err, UNWIND_OK);
    uint64_t want[] = { 0x10404, 0x10310, 0x10208, 0x10122, 0x10030 };
    for (unsigned i = 0; i < 5; i++)
        assert_int_equal(pcs[i], want[i]);
    n = unwind_frame_records(&fr_mem, 8, 0x10404, S0, pcs, 3, &err); // the depth bound
    assert_int_equal(n, 3);
}

static void test_records_loop(void **state)
{
    (void)state;
    five_records();
    put64(S0 + 0x80, S0 + 0x40); // the third record points back at the second
    uint64_t pcs[64];
    int err;
    unsigned n = unwind_frame_records(&fr_mem, 8, 0x10404, S0, pcs, 64, &err);
    assert_int_equal(err, UNWIND_E_LOOP);
    assert_int_equal(n, 4);
    put64(S0 + 0x00, S0); // a record pointing at itself
    n = unwind_frame_records(&fr_mem, 8, 0x10404, S0, pcs, 64, &err);
    assert_int_equal(err, UNWIND_E_LOOP);
    assert_int_equal(n, 2);
}

static void test_records_hostile_pointers(void **state)
{
    (void)state;
    uint64_t pcs[16];
    int err;
    five_records();
    put64(S0 + 0x40, S0 + 0x83); // unaligned
    assert_int_equal(unwind_frame_records(&fr_mem, 8, 0x10404, S0, pcs, 16, &err), 3);
    assert_int_equal(err, UNWIND_E_ALIGN);
    put64(S0 + 0x40, 0xffff000000001000ull); // kernel memory: out of the stack's bounds
    assert_int_equal(unwind_frame_records(&fr_mem, 8, 0x10404, S0, pcs, 16, &err), 3);
    assert_int_equal(err, UNWIND_E_BOUNDS);
    put64(S0 + 0x40, S0 + 0x80);
    hole_lo = S0 + 0x80, hole_hi = S0 + 0x100; // another process's memory, or unmapped
    assert_int_equal(unwind_frame_records(&fr_mem, 8, 0x10404, S0, pcs, 16, &err), 3);
    assert_int_equal(err, UNWIND_E_READ);
    // 4-byte records (i686's ebp chain)
    hole_lo = hole_hi = 0;
    put32(S0, S0 + 0x10); put32(S0 + 4, 0x10111);
    put32(S0 + 0x10, 0); put32(S0 + 0x14, 0x10222);
    assert_int_equal(unwind_frame_records(&fr_mem, 4, 0x10404, S0, pcs, 16, &err), 3);
    assert_int_equal(err, UNWIND_OK);
    assert_int_equal(pcs[2], 0x10222);
}

/* ---- EHABI ------------------------------------------------------------------------------- */

#define TAB 0x13000u
#define TAB_N 7u
#define EXTAB 0x13800u
static const struct ehabi_table tab = { TAB, TAB + TAB_N * 8u, 0x10000, 0x10700 };
static const struct unwind_mem eh_mem = { rd, NULL, S0, 0x13000 };

static uint32_t prel(uint32_t where, uint32_t to) { return (to - where) & 0x7fffffffu; }

// Functions C4 0x10000, C3 0x10100, C2 0x10200, C1 0x10300, L 0x10400, X 0x10500 (no unwind
// information: EXIDX_CANTUNWIND), Z 0x10600 (pushes nothing).
static void tables(void)
{
    static const uint32_t fn[TAB_N] = { 0x10000, 0x10100, 0x10200, 0x10300, 0x10400, 0x10500,
                                        0x10600 };
    uint32_t data[TAB_N] = {
        0x80a8b0b0u,  // C4: pop {r4, lr}
        0x8003afb0u,  // C3: vsp += 16; pop {r4-r11, lr}
        0,            // C2: .ARM.extab, personality 1: pop {r7, lr} (0x84 0x08)
        0x8001aab0u,  // C1: vsp += 8; pop {r4-r6, lr}
        0x80a8b0b0u,  // L: pop {r4, lr}
        1u,           // X: EXIDX_CANTUNWIND
        0x80b0b0b0u,  // Z: finish (pc = lr)
    };
    for (unsigned i = 0; i < TAB_N; i++) {
        uint32_t e = TAB + i * 8u;
        put32(e, prel(e, fn[i]));
        put32(e + 4, i == 2 ? prel(e + 4, EXTAB) : data[i]);
    }
    put32(EXTAB, 0x81008408u);
}

// The stack of L (interrupted at 0x10404) called from C1, C2, C3, C4 (return addresses with
// the Thumb bit, as bl leaves them in lr).
static void ehabi_stack(void)
{
    tables();
    put32(S0 + 0, 0x4444); put32(S0 + 4, 0x10311);                       // L
    put32(S0 + 16, 4); put32(S0 + 20, 5); put32(S0 + 24, 6);            // C1: 8 bytes, r4-r6
    put32(S0 + 28, 0x10209);
    put32(S0 + 32, 7); put32(S0 + 36, 0x10123);                          // C2: r7, lr
    for (unsigned i = 0; i < 8; i++)                                     // C3: 16 bytes, r4-r11
        put32(S0 + 56 + 4 * i, 100 + i);
    put32(S0 + 88, 0x10031);
    put32(S0 + 92, 0); put32(S0 + 96, 0);                                // C4: r4, lr = 0
}

static void start_regs(struct ehabi_regs *r, uint32_t pc, uint32_t sp)
{
    memset(r, 0, sizeof(*r));
    r->r[15] = pc;
    r->r[13] = sp;
    r->r[14] = 0xdead; // a leaf's stale lr: the tables say where the real one is
}

static void test_ehabi_chain(void **state)
{
    (void)state;
    ehabi_stack();
    struct ehabi_regs r;
    start_regs(&r, 0x10405, S0);
    uint64_t pcs[16];
    int err = -1;
    unsigned n = ehabi_unwind(&eh_mem, &tab, &r, pcs, 16, &err);
    assert_int_equal(err, UNWIND_OK);
    assert_int_equal(n, 5);
    uint64_t want[] = { 0x10404, 0x10310, 0x10208, 0x10122, 0x10030 };
    for (unsigned i = 0; i < 5; i++)
        assert_int_equal(pcs[i], want[i]);
    assert_int_equal(r.r[7], 103); // callee-saved registers restored on the way (C3 last)
    assert_int_equal(r.r[11], 107);
    start_regs(&r, 0x10405, S0);
    assert_int_equal(ehabi_unwind(&eh_mem, &tab, &r, pcs, 2, &err), 2); // the depth bound
}

static void test_ehabi_ends(void **state)
{
    (void)state;
    ehabi_stack();
    struct ehabi_regs r;
    uint64_t pcs[16];
    int err;
    start_regs(&r, 0x10502, S0); // code without unwind information (EXIDX_CANTUNWIND)
    assert_int_equal(ehabi_unwind(&eh_mem, &tab, &r, pcs, 16, &err), 1);
    assert_int_equal(err, UNWIND_OK);
    put32(S0 + 28, 0xffffffffu); // C1 returns to no code (a thread's entry sentinel)
    start_regs(&r, 0x10405, S0);
    assert_int_equal(ehabi_unwind(&eh_mem, &tab, &r, pcs, 16, &err), 2);
    assert_int_equal(err, UNWIND_E_READ);
    assert_int_equal(r.r[15], 0xfffffffeu);
    start_regs(&r, 0x0fff0, S0); // below every function in the table
    assert_int_equal(ehabi_unwind(&eh_mem, &tab, &r, pcs, 16, &err), 1);
    assert_int_equal(err, UNWIND_E_NOINFO);
}

static void test_ehabi_hostile(void **state)
{
    (void)state;
    struct ehabi_regs r;
    uint64_t pcs[64];
    int err;
    ehabi_stack();
    start_regs(&r, 0x10602, S0); // Z pushes nothing and its lr names itself: a loop
    r.r[14] = 0x10605;
    assert_int_equal(ehabi_unwind(&eh_mem, &tab, &r, pcs, 64, &err), 2);
    assert_int_equal(err, UNWIND_E_LOOP);
    ehabi_stack();
    put32(S0 + 36, 0x10605); // C2 returns into Z, whose lr (C2's) is no caller: sp stays
    start_regs(&r, 0x10405, S0);
    unsigned n = ehabi_unwind(&eh_mem, &tab, &r, pcs, 64, &err);
    assert_true(n <= 5);
    assert_int_not_equal(err, UNWIND_OK);
    start_regs(&r, 0x10405, S0 + 2); // unaligned sp
    assert_int_equal(ehabi_unwind(&eh_mem, &tab, &r, pcs, 64, &err), 1);
    assert_int_equal(err, UNWIND_E_ALIGN);
    start_regs(&r, 0x10405, 0xf0000000u); // sp in the kernel / out of the stack's bounds
    assert_int_equal(ehabi_unwind(&eh_mem, &tab, &r, pcs, 64, &err), 1);
    assert_int_equal(err, UNWIND_E_BOUNDS);
    ehabi_stack();
    hole_lo = S0 + 16, hole_hi = S0 + 32; // C1's frame unreadable (another process's)
    start_regs(&r, 0x10405, S0);
    assert_int_equal(ehabi_unwind(&eh_mem, &tab, &r, pcs, 64, &err), 2);
    assert_int_equal(err, UNWIND_E_READ);
    hole_lo = TAB, hole_hi = TAB + 8 * TAB_N; // the table itself unreadable
    start_regs(&r, 0x10405, S0);
    assert_int_equal(ehabi_unwind(&eh_mem, &tab, &r, pcs, 64, &err), 1);
    assert_int_equal(err, UNWIND_E_READ);
    hole_lo = hole_hi = 0;
    struct ehabi_table odd = { TAB, TAB + 5, 0x10000, 0x10700 }; // no whole entries
    start_regs(&r, 0x10405, S0);
    assert_int_equal(ehabi_unwind(&eh_mem, &odd, &r, pcs, 64, &err), 1);
    assert_int_equal(err, UNWIND_E_NOINFO);
    put32(TAB + 4 * 8 + 4, 0x80800000u); // L: "refuse to unwind" (pop of an empty mask)
    start_regs(&r, 0x10405, S0);
    assert_int_equal(ehabi_unwind(&eh_mem, &tab, &r, pcs, 64, &err), 1);
    assert_int_equal(err, UNWIND_E_NOINFO);
}

static void test_error_counts(void **state)
{
    (void)state;
    uint32_t before = unwind_errors[UNWIND_E_LOOP];
    unwind_count(UNWIND_E_LOOP);
    unwind_count(UNWIND_OK);
    assert_int_equal(unwind_errors[UNWIND_E_LOOP], before + 1);
    assert_string_equal(unwind_err_name(UNWIND_E_LOOP), "frame loop");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_records_chain, setup),
        cmocka_unit_test_setup(test_records_loop, setup),
        cmocka_unit_test_setup(test_records_hostile_pointers, setup),
        cmocka_unit_test_setup(test_ehabi_chain, setup),
        cmocka_unit_test_setup(test_ehabi_ends, setup),
        cmocka_unit_test_setup(test_ehabi_hostile, setup),
        cmocka_unit_test_setup(test_error_counts, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
