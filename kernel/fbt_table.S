/* SPDX-License-Identifier: MIT */
/* An empty fbt table (trace/include/d/dfbt.h, docs/fbt.md) in the section the kernel's linker
 * script places after all code: a header with no function, which the kernel takes as "no
 * table". The first link of an image and an image built without fbt take it; an image's
 * second link takes the table fbtgen wrote for it (its own assembler file) instead. */
    .section .fbt, "ax"
    .balign 16
    .4byte 0x5442464b      /* DFBT_MAGIC */
    .4byte 1               /* DFBT_VERSION */
    .4byte 0, 0            /* arch, address */
    .4byte 0, 64           /* no function */
    .4byte 64, 0           /* no string */
    .4byte 64              /* the description: this header */
    .4byte 0, 64           /* no site */
    .4byte 64, 0           /* no slot */
    .4byte 64              /* the whole table */
    .4byte 0, 0            /* no text */
