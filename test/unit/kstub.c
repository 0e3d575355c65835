// SPDX-License-Identifier: MIT
// Host implementations of arch.h and board.h for the kernel unit tests.
#include <kernel/unwind.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "kstub.h"
#include <kernel/kpanic.h>
#include <kernel/kdata.h>
#include <arch_kcall.h>
#include <kernel/arch.h>
#include <kernel/board.h>
#include <kernel/sched.h>
#include <kernel/ipc.h>
#include <kernel/sync.h>
#include <kernel/irq.h>
#include <kernel/utimer.h>
#include <kernel/pmem.h>
#include <kernel/ktrace.h>
#include <kernel/arch_trace.h>
#include <d/duname.h>
#include <kernel/kinit.h>

char kstub_console[4096];
unsigned kstub_console_len;
uint64_t kstub_cycles;
uint32_t kstub_irq_enabled, kstub_irq_pending;
static struct kapp_header stub_apps[KMAX_PROCS];

void kstub_reset(void)
{
    kernel_state_init();
    kstub_console_len = 0;
    kstub_cycles = 0;
    kstub_irq_enabled = kstub_irq_pending = 0;
}

uint32_t kstub_addr(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    assert_true(a < 0x100000000ull);
    return (uint32_t)a;
}

struct proc *kstub_proc(int pid, void *ram, uint32_t ram_size, uint32_t flags)
{
    struct proc *p = &k_procs[pid - 1];
    struct kapp_header *h = &stub_apps[pid - 1];
    memset(p, 0, sizeof(*p));
    memset(h, 0, sizeof(*h));
    h->flags = flags;
    snprintf(h->name, sizeof(h->name), "p%d", pid);
    p->state = PROC_ALIVE;
    p->pid = pid;
    p->app = h;
    p->ram_base = kstub_addr(ram);
    p->ram_size = ram_size;
    list_init(&p->threads);
    p->next_tid = 1;
    snprintf(p->name, sizeof(p->name), "p%d", pid);
    return p;
}

struct thread *kstub_thread(struct proc *p, int prio)
{
    struct thread *t = thread_alloc(p);
    assert_non_null(t);
    t->prio = t->base_prio = (uint8_t)prio;
    if (p) {
        t->tid = (uint16_t)p->next_tid++;
        list_push_back(&p->threads, &t->plink);
        p->nthreads++;
    }
    sched_make_ready(t, false);
    return t;
}

void kstub_run(struct thread *t)
{
    if (t->state == THS_READY)
        sched_remove(t);
    t->state = THS_RUNNING;
    k_current = t;
}

int32_t kstub_result(const struct thread *t)
{
    return (int32_t)t->ctx.r0;
}

// ---- arch.h ----
bool arch_thread_setup(struct thread *t, uint32_t entry, uint32_t arg0, uint32_t arg1,
                       uint32_t stack_top, bool privileged)
{
    (void)entry; (void)arg0; (void)arg1; (void)privileged;
    memset(&t->ctx, 0, sizeof(t->ctx));
    t->ctx.psp = stack_top;
    return true;
}
uint32_t arch_call_number(const struct thread *t) { return arch_kc_number(&t->ctx); }
uint32_t arch_thread_pc(const struct thread *t) { (void)t; return 0; }  // no saved pc on the host
uint32_t arch_thread_sp(const struct thread *t) { (void)t; return 0; }
uint32_t arch_call_arg(const struct thread *t, unsigned i) { return arch_kc_arg(&t->ctx, i); }
void arch_set_result(struct thread *t, uint32_t r0) { t->ctx.r0 = r0; }
uint32_t arch_call_result(const struct thread *t, unsigned i) { return arch_kc_result(&t->ctx, i); }
void arch_map_layout(uint32_t len, uint32_t *size, uint32_t *align)
{
    *size = len;
    *align = 4096;
}
void arch_set_result2(struct thread *t, uint32_t r0, uint32_t r1)
{
    t->ctx.r0 = r0;
    t->ctx.r1 = r1;
}
void arch_mpu_switch(const struct proc *p) { (void)p; }
void arch_stack_guard(const struct thread *t) { (void)t; }
bool arch_mpu_region_ok(uint32_t base, uint32_t size)
{
    return size >= 32 && (size & (size - 1)) == 0 && (base & (size - 1)) == 0;
}
unsigned arch_current_irq(void) { return 0; }
void arch_irq_enable(unsigned irq) { kstub_irq_enabled |= 1u << irq; }
void arch_irq_disable(unsigned irq) { kstub_irq_enabled &= ~(1u << irq); }
void arch_irq_set_pending(unsigned irq) { kstub_irq_pending |= 1u << irq; }
void arch_request_resched(void) {}
int32_t arch_semihost(uint32_t op, uint32_t arg) { (void)op; (void)arg; return -1; }

// ---- board.h ----
void board_console_putc(char c)
{
    if (kstub_console_len < sizeof(kstub_console) - 1)
        kstub_console[kstub_console_len++] = c;
}
// The cycle counter moves with the ticks (25000 cycles a tick), plus what a test adds.
uint64_t board_cycles(void) { return k_ticks * (25000000u / TICK_HZ) + kstub_cycles; }
uint32_t board_cycles_per_sec(void) { return 25000000u; }
bool board_irq_user_ok(unsigned irq) { return irq >= 24 && irq < 32; }
bool board_has_semihosting(void) { return false; }
const char *board_boot_cmdline(void) { return NULL; }
size_t board_boot_cmdline_over(void) { return 0; }
const char *board_name(void) { return "host"; }
// The unwinders (kernel/unwind.h) walk target stacks; the host's threads have none here
// (test_unwind runs the walkers themselves).
unsigned arch_unwind_user(const struct thread *t, uint64_t *pcs, unsigned max)
{
    (void)t, (void)pcs, (void)max;
    return 0;
}
// No incident region on the host (kernel/kincident.c: an empty one), no user registers, and
// D's names of the board as kernel/kdt_uname.c gives them.
uint8_t __incident_start[1];
extern uint8_t __incident_end[1] __attribute__((alias("__incident_start")));
unsigned arch_thread_uregs(const struct thread *t, uint64_t *regs, uint64_t *sp)
{
    (void)t, (void)regs, (void)sp;
    return 0;
}
const char *dvm_uname(unsigned member)
{
    (void)member;
    return "host";
}
unsigned arch_unwind_kernel(uint64_t *pcs, unsigned max)
{
    (void)pcs, (void)max;
    return 0;
}

void kpanic_set_recorder(kpanic_recorder_fn fn)
{
    (void)fn;
}

_Noreturn void kpanic(const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    fail_msg("kernel panic: %s", buf);
    abort();
}

// kernel/kdata.c's range: the host's unit tests have no kernel sections, and no D program
// of theirs reads a kernel variable.
bool kdata_holds(uint64_t addr, unsigned n)
{
    (void)addr, (void)n;
    return false;
}
