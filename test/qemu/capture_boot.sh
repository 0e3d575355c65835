# SPDX-License-Identifier: MIT
# Sourced by the tests that boot a program under appinit with a capture (test_irqrate.sh,
# test_acq.sh, test_dprobe_parity.sh): capture_boot, devtimer_rate_1khz, devtimer_qtrace and
# devtimer_record below. capture_boot BOARD IMAGE PROGRAM OUTDIR HOSTDIR [qemu args...] boots IMAGE with
# "appinit PROGRAM" and the tracelogger, under -icount shift=0,sleep=off (no real-time sleeping:
# an idle CPU jumps to the next deadline, so every clock is the instruction count and a device's
# periods come exactly; with sleep=on they follow the host). The capture lands in OUTDIR/t.kev
# (streamed on the trace UART and rebuilt by kevcapture on a board without semihosting), the
# console in OUTDIR/run.log. Returns the boot's status (1 when the capture could not be rebuilt).
capture_boot() {
    local board=$1 img=$2 prog=$3 out=$4 h=$5 rc
    shift 5
    if grep -q '^BOARD_TRACE_STORAGE *:= *uart' "boards/$board/board.mk"; then
        BOARD=$board QEMU_ARGS="appinit $prog ;; tracelogger -d1 -u" QEMU_UART1=$out/t.uart \
            QEMU_TIMEOUT=150 scripts/qemu-run.sh "$img" -icount shift=0,sleep=off "$@" \
            > "$out/run.log" 2>&1
        rc=$?
        "$h/kevcapture" -q -o "$out/t.kev" "$out/t.uart" >> "$out/run.log" 2>&1 || rc=1
    else
        BOARD=$board QEMU_ARGS="appinit $prog ;; tracelogger -d1 -f $out/t.kev" \
            QEMU_TIMEOUT=150 scripts/qemu-run.sh "$img" -icount shift=0,sleep=off "$@" \
            > "$out/run.log" 2>&1
        rc=$?
    fi
    return $rc
}

# The rate in Hz at which each board's device timer runs when a program asks it for 1 kHz
# (devtimer_start_hz of its board_user.h), from the device's own definition: a period of
# clock / 1000 ticks of the timer's clock; x86-pc's RTC has only 32768 >> (rs - 1) Hz, and the
# nearest at or above 1 kHz is 1024 Hz (rs 6).
devtimer_rate_1khz() {
    case $1 in
        x86-pc) echo 1024 ;;
        *)      echo 1000 ;;
    esac
}

# x86-pc: QEMU's RTC runs its periodic timer late now and then under -icount and catches up with
# two requests at once, the second while the line is still high: the 8259 (edge-triggered) sees
# one edge for both, and the program one interrupt. There the device's own record counts: QEMU's
# trace of the line (IRQ 8, the slave PIC's line 0). devtimer_qtrace BOARD FILE prints the QEMU
# options that write it to FILE (nothing on the other boards, whose devices keep their rate);
# devtimer_record FILE prints "REQUESTS,EDGES" from it: the requests the RTC raised (to hold
# against the rate) and the rising edges (each one interrupt in the capture).
devtimer_qtrace() {
    [ "$1" = x86-pc ] && echo "-trace pic_set_irq -D $2"
}
devtimer_record() {
    awk '/pic_set_irq master 0 irq 0 level 1/ { r++; if (!hi) e++; hi = 1 }
         /pic_set_irq master 0 irq 0 level 0/ { hi = 0 }
         END { printf "%d,%d", r, e }' "$1"
}
