// SPDX-License-Identifier: MIT
// Multiprocessor checks. They run in kt_smp, a process of its own: ktest's threads share its
// device-timer window, which binds them to CPU 0 on a board whose device timer is per CPU.
#include "ktest.h"

void test_smp(void)
{
    uint32_t ncpu = 0;
    CHECK(SysInfo(KSYSINFO_NCPUS, &ncpu) == 0 && ncpu >= 1, "SysInfo(NCPUS) says %u", (unsigned)ncpu);
    int st = -1, pid = ProcSpawn("kt_smp", 0, 0);
    int w = pid > 0 ? ProcWait(pid, &st) : -1;
    CHECK(pid > 0 && w == pid && st == 0,
          "SMP: kt_smp's checks pass on %u CPU(s) (status %#x; its '# kt_smp' lines say which failed)",
          (unsigned)ncpu, st);
}
