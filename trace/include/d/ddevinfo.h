// SPDX-License-Identifier: MIT
// The device behind an interrupt, as Solaris's D scripts read it: at sdt:::interrupt-start and
// interrupt-complete Solaris's arg0 is the device's `struct dev_info *`; its devi_major is the
// driver's number, devi_instance which of that driver's devices it is, and
// `devnamesp[major].dn_name the driver's name (the DTraceToolkit's intoncpu.d and inttimes.d,
// the Guide's sdt/intr.d: "uart0"). Here arg0 is the interrupt line, so the compiler reads
// ((struct dev_info *)line)->devi_major and `devnamesp[m].dn_name through the engine's host
// (DIF_S_DEVINFO, DIF_S_DEVNAME): live, the kernel gives its board's table (boards/<b>/
// board_irqdev.h, kernel/kdt_devinfo.c); over a capture, dtrace -i gives the same table as the
// tracelogger wrote it into the capture's system page (KEV_SP_IRQDEV records,
// docs/kev-format.md), so a script prints the same device names both ways.
//
// A line below DDEV_NLINES that the board names no device for (a line only software raises)
// is the device `irq` (major DDEV_MAJOR_LINE) of instance the line's number.
#ifndef D_DDEVINFO_H
#define D_DDEVINFO_H

#include <stdint.h>

enum ddev_member { DDEV_MAJOR = 0, DDEV_INSTANCE, DDEV_COUNT };

#define DDEV_NLINES     32u         // the interrupt provider's lines (DPROBE_IRQ_MAX)
#define DDEV_MAJOR_LINE 255u        // the driver of a line the board names no device for
#define DDEV_LINE_NAME  "irq"

// dvm_devinfo: member (enum ddev_member) of the device on interrupt line `line` into *out: 0,
// or -1 when line is no interrupt line (the engine's fault: an invalid address). Called in a
// firing (no lock). The engine's own is weak and knows no device.
int dvm_devinfo(unsigned member, uint64_t line, int64_t *out);
// dvm_devname: the name of driver `major` (`devnamesp[major].dn_name), NULL when no line's
// device has that driver (an invalid address).
const char *dvm_devname(uint64_t major);

#endif
