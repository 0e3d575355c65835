// SPDX-License-Identifier: MIT
// QNX's TraceEvent() (user/include/sys/trace.h) on top of this kernel's own (uapi/ktrace.h):
// QNX's command codes, external classes and event masks translated to our commands, classes
// and event numbers (trace/include/trace/kev.h), so that instrumentation written for QNX
// runs unchanged. A QNX class that is part of one of ours (THREAD and PROCESS are both our
// PR_TH; KERCALLENTER is the entry half of KER_CALL) is set event by event. What this
// kernel cannot do (event handlers, virtual threads, filters by interrupt number) fails with
// ENOTSUP, never silently. No state: every call is translated on its own.
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/trace.h>
#include <trace/kev.h>
#include <uapi/ktrace.h>

#undef TraceEvent // below, TraceEvent is this kernel's own call (kern.h)

static int unsupported(void)
{
    errno = ENOTSUP;
    return -1;
}

// The event-level command a class-level one is carried out with, event by event.
static unsigned event_cmd(unsigned cls_cmd)
{
    switch (cls_cmd) {
    case KTRACE_ADDCLASS:     return KTRACE_ADDEVENT;
    case KTRACE_DELCLASS:     return KTRACE_DELEVENT;
    case KTRACE_SETCLASSFAST: return KTRACE_SETEVENTFAST;
    case KTRACE_SETCLASSWIDE: return KTRACE_SETEVENTWIDE;
    case KTRACE_SETCLASSPID:  return KTRACE_SETEVENTPID;
    case KTRACE_SETCLASSTID:  return KTRACE_SETEVENTTID;
    case KTRACE_CLRCLASSPID:  return KTRACE_CLREVENTPID;
    default:                  return KTRACE_CLREVENTTID;
    }
}

// One of our events for an event-level command; x is the pid or tid where it takes one.
static int one(unsigned cmd, unsigned cls, unsigned ev, uint32_t x)
{
    return TraceEvent(cmd, cls, ev, x) < 0 ? -1 : 0;
}

// Each of our events a QNX (class, event) names; mask: QNX's event word (a bit mask for
// PROCESS and THREAD, a number otherwise), or all events of the class when all != 0.
static int each(unsigned cmd, int qcls, uint32_t qev, int all, uint32_t x)
{
    static const uint16_t proc_ev[5] = { KEV_PR_CREATE, KEV_PR_DESTROY, KEV_PR_CREATE_NAME,
                                         KEV_PR_DESTROY_NAME, KEV_PR_THREAD_NAME };
    int rc = 0;
    switch (qcls) {
    case _NTO_TRACE_KERCALL: case _NTO_TRACE_KERCALLENTER: case _NTO_TRACE_KERCALLEXIT:
        for (unsigned n = all ? 0 : qev; n < (all ? KEV_KC_MAX : qev + 1u); n++) {
            if (n >= KEV_KC_MAX) {
                errno = EINVAL;
                return -1;
            }
            if (qcls != _NTO_TRACE_KERCALLEXIT)
                rc |= one(cmd, KEV_C_KER_CALL, KEV_KC_ENTRY(n), x);
            if (qcls != _NTO_TRACE_KERCALLENTER)
                rc |= one(cmd, KEV_C_KER_CALL, KEV_KC_EXIT(n), x);
        }
        return rc;
    case _NTO_TRACE_INTENTER: case _NTO_TRACE_INTEXIT:
    case _NTO_TRACE_INT_HANDLER_ENTER: case _NTO_TRACE_INT_HANDLER_EXIT:
        if (!all) // QNX's event here is an interrupt number: no such filter in this kernel
            return unsupported();
        return one(cmd, KEV_C_INT,
                   qcls == _NTO_TRACE_INTENTER ? KEV_INT_ENTER
                   : qcls == _NTO_TRACE_INTEXIT ? KEV_INT_EXIT
                   : qcls == _NTO_TRACE_INT_HANDLER_ENTER ? KEV_INT_HANDLER_ENTER
                                                          : KEV_INT_HANDLER_EXIT, x);
    case _NTO_TRACE_PROCESS:
        for (unsigned b = 0; b < 5; b++)
            if (all || (qev & (1u << b)))
                rc |= one(cmd, KEV_C_PR_TH, proc_ev[b], x);
        return rc;
    case _NTO_TRACE_THREAD:
        for (unsigned s = 0; s <= KEV_TH_DESTROY; s++)
            if ((all && (s < KEV_TH_NSTATES || s >= KEV_TH_CREATE)) || (!all && (qev & (1u << s))))
                rc |= one(cmd, KEV_C_PR_TH, s, x);
        return rc;
    case _NTO_TRACE_CONTROL:
        if (all)
            return unsupported(); // handled as a class by the caller
        for (unsigned b = 0; b < 2; b++)
            if (qev & (1u << b))
                rc |= one(cmd, KEV_C_CONTROL, b ? KEV_CTL_BUFFER : KEV_CTL_TIME, x);
        return rc;
    case _NTO_TRACE_USER:   return one(cmd, KEV_C_USER, qev, x);
    case _NTO_TRACE_SYSTEM: return one(cmd, KEV_C_SYSTEM, qev, x);
    case _NTO_TRACE_COMM:   return one(cmd, KEV_C_COMM, qev, x);
    default:                return unsupported(); // VTHREAD, KERCALLINT, INT by number, ...
    }
}

