// SPDX-License-Identifier: MIT
// The program header (uapi/kapi.h struct kapp_header), compiled once per program with
// APP_NAME, APP_FLAGS, APP_PRIO, APP_MMIO_BASE and APP_MMIO_SIZE from the build. It goes in
// .text.init.enter, which picolibc's linker script keeps first, so it sits at the slot's base.
#include <uapi/kapi.h>

extern char __data_source[], __data_start[], __data_size[], __bss_start[], __bss_size[],
    __stack[];
extern char __ram_base_sym[] __asm__("__ram");
extern char __ram_size_sym[] __asm__("__ram_size");
void _start(uint32_t arg);

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
};
