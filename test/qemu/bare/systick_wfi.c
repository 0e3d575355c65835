// SPDX-License-Identifier: MIT
// No kernel: QEMU's mps2-an385 alone, to tell QEMU's timing from the kernel's (docs/boards.md,
// "A Cortex-M waiting in WFI under -icount sleep=off"). SysTick is programmed for 1 ms
// (RVR 24999 at the 25 MHz core clock) and each of its exceptions stores CMSDK timer 1's count
// (free-running at the same 25 MHz); the waits between them are WFI (-DIDLE_WFI) or a spin.
// Prints the 11 intervals in timer counts (25000 = 1 ms) over semihosting and exits.
// Built and run by systick_wfi.sh.
#include <stdint.h>

#define REG(a)   (*(volatile uint32_t *)(a))
#define SYST_CSR REG(0xe000e010u)
#define SYST_RVR REG(0xe000e014u)
#define SYST_CVR REG(0xe000e018u)
#define T1_CTRL  REG(0x40001000u)
#define T1_VALUE REG(0x40001004u)
#define T1_RELOAD REG(0x40001008u)
#define N 12

static volatile uint32_t stamp[N];
static volatile unsigned taken;

static int semihost(int op, const void *arg)
{
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static void print_uint(uint32_t v)
{
    char b[12];
    int i = 11;
    b[i] = 0;
    do
        b[--i] = (char)('0' + v % 10u);
    while (v /= 10u);
    semihost(4, b + i);     // SYS_WRITE0
}

void systick_handler(void)
{
    if (taken < N)
        stamp[taken++] = ~T1_VALUE;
}

void reset_handler(void)
{
    T1_CTRL = 0;
    T1_RELOAD = 0xffffffffu;
    T1_VALUE = 0xffffffffu;
    T1_CTRL = 1;
    SYST_RVR = 25000u - 1u;
    SYST_CVR = 0;
    SYST_CSR = 7;           // enable, interrupt, core clock
    while (taken < N) {
#ifdef IDLE_WFI
        __asm__ volatile("wfi");
#else
        __asm__ volatile("nop");
#endif
    }
    for (unsigned i = 1; i < N; i++) {
        print_uint(stamp[i] - stamp[i - 1]);
        semihost(4, "\n");
    }
    static const uint32_t exit_ok[2] = { 0x20026u, 0 };    // ADP_Stopped_ApplicationExit
    semihost(0x18, exit_ok);
    for (;;)
        ;
}

static void hang(void)
{
    for (;;)
        ;
}

__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))0x20010000u, reset_handler, hang, hang, hang, hang, hang, 0, 0, 0, 0,
    hang, hang, 0, hang, systick_handler,
};
