// SPDX-License-Identifier: MIT
// kevdump -I (kevdump_incident.h): the board's incident region read through any GDB server
// while the target is halted (QEMU's gdbstub, OpenOCD, J-Link), the record checked by the
// readers' one check (kev_incident_check) and written out by the same writers as the next
// boot's tracelogger uses (trace/kev_incident_kev.c, kev_incident_core.c): the same .kev and
// core bytes either way. The record stays as it is on the target: a probe only reads.
#include "kevdump_incident.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <trace/kev_incident.h>
#include <trace/kev_ring_map.h>

struct mem {
    const uint8_t *body;
    uint32_t len;
};

static int mem_read(void *arg, uint32_t off, void *dst, uint32_t n)
{
    const struct mem *m = arg;
    if (off > m->len || n > m->len - off)
        return -1;
    memcpy(dst, m->body + off, n);
    return 0;
}

static int file_write(void *arg, const void *p, size_t n)
{
    return fwrite(p, 1, n, arg) == n ? 0 : -1;
}

// One output file: the .kev or the core. 0, or -2 after saying why.
static int one_file(const char *path, const struct kev_inc_view *v, struct kev_inc_io *io,
                    struct kev_inc_sum *sum, int core)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "kevdump: cannot create %s: %s\n", path, strerror(errno));
        return -2;
    }
    io->wr_arg = f;
    const char *why = "";
    char date[64];
    time_t now = time(NULL);
    strftime(date, sizeof(date), "%a %b %d %H:%M:%S UTC %Y", gmtime(&now));
    int r = core ? kev_incident_core(v, io, sum, &why) : kev_incident_kev(v, io, path, date, sum, &why);
    if (fclose(f) != 0 && r == 0) {
        why = "closing it failed";
        r = -1;
    }
    if (r < 0) {
        fprintf(stderr, "kevdump: writing %s failed: %s\n", path, why);
        remove(path);
        return -2;
    }
    return 0;
}

int kevdump_incident(struct gdbr *g, uint64_t map_addr, const char *name, int quiet)
{
    uint8_t mb[KEV_INC_MAP_ADDRS + 16];
    if (gdbr_read(g, map_addr, mb, sizeof(mb)) < 0)
        return -1;
    uint32_t ptr = kev_ring_le(mb + 12, 4);
    if (memcmp(mb, KEV_INC_MAP_MAGIC, sizeof(KEV_INC_MAP_MAGIC)) != 0 ||
        kev_ring_le(mb + 8, 4) != KEV_INC_VERSION || (ptr != 4 && ptr != 8)) {
        fprintf(stderr, "kevdump: no valid incident map at 0x%llx (another kernel, or another "
                "version of it?)\n", (unsigned long long)map_addr);
        return -2;
    }
    uint64_t start = kev_ring_ptr(mb + KEV_INC_MAP_ADDRS, ptr);
    uint64_t end = kev_ring_ptr(mb + KEV_INC_MAP_ADDRS + ptr, ptr);
    if (end <= start + sizeof(struct kev_inc_hdr) || end - start > (1ull << 30)) {
        fprintf(stderr, "kevdump: this board has no incident region\n");
        return -2;
    }
    uint32_t region = (uint32_t)(end - start);
    static struct kev_inc_hdr h;
    if (gdbr_read(g, start, &h, sizeof(h)) < 0)
        return -1;
    static struct mem m;
    m.len = h.body_bytes <= region - sizeof(h) ? h.body_bytes : 0;
    m.body = malloc(m.len + 1u);
    if (!m.body || gdbr_read(g, start + sizeof(h), (void *)m.body, m.len) < 0)
        return -1;
    static struct kev_inc_secref secs[KEV_INC_MAX_SECS];
    static struct kev_inc_view v;
    v.sec = secs;
    v.cap = KEV_INC_MAX_SECS;
    const char *why = "";
    int r = kev_incident_check(&h, region, mem_read, &m, &v, &why);
    if (r == 1) {
        fprintf(stderr, "kevdump: the incident region (0x%llx, %u bytes) holds no record\n",
                (unsigned long long)start, (unsigned)region);
        return -2;
    }
    if (r < 0) {
        fprintf(stderr, "kevdump: the incident record is refused: %s\n", why);
        return -2;
    }
    static uint8_t scratch[KEV_INC_SCRATCH];
    struct kev_inc_io io = { mem_read, &m, file_write, NULL, scratch };
    struct kev_inc_sum sum = { 0, 0, 0, 0 };
    char kev[4096], core[4096];
    snprintf(kev, sizeof(kev), "%s.kev", name);
    snprintf(core, sizeof(core), "%s.core", name);
    if ((r = one_file(kev, &v, &io, &sum, 0)) < 0 || (r = one_file(core, &v, &io, &sum, 1)) < 0)
        return r;
    if (!quiet)
        printf("kevdump: incident record %u (%s( ) at %s, clause %u%s) written to %s (%llu "
               "events in %u buffers, %llu lost) and %s (%u threads)\n", (unsigned)h.seq,
               kev_incident_action_name(v.trig.action), v.trig.probe, (unsigned)v.trig.clause,
               h.state == KEV_INC_READ ? "; written out by a logger before" : "", kev,
               (unsigned long long)sum.events, (unsigned)sum.nbufs,
               (unsigned long long)sum.lost, core, (unsigned)sum.nthreads);
    return 0;
}
