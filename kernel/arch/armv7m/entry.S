/* SPDX-License-Identifier: MIT */
/* Exception entry and exit, ARMv7-M. Every kernel entry from a thread (svc, SysTick, device
 * interrupts, PendSV, and faults taken in thread mode) comes through kentry: the hardware has
 * pushed r0-r3, r12, lr, pc, xPSR on the thread's stack (PSP); we save psp, r4-r11 and CONTROL
 * into k_current->ctx (struct arch_context), run kernel_entry(kind) on the main stack, then
 * restore whatever thread k_current names and return to it in thread mode on PSP.
 * While tracing runs (ktrace_kernel_on) it calls kernel_entry_traced instead, so that the
 * untraced path pays one load and one branch for tracing.
 * SVC, PendSV, SysTick and all device interrupts share one priority, so kentry never nests;
 * faults have a higher priority and only come here when taken in thread mode. */
    .syntax unified
    .thumb
    .text

    .macro ENTRY_POINT name, kind
    .global \name
    .type \name, %function
    .thumb_func
\name:
    movs r0, #\kind
    b kentry
    .endm

    ENTRY_POINT exc_svc, 0
    ENTRY_POINT exc_systick, 1
    ENTRY_POINT exc_irq, 2
    ENTRY_POINT exc_pendsv, 3

    .global exc_fault
    .type exc_fault, %function
    .thumb_func
exc_fault:
    tst lr, #4              /* fault taken while on MSP: in the kernel itself */
    beq 1f
    tst lr, #8              /* returning to handler mode: the kernel again */
    beq 1f
    movs r0, #4
    b kentry
1:  mov r0, lr
    mrs r1, msp
    b arch_kernel_fault     /* does not return */

    .type kentry, %function
    .thumb_func
kentry:
    tst lr, #4
    beq kentry_bad_stack
    ldr r1, =k_cpus
    ldr r1, [r1]
    mrs r2, psp
    stmia r1!, {r2, r4-r11}
    mrs r2, control
    str r2, [r1]
#ifndef KTRACE_DISABLED
    ldr r1, =ktrace_kernel_on   /* tracing on: the entry that also does the trace work */
    ldr r1, [r1]
    cbnz r1, 3f
#endif
    bl kernel_entry
4:
    ldr r1, =k_cpus
    ldr r1, [r1]
    ldr r2, [r1, #36]
    msr control, r2
    ldmia r1, {r2, r4-r11}
    msr psp, r2
    isb
    mvn lr, #2              /* EXC_RETURN 0xfffffffd: thread mode, PSP, basic frame */
    bx lr

#ifndef KTRACE_DISABLED
3:  bl kernel_entry_traced     /* and the same return, not a branch back to it */
    ldr r1, =k_cpus
    ldr r1, [r1]
    ldr r2, [r1, #36]
    msr control, r2
    ldmia r1, {r2, r4-r11}
    msr psp, r2
    isb
    mvn lr, #2
    bx lr
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
