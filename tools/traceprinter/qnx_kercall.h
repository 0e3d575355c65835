// SPDX-License-Identifier: MIT
// Kernel-call lines as QNX's traceprinter prints them (the table: trace/kev_kercall.c).
#ifndef QNX_KERCALL_H
#define QNX_KERCALL_H

#include <stddef.h>
#include <trace/kev_decode.h>
#include <trace/kev_kercall.h>


// The name QNX prints for e (a KER_CALL event), e.g. "MSG_SENDV"; NULL when QNX has none.
const char *qnx_kercall_name(const struct kev_event *e);
// Writes e's arguments as QNX prints them (after "KER_CALL:NAME/NN") into buf: " coid:0x... ".
// A failed call's exit is " ret_val:-1, errno:N". big: the file is big-endian (string fields
// show its raw bytes). Returns 0, or -1 when QNX has no layout.
int qnx_kercall_args(const struct kev_event *e, int big, char *buf, size_t cap);

#endif
