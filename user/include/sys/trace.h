// SPDX-License-Identifier: MIT
// QNX's TraceEvent() interface, so that instrumentation written for QNX compiles here
// unchanged: `#include <sys/trace.h>`, then TraceEvent(_NTO_TRACE_INSERTUSRSTREVENT, 100, "x").
// The names and values are those of QNX's <sys/trace.h> (facts: its command codes carry their
// argument count in bits 28-30; classes and events are QNX's external numbers). Calls are
// translated to this kernel's own TraceEvent (uapi/ktrace.h) by user/lib/trace_qnx.c; what
// has no counterpart here fails with ENOTSUP (docs/trace-api.md, "QNX's TraceEvent()").
// Including this header makes TraceEvent the QNX-style variadic call in that file.
#ifndef QNX_SYS_TRACE_H
#define QNX_SYS_TRACE_H

#include <kern.h>

// Commands: (argument count, the command included) << 28 | number.
#define _NTO_TRACE_ADDALLCLASSES     ((1 << 28) | 1)
#define _NTO_TRACE_DELALLCLASSES     ((1 << 28) | 2)
#define _NTO_TRACE_ADDCLASS          ((2 << 28) | 3)
#define _NTO_TRACE_DELCLASS          ((2 << 28) | 4)
#define _NTO_TRACE_ADDEVENT          ((3 << 28) | 5)
#define _NTO_TRACE_DELEVENT          ((3 << 28) | 6)
#define _NTO_TRACE_ADDEVENTHANDLER   ((5 << 28) | 7)
#define _NTO_TRACE_DELEVENTHANDLER   ((3 << 28) | 8)
#define _NTO_TRACE_INSERTEVENT       ((5 << 28) | 9)
#define _NTO_TRACE_START             ((1 << 28) | 10)
#define _NTO_TRACE_STOP              ((1 << 28) | 11)
#define _NTO_TRACE_ALLOCBUFFER       ((3 << 28) | 12)
#define _NTO_TRACE_DEALLOCBUFFER     ((1 << 28) | 13)
#define _NTO_TRACE_FLUSHBUFFER       ((1 << 28) | 14)
#define _NTO_TRACE_QUERYEVENTS       ((1 << 28) | 15)
#define _NTO_TRACE_SETALLCLASSESFAST ((1 << 28) | 16)
#define _NTO_TRACE_SETALLCLASSESWIDE ((1 << 28) | 17)
#define _NTO_TRACE_SETCLASSFAST      ((2 << 28) | 18)
#define _NTO_TRACE_SETCLASSWIDE      ((2 << 28) | 19)
#define _NTO_TRACE_SETEVENTFAST      ((3 << 28) | 20)
#define _NTO_TRACE_SETEVENTWIDE      ((3 << 28) | 21)
#define _NTO_TRACE_SETCLASSPID       ((3 << 28) | 22)
#define _NTO_TRACE_SETCLASSTID       ((4 << 28) | 23)
#define _NTO_TRACE_SETEVENTPID       ((4 << 28) | 24)
#define _NTO_TRACE_SETEVENTTID       ((5 << 28) | 25)
#define _NTO_TRACE_CLRCLASSPID       ((2 << 28) | 26)
#define _NTO_TRACE_CLRCLASSTID       ((2 << 28) | 27)
#define _NTO_TRACE_CLREVENTPID       ((3 << 28) | 28)
#define _NTO_TRACE_CLREVENTTID       ((3 << 28) | 29)
#define _NTO_TRACE_INSERTSUSEREVENT  ((4 << 28) | 30)
#define _NTO_TRACE_INSERTCUSEREVENT  ((4 << 28) | 31)
#define _NTO_TRACE_INSERTUSRSTREVENT ((3 << 28) | 32)
#define _NTO_TRACE_STARTNOSTATE      ((1 << 28) | 33)
#define _NTO_TRACE_SETRINGMODE       ((1 << 28) | 34)
#define _NTO_TRACE_SETLINEARMODE     ((1 << 28) | 35)
#define _NTO_TRACE_ADDCLASSEVHANDLER ((4 << 28) | 36)
#define _NTO_TRACE_DELCLASSEVHANDLER ((2 << 28) | 37)
#define _NTO_TRACE_SKIPBUFFER        ((1 << 28) | 38)
#define _NTO_TRACE_OVERWRITEBUFFER   ((1 << 28) | 39)
#define _NTO_TRACE_QUERYVERSION      ((1 << 28) | 40)
#define _NTO_TRACE_QUERYSUPPORT      ((1 << 28) | 41)
#define _NTO_TRACE_INSERTSCLASSEVENT ((5 << 28) | 42)
#define _NTO_TRACE_INSERTCCLASSEVENT ((5 << 28) | 43)

