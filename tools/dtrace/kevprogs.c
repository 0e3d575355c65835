// SPDX-License-Identifier: MIT
// dtrace -i's programs: the USDT and pid probes of the programs a capture ran, read from their
// ELF files found by the build ids the capture records (tools/common/tool_syms.c, the lookup
// kevstat and kevreport name frames with), so that a program's probes match without --elf;
// $target bound from the capture when no -c or -p names it; and, when a probe matches nothing,
// which programs the capture holds and what to pass. Single-threaded.
#include "kevprogs.h"
#include "kevtarget.h"
#include <kevhost/tool_syms.h>
#include <kevhost/tool_usdt.h>
#include <kevhost/dif_target.h>
#include <d/dif.h>
#include <d/dprobes.h>
#include <stdio.h>
#include <string.h>

static int loaded = -1;     // files read (-1: not looked up yet)
static char found_list[1024], missing_list[1024];

static void append(char *list, size_t n, const char *s)
{
    size_t l = strlen(list);
    if (l + 1 < n)
        snprintf(list + l, n - l, "%s%s", l ? ", " : "", s);
}

static void take(void *arg, const char *mod, const char *path, int given)
{
    (void)arg;
    if (!path) {
        append(missing_list, sizeof(missing_list), mod);
        return;
    }
    append(found_list, sizeof(found_list), mod);
    if (!given && tool_usdt_load_as("dtrace", path, mod) >= 0)   // (--elf's: read already)
        loaded++;
}

int kevprogs_load(void)
{
    if (loaded >= 0)
        return 0;
    loaded = 0;
    syms_programs(take, NULL);
    return loaded;
}

void kevprogs_hint(FILE *f)
{
    if (loaded < 0)
        return;
    if (found_list[0])
        fprintf(f, "dtrace: the capture's programs with their ELF files (found by build id): "
                "%s\n", found_list);
    if (missing_list[0])
        fprintf(f, "dtrace: the capture's programs without: %s: give a program's file with "
                "--elf FILE or a directory of them with --symbols DIR (docs/symbols.md)\n",
                missing_list);
    if (!found_list[0] && !missing_list[0])
        fprintf(f, "dtrace: the capture records no program's build id: give a program's "
                "file with --elf FILE\n");
}

int kevprogs_target(const char *capture, const void *obj, size_t len, uint32_t placeholder,
                    int64_t *target)
{
    static struct dif_obj o;
    char err[256], list[1024];
    const char *mods[64];
    unsigned nmods = 0;
    if (dif_verify(obj, len, &o, err, sizeof(err)) != 0)
        return 0;       // (the compile proper says what is wrong)
    uint32_t k = 0;
    const char *m;
    while (nmods < sizeof(mods) / sizeof(mods[0]) && (m = dif_target_next(&o, placeholder, &k)))
        mods[nmods++] = m;
    if (!nmods) {
        int n = kev_capture_procs(capture, NULL, 0, target, list, sizeof(list));
        if (n >= 0)
            fprintf(stderr, "dtrace: $target names no process: over a capture give -c NAME "
                    "or -p PID, one of its processes: %s\n", n ? list : "(none)");
        return -1;
    }
    int n = kev_capture_procs(capture, mods, nmods, target, list, sizeof(list));
    if (n < 0)
        return -1;
    if (n == 1)
        return 0;
    char names[512] = "";
    for (unsigned j = 0; j < nmods; j++)
        append(names, sizeof(names), mods[j]);
    if (!n)
        fprintf(stderr, "dtrace: pid$target: no process of the capture ran %s: give -c NAME or "
                "-p PID\n", names);
    else
        fprintf(stderr, "dtrace: pid$target: %d processes of the capture ran %s: %s: give -p "
                "PID (or -c NAME) to say which is $target\n", n, names, list);
    return -1;
}
