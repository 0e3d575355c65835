// SPDX-License-Identifier: MIT
// The priority init and appinit start the tracelogger at. 0 means its own (200, above every
// program), right where saving a buffer is cheap (semihosting). A board whose logger polls a
// slow UART (x86-pc) sets BOARD_LOGGER_SPAWN_PRIO in its board_user.h to run the logger below the
// programs, with the ring sized to absorb what it cannot save meanwhile, so that it cannot
// starve them (at the programs' priority a 1 ms period became 267 ms on x86-pc).
#ifndef LOGGER_PRIO_H
#define LOGGER_PRIO_H

#include <board_user.h>

#ifndef BOARD_LOGGER_SPAWN_PRIO
#define BOARD_LOGGER_SPAWN_PRIO 0
#endif

#endif
