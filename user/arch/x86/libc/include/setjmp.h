// SPDX-License-Identifier: MIT
// setjmp/longjmp for programs on x86-pc (the D compiler in the target's dtrace unwinds its
// parser errors with them). The buffer holds the callee-saved registers, the stack pointer
// and the return address.
#ifndef X86_LIBC_SETJMP_H
#define X86_LIBC_SETJMP_H

typedef unsigned long jmp_buf[6];   // ebx, esi, edi, ebp, esp, eip

int setjmp(jmp_buf env) __attribute__((returns_twice));
_Noreturn void longjmp(jmp_buf env, int val);

#endif
