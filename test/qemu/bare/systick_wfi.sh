#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Reproduces QEMU's lost SysTick under -icount sleep=off without the kernel (docs/boards.md):
# builds systick_wfi.c twice (waiting in WFI, spinning) and runs each under four clock modes
# of QEMU's mps2-an385, printing the intervals between SysTick exceptions in 25 MHz timer
# counts (25000 = the 1 ms programmed).
#   test/qemu/bare/systick_wfi.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'SECTIONS { . = 0; .vectors : { KEEP(*(.vectors)) } .text : { *(.text*) *(.rodata*) }\n. = 0x20000000; .bss : { *(.bss*) *(COMMON) } .data : { *(.data*) } }\n' > "$tmp/l.ld"
for wait in wfi spin; do
    def=; [ $wait = wfi ] && def=-DIDLE_WFI
    arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -O1 -nostdlib -ffreestanding $def -T "$tmp/l.ld" \
        "$here/systick_wfi.c" -o "$tmp/$wait.elf" || exit 1
    for mode in shift=0,sleep=off shift=0 shift=auto none; do
        icount=(-icount "$mode"); [ $mode = none ] && icount=()
        rm -f "$tmp/out"
        timeout 30 qemu-system-arm -M mps2-an385 -display none -monitor none -serial none \
            -chardev file,id=sh,path="$tmp/out" -semihosting-config enable=on,target=native,chardev=sh \
            -kernel "$tmp/$wait.elf" "${icount[@]}"
        got=$(tr '\n' ' ' < "$tmp/out")
        printf '%-5s -icount %-18s %s\n' "$wait" "$mode" "$got"
    done
done
