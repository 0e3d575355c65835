// SPDX-License-Identifier: MIT
// The devices on this board's interrupt lines, as D reads them at the interrupt probes
// (Solaris's struct dev_info and `devnamesp[], d/ddevinfo.h): X(line, driver, major, instance),
// the driver's name, its number (Solaris's major) and which of its devices the line's is (the
// chip's own numbering where it has one), so that the Guide's sdt/intr.d prints "%s%d" as the
// board's documents name the device. The kernel gives them live (kernel/kdt_devinfo.c), the
// tracelogger writes them into a capture's system page (tracelogger/kevhead.c) for dtrace -i.
// A line not named here is the device "irq" of its own number. Only #defines here.
#ifndef BOARD_IRQDEV_H
#define BOARD_IRQDEV_H
#define BOARD_IRQ_DEVICES(X)                                                   \
    X(11, "cntv", 0, 0)         /* the virtual timer (PPI 27): the tick */    \
    X(14, "cntp", 1, 0)         /* the EL1 physical timer (PPI 30): the device timer */ \
    X(17, "uart", 2, 0)         /* PL011 UART 0 (SPI 1): the console */
#endif
