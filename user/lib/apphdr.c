// SPDX-License-Identifier: MIT
// The program header (uapi/kapi.h struct kapp_header), compiled once per program with
// APP_NAME, APP_FLAGS, APP_PRIO, APP_MMIO_BASE and APP_MMIO_SIZE from the build. It goes in
// .text.init.enter, which picolibc's linker script keeps first, so it sits at the slot's base.
#include <uapi/kapi.h>
#include <uapi/ktrace.h>
#include <board_user.h>
#include <stddef.h>

// The program's user-event ring (user/lib/trace_uring.c): APP_URING records (<name>_URING in
// its app.mk), else the board's default; 0 gives the program none (its 2-word user events
// then go by kernel call), for programs that have no RAM to spare and insert none.
#ifndef APP_URING
#ifdef BOARD_USER_RING_RECORDS
#define APP_URING BOARD_USER_RING_RECORDS
#else
#define APP_URING 64u
#endif
#endif
_Static_assert((APP_URING & (APP_URING - 1u)) == 0 && APP_URING <= KUSER_RING_MAX,
               "a user-event ring is a power of two the kernel accepts");
const uint32_t trace_uring_records = APP_URING;
uint32_t trace_uring_mem[(sizeof(struct kuser_ring) + APP_URING * sizeof(struct kuser_rec)) / 4u]
    __attribute__((aligned(16)));
#if defined(BOARD_USER_RING_THREADS) && BOARD_USER_RING_THREADS > 0
// Rings of the program's threads (boards with several CPUs): BOARD_USER_RING_THREADS of them,
// APP_URING records each, each starting a 64-byte line of its own (no two threads' heads on
// one line), and the table that finds a thread's ring by its stack (trace_uring.c).
#include "trace_uring.h"
#define URING_THREAD_WORDS (((sizeof(struct kuser_ring) + APP_URING * sizeof(struct kuser_rec)) \
                             + 63u) / 64u * 16u)
const uint32_t trace_uring_thread_words = URING_THREAD_WORDS;
uint32_t trace_uring_thread_mem[BOARD_USER_RING_THREADS * URING_THREAD_WORDS]
    __attribute__((aligned(64)));
struct trace_uring_slot trace_uring_slots[BOARD_USER_RING_THREADS];
#endif

// The program's arguments (ARGS in its app.mk, or <name>_ARGS on make's command line): its name
// and the words, split in place by crt0.c into app_argv for main(argc, argv).
#ifndef APP_ARGS
#define APP_ARGS ""
#endif
#ifndef APP_ARGC
#define APP_ARGC 0
#endif
char app_cmdline[] = APP_NAME " " APP_ARGS;
const char app_name[] = APP_NAME;
char *app_argv[APP_ARGC + 2];     // the name, at most APP_ARGC words, NULL
const int app_argv_size = APP_ARGC + 2;

extern char __data_source[], __data_start[], __data_size[], __bss_start[], __bss_size[],
    __stack[];
// The RAM slot (the link's __app_ram, __app_ram_size: user/module.mk); __ram, __ram_size are the
// region above the main stack at its bottom, where the C library's script puts the data.
extern char __ram_base_sym[] __asm__("__app_ram");
// The EHABI unwind table (ARM only: ldscripts/app-exidx.ld keeps it); 0 where there is none.
extern char __exidx_start[] __attribute__((weak)), __exidx_end[] __attribute__((weak));
extern char __ram_size_sym[] __asm__("__app_ram_size");
// The GNU build-id note the linker scripts keep (ldscripts/app-picolibc.ld and the others); 0
// where a script keeps none.
extern char __build_id_note[] __attribute__((weak));
// The USDT sites' stapsdt notes, loaded into the image by the same scripts (docs/usdt.md): the
// kernel places probes only at the sites, and raises only the semaphores, they name.
extern char __usdt_notes[] __attribute__((weak)), __usdt_notes_end[] __attribute__((weak));
// sys/sdt.h's notes are not allocated (no "a"), and an output section of such input is not
// loaded: this empty input section of the same name, allocated, makes the linker load it.
__asm__(".pushsection .note.stapsdt, \"a\", %note\n.popsection");
void _start(uint32_t arg);

