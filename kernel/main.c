// SPDX-License-Identifier: MIT
// Boot and the one kernel entry point. kernel_main() brings the subsystems up, starts the
// image's boot program as pid 1 and never returns. kernel_entry() is where every exception
// from thread mode lands (arch.h contract); it does the work of that entry and picks the thread
// to resume. When pid 1 ends, the system halts with its exit status.
#include <kernel/kernel.h>
#include <kernel/arch.h>
#include <kernel/board.h>
#include <kernel/sched.h>
#include <kernel/thread.h>
#include <kernel/proc.h>
#include <kernel/ipc.h>
#include <kernel/sync.h>
#include <kernel/irq.h>
#include <kernel/utimer.h>
#include <kernel/pmem.h>
#include <kernel/kcall.h>
#include <kernel/kinit.h>
#include <kernel/ktrace.h>
#include <kernel/kdtrace.h>
#include <kernel/kuring.h>
#include <kernel/ktrace_kcall.h>
#include <uapi/ktrace.h>
#include <board_config.h>

extern const char boot_app_name[];      // from the image's program table (apps.S)

static struct thread *idle_thread;
static uint32_t idle_stack[128] __attribute__((aligned(8)));

static void kernel_tick(void)
{
    ktrace_int(KEV_INT_ENTER, KIRQ_TICK, 0);
    k_ticks++;
    ktimer_run(k_ticks);
    sched_tick();
    if (unlikely(ktrace_kernel_on)) {
        if (ktrace.tr_running && k_ticks % TICK_HZ == 0)
            trace_ring_tick(&ktrace);   // a TIME event at least every 2^32 cycles
        kdt_tick();                     // D tick-N / profile-N probes
    }
    ktrace_int(KEV_INT_EXIT, KIRQ_TICK, 0);
}

static void kernel_fault(struct thread *t)
{
    char what[96];
    int sig = arch_fault_info(what, sizeof(what));
    struct proc *p = t->proc;

    if (!p)
        kpanic("fault in kernel thread %s: %s", t->name, what);
    kprintf("kernel: process %d (%s) killed: %s in thread %d\n", (int)p->pid, p->name, what,
            (int)t->tid);
    proc_exit(p, sig);
}

static void halt_if_done(void)
{
    if (!k_system_done)
        return;
    int st = k_system_status;
    if (KW_EXITED(st)) {
        kprintf("kernel: pid 1 exited with status %d; halting\n", KW_EXITSTATUS(st));
        board_halt(KW_EXITSTATUS(st));
    }
    kprintf("kernel: pid 1 killed by signal %d; halting\n", KW_TERMSIG(st));
    board_halt(128 + KW_TERMSIG(st));
}

// The body of both entry points; `traced` is a constant in each, so the untraced one holds
// no trace code at all.
static inline __attribute__((always_inline)) void kernel_entry_body(unsigned kind,
                                                                    const bool traced)
{
    struct thread *t = k_current;

    if (traced)
        kuring_drain_current(t->proc);  // its user events come before this entry's
    switch (kind) {
    case KENTRY_CALL:
        if (traced)
            ktrace_kcall_entry(t);    // inline (ktrace_kcall.h)
        kcall_dispatch(t);
        break;
    case KENTRY_TICK:
        kernel_tick();
        break;
    case KENTRY_IRQ:
        irq_dispatch(arch_current_irq());
        break;
    case KENTRY_RESCHED:
        break;
    case KENTRY_FAULT:
        kernel_fault(t);
        break;
    default:
        kpanic("unknown kernel entry %u", kind);
    }
    halt_if_done();
    if (traced)
        ktrace_exit_begin();
    struct thread *next = traced ? sched_choose_traced() : sched_choose();
    if (traced)
        ktrace_exit_end(next);
    if (next->proc != t->proc || kind == KENTRY_FAULT)
        arch_mpu_switch(next->proc);
}

void kernel_entry(unsigned kind)
{
    kernel_entry_body(kind, false);
}

void kernel_entry_traced(unsigned kind)
{
    kernel_entry_body(kind, KTRACE_HOOKS);
}

static void idle_main(void)
{
    arch_idle_loop();
}

_Noreturn void kernel_main(void)
{
    board_init();
    kprintf("\nkernel: booting on %s, %u Hz cycle counter, %u Hz tick\n", board_name(),
            (unsigned)board_cycles_per_sec(), TICK_HZ);
    kernel_state_init();
    pmem_init(&k_pmem, board_pool_base(), board_pool_size());
    arch_init();
    board_late_init();

    idle_thread = thread_alloc(NULL);
    KASSERT(idle_thread, "no thread for idle");
    thread_set_name(idle_thread, "idle");
    idle_thread->prio = idle_thread->base_prio = 0;
    idle_thread->policy = SCHED_POLICY_FIFO;
    arch_thread_setup(idle_thread, (uint32_t)(uintptr_t)idle_main, 0, 0,
                      (uint32_t)(uintptr_t)&idle_stack[ARRAY_SIZE(idle_stack)], true);
    sched_make_ready(idle_thread, false);

    int n = proc_scan_apps(APP_FLASH_BASE, APP_FLASH_SLOT, APP_MAX_SLOTS);
    kprintf("kernel: %d programs in the image, %u KB for contiguous allocation\n", n,
            (unsigned)(pmem_free_bytes(&k_pmem) / 1024));
    int pid = proc_spawn(boot_app_name, 0, 0, NULL);
    if (pid != 1)
        kpanic("cannot start boot program '%s': error %d", boot_app_name, -pid);

    // The boot code becomes a pseudo-thread whose only kernel call ends it; the first real
    // thread starts on that call's return path like any other.
    struct thread *boot = thread_alloc(NULL);
    KASSERT(boot, "no thread for boot");
    thread_set_name(boot, "boot");
    arch_tick_start(board_cycles_per_sec() / TICK_HZ);
    arch_start(boot);
}

_Noreturn void kpanic(const char *fmt, ...)
{
    char buf[160];
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    kprintf("\nkernel panic: %s\n", buf);
    board_halt(99);
}
