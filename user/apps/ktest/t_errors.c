// SPDX-License-Identifier: MIT
// Bad kernel-call arguments: every one gets a clear errno, none hurts the kernel.
#include "ktest.h"
#include <board_user.h>

#define KERNEL_RAM ((void *)BOARD_KERNEL_RAM_ADDR)
#define FLASH_ADDR ((void *)BOARD_CODE_ADDR)

static uint32_t test_semihost(uint32_t op, uint32_t param)
{
    return (uint32_t)KCALL2(KC_Semihost, op, param);
}

// Pointers outside the caller's memory (the kernel's RAM, flash, past its RAM) and sizes that
// do not fit: EFAULT, or EINVAL where the value itself is wrong.
static void bad_pointers(int chid, int coid)
{
    char buf[32];

    CHECK_ERR(MsgSend(coid, KERNEL_RAM, 16, NULL, 0), EFAULT);
    CHECK_ERR(MsgSend(coid, buf, sizeof(buf), FLASH_ADDR, 16), EFAULT);
    CHECK_ERR(MsgSend(coid, (void *)0x2003fff0u, 0x100, NULL, 0), EFAULT);
    CHECK_ERR(MsgSend(coid, buf, 0xfffffff0u, NULL, 0), EFAULT);
    CHECK_ERR(MsgReceive(chid, KERNEL_RAM, 64, NULL), EFAULT);
    CHECK_ERR(MsgReceive(chid, buf, sizeof(buf), KERNEL_RAM), EFAULT);
    CHECK_ERR(ThreadName(0, (const char *)KERNEL_RAM), EFAULT);
    CHECK_ERR(ThreadName(0, "a name much too long for the kernel"), EINVAL);
    CHECK_ERR(ProcWait(-1, (int *)KERNEL_RAM), EFAULT);
    CHECK_ERR(kresult(KCALL5(KC_ThreadCreate, 0x08000000u, 0, 0, (uint32_t)(uintptr_t)(buf + 32), 0)),
              EFAULT);
    CHECK_ERR(ThreadCreate(NULL, NULL, KERNEL_RAM, 512, 0, 0), EFAULT);
    CHECK_ERR(ThreadCreate(NULL, NULL, buf, sizeof(buf), 0, 9), EINVAL);
    // a stack smaller than a first frame (kern.h THREAD_STACK_MIN); one that starts outside
    // the process's RAM
    CHECK_ERR(ThreadCreate(NULL, NULL, buf, sizeof(buf), 0, 0), EINVAL);
    uint8_t *s = stack_get();
    CHECK_ERR(ThreadCreate(NULL, NULL, s - 0x1000000u, 0x1000000u + TSTACK_SIZE, 0, 0), EFAULT);
    CHECK_ERR(DebugWrite((const char *)KERNEL_RAM, 8), EFAULT);
    CHECK_ERR(SysInfo(KSYSINFO_TICK_NS, (uint32_t *)FLASH_ADDR), EFAULT);
    CHECK_ERR(SysInfo(999, (uint32_t *)buf), EINVAL);
}

