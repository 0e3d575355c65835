// SPDX-License-Identifier: MIT
// setjmp/longjmp (setjmp.h) for the i386 cdecl convention: the buffer keeps ebx, esi, edi,
// ebp, the caller's esp (past the return address) and the return address; longjmp restores
// them and makes setjmp return val (1 when val is 0).
#include <setjmp.h>

__asm__(".text\n"
        ".globl setjmp\n"
        ".type setjmp, @function\n"
        "setjmp:\n"
        "    movl 4(%esp), %eax\n"
        "    movl %ebx, 0(%eax)\n"
        "    movl %esi, 4(%eax)\n"
        "    movl %edi, 8(%eax)\n"
        "    movl %ebp, 12(%eax)\n"
        "    leal 4(%esp), %ecx\n"
        "    movl %ecx, 16(%eax)\n"
        "    movl (%esp), %ecx\n"
        "    movl %ecx, 20(%eax)\n"
        "    xorl %eax, %eax\n"
        "    ret\n"
        ".globl longjmp\n"
        ".type longjmp, @function\n"
        "longjmp:\n"
        "    movl 4(%esp), %edx\n"
        "    movl 8(%esp), %eax\n"
        "    testl %eax, %eax\n"
        "    jnz 1f\n"
        "    incl %eax\n"
        "1:  movl 0(%edx), %ebx\n"
        "    movl 4(%edx), %esi\n"
        "    movl 8(%edx), %edi\n"
        "    movl 12(%edx), %ebp\n"
        "    movl 16(%edx), %esp\n"
        "    jmp *20(%edx)\n");
