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
# The compiler's arena; its stack: boards/common/dtrace_stack.mk.
$(B)/apps/dtrace/obj/user/apps/dtrace/dtrace.c.o: UCFLAGS += -DDTRACE_CC_ARENA=0xa0000
include boards/common/dtrace_stack.mk
