// SPDX-License-Identifier: MIT
// The incident record an earlier boot's D trigger left (docs/incidents.md): at its start the
// logger asks the kernel whether one is held (TraceEvent KTRACE_INCIDENT), checks it as every
// reader does (kev_incident_check) and writes it to the host as NAME.kev and NAME.core with
// the writers kevdump shares (trace/kev_incident_kev.c, kev_incident_core.c), then tells the
// kernel it is read. A board with no host files keeps it (said) until a probe's kevdump reads
// it or a logger with a host link writes it out. The record is read from the kernel a piece at
// a time into this program's RAM (its slot is small: a few KB for all of it).
#include "tracelogger.h"
#include <kern.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <trace/kev_incident.h>
#include <utc_date.h>
#include <board_user.h>

#ifdef BOARD_NO_INCIDENT
void tl_incident(const struct tl_opts *o)
{
    (void)o;    // no incident region on this board (board_config.h): never a record
}
#else

#define SECS_MAX 80u        // sections kept: the trigger, processes, threads, the D program, the ring
#define PIECE 256u          // record bytes read from the kernel at a time (a little cache)

static uint8_t piece[PIECE];
static uint32_t piece_at = UINT32_MAX, piece_len;

// Body bytes [off, off + n): through a cache of one piece, read with KTRACE_INCIDENT_READ.
static int body_read(void *arg, uint32_t off, void *dst, uint32_t n)
{
    (void)arg;
    uint8_t *d = dst;
    off += (uint32_t)sizeof(struct kev_inc_hdr);
    while (n) {
        if (piece_at == UINT32_MAX || off < piece_at || off >= piece_at + piece_len) {
            struct ktrace_incident_read rq = { off, (uint32_t)(uintptr_t)piece, PIECE };
            int got = TraceEvent(KTRACE_INCIDENT, KTRACE_INCIDENT_READ, (uint32_t)(uintptr_t)&rq, 0);
            if (got <= 0)
                return -1;
            piece_at = off;
            piece_len = (uint32_t)got;
        }
        uint32_t k = piece_at + piece_len - off < n ? piece_at + piece_len - off : n;
        memcpy(d, piece + (off - piece_at), k);
        d += k;
        off += k;
        n -= k;
    }
    return 0;
}

static int fd_write(void *arg, const void *p, size_t n)
{
    return write(*(int *)arg, p, n) == (ssize_t)n ? 0 : -1;
}

// One file of the record: path made, the writer run into it. 0; 1 no host files; -1 said why.
static int one_file(const char *path, const struct kev_inc_view *v, struct kev_inc_io *io,
                    struct kev_inc_sum *sum, int core)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return errno == ENOSYS ? 1 : (printf("tracelogger: cannot create %s on the host "
                                             "(errno %d): the incident record is kept\n", path,
                                             errno), -1);
    io->wr_arg = &fd;
    const char *why = "";
    char date[29];
    utc_date_text(date, utc_host_seconds());
    int r = core ? kev_incident_core(v, io, sum, &why)
                 : kev_incident_kev(v, io, path, date, sum, &why);
    if (close(fd) < 0 && r == 0) {
        why = "closing it failed";
        r = -1;
    }
    if (r < 0)
        printf("tracelogger: writing %s failed: %s; the incident record is kept\n", path, why);
    return r;
}

void tl_incident(const struct tl_opts *o)
{
    int bytes = TraceEvent(KTRACE_INCIDENT, KTRACE_INCIDENT_QUERY, 0, 0);
    if (bytes <= 0)
        return;
    static struct kev_inc_hdr hdr;
    static struct kev_inc_secref secs[SECS_MAX];
    static struct kev_inc_view v;
    struct ktrace_incident_read rq = { 0, (uint32_t)(uintptr_t)&hdr, sizeof(hdr) };
    const char *why = "";
    v.sec = secs;
    v.cap = SECS_MAX;
    if (TraceEvent(KTRACE_INCIDENT, KTRACE_INCIDENT_READ, (uint32_t)(uintptr_t)&rq, 0) !=
            (int)sizeof(hdr) ||
        kev_incident_check(&hdr, hdr.region_bytes, body_read, NULL, &v, &why) != 0) {
        printf("tracelogger: the incident record is refused: %s\n", why);
        return;
    }
    static char path[2][96];
    snprintf(path[0], sizeof(path[0]), "%s.kev", o->incident);
    snprintf(path[1], sizeof(path[1]), "%s.core", o->incident);
    struct kev_inc_io io = { body_read, NULL, fd_write, NULL, kev_head_scratch() };
    struct kev_inc_sum sum = { 0, 0, 0, 0 };
    int r = one_file(path[0], &v, &io, &sum, 0);
    if (r == 0)
        r = one_file(path[1], &v, &io, &sum, 1);
    if (r == 1) {
        printf("tracelogger: incident record %u kept: no host files on this board (kevdump "
               "reads it over a probe)\n", (unsigned)v.hdr.seq);
        return;
    }
    if (r < 0)
        return;
    TraceEvent(KTRACE_INCIDENT, KTRACE_INCIDENT_DONE, v.hdr.seq, 0);
    printf("tracelogger: incident record %u (%s( ) at %s, clause %u) written to %s (%lu events "
           "in %lu buffers, %lu lost) and %s (%u threads)\n", (unsigned)v.hdr.seq,
           kev_incident_action_name(v.trig.action), v.trig.probe, (unsigned)v.trig.clause,
           path[0], (unsigned long)sum.events, (unsigned long)sum.nbufs,
           (unsigned long)sum.lost, path[1], (unsigned)sum.nthreads);
}
#endif
