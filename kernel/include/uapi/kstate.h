// SPDX-License-Identifier: MIT
// Thread states. The numbers are QNX's (so trace events carry familiar state ids); this kernel
// uses only the ones it really has. A thread in ProcWait is JOIN (struct thread wait_child).
#ifndef UAPI_KSTATE_H
#define UAPI_KSTATE_H

enum thread_state {
    THS_DEAD = 0,
    THS_RUNNING = 1,
    THS_READY = 2,
    THS_STOPPED = 3,
    THS_SEND = 4,
    THS_RECEIVE = 5,
    THS_REPLY = 6,
    THS_NANOSLEEP = 12,
    THS_MUTEX = 13,
    THS_CONDVAR = 14,
    THS_JOIN = 15,
    THS_INTR = 16,
    THS_SEM = 17,
};

enum sched_policy {
    SCHED_POLICY_FIFO = 1,
    SCHED_POLICY_RR = 2,
};

#endif
