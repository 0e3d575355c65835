/* SPDX-License-Identifier: MIT */
/* The kernel image: kernel code and data, plus the image's programs in their slots.
 * Preprocessed with the board's board_config.h and the APP_* values from board.mk. */
#include <board_config.h>

ENTRY(reset_handler)

MEMORY
{
    KFLASH (rx)  : ORIGIN = KERNEL_FLASH_BASE, LENGTH = KERNEL_FLASH_SIZE
    APPS   (rx)  : ORIGIN = APP_FLASH_BASE, LENGTH = APP_FLASH_SLOT * APP_MAX_SLOTS
    KRAM   (rwx) : ORIGIN = KERNEL_RAM_BASE, LENGTH = KERNEL_RAM_SIZE
#ifdef PROBE_RAM_BASE
    PROBE  (rw)  : ORIGIN = PROBE_RAM_BASE, LENGTH = PROBE_RAM_SIZE
#endif
}

SECTIONS
{
    .text : {
        KEEP(*(.vectors))
        *(.text .text.*)
        *(.rodata .rodata.*)
        . = ALIGN(4);
    } > KFLASH

    /* the image's GNU build id (-Wl,--build-id): the kernel writes it into the trace (SYSTEM
     * IMAGE, kernel/ktrace_image.c) so that host tools find this file by it */
    .note.gnu.build-id : ALIGN(4) {
        __kernel_build_id = .;
        KEEP(*(.note.gnu.build-id))
        __kernel_build_id_end = .;
    } > KFLASH
    __kernel_image_base = ORIGIN(KFLASH);

    /* the EHABI unwind tables: the kernel's stack( ) (kernel/arch/armv7m/unwind.c) */
    .ARM.extab : { *(.ARM.extab*) } > KFLASH
    .ARM.exidx : {
        __exidx_start = .;
        *(.ARM.exidx*)
        __exidx_end = .;
    } > KFLASH

    .data : {
        . = ALIGN(4);
        __data_start = .;
        *(.data .data.*)
        /* a GOT is data too: left an orphan it would be loaded from flash and never copied, so
         * a weak undefined function would read garbage instead of 0 (seen on AArch64) */
        *(.got .got.*)
        . = ALIGN(4);
        __data_end = .;
    } > KRAM AT > KFLASH
    __data_load = LOADADDR(.data);

    /* The fbt table (trace/include/d/dfbt.h, docs/fbt.md): the last thing in the kernel's
     * flash, after the image of .data too, so that the image's second link, which fills it
     * (the first links an empty one), moves no code and no constant (fbtgen --check). Its
     * slots are code: the section is executable. */
    .fbt : ALIGN(16) {
        __fbt_start = .;
        KEEP(*(.fbt))
    } > KFLASH

    /* The probe area (kernel/ktrace_probe.c): the trace ring's table and the probe block, what a
     * reader outside the target reads while it runs. A board whose host reaches only part of
     * its RAM (mps2-an385: QEMU shares its PSRAM with the host) names that part PROBE_RAM_BASE;
     * elsewhere the area is ordinary .bss. Zeroed at boot as .bss is. */
#ifdef PROBE_RAM_BASE
    .probe (NOLOAD) : {
        . = ALIGN(16);
        __probe_start = .;
        *(.probe)
        . = ALIGN(8);
        __probe_end = .;
    } > PROBE
#endif

    .bss (NOLOAD) : {
        . = ALIGN(4);
        __bss_start = .;
        *(.bss .bss.* COMMON)
#ifndef PROBE_RAM_BASE
        . = ALIGN(16);
        __probe_start = .;
        *(.probe)
        __probe_end = .;
#endif
        . = ALIGN(8);
        __bss_end = .;
    } > KRAM

    .stack (NOLOAD) : {
        . = ALIGN(8);
        . += 4096;
        __stack_top = .;
    } > KRAM

    /* The incident region (kernel/kincident.c, docs/incidents.md): RAM no reset clears, for
     * the record a D trigger leaves. Symbols only, no section: a section, even NOLOAD, gets a
     * load segment (its memory size without file bytes), which QEMU's loader zeroes at every
     * system_reset as it zeroes .bss's. Nothing else is placed there (the board's map keeps
     * it apart); a board without INCIDENT_RAM_BASE has an empty one. */
#ifdef INCIDENT_RAM_BASE
    __incident_start = INCIDENT_RAM_BASE;
    __incident_end = INCIDENT_RAM_BASE + INCIDENT_RAM_SIZE;
#else
    __incident_start = 0;
    __incident_end = 0;
#endif

    /* Program slots: apps.S places each program's flash image at its slot offset. */
    .apps : { KEEP(*(.apps)) } > APPS
}
