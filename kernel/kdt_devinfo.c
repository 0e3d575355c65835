// SPDX-License-Identifier: MIT
// The devices on the board's interrupt lines for D's struct dev_info and `devnamesp[]
// (d/ddevinfo.h): the board's table (boards/<b>/board_irqdev.h), the one the tracelogger
// writes into a capture's system page, so that dtrace -i over the capture names the same
// devices. Constant data: read in a firing with no lock.
#include <d/ddevinfo_table.h>
#include <board_irqdev.h>

#define KDT_IRQDEV_ROW(line, name, major, instance) { line, major, instance, name },
static const struct ddev irqdevs[] = { BOARD_IRQ_DEVICES(KDT_IRQDEV_ROW) };
#undef KDT_IRQDEV_ROW

int dvm_devinfo(unsigned member, uint64_t line, int64_t *out)
{
    return ddev_member(irqdevs, sizeof(irqdevs) / sizeof(irqdevs[0]), member, line, out);
}

const char *dvm_devname(uint64_t major)
{
    return ddev_name(irqdevs, sizeof(irqdevs) / sizeof(irqdevs[0]), major);
}
