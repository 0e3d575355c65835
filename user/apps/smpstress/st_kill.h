// SPDX-License-Identifier: MIT
// smpstress's kill of an st_peer incarnation (tests 2, 8 and 9): killed, waited for, and
// reported killed by KSIG_KILL, the truth each kill test counts.
#ifndef ST_KILL_H
#define ST_KILL_H

#include <kern.h>
#include <stdbool.h>

// Kills process `pid` (none when it is not > 0: a spawn that failed) and waits for it; true
// when its status says KSIG_KILL ended it. *status: what ProcWait gave (0 when it gave none).
static inline bool st_kill_reported(int pid, int *status)
{
    *status = 0;
    return pid > 0 && ProcKill(pid) == 0 && ProcWait(pid, status) == pid &&
           KW_SIGNALED(*status) && KW_TERMSIG(*status) == KSIG_KILL;
}

#endif
