# SPDX-License-Identifier: MIT
# Programs on x86-pc (included by user/module.mk after the programs' app.mk).

# The tracelogger has no semihosting here: its command line is the boot command line (QEMU's
# -append), and without one it takes this default; no host files (the trace goes out as the
# framed stream on COM2, for build/host/kevcapture). -k: the board's BOARD_TRACE_BUFS.
$(B)/apps/tracelogger/obj/tracelogger/main.c.o: UCFLAGS += \
    -DTRACELOGGER_DEFAULT_ARGS='"tracelogger -d1 -u"'

# The target's dtrace compiles D on the board (-n: the text comes on the boot command line, as
# there are no host files): its compiler arena (640 KB: thirteen clauses on every fbt probe
# took more than the 366 KB a 400 KB arena left beside the fbt table's copy, docs/fbt.md,
# "Heavy programs") in a megabyte of RAM of its own at 6 MB, above the first-fit slots
# (0x500000-0x600000) and below the pool (board_config.h).
dtrace_RAM_SLOT := 0x100000
dtrace_RAM_BASE := 0x00600000
# The compiler's stack: it recurses as a script nests and refuses a script that would take
# more than DTRACE_CC_STACK below its call (trace/include/d/dcc.h, stack_room); dtrace_STACK
# adds 4 KB for main's frames above it (1.3 KB measured). 28 KB hold 66 nested parentheses
# on AArch64 (docs/d-subset.md, "Nesting": measured by painting the stack under gdb).
dtrace_STACK := 0x8000
$(B)/apps/dtrace/obj/user/apps/dtrace/dtrace.c.o: UCFLAGS += -DDTRACE_CC_ARENA=0xa0000 \
    -DDTRACE_CC_STACK=0x7000