// Classes (QNX's external numbering).
enum {
    _NTO_TRACE_EMPTY,
    _NTO_TRACE_CONTROL,
    _NTO_TRACE_KERCALL,
    _NTO_TRACE_KERCALLENTER,
    _NTO_TRACE_KERCALLEXIT,
    _NTO_TRACE_KERCALLINT,
    _NTO_TRACE_INT,
    _NTO_TRACE_INTENTER,
    _NTO_TRACE_INTEXIT,
    _NTO_TRACE_PROCESS,
    _NTO_TRACE_THREAD,
    _NTO_TRACE_VTHREAD,
    _NTO_TRACE_USER,
    _NTO_TRACE_SYSTEM,
    _NTO_TRACE_COMM,
    _NTO_TRACE_INT_HANDLER_ENTER,
    _NTO_TRACE_INT_HANDLER_EXIT,
};

// Events. CONTROL, PROCESS and THREAD events are bit masks; the others are numbers.
#define _NTO_TRACE_EMPTYEVENT       0
#define _NTO_TRACE_CONTROLTIME      (1u << 0)
#define _NTO_TRACE_CONTROLBUFFER    (1u << 1)
#define _NTO_TRACE_KERCALLFIRST     0
#define _NTO_TRACE_KERCALLLAST      127
#define _NTO_TRACE_INTFIRST         0u
#define _NTO_TRACE_INTLAST          0xffffffffu
#define _NTO_TRACE_PROCCREATE       (1u << 0)
#define _NTO_TRACE_PROCDESTROY      (1u << 1)
#define _NTO_TRACE_PROCCREATE_NAME  (1u << 2)
#define _NTO_TRACE_PROCDESTROY_NAME (1u << 3)
#define _NTO_TRACE_PROCTHREAD_NAME  (1u << 4)
#define _NTO_TRACE_THDEAD           (1u << 0)
#define _NTO_TRACE_THRUNNING        (1u << 1)
#define _NTO_TRACE_THREADY          (1u << 2)
#define _NTO_TRACE_THSTOPPED        (1u << 3)
#define _NTO_TRACE_THSEND           (1u << 4)
#define _NTO_TRACE_THRECEIVE        (1u << 5)
#define _NTO_TRACE_THREPLY          (1u << 6)
#define _NTO_TRACE_THSTACK          (1u << 7)
#define _NTO_TRACE_THWAITTHREAD     (1u << 8)
#define _NTO_TRACE_THWAITPAGE       (1u << 9)
#define _NTO_TRACE_THSIGSUSPEND     (1u << 10)
#define _NTO_TRACE_THSIGWAITINFO    (1u << 11)
#define _NTO_TRACE_THNANOSLEEP      (1u << 12)
#define _NTO_TRACE_THMUTEX          (1u << 13)
#define _NTO_TRACE_THCONDVAR        (1u << 14)
#define _NTO_TRACE_THJOIN           (1u << 15)
#define _NTO_TRACE_THINTR           (1u << 16)
#define _NTO_TRACE_THSEM            (1u << 17)
#define _NTO_TRACE_THWAITCTX        (1u << 18)
#define _NTO_TRACE_THNET_SEND       (1u << 19)
#define _NTO_TRACE_THNET_REPLY      (1u << 20)
#define _NTO_TRACE_THCREATE         (1u << 24)
#define _NTO_TRACE_THDESTROY        (1u << 25)
#define _NTO_TRACE_USERFIRST        0
#define _NTO_TRACE_USERLAST         1023
#define _NTO_TRACE_SYS_PATHMGR      2

// _NTO_TRACE_QUERYSUPPORT's answer.
#define _NTO_TRACE_NOINSTRSUPP      0
#define _NTO_TRACE_SUPPINSTR        (1 << 0)

#define _TRACE_GET_COUNT(c)         (((c) >> 28) & 0x7)

int qnx_TraceEvent(int code, ...);
#define TraceEvent qnx_TraceEvent

// QNX's user-event helpers and our registry of event names and formats (user/lib/trace_log.c).
int trace_logf(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int trace_logi(int code, unsigned d1, unsigned d2);
int trace_logb(int code, const void *buf, unsigned len);
// Name a user event code and give the printf-like format its words are shown with (each of
// d i u x X o c takes the next word): every tool uses it (trace/include/trace/kev_userreg.h).
int trace_event_register(int code, const char *name, const char *fmt);

#endif
