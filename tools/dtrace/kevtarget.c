// SPDX-License-Identifier: MIT
// $target over a capture: the capture's process table (the shared decoder's names, from the
// START snapshot and the process-creation events) answers -p PID and -c NAME, as dtrace(1M)
// answers them from the live system's processes.
#include "kevtarget.h"
#include "../common/tool_file.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace/kev_decode.h>

static int name_matches(const char *have, const char *want)
{
    const char *base = strrchr(have, '/');
    return !strcmp(have, want) || (base && !strcmp(base + 1, want));
}

int kev_capture_target(const char *path, const char *name, int64_t *pid)
{
    size_t len;
    uint8_t *data = tool_read_file(path, &len);
    static struct kev_reader r;
    if (!data || kev_open(&r, data, len) != 0) {
        fprintf(stderr, "dtrace: cannot read %s%s%s\n", path, data ? ": " : "",
                data ? kev_error(&r) : "");
        free(data);
        return -1;
    }
    kev_decode(&r); /* a damaged tail still leaves the processes seen before it */
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
