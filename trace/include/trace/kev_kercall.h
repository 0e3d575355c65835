// SPDX-License-Identifier: MIT
// The kernel-call rows of the event table: for each QNX kernel-call number the name QNX prints
// and the fields of its entry and exit events (trace/kev_kercall.c). The generic field decoder
// (trace/kev_events.h) names a KER_CALL event's fields from here; traceprinter prints them
// QNX's way from the same rows (tools/traceprinter/qnx_kercall.c).
#ifndef TRACE_KEV_KERCALL_H
#define TRACE_KEV_KERCALL_H

#include <stdint.h>

#define QNX_KERCALL_NUM 101u // __KER_NOP .. __KER_MT_CTL

struct qnx_kercall {
    const char *name;  // as QNX prints it: "MSG_SENDV"
    const char *entry; // fields of the entry event, space separated, or NULL
    const char *exit;  // fields of the exit event (may start "@NAME " when QNX prints another name)
};

extern const struct qnx_kercall qnx_kercalls[QNX_KERCALL_NUM];

// This kernel's own calls (kernel/include/uapi/kcall.h KCALL_LIST): the arguments its entry
// event carries, which are the call's registers (user/lib/kcalls.c), not QNX's layout of the
// same number. Indexed by call number, NULL for a number this kernel has no call on. A field
// is "<T><label>": T = D signed, U unsigned, H hex, P address, I pid, T tid, R priority,
// Q interrupt line; the first two are the fast event's two words.
#define KEV_OUR_KERCALL_NUM 100u
extern const char *const kev_our_kercalls[KEV_OUR_KERCALL_NUM];
// The two words of this kernel's exit events (kernel/include/kernel/ktrace_kcall.h): NULL for a
// call whose result is errno-style, [result, 0] or [-1, errno], named "ret" and "errno" (the
// decoder's); else that call's own layout of its two result registers, as above plus
// W = a 64-bit number and C = a 64-bit cycle count, each low word first (both words).
extern const char *const kev_our_kercall_exits[KEV_OUR_KERCALL_NUM];

// The API's name of a call whose number QNX gives two calls, told apart by an argument the
// entry event carries (in a fast event too): CondSignal with `all` set is CondBroadcast. NULL
// when the number's own name (kev_kcall_name) is the call's. arg: the entry's words.
const char *kev_kcall_api_name(unsigned call, const uint32_t *arg, unsigned nargs);

#endif
