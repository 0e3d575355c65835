/* SPDX-License-Identifier: MIT */
/* An empty fbt table (trace/include/d/dfbt.h, docs/fbt.md) in the section the kernel's linker
 * script places after all code: a header with no function, which the kernel takes as "no
 * table". The first link of an image and an image built without fbt take it; an image's
 * second link takes the table fbtgen wrote for it (its own assembler file) instead. */
    .section .fbt, "ax"
    .balign 16
    .word 0x5442464b        /* DFBT_MAGIC */
    .word 1                 /* DFBT_VERSION */
    .word 0, 0              /* arch, address */
    .word 0, 64             /* no function */
    .word 64, 0             /* no string */
    .word 64                /* the description: this header */
    .word 0, 64             /* no site */
    .word 64, 0             /* no slot */
    .word 64                /* the whole table */
    .word 0, 0              /* no text */
