// SPDX-License-Identifier: MIT
// pidops's functions, i386 (user/apps/pidops/pidops.h): written in assembly so that each
// opens with exactly the instruction it tests (GCC opens nearly every function with
// push %ebp) and leaves its effect where the C caller can check it. Only caller-saved
// registers are changed; each is a global STT_FUNC with its size, as pid probes name them.
// The flags functions use no stack between their sub and its undoing add (esp is far out of
// the program's memory meanwhile): lahf and seto take the flags the sub left.
#include "pidops.h"

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
