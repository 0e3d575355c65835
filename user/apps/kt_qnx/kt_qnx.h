// SPDX-License-Identifier: MIT
// kt_qnx: what scan.c (this kernel's own calls) found in the ring, for main.c (QNX's names).
#ifndef KT_QNX_H
#define KT_QNX_H

#include <stdint.h>

// Counts in the ring's full buffers (taken and released): USER events with code `code`
// (2-word ones with words d0 d1, strings, buffers starting 0x11), RUNNING/READY states, and
// kernel-call entries and exits.
struct qnx_seen {
    unsigned user2, user_str, user_buf, prth, kercall_entry, kercall_exit;
};
void scan_qnx_events(uint32_t code, uint32_t d0, uint32_t d1, struct qnx_seen *s);
// Run by ktest with ProcArg() 1 or 2 while ktest owns a running capture: this process's
// control commands on it (a capture is its owner's). Returns the failures.
int intrude(int shared);

#endif
