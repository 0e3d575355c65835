/* SPDX-License-Identifier: MIT */
/* Multiboot (v1) entry. The header sits in .vectors, which the kernel linker script puts at
 * the very start of the image (it must lie in the file's first 8 KB). No address-kludge flag:
 * the loader (QEMU -kernel, GRUB) loads the ELF segments at their physical addresses. It
 * enters reset_handler in 32-bit protected mode, paging and interrupts off, with eax = the
 * Multiboot magic and ebx = the info block; we take the boot stack and go to C (x86_boot). */
#define MB_MAGIC 0x1badb002
#define MB_FLAGS 0x00000003     /* page-align modules, give memory info */

    .section .vectors, "a"
    .align 4
multiboot_header:
    .long MB_MAGIC
    .long MB_FLAGS
    .long -(MB_MAGIC + MB_FLAGS)

    .text
    .global reset_handler
    .type reset_handler, @function
reset_handler:
    cli
    movl $__stack_top, %esp
    cld
    pushl %ebx
    pushl %eax
    call x86_boot          /* does not return */
1:  hlt
    jmp 1b

    .section .note.GNU-stack, "", @progbits
