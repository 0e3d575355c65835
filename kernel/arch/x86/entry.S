/* SPDX-License-Identifier: MIT */
/* Trap entry and exit, x86. Every way into the kernel (the kernel-call gate int 0x80, the PIT
 * tick, device interrupts, the local APIC's timer, exceptions in ring 3) comes through x86_entry with interrupts off
 * (all gates are interrupt gates): the stub pushes a zero error code if the CPU pushed none and
 * the vector, x86_entry pushes the general registers, copies the whole frame into
 * k_current->ctx (struct arch_context, the first member of struct thread), and runs the kernel
 * on the kernel stack. On the way out it rebuilds the frame of whichever thread k_current
 * names and irets to it. A ring-3 thread's frame goes at the top of the kernel stack (the
 * TSS's esp0); a ring-0 thread's (the idle and boot threads) on its own stack, since iret
 * within ring 0 does not switch stacks. The kernel is never interrupted (IF stays clear), so
 * entries never nest; an exception in ring 0 is a kernel bug (x86_kernel_fault). */
#include <x86.h>

    .text

    .macro VEC n, has_error
    .type vec_\n, @function
vec_\n:
    .if \has_error == 0
    pushl $0
    .endif
    pushl $\n
    jmp x86_entry
    .endm

    /* Exceptions: 8, 10-14 and 17 push an error code. */
    VEC 0, 0
    VEC 1, 0
    VEC 2, 0
    VEC 3, 0
    VEC 4, 0
    VEC 5, 0
    VEC 6, 0
    VEC 7, 0
    VEC 8, 1
    VEC 9, 0
    VEC 10, 1
    VEC 11, 1
    VEC 12, 1
    VEC 13, 1
    VEC 14, 1
    VEC 15, 0
    VEC 16, 0
    VEC 17, 1
    VEC 18, 0
    VEC 19, 0
    VEC 20, 0
    /* The 8259 lines. */
    VEC 32, 0
    VEC 33, 0
    VEC 34, 0
    VEC 35, 0
    VEC 36, 0
    VEC 37, 0
    VEC 38, 0
    VEC 39, 0
    VEC 40, 0
    VEC 41, 0
    VEC 42, 0
    VEC 43, 0
    VEC 44, 0
    VEC 45, 0
    VEC 46, 0
    VEC 47, 0
    /* The local APIC: its timer (the profile timer) and its spurious vector. */
    VEC 48, 0
    VEC 255, 0
    /* The kernel-call gate. */
    VEC 128, 0

    /* x86_vectors: (vector, stub) pairs for cpu.c's IDT set-up, ended by a zero stub. */
    .section .rodata
    .global x86_vectors
    .align 4
x86_vectors:
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,255,128
    .long \n, vec_\n
    .endr
    .long 0, 0

    .text
    .type x86_entry, @function
x86_entry:
    pushal
    cld
    /* The kernel's data segments are its own: a process may have loaded any selector (the
     * null one, too) into ds/es/fs/gs, and the kernel uses ds and es (rep movsl below). All
     * four get the flat data selector here and again before any return, so none leaks from
     * one process to the next; processes keep no segment state of their own. */
    movl $SEL_UDATA, %eax
    movl %eax, %ds
    movl %eax, %es
    movl %eax, %fs
    movl %eax, %gs
    movl %esp, %esi                 /* the frame */
    movl %cr2, %eax
    movl %eax, x86_fault_cr2
    cmpl $32, X86_CTX_VECTOR(%esi)  /* an exception ... */
    jae 1f
    testl $3, X86_CTX_CS(%esi)      /* ... taken in ring 0: the kernel (or idle) faulted */
    jnz 1f
#ifndef KFBT_DISABLED
    /* An fbt probe's int3 (docs/fbt.md): x86_fbt_trap fires it and sets the frame's eip to
     * the site's slot, where the iret resumes; any other fault is the kernel's. Only faults
     * come here: the kernel's own paths run none of it. */
    pushl %esi
    call x86_fbt_trap
    addl $4, %esp
    testb %al, %al
    jz 7f
    popal
    addl $8, %esp                   /* vector, error code */
    iret
7:
#endif
    pushl %esi
    call x86_kernel_fault           /* does not return */
1:  movl k_cpus, %edi
    movl $(X86_CTX_ESP / 4), %ecx
    rep movsl                       /* edi..eflags; esi, edi now point at esp */
    testl $3, X86_CTX_CS - X86_CTX_ESP(%esi)
    jz 2f
    movsl                           /* ring 3: the CPU pushed esp and ss */
    movsl
    jmp 3f
2:  movl %esi, (%edi)               /* ring 0: the thread's esp was just above the frame */
    movl $SEL_KDATA, 4(%edi)
3:  movl $x86_kstack_top, %esp
    movl k_cpus, %eax
    pushl X86_CTX_VECTOR(%eax)
    call *x86_entry_fn              /* the kernel's work for this entry, and what it left:
                                     * x86_kernel_entry or, tracing, its traced copy (cpu.c) */
    addl $4, %esp

    /* Resume k_current. */
    movl k_cpus, %esi
    testl $3, X86_CTX_CS(%esi)
    jz 4f
    movl $(x86_kstack_top - X86_CTX_WORDS * 4), %edi
    movl $X86_CTX_WORDS, %ecx
    jmp 5f
4:  movl X86_CTX_ESP(%esi), %edi    /* ring 0: rebuild the short frame on its own stack */
    subl $X86_CTX_ESP, %edi
    movl $(X86_CTX_ESP / 4), %ecx
5:  movl %edi, %esp
    rep movsl
    movl $SEL_UDATA, %eax           /* popal restores eax */
    movl %eax, %ds
    movl %eax, %es
    movl %eax, %fs
    movl %eax, %gs
    popal
    addl $8, %esp                   /* vector, error code */
    iret

/* x86_start_boot_thread(stack_top): leaves the boot code for the first kernel entry. The boot
 * pseudo thread (ring 0, on the given stack) makes its one kernel call, ThreadExit; the kernel
 * then resumes the first real thread. */
    .global x86_start_boot_thread
    .type x86_start_boot_thread, @function
x86_start_boot_thread:
    movl 4(%esp), %esp
    movl $47, %eax                  /* KC_ThreadExit (uapi/kcall.h) */
    xorl %ebx, %ebx
    int $VEC_KCALL
6:  hlt
    jmp 6b

    .bss
    .align 16
    .space 8192
    .global x86_kstack_top
x86_kstack_top:

    .section .note.GNU-stack, "", @progbits
