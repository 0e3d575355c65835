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
// their process and thread filters, with their arguments a; ENOTSUP for any other code.
static int filter_call(int code, const uint32_t *a)
{
    switch (code) {
    case _NTO_TRACE_ADDALLCLASSES:     return TraceEvent(KTRACE_ADDALLCLASSES, 0, 0, 0);
    case _NTO_TRACE_DELALLCLASSES:     return TraceEvent(KTRACE_DELALLCLASSES, 0, 0, 0);
    case _NTO_TRACE_ADDCLASS:          return class_op(KTRACE_ADDCLASS, (int)a[0], 0);
    case _NTO_TRACE_DELCLASS:          return class_op(KTRACE_DELCLASS, (int)a[0], 0);
    case _NTO_TRACE_ADDEVENT:          return each(KTRACE_ADDEVENT, (int)a[0], a[1], 0, 0);
    case _NTO_TRACE_DELEVENT:          return each(KTRACE_DELEVENT, (int)a[0], a[1], 0, 0);
    case _NTO_TRACE_SETALLCLASSESFAST: return TraceEvent(KTRACE_SETALLCLASSESFAST, 0, 0, 0);
    case _NTO_TRACE_SETALLCLASSESWIDE: return TraceEvent(KTRACE_SETALLCLASSESWIDE, 0, 0, 0);
    case _NTO_TRACE_SETCLASSFAST:      return class_op(KTRACE_SETCLASSFAST, (int)a[0], 0);
    case _NTO_TRACE_SETCLASSWIDE:      return class_op(KTRACE_SETCLASSWIDE, (int)a[0], 0);
    case _NTO_TRACE_SETEVENTFAST:      return each(KTRACE_SETEVENTFAST, (int)a[0], a[1], 0, 0);
    case _NTO_TRACE_SETEVENTWIDE:      return each(KTRACE_SETEVENTWIDE, (int)a[0], a[1], 0, 0);
    case _NTO_TRACE_SETCLASSPID:       return class_op(KTRACE_SETCLASSPID, (int)a[0], a[1]);
    case _NTO_TRACE_SETCLASSTID:       // (class, pid, tid): both filters
        if (class_op(KTRACE_SETCLASSPID, (int)a[0], a[1]) < 0)
            return -1;
        return class_op(KTRACE_SETCLASSTID, (int)a[0], a[2]);
    case _NTO_TRACE_CLRCLASSPID:       return class_op(KTRACE_CLRCLASSPID, (int)a[0], 0);
    case _NTO_TRACE_CLRCLASSTID:       return class_op(KTRACE_CLRCLASSTID, (int)a[0], 0);
    case _NTO_TRACE_SETEVENTPID:       return each(KTRACE_SETEVENTPID, (int)a[0], a[1], 0, a[2]);
    case _NTO_TRACE_SETEVENTTID:       // (class, event, pid, tid)
        if (each(KTRACE_SETEVENTPID, (int)a[0], a[1], 0, a[2]) < 0)
            return -1;
        return each(KTRACE_SETEVENTTID, (int)a[0], a[1], 0, a[3]);
    case _NTO_TRACE_CLREVENTPID:       return each(KTRACE_CLREVENTPID, (int)a[0], a[1], 0, 0);
    case _NTO_TRACE_CLREVENTTID:       return each(KTRACE_CLREVENTTID, (int)a[0], a[1], 0, 0);
    default:                           return unsupported();
    }
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
