# SPDX-License-Identifier: MIT
# Programs and images for the Netduino Plus 2 (included by user/module.mk). The chip has room
# for seven program RAM slots of 8 KB (board.mk): the demo system's seven programs.
# A program's slot is its place in ALL_APPS, so the list holds only those seven.
# Not built here: ktest (its data alone is 8.4 KB, over a slot, and its trace tests ask for
# 4 buffers, a 64 KB ring, twice the pool), kbench (with ktest's peer), tflood (its tests ask
# for 4 buffers too).
ALL_APPS := init srv client ticker driver worker tracelogger
IMAGES   := demo

# The tracelogger's command line when no host gives one: at most 2 buffers fit the pool; with
# no semihosting (SEMIHOSTING=0, board.mk) the trace goes out on the trace UART.
$(B)/apps/tracelogger/obj/tracelogger/main.c.o: UCFLAGS += \
    -DTRACELOGGER_DEFAULT_ARGS='"tracelogger -d1 -k 2$(if $(filter 0,$(SEMIHOSTING)), -u)"'
