// SPDX-License-Identifier: MIT
// A table of interrupt devices and the one rule that reads it (trace/d/devinfo.c), for the
// hosts of d/ddevinfo.h: the kernel's table is its board's BOARD_IRQ_DEVICES
// (boards/<b>/board_irqdev.h), dtrace -i's the capture's KEV_SP_IRQDEV records.
#ifndef D_DDEVINFO_TABLE_H
#define D_DDEVINFO_TABLE_H

#include <d/ddevinfo.h>

struct ddev {
    uint32_t line;      // the interrupt line (the interrupt provider's irqN)
    uint32_t major;     // the driver's number (Solaris's devi_major)
    uint32_t instance;  // which of the driver's devices (devi_instance)
    const char *name;   // the driver's name (devnamesp[major].dn_name)
};

// ddev_member: member of line's device by t[0..n) and the rule for a line it does not name
// (d/ddevinfo.h): 0, or -1 for a line past DDEV_NLINES.
int ddev_member(const struct ddev *t, unsigned n, unsigned member, uint64_t line, int64_t *out);
// ddev_name: the name of driver major (DDEV_LINE_NAME for DDEV_MAJOR_LINE); NULL for none.
const char *ddev_name(const struct ddev *t, unsigned n, uint64_t major);

#endif
