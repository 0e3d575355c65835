# SPDX-License-Identifier: MIT
# Programs and images on x86-pc (included by user/module.mk after its defaults). ALL_APPS and
# its order stay as they are (a program's slot is its position). Only the images whose
# programs need nothing the PC lacks are built (see docs/x86.md).
IMAGES    := ktest demo kbench kbench_notrace tflood hostile

# The tracelogger has no semihosting here: its command line is the boot command line (QEMU's
# -append), and without one it takes this default; no host files (the trace goes out as the
# framed stream on COM2, for build/host/kevcapture). -k: the board's BOARD_TRACE_BUFS.
$(B)/apps/tracelogger/obj/tracelogger/main.c.o: UCFLAGS += \
    -DTRACELOGGER_DEFAULT_ARGS='"tracelogger -d1 -u"'