// Our whole class for a QNX class that maps onto one entirely, or -1.
static int whole_class(int qcls)
{
    switch (qcls) {
    case _NTO_TRACE_CONTROL: return KEV_C_CONTROL;
    case _NTO_TRACE_KERCALL: return KEV_C_KER_CALL;
    case _NTO_TRACE_INT:     return KEV_C_INT;
    case _NTO_TRACE_USER:    return KEV_C_USER;
    case _NTO_TRACE_SYSTEM:  return KEV_C_SYSTEM;
    case _NTO_TRACE_COMM:    return KEV_C_COMM;
    default:                 return -1;
    }
}

static int class_op(unsigned cmd, int qcls, uint32_t x)
{
    int cls = whole_class(qcls);
    if (cls >= 0)
        return TraceEvent(cmd, (uint32_t)cls, x, 0) < 0 ? -1 : 0;
    return each(event_cmd(cmd), qcls, 0, 1, x);
}

// The arguments of QNX's call code from ap into a, as many as the code says it takes; those of
// the calls with a pointer argument (read as one) into a and *ptr.
static void args_read(int code, va_list ap, uint32_t a[4], const void **ptr)
{
    unsigned nargs = _TRACE_GET_COUNT((unsigned)code);

    switch (code) {
    case _NTO_TRACE_ALLOCBUFFER:
        a[0] = va_arg(ap, unsigned);
        *ptr = va_arg(ap, void **);
        break;
    case _NTO_TRACE_INSERTUSRSTREVENT:
        a[0] = va_arg(ap, unsigned);
        *ptr = va_arg(ap, const char *);
        break;
    case _NTO_TRACE_INSERTCUSEREVENT:
        a[0] = va_arg(ap, unsigned);
        *ptr = va_arg(ap, const unsigned *);
        a[1] = va_arg(ap, unsigned);
        break;
    default:
        for (unsigned i = 1; i < nargs && i <= 4; i++)
            a[i - 1] = va_arg(ap, unsigned);
        break;
    }
}

// QNX's commands that choose the classes and events recorded, their fast or wide mode and
// their process and thread filters, as ours: what QNX's arguments a name (every class; a class
// in a[0]; a class and an event in a[0], a[1]) and which of them holds the pid or tid the
// command sets (0: none). A code with two rows is carried out as both, in order: QNX's
// SETCLASSTID and SETEVENTTID give the pid with the tid.
enum filter_takes { ALL_CLASSES, ONE_CLASS, ONE_EVENT };
static const struct filter_cmd {
    int code;
    uint8_t cmd, takes, x;
} filter_cmds[] = {
    { _NTO_TRACE_ADDALLCLASSES,     KTRACE_ADDALLCLASSES,     ALL_CLASSES, 0 },
    { _NTO_TRACE_DELALLCLASSES,     KTRACE_DELALLCLASSES,     ALL_CLASSES, 0 },
    { _NTO_TRACE_ADDCLASS,          KTRACE_ADDCLASS,          ONE_CLASS,   0 },
    { _NTO_TRACE_DELCLASS,          KTRACE_DELCLASS,          ONE_CLASS,   0 },
    { _NTO_TRACE_ADDEVENT,          KTRACE_ADDEVENT,          ONE_EVENT,   0 },
    { _NTO_TRACE_DELEVENT,          KTRACE_DELEVENT,          ONE_EVENT,   0 },
    { _NTO_TRACE_SETALLCLASSESFAST, KTRACE_SETALLCLASSESFAST, ALL_CLASSES, 0 },
    { _NTO_TRACE_SETALLCLASSESWIDE, KTRACE_SETALLCLASSESWIDE, ALL_CLASSES, 0 },
    { _NTO_TRACE_SETCLASSFAST,      KTRACE_SETCLASSFAST,      ONE_CLASS,   0 },
    { _NTO_TRACE_SETCLASSWIDE,      KTRACE_SETCLASSWIDE,      ONE_CLASS,   0 },
    { _NTO_TRACE_SETEVENTFAST,      KTRACE_SETEVENTFAST,      ONE_EVENT,   0 },
    { _NTO_TRACE_SETEVENTWIDE,      KTRACE_SETEVENTWIDE,      ONE_EVENT,   0 },
    { _NTO_TRACE_SETCLASSPID,       KTRACE_SETCLASSPID,       ONE_CLASS,   1 },
    { _NTO_TRACE_SETCLASSTID,       KTRACE_SETCLASSPID,       ONE_CLASS,   1 },
    { _NTO_TRACE_SETCLASSTID,       KTRACE_SETCLASSTID,       ONE_CLASS,   2 },
    { _NTO_TRACE_CLRCLASSPID,       KTRACE_CLRCLASSPID,       ONE_CLASS,   0 },
    { _NTO_TRACE_CLRCLASSTID,       KTRACE_CLRCLASSTID,       ONE_CLASS,   0 },
    { _NTO_TRACE_SETEVENTPID,       KTRACE_SETEVENTPID,       ONE_EVENT,   2 },
    { _NTO_TRACE_SETEVENTTID,       KTRACE_SETEVENTPID,       ONE_EVENT,   2 },
    { _NTO_TRACE_SETEVENTTID,       KTRACE_SETEVENTTID,       ONE_EVENT,   3 },
    { _NTO_TRACE_CLREVENTPID,       KTRACE_CLREVENTPID,       ONE_EVENT,   0 },
    { _NTO_TRACE_CLREVENTTID,       KTRACE_CLREVENTTID,       ONE_EVENT,   0 },
};

