// SPDX-License-Identifier: MIT
// The late tick's arithmetic (kernel/include/kernel/tick_periods.h) against a simulated clock:
// a free-running counter, a tick timer that keeps one interrupt pending however many periods
// pass, and stalls during which the interrupt waits. The truth is the simulated counter: after
// every tick taken, the periods counted so far must be the number of period ends the counter
// has passed (allowing P/8 early). A tick that counts one period whatever happened (the kernel
// before, k_ticks++) falls behind by every period a stall swallowed, and runs ahead with a
// timer faster than the counter.
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <kernel/tick_periods.h>

#define P 25000u        // counter cycles a period (25 MHz, 1 kHz)
#define EARLY (P / 8u)  // how early a period may be counted (AArch64's rule)

static void test_on_time_ticks_count_one_each(void **state)
{
    (void)state;
    uint64_t end = 1000 + P;
    for (unsigned k = 1; k <= 100; k++) {
        uint64_t now = 1000 + (uint64_t)k * P + 37;       // the interrupt's latency
        assert_int_equal(tick_periods_ended(&end, P, now, EARLY), 1);
        assert_int_equal(end, 1000 + (uint64_t)(k + 1) * P);
    }
}

// A tick late by k whole periods and a fraction covers k + 1, and the next end keeps the phase.
static void test_late_tick_counts_missed_periods(void **state)
{
    (void)state;
    for (unsigned k = 0; k < 20; k++) {
        uint64_t end = 5u * P;
        uint64_t now = end + (uint64_t)k * P + P / 3;
        assert_int_equal(tick_periods_ended(&end, P, now, EARLY), k + 1);
        assert_int_equal(end % P, 0);
        assert_true(end > now + EARLY && end <= now + EARLY + P);
    }
    // Exactly on the next period's end: that period ended too.
    uint64_t end = 5u * P;
    assert_int_equal(tick_periods_ended(&end, P, 6u * P, EARLY), 2);
    assert_int_equal(end, 7u * P);
}

// A tick up to EARLY before its period's end counts it (AArch64 takes it so); one earlier
// still counts nothing, and the next tick makes up for it.
static void test_early_tick(void **state)
{
    (void)state;
    uint64_t end = 10u * P;
    assert_int_equal(tick_periods_ended(&end, P, 10u * P - EARLY, EARLY), 1);
    assert_int_equal(end, 11u * P);
    assert_int_equal(tick_periods_ended(&end, P, 11u * P - EARLY - 1, EARLY), 0);
    assert_int_equal(end, 11u * P);
    assert_int_equal(tick_periods_ended(&end, P, 12u * P + 5, EARLY), 2);
    assert_int_equal(end, 13u * P);
}

// One simulated run from counter 0 (the first period ends at P): the hardware's interrupts
// come at the times `next_irq` gives, one pending at most, and interrupts are masked over
// [stall_at[i], stall_at[i] + stall_len[i]). After every tick taken the periods counted must
// be the period ends the counter passed (with the EARLY allowance); returns the ticks taken.
struct sim {
    uint64_t hw;                    // the hardware's period in counter cycles
    uint32_t jitter;                // 0, or a seed: intervals of 0.78 P to 3.2 P instead
    const uint64_t *stall_at, *stall_len;
    unsigned nstalls;
};

static uint64_t next_irq(struct sim *s, uint64_t after)
{
    if (!s->jitter)
        return (after / s->hw + 1) * s->hw;
    s->jitter = s->jitter * 1103515245u + 12345u;
    return after + P * 78u / 100u + (s->jitter >> 8) % (P * 242u / 100u);
}

static unsigned simulate(struct sim *s, uint64_t until)
{
    uint64_t end = P, counted = 0;
    uint64_t fire = next_irq(s, 0);
    unsigned taken_n = 0, i = 0;
    while (fire <= until) {
        uint64_t taken = fire + 11;                 // latency
        while (i < s->nstalls && taken >= s->stall_at[i] + s->stall_len[i])
            i++;
        if (i < s->nstalls && taken >= s->stall_at[i])
            taken = s->stall_at[i] + s->stall_len[i];   // waited for the stall's end
        // Before the tick is taken, the periods pending (ktimer_now's) are what it will count.
        uint64_t due = tick_periods_due(end, P, taken, EARLY), end_before = end;
        counted += tick_periods_ended(&end, P, taken, EARLY);
        assert_int_equal(due, (end - end_before) / P);
        assert_int_equal(counted, (taken + EARLY) / P);
        taken_n++;
        fire = next_irq(s, taken);
    }
    return taken_n;
}

static const uint64_t stall_at[] = { 10u * P + 5, 50u * P + P / 2, 90u * P + 3, 300u * P };
static const uint64_t stall_len[] = { 3u * P, 7u * P + P / 3, P + 1, 40u * P };

static void test_stalls_against_the_counter(void **state)
{
    (void)state;
    struct sim s = { P, 0, stall_at, stall_len, 4 };
    unsigned n = simulate(&s, 1000u * P);
    assert_true(n < 1000 - 40);     // the stalls swallowed interrupts, not periods
}

// A timer a little slower than the counter says (x86's PIT against a TSC rate measured off),
// a little faster (netduinoplus2's SysTick against TIM2 in QEMU, 0.8 %), and one whose
// interrupts come early and late in turn (QEMU's SysTick under -icount shift=auto: 0.78 to
// 3.2 periods apart): the count follows the counter all the same.
static void test_timer_rate_off(void **state)
{
    (void)state;
    struct sim slow = { P + P / 1000, 0, stall_at, stall_len, 4 };
    simulate(&slow, 1000u * P);
    struct sim fast = { P - P / 125, 0, stall_at, stall_len, 4 };
    simulate(&fast, 1000u * P);
    struct sim fast_alone = { P - P / 125, 0, NULL, NULL, 0 };
    assert_int_equal(simulate(&fast_alone, 1000u * P), 1008);
    struct sim jittery = { P, 12345u, stall_at, stall_len, 4 };
    simulate(&jittery, 1000u * P);
}

static void test_crossed_multiple(void **state)
{
    (void)state;
    assert_true(tick_crossed_multiple(999, 1000, 1000));     // onto it, by one
    assert_true(tick_crossed_multiple(997, 1004, 1000));     // across it, by a jump
    assert_false(tick_crossed_multiple(1000, 1007, 1000));   // within a second
    assert_false(tick_crossed_multiple(1001, 1002, 1000));
    assert_true(tick_crossed_multiple(1500, 3500, 1000));    // two at once: one event
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_on_time_ticks_count_one_each),
        cmocka_unit_test(test_late_tick_counts_missed_periods),
        cmocka_unit_test(test_early_tick),
        cmocka_unit_test(test_stalls_against_the_counter),
        cmocka_unit_test(test_timer_rate_off),
        cmocka_unit_test(test_crossed_multiple),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
