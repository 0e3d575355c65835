// SPDX-License-Identifier: MIT
// dtrace -i's interrupt devices for D's struct dev_info and `devnamesp[] (d/ddevinfo.h).
#ifndef DTRACE_KEVDEVINFO_H
#define DTRACE_KEVDEVINFO_H

struct kev_reader;

/* kev_devinfo_capture: over a capture, the devices are its system page's KEV_SP_IRQDEV
 * records, the board's table the kernel gives live (read here, once); a capture without them
 * (an older tracelogger's, kevgen's, kevdump's) has every line as the device "irq" of its number, said
 * once on stderr when a script first reads one. */
void kev_devinfo_capture(const struct kev_reader *r);

#endif
