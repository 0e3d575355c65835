// SPDX-License-Identifier: MIT
// dvm_devinfo and dvm_devname (d/ddevinfo.h) for the host's dtrace over a capture: the
// tracelogger wrote its board's interrupt devices into the system page from the table the
// board's kernel reads live (boards/<b>/board_irqdev.h), and trace/d/devinfo.c's one rule
// reads either, so that intr.d's "%s%d" names the same device both ways.
#include "kevdevinfo.h"
#include <d/ddevinfo_table.h>
#include <stdio.h>
#include <trace/kev_decode.h>

static struct ddev devs[DDEV_NLINES];
static char names[DDEV_NLINES][KEV_NAME_MAX];
static unsigned ndevs;
static int loaded, said;

void kev_devinfo_capture(const struct kev_reader *r)
{
    uint32_t line, major, instance;
    ndevs = 0;
    said = 0;
    loaded = r != NULL;
    for (unsigned k = 0; r && ndevs < DDEV_NLINES &&
         kev_sp_irqdev_at(r, k, &line, &major, &instance, names[ndevs]) == 0; k++) {
        devs[ndevs] = (struct ddev){ line, major, instance, names[ndevs] };
        ndevs++;
    }
}

/* no_table: said once, when a script reads a device the capture does not name */
static void no_table(void)
{
    if (!loaded || ndevs || said)
        return;
    said = 1;
    fprintf(stderr, "dtrace: the capture names no interrupt devices (its system page has no "
            "IRQDEV records, as an older tracelogger's, kevgen's or kevdump's): struct dev_info "
            "reads each line as the device \"" DDEV_LINE_NAME "\" of its number\n");
}

int dvm_devinfo(unsigned member, uint64_t line, int64_t *out)
{
    no_table();
    return ddev_member(devs, ndevs, member, line, out);
}

const char *dvm_devname(uint64_t major)
{
    no_table();
    return ddev_name(devs, ndevs, major);
}
