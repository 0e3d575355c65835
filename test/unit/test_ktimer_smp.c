// SPDX-License-Identifier: MIT
// The kernel's tick on the shared side (kernel/ktimer.c ktimer_tick_shared, built with
// KMAX_CPUS=2 over a host stand-in for the timer list's lock that lets "another CPU" take it
// just before this one: ktimer_smp/arch_klock.h). The truth is the exclusive tick's rule: a
// timer that expires at tick E fires at the tick that brings the count to E (a late tick: the
// first that reaches it), never later, never earlier, whatever the order of the arming and
// the tick on two CPUs. Checked:
// - the race ktimer.c argues: a timeout armed (ktimer_start_after) on one CPU while another
//   CPU takes the period's tick on the shared side, the tick's hold of the lock first. The
//   timer must count from the new tick; one that counted from the old one lands behind
//   k_ticks, where no tick looks until the next period's, and fires a period after its expiry
//   (what an arming that read k_ticks before the lock did; this test fails against it);
// - the other order: armed first, a timer due by the period sends the tick exclusive, with
//   nothing changed;
// - a period taken by one CPU is only a share for the other; a late tick's periods.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <kernel/ktimer.h>
#include <kernel/arch.h>
#include <kernel/board.h>

// ---- host stand-ins ----
struct cpu k_cpus[KMAX_CPUS];
unsigned k_ncpus = 2;
struct cpu *test_this_cpu = &k_cpus[0];
void (*test_spin_hook)(void);
uint64_t board_cycles(void) { return 0; }
uint32_t board_cycles_per_sec(void) { return 1000000u; }
// The load average's sample (kernel/kloadavg.c) has no threads to count here.
uint64_t kloadavg_due = TICK_HZ;
void kloadavg_seconds(uint64_t ticks)
{
    while (kloadavg_due <= ticks)
        kloadavg_due += TICK_HZ;
}

// The arch's counter of periods that ended and no tick counted (irq_timer.c's tick_next).
static unsigned periods_pending;
unsigned arch_tick_pending(void) { return periods_pending; }
void arch_tick_claim(unsigned n)
{
    assert_true(n <= periods_pending);
    periods_pending -= n;
}

static void on_cpu(unsigned c) { test_this_cpu = &k_cpus[c]; }

// The exclusive tick (kernel/main.c kernel_tick): every pending period counted, due timers run.
static void exclusive_tick(void)
{
    unsigned n = periods_pending;
    periods_pending = 0;
    k_ticks += n;
    if (n > 1)
        k_ticks_late += n - 1u;
    ktimer_run(k_ticks);
}

// A period ends, and a CPU's timer interrupt takes it: shared if it may, else exclusive.
static enum ktick_shared period_ends_on(unsigned cpu)
{
    periods_pending++;
    on_cpu(cpu);
    enum ktick_shared r = ktimer_tick_shared(NULL);
    if (r == KTICK_EXCLUSIVE)
        exclusive_tick();
    on_cpu(0);
    return r;
}

static uint64_t fired_at;
static unsigned fired;
static void timer_fn(struct ktimer *t)
{
    (void)t;
    fired++;
    fired_at = k_ticks;
}

static struct ktimer tm;

static int setup(void **state)
{
    (void)state;
    ktimer_subsystem_init();
    memset(k_cpus, 0, sizeof k_cpus);
    on_cpu(0);
    k_ticks = 100;
    periods_pending = 0;
    test_spin_hook = NULL;
    fired = 0;
    fired_at = 0;
    ktimer_init(&tm, timer_fn);
    return 0;
}

// No timer listed at a tick count already passed: what a shared tick would never look at again.
static void assert_nothing_behind(void)
{
    assert_true(!ktimer_active(&tm) || tm.expires > k_ticks);
}

// CPU 1's timer interrupt at the end of period 101 takes the timer list's lock just before
// CPU 0's arming of a one-tick timeout does.
static void cpu1_takes_period(void)
{
    assert_int_equal(period_ends_on(1), KTICK_TAKEN);
}

