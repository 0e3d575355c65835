# SPDX-License-Identifier: MIT
# Programs and images on raspi3b (included by user/module.mk after its defaults).
# picolibc and its flags: boards/common/aarch64_user.mk.
include boards/common/aarch64_user.mk

# The target's dtrace compiles D on the board in a 352 KB arena: a 512 KB RAM slot above the
# other programs' (slots 0-15: 0x00800000-0x00900000).
dtrace_RAM_SLOT := 0x80000
dtrace_RAM_BASE := 0x00980000
# The compiler's stack: it recurses as a script nests and refuses a script that would take
# more than DTRACE_CC_STACK below its call (trace/include/d/dcc.h, stack_room); dtrace_STACK
# adds 4 KB for main's frames above it (1.3 KB measured on qemu-virt-a53, whose 28 KB hold 66
# nested parentheses: docs/d-subset.md, "Nesting").
dtrace_STACK := 0x8000
$(B)/apps/dtrace/obj/user/apps/dtrace/dtrace.c.o: UCFLAGS += -DDTRACE_CC_ARENA=0x58000 \
    -DDTRACE_CC_STACK=0x7000

# The tracelogger's command line when no host gives one: with no semihosting (SEMIHOSTING=0,
# board.mk) the trace goes out on the mini UART.
$(B)/apps/tracelogger/obj/tracelogger/main.c.o: UCFLAGS += \
    -DTRACELOGGER_DEFAULT_ARGS='"tracelogger -d1$(if $(filter 0,$(SEMIHOSTING)), -u)"'
