// SPDX-License-Identifier: MIT
// Kernel-call lines as QNX's traceprinter prints them (see qnx_kercall_tab.c for the table).
#ifndef QNX_KERCALL_H
#define QNX_KERCALL_H

#include <stddef.h>
#include <trace/kev_decode.h>

#define QNX_KERCALL_NUM 101u // __KER_NOP .. __KER_MT_CTL

struct qnx_kercall {
    const char *name;  // as QNX prints it: "MSG_SENDV"
    const char *entry; // fields of the entry event, space separated, or NULL
    const char *exit;  // fields of the exit event (may start "@NAME " when QNX prints another name)
};

extern const struct qnx_kercall qnx_kercalls[QNX_KERCALL_NUM];

// The name QNX prints for e (a KER_CALL event), e.g. "MSG_SENDV"; NULL when QNX has none.
const char *qnx_kercall_name(const struct kev_event *e);
// Writes e's arguments as QNX prints them (after "KER_CALL:NAME/NN") into buf: " coid:0x... ".
// A failed call's exit is " ret_val:-1, errno:N". big: the file is big-endian (string fields
// show its raw bytes). Returns 0, or -1 when QNX has no layout.
int qnx_kercall_args(const struct kev_event *e, int big, char *buf, size_t cap);

#endif