static void test_arm_while_period_taken_shared(void **state)
{
    (void)state;
    test_spin_hook = cpu1_takes_period;
    ktimer_start_after(&tm, 1);             // CPU 0, its count read in its hold
    assert_null(test_spin_hook);            // (the other CPU did take the lock first)
    assert_int_equal(k_ticks, 101);
    assert_int_equal(k_cpus[1].ticks_shared, 1);
    assert_nothing_behind();
    assert_int_equal(tm.expires, 102);      // one tick after the count it saw
    // The next period: the timer is due by it, so that tick is exclusive and runs it.
    assert_int_equal(period_ends_on(0), KTICK_EXCLUSIVE);
    assert_int_equal(fired, 1);
    assert_int_equal(fired_at, tm.expires); // at its expiry, not a period after
}

// The arming's hold first: the tick sees the timer due and goes exclusive, changing nothing.
static void test_arm_then_period(void **state)
{
    (void)state;
    ktimer_start_after(&tm, 1);
    assert_int_equal(tm.expires, 101);
    periods_pending = 1;
    on_cpu(1);
    assert_int_equal(ktimer_tick_shared(NULL), KTICK_EXCLUSIVE);
    assert_int_equal(k_ticks, 100);         // nothing counted
    assert_int_equal(periods_pending, 1);   // nothing claimed
    assert_int_equal(k_cpus[1].ticks_shared, 0);
    exclusive_tick();
    assert_int_equal(fired, 1);
    assert_int_equal(fired_at, 101);
}

// A timer not due by the period: the period is taken shared, the timer stays for its tick.
static void test_timer_not_due_stays(void **state)
{
    (void)state;
    ktimer_start_after(&tm, 3);             // expires 103
    assert_int_equal(period_ends_on(1), KTICK_TAKEN);       // 101
    assert_int_equal(period_ends_on(0), KTICK_TAKEN);       // 102
    assert_int_equal(fired, 0);
    assert_nothing_behind();
    assert_int_equal(period_ends_on(1), KTICK_EXCLUSIVE);   // 103: due
    assert_int_equal(fired, 1);
    assert_int_equal(fired_at, 103);
    assert_int_equal(k_cpus[0].ticks_shared + k_cpus[1].ticks_shared, 2);
}

// Two CPUs' interrupts for one period: the first takes it, the second finds only its share.
static void test_one_taker_per_period(void **state)
{
    (void)state;
    periods_pending = 1;
    on_cpu(0);
    assert_int_equal(ktimer_tick_shared(NULL), KTICK_TAKEN);
    on_cpu(1);
    assert_int_equal(ktimer_tick_shared(NULL), KTICK_SHARE);
    assert_int_equal(k_ticks, 101);
    assert_int_equal(k_cpus[0].ticks_shared, 1);
    assert_int_equal(k_cpus[1].ticks_shared, 0);
}

// A late interrupt covering three periods counts them all (two late); a timer due within
// them sends the tick exclusive, where it fires at the first tick that reaches it.
static void test_late_periods(void **state)
{
    (void)state;
    periods_pending = 3;
    struct ktick_span span = { 7, 7 };
    assert_int_equal(ktimer_tick_shared(&span), KTICK_TAKEN);
    assert_int_equal(k_ticks, 103);
    assert_int_equal(span.from, 100);       // what the traced tick's TIME event looks across
    assert_int_equal(span.to, 103);
    assert_int_equal(k_ticks_late, 2);
    assert_int_equal(k_cpus[0].ticks_shared, 3);
    ktimer_start_after(&tm, 2);             // expires 105
    periods_pending = 3;                    // 104 .. 106: 105 among them
    assert_int_equal(ktimer_tick_shared(&span), KTICK_EXCLUSIVE);
    assert_int_equal(k_ticks, 103);
    assert_int_equal(span.from, 100);       // left as it was
    assert_int_equal(span.to, 103);
    exclusive_tick();
    assert_int_equal(fired, 1);
    assert_int_equal(fired_at, 106);
    assert_int_equal(k_ticks_late, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_arm_while_period_taken_shared, setup),
        cmocka_unit_test_setup(test_arm_then_period, setup),
        cmocka_unit_test_setup(test_timer_not_due_stays, setup),
        cmocka_unit_test_setup(test_one_taker_per_period, setup),
        cmocka_unit_test_setup(test_late_periods, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
