// SPDX-License-Identifier: MIT
// The rows' own D probes (row_probes.h): a row's D column probe "provider:::name" whose
// provider and name no table id has (dprobe_get over the fixed ids) gets the next id of
// DPROBE_ROW_BASE's range, in the rows' order. A probe with a field filled in per event
// ("interrupt::irq<irq>:entry"), a list ("a, b") or derived is not one: those are the
// kernel's families and the replay's state. State: the made table, set once and never changed.
#include "row_probes.h"
#include <d/dprobes.h>
#include <stdio.h>
#include <string.h>
#include <trace/kev_events.h>

#define PART_MAX 48u

static struct dprobe_desc probes[DPROBE_ROW_MAX];
static char parts[DPROBE_ROW_MAX][2][PART_MAX];

// split: "prov:::name" into its two parts; 0 when s is not of that form.
static int split(const char *s, char prov[PART_MAX], char name[PART_MAX])
{
    const char *sep = strstr(s, ":::");
    size_t np = sep ? (size_t)(sep - s) : 0, nn = sep ? strlen(sep + 3) : 0;
    if (!np || !nn || np >= PART_MAX || nn >= PART_MAX || strpbrk(s, "<>, *?["))
        return 0;
    if (memchr(s, ':', np) || strchr(sep + 3, ':'))
        return 0;
    memcpy(prov, s, np);
    prov[np] = 0;
    memcpy(name, sep + 3, nn + 1);
    return 1;
}

// known: a table id, or one already made, is provider:::name.
static int known(const char *prov, const char *name, unsigned made)
{
    struct dprobe_desc d;
    for (uint32_t id = DPROBE_NONE + 1u; id < DPROBE_COUNT; id++)
        if (dprobe_get(id, &d) == 0 && !d.mod[0] && !d.func[0] && !strcmp(d.prov, prov) &&
            !strcmp(d.name, name))
            return 1;
    for (unsigned k = 0; k < made; k++)
        if (!strcmp(probes[k].prov, prov) && !strcmp(probes[k].name, name))
            return 1;
    return 0;
}

unsigned row_probes_use(const char *tool)
{
    unsigned n = 0, over = 0;
    for (unsigned i = 0; i < kev_event_rows(); i++) {
        const struct kev_event_desc *row = kev_event_row(i);
        for (const struct kev_dprobe *dp = row->dprobes; dp && dp->probe; dp++) {
            char prov[PART_MAX], name[PART_MAX];
            if (dp->derived || !split(dp->probe, prov, name) || known(prov, name, n))
                continue;
            if (n == DPROBE_ROW_MAX) {
                over++;
                continue;
            }
            memcpy(parts[n][0], prov, sizeof(prov));
            memcpy(parts[n][1], name, sizeof(name));
            probes[n] = (struct dprobe_desc){ parts[n][0], "", "", parts[n][1] };
            n++;
        }
    }
    if (over)
        fprintf(stderr, "%s: %u probes the event table's rows name have no id (at most %u)\n",
                tool, over, DPROBE_ROW_MAX);
    dprobe_rows_use(probes, n);
    return n;
}
