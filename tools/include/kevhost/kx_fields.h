// SPDX-License-Identifier: MIT
// The event table's fields the analysis model reads (trace/kev_events.h), each looked up once
// by its name in its event's row: the model reads an event's values where the table says they
// are, not by unpacking its words by hand. Lookups on first use, kept for the process (the
// table does not change once a program runs; tools are single-threaded).
#ifndef TOOLS_KX_FIELDS_H
#define TOOLS_KX_FIELDS_H

#include <stdint.h>
#include <trace/kev_decode.h>
#include <trace/kev_events.h>

struct kx_fields {
    const struct kev_field_desc *prio_who, *prio_new, *prio_old, *prio_cause; // PRIO_CHANGE
    const struct kev_field_desc *snap_what, *snap_cpu, *snap_who;             // SNAPSHOT
    const struct kev_field_desc *sync_object, *sync_owner;                    // SYNC_WAIT
    const struct kev_field_desc *rmsg_who, *rpulse_who;                       // REC_*
    const struct kev_field_desc *th_prio;     // a thread state's priority (wide; every state's row)
    const struct kev_field_desc *fexit_offset, *fexit_value;                  // FUNC_EXIT
    const struct kev_field_desc *oncpu_who;                                   // ONCPU
};
const struct kx_fields *kx_fields(void);

// Field fd of e; 0 when e's payload is too short for it.
static inline uint32_t kx_field(const struct kev_event *e, const struct kev_field_desc *fd)
{
    uint64_t v = 0;
    kev_field_read(e, fd, &v);
    return (uint32_t)v;
}
static inline uint64_t kx_field64(const struct kev_event *e, const struct kev_field_desc *fd)
{
    uint64_t v = 0;
    kev_field_read(e, fd, &v);
    return v;
}

#endif
