// SPDX-License-Identifier: MIT
// QNX's trace_logf / trace_logi / trace_logb (<sys/trace.h>) and the user-event registry a
// program declares with trace_event_register (trace/include/trace/kev_userreg.h): the tools
// then name its events and show their words through the format it gave.
//   trace_logf(code, fmt, ...)  a string event, formatted here (QNX: _NTO_TRACE_INSERTUSRSTREVENT)
//   trace_logi(code, d1, d2)    a two-word event (_NTO_TRACE_INSERTSUSEREVENT)
//   trace_logb(code, buf, len)  a buffer event of len bytes, padded to words with zeros
//                               (_NTO_TRACE_INSERTCUSEREVENT)
// Each returns 0, or -1 with errno set.
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <kern.h>
#include <sys/trace.h>
#include <trace/kev_userreg.h>
#include <uapi/ktrace.h>

#undef TraceEvent // below, TraceEvent is this kernel's own call (kern.h)

#define LOG_TEXT_MAX 128u   // a formatted event's text, at most (longer is cut)
#define LOG_BUF_WORDS 64u   // a buffer event's words, at most

int trace_logf(int code, const char *fmt, ...)
{
    char text[LOG_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    return TraceEvent(KTRACE_INSERTUSRSTREVENT, (uint32_t)code, (uint32_t)(uintptr_t)text, 0) < 0
               ? -1 : 0;
}

int trace_logi(int code, unsigned d1, unsigned d2)
{
    return TraceEvent(KTRACE_INSERTSUSEREVENT, (uint32_t)code, d1, d2) < 0 ? -1 : 0;
}

int trace_logb(int code, const void *buf, unsigned len)
{
    uint32_t w[LOG_BUF_WORDS] = { 0 };
    if (len > sizeof(w)) {
        errno = EINVAL;
        return -1;
    }
    memcpy(w, buf, len);
    return TraceEvent(KTRACE_INSERTCUSEREVENT, (uint32_t)code, (uint32_t)(uintptr_t)w,
                      (len + 3u) / 4u) < 0 ? -1 : 0;
}

int trace_event_register(int code, const char *name, const char *fmt)
{
    char text[8 + KEV_UREG_NAME + KEV_UREG_FMT];
    if (code < 0 || (unsigned)code >= KEV_USER_REGISTRY || !name[0] || strchr(name, ' ') ||
        strlen(name) >= KEV_UREG_NAME || strlen(fmt) >= KEV_UREG_FMT) {
        errno = EINVAL;
        return -1;
    }
    snprintf(text, sizeof(text), "%d %s %s", code, name, fmt);
    return TraceEvent(KTRACE_INSERTUSRSTREVENT, KEV_USER_REGISTRY, (uint32_t)(uintptr_t)text, 0) < 0
               ? -1 : 0;
}
