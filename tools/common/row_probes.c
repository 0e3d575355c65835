// SPDX-License-Identifier: MIT
// The rows' own D probes for the host's tools (kevhost/row_probes.h): the walk that numbers them
// (trace/d/row_probes.c, the kernel's too) made once into a table dprobe_get reads, and the
// probes past DPROBE_ROW_MAX said. State: the made table, set once and never changed.
#include <kevhost/row_probes.h>
#include <d/dprobes.h>
#include <stdio.h>
#include <string.h>

static struct dprobe_desc probes[DPROBE_ROW_MAX];
static char parts[DPROBE_ROW_MAX][2][DPROBE_ROW_PART];

static int keep(void *user, uint32_t id, const char *prov, const char *name)
{
    unsigned k = id - DPROBE_ROW_BASE;
    (void)user;
    snprintf(parts[k][0], DPROBE_ROW_PART, "%s", prov);
    snprintf(parts[k][1], DPROBE_ROW_PART, "%s", name);
    probes[k] = (struct dprobe_desc){ parts[k][0], "", "", parts[k][1] };
    return 0;
}

unsigned row_probes_use(const char *tool)
{
    unsigned all = dprobe_rows_walk(keep, NULL);
    unsigned n = all < DPROBE_ROW_MAX ? all : DPROBE_ROW_MAX;
    if (all > n)
        fprintf(stderr, "%s: %u probes the event table's rows name have no id (at most %u)\n",
                tool, all - n, DPROBE_ROW_MAX);
    dprobe_rows_use(probes, n);
    return n;
}
