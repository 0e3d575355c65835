// SPDX-License-Identifier: MIT
// pidops's functions, i386 (user/apps/pidops/pidops.h), and its round of calls. The functions
// are written in assembly so that each opens with exactly the instruction it tests (GCC opens
// nearly every function with push %ebp) and leaves its effect where the C caller can check
// it. Only caller-saved registers are changed; each is a global STT_FUNC with its size, as
// pid probes name them. The flags functions use no stack between their sub and its undoing
// add (esp is far out of the program's memory meanwhile): lahf and seto take the flags the
// sub left.
#include <stdio.h>
#include "pidops.h"

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

#define FUNC(name) ".globl " #name "\n.type " #name ", @function\n" #name ":\n"
#define END(name) ".size " #name ", . - " #name "\n"

__asm__(".text\n"
        FUNC(ops_push_reg) "push %ebx\n mov 8(%esp), %eax\n pop %ebx\n ret\n" END(ops_push_reg)
        FUNC(ops_push_esp) "push %esp\n mov (%esp), %eax\n sub %esp, %eax\n pop %ecx\n ret\n"
        END(ops_push_esp)
        FUNC(ops_push_imm8) "push $-5\n pop %eax\n ret\n" END(ops_push_imm8)
        FUNC(ops_push_imm32) "push $0x12345678\n pop %eax\n ret\n" END(ops_push_imm32)
        FUNC(ops_sub8) "sub $8, %esp\n mov 12(%esp), %eax\n add $8, %esp\n ret\n" END(ops_sub8)
        FUNC(ops_sub32) "sub $0x100, %esp\n mov 0x104(%esp), %eax\n add $0x100, %esp\n ret\n"
        END(ops_sub32)
        FUNC(ops_sub8_flags) "sub $-128, %esp\n lahf\n seto %al\n add $-128, %esp\n"
        "movzwl %ax, %eax\n ret\n" END(ops_sub8_flags)
        FUNC(twin_sub8_flags) "sub $-128, %esp\n lahf\n seto %al\n add $-128, %esp\n"
        "movzwl %ax, %eax\n ret\n" END(twin_sub8_flags)
        FUNC(ops_sub32_flags) "sub $0x7ffffff0, %esp\n lahf\n seto %al\n add $0x7ffffff0, %esp\n"
        "movzwl %ax, %eax\n ret\n" END(ops_sub32_flags)
        FUNC(twin_sub32_flags) "sub $0x7ffffff0, %esp\n lahf\n seto %al\n add $0x7ffffff0, %esp\n"
        "movzwl %ax, %eax\n ret\n" END(twin_sub32_flags)
        FUNC(ops_mov89) ".byte 0x89, 0xe2\n mov 4(%edx), %eax\n ret\n" END(ops_mov89)
        FUNC(ops_mov8b) ".byte 0x8b, 0xcc\n mov 4(%ecx), %eax\n ret\n" END(ops_mov8b)
        FUNC(ops_lea0) ".byte 0x8d, 0x14, 0x24\n mov 4(%edx), %eax\n ret\n" END(ops_lea0)
        FUNC(ops_lea8) "lea 4(%esp), %ecx\n mov (%ecx), %eax\n ret\n" END(ops_lea8)
        FUNC(ops_lea32) ".byte 0x8d, 0x8c, 0x24, 0x00, 0x01, 0x00, 0x00\n"
        "mov -0xfc(%ecx), %eax\n ret\n" END(ops_lea32)
        FUNC(ops_lea_esp) "lea -16(%esp), %esp\n mov 20(%esp), %eax\n lea 16(%esp), %esp\n ret\n"
        END(ops_lea_esp)
        FUNC(ops_mov_imm) "mov $0x13572468, %eax\n ret\n" END(ops_mov_imm)
        FUNC(ops_ret) "ret\n" END(ops_ret)
        FUNC(ops_ret4) "ret $4\n" END(ops_ret4)
        FUNC(ops_retn) "mov 4(%esp), %eax\n ret $4\n" END(ops_retn)
        FUNC(ops_bad_stack) "mov $0x1000, %esp\n jmp ops_push_reg\n" END(ops_bad_stack));

void pidops_round(int i)
{
    pidops_expect("ops_push_reg", (unsigned)ops_push_reg(i), (unsigned)i);
    pidops_expect("ops_push_esp", (unsigned)ops_push_esp(), 4);
    pidops_expect("ops_push_imm8", (unsigned)ops_push_imm8(), (unsigned)-5);
    pidops_expect("ops_push_imm32", (unsigned)ops_push_imm32(), 0x12345678u);
    pidops_expect("ops_sub8", (unsigned)ops_sub8(i * 3), (unsigned)i * 3u);
    pidops_expect("ops_sub32", (unsigned)ops_sub32(i * 5), (unsigned)i * 5u);
    unsigned f8 = ops_sub8_flags(), t8 = twin_sub8_flags();
    unsigned f32 = ops_sub32_flags(), t32 = twin_sub32_flags();
    pidops_expect("ops_sub8_flags", f8, t8);
    pidops_expect("ops_sub32_flags", f32, t32);
    pidops_expect("ops_mov89", (unsigned)ops_mov89(i + 100), (unsigned)i + 100u);
    pidops_expect("ops_mov8b", (unsigned)ops_mov8b(i + 200), (unsigned)i + 200u);
    pidops_expect("ops_lea0", (unsigned)ops_lea0(i + 300), (unsigned)i + 300u);
    pidops_expect("ops_lea8", (unsigned)ops_lea8(i + 400), (unsigned)i + 400u);
    pidops_expect("ops_lea32", (unsigned)ops_lea32(i + 500), (unsigned)i + 500u);
    pidops_expect("ops_lea_esp", (unsigned)ops_lea_esp(i + 600), (unsigned)i + 600u);
    pidops_expect("ops_mov_imm", (unsigned)ops_mov_imm(), 0x13572468u);
    ops_ret();
    ops_ret4(i);
    pidops_expect("ops_retn", (unsigned)ops_retn(i + 700), (unsigned)i + 700u);
    if (i == 1)
        printf("pidops: flags sub8 %#x sub32 %#x\n", t8, t32);
}

void pidops_bad(void)
{
    ops_bad_stack();
}
