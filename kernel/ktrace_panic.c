// SPDX-License-Identifier: MIT
// The one site of the SYSTEM KPANIC event (trace/kev.h, docs/trace-events.md): the recorder
// kpanic() calls (kernel/kpanic.h), installed by ktrace_init. A panic must leave the ring
// readable: the event is written with the ring's own emitter (interrupts are already off or go
// off in it), whatever the class filter says, because it is what a post-mortem dump is read
// for; the ring's other state is left as it is. A fault inside the ring's own code leaves its
// lock held by code that never runs again: the event then goes in only where that is safe, and
// the console says when it does not (trace_ring_panic_writable). The answer: whether the ring
// is a flight recorder (TRACE_POLICY_RING), or this boot wrote an incident record (a D
// trigger's, kernel/kincident.c): the CPU halts in place for kevdump, a watchdog or a reset.
#include <kernel/ktrace.h>
#include <kernel/kview.h>
#include <kernel/kpanic.h>
#include <kernel/kev_emit.h>
#include <kernel/kincident.h>

// How long the panic path waits for a trace lock before it takes the lock to be one the fault
// interrupted on this CPU (trace_ring_panic_writable): a holder on another CPU keeps one for a
// few hundred instructions; 2^22 looks are milliseconds even under QEMU.
#define PANIC_TRACE_SPINS (1ul << 22)

static void record(const struct arch_fault_where *f, uint64_t pc, const char *msg)
{
    if (!trace_ring_panic_writable(&ktrace, PANIC_TRACE_SPINS)) {
        kprintf("kernel: no KPANIC event in the trace: CPU %u faulted while it held the trace "
                "buffers' lock or was writing an event\n", cpu_id());
        return;
    }
    const struct thread *t = k_current;
    const uint64_t addr = f && f->addr_valid ? f->addr : 0;
    const unsigned origin = f ? KEV_PANIC_EXCEPTION : KEV_PANIC_CALL;
    const unsigned kind = f ? f->kind : 0;
    const bool addr_valid = f && f->addr_valid;
    const uint32_t who = t ? t->trace_who : 0;
    const uint32_t sys = 1u << KEV_C_SYSTEM;
    ktrace.tr_active |= sys;    // recorded whatever classes the capture asked for
    ktrace.tr_slow &= ~sys;     // and whatever the filters say
    kev_emit_kpanic(KEV_RING, origin, kind, addr_valid, pc, addr, who, msg);
}

bool ktrace_panic(const struct arch_fault_where *f, uint64_t pc, const char *msg)
{
    if (!ktrace.tr_running)     // (a D trigger's freeze stopped it: its record is to be read)
        return kincident_written();
    record(f, pc, msg);
    return ktrace.tr_policy == TRACE_POLICY_RING || kincident_written();
}
