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
    X(0, "uart", 0, 0)          /* CMSDK UART 0 receive: the console */       \
    X(1, "uart", 0, 0)          /* UART 0 transmit */                         \
    X(2, "uart", 0, 1)          /* UART 1 receive: the trace stream */        \
    X(3, "uart", 0, 1)          /* UART 1 transmit */                         \
    X(4, "uart", 0, 2)          /* UART 2 receive: a program's */             \
    X(5, "uart", 0, 2)          /* UART 2 transmit */                         \
    X(8, "timer", 1, 0)         /* CMSDK timer 0: the programs' device timer */ \
    X(9, "timer", 1, 1)         /* timer 1: the kernel's cycle counter */     \
    X(10, "dualtimer", 2, 0)    /* the dual timer: the profile timer */
#endif
