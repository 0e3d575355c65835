// SPDX-License-Identifier: MIT
// A late tick (docs/timers.md): the checks run in kt_tick, a process of its own, whose
// '# kt_tick' lines say which failed. A board whose ktest image has no room for it leaves it
// out (BOARD_NO_APPS in its board.mk): the check is then skipped, and says so.
#include "ktest.h"

void test_late_tick(void)
{
    int st = -1, pid = ProcSpawn("kt_tick", 0, 0);
    bool absent = pid < 0 && errno == ENOENT;
    int w = pid > 0 ? ProcWait(pid, &st) : -1;
    CHECK(absent || (w == pid && st == 0), "late tick: kt_tick %#x%s", st,
          absent ? " # SKIP not in this image" : "");
}
