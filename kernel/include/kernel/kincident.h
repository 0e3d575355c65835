// SPDX-License-Identifier: MIT
// The incident record (kernel/kincident.c; its layout trace/kev_incident.h; docs/incidents.md):
// what a D trigger leaves in the board's incident region, a RAM range no reset clears and no
// load segment of the image covers (ldscripts/kernel.ld.S, INCIDENT_RAM_BASE in the board's
// board_config.h). Written once per boot at the first trigger, checked at the next boot,
// handed to the tracelogger (TraceEvent KTRACE_INCIDENT) and kept until one writes it out.
// Tracing's: it reads the frozen ring, the D program's state and the threads' registers.
#ifndef KERNEL_KINCIDENT_H
#define KERNEL_KINCIDENT_H

#include <stdbool.h>
#include <stdint.h>

struct thread;

struct dvm_state;
struct dobj_file_hdr;

// What fired: the D clause's action (DIF_TRIG_*), its probe (id, name) and clause, the
// firing thread and CPU, the time (cycles), the signal of a faulting thread (proc:::fault),
// and the D program (its state and its .dobj header) whose clause it was.
struct kincident_trig {
    uint32_t action, probe_id, clause, signal;
    const char *probe;
    const struct thread *t;
    uint64_t at;
    const struct dvm_state *d;
    const struct dobj_file_hdr *dobj;
};

// The number the next record will carry, 0 when none can be written (no region on this board,
// one written this boot already, or an earlier boot's not yet read out).
uint32_t kincident_next(void);
// The record written (interrupts off, in the trigger's firing): its number, or 0 with the
// reason said on the console. The ring should be frozen first (its buffers closed).
uint32_t kincident_write(const struct kincident_trig *tr);
// A record this boot wrote: the panic path then halts in place (kernel/ktrace_panic.c), for a
// probe or a reset to take it.
bool kincident_written(void);
// (kincident_boot, the boot's look at the region, is a core hook: kernel/ktrace.h.)
// Between a record's body and its header (a test's debugger cuts the write there).
void kincident_body_written(void);
// TraceEvent(KTRACE_INCIDENT, op, arg) for a KAPP_F_TRACE process (uapi/ktrace.h).
int kincident_call(struct thread *t, uint32_t op, uint32_t arg);

#endif
