// SPDX-License-Identifier: MIT
// picolibc's semihosting layer (--oslib=semihost) funnels every request through
// sys_semihost(); this one makes it a kernel call, so the kernel can check the request
// against the process's memory instead of the program trapping to the debugger itself.
// _exit ends the process (not the machine).
#include <kern.h>

uintptr_t sys_semihost(uintptr_t op, uintptr_t param);
uintptr_t sys_semihost(uintptr_t op, uintptr_t param)
{
    return (uintptr_t)KCALL2(KC_Semihost, op, param);
}

_Noreturn void _exit(int status);
_Noreturn void _exit(int status)
{
    ProcExit(status);
}