// A filter or mode command (filter_cmds) with its arguments a: 0, or -1 (errno); ENOTSUP for
// any other code.
static int filter_call(int code, const uint32_t *a)
{
    int found = 0;
    for (size_t i = 0; i < sizeof(filter_cmds) / sizeof(filter_cmds[0]); i++) {
        const struct filter_cmd *f = &filter_cmds[i];
        if (f->code != code)
            continue;
        found = 1;
        uint32_t x = f->x ? a[f->x] : 0;
        int rc = f->takes == ALL_CLASSES ? TraceEvent(f->cmd, 0, 0, 0)
                 : f->takes == ONE_CLASS ? class_op(f->cmd, (int)a[0], x)
                                         : each(f->cmd, (int)a[0], a[1], 0, x);
        if (rc < 0)
            return -1;
    }
    return found ? 0 : unsupported();
}

int qnx_TraceEvent(int code, ...)
{
    va_list ap;
    uint32_t a[4] = { 0, 0, 0, 0 };
    const void *ptr = NULL;
    int rc;

    va_start(ap, code);
    args_read(code, ap, a, &ptr);
    va_end(ap);

    switch (code) {
    case _NTO_TRACE_START:             return TraceEvent(KTRACE_START, 0, 0, 0);
    case _NTO_TRACE_STARTNOSTATE:      return TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0);
    case _NTO_TRACE_STOP:              return TraceEvent(KTRACE_STOP, 0, 0, 0);
    case _NTO_TRACE_ALLOCBUFFER:
        // The ring is mapped read-only into the caller; its buffers are taken one by one
        // with KTRACE_TAKEBUFFER (uapi/ktrace.h), so no address is handed out here.
        rc = TraceEvent(KTRACE_ALLOCBUFFER, a[0], 0, 0);
        if (rc >= 0 && ptr)
            *(void **)(uintptr_t)ptr = NULL;
        return rc < 0 ? -1 : 0;
    case _NTO_TRACE_DEALLOCBUFFER:     return TraceEvent(KTRACE_DEALLOCBUFFER, 0, 0, 0);
    case _NTO_TRACE_FLUSHBUFFER:       return TraceEvent(KTRACE_FLUSHBUFFER, 0, 0, 0);
    case _NTO_TRACE_QUERYEVENTS: {     // QNX: the number of events recorded
        struct ktrace_query q;
        if (TraceEvent(KTRACE_QUERYEVENTS, (uint32_t)(uintptr_t)&q, 0, 0) < 0)
            return -1;
        return (int)(q.recorded & 0x7fffffffu);
    }
    case _NTO_TRACE_INSERTSUSEREVENT:  return TraceEvent(KTRACE_INSERTSUSEREVENT, a[0], a[1], a[2]);
    case _NTO_TRACE_INSERTCUSEREVENT:
        return TraceEvent(KTRACE_INSERTCUSEREVENT, a[0], (uint32_t)(uintptr_t)ptr, a[1]);
    case _NTO_TRACE_INSERTUSRSTREVENT:
        return TraceEvent(KTRACE_INSERTUSRSTREVENT, a[0], (uint32_t)(uintptr_t)ptr, 0);
    case _NTO_TRACE_SETRINGMODE:       return TraceEvent(KTRACE_SETRINGMODE, 0, 0, 0);
    case _NTO_TRACE_SETLINEARMODE:     return TraceEvent(KTRACE_SETLINEARMODE, 0, 0, 0);
    case _NTO_TRACE_OVERWRITEBUFFER:   // full ring: the oldest saved buffer is reused
        return TraceEvent(KTRACE_SETPOLICY, KTRACE_POLICY_OVERWRITE, 0, 0);
    case _NTO_TRACE_SKIPBUFFER:        // full ring: events are dropped (and counted)
        return TraceEvent(KTRACE_SETPOLICY, KTRACE_POLICY_SWITCH, 0, 0);
    case _NTO_TRACE_QUERYVERSION:      return TraceEvent(KTRACE_QUERYVERSION, 0, 0, 0);
    case _NTO_TRACE_QUERYSUPPORT:      return _NTO_TRACE_SUPPINSTR;
    default:                           return filter_call(code, a);
    }
}
