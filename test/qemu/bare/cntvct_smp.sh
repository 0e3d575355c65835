#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# QEMU's own ceiling for user events on the host's clock, without our kernel (docs/smp.md,
# "QEMU's host-clock ceiling"): cntvct_smp.c on QEMU's virt machine, Cortex-A53, without -icount
# (the virtual CPUs run at once, a host thread each; the generic timer follows the host's
# clock), with 1 and then 2 CPUs. Each CPU reads CNTVCT_EL0 LOOPS times (the read
# user/lib/trace_uring.c makes per event), then, in a second image, runs a control loop of plain
# instructions. Rounds alternate 1 and 2 CPUs so that both see the same host load; the median
# of ROUNDS rounds is printed as BENCH lines, per CPU count:
#   qemu_cntvct_reads_per_s_wallclock_{1,2}cpu     reads per second, all CPUs together
#   qemu_control_loops_per_s_wallclock_{1,2}cpu    control loops per second, all CPUs together
#   qemu_tick_loops_per_s_wallclock_{1,2}cpu       the control loop on 1 and 2 of 2 CPUs, every
#                                                  CPU taking a 1 kHz timer interrupt (-DTICK)
#   qemu_svc_calls_per_s_wallclock_{1,2}cpu        kernel calls that share nothing (-DSVC): an
#                                                  svc, its handler's eret and 1600 plain
#                                                  instructions (SVC_WORK=800), so that one CPU
#                                                  takes about as many exceptions a second as one
#                                                  of smpbench's message pairs (3 a round trip):
#                                                  QEMU's ceiling for the pairs' 2-against-1
#   qemu_svc_tick_calls_per_s_wallclock_{1,2}cpu   the same calls with every CPU also taking
#                                                  a 1 kHz timer interrupt (-DSVC -DTICK), as
#                                                  each CPU of our kernel takes its tick
#   test/qemu/bare/cntvct_smp.sh [ROUNDS]     (default 5; make BOARD=qemu-virt-a53 bench runs it)
set -u
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'ENTRY(_start)\nSECTIONS { . = 0x40080000; .text : { *(.text.start) *(.text*) *(.rodata*) }\n.data : { *(.data*) } .bss : { *(.bss*) *(COMMON) }\n. = ALIGN(16) + 0x4000; __stack_top = .; }\n' > "$tmp/l.ld"
build() {   # name, loops, extra flags
    aarch64-linux-gnu-gcc -mcpu=cortex-a53 -O2 -nostdlib -ffreestanding -fno-pic -no-pie \
        -mgeneral-regs-only -mstrict-align -Wl,--no-warn-rwx-segments -DLOOPS="$2" ${3:-} -T "$tmp/l.ld" \
        "$here/cntvct_smp.c" -o "$tmp/$1.elf"
}
build cntvct 10000000u -DREAD_CNTVCT || exit 1
build control 300000000u || exit 1
build tick1 300000000u "-DTICK -DACTIVE=1" || exit 1
build tick2 300000000u -DTICK || exit 1
build svc 1000000u "-DSVC -DSVC_WORK=800u" || exit 1
build svc_tick 1000000u "-DSVC -DTICK -DSVC_WORK=800u" || exit 1
# loops per second of one run: "cpus N loops L ticks T hz F" -> L * F / T
run() {     # image, cpus running the loop (the tick images: of 2)
    local smp=$2 elf=$1
    case $1 in tick) smp=2 elf=tick$2 ;; esac
    local ticking=0                 # CPUs whose timer interrupts it
    case $1 in tick) ticking=2 ;; svc_tick) ticking=$2 ;; esac
    timeout 120 qemu-system-aarch64 -M virt,gic-version=2 -cpu cortex-a53 -smp "$smp" -m 128 \
        -display none -monitor none -serial none \
        -chardev file,id=sh,path="$tmp/out" -semihosting-config enable=on,target=native,chardev=sh \
        -kernel "$tmp/$elf.elf" >/dev/null 2>&1
    # (a ticking image's run counts only if its timers fired: at least half the interrupts a
    # millisecond each would give, since the handler re-arms a millisecond after it runs)
    awk -v want="$2" -v ticking="$ticking" \
        '$1 == "cpus" && $2 == want && $6 > 0 && $10 >= 500 * ticking * $6 / $8 {
             printf "%d\n", $4 * $8 / $6 }' "$tmp/out"
    rm -f "$tmp/out"
}
status=0
for img in cntvct control tick svc svc_tick; do
    : > "$tmp/$img.1"; : > "$tmp/$img.2"
    for r in $(seq "$rounds"); do
        for n in 1 2; do
            run "$img" "$n" >> "$tmp/$img.$n"
        done
    done
    for n in 1 2; do
        got=$(wc -l < "$tmp/$img.$n")
        if [ "$got" != "$rounds" ]; then
            echo "cntvct_smp: $img on $n CPU(s): $got of $rounds runs reported" >&2
            status=1
            continue
        fi
        med=$(sort -n "$tmp/$img.$n" | sed -n "$(( (rounds + 1) / 2 ))p")
        [ -n "${CNTVCT_SMP_VERBOSE:-}" ] && echo "# $img ${n}cpu runs: $(tr "\n" " " < "$tmp/$img.$n")" >&2
        case $img in
        cntvct)  echo "BENCH qemu_cntvct_reads_per_s_wallclock_${n}cpu $med reads/s" ;;
        control) echo "BENCH qemu_control_loops_per_s_wallclock_${n}cpu $med loops/s" ;;
        tick)    echo "BENCH qemu_tick_loops_per_s_wallclock_${n}cpu $med loops/s" ;;
        svc)     echo "BENCH qemu_svc_calls_per_s_wallclock_${n}cpu $med calls/s" ;;
        svc_tick) echo "BENCH qemu_svc_tick_calls_per_s_wallclock_${n}cpu $med calls/s" ;;
        esac
    done
done
exit $status
