# SPDX-License-Identifier: MIT
# Programs on the Netduino Plus 2 (included by user/module.mk after the programs' app.mk).
# The chip has room for seven programs per image (board.mk: 32 KB flash slots, 8 KB RAM
# slots from 0x2000a000 to 0x20018000): each image places its own (scripts/place-apps.sh),
# ktest's 16 KB (its app.mk's RAM) included.
# The images it leaves out (no dtrace) are in board.mk: the programs' app.mk read them.

# ktest's cycle counter check: TIM2 counts 16 MHz on the chip, 166,666,667 Hz in QEMU
# (board.c, docs/boards.md). (Board data that belongs in board_user.h.)
$(B)/apps/ktest/obj/user/apps/ktest/t_time.c.o: UCFLAGS += -DBOARD_CYCLE_HZ=16000000u \
    -DBOARD_CYCLE_HZ_ALT=166666667u

# ktest filled its 32 KB flash slot to the last byte, which leaves no room for its build id
# (a 36-byte note, user/module.mk): its largest file, the trace checks, is built for size here
# (some 900 bytes less; the checks are the same).
$(B)/apps/ktest/obj/user/apps/ktest/t_trace.c.o: UCFLAGS += -Os

# The tracelogger's command line when no host gives one: at most 2 buffers fit the pool; with
# no semihosting (SEMIHOSTING=0, board.mk) the trace goes out on the trace UART.
$(B)/apps/tracelogger/obj/tracelogger/main.c.o: UCFLAGS += \
    -DTRACELOGGER_DEFAULT_ARGS='"tracelogger -d1 -k 2$(if $(filter 0,$(SEMIHOSTING)), -u)"'

# Programs here keep no unwind tables (kernel/arch/armv7m/arch.mk: the flash slots are full,
# ktest's to the last 300 bytes), so the tracelogger's stack samples (-p) have their first
# frame only. The stack tests' program keeps them, so that a capture of it unwinds whole
# (test/stacks/test_stacks_capture.sh; docs/profiling.md); a program of yours can do the same.
$(B)/%/stackchain.elf: APP_PICOLIBC_LD := ldscripts/app-exidx.ld

# ktest's flash slot is full to its last bytes: its code is built for size here.
$(B)/apps/ktest/obj/%.o: UCFLAGS += -Os
# Built for size it is still 1 KB more than a slot since its receive-buffer and name_open
# checks: it takes two slots in a row (user/module.mk <name>_FLASH_SLOTS), six of the image's
# seven with kt_peer, kt_fault, kt_qnx and kt_smp.
ktest_FLASH_SLOTS := 2

# ktest's flash slot has no room for picolibc's full printf (floating point, some 4 KB): it
# keeps the integer-only variant here, which prints no 64-bit integers (ktest prints its 64-bit
# values with u64txt, kern.h). Every other program links the full one (user/module.mk).
$(B)/%/ktest.elf: ULDFLAGS := $(patsubst -DPICOLIBC_DOUBLE_PRINTF_SCANF,-DPICOLIBC_INTEGER_PRINTF_SCANF,$(ULDFLAGS))
# The tracelogger's too (its live stream's flow control, LOSS and HEARTBEAT frames filled the
# slot): it prints no floating point, and its 64-bit counts with u64txt.
$(B)/%/tracelogger.elf: ULDFLAGS := $(patsubst -DPICOLIBC_DOUBLE_PRINTF_SCANF,-DPICOLIBC_INTEGER_PRINTF_SCANF,$(ULDFLAGS))
# The tracelogger's CRC-32 a byte a step from one 1 KB table (trace/kev_crc32.c), not four
# bytes from four: 3 KB less, so that it fits its 32 KB flash slot.
$(B)/apps/tracelogger/obj/trace/kev_crc32.c.o: UCFLAGS += -DKS_CRC32_BYTE_TABLE
# The tracelogger built for size: the probe path's publishing and the stream's CRC table took
# its 32 KB flash slot 664 bytes past full at -O2.
$(B)/apps/tracelogger/obj/%.o: UCFLAGS += -Os
