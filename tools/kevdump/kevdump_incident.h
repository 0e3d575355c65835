// SPDX-License-Identifier: MIT
// kevdump -I: the incident record a D trigger left in the board's incident region
// (docs/incidents.md), read over a probe's GDB server without a reboot (kevdump_incident.c).
#ifndef TOOLS_KEVDUMP_INCIDENT_H
#define TOOLS_KEVDUMP_INCIDENT_H

#include <kevhost/gdb_remote.h>
#include <stdint.h>

// The map at map_addr (nm IMAGE kev_incident_map), then the record, checked as every reader
// checks it, written to name.kev and name.core. 0; -1 on a gdb error (g->err); -2 after
// saying why (no map, no record, a record refused).
int kevdump_incident(struct gdbr *g, uint64_t map_addr, const char *name, int quiet);

#endif
