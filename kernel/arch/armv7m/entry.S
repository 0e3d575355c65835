/* SPDX-License-Identifier: MIT */
/* Exception entry and exit, ARMv7-M. Every kernel entry from a thread (svc, SysTick, device
 * interrupts, PendSV, and faults taken in thread mode) comes through kentry: the hardware has
 * pushed r0-r3, r12, lr, pc, xPSR on the thread's stack (PSP); we save psp, r4-r11 and CONTROL
 * into k_current->ctx (struct arch_context), run kernel_entry(kind) on the main stack, then
 * restore whatever thread k_current names and return to it in thread mode on PSP.
 * While tracing runs (ktrace_kernel_on) the exceptions come through a second vector table,
 * whose entries are the same with kentry_traced, which calls kernel_entry_traced instead:
 * entry_select.c points VTOR at it, so that the untraced path pays nothing for tracing (not
 * even a test of the flag).
 * The board's profile timer has a vector of its own (vectors.c), a KENTRY_PROFILE entry.
 * SVC, PendSV, SysTick and all device interrupts share one priority, so kentry never nests;
 * faults have a higher priority and only come here when taken in thread mode. */
    .syntax unified
    .thumb
    .text

    .macro ENTRY_POINT name, kind, to
    .global \name
    .type \name, %function
    .thumb_func
\name:
    movs r0, #\kind
    b \to
    .endm

    ENTRY_POINT exc_svc, 0, kentry
    ENTRY_POINT exc_systick, 1, kentry
    ENTRY_POINT exc_irq, 2, kentry
    ENTRY_POINT exc_pendsv, 3, kentry
    ENTRY_POINT exc_profile, 7, kentry      /* the board's profile timer (BOARD_PTIMER_IRQ) */
#ifndef KTRACE_DISABLED
    ENTRY_POINT exc_svc_traced, 0, kentry_traced
    ENTRY_POINT exc_systick_traced, 1, kentry_traced
    ENTRY_POINT exc_irq_traced, 2, kentry_traced
    ENTRY_POINT exc_pendsv_traced, 3, kentry_traced
    ENTRY_POINT exc_profile_traced, 7, kentry_traced
#endif

    .macro FAULT_ENTRY name, to
    .global \name
    .type \name, %function
    .thumb_func
\name:
    tst lr, #4              /* fault taken while on MSP: in the kernel itself */
    beq 1f
    tst lr, #8              /* returning to handler mode: the kernel again */
    beq 1f
#ifndef KFBT_DISABLED
    mrs r0, ipsr            /* a thread's HardFault: handed to the faults' level first */
    cmp r0, #3
    beq thread_hardfault
#endif
    movs r0, #4
    b \to
1:  b kernel_fault_path
    .endm

/* A thread's fault that came as a HardFault (a bkpt where no debug monitor takes it: QEMU's
 * Cortex-M). The kernel never handles a thread's fault at the HardFault's level, where
 * nothing can preempt it (an fbt probe's trap, docs/fbt.md, would lock the core up): the
 * fault is noted and the thread sent to armv7m_fault_redirect's udf, whose UsageFault comes
 * back here at the faults' level and is reported as the original fault (fault.c). */
#ifndef KFBT_DISABLED
    .type thread_hardfault, %function
    .thumb_func
thread_hardfault:
    mrs r0, psp
    b armv7m_thread_hardfault      /* returns to the thread, which faults again at once */
#endif

    .global armv7m_fault_redirect
    .type armv7m_fault_redirect, %function
    .thumb_func
armv7m_fault_redirect:
    udf #0xfe

/* A fault taken in the kernel: an fbt probe's trap (docs/fbt.md), which armv7m_fbt_trap
 * handles and returns from to the site's slot, or a kernel bug, reported by
 * arch_kernel_fault. Only faults come here: the kernel's own paths run none of it. */
    .type kernel_fault_path, %function
    .thumb_func
kernel_fault_path:
#ifndef KFBT_DISABLED
    mov r0, lr
    push {r0, r4-r11, lr}   /* struct fbt_regs (arch_fbt.h), above it the hardware's frame */
    mov r0, sp
    bl armv7m_fbt_trap
    cmp r0, #0
    pop {r0, r4-r11, lr}
    it ne
    bxne lr                 /* to the slot the frame's pc now names */
#endif
    mov r0, lr
    mrs r1, msp
    b arch_kernel_fault     /* does not return */

    FAULT_ENTRY exc_fault, kentry
#ifndef KTRACE_DISABLED
    FAULT_ENTRY exc_fault_traced, kentry_traced
#endif

    .macro KENTRY name, c_entry
    .type \name, %function
    .thumb_func
\name:
    tst lr, #4
    beq kentry_bad_stack
    ldr r1, =k_cpus
    ldr r1, [r1]
    mrs r2, psp
    stmia r1!, {r2, r4-r11}
    mrs r2, control
    str r2, [r1]
    bl \c_entry
    ldr r1, =k_cpus
    ldr r1, [r1]
    ldr r2, [r1, #36]
    msr control, r2
    ldmia r1, {r2, r4-r11}
    msr psp, r2
    isb
    mvn lr, #2              /* EXC_RETURN 0xfffffffd: thread mode, PSP, basic frame */
    bx lr
    .ltorg
    .endm

    KENTRY kentry, kernel_entry
#ifndef KTRACE_DISABLED
    KENTRY kentry_traced, kernel_entry_traced
#endif

kentry_bad_stack:
    mov r1, lr
    b arch_entry_on_msp     /* does not return */

/* arch_start_on_psp(psp): leaves the boot code for the first kernel entry. Switches thread
 * mode to the given process stack (privileged), enables interrupts and makes the boot pseudo
 * thread's one kernel call, ThreadExit; the kernel then resumes the first real thread. */
    .global arch_start_on_psp
    .type arch_start_on_psp, %function
    .thumb_func
arch_start_on_psp:
    msr psp, r0
    movs r0, #2
    msr control, r0
    isb
    cpsie i
    movs r0, #0
    mov r12, #47            /* KC_ThreadExit (uapi/kcall.h) */
    svc 0
2:  b 2b
