// SPDX-License-Identifier: MIT
// $target over a capture: the capture's process table (the shared decoder's names, from the
// START snapshot and the process-creation events) answers -p PID and -c NAME, as dtrace(1M)
// answers them from the live system's processes; without either, the only process that ran
// the program a pid$target probe names (kev_capture_procs). $pid over a capture: the board's
// dtrace whose span (DPROG events) the capture holds (kev_capture_consumer).
#include "kevtarget.h"
#include <kevhost/kx_fields.h>
#include <kevhost/tool_file.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace/kev_decode.h>

static int name_matches(const char *have, const char *want)
{
    const char *base = strrchr(have, '/');
    return !strcmp(have, want) || (base && !strcmp(base + 1, want));
}

// The capture at path read and decoded into r (its processes); the file's bytes, which the
// caller frees, or NULL after saying why. A damaged tail still leaves the processes seen
// before it.
static uint8_t *decode_capture(const char *path, struct kev_reader *r)
{
    size_t len;
    uint8_t *data = tool_read_file(path, &len);
    if (!data || kev_open(r, data, len) != 0) {
        fprintf(stderr, "dtrace: cannot read %s%s%s\n", path, data ? ": " : "",
                data ? kev_error(r) : "");
        free(data);
        return NULL;
    }
    kev_decode(r);
    return data;
}

int kev_capture_target(const char *path, const char *name, int64_t *pid)
{
    static struct kev_reader r;
    uint8_t *data = decode_capture(path, &r);
    if (!data)
        return -1;
    int found = 0;
    for (unsigned i = 0; i < r.kr_nprocs && !found; i++) {
        if (name ? name_matches(r.kr_procs[i].kn_name, name)
                 : (int64_t)r.kr_procs[i].kn_pid == *pid) {
            *pid = r.kr_procs[i].kn_pid;
            found = 1;
        }
    }
    free(data);
    if (found)
        return 0;
    if (name)
        fprintf(stderr, "dtrace: failed to find process '%s' in %s (-c over a capture names "
                "one of its processes)\n", name, path);
    else
        fprintf(stderr, "dtrace: failed to grab pid %lld: no such process in %s\n",
                (long long)*pid, path);
    return -1;
}

int kev_capture_procs(const char *path, const char *const *names, unsigned n, int64_t *pid,
                      char *list, size_t listn)
{
    static struct kev_reader r;
    uint8_t *data = decode_capture(path, &r);
    if (!data)
        return -1;
    int found = 0;
    size_t used = 0;
    if (listn)
        list[0] = 0;
    for (unsigned i = 0; i < r.kr_nprocs; i++) {
        const struct kev_name *p = &r.kr_procs[i];
        int match = !n;
        for (unsigned k = 0; k < n && !match; k++)
            match = name_matches(p->kn_name, names[k]);
        if (!match || !p->kn_pid)
            continue;
        if (!found++)
            *pid = p->kn_pid;
        int w = used < listn ? snprintf(list + used, listn - used, "%s%s (pid %u)",
                                        found > 1 ? ", " : "", p->kn_name, (unsigned)p->kn_pid) : 0;
        if (w > 0)
            used += (size_t)w;
    }
    free(data);
    return found;
}

int kev_capture_consumer(const char *path, int64_t *pid)
{
    static struct kev_reader r;
    size_t len;
    uint8_t *data = tool_read_file(path, &len);
    if (!data || kev_open(&r, data, len) != 0) {
        fprintf(stderr, "dtrace: cannot read %s%s%s\n", path, data ? ": " : "",
                data ? kev_error(&r) : "");
        free(data);
        return -1;
    }
    struct kev_event e;
    int found = 0;
    while (!found && kev_next(&r, &e) == 1)
        if (e.cls == KEV_C_SYSTEM && e.ev == KEV_SYS_DPROG && e.nw >= 2 &&
            kev_field(&e, kx_fields()->dprog_what) == KEV_DPROG_GO) {
            *pid = kev_who_pid(kev_field(&e, kx_fields()->dprog_who));
            found = 1;
        }
    free(data);
    return found;
}
