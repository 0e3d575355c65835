// SPDX-License-Identifier: MIT
// D's trigger actions (docs/incidents.md), acted on when the firing that ran one ends, so that
// the clause's records are in the D buffers the record keeps: freeze( ), this kernel's own,
// and DTrace's destructive panic( ) and breakpoint( ). Each first writes the SYSTEM TRIGGER
// event (the probe, the clause, the thread, the record's number), freezes the flight recorder
// right after it (trace_ring_freeze: every buffer closed and kept, no event after it) and
// writes the incident record (kernel/kincident.c); then panic( ) panics, with DTrace's words,
// and breakpoint( ) halts this CPU for a debugger until it clears kdt_breakpoint_hold. The
// freeze and the record happen once a boot; a later freeze( ) does nothing more, a later
// panic( ) or breakpoint( ) still stops. Nothing is paid per event while a trigger is armed:
// the engine claims the trigger in the action (trace/d/engine.c) and the firing tests one
// word after it runs (kdt_fire.c). Called in the firing's context (interrupts off, a D site
// held; on several CPUs the first CPU's trigger wins, d/dvm.h trig_*).
#include <kernel/kdtrace.h>
#include <kernel/ktrace.h>
#include <kernel/kview.h>
#include <kernel/kincident.h>
#include <trace/kev_incident.h>
#include <kernel/kev_emit.h>
#include <kernel/board.h>
#include <d/dvm.h>
#include <d/dprobes.h>

// breakpoint( ) holds its CPU while this is non-zero: a debugger resumes the system with
// `set var kdt_breakpoint_hold = 0` (gdb) and `continue`.
volatile uint32_t kdt_breakpoint_hold;
static bool frozen;     // this boot's first trigger froze the ring and wrote the record

// The TRIGGER event, whatever classes the capture records (as KPANIC is), then the ring frozen
// after it. Its number: the record about to be written (0: none). False when no capture ran.
static bool freeze_at(const struct kincident_trig *tr, uint32_t record)
{
    struct trace_ring *r = &ktrace;
    if (!r->tr_running)
        return false;
    const uint32_t sys = 1u << KEV_C_SYSTEM;
    __atomic_fetch_or(&r->tr_active, sys, __ATOMIC_RELAXED);
    __atomic_fetch_and(&r->tr_slow, ~sys, __ATOMIC_RELAXED);
    kev_emit_trigger(KEV_RING, tr->action, tr->clause, tr->probe_id,
                     tr->t ? tr->t->trace_who : 0u, record, tr->probe);
    return trace_ring_freeze(r) != 0;
}

static void breakpoint_hold(const char *probe, uint32_t clause)
{
    kprintf("kernel: dtrace: breakpoint action at probe %s (clause %u): CPU %u halted for a "
            "debugger; `set var kdt_breakpoint_hold = 0` resumes\n", probe, (unsigned)clause,
            cpu_id());
    kdt_breakpoint_hold = 1;
    while (kdt_breakpoint_hold)
        __asm__ volatile("" ::: "memory");
    kprintf("kernel: dtrace: breakpoint at probe %s resumed\n", probe);
}

void kdt_trigger_ran(struct dvm_state *d, const struct dobj_file_hdr *h, const struct thread *t,
                     uint32_t id, const uint64_t *args, uint64_t cycles)
{
    if (__atomic_load_n(&d->trig_cpu, __ATOMIC_ACQUIRE) != cpu_id() + 1u)
        return;     // another CPU's: it acts when its firing ends
    uint32_t kind = d->trig_kind - 1u;
    const struct dif_ecb *e = &d->obj.ecbs[d->trig_ecb - 1u];
    const struct dif_probe *pr = &d->obj.probes[e->de_probe];
    char name[64];
    ksnprintf(name, sizeof(name), "%s:%s:%s:%s", dif_str(&d->obj, pr->dp_prov),
              dif_str(&d->obj, pr->dp_mod), dif_str(&d->obj, pr->dp_func),
              dif_str(&d->obj, pr->dp_name));
    struct kincident_trig tr = {
        kind, pr->dp_id, e->de_clause + 1u,
        id == DPROBE_PROC_FAULT && args ? (uint32_t)args[0] : 0u, name, t, cycles, d, h,
    };
    if (!frozen) {
        frozen = true;
        uint32_t record = kincident_next();
        uint64_t t0 = board_cycles();
        bool ran = freeze_at(&tr, record);
        uint64_t took = board_cycles() - t0;   // (said: make bench's incident_freeze_insns)
        kprintf("kernel: D trigger %s( ) at %s (clause %u) in %u/%u: %s (%u cycles)\n",
                kev_incident_action_name(kind), name, (unsigned)tr.clause,
                (unsigned)(t && t->proc ? t->proc->pid : 0), (unsigned)(t ? t->tid : 0),
                ran ? "the flight recorder stopped at its event" : "no capture ran to freeze",
                (unsigned)took);
        kincident_write(&tr);
    }
    dvm_trigger_taken(d);
    if (kind == DIF_TRIG_PANIC)
        kpanic("dtrace: panic action at probe %s (clause %u)", name, (unsigned)tr.clause);
    if (kind == DIF_TRIG_BREAKPOINT)
        breakpoint_hold(name, tr.clause);
}
