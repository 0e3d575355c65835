// SPDX-License-Identifier: MIT
// What picolibc needs on this kernel. Its semihosting layer (--oslib=semihost) funnels every
// request through sys_semihost(); this one makes it a kernel call, so the kernel can check the
// request against the process's memory instead of the program trapping to the debugger
// itself. _exit ends the process (not the machine). picolibc's thread-local storage is the
// .tdata/.tbss of the image itself, shared by the process's threads (so errno is too).
#include <kern.h>

extern char __tls_base[];
extern void _set_tls(void *tls);

void libc_thread_init(void);
void libc_thread_init(void)
{
    _set_tls(__tls_base);
}

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
