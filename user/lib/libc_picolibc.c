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
#if UINTPTR_MAX > 0xffffffffu
// 64-bit targets: picolibc builds AArch64 blocks of 64-bit words; the kernel's proxy speaks
// the 32-bit layout (addresses lie below 4 GB), so the block is narrowed for the call and what
// the host writes back (the length SYS_GET_CMDLINE returns) widened again. Parameters that
// are not blocks (a character, a string, SYS_ELAPSED's 64-bit count) pass as they are.
uintptr_t sys_semihost(uintptr_t op, uintptr_t param)
{
    if (!param || op == 0x03 || op == 0x04 || op == 0x30)
        return (uintptr_t)(intptr_t)KCALL2(KC_Semihost, op, param);
    uintptr_t *b64 = (uintptr_t *)param;
    uint32_t b32[4];
    unsigned n = op == 0x01 || op == 0x05 || op == 0x06 ? 3 : op == 0x02 || op == 0x08 ||
                 op == 0x09 || op == 0x0c ? 1 : 2;
    for (unsigned i = 0; i < 4; i++)
        b32[i] = i < n ? (uint32_t)b64[i] : 0;
    intptr_t r = KCALL2(KC_Semihost, op, b32);
    if (op == 0x15 && r == 0)
        b64[1] = b32[1];
    return (uintptr_t)r;
}
#else
uintptr_t sys_semihost(uintptr_t op, uintptr_t param)
{
    return (uintptr_t)KCALL2(KC_Semihost, op, param);
}
#endif

_Noreturn void _exit(int status);
_Noreturn void _exit(int status)
{
    ProcExit(status);
}
