# SPDX-License-Identifier: MIT
# Programs and images for the Netduino Plus 2 (included by user/module.mk). The chip has room
# for seven program slots (board.mk: 32 KB of flash and 8 KB of RAM each, RAM from 0x2000a000
# to 0x20018000): the demo system's seven programs take them in ALL_APPS order. The test and
# benchmark images reuse slots 0-2 (programs of different images may share), each program
# placed by hand (user/module.mk: <name>_SLOT, _RAM_BASE, _RAM_SLOT):
#
#   0x2000a000  8 KB  kbench (kbench images)        ktest image: nothing (kt_fault's "other
#   0x2000c000  8 KB  kt_peer (both images)                       program's RAM" probe)
#   0x2000e000  8 KB  kt_fault (ktest image)
#   0x20010000 16 KB  ktest: 8.4 KB of data (8 KB of thread stacks), its stack above
#
ALL_APPS := init srv client ticker driver worker tracelogger ktest kt_peer kt_fault kbench \
            tflood
IMAGES   := demo ktest kbench kbench_notrace tflood

ktest_SLOT     := 0
ktest_RAM_BASE := 0x20010000
ktest_RAM_SLOT := 0x4000
kt_peer_SLOT   := 1
kt_fault_SLOT  := 2
kbench_SLOT    := 0
# tflood's image holds only tflood and the tracelogger (slot 6): flash slot 0 is free there.
tflood_SLOT    := 0

# ktest's cycle counter check: TIM2 counts 16 MHz on the chip, 166,666,667 Hz in QEMU
# (board.c, docs/boards.md). (Board data that belongs in board_user.h.)
$(B)/apps/ktest/obj/user/apps/ktest/t_time.c.o: UCFLAGS += -DBOARD_CYCLE_HZ=16000000u \
    -DBOARD_CYCLE_HZ_ALT=166666667u

# The tracelogger's command line when no host gives one: at most 2 buffers fit the pool; with
# no semihosting (SEMIHOSTING=0, board.mk) the trace goes out on the trace UART.
$(B)/apps/tracelogger/obj/tracelogger/main.c.o: UCFLAGS += \
    -DTRACELOGGER_DEFAULT_ARGS='"tracelogger -d1 -k 2$(if $(filter 0,$(SEMIHOSTING)), -u)"'
