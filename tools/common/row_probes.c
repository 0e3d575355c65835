// SPDX-License-Identifier: MIT
// The rows' own D probes for the host's tools (kevhost/row_probes.h): the walk that names them
// (trace/d/row_probes.c) made once into a table dprobe_get reads, in id order, with the probes
// past DPROBE_ROW_MAX and the names whose hash another name took said on stderr. State: the
// made table, set once and never changed.
#include <kevhost/row_probes.h>
#include <d/dprobes.h>
#include <stdio.h>
#include <string.h>

static struct dprobe_desc probes[DPROBE_ROW_MAX];
static uint32_t ids[DPROBE_ROW_MAX];
static char parts[DPROBE_ROW_MAX][2][DPROBE_ROW_PART];
static unsigned nkept, nrefused;
static const char *who;

// keep: the probe in id order; refused when its id is another name's (emitgen fails the build
// on the same test) or the table is full.
static int keep(void *user, uint32_t id, const char *prov, const char *name)
{
    (void)user;
    unsigned k = 0;
    while (k < nkept && ids[k] < id)
        k++;
    if (k < nkept && ids[k] == id) {
        fprintf(stderr, "%s: the rows' probe %s:::%s has the id of %s:::%s (0x%x): rename one\n",
                who, prov, name, probes[k].prov, probes[k].name, id);
        nrefused++;
        return 0;
    }
    if (nkept == DPROBE_ROW_MAX) {
        nrefused++;
        return 0;
    }
    memmove(&ids[k + 1], &ids[k], (nkept - k) * sizeof(ids[0]));
    memmove(&probes[k + 1], &probes[k], (nkept - k) * sizeof(probes[0]));
    memmove(&parts[k + 1], &parts[k], (nkept - k) * sizeof(parts[0]));
    for (unsigned j = k + 1; j <= nkept; j++)   // (the moved names' pointers follow them)
        probes[j] = (struct dprobe_desc){ parts[j][0], "", "", parts[j][1] };
    snprintf(parts[k][0], DPROBE_ROW_PART, "%s", prov);
    snprintf(parts[k][1], DPROBE_ROW_PART, "%s", name);
    probes[k] = (struct dprobe_desc){ parts[k][0], "", "", parts[k][1] };
    ids[k] = id;
    nkept++;
    return 0;
}

static int rows_get(uint32_t id, struct dprobe_desc *d)
{
    for (unsigned k = 0; k < nkept; k++)
        if (ids[k] == id) {
            *d = probes[k];
            return 0;
        }
    return -1;
}

static uint32_t rows_next(uint32_t id)
{
    for (unsigned k = 0; k < nkept; k++)
        if (ids[k] > id)
            return ids[k];
    return 0;
}

static const struct dprobe_rowset rowset = { rows_get, rows_next };

unsigned row_probes_use(const char *tool)
{
    who = tool;
    nkept = nrefused = 0;
    unsigned all = dprobe_rows_walk(keep, NULL);
    if (all > DPROBE_ROW_MAX)
        fprintf(stderr, "%s: %u probes the event table's rows name have no id (at most %u)\n",
                tool, all - DPROBE_ROW_MAX, DPROBE_ROW_MAX);
    dprobe_rows_use(&rowset);
    return nkept;
}
