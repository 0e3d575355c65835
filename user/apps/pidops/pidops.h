// SPDX-License-Identifier: MIT
// pidops's functions (user/arch/x86/pidops_arch.c): each opens with one of the instructions
// d/dpid_i386.h lists, and returns what that instruction left where the caller can check it.
#ifndef PIDOPS_H
#define PIDOPS_H

int ops_push_reg(int a);            // push %ebx: a, read above the pushed word
int ops_push_esp(void);             // push %esp: 4, the pushed esp less the new one
int ops_push_imm8(void);            // push $-5: -5
int ops_push_imm32(void);           // push $0x12345678
int ops_sub8(int a);                // sub $8, %esp: a, read 8 bytes further up
int ops_sub32(int a);               // sub $0x100, %esp: a
unsigned ops_sub8_flags(void);      // sub $-128, %esp: lahf's flags << 8 | OF (no stack use)
unsigned ops_sub32_flags(void);     // sub $0x7ffffff0, %esp: the same
unsigned twin_sub8_flags(void);     // the same two, never probed: what the CPU itself sets
unsigned twin_sub32_flags(void);
int ops_mov89(int a);               // mov %esp, %edx (89 e2): a
int ops_mov8b(int a);               // mov %esp, %ecx (8b cc): a
int ops_lea0(int a);                // lea (%esp), %edx: a
int ops_lea8(int a);                // lea 4(%esp), %ecx: a
int ops_lea32(int a);               // lea 0x100(%esp), %ecx (disp32): a
int ops_lea_esp(int a);             // lea -16(%esp), %esp: a
int ops_mov_imm(void);              // mov $0x13572468, %eax
void ops_ret(void);                 // ret at its entry
void __attribute__((stdcall)) ops_ret4(int a);     // ret $4 at its entry
int __attribute__((stdcall)) ops_retn(int a);      // a, returned by ret $4
// A push on a stack the program cannot write: esp aimed at an address it has no page at,
// then ops_push_reg's push (the thread's fault, probed or not). Never returns.
void ops_bad_stack(void);

#endif
