// SPDX-License-Identifier: MIT
// The contiguous allocator: the trace ring's 32 x 16 KB block, exhaustion, fragmentation,
// alignment and rejected frees.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>
#include <kernel/pmem.h>

#define POOL (2u << 20)
static struct pmem m;
static uint8_t *pool;

static int setup(void **state)
{
    (void)state;
    pool = aligned_alloc(PMEM_PAGE_SIZE * 16, POOL);
    assert_non_null(pool);
    pmem_init(&m, (uintptr_t)pool, POOL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(pool);
    return 0;
}

static void test_trace_ring_block(void **state)
{
    (void)state;
    uint8_t *p = pmem_alloc(&m, 32 * 16384, 16384);
    assert_non_null(p);
    assert_int_equal(((uintptr_t)p) % 16384, 0);
    assert_int_equal(pmem_free_bytes(&m), POOL - 32 * 16384);
    p[0] = 1;
    p[32 * 16384 - 1] = 2;      // the whole block is ours (ASan would catch an overrun)
    assert_true(pmem_free(&m, p));
    assert_int_equal(pmem_free_bytes(&m), POOL);
}

static void test_exhaustion_says_no(void **state)
{
    (void)state;
    void *a = pmem_alloc(&m, POOL, 1);
    assert_non_null(a);
    assert_null(pmem_alloc(&m, 1, 1));
    assert_true(pmem_free(&m, a));
    assert_null(pmem_alloc(&m, POOL + 1, 1));
    assert_null(pmem_alloc(&m, 0, 1));
    assert_null(pmem_alloc(&m, 4096, 3));       // alignment not a power of two
}

static void test_fragmentation(void **state)
{
    (void)state;
    void *blk[16];
    size_t sz = POOL / 16;
    for (int i = 0; i < 16; i++)
        assert_non_null(blk[i] = pmem_alloc(&m, sz, 1));
    for (int i = 0; i < 16; i += 2)
        assert_true(pmem_free(&m, blk[i]));
    // Half the pool is free, but in pieces of sz: a block of 2*sz must fail cleanly.
    assert_int_equal(pmem_free_bytes(&m), POOL / 2);
    assert_int_equal(pmem_largest_free(&m), sz);
    assert_null(pmem_alloc(&m, 2 * sz, 1));
    assert_non_null(pmem_alloc(&m, sz, 1));
    // Freeing a neighbour joins two holes.
    assert_true(pmem_free(&m, blk[3]));
    assert_int_equal(pmem_largest_free(&m), 3 * sz);
    assert_non_null(pmem_alloc(&m, 2 * sz, 1));
}

static void test_bad_free_rejected(void **state)
{
    (void)state;
    uint8_t *a = pmem_alloc(&m, 3 * PMEM_PAGE_SIZE, 1);
    assert_non_null(a);
    assert_false(pmem_free(&m, a + PMEM_PAGE_SIZE));    // not the start of a block
    assert_false(pmem_free(&m, a + 1));
    assert_false(pmem_free(&m, pool + POOL));
    assert_true(pmem_free(&m, a));
    assert_false(pmem_free(&m, a));                     // double free
    assert_int_equal(pmem_free_bytes(&m), POOL);
}

static void test_alignment(void **state)
{
    (void)state;
    void *a = pmem_alloc(&m, PMEM_PAGE_SIZE, 1);
    void *b = pmem_alloc(&m, PMEM_PAGE_SIZE, 64 * 1024);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(((uintptr_t)b - (uintptr_t)pool) % (64 * 1024), 0);
    assert_true(pmem_free(&m, a));
    assert_true(pmem_free(&m, b));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_trace_ring_block, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exhaustion_says_no, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fragmentation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_free_rejected, setup, teardown),
        cmocka_unit_test_setup_teardown(test_alignment, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
