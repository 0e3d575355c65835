# SPDX-License-Identifier: MIT
# @NAME@: what the build needs to know about this program (user/module.mk reads this file;
# docs/applications.md). Nothing outside this directory needs editing: every board picks the
# program up, and `make run APPS=@NAME@` builds an image with it.
#
# PRIO   its main thread's priority (1-255; higher runs first; the tracelogger has 200).
PRIO  := 15
# FLAGS  what it may do beyond the basics: KAPP_F_TRACE (configure, start and stop tracing;
#        not needed for user events), KAPP_F_IO (interrupts and a device window). 0 for none.
FLAGS := 0
# MMIO   a device window "base size" it may touch (with KAPP_F_IO), e.g.
#        $(BOARD_DEVTIMER_WINDOW); empty for none.
MMIO  :=
# STACK  bytes its main thread needs (at the bottom of its RAM); empty: the default.
STACK :=
# RAM    bytes of RAM it needs (data, bss, stacks); empty: the board's slot (8-64 KB).
RAM   :=
# ARGS   its arguments: main(argc, argv) gets argv[0] = "@NAME@", then these words. This
#        program: none (sensor and server in one program), -s (the server, under its own
#        name), -c <server's program name> (the sensor alone, talking to that server).
#        `make run APPS=@NAME@ @NAME@_ARGS='-s'` replaces them for one build.
ARGS  :=
