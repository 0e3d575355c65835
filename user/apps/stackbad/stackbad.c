// SPDX-License-Identifier: MIT
// stackbad: makes ThreadSelf kernel calls over stacks that an unwinder must not trust, so
// that ustack( ) at kercall::ThreadSelf:entry meets each (test/stacks/test_stacks_hostile.sh):
// a loop of frames, a frame pointer into the kernel, into another process's memory, one that
// is unaligned, one into unmapped memory, and a return address that is no code. Each must
// give a short stack and a counted error, and the program must carry on: it prints
// "stackbad: survived" at the end. The corrupt state is made in assembly (hostile_call),
// per architecture, around one kernel call; C code around it is ordinary.
#include <kern.h>
#include <stdint.h>
#include <stdio.h>

// hostile_call(bad): one ThreadSelf kernel call with the frame pointer (AArch64 x29, i686
// ebp) or, on ARMv7-M, the return address the unwind tables say is saved, set to bad.
int hostile_call(uintptr_t bad);

#if defined(__aarch64__)
__asm__(".text\n.global hostile_call\n.type hostile_call, %function\n"
        "hostile_call:\n"
        "  stp x29, x30, [sp, #-16]!\n"
        "  mov x29, x0\n"          // the frame pointer ThreadSelf's record will link to
        "  bl ThreadSelf\n"
        "  ldp x29, x30, [sp], #16\n"
        "  ret\n"
        ".size hostile_call, . - hostile_call\n");
#elif defined(__i386__)
__asm__(".text\n.global hostile_call\n.type hostile_call, @function\n"
        "hostile_call:\n"
        "  push %ebp\n"
        "  mov 8(%esp), %ebp\n"    // the frame pointer ThreadSelf's record will link to
        "  call ThreadSelf\n"
        "  pop %ebp\n"
        "  ret\n"
        ".size hostile_call, . - hostile_call\n");
#elif defined(__arm__)
// The tables say "r4 and lr were pushed" (.save {r4, lr}) but the word where lr should be
// holds bad: the unwinder takes it as the caller's return address.
__asm__(".syntax unified\n.thumb\n.text\n.global hostile_call\n.type hostile_call, %function\n"
        ".thumb_func\n"
        "hostile_call:\n"
        "  .fnstart\n"
        "  mov r1, lr\n"
        "  .save {r4, lr}\n"
        "  push {r0}\n"            // bad where the tables put lr (above r4)
        "  push {r4}\n"
        "  push {r1}\n"            // the real lr, under the lie (.pad: skipped by the tables)
        "  .pad #4\n"
        "  bl ThreadSelf\n"
        "  pop {r1}\n"
        "  pop {r4}\n"
        "  add sp, #4\n"
        "  bx r1\n"
        "  .fnend\n"
        ".size hostile_call, . - hostile_call\n");
#endif

static volatile uintptr_t sink;

int main(void)
{
    // a frame record on the stack (above the callees' frames) that links to itself: a loop
    volatile uintptr_t rec[4] __attribute__((aligned(16)));
    rec[0] = (uintptr_t)&rec[0];
    rec[1] = (uintptr_t)&main;
    hostile_call((uintptr_t)&rec[0]);
    hostile_call((uintptr_t)&rec[0] + 1);          // unaligned
    hostile_call(0x40000000u);                     // a device / the kernel's side
    hostile_call((uintptr_t)&sink - 0x10000u);     // below its RAM: another process's
    hostile_call(0xfffffff0u);                     // unmapped
    hostile_call(0);                               // no caller at all: an ordinary end
    printf("stackbad: survived\n");
    return 0;
}
