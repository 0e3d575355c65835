// SPDX-License-Identifier: MIT
// The load average: avenrun[3], as Solaris's kernel variable of that name (int avenrun[3],
// FSCALE = 1 << FSHIFT, FSHIFT 8: avenrun[0] / 256.0 is the 1-minute load), and hp_avenrun[3],
// Solaris's high-precision one (hp_avenrun[0] / 65536.0; int64_t there, 32 bits here): the
// threads running or ready, the CPUs' idle threads aside, averaged exponentially over 1, 5 and 15
// minutes, one sample a second. It costs no event anything: the tick that moves k_ticks
// across a second takes the sample (kloadavg_tick: one compare a tick), a pass over the
// thread table. D reads it as
// `avenrun[0..2] and `hp_avenrun[0..2] (a privileged consumer: docs/fbt.md, "Kernel
// variables").
//
// LOCKING. Written by the tick alone: the exclusive tick (kernel/main.c), or on several CPUs
// the shared one under the timer list's lock (kernel/ktimer.c), which never run at once. The
// thread states it counts are read without a lock: a sample, as Solaris's is. Readers take
// the aligned words as they find them.
#include <kernel/kernel.h>
#include <kernel/cpu.h>
#include <kernel/thread.h>
#include <kernel/kloadavg.h>

#define LOAD_FSHIFT 8u     // avenrun's fraction bits (Solaris's FSHIFT)
#define AVG_SHIFT   16u    // hp_avenrun's fraction bits (Solaris's: 65536ths)

uint32_t avenrun[3];
uint32_t hp_avenrun[3];    // the same averages with AVG_SHIFT fraction bits, as the sums run

// Each average moves toward the sample by 1 - exp(-1 s / its span) a second, in units of
// 2^-13: 1 - exp(-1/60), -1/300, -1/900 (illumos's clock.c uses the same three constants).
static const uint32_t weight[3] = { 135, 27, 9 };
#define WEIGHT_SHIFT 13u

// The threads that want a CPU now: RUNNING or READY, but the CPUs' idle threads.
static unsigned runnable(void)
{
    unsigned n = 0;
    for (unsigned i = 0; i < KMAX_THREADS; i++) {
        const struct thread *t = &k_threads[i];
        if (!t->in_use || (t->state != THS_RUNNING && t->state != THS_READY))
            continue;
        bool idle = false;
        for (unsigned c = 0; c < KMAX_CPUS; c++)
            idle |= k_cpus[c].idle == t;
        n += !idle;
    }
    return n;
}

static void sample(void)
{
    int64_t want = (int64_t)runnable() << AVG_SHIFT;
    for (unsigned i = 0; i < 3; i++) {
        int64_t now = hp_avenrun[i];
        hp_avenrun[i] = (uint32_t)(now + (((want - now) * (int64_t)weight[i]) >> WEIGHT_SHIFT));
        avenrun[i] = hp_avenrun[i] >> (AVG_SHIFT - LOAD_FSHIFT);
    }
}

uint64_t kloadavg_due = TICK_HZ;

void kloadavg_seconds(uint64_t ticks)
{
    while (kloadavg_due <= ticks) {     // (a late tick that jumped a second takes its sample too)
        sample();
        kloadavg_due += TICK_HZ;
    }
}
