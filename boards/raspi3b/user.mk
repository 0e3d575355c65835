# SPDX-License-Identifier: MIT
# Programs and images on raspi3b (included by user/module.mk after its defaults).
# picolibc and its flags: boards/common/aarch64_user.mk.
include boards/common/aarch64_user.mk

# The target's dtrace compiles D on the board in a 352 KB arena: a 512 KB RAM slot above the
# other programs' (slots 0-15: 0x00800000-0x00900000).
dtrace_RAM_SLOT := 0x80000
dtrace_RAM_BASE := 0x00980000
# The compiler's arena; its stack: boards/common/dtrace_stack.mk.
$(B)/apps/dtrace/obj/user/apps/dtrace/dtrace.c.o: UCFLAGS += -DDTRACE_CC_ARENA=0x58000
include boards/common/dtrace_stack.mk

# The tracelogger's command line when no host gives one: with no semihosting (SEMIHOSTING=0,
# board.mk) the trace goes out on the mini UART.
$(B)/apps/tracelogger/obj/tracelogger/main.c.o: UCFLAGS += \
    -DTRACELOGGER_DEFAULT_ARGS='"tracelogger -d1$(if $(filter 0,$(SEMIHOSTING)), -u)"'
