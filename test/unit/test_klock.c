// SPDX-License-Identifier: MIT
// The lock-order checker (kernel/klock_check.c, kernel/klock.h), built as a KLOCK_CHECK image's
// kernel has it, with two CPUs: locks taken in increasing rank pass; a rank taken at or below
// one held, or released unheld, is a kernel panic (here caught), and each CPU's ranks are its
// own. The truth is the rank table the lock order in docs/smp.md gives (a sync object, then a
// channel, then the pulse pool, then the run queue); the panic texts are built from the
// KLOCK_RANK_* names.
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <kernel/kernel.h>
#include <kernel/klock.h>

struct cpu k_cpus[KMAX_CPUS];
struct cpu *test_this_cpu = &k_cpus[0];

static jmp_buf panic_jmp;
static char panic_msg[160];

void kpanic(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(panic_msg, sizeof(panic_msg), fmt, ap);
    va_end(ap);
    longjmp(panic_jmp, 1);
}

static struct kspin chan, pool, runq;

// True when the last panic's text is `fmt` filled in (the ranks as the names give them).
static bool panicked_with(const char *fmt, ...)
{
    char want[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(want, sizeof(want), fmt, ap);
    va_end(ap);
    return strstr(panic_msg, want) != NULL;
}

int test_in_shared;
int test_spins_held;

static void reset(void **state)
{
    (void)state;
    test_in_shared = 0;
    for (unsigned i = 0; i < KMAX_CPUS; i++) {
        k_cpus[i].id = i;
        k_cpus[i].locks_held = 0;
    }
    test_this_cpu = &k_cpus[0];
    chan.word = pool.word = runq.word = 0;
    panic_msg[0] = '\0';
}

// Work of the exclusive side (a channel's queues without its lock: ipc.c chan_lock) passes in
// an exclusive entry and is a panic naming it in a shared one (the high-water notification a
// shared traced exit once delivered: kernel/kentry_shared.h).
static void exclusive_work_in_shared_entry_panics(void **state)
{
    reset(state);
    if (setjmp(panic_jmp))
        fail_msg("panicked: %s", panic_msg);
    klock_check_exclusive("a channel's queues touched without its lock");
    arch_kernel_enter_shared();
    if (!setjmp(panic_jmp)) {
        klock_check_exclusive("a channel's queues touched without its lock");
        fail_msg("exclusive work in a shared entry without a panic");
    }
    assert_true(panicked_with("a channel's queues touched without its lock on CPU 0 in a shared "
                              "entry"));
    arch_kernel_exit_shared();
}

static void in_order_passes(void **state)
{
    reset(state);
    if (setjmp(panic_jmp))
        fail_msg("panicked: %s", panic_msg);
    kspin_lock(&chan, KLOCK_RANK_CHAN);
    kspin_lock(&runq, KLOCK_RANK_RUNQ);
    assert_int_equal(k_cpus[0].locks_held, 1u << KLOCK_RANK_CHAN | 1u << KLOCK_RANK_RUNQ);
    kspin_unlock(&chan, KLOCK_RANK_CHAN);   // (released out of order: allowed)
    kspin_unlock(&runq, KLOCK_RANK_RUNQ);
    assert_int_equal(k_cpus[0].locks_held, 0);
    kspin_lock(&runq, KLOCK_RANK_RUNQ);     // alone
    kspin_unlock(&runq, KLOCK_RANK_RUNQ);
}

// Holding `held` (rank `held_rank`), taking `taken` (rank `taken_rank`) is a panic naming both.
static void assert_order_panics(struct kspin *held, unsigned held_rank, struct kspin *taken,
                                unsigned taken_rank)
{
    kspin_lock(held, held_rank);
    if (!setjmp(panic_jmp)) {
        kspin_lock(taken, taken_rank);
        fail_msg("rank %u taken holding rank %u without a panic", taken_rank, held_rank);
    }
    assert_true(panicked_with("lock order: rank %u taken on CPU 0 holding ranks %x", taken_rank,
                              1u << held_rank));
}

static void out_of_order_panics(void **state)
{
    reset(state);
    assert_order_panics(&runq, KLOCK_RANK_RUNQ, &chan, KLOCK_RANK_CHAN);
}

static void same_rank_twice_panics(void **state)
{
    reset(state);
    kspin_lock(&chan, KLOCK_RANK_CHAN);
    struct kspin other = { 0 };
    if (!setjmp(panic_jmp)) {
        kspin_lock(&other, KLOCK_RANK_CHAN);    // two channels at once: no order between them
        fail_msg("second channel lock taken without a panic");
    }
    assert_true(panicked_with("rank %u taken on CPU 0 holding ranks %x", KLOCK_RANK_CHAN,
                              1u << KLOCK_RANK_CHAN));
}

static void release_unheld_panics(void **state)
{
    reset(state);
    if (!setjmp(panic_jmp)) {
        kspin_unlock(&runq, KLOCK_RANK_RUNQ);
        fail_msg("run-queue lock released unheld without a panic");
    }
    assert_true(panicked_with("rank %u released on CPU 0, not held", KLOCK_RANK_RUNQ));
}

// The pulse pool (ipc.c): under a channel's lock, before the run queue's.
static void pulse_pool_between_chan_and_runq(void **state)
{
    reset(state);
    if (setjmp(panic_jmp))
        fail_msg("panicked: %s", panic_msg);
    kspin_lock(&chan, KLOCK_RANK_CHAN);
    kspin_lock(&pool, KLOCK_RANK_PULSE);
    kspin_lock(&runq, KLOCK_RANK_RUNQ);
    assert_int_equal(k_cpus[0].locks_held,
                     1u << KLOCK_RANK_CHAN | 1u << KLOCK_RANK_PULSE | 1u << KLOCK_RANK_RUNQ);
    kspin_unlock(&pool, KLOCK_RANK_PULSE);
    kspin_unlock(&runq, KLOCK_RANK_RUNQ);
    kspin_unlock(&chan, KLOCK_RANK_CHAN);
    assert_int_equal(k_cpus[0].locks_held, 0);
}

static void pulse_pool_under_runq_panics(void **state)
{
    reset(state);
    assert_order_panics(&runq, KLOCK_RANK_RUNQ, &pool, KLOCK_RANK_PULSE);
}

static void chan_under_pulse_pool_panics(void **state)
{
    reset(state);
    assert_order_panics(&pool, KLOCK_RANK_PULSE, &chan, KLOCK_RANK_CHAN);
}

static void ranks_are_per_cpu(void **state)
{
    reset(state);
    if (setjmp(panic_jmp))
        fail_msg("panicked: %s", panic_msg);
    kspin_lock(&runq, KLOCK_RANK_RUNQ);     // CPU 0 holds the run queue...
    test_this_cpu = &k_cpus[1];
    struct kspin ch1 = { 0 };
    kspin_lock(&ch1, KLOCK_RANK_CHAN);      // ...which does not constrain CPU 1
    assert_int_equal(k_cpus[1].locks_held, 1u << KLOCK_RANK_CHAN);
    kspin_unlock(&ch1, KLOCK_RANK_CHAN);
    test_this_cpu = &k_cpus[0];
    kspin_unlock(&runq, KLOCK_RANK_RUNQ);
}

// A blocking SemWait or a waking SemPost in shared mode (kernel/sync.c): the semaphore's lock,
// then the run queue's.
static void sync_then_runq_passes(void **state)
{
    reset(state);
    if (setjmp(panic_jmp))
        fail_msg("panicked: %s", panic_msg);
    struct kspin sem = { 0 };
    kspin_lock(&sem, KLOCK_RANK_SYNC);
    kspin_lock(&runq, KLOCK_RANK_RUNQ);
    assert_int_equal(k_cpus[0].locks_held, 1u << KLOCK_RANK_SYNC | 1u << KLOCK_RANK_RUNQ);
    kspin_unlock(&sem, KLOCK_RANK_SYNC);    // the entry keeps the run queue to its choice
    kspin_unlock(&runq, KLOCK_RANK_RUNQ);
    assert_int_equal(k_cpus[0].locks_held, 0);
}

static void sync_under_runq_panics(void **state)
{
    reset(state);
    kspin_lock(&runq, KLOCK_RANK_RUNQ);
    struct kspin mutex = { 0 };
    if (!setjmp(panic_jmp)) {
        kspin_lock(&mutex, KLOCK_RANK_SYNC);
        fail_msg("a sync object's lock taken under the run-queue lock without a panic");
    }
    assert_true(panicked_with("lock order: rank %u taken on CPU 0 holding ranks %x",
                              KLOCK_RANK_SYNC, 1u << KLOCK_RANK_RUNQ));
}

// One sync object at a time (a condvar wait, a mutex and a condvar, stays exclusive), and never
// one under a channel's lock.
static void second_sync_or_under_chan_panics(void **state)
{
    reset(state);
    struct kspin a = { 0 }, b = { 0 };
    kspin_lock(&a, KLOCK_RANK_SYNC);
    if (!setjmp(panic_jmp)) {
        kspin_lock(&b, KLOCK_RANK_SYNC);
        fail_msg("two sync objects' locks taken without a panic");
    }
    assert_true(panicked_with("rank %u taken on CPU 0 holding ranks %x", KLOCK_RANK_SYNC,
                              1u << KLOCK_RANK_SYNC));
    reset(state);
    kspin_lock(&chan, KLOCK_RANK_CHAN);
    if (!setjmp(panic_jmp)) {
        kspin_lock(&a, KLOCK_RANK_SYNC);
        fail_msg("a sync object's lock taken under a channel's without a panic");
    }
    assert_true(panicked_with("rank %u taken on CPU 0 holding ranks %x", KLOCK_RANK_SYNC,
                              1u << KLOCK_RANK_CHAN));
}

// An interrupt line's lock (kernel/irq.c, rank IRQ) is a leaf: taken alone, and every other
// lock, a second line's too, taken under it is a panic (the line's pulse is queued after it is
// let go).
static void irq_line_lock_is_a_leaf(void **state)
{
    static const unsigned others[] = { KLOCK_RANK_SYNC, KLOCK_RANK_CHAN, KLOCK_RANK_PULSE,
                                       KLOCK_RANK_RUNQ, KLOCK_RANK_TIMER, KLOCK_RANK_IRQ };
    for (unsigned i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
        reset(state);
        struct kspin line = { 0 }, other = { 0 };
        assert_order_panics(&line, KLOCK_RANK_IRQ, &other, others[i]);
    }
    reset(state);
    if (setjmp(panic_jmp))
        fail_msg("panicked: %s", panic_msg);
    struct kspin line = { 0 };
    kspin_lock(&line, KLOCK_RANK_IRQ);      // alone, then the channel's and the run queue's
    kspin_unlock(&line, KLOCK_RANK_IRQ);
    kspin_lock(&chan, KLOCK_RANK_CHAN);
    kspin_lock(&runq, KLOCK_RANK_RUNQ);
    kspin_unlock(&chan, KLOCK_RANK_CHAN);
    kspin_unlock(&runq, KLOCK_RANK_RUNQ);
    assert_int_equal(k_cpus[0].locks_held, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(in_order_passes),
        cmocka_unit_test(exclusive_work_in_shared_entry_panics),
        cmocka_unit_test(out_of_order_panics),
        cmocka_unit_test(same_rank_twice_panics),
        cmocka_unit_test(release_unheld_panics),
        cmocka_unit_test(ranks_are_per_cpu),
        cmocka_unit_test(pulse_pool_between_chan_and_runq),
        cmocka_unit_test(pulse_pool_under_runq_panics),
        cmocka_unit_test(chan_under_pulse_pool_panics),
        cmocka_unit_test(sync_then_runq_passes),
        cmocka_unit_test(sync_under_runq_panics),
        cmocka_unit_test(second_sync_or_under_chan_panics),
        cmocka_unit_test(irq_line_lock_is_a_leaf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
