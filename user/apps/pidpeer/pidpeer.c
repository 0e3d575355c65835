// SPDX-License-Identifier: MIT
// pidpeer: a program other than pidself, whose function pidpeer_work a pid probe of
// pidself's names, and whose secrets D's copyin of pidself's may not read. It prints that
// function's first four bytes as it starts and again after
// ProcArg() ms, while pidself's refused D program is still loaded (docs/pid.md, "Who may"):
// the test compares both with the ELF file's bytes, so a trap written there would show.
#include <kern.h>
#include <stdint.h>
#include <stdio.h>

static volatile unsigned calls;
// Its secrets, which a consumer that may not trace it must not read (copyin, copyinstr:
// docs/hostile.md "What a consumer may do"); it prints them itself, the test's truth.
volatile uint64_t pidpeer_secret = 0x5ec2e7c0ffee1234ull;
volatile char pidpeer_secret_text[16] = "hunter2-peer";

__attribute__((noinline)) unsigned pidpeer_work(unsigned i, unsigned acc);

// (its counter makes it open as usdtdemo's step_plain does, with an instruction every
// board's kernel can run: a pid probe on it would be placed, were it allowed)
unsigned pidpeer_work(unsigned i, unsigned acc)
{
    acc += i * 5u;
    calls++;
    return acc;
}

// The bytes, as the program's own loads read them (Thumb: the function's address has bit 0).
static void print_text(const char *when)
{
    const volatile uint8_t *t =
        (const volatile uint8_t *)((uintptr_t)pidpeer_work & ~(uintptr_t)1);
    printf("pidpeer: pid %d, pidpeer_work's first bytes %s: %02x %02x %02x %02x\n", ProcSelf(),
           when, t[0], t[1], t[2], t[3]);
}

int main(void)
{
    printf("pidpeer: pid %d, secret %08lx%08lx \"%s\"\n", ProcSelf(),
           (unsigned long)(uint32_t)(pidpeer_secret >> 32),
           (unsigned long)(uint32_t)pidpeer_secret, (const char *)pidpeer_secret_text);
    print_text("at start");
    ThreadSleep((uint64_t)ProcArg() * 1000000u);
    unsigned acc = 0;
    for (unsigned i = 0; i < 10; i++)      // its own calls: any probe placed would fire
        acc = pidpeer_work(i, acc);
    print_text("later");
    return acc == 225u && calls == 10u ? 0 : 1;
}
