/* SPDX-License-Identifier: MIT */
/* Exception vectors, trap entry and exit, AArch64. Every way into the kernel (svc, the tick and
 * device interrupts, faults of programs at EL0 and of the kernel's own threads at EL1t) saves
 * the thread's whole state into k_current->ctx (struct arch_context, the first member of struct
 * thread), moves to the kernel's translation table (a64_kernel_ttbr) if this CPU's struct cpu
 * says so (entry_root, A64_CPU_ENTRY_ROOT: only while its user table has a map, read-only for
 * EL1 too) and otherwise stays on the table the thread ran on, and runs a64_kernel_entry on the
 * kernel stack (SP_EL1: threads never run on it, so it is empty at every entry). On the way out
 * it restores whichever thread k_current names, with the user table when that thread runs at
 * EL0, written only when it is not the one in use: QEMU 7.2 drops a CPU's whole soft TLB and
 * jump cache at every TTBR0 write that changes the ASID. Why the kernel may run on a user table,
 * and what keeps that safe: mmu.c, "The kernel on a user table". The kernel runs with
 * interrupts masked, so entries never nest; an exception taken on SP_EL1 is a kernel bug
 * (a64_kernel_fault).
 * Per CPU: TPIDR_EL1 points at the CPU's struct cpu (kernel/cpu.h), whose first word is its
 * current thread and whose `user_root` (A64_CPU_USER_ROOT) is its user table; SP_EL1 is its own
 * kernel stack, set once when the CPU starts and at its top at every entry (the two words
 * pushed here are popped before the kernel runs). */
