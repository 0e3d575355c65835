// SPDX-License-Identifier: MIT
// Names and formats of user events: the registry a program declares in its trace and every
// tool reads (trace/kev_userreg.c). A program registers a code with a string user event of
// code KEV_USER_REGISTRY whose text is "CODE NAME FORMAT" (user/lib/trace_log.c:
// trace_event_register); from then on the tools call its events of that code NAME and show
// their words through FORMAT, a printf-like format whose conversions (d i u x X o c, with
// flags, width and precision) each take the next word. A string event of a registered code is
// shown as its text. The registry is per process (a code means what its process declared),
// with a registration from any process as the fallback.
#ifndef TRACE_KEV_USERREG_H
#define TRACE_KEV_USERREG_H

#include <stddef.h>
#include <stdint.h>

#define KEV_USER_REGISTRY 1023u // the user event code of registrations (QNX's last user code)
#define KEV_UREG_MAX      256u
#define KEV_UREG_NAME     32u
#define KEV_UREG_FMT      96u

struct kev_ureg_entry {
    uint32_t pid, code;
    char name[KEV_UREG_NAME];
    char fmt[KEV_UREG_FMT];
};

struct kev_userreg {
    struct kev_ureg_entry e[KEV_UREG_MAX];
    unsigned n;
    uint64_t bad, full; // registrations not understood / past KEV_UREG_MAX (counted)
};

// A registration's text from process pid: 0, or -1 when not "CODE NAME [FORMAT]" (counted).
int kev_userreg_add(struct kev_userreg *g, uint32_t pid, const char *text);
// The registration of code for pid (its own, else any process's), NULL when none.
const struct kev_ureg_entry *kev_userreg_find(const struct kev_userreg *g, uint32_t pid,
                                              uint32_t code);
// words through fmt into out (always NUL-terminated); words left over are appended in hex,
// conversions past the last word print "?". Returns the length written.
size_t kev_userreg_format(const char *fmt, const uint32_t *w, unsigned nw, char *out, size_t n);

#endif