// Ids of nothing (ESRCH, EBADF), values out of range (EINVAL), a join of oneself (EDEADLK) and
// a call number the kernel has not (ENOSYS).
static void bad_ids_and_values(int chid, int coid)
{
    char buf[32];

    CHECK_ERR(ConnectAttach(999, chid), ESRCH);
    CHECK_ERR(ConnectAttach(0, 999), ESRCH);
    CHECK_ERR(MsgSend(999, buf, 4, NULL, 0), EBADF);
    CHECK_ERR(MsgReply(12345, 0, NULL, 0), ESRCH);
    CHECK_ERR(MsgReply(-1, 0, NULL, 0), ESRCH);
    CHECK_ERR(MsgError(12345, EINVAL), ESRCH);
    CHECK_ERR(MsgSendPulse(coid, 0, 1, 1), EINVAL);
    CHECK_ERR(MsgSendPulse(coid, 10, -5, 1), EINVAL);
    CHECK_ERR(ChannelCreate(1), EINVAL);
    CHECK_ERR(ChannelDestroy(999), ESRCH);
    CHECK_ERR(ConnectDetach(999), EBADF);
    CHECK_ERR(MutexLock(999), EINVAL);
    CHECK_ERR(MutexUnlock(-3), EINVAL);
    CHECK_ERR(CondSignal(999), EINVAL);
    CHECK_ERR(SemPost(999), EINVAL);
    CHECK_ERR(ThreadSetPrio(0, 0, 0), EINVAL);
    CHECK_ERR(ThreadSetPrio(0, 256, 0), EINVAL);
    CHECK_ERR(ThreadSetPrio(0, 50, 7), EINVAL);
    CHECK_ERR(ThreadSetPrio(99, 50, 0), ESRCH);
    CHECK_ERR(ThreadCtl(99, NULL), EINVAL);
    CHECK_ERR(ThreadCtl(KTCTL_RUNMASK_GET_AND_SET, (void *)4), EFAULT);
    CHECK_ERR(ThreadJoin(1, NULL), EDEADLK);
    CHECK_ERR(ThreadJoin(99, NULL), ESRCH);
    CHECK_ERR(ThreadSleep((uint64_t)-1), EINVAL);
    CHECK_ERR(TimerTimeout((uint64_t)-5), EINVAL);
    CHECK_ERR(TimerCreate(coid, -1, 0), EINVAL);
    CHECK_ERR(InterruptDetach(0), EINVAL);
    CHECK_ERR(kresult(KCALL0(200)), ENOSYS);
}

// The semihosting proxy refuses requests that point outside the caller.
static void bad_semihosting(void)
{
    char buf[32];
    uint32_t blk[3] = { 1, BOARD_KERNEL_RAM_ADDR, 16 };
    CHECK(test_semihost(0x05, (uint32_t)(uintptr_t)blk) == (uint32_t)-1,
          "semihosting write from kernel memory is refused");
    CHECK(test_semihost(0x05, BOARD_KERNEL_RAM_ADDR) == (uint32_t)-1,
          "semihosting parameter block in kernel memory is refused");
    blk[1] = (uint32_t)(uintptr_t)buf;
    blk[0] = 100;
    CHECK(test_semihost(0x05, (uint32_t)(uintptr_t)blk) == (uint32_t)-1,
          "semihosting write to a handle the process did not open is refused");
    CHECK(test_semihost(0x12, (uint32_t)(uintptr_t)buf) == (uint32_t)-1,
          "semihosting SYS_SYSTEM is refused");
}

// Files on the host through the checked proxy, with the C library's stdio: one written and
// read back. A board with no host behind the kernel (x86-pc: no semihosting) has no files:
// skip.
static void host_file(void)
{
    errno = 0;
    FILE *f = fopen("build/ktest-semihost.txt", "w");
    if (!f && errno == ENOSYS)
        CHECK(true, "fopen a host file for writing # SKIP no host files on this board");
    else
        CHECK(f != NULL, "fopen a host file for writing");
    if (f) {
        fputs("written by ktest\n", f);
        fclose(f);
        f = fopen("build/ktest-semihost.txt", "r");
        char line[32] = "";
        if (f) {
            fgets(line, sizeof(line), f);
            fclose(f);
        }
        CHECK(strcmp(line, "written by ktest\n") == 0, "read the host file back ('%s')", line);
        remove("build/ktest-semihost.txt");
    }
}

void test_errors(void)
{
    printf("# bad arguments\n");
    int chid = ChannelCreate(0);
    int coid = ConnectAttach(0, chid);
    bad_pointers(chid, coid);
    bad_ids_and_values(chid, coid);
    bad_semihosting();
    host_file();
    ConnectDetach(coid);
    ChannelDestroy(chid);
}