#include <a64.h>
#include <arch_fbt.h>

    .macro SAVE_AND_ENTER source
    stp x0, x1, [sp, #-16]!
    mrs x1, tpidr_el1               /* this CPU's struct cpu, kept in x1 for a64_save_rest */
    ldr x0, [x1]                    /* its current thread */
    stp x2, x3, [x0, #16]
    stp x4, x5, [x0, #32]
    stp x6, x7, [x0, #48]
    stp x8, x9, [x0, #64]
    stp x10, x11, [x0, #80]
    stp x12, x13, [x0, #96]
    stp x14, x15, [x0, #112]
    stp x16, x17, [x0, #128]
    stp x18, x19, [x0, #144]
    stp x20, x21, [x0, #160]
    stp x22, x23, [x0, #176]
    stp x24, x25, [x0, #192]
    stp x26, x27, [x0, #208]
    stp x28, x29, [x0, #224]
    str x30, [x0, #240]
    ldp x2, x3, [sp], #16
    stp x2, x3, [x0, #0]
    mov x4, #\source
    b a64_save_rest
    .endm

    .macro BAD kind
    mov x0, #\kind
    mrs x1, elr_el1
    mrs x2, spsr_el1
    b a64_bad_vector
    .endm

    .text
    .balign 2048
    .global a64_vectors
a64_vectors:
    /* Current EL with SP_EL0: the kernel's threads (idle, boot) at EL1t. */
    .balign 128
    SAVE_AND_ENTER A64_ENTRY_SYNC
    .balign 128
    SAVE_AND_ENTER A64_ENTRY_IRQ
    .balign 128
    BAD 2
    .balign 128
    BAD 3
    /* Current EL with SP_EL1: the kernel itself. */
    .balign 128
    b a64_kernel_sync
    .balign 128
    BAD 5
    .balign 128
    BAD 6
    .balign 128
    BAD 7
    /* Lower EL, AArch64: programs. */
    .balign 128
    SAVE_AND_ENTER A64_ENTRY_SYNC
    .balign 128
    SAVE_AND_ENTER A64_ENTRY_IRQ
    .balign 128
    BAD 10
    .balign 128
    SAVE_AND_ENTER A64_ENTRY_SYNC     /* SError: reported as a fault of the program */
    /* Lower EL, AArch32: never entered (EL0 is AArch64 only here). */
    .balign 128
    BAD 12
    .balign 128
    BAD 13
    .balign 128
    BAD 14
    .balign 128
    BAD 15

/* x0 = k_current, x1 = this CPU's struct cpu, x4 = source; x0-x30 saved. */
a64_save_rest:
    mrs x2, sp_el0
    str x2, [x0, #A64_CTX_SP]
    mrs x2, elr_el1
    mrs x3, spsr_el1
    stp x2, x3, [x0, #A64_CTX_PC]
    mrs x2, tpidr_el0
    str x2, [x0, #A64_CTX_TPIDR]
    mrs x2, esr_el1
    mrs x3, far_el1
    stp x2, x3, [x0, #A64_CTX_ESR]
    mrs x2, fpcr
    mrs x3, fpsr
    stp x2, x3, [x0, #A64_CTX_FPCR]
    add x2, x0, #A64_CTX_Q
    stp q0, q1, [x2, #0]
    stp q2, q3, [x2, #32]
    stp q4, q5, [x2, #64]
    stp q6, q7, [x2, #96]
    stp q8, q9, [x2, #128]
    stp q10, q11, [x2, #160]
    stp q12, q13, [x2, #192]
    stp q14, q15, [x2, #224]
    stp q16, q17, [x2, #256]
    stp q18, q19, [x2, #288]
    stp q20, q21, [x2, #320]
    stp q22, q23, [x2, #352]
    stp q24, q25, [x2, #384]
    stp q26, q27, [x2, #416]
    stp q28, q29, [x2, #448]
    stp q30, q31, [x2, #480]
    /* The table the kernel runs on (mmu.c, "The kernel on a user table"): the kernel's when
     * this CPU's user table has a map (read-only for EL1 too), else stay on the thread's. */
    ldr x2, [x1, #A64_CPU_ENTRY_ROOT]
    cbz x2, 2f
    msr ttbr0_el1, x2
    isb
2:  mov x0, x4
    /* The kernel's work for this entry, and what it left: a64_kernel_entry, or
     * a64_kernel_entry_traced while tracing runs (entry_select.c rewrites this call). */
    .global a64_entry_call
a64_entry_call:
    bl a64_kernel_entry

    /* Resume this CPU's current thread (also where a starting CPU enters its idle thread). */
    .global a64_resume
a64_resume:
    mrs x1, tpidr_el1               /* this CPU's struct cpu, kept in x1 down to the eret */
    ldr x0, [x1]
    add x2, x0, #A64_CTX_Q
    ldp q0, q1, [x2, #0]
    ldp q2, q3, [x2, #32]
    ldp q4, q5, [x2, #64]
    ldp q6, q7, [x2, #96]
    ldp q8, q9, [x2, #128]
    ldp q10, q11, [x2, #160]
    ldp q12, q13, [x2, #192]
    ldp q14, q15, [x2, #224]
    ldp q16, q17, [x2, #256]
    ldp q18, q19, [x2, #288]
    ldp q20, q21, [x2, #320]
    ldp q22, q23, [x2, #352]
    ldp q24, q25, [x2, #384]
    ldp q26, q27, [x2, #416]
    ldp q28, q29, [x2, #448]
    ldp q30, q31, [x2, #480]
    ldp x2, x3, [x0, #A64_CTX_FPCR]
    msr fpcr, x2
    msr fpsr, x3
    ldp x2, x3, [x0, #A64_CTX_TPIDR]
    msr tpidr_el0, x2
    msr tpidrro_el0, x3
    ldr x2, [x0, #A64_CTX_SP]
    msr sp_el0, x2
    ldp x2, x3, [x0, #A64_CTX_PC]
    msr elr_el1, x2
    msr spsr_el1, x3
    /* A thread at EL0 runs on the user table; the kernel's threads on whatever the kernel ran on
     * (the kernel's table, or a user table without a map: mmu.c, (4)). */
    tst x3, #0xf
    b.ne 1f
    ldr x2, [x1, #A64_CPU_USER_ROOT] /* this CPU's user table (struct cpu's user_root) */
    mrs x3, ttbr0_el1
    cmp x2, x3
    b.eq 1f                         /* on it already (the kernel ran on it): no write */
    /* No ISB: the eret is context synchronising, and the loads before it read the thread's
     * context, kernel memory that every table maps alike for EL1 (mmu.c). */
    msr ttbr0_el1, x2
1:  ldp x2, x3, [x0, #16]
    ldp x4, x5, [x0, #32]
    ldp x6, x7, [x0, #48]
    ldp x8, x9, [x0, #64]
    ldp x10, x11, [x0, #80]
    ldp x12, x13, [x0, #96]
    ldp x14, x15, [x0, #112]
    ldp x16, x17, [x0, #128]
    ldp x18, x19, [x0, #144]
    ldp x20, x21, [x0, #160]
    ldp x22, x23, [x0, #176]
    ldp x24, x25, [x0, #192]
    ldp x26, x27, [x0, #208]
    ldp x28, x29, [x0, #224]
    ldr x30, [x0, #240]
    ldp x0, x1, [x0, #0]
    eret

/* A synchronous exception on SP_EL1: the kernel faulted, or ran an fbt probe's trap (brk #0xfb:
 * docs/fbt.md). With the fbt provider built in, x0-x30, sp, ELR and SPSR go into a frame (struct
 * fbt_regs, arch_fbt.h) below the trapped code's stack pointer and a64_fbt_trap decides: a
 * site's trap returns to the site's slot (ELR from the frame) with every register as it was;
 * anything else goes on to the report. The kernel's own paths run none of this. */
a64_kernel_sync:
#ifndef KFBT_DISABLED
    sub sp, sp, #A64_FBT_FRAME
    stp x0, x1, [sp, #0]
    stp x2, x3, [sp, #16]
    stp x4, x5, [sp, #32]
    stp x6, x7, [sp, #48]
    stp x8, x9, [sp, #64]
    stp x10, x11, [sp, #80]
    stp x12, x13, [sp, #96]
    stp x14, x15, [sp, #112]
    stp x16, x17, [sp, #128]
    stp x18, x19, [sp, #144]
    stp x20, x21, [sp, #160]
    stp x22, x23, [sp, #176]
    stp x24, x25, [sp, #192]
    stp x26, x27, [sp, #208]
    stp x28, x29, [sp, #224]
    add x0, sp, #A64_FBT_FRAME
    stp x30, x0, [sp, #240]
    mrs x0, elr_el1
    mrs x1, spsr_el1
    stp x0, x1, [sp, #256]
    mov x0, sp
    bl a64_fbt_trap
    cbz w0, 1f
    ldp x0, x1, [sp, #256]
    msr elr_el1, x0
    msr spsr_el1, x1
    ldp x2, x3, [sp, #16]
    ldp x4, x5, [sp, #32]
    ldp x6, x7, [sp, #48]
    ldp x8, x9, [sp, #64]
    ldp x10, x11, [sp, #80]
    ldp x12, x13, [sp, #96]
    ldp x14, x15, [sp, #112]
    ldp x16, x17, [sp, #128]
    ldp x18, x19, [sp, #144]
    ldp x20, x21, [sp, #160]
    ldp x22, x23, [sp, #176]
    ldp x24, x25, [sp, #192]
    ldp x26, x27, [sp, #208]
    ldp x28, x29, [sp, #224]
    ldr x30, [sp, #240]
    ldp x0, x1, [sp, #0]
    add sp, sp, #A64_FBT_FRAME
    eret
1:
#endif
    mrs x0, esr_el1
    mrs x1, elr_el1
    mrs x2, far_el1
    mrs x3, spsr_el1
    bl a64_kernel_fault             /* does not return */

a64_bad_vector:
    bl a64_unexpected               /* does not return */

/* a64_enter_current(stack_top): a starting CPU, its struct cpu's current set, leaves its boot
 * frames for the thread (smp.c). */
    .global a64_enter_current
    .type a64_enter_current, %function
a64_enter_current:
    mov sp, x0
    b a64_resume
    .size a64_enter_current, . - a64_enter_current

/* a64_start_boot_thread(stack_top): leaves the boot code for the first kernel entry. The boot
 * pseudo thread (EL1t, on the given stack) makes its one kernel call, ThreadExit; the kernel
 * then resumes the first real thread. */
    .global a64_start_boot_thread
    .type a64_start_boot_thread, %function
a64_start_boot_thread:
    msr sp_el0, x0
    adrp x1, a64_kstack_top
    add x1, x1, :lo12:a64_kstack_top
    mov sp, x1
    msr spsel, #0                   /* run on SP_EL0 from here, as a kernel thread (EL1t) */
    mov x8, #47                     /* KC_ThreadExit (uapi/kcall.h) */
    mov x0, #0
    svc #0
2:  wfi
    b 2b
    .size a64_start_boot_thread, . - a64_start_boot_thread

    /* The kernel stacks, A64_KSTACK bytes per CPU: CPU n's top is a64_kstacks + (n+1) * A64_KSTACK. */
    .bss
    .balign 16
    .global a64_kstacks
a64_kstacks:
    .space A64_KSTACK
    .global a64_kstack_top
a64_kstack_top:
#if KMAX_CPUS > 1
    .space A64_KSTACK * (KMAX_CPUS - 1)
#endif

    .section .note.GNU-stack, "", %progbits
