// SPDX-License-Identifier: MIT
// The kernel's panic path: the message, the one site of the SYSTEM KPANIC event (trace/kev.h,
// docs/trace-events.md), and the stop. A panic must leave the ring readable:
// the event is written with the ring's own emitter (interrupts are already off or go off in
// it), whatever the class filter says, because it is what a post-mortem dump is read for; the
// ring's other state is left as it is. A fault inside the ring's own code leaves its lock held
// by code that never runs again: the event then goes in only where that is safe, and the
// console says when it does not (trace_ring_panic_writable). In flight-recorder mode (TRACE_POLICY_RING) the CPU
// then halts in place instead of ending the run, so that a debugger (QEMU's gdbstub, OpenOCD,
// J-Link) can attach and kevdump read the ring; any other run halts the board as before, so
// that a panicking test under QEMU still ends at once.
#include <kernel/kpanic.h>
#include <kernel/board.h>
#include <kernel/cpu.h>
#include <kernel/thread.h>
#include <kernel/ktrace.h>
#include <kernel/ktrace_kcall.h>   // ktrace_who

static bool panicking;  // a panic inside the panic path goes straight to the stop

// How long the panic path waits for a trace lock before it takes the lock to be one the fault
// interrupted on this CPU (trace_ring_panic_writable): a holder on another CPU keeps one for a
// few hundred instructions; 2^22 looks are milliseconds even under QEMU.
#define PANIC_TRACE_SPINS (1ul << 22)

// f: the fault, or NULL for a kpanic() call from pc.
static void record(const struct arch_fault_where *f, uint64_t pc, const char *msg)
{
    if (!ktrace.tr_running)
        return;
    if (!trace_ring_panic_writable(&ktrace, PANIC_TRACE_SPINS)) {
        kprintf("kernel: no KPANIC event in the trace: CPU %u faulted while it held the trace "
                "buffers' lock or was writing an event\n", cpu_id());
        return;
    }
    const struct thread *t = k_current;
    uint64_t addr = f && f->addr_valid ? f->addr : 0;
    uint32_t info = KEV_PANIC_CALL;
    if (f)
        info = KEV_PANIC_EXCEPTION | f->kind << 8 | (f->addr_valid ? KEV_FAULT_ADDR_VALID : 0);
    uint32_t w[KEV_KPANIC_WORDS] = {    // 64-bit values high word first, as FAULT's
        info, (uint32_t)(pc >> 32), (uint32_t)pc, (uint32_t)(addr >> 32), (uint32_t)addr,
        t ? ktrace_who(t) : 0,
    };
    const uint32_t sys = 1u << KEV_C_SYSTEM;
    ktrace.tr_active |= sys;    // recorded whatever classes the capture asked for
    ktrace.tr_slow &= ~sys;     // and whatever the filters say
    trace_emit_string(&ktrace, KEV_C_SYSTEM, KEV_SYS_KPANIC, w, KEV_KPANIC_WORDS, msg);
}

static _Noreturn void panic_stop(const struct arch_fault_where *f, uint64_t pc, const char *fmt,
                                 va_list ap)
{
    char buf[160];
    kvsnprintf(buf, sizeof(buf), fmt, ap);
    bool again = panicking;
    panicking = true;
    // The message first: if recording the event faults too, the panic inside the panic path
    // prints its own message after this one, and the cause is not lost.
    kprintf("\nkernel panic: %s\n", buf);
    if (!again)
        record(f, pc, buf);
    if (!again && ktrace.tr_running && ktrace.tr_policy == TRACE_POLICY_RING) {
        kprintf("kernel: halted in place for a debugger (flight recorder): kevdump reads the ring\n");
        arch_halt_in_place();
    }
    board_halt(99);
}

_Noreturn void kpanic(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    panic_stop(NULL, (uintptr_t)__builtin_return_address(0), fmt, ap);
}

_Noreturn void kpanic_fault(const struct arch_fault_where *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    panic_stop(w, w->pc, fmt, ap);
}
