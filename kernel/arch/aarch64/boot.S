/* SPDX-License-Identifier: MIT */
/* Entry from QEMU's -kernel (or a boot loader such as the Raspberry Pi firmware's armstub):
 * the ELF's entry point, MMU off, at EL3, EL2 or EL1. Every core comes here: core 0 at power-on,
 * the others when started (PSCI CPU_ON, smp.c, with this address) or at power-on on boards that
 * start them all (they wait for their word in a64_cpu_release, then run a64_secondary on their
 * kernel stack; cores beyond KMAX_CPUS park for good). At EL3 (QEMU's virt with secure=on) the core drops to secure
 * EL1, staying in the secure world, whose address space has the second (trace stream) UART.
 * At EL2 the core drops to EL1: EL1 in AArch64, the physical
 * counter and timer open to EL1, no virtual offset, no FP traps. Then FP/SIMD is opened to
 * EL1 and EL0 (the kernel saves the registers of threads; it uses none itself), the boot stack
 * is taken and C starts (a64_boot). */
#include <a64.h>

#define HCR_RW        (1 << 31)
#define SCR_RW        (1 << 10)
#define SPSR_EL1H_DAIF 0x3c5
#define CPACR_FPEN    (3 << 20)
#define CPTR_EL2_RES1 0x33ff

    .section .vectors, "ax"
    .global reset_handler
    .type reset_handler, %function
reset_handler:
    msr daifset, #0xf
    mrs x0, CurrentEL
    mov x19, x0                     /* kept for a64_boot: where the machine started us */
    lsr x0, x0, #2
    cmp x0, #3
    b.eq from_el3
    cmp x0, #2
    b.ne at_el1
    mov x0, #HCR_RW
    msr hcr_el2, x0
    mov x0, #3                      /* CNTHCTL_EL2: EL1PCTEN | EL1PCEN */
    msr cnthctl_el2, x0
    msr cntvoff_el2, xzr
    mov x0, #CPTR_EL2_RES1
    msr cptr_el2, x0
    msr sctlr_el1, xzr
    mov x0, #SPSR_EL1H_DAIF
    msr spsr_el2, x0
    adr x0, at_el1
    msr elr_el2, x0
    eret
from_el3:
    mov x0, #SCR_RW                 /* EL1 in AArch64; NS = 0: secure EL1 */
    msr scr_el3, x0
    msr cptr_el3, xzr
    msr sctlr_el1, xzr
    mov x0, #SPSR_EL1H_DAIF
    msr spsr_el3, x0
    adr x0, at_el1
    msr elr_el3, x0
    eret
at_el1:
    mov x0, #CPACR_FPEN
    msr cpacr_el1, x0
    isb
    mrs x0, mpidr_el1
    and x0, x0, #0xff
    cbnz x0, secondary
    ldr x0, =__stack_top
    mov sp, x0
    mov x0, x19
    bl a64_boot                     /* a64_boot(CurrentEL at reset); does not return */
secondary:                          /* x0 = core number */
#if KMAX_CPUS > 1
    cmp x0, #KMAX_CPUS
    b.hs park
    adrp x1, a64_cpu_release
    add x1, x1, :lo12:a64_cpu_release
1:  ldr w2, [x1, x0, lsl #2]
    cbnz w2, 2f
    wfe
    b 1b
2:  adrp x1, a64_kstacks
    add x1, x1, :lo12:a64_kstacks
    add x2, x0, #1
    mov x3, #A64_KSTACK
    madd x1, x2, x3, x1
    mov sp, x1
    bl a64_secondary                /* does not return */
#endif
park:
    wfe
    b park

    .section .note.GNU-stack, "", %progbits