#if defined(__arm__)
// -funwind-tables makes each function's table entry name a personality routine, which would
// pull libgcc's C++ unwinder (several KB) into every program. Nothing here throws, and the
// kernel reads the tables itself (ustack( )): these stand in for them and are never called.
void __aeabi_unwind_cpp_pr0(void);
void __aeabi_unwind_cpp_pr1(void);
void __aeabi_unwind_cpp_pr2(void);
void __aeabi_unwind_cpp_pr0(void) {}
void __aeabi_unwind_cpp_pr1(void) {}
void __aeabi_unwind_cpp_pr2(void) {}
#endif

#if UINTPTR_MAX > 0xffffffffu
// 64-bit targets (AArch64): C cannot cut an address to 32 bits in a constant initializer, the
// assembler can (32-bit absolute relocations; programs lie below 4 GB). The same header,
// field by field, from inside a function only so that the constants reach the assembler.
__attribute__((used)) static void app_header_emit(void)
{
    __asm__ volatile(".pushsection .text.init.enter, \"a\"\n"
                     ".balign 4\n"
                     ".global __app_header\n"
                     "__app_header:\n"
                     ".word %c0, %c1\n"
                     ".asciz \"" APP_NAME "\"\n"
                     ".org __app_header + %c2\n"
                     ".word _start, __data_source, __data_start, __data_size, __bss_start\n"
                     ".word __bss_size, __app_ram, __app_ram_size, __stack\n"
                     ".word %c3, %c4, %c5, %c6\n"
                     ".word 0, 0\n"
                     ".weak __build_id_note\n"
                     ".word __build_id_note\n"
                     ".weak __usdt_notes, __usdt_notes_end\n"
                     ".word __usdt_notes, __usdt_notes_end\n"
                     ".popsection"
                     :: "i"(KAPP_MAGIC), "i"(KAPP_VERSION),
                        "i"(offsetof(struct kapp_header, entry)), "i"(APP_FLAGS),
                        "i"(APP_PRIO), "i"(APP_MMIO_BASE), "i"(APP_MMIO_SIZE));
}
_Static_assert(offsetof(struct kapp_header, build_id) ==
               offsetof(struct kapp_header, entry) + 15 * 4 &&
               offsetof(struct kapp_header, usdt_notes_end) ==
               offsetof(struct kapp_header, entry) + 17 * 4, "header fields follow entry");
#else
__attribute__((section(".text.init.enter"), used))
const struct kapp_header __app_header = {
    .magic = KAPP_MAGIC,
    .version = KAPP_VERSION,
    .name = APP_NAME,
    .entry = (uint32_t)(uintptr_t)_start,
    .data_source = (uint32_t)(uintptr_t)__data_source,
    .data_start = (uint32_t)(uintptr_t)__data_start,
    .data_size = (uint32_t)(uintptr_t)__data_size,
    .bss_start = (uint32_t)(uintptr_t)__bss_start,
    .bss_size = (uint32_t)(uintptr_t)__bss_size,
    .ram_base = (uint32_t)(uintptr_t)__ram_base_sym,
    .ram_size = (uint32_t)(uintptr_t)__ram_size_sym,
    .stack_top = (uint32_t)(uintptr_t)__stack,
    .flags = APP_FLAGS,
    .priority = APP_PRIO,
    .mmio_base = APP_MMIO_BASE,
    .mmio_size = APP_MMIO_SIZE,
    .exidx_start = (uint32_t)(uintptr_t)__exidx_start,
    .exidx_end = (uint32_t)(uintptr_t)__exidx_end,
    .build_id = (uint32_t)(uintptr_t)__build_id_note,
    .usdt_notes = (uint32_t)(uintptr_t)__usdt_notes,
    .usdt_notes_end = (uint32_t)(uintptr_t)__usdt_notes_end,
};
#endif
